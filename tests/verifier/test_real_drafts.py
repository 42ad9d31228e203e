"""Drafts a real model wrote: the packaged SmolLM2-135M-Instruct (`make demo-local`) over the
traces of a real night of this project (plan mode), free text and structured, English and
Spanish. Each record holds the trace as the night verified it and a hand label (`faithful` or
`wrong`, with a one-line reason). Recorded outputs: no model is loaded here.

The night's own judge must accept no wrong draft, and reject under 5% of the faithful ones."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

from flows.run.judge import verdict_of
from verifier.trace_view import parse_trace

RECORDED = Path(__file__).parent / "real_drafts" / "smollm2.jsonl"


def load() -> list[dict[str, Any]]:
    return [json.loads(line) for line in RECORDED.read_text(encoding="utf-8").splitlines()]


def table() -> Counter[tuple[str, str, str]]:
    """(drafting, label, verdict) -> drafts."""
    counts: Counter[tuple[str, str, str]] = Counter()
    for record in load():
        verdict = "accepted" if verdict_of(parse_trace(record["trace"])).accepted else "rejected"
        counts[record["drafting"], record["label"], verdict] += 1
    return counts


def test_every_record_is_labelled_with_a_reason() -> None:
    records = load()
    assert {r["drafting"] for r in records} == {"free", "structured"}
    assert {r["trace"]["language"] for r in records} == {"en", "es"}
    assert all(r["label"] in ("faithful", "wrong") and r["why"].strip() for r in records)
    assert all(r["trace"]["draft"] for r in records)


def test_no_wrong_draft_is_accepted_and_few_faithful_ones_are_rejected() -> None:
    counts = table()
    for drafting in ("free", "structured"):
        row = {k[1:]: v for k, v in counts.items() if k[0] == drafting}
        print(f"\n{drafting}: {dict(sorted(row.items()))}")
    wrong_accepted = [
        r["id"]
        for r in load()
        if r["label"] == "wrong" and verdict_of(parse_trace(r["trace"])).accepted
    ]
    assert wrong_accepted == []
    faithful = sum(v for k, v in counts.items() if k[1] == "faithful")
    rejected = sum(v for k, v in counts.items() if k[1:] == ("faithful", "rejected"))
    assert rejected < 0.05 * faithful or faithful == 0

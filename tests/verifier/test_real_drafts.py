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


CELLS = [(d, lang) for d in ("free", "structured") for lang in ("en", "es")]


def table() -> Counter[tuple[str, str, str, str]]:
    """(drafting, language, label, verdict) -> drafts."""
    counts: Counter[tuple[str, str, str, str]] = Counter()
    for record in load():
        verdict = "accepted" if verdict_of(parse_trace(record["trace"])).accepted else "rejected"
        counts[record["drafting"], record["trace"]["language"], record["label"], verdict] += 1
    return counts


def render(counts: Counter[tuple[str, str, str, str]]) -> str:
    """The table a reader checks: faithful/wrong x accepted/rejected, per mode and language."""
    lines = [
        f"{'drafting':<11}{'lang':<5}{'faithful acc':>13}{'faithful rej':>13}"
        f"{'wrong acc':>10}{'wrong rej':>10}{'drafts':>8}"
    ]
    for drafting, language in CELLS:
        row = [
            counts[drafting, language, label, verdict]
            for label in ("faithful", "wrong")
            for verdict in ("accepted", "rejected")
        ]
        lines.append(
            f"{drafting:<11}{language:<5}{row[0]:>13}{row[1]:>13}{row[2]:>10}{row[3]:>10}"
            f"{sum(row):>8}"
        )
    return "\n".join(lines)


def test_every_record_is_labelled_with_a_reason() -> None:
    records = load()
    assert {(r["drafting"], r["trace"]["language"]) for r in records} == set(CELLS)
    assert all(r["label"] in ("faithful", "wrong") and r["why"].strip() for r in records)
    assert all(r["trace"]["draft"] for r in records)
    assert len({r["id"] for r in records}) == len(records)


def test_no_wrong_draft_is_accepted_and_few_faithful_ones_are_rejected() -> None:
    counts = table()
    print("\n" + render(counts))
    wrong_accepted = [
        r["id"]
        for r in load()
        if r["label"] == "wrong" and verdict_of(parse_trace(r["trace"])).accepted
    ]
    assert wrong_accepted == []
    faithful = sum(v for k, v in counts.items() if k[2] == "faithful")
    rejected = sum(v for k, v in counts.items() if k[2:] == ("faithful", "rejected"))
    assert faithful > 0 and rejected < 0.05 * faithful

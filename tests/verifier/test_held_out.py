"""A third closed-world corpus, written apart from the other two: drafts in the phrasing of two
other models (bullets, bold labels, tables, appositions, passive voice, hedges, weekday and
ordinal dates, "No. 3" places, streaks with their count inside, shares of the book in words,
ratings, ratios, yields and price targets, another portfolio's position) over the real traces
of `closed_world/free_form_traces.json`, each kind with faithful paraphrases beside corrupted
ones (one thing wrong each). `build_held_out.py` writes it from the traces;
`pytest -s tests/verifier/test_held_out.py` prints the per-kind table.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

from tests.verifier.build_held_out import trace_of
from verifier.verify import verify_json as verify

ROWS = [
    json.loads(line)
    for line in (Path(__file__).parent / "closed_world" / "held_out.jsonl").read_text().splitlines()
]
KINDS = {
    "move", "hedge", "time_words", "streak", "trend", "external", "derived", "number_words",
    "unseen", "position", "sign_verbs", "comparison", "ranking", "counts", "cross_portfolio",
    "news", "events",
}  # fmt: skip


def test_every_kind_keeps_the_faithful_and_rejects_the_corrupted() -> None:
    right: Counter[tuple[str, str]] = Counter()
    total: Counter[tuple[str, str]] = Counter()
    for row in ROWS:
        key = (row["kind"], row["label"])
        total[key] += 1
        right[key] += verify({**trace_of(row), "draft": row["draft"]}).accepted == (
            row["label"] == "faithful"
        )
    kinds = sorted({k for k, _ in total})
    print("\nheld-out corpus: kind, faithful accepted, corrupted rejected")
    for kind in kinds:
        f, c = (kind, "faithful"), (kind, "corrupted")
        print(f"{kind:16} {right[f]:4}/{total[f]:<4} {right[c]:4}/{total[c]:<4}")
    kept = sum(right[k] for k in total if k[1] == "faithful")
    rejected = sum(right[k] for k in total if k[1] == "corrupted")
    n_kept = sum(total[k] for k in total if k[1] == "faithful")
    n_rejected = sum(total[k] for k in total if k[1] == "corrupted")
    print(f"faithful accepted {kept}/{n_kept}, corrupted rejected {rejected}/{n_rejected}")
    assert set(kinds) >= KINDS
    assert {row["lang"] for row in ROWS} == {"en", "es"}
    assert rejected / n_rejected >= 0.97
    assert kept / n_kept >= 0.98
    for key in total:
        assert right[key] / total[key] >= 0.9, key


def test_a_rejected_corrupted_draft_says_why() -> None:
    """Each corrupted kind is rejected with a reason naming a span or claim, never silently."""
    seen: dict[str, Any] = {}
    for row in ROWS:
        if row["label"] == "corrupted" and row["kind"] not in seen:
            verdict = verify({**trace_of(row), "draft": row["draft"]})
            seen[row["kind"]] = verdict
            assert not verdict.accepted
            assert all(reason.message for reason in verdict.reasons)
    assert set(seen) == KINDS

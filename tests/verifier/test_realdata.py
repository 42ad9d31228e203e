"""Real-world check on SummEdits earnings-call summaries: each `doc` is the text result of one
run_sql call and the summary is the draft. The figure rules must reject the figure edits and find
nothing wrong with the consistent summaries' figures; the closed-world rule then rejects every
summary, faithful or not: each retells the call's prose, which no rule can hold against a
result (a tool's text is data, never evidence for what it says)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from verifier.verify import verify_json as verify

ROOT = Path(
    os.environ.get("NIGHTDESK_REALDATA", Path(__file__).parents[2] / ".." / "shared" / "realdata")
)
CASES = ROOT / "summedits-ectsum" / "cases.jsonl"

pytestmark = pytest.mark.realdata


@pytest.mark.skipif(
    not CASES.is_file(), reason=f"real data absent: {CASES} (set NIGHTDESK_REALDATA)"
)
def test_figure_edits_rejected_and_consistent_summaries_accepted() -> None:
    rows = [json.loads(line) for line in CASES.read_text().splitlines()]

    def rules(row: dict[str, str]) -> set[str]:
        event = {"id": "e1", "tool": "run_sql", "args": {"sql": "select doc"}, "result": row["doc"]}
        verdict = verify(
            {"question": "Summarise the call.", "draft": row["summary"], "events": [event]}
        )
        return {r.rule.value for r in verdict.reasons}

    verdicts = {r["id"]: rules(r) for r in rows}
    figure_rules = {k: v - {"unverified_claim"} for k, v in verdicts.items()}
    edits = [r for r in rows if r["figure_edit"]]
    consistent = [r for r in rows if r["label"] == 1]
    rejected = sum(bool(figure_rules[r["id"]]) for r in edits)
    kept = sum(not figure_rules[r["id"]] for r in consistent)
    closed = sum("unverified_claim" in v for v in verdicts.values())
    print(
        f"\nsummedits: {rejected}/{len(edits)} figure edits rejected by a figure rule "
        f"({rejected / len(edits):.1%}), {kept}/{len(consistent)} consistent summaries with no "
        f"figure reason ({kept / len(consistent):.1%}); {closed}/{len(rows)} summaries rejected "
        "unverified_claim"
    )
    assert (len(edits), len(consistent)) == (206, 242)
    assert rejected >= 191  # >= 92% of the 206 edits
    assert kept >= 241
    assert closed == len(rows)

"""Real-world check on SummEdits earnings-call summaries: each `doc` is the text result of one
run_sql call and the summary is the draft; figure edits should be rejected, consistent summaries
accepted."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from verifier.verify import verify

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

    def accepted(row: dict[str, str]) -> bool:
        event = {"id": "e1", "tool": "run_sql", "args": {"sql": "select doc"}, "result": row["doc"]}
        return verify(
            {"question": "Summarise the call.", "draft": row["summary"], "events": [event]}
        ).accepted

    edits = [r for r in rows if r["figure_edit"]]
    consistent = [r for r in rows if r["label"] == 1]
    rejected = sum(not accepted(r) for r in edits)
    kept = sum(accepted(r) for r in consistent)
    print(
        f"\nsummedits: {rejected}/{len(edits)} figure edits rejected ({rejected / len(edits):.1%}), "
        f"{kept}/{len(consistent)} consistent accepted ({kept / len(consistent):.1%})"
    )
    assert (len(edits), len(consistent)) == (206, 242)
    assert rejected >= 191  # >= 92% of the 206 edits
    assert kept >= 241

"""The verifier is deterministic across processes: a verdict, its reasons and their messages
do not depend on the order Python's string hashing gives a set in one process (a message that
listed a set's members differed between two runs of the same night)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

CORPUS = Path(__file__).parent / "closed_world"
ROOT = Path(__file__).parents[2]
VERDICTS = """
import json, sys
from verifier.verify import verify_json
traces = json.loads(open(sys.argv[1]).read())
print(json.dumps([verify_json(t).model_dump(mode="json") for t in traces]))
"""


def traces(every: int) -> list[dict[str, object]]:
    """Every `every`-th draft of the free-form corpus and of the voices, with its trace."""
    by_id = json.loads((CORPUS / "free_form_traces.json").read_text())
    rows = []
    for path in [*sorted(CORPUS.glob("voice_*.jsonl")), CORPUS / "free_form.jsonl"]:
        rows += [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    return [{**by_id[r["question_id"]], "draft": r["draft"]} for r in rows[::every]]


def records(limit: int) -> list[dict[str, object]]:
    """A day's move with a record after it whose key names a field by its words
    ("day_change_pct"), given a wrong value: the rejection lists the fields those words name."""
    out: list[dict[str, object]] = []
    for trace in json.loads((CORPUS / "free_form_traces.json").read_text()).values():
        move = next((e for e in trace["events"] if e["tool"] == "get_daily_move"), None)
        result = move["result"] if move else None
        if not isinstance(result, dict) or "change_pct" not in result:
            continue
        ticker, day, pct = result["ticker"], result["session"], result["change_pct"]
        record = {"ticker": ticker, "session": day, "day_change_pct": round(pct - 0.15, 2)}
        draft = f"{ticker} closed at {result['close']} on {day}.\n{json.dumps(record)}"
        out.append({**trace, "draft": draft})
    return out[:limit]


def verdicts(path: Path, seed: str) -> list[object]:
    env = {**os.environ, "PYTHONHASHSEED": seed, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-c", VERDICTS, str(path)],
        env=env,
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
    )
    return json.loads(done.stdout)  # type: ignore[no-any-return]


def test_two_hash_seeds_give_the_same_verdicts_word_for_word(tmp_path: Path) -> None:
    path = tmp_path / "traces.json"
    picked = traces(9) + records(40)
    path.write_text(json.dumps(picked))
    first, second = verdicts(path, "1"), verdicts(path, "2")
    assert len(first) == len(picked) > 500
    assert [json.dumps(v) for v in first] == [json.dumps(v) for v in second]

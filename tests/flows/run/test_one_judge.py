"""One judge for every path: the night's `judge`, `nightdesk verify` and `verdict_of` (which
`nightdesk ask` prints) reach the same verdict for the same trace, the leak checks included."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from agent.prompts import system_prompt
from contract.trace import Trace
from flows.run.judge import judge, verdict_of
from verifier.trace_view import parse_trace

MOVE = {
    "id": "e1",
    "tool": "get_daily_move",
    "args": {"ticker": "AXO", "date": "2024-12-31"},
    "result": {
        "ticker": "AXO",
        "session": "2024-12-31",
        "previous_session": "2024-12-30",
        "close": 287.14,
        "previous_close": 283.43,
        "change": 3.71,
        "change_pct": 1.31,
    },
}
PROMPT_WORDS = " ".join(system_prompt("en", "plan").split()[:40])
DRAFTS = {
    "accepted": ("AXO closed at 287.14 on 2024-12-31, up 1.31%.", []),
    "closed world": (
        "AXO closed at 287.14 on 2024-12-31, up 1.31%, its best day.",
        ["unverified_claim"],
    ),
    "secret": ("AXO closed at 287.14, up 1.31%; key sk-a1B2c3D4e5F6g7H8i9j0.", ["leaked_secret"]),
    "prompt": (f"AXO closed at 287.14, up 1.31%. {PROMPT_WORDS}", ["leaked_prompt"]),
}


def trace_of(draft: str) -> dict[str, Any]:
    return {
        "question_id": "AXO/move",
        "question": "How did AXO close on 2024-12-31, and what was its day change?",
        "ticker": "AXO",
        "as_of": "2024-12-31",
        "language": "en",
        "events": [MOVE],
        "draft": draft,
        "stop_reason": "answered",
    }


def cli_rules(path: Path) -> list[str]:
    done = subprocess.run(
        [sys.executable, "-c", "from flows.cli.main import main; main()", "verify", str(path)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode in (0, 1), done.stderr
    return sorted({r["rule"] for r in json.loads(done.stdout)["reasons"]})


@pytest.mark.parametrize("name", DRAFTS)
def test_every_path_reaches_the_same_verdict(name: str, tmp_path: Path) -> None:
    draft, expected = DRAFTS[name]
    data = trace_of(draft)
    path = tmp_path / "trace.json"
    path.write_text(json.dumps(data))
    direct = sorted({r.rule.value for r in verdict_of(parse_trace(data)).reasons})
    trace = Trace.model_validate(data)
    assert verdict_of(trace) == verdict_of(parse_trace(data))  # the model, or its JSON parsed
    record = judge(trace, "move", "move", "AXO", ["P001"])
    night = sorted({r.code for r in record.reasons})
    assert direct == night == cli_rules(path) == expected
    assert (record.status == "accepted") is (expected == [])

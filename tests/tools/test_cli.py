"""`nightdesk tools call` runs one tool from the shell and prints its JSON."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

NIGHTDESK = Path(sys.executable).with_name("nightdesk")


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(NIGHTDESK), "tools", "call", *args], capture_output=True, text=True, timeout=120
    )


def test_tools_call_prints_the_result(small_data: Path, facts) -> None:
    split = facts.split
    args = json.dumps({"ticker": split.ticker, "date": split.date.isoformat()})
    done = run("get_daily_move", "--date", "2024-12-20", "--args", args, "--data", str(small_data))
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["session"] == split.date.isoformat() and result["splits"]


def test_tools_call_reports_errors(small_data: Path) -> None:
    bad = run(
        "get_price",
        "--date",
        "2024-12-20",
        "--args",
        '{"ticker": "ZZZZ", "date": "2024-06-03"}',
        "--data",
        str(small_data),
    )
    assert bad.returncode == 1 and "unknown ticker" in json.loads(bad.stdout)["error"]
    unknown = run("get_prices", "--date", "2024-12-20", "--data", str(small_data))
    assert unknown.returncode == 2
    assert unknown.stderr.strip().startswith("nightdesk: error: unknown tool 'get_prices'")

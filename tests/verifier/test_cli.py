"""`nightdesk verify`: verdict JSON, exit 0 accepted / 1 rejected / 2 unreadable, --jsonl in order."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ACCEPTED = {
    "question": "q",
    "draft": "AAPL closed at 27.88.",
    "events": [
        {"id": "e1", "tool": "get_price", "args": {"ticker": "AAPL"}, "result": {"close": 27.88}}
    ],
}
REJECTED = {**ACCEPTED, "draft": "AAPL closed at 27.89."}


def nightdesk(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    code = "from flows.cli.main import main; main()"
    return subprocess.run(
        [sys.executable, "-c", code, "verify", *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=Path(__file__).parents[2],
        timeout=60,
    )


@pytest.mark.parametrize(("trace", "code"), [(ACCEPTED, 0), (REJECTED, 1)])
def test_one_trace_from_a_file(tmp_path: Path, trace: dict, code: int) -> None:
    path = tmp_path / "t.json"
    path.write_text(json.dumps(trace))
    done = nightdesk(str(path))
    assert done.returncode == code
    assert json.loads(done.stdout)["accepted"] is (code == 0)


def test_a_rejected_case_file_is_verified_by_its_trace(tmp_path: Path) -> None:
    case = {"case_id": "AAPL__move", "question": "q", "draft": REJECTED["draft"], "trace": REJECTED}
    path = tmp_path / "AAPL__move.json"
    path.write_text(json.dumps(case))
    done = nightdesk(str(path))
    assert done.returncode == 1
    (reason,) = json.loads(done.stdout)["reasons"]
    assert reason["rule"] == "unsupported_figure"


def test_jsonl_from_stdin_prints_verdicts_in_order() -> None:
    done = nightdesk(
        "--jsonl", "-", stdin="\n".join(json.dumps(t) for t in (ACCEPTED, REJECTED, ACCEPTED))
    )
    assert done.returncode == 1
    assert [json.loads(line)["accepted"] for line in done.stdout.splitlines()] == [
        True,
        False,
        True,
    ]


@pytest.mark.parametrize(
    "stdin",
    [
        "{not json",
        "[1, 2]",
        '{"question": "q", "draft": null, "events": 3}',
        "{}",
        '{"run_id": "r1", "report_date": "2024-06-03", "counts": {}}',
    ],
)
def test_unreadable_input_is_one_line_and_exit_2(stdin: str) -> None:
    done = nightdesk("-", stdin=stdin)
    assert done.returncode == 2
    assert done.stdout == ""
    assert len(done.stderr.strip().splitlines()) == 1 and "nightdesk: error:" in done.stderr


def test_a_json_object_that_is_not_a_trace_says_which_fields_it_lacks() -> None:
    row = {"case_id": "AAPL__move", "question_id": "AAPL/move", "reason": "missing_answer"}
    done = nightdesk("--jsonl", "-", stdin=json.dumps(ACCEPTED) + "\n" + json.dumps(row))
    assert done.returncode == 2 and done.stdout == ""
    assert "line 2: not a trace: it has no 'question', 'draft' or 'events' field" in done.stderr


def test_a_bad_line_in_jsonl_names_the_line_and_prints_nothing() -> None:
    done = nightdesk("--jsonl", "-", stdin=json.dumps(ACCEPTED) + "\n{oops\n")
    assert done.returncode == 2 and done.stdout == "" and "line 2" in done.stderr


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("a.json", "b.json"), "Unused Tokens: ['b.json']"),
    ],
)
def test_a_command_line_that_does_not_parse_is_one_line_and_exit_2(
    args: tuple[str, ...], message: str
) -> None:
    done = nightdesk(*args)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.splitlines() == [f"nightdesk: error: {message}."]

"""`nightdesk review list|show|decide` and `nightdesk report` on a generated, published run."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

Cli = Callable[..., tuple[int, str, str]]
DATE = "2024-03-28"


def index(out: Path) -> list[dict]:
    lines = (out / DATE / "rejected" / "index.jsonl").read_text().splitlines()
    return [json.loads(line) for line in lines]


def case_with(out: Path, reason: str) -> str:
    return next(row["case_id"] for row in index(out) if row["reason"] == reason)


def report_answers(out: Path) -> list[dict]:
    found = []
    for path in sorted((out / DATE / "accepted").glob("*.json")):
        for section in json.loads(path.read_text())["tickers"]:
            found += [a for a in [*section["answers"], section["summary"]] if a]
    return found


def test_list_filters_by_reason(cli: Cli, run_out: Path) -> None:
    code, out, _ = cli(
        "review", "list", "--date", DATE, "--out", str(run_out), "--reason", "provider_error"
    )
    wanted = [r["case_id"] for r in index(run_out) if r["reason"] == "provider_error"]
    others = [r["case_id"] for r in index(run_out) if r["reason"] != "provider_error"]
    assert code == 0
    assert wanted and all(c in out for c in wanted)
    assert not any(c in out for c in others)


def test_show_prints_the_failing_claim_and_its_reason(cli: Cli, run_out: Path) -> None:
    case = case_with(run_out, "unsupported_figure")
    code, out, _ = cli("review", "show", case, "--date", DATE, "--out", str(run_out))
    assert code == 0
    assert "unsupported_figure" in out
    assert "987.65" in out


def test_approve_appears_in_the_rebuilt_report(cli: Cli, run_out: Path) -> None:
    case = case_with(run_out, "unsupported_figure")
    code, _, err = cli(
        "review", "decide", case, "--date", DATE, "--out", str(run_out),
        "--approve", "--note", "figure confirmed with the desk", "--by", "ana",
    )  # fmt: skip
    assert code == 0, err
    assert cli("report", "--date", DATE, "--out", str(run_out))[0] == 0
    answer = next(a for a in report_answers(run_out) if a.get("case_id") == case)
    assert answer["status"] == "approved"
    assert answer["note"] == "analyst-approved by ana: figure confirmed with the desk"
    markdown = "".join(p.read_text() for p in (run_out / DATE / "accepted").glob("*.md"))
    assert "analyst-approved by ana: figure confirmed with the desk" in markdown
    assert f'id="{case}"' in (run_out / DATE / "review.html").read_text()


def test_reject_keeps_it_withheld_and_by_defaults_to_the_user(
    cli: Cli, run_out: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("USER", "night-analyst")
    case = case_with(run_out, "unknown_headline")
    args = ("review", "decide", case, "--date", DATE, "--out", str(run_out))
    assert cli(*args, "--reject", "--note", "invented headline")[0] == 0
    assert cli("report", "--date", DATE, "--out", str(run_out))[0] == 0
    answer = next(a for a in report_answers(run_out) if a.get("case_id") == case)
    assert answer["status"] == "withheld"
    assert answer["reason"] == "unknown_headline"
    assert answer["note"] == "analyst-rejected by night-analyst: invented headline"


def test_rerun_records_a_new_verified_attempt(cli: Cli, run_out: Path, review_data: Path) -> None:
    case = case_with(run_out, "provider_error")
    original = (run_out / DATE / "rejected" / f"{case}.json").read_bytes()
    code, _, err = cli(
        "review", "decide", case, "--date", DATE, "--out", str(run_out), "--rerun",
        "--note", "provider outage", "--data", str(review_data), "--question-tokens", "20000",
    )  # fmt: skip
    assert code == 0, err
    attempt = json.loads((run_out / DATE / "reruns" / f"{case}.rerun-1.json").read_text())
    assert attempt["status"] == "accepted"
    assert attempt["rerun_of"] == case
    assert attempt["verdict"]["accepted"] is True
    decision = json.loads((run_out / DATE / "decisions.jsonl").read_text().splitlines()[-1])
    assert decision["rerun_case"] == f"{case}.rerun-1"
    assert (run_out / DATE / "rejected" / f"{case}.json").read_bytes() == original

    assert cli("report", "--date", DATE, "--out", str(run_out))[0] == 0
    answer = next(a for a in report_answers(run_out) if a.get("case_id") == case)
    assert answer["status"] == "accepted"
    assert answer["answer"] == attempt["draft"]
    html = (run_out / DATE / "review.html").read_text()
    attempt_html = html.split(f'id="{case}.rerun-1"')[1].split("</article>")[0]
    assert "Verified: every claim is supported" in attempt_html
    assert 'class="rule"' not in attempt_html


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("review", "show", "../x"), "cannot be used as a file name"),
        (("review", "show", "..%2Fx"), "cannot be used as a file name"),
        (("review", "show", "NOPE__move"), "no case 'NOPE__move'"),
        (("review", "decide", "a/b", "--approve", "--note", "n"), "cannot be used as a file name"),
        (("review", "decide", "NOPE__move", "--reject", "--note", "n"), "no case 'NOPE__move'"),
        (("review", "decide", "X", "--approve", "--reject", "--note", "n"), "exactly one of"),
        (("review", "list", "--reason", "no_such_reason"), "no case with reason"),
        (
            ("review", "decide", "X", "--approve", "--note", "n", "--provider", "openai"),
            "--provider only apply to --rerun",
        ),
    ],
)
def test_bad_case_ids_give_one_line_errors(
    cli: Cli, published_run: Path, args: tuple[str, ...], message: str
) -> None:
    code, out, err = cli(*args, "--date", DATE, "--out", str(published_run))
    assert code == 2
    assert message in err
    assert len(err.strip().splitlines()) == 1
    assert out == ""


@pytest.mark.parametrize(
    "args",
    [
        ("review", "list"),
        ("review", "show", "AAA__move"),
        ("review", "decide", "AAA__move", "--approve", "--note", "n"),
        ("report",),
    ],
)
def test_unknown_dates_give_one_line_errors(
    cli: Cli, published_run: Path, args: tuple[str, ...]
) -> None:
    code, _, err = cli(*args, "--date", "2024-03-29", "--out", str(published_run))
    assert code == 2
    assert err.strip().splitlines() == [
        f"nightdesk: error: no run for 2024-03-29 ({published_run}/2024-03-29/manifest.json is "
        f"missing); runs under {published_run}: {DATE}"
    ]


def test_a_decision_needs_a_note(cli: Cli, run_out: Path) -> None:
    case = case_with(run_out, "unsupported_figure")
    code, _, err = cli(
        "review", "decide", case, "--date", DATE, "--out", str(run_out), "--reject", "--note", " "
    )
    assert code == 2
    assert "decision note: must not be empty (give --note TEXT" in err
    assert not (run_out / DATE / "decisions.jsonl").exists()


def test_a_hint_names_the_run_with_its_output_root(cli: Cli, published_run: Path) -> None:
    code, _, err = cli("review", "show", "NOPE__move", "--date", DATE, "--out", str(published_run))
    assert code == 2
    assert f"see `nightdesk review list --date {DATE} --out {published_run}`" in err


@pytest.mark.parametrize("data", ["missing", "empty", "file"])
def test_rerun_with_a_data_path_that_is_no_data_set_is_one_line(
    cli: Cli, run_out: Path, tmp_path: Path, data: str
) -> None:
    case = case_with(run_out, "provider_error")
    (tmp_path / "empty").mkdir()
    (tmp_path / "file").write_text("x")
    code, out, err = cli(
        "review", "decide", case, "--date", DATE, "--out", str(run_out), "--rerun",
        "--note", "n", "--data", str(tmp_path / data),
    )  # fmt: skip
    assert code == 2 and out == ""
    (line,) = err.strip().splitlines()
    assert line.startswith(f"nightdesk: error: data directory {tmp_path / data} ")
    assert "pass --data" in line or "nightdesk data generate" in line
    assert not list((run_out / DATE).glob("reruns/*"))
    assert not (run_out / DATE / "decisions.jsonl").exists()


def test_a_note_is_text_in_the_markdown_report_never_markup(cli: Cli, run_out: Path) -> None:
    from markdown_it import MarkdownIt

    case = case_with(run_out, "unsupported_figure")
    note = "fine\n\n## HACKED\n| a | b |\n<script>alert(1)</script> *really*"
    args = ("review", "decide", case, "--date", DATE, "--out", str(run_out))
    code, _, err = cli(*args, "--approve", "--note", note, "--by", "<b>ana</b>")
    assert code == 2 and "letters, digits, spaces" in err  # a name is a name, never markup
    assert cli(*args, "--approve", "--note", note, "--by", "ana")[0] == 0
    assert cli("report", "--date", DATE, "--out", str(run_out))[0] == 0
    md = MarkdownIt("commonmark").enable("table")
    pages = [md.render(p.read_text()) for p in (run_out / DATE / "accepted").glob("*.md")]
    page = next(p for p in pages if "HACKED" in p)
    assert "<h2>HACKED" not in page and "<script>" not in page
    assert page.count("<table>") == 1 and "<em>really</em>" not in page
    flat = " ".join(note.split()).replace("<", "&lt;").replace(">", "&gt;")
    assert f"analyst-approved by ana: {flat}" in page


def test_a_case_without_a_verdict_keeps_why(cli: Cli, run_out: Path) -> None:
    case = case_with(run_out, "provider_error")
    stored = json.loads((run_out / DATE / "rejected" / f"{case}.json").read_text())
    assert stored["verdict"] is None
    (reason,) = stored["reasons"]
    assert reason["code"] == "provider_error" and reason["message"]
    code, out, _ = cli("review", "show", case, "--date", DATE, "--out", str(run_out))
    assert code == 0
    assert f"provider_error: {reason['message'][:40]}" in " ".join(out.split())

"""Publishing on tmp_path: layout, atomic writes, path validation, stale files, counts."""

from __future__ import annotations

import json
import os
from datetime import date
from pathlib import Path

import duckdb
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from contract.errors import InputError
from contract.reasons import ReasonCode
from contract.tools import ToolResult
from contract.trace import ToolEvent, Trace
from flows.night.outputs import RunOutcome, publish_run
from flows.publish.layout import RunLayout, check_name, write_atomic
from flows.publish.records import QuestionRecord, RecordReason, TickerResult
from tools.portfolio_table import build_portfolio_table
from verifier.verdict import Reason, Verdict

DAY = date(2024, 6, 3)


def record(
    qid: str, portfolios: list[str], status: str, reason: str | None = None
) -> QuestionRecord:
    ticker, spec = qid.split("/")[:2]
    return QuestionRecord(
        question_id=qid,
        spec_id=spec,
        kind=spec,
        ticker=ticker,
        portfolios=portfolios,
        text=f"question {qid}",
        status=status,  # type: ignore[arg-type]
        reason=reason,
        draft=f"draft of {qid}",
        trace=Trace(
            question_id=qid,
            question=f"question {qid}",
            events=[ToolEvent(id="c1", tool="get_daily_move", args={}, result={"x": 1})],
        ),
        tokens={"input_tokens": 10, "cached_tokens": 0, "output_tokens": 5},
        model_calls=1,
    )


def table(pid: str, tickers: list[str]):
    holdings = {
        "portfolio_id": pid,
        "name": pid,
        "base_currency": "USD",
        "holdings": [{"ticker": t} for t in tickers],
    }
    pnls = {
        t: ToolResult(
            {"market_value": 100.0, "day_pnl": 1.0, "portfolio_value_previous_close": 200.0}
        )
        for t in tickers
    }
    return build_portfolio_table(pid, ToolResult(holdings), pnls, DAY)


def outcome(results: list[TickerResult]) -> RunOutcome:
    return RunOutcome(
        run_id="r1",
        report_date=DAY,
        tables=[table("P1", ["AAA", "BBB"]), table("P2", ["AAA"])],
        results=results,
    )


def results() -> list[TickerResult]:
    return [
        TickerResult(
            ticker="AAA",
            records=[
                record("AAA/move", ["P1", "P2"], "accepted"),
                record("AAA/position/P1", ["P1"], "rejected", "unsupported_number"),
                record("AAA/position/P2", ["P2"], "accepted"),
            ],
            summary=record("AAA/summary", ["P1", "P2"], "accepted"),
        ),
        TickerResult(
            ticker="BBB",
            records=[
                record("BBB/move", ["P1"], "rejected", "provider_error"),
                record("BBB/position/P1", ["P1"], "rejected", "provider_error"),
            ],
            summary_note="no verified answers to summarise",
        ),
    ]


def test_layout_and_counts(tmp_path: Path) -> None:
    published = publish_run(tmp_path, outcome(results()))
    day = tmp_path / "2024-06-03"
    assert sorted(p.name for p in (day / "accepted").iterdir()) == [
        "P1.html",
        "P1.json",
        "P1.md",
        "P2.html",
        "P2.json",
        "P2.md",
    ]
    assert sorted(p.name for p in (day / "rejected").iterdir()) == [
        "AAA__position__P1.json",
        "BBB__move.json",
        "BBB__position__P1.json",
        "index.jsonl",
    ]
    manifest = json.loads((day / "manifest.json").read_text())
    counts = manifest["counts"]
    assert counts["accepted"] == 3 and counts["rejected"] == 3
    assert counts["rejected_by_reason"] == {"provider_error": 2, "unsupported_number": 1}
    assert counts["withheld_by_portfolio"] == {"P1": 3, "P2": 0}
    assert published.counts == counts
    case = json.loads((day / "rejected" / "AAA__position__P1.json").read_text())
    assert case["reason"] == "unsupported_number" and case["draft"] == "draft of AAA/position/P1"
    assert case["trace"]["events"][0]["tool"] == "get_daily_move"


def test_a_case_file_reads_back_as_the_records_models(tmp_path: Path) -> None:
    from flows.publish.cases import load_cases

    verdict = Verdict(
        accepted=False,
        reasons=[Reason(rule=ReasonCode.UNSUPPORTED_FIGURE, message="no 9.9", span=(0, 5))],
    )
    rejected = record("AAA/position/P1", ["P1"], "rejected", "unsupported_number")
    rejected.verdict = verdict
    rejected.reasons = [RecordReason.of(r) for r in verdict.reasons]
    run = outcome([TickerResult(ticker="AAA", records=[rejected])])
    publish_run(tmp_path, run)
    (case,) = load_cases(RunLayout(tmp_path, DAY))
    assert case.trace == rejected.trace and case.verdict == verdict
    assert case.reasons == rejected.reasons and case.case_id == rejected.case_id
    on_disk = json.loads(
        (tmp_path / "2024-06-03" / "rejected" / f"{case.case_id}.json").read_text()
    )
    assert "status" not in on_disk and "rerun_of" not in on_disk  # a night's case re-asks nothing


def test_every_entry_once_across_reports_and_index(tmp_path: Path) -> None:
    publish_run(tmp_path, outcome(results()))
    day = tmp_path / "2024-06-03"
    accepted = set()
    for pid in ("P1", "P2"):
        report = json.loads((day / "accepted" / f"{pid}.json").read_text())
        for section in report["tickers"]:
            for a in [*section["answers"], *([section["summary"]] if section["summary"] else [])]:
                if a["status"] == "accepted":
                    accepted.add((pid, a["question_id"]))
    rows = duckdb.sql(
        f"SELECT unnest(portfolios) AS p, question_id FROM read_json('{day}/rejected/index.jsonl')"
    ).fetchall()
    rejected = set(rows)
    assert len(rows) == len(rejected) == 3
    assert not accepted & rejected
    manifest = json.loads((day / "manifest.json").read_text())
    assert len(accepted) == manifest["counts"]["entries_accepted"] == 5
    assert len(rejected) == manifest["counts"]["entries_rejected"]


def test_withheld_answers_are_shown_with_reason(tmp_path: Path) -> None:
    publish_run(tmp_path, outcome(results()))
    md = (tmp_path / "2024-06-03" / "accepted" / "P1.md").read_text().replace("\\_", "_")
    case = "[AAA__position__P1](<../review.html#AAA__position__P1>)"  # its entry on the page
    assert f"Withheld: the position answer (unsupported_number; case {case})." in md
    assert "_Paragraph withheld: no verified answers to summarise._" in md
    assert "draft of AAA/summary" in md
    assert "draft of AAA/move" not in md  # a verified answer is in the paragraph and the JSON
    assert (
        "3 answers withheld (1 rejected by the verifier, 2 lost to provider errors): see the "
        "review page, [review.html]" in md
    )
    assert f"`nightdesk review list --date 2024-06-03 --out {tmp_path}`" in md


def test_republish_removes_stale_cases_but_keeps_foreign_files(tmp_path: Path) -> None:
    publish_run(tmp_path, outcome(results()))
    day = tmp_path / "2024-06-03"
    (day / "decisions.jsonl").write_text("{}\n")
    fixed = results()
    fixed[1].records = [
        record("BBB/move", ["P1"], "accepted"),
        record("BBB/position/P1", ["P1"], "accepted"),
    ]
    publish_run(tmp_path, outcome(fixed))
    assert sorted(p.name for p in (day / "rejected").iterdir()) == [
        "AAA__position__P1.json",
        "index.jsonl",
    ]
    assert (day / "decisions.jsonl").exists()


def test_a_publish_cut_short_leaves_no_manifest_over_mixed_files(tmp_path: Path) -> None:
    from flows.publish.cases import open_run

    publish_run(tmp_path, outcome(results()))
    day = tmp_path / "2024-06-03"
    assert (day / "manifest.json").is_file() and (day / "review.html").is_file()
    (day / "accepted" / "P2.md").unlink()
    (day / "accepted" / "P2.md").mkdir()  # the second report cannot be written: publish fails
    fixed = results()
    fixed[1].records = [record("BBB/move", ["P1"], "accepted")]
    with pytest.raises(OSError):
        publish_run(tmp_path, outcome(fixed))
    assert not (day / "manifest.json").exists() and not (day / "review.html").exists()
    with pytest.raises(InputError, match=r"holds a folder at .*P2\.md, where a file goes"):
        open_run(tmp_path, date(2024, 6, 3))
    (day / "accepted" / "P2.md").rmdir()
    with pytest.raises(InputError, match="no run for 2024-06-03"):
        open_run(tmp_path, date(2024, 6, 3))
    publish_run(tmp_path, outcome(fixed))
    counts = json.loads((day / "manifest.json").read_text())["counts"]
    index = (day / "rejected" / "index.jsonl").read_text().splitlines()
    assert counts["rejected"] == len(index) == 1 and (day / "review.html").is_file()


@pytest.mark.parametrize("bad", ["../x", "a/b", "", ".hidden", "a..b", "x" * 200, "é"])
def test_unsafe_names_are_refused(bad: str) -> None:
    with pytest.raises(InputError):
        check_name(bad, "portfolio id")


def test_unsafe_portfolio_id_writes_nothing(tmp_path: Path) -> None:
    bad = outcome(results())
    bad.tables[1].portfolio_id = "../../etc"
    with pytest.raises(InputError, match="cannot be used as a file name"):
        publish_run(tmp_path / "out", bad)
    assert not (tmp_path / "etc").exists() and not (tmp_path / "out").exists()


def test_published_files_are_as_readable_as_any_file_the_user_writes(tmp_path: Path) -> None:
    publish_run(tmp_path / "out", outcome(results()))
    plain = tmp_path / "plain.txt"
    plain.write_text("x")
    written = [p for p in (tmp_path / "out").rglob("*") if p.is_file()]
    assert len(written) > 5
    assert {p.stat().st_mode & 0o777 for p in written} == {plain.stat().st_mode & 0o777}


def test_write_atomic_leaves_old_file_when_interrupted(tmp_path: Path) -> None:
    target = tmp_path / "f.json"
    write_atomic(target, "old")

    with pytest.raises(TypeError):
        write_atomic(target, 42)  # type: ignore[arg-type]
    assert target.read_text() == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["f.json"]


def test_layout_paths() -> None:
    layout = RunLayout(Path("/o"), DAY)
    assert layout.case("AAA__move") == Path("/o/2024-06-03/rejected/AAA__move.json")
    assert layout.report("P1", ".md") == Path("/o/2024-06-03/accepted/P1.md")


@settings(max_examples=400)
@given(
    st.lists(
        st.sampled_from([*"ab1 _*`[]()<>|~#&;!-+.=\\\n\t:/\"'", "é", "&amp;", "&#1;", "<b>"]),
        max_size=30,
    ).map("".join)
)
@example("a://b www.c d@e.f")  # what a renderer would link on its own
def test_md_text_renders_as_the_text_itself(text: str) -> None:
    """Whatever a draft, note or name holds, a Markdown renderer shows it as one plain line: the
    text as every medium shows it (`display_text`: a `://` written `[:]//`, never a live link)."""
    import html

    from markdown_it import MarkdownIt

    from contract.text import display_text
    from flows.publish.render import md_text

    flat = " ".join(display_text(text).split())
    rendered = MarkdownIt("commonmark").enable(["table", "strikethrough"]).render(md_text(text))
    expected = f"<p>{html.escape(flat, quote=False)}</p>\n" if flat else ""
    assert rendered.replace("&quot;", '"') == expected


def test_a_killed_writers_temporary_files_are_removed_and_live_ones_kept(tmp_path: Path) -> None:
    import subprocess
    import sys

    from flows.publish.layout import HOST, remove_orphans, write_json

    dead = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True
    )
    folder = tmp_path / ".ledgers" / "2024-12-31"
    folder.mkdir(parents=True)
    orphan = folder / f".attempt.json.{HOST}-{dead.stdout.strip()}.abc123.tmp"
    live = folder / f".attempt.json.{HOST}-{os.getpid()}.def456.tmp"
    other_host = folder / f".attempt.json.elsewhere-{dead.stdout.strip()}.ghi789.tmp"
    for path in (orphan, live, other_host):
        path.write_text("{half")
    write_json(folder / "attempt.json", {"whole": True})
    assert remove_orphans(tmp_path) == [orphan]
    assert live.exists() and other_host.exists() and (folder / "attempt.json").exists()

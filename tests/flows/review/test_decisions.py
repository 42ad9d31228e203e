"""The decision log: append-only, latest wins, damaged lines refused, reports follow it."""

from __future__ import annotations

import json
from datetime import UTC, date, datetime, timedelta, timezone
from pathlib import Path

import pytest

from contract.errors import InputError
from flows.publish.cases import load_case, open_run
from flows.publish.layout import write_json
from flows.review.decisions import decisions_path, latest_decisions, read_decisions, record_decision
from flows.review.rebuild import rebuild_run
from flows.review.state import ReviewState, load_reports

DAY = date(2024, 3, 28)
AT = datetime(2024, 3, 29, 9, 30, tzinfo=UTC)


def answer_of(out: Path, case_id: str) -> dict:
    """The answer that points at `case_id` in the first report holding it."""
    for path in sorted((out / DAY.isoformat() / "accepted").glob("*.json")):
        report = json.loads(path.read_text())
        for section in report["tickers"]:
            for answer in [*section["answers"], section["summary"]]:
                if answer and answer.get("case_id") == case_id:
                    return answer
    raise AssertionError(f"no answer for {case_id}")


def first_case(out: Path, reason: str) -> str:
    layout = open_run(out, DAY)
    return next(c.case_id for c in ReviewState.load(layout).cases.values() if c.reason == reason)


def test_a_later_decision_supersedes_without_erasing(run_out: Path) -> None:
    layout = open_run(run_out, DAY)
    case_id = first_case(run_out, "unsupported_figure")
    draft = load_case(layout, case_id).draft
    case_bytes = layout.case(case_id).read_bytes()
    first = record_decision(layout, case_id, "approve", note="ok", by="ana", at=AT, draft=draft)
    log_after_first = decisions_path(layout).read_bytes()
    later = AT + timedelta(hours=1)
    second = record_decision(layout, case_id, "reject", note="no", by="bo", at=later, draft=draft)

    assert decisions_path(layout).read_bytes().startswith(log_after_first)
    assert [d.action for d in read_decisions(layout)] == ["approve", "reject"]
    assert second.supersedes == first.decision_id
    assert latest_decisions(read_decisions(layout))[case_id].by == "bo"
    assert layout.case(case_id).read_bytes() == case_bytes


def test_approve_then_reject_in_the_rebuilt_report(run_out: Path) -> None:
    layout = open_run(run_out, DAY)
    case_id = first_case(run_out, "unknown_headline")
    draft = load_case(layout, case_id).draft
    assert answer_of(run_out, case_id)["status"] == "withheld"

    record_decision(
        layout, case_id, "approve", note="wire copy checked", by="ana", at=AT, draft=draft
    )
    rebuild_run(run_out, DAY)
    approved = answer_of(run_out, case_id)
    assert approved["status"] == "approved"
    assert approved["answer"] == draft
    assert "analyst-approved by ana: wire copy checked" in approved["note"]
    markdown = "".join(p.read_text() for p in (layout.accepted).glob("*.md"))
    assert "analyst-approved by ana: wire copy checked" in markdown
    pages = "".join(p.read_text() for p in (layout.accepted).glob("*.html"))
    assert "analyst-approved by ana: wire copy checked" in pages  # the HTML page is rebuilt too

    record_decision(layout, case_id, "reject", note="not on the wire", by="bo", at=AT, draft=draft)
    rebuild_run(run_out, DAY)
    withheld = answer_of(run_out, case_id)
    assert withheld["status"] == "withheld"
    assert withheld["reason"] == "unknown_headline"
    assert withheld["answer"] is None
    assert "analyst-rejected by bo" in withheld["note"]


def test_a_decision_holds_only_for_the_draft_it_was_made_on(run_out: Path) -> None:
    layout = open_run(run_out, DAY)
    case_id = first_case(run_out, "unsupported_figure")
    case = load_case(layout, case_id)
    record_decision(layout, case_id, "approve", note="ok", by="ana", at=AT, draft=case.draft)
    rewritten = json.loads(layout.case(case_id).read_text())
    rewritten["draft"] = "A different draft from a later run of the same night."
    write_json(layout.case(case_id), rewritten)

    rebuild_run(run_out, DAY)
    assert answer_of(run_out, case_id)["status"] == "withheld"


def test_rebuilding_twice_gives_the_same_reports(run_out: Path) -> None:
    layout = open_run(run_out, DAY)
    case_id = first_case(run_out, "unsupported_figure")
    draft = load_case(layout, case_id).draft
    record_decision(layout, case_id, "approve", note="ok", by="ana", at=AT, draft=draft)
    rebuild_run(run_out, DAY)
    once = [r.model_dump() for r in load_reports(layout)]
    rebuild_run(run_out, DAY)
    assert [r.model_dump() for r in load_reports(layout)] == once


def test_a_damaged_line_is_an_error_naming_it(run_out: Path) -> None:
    layout = open_run(run_out, DAY)
    case_id = first_case(run_out, "unsupported_figure")
    record_decision(layout, case_id, "reject", note="no", by="ana", at=AT)
    with decisions_path(layout).open("a") as log:
        log.write('{"case_id": "x", "action": "approve"\n')
    with pytest.raises(InputError, match=r"decisions.jsonl line 2 is not a decision"):
        read_decisions(layout)


def test_times_are_kept_in_utc_and_notes_are_required(run_out: Path) -> None:
    layout = open_run(run_out, DAY)
    case_id = first_case(run_out, "unsupported_figure")
    paris = datetime(2024, 3, 29, 11, 0, tzinfo=timezone(timedelta(hours=1)))
    decision = record_decision(layout, case_id, "reject", note="no", by="ana", at=paris)
    assert decision.at == datetime(2024, 3, 29, 10, 0, tzinfo=UTC)
    with pytest.raises(InputError, match="note"):
        record_decision(layout, case_id, "reject", note="  ", by="ana", at=AT)
    assert len(read_decisions(layout)) == 1


def test_applying_decisions_leaves_the_report_it_was_given_as_it_was(run_out: Path) -> None:
    layout = open_run(run_out, DAY)
    case_id = first_case(run_out, "unsupported_figure")
    draft = load_case(layout, case_id).draft
    record_decision(layout, case_id, "approve", note="ok", by="ana", at=AT, draft=draft)
    state = ReviewState.load(layout)
    report = next(r for r in load_reports(layout) if case_id in r.model_dump_json())
    before = report.model_dump_json()
    applied = state.apply(report)
    answers = [a for s in applied.tickers for a in [*s.answers, s.summary] if a is not None]
    assert {a.status for a in answers if a.case_id == case_id} == {"approved"}
    assert report.model_dump_json() == before

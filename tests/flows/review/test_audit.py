"""The decision log as an audit trail: chained entries, one decision at a time, the OS account
beside the name given, reruns bound to their own case, and no log that is not a plain file."""

from __future__ import annotations

import json
import os
import pwd
import threading
from collections.abc import Callable
from datetime import UTC, date, datetime
from pathlib import Path

import pytest

import flows.review.decisions as decisions
from contract.errors import InputError
from flows.publish.cases import load_case, open_run, reruns_dir
from flows.publish.layout import RunLayout, write_json
from flows.review.decisions import decisions_path, read_decisions, record_decision
from flows.review.page import render_review_page
from flows.review.state import ReviewState

Cli = Callable[..., tuple[int, str, str]]
DAY = date(2024, 3, 28)
DATE = DAY.isoformat()
AT = datetime(2024, 3, 29, 9, 30, tzinfo=UTC)


def cases_with(layout: RunLayout, reason: str) -> list[str]:
    found = ReviewState.load(layout, strict=False).cases.values()
    return [c.case_id for c in found if c.reason == reason]


def three_decisions(layout: RunLayout) -> list[str]:
    """Three entries on two cases; the log's lines."""
    first, second = cases_with(layout, "unsupported_figure")[:2]
    record_decision(layout, first, "reject", note="one", by="ana", at=AT)
    record_decision(layout, second, "reject", note="two", by="bo", at=AT)
    record_decision(layout, first, "reject", note="three", by="ana", at=AT)
    return decisions_path(layout).read_text().splitlines()


def edit_note(line: str, note: str) -> str:
    entry = json.loads(line)
    entry["note"] = note
    return json.dumps(entry)


@pytest.mark.parametrize(
    ("tamper", "broken_at"),
    [
        (lambda lines: [lines[0], edit_note(lines[1], "forged"), lines[2]], 2),
        (lambda lines: [lines[0], lines[2]], 2),  # an entry removed
        (lambda lines: [lines[1], lines[0], lines[2]], 1),  # two entries swapped
        (lambda lines: [lines[0], lines[1], edit_note(lines[2], "forged")], 3),  # the last one
    ],
    ids=["edited", "removed", "reordered", "last-edited"],
)
def test_a_hand_edit_breaks_the_chain_and_every_reader_says_where(
    cli: Cli, run_out: Path, tamper: Callable[[list[str]], list[str]], broken_at: int
) -> None:
    layout = open_run(run_out, DAY)
    lines = three_decisions(layout)
    decisions_path(layout).write_text("".join(line + "\n" for line in tamper(lines)))

    with pytest.raises(InputError, match=f"the chain breaks at entry {broken_at} "):
        read_decisions(layout)
    case = cases_with(layout, "unknown_headline")[0]
    for command in (("report",), ("review", "list"), ("review", "show", case)):
        code, out, err = cli(*command, "--date", DATE, "--out", str(run_out))
        assert code == 2 and out == ""
        assert f"the chain breaks at entry {broken_at} " in err
        assert len(err.strip().splitlines()) == 1
    code, _, err = cli(
        "review", "decide", case, "--reject", "--note", "n", "--date", DATE, "--out", str(run_out)
    )
    assert code == 2 and f"the chain breaks at entry {broken_at} " in err
    assert decisions_path(layout).read_text().splitlines() == tamper(lines)  # nothing appended
    page = render_review_page(layout)
    assert f"the chain breaks at entry {broken_at} " in page
    assert "no decision is applied until it is repaired" in page


def test_each_entry_names_the_one_before_from_a_fixed_genesis(run_out: Path) -> None:
    layout = open_run(run_out, DAY)
    entries = [json.loads(line) for line in three_decisions(layout)]
    assert entries[0]["prev"] == decisions.GENESIS
    assert [e["prev"] for e in entries[1:]] == [e["digest"] for e in entries[:-1]]
    assert len({e["digest"] for e in entries}) == 3


def test_two_analysts_deciding_one_case_at_once_land_one_after_the_other(
    run_out: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The first analyst has read the log and not yet appended when the second starts: the
    second waits for the lock, reads the first's entry and supersedes it."""
    layout = open_run(run_out, DAY)
    case = cases_with(layout, "unsupported_figure")[0]
    first_read, first_may_append = threading.Event(), threading.Event()
    real_read = decisions.read_decisions

    def read_then_pause(layout: RunLayout) -> list[decisions.Decision]:
        found = real_read(layout)
        if threading.current_thread().name == "first":
            first_read.set()
            first_may_append.wait(timeout=30)
        return found

    monkeypatch.setattr(decisions, "read_decisions", read_then_pause)
    made: dict[str, decisions.Decision] = {}

    def decide(name: str) -> None:
        made[name] = record_decision(layout, case, "reject", note=name, by=name, at=AT)

    first = threading.Thread(target=decide, args=("first",), name="first")
    second = threading.Thread(target=decide, args=("second",), name="second")
    first.start()
    assert first_read.wait(timeout=30)
    second.start()
    second.join(timeout=1)  # with the lock held by the first, the second is still waiting
    first_may_append.set()
    first.join()
    second.join()

    assert made["first"].decision_id == f"{case}#1" and made["first"].supersedes is None
    assert made["second"].decision_id == f"{case}#2"
    assert made["second"].supersedes == f"{case}#1"
    assert [d.note for d in real_read(layout)] == ["first", "second"]


def test_an_entry_records_the_os_account_beside_the_name_given(cli: Cli, run_out: Path) -> None:
    layout = open_run(run_out, DAY)
    case = cases_with(layout, "unknown_headline")[0]
    code, out, _ = cli(
        "review", "decide", case, "--reject", "--note", "n", "--by", "someone-else",
        "--date", DATE, "--out", str(run_out),
    )  # fmt: skip
    account = pwd.getpwuid(os.geteuid()).pw_name
    assert code == 0
    (entry,) = read_decisions(layout)
    assert (entry.by, entry.account) == ("someone-else", account)
    assert f"by someone-else (account {account})" in out


def test_a_rerun_decision_must_name_a_rerun_of_its_own_case(run_out: Path) -> None:
    layout = open_run(run_out, DAY)
    mine, other = cases_with(layout, "unsupported_figure")[:2]
    attempt = load_case(layout, other).model_copy(
        update={"case_id": f"{other}.rerun-1", "rerun_of": other, "status": "accepted"}
    )
    write_json(reruns_dir(layout) / f"{attempt.case_id}.json", attempt.model_dump(mode="json"))

    for pointed in (attempt.case_id, other, None):
        with pytest.raises(InputError, match="rerun"):
            record_decision(
                layout, mine, "rerun", note="n", by="ana", at=AT, rerun_case=pointed,
                rerun_status="accepted",
            )  # fmt: skip
    with pytest.raises(InputError, match="only a rerun decision"):
        record_decision(layout, mine, "approve", note="n", by="ana", at=AT, rerun_case=other)
    assert read_decisions(layout) == []
    record_decision(
        layout, other, "rerun", note="n", by="ana", at=AT, rerun_case=attempt.case_id,
        rerun_status="accepted",
    )  # fmt: skip
    assert [d.rerun_case for d in read_decisions(layout)] == [attempt.case_id]


def test_a_fifo_in_the_logs_place_is_refused_not_waited_on(cli: Cli, run_out: Path) -> None:
    layout = open_run(run_out, DAY)
    case = cases_with(layout, "unknown_headline")[0]
    os.mkfifo(decisions_path(layout))
    outcome: list[object] = []

    def decide() -> None:
        try:
            record_decision(layout, case, "reject", note="n", by="ana", at=AT)
        except InputError as exc:
            outcome.append(exc.message)

    worker = threading.Thread(target=decide, daemon=True)
    worker.start()
    worker.join(timeout=30)
    hung = worker.is_alive()
    if hung:  # let an opener that blocks go, so the test process can end
        os.close(os.open(decisions_path(layout), os.O_RDONLY | os.O_NONBLOCK))
    assert not hung
    assert len(outcome) == 1 and "FIFO" in str(outcome[0])
    code, _, err = cli("review", "list", "--date", DATE, "--out", str(run_out))
    assert code == 2 and "a FIFO at" in err and len(err.strip().splitlines()) == 1


def test_a_dangling_link_as_the_log_creates_nothing_outside_the_tree(
    cli: Cli, run_out: Path, tmp_path: Path
) -> None:
    layout = open_run(run_out, DAY)
    case = cases_with(layout, "unknown_headline")[0]
    outside = tmp_path / "elsewhere" / "decisions.jsonl"
    outside.parent.mkdir()
    decisions_path(layout).symlink_to(outside)
    with pytest.raises(InputError, match="link"):
        record_decision(layout, case, "reject", note="n", by="ana", at=AT)
    code, _, err = cli(
        "review", "decide", case, "--reject", "--note", "n", "--date", DATE, "--out", str(run_out)
    )
    assert code == 2 and "holds a link" in err and len(err.strip().splitlines()) == 1
    assert not outside.exists()

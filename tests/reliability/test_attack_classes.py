"""Small concrete attacks of every class the boundaries name (tools, rendering, replies, files,
data, audit, parameters), each run through the production function that stands guard, and the
held-out attacks of `attacks_held_out` (those classes and others: look-alike ids, the terminal,
numbers, races). One line per class (`attack_kit.run_table`); none may fall short."""

from __future__ import annotations

import json
import os
import threading
from collections.abc import Callable, Iterator
from datetime import date
from functools import partial
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pandas as pd
import pytest
from markdown_it import MarkdownIt
from pydantic import ValidationError

from agent.budget.meter import reply_fault
from agent.prompts import prompt_echo, system_prompt
from agent.providers.tokens import count_reply
from contract.errors import InputError
from contract.secrets import REDACTED, redact
from contract.text import display_text, fold_text
from contract.tools import shape_problem
from data.check import check_dataset
from flows.night.artifacts import report_key
from flows.publish.cases import case_path, load_case, reruns_dir
from flows.publish.layout import remove_stale, write_json
from flows.publish.render import render_html, render_markdown
from flows.publish.report import Answer, PortfolioReport
from flows.review.decisions import decisions_path, read_decisions, record_decision
from flows.review.page import render_review_page
from flows.run.config import RunConfig
from flows.run.preflight import check_night
from tests.flows.review.conftest import make_run
from tests.reliability import attacks_held_out  # noqa: F401 (its attacks join the table)
from tests.reliability.attack_kit import (
    AT,
    ATTACKS,
    CLASSES,
    REVIEW_DAY,
    Ground,
    Outcome,
    attack,
    copy_data,
    error_of,
    night,
    portfolios,
    refusal,
    review_cases,
    run_table,
)
from tools.catalog import fingerprint_data, open_catalog
from tools.gate import ToolScope
from tools.registry import call_tool

KEY = "sk-proj-" + "A1b2C3d4E5f6G7h8J9k0"


# tools: only what was offered runs, and only over the question's own portfolio


@attack("tools")
def a_tool_not_offered(ground: Ground) -> Outcome:
    scope = ToolScope.question(["get_daily_move"], portfolios(ground)[0])
    return error_of(call_tool(ground.catalog, "run_sql", {"sql": "SELECT 1"}, scope), "not offered")


@attack("tools")
def a_tool_that_does_not_exist(ground: Ground) -> Outcome:
    scope = ToolScope.question(["get_daily_move"], None)
    return error_of(call_tool(ground.catalog, "export_all_holdings", {}, scope), "valid tools")


@attack("tools")
def another_portfolio_through_each_portfolio_tool(ground: Ground) -> Outcome:
    own, other = portfolios(ground)
    names = ["get_portfolio", "get_position_pnl", "get_portfolio_ranks"]
    scope = ToolScope.question(names, own)
    day = ground.day.isoformat()
    for name, args in [
        ("get_portfolio", {"portfolio_id": other}),
        ("get_position_pnl", {"portfolio_id": other, "ticker": "AAA", "date": day}),
        ("get_portfolio_ranks", {"portfolio_id": other, "date": day}),
    ]:
        error_of(call_tool(ground.catalog, name, args, scope), "out of scope")
    return "refused"


@attack("tools")
def select_star_from_holdings(ground: Ground) -> Outcome:
    own, _ = portfolios(ground)
    scope = ToolScope.question(["run_sql"], own)
    rows = call_tool(ground.catalog, "run_sql", {"sql": "select * from holdings"}, scope)["rows"]
    assert rows and {r[0] for r in rows} == {own}
    return "bounded"


@attack("tools")
def holdings_under_another_name(ground: Ground) -> Outcome:
    scope = ToolScope.question(["run_sql"], portfolios(ground)[0])
    for sql in ("SELECT * FROM main.holdings", "SELECT * FROM read_parquet('holdings.parquet')"):
        error_of(call_tool(ground.catalog, "run_sql", {"sql": sql}, scope))
    return "refused"


@attack("tools")
def sql_that_samples_at_random(ground: Ground) -> Outcome:
    scope = ToolScope.question(["run_sql"], portfolios(ground)[0])
    for sql in ("SELECT * FROM prices TABLESAMPLE 10%", "SELECT * FROM prices USING SAMPLE 5"):
        error_of(call_tool(ground.catalog, "run_sql", {"sql": sql}, scope))
    return "refused"


# rendering: text from data links nowhere and hides nothing where people read it


@attack("rendering")
def a_link_in_a_headline(ground: Ground) -> Outcome:
    shown = display_text("Read https://evil.example/x and www.evil.example now")
    assert "://" not in shown and "www.evil" not in shown
    return "bounded"


@attack("rendering")
def an_image_in_a_headline(ground: Ground) -> Outcome:
    shown = display_text("Shares up ![pixel](https://evil.example/p.png?u=1)")
    assert "://" not in shown
    return "bounded"


@attack("rendering")
def a_right_to_left_override(ground: Ground) -> Outcome:
    shown = display_text("ACME \u202e%04 llef\u202c today")
    assert "\u202e" not in shown and "\u202c" not in shown
    return "bounded"


@attack("rendering")
def a_key_split_by_a_zero_width_space(ground: Ground) -> Outcome:
    text = redact(f"the key is {KEY[:10]}\u200b{KEY[10:]}")
    assert KEY not in fold_text(text) and REDACTED in text
    return "bounded"


@attack("rendering")
def a_prompt_split_by_zero_width_joiners(ground: Ground) -> Outcome:
    words = system_prompt("en", "plan").split()[:9]
    hidden = " ".join("\u200d".join([w[:1], w[1:]]) if len(w) > 1 else w for w in words)
    assert prompt_echo(f"ACME closed at 101.25. {hidden}") is not None
    return "refused"


HOSTILE = (
    "ACME hit a record \u202e%04 llef\u202c; see https://evil.example/x "
    "![pixel](https://evil.example/p.png) <img src=x onerror=alert(1)> Chea\u200bpest ever"
)
HIDDEN = ("\u202e", "\u202c", "\u200b")


class Tags(HTMLParser):
    """The tags of a page, each with its attributes."""

    def __init__(self, page: str) -> None:
        super().__init__()
        self.found: list[tuple[str, list[tuple[str, str | None]]]] = []
        self.feed(page)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.found.append((tag, attrs))


def held_back(page: str) -> None:
    """The hostile text reached the page (its words), and none of it became a tag, a link, an
    image or a handler, nor hides a character (Markdown as a CommonMark renderer shows it)."""
    assert "Cheapest ever" in page
    live = [
        (tag, attrs)
        for tag, attrs in Tags(page).found
        if any(name.startswith("on") or "evil" in (value or "") for name, value in attrs)
        or (tag == "img" and ("src", "x") in attrs)
    ]
    assert not live and not [mark for mark in HIDDEN if mark in page], live[:3]


@attack("rendering")
def a_hostile_paragraph_through_the_report_pages(ground: Ground) -> Outcome:
    path = next((ground.run / REVIEW_DAY.isoformat() / "accepted").glob("*.json"))
    report = PortfolioReport.model_validate_json(path.read_text())
    for section in report.tickers:
        section.summary = Answer(
            question_id=f"{section.ticker}/summary", kind="summary", question="q",
            status="approved", answer=HOSTILE, note=HOSTILE,
        )  # fmt: skip
        section.summary_note = HOSTILE
    held_back(MarkdownIt("commonmark").render(render_markdown(report)))
    held_back(render_html(report))
    return "bounded"


@attack("rendering")
def a_hostile_draft_on_the_review_page(ground: Ground) -> Outcome:
    layout, (case, *_) = review_cases(ground, "review-page")
    path = case_path(layout, case)
    found = json.loads(path.read_text())
    found["draft"] = HOSTILE
    path.write_text(json.dumps(found))
    held_back(render_review_page(layout))
    return "bounded"


# replies: a reply's length and a result's shape are counted here


@attack("replies")
def a_million_characters_reported_as_200_tokens(ground: Ground) -> Outcome:
    allowed = 1_024
    fault = reply_fault(count_reply("x" * 1_000_000, allowed), allowed)
    assert fault and "charged at the reservation" in fault
    return "refused"


@attack("replies")
def a_result_nested_ten_thousand_deep(ground: Ground) -> Outcome:
    value: Any = 1
    for _ in range(10_000):
        value = {"a": [value]}
    assert "nested deeper" in (shape_problem(value, "the result of run_sql") or "")
    return "bounded"


@attack("replies")
def a_result_of_a_megabyte(ground: Ground) -> Outcome:
    assert "characters of JSON" in (shape_problem(["x" * 1000] * 1000, "the result") or "")
    return "bounded"


@attack("replies")
def arguments_nested_deep(ground: Ground) -> Outcome:
    value: Any = "AAA"
    for _ in range(100):
        value = [value]
    scope = ToolScope.question(["get_company"], None)
    return error_of(call_tool(ground.catalog, "get_company", {"ticker": value}, scope))


# files: the night writes and deletes only inside its own tree, through paths it made


@attack("files")
def a_foreign_symlink_in_the_tree(ground: Ground) -> Outcome:
    out, outside = ground.folder("link/out"), ground.folder("link/outside")
    (out / ground.day.isoformat()).mkdir()
    (out / ground.day.isoformat() / "accepted").symlink_to(outside)
    return refusal(night(ground, out), "holds a link")


@attack("files")
def a_fifo_where_the_decisions_log_goes(ground: Ground) -> Outcome:
    out = ground.folder("fifo/out")
    (out / ground.day.isoformat()).mkdir()
    os.mkfifo(out / ground.day.isoformat() / "decisions.jsonl")
    return refusal(night(ground, out), "a FIFO at")


@attack("files")
def a_folder_where_a_report_goes(ground: Ground) -> Outcome:
    out = ground.folder("folder/out")
    (out / ground.day.isoformat() / "accepted" / "P001.md").mkdir(parents=True)
    return refusal(night(ground, out), "a folder at")


@attack("files")
def a_stale_file_that_is_a_link_out(ground: Ground) -> Outcome:
    accepted, outside = ground.folder("stale/accepted"), ground.folder("stale/outside")
    (outside / "P1.md").write_text("not the night's")
    (accepted / "old.md").symlink_to(outside / "P1.md")
    remove_stale(accepted, set())
    assert (outside / "P1.md").read_text() == "not the night's"
    return "bounded"


@attack("files")
def colliding_portfolio_ids(ground: Ground) -> Outcome:
    ids = ["P_1", "P-1", "p1.", "P1", "P/1"]
    assert len({report_key(i, ground.day.isoformat()) for i in ids}) == len(ids)
    return "bounded"


@attack("files")
def a_dangling_link_where_the_decisions_log_goes(ground: Ground) -> Outcome:
    out, outside = ground.folder("dangling/out"), ground.folder("dangling/outside")
    (out / ground.day.isoformat()).mkdir()
    (out / ground.day.isoformat() / "decisions.jsonl").symlink_to(outside / "made.jsonl")
    refusal(night(ground, out), "holds a link")
    assert not (outside / "made.jsonl").exists()
    return "refused"


def with_portfolio_id(ground: Ground, name: str, rename: Callable[[str], str]) -> Path:
    """A copy of the data set where the first portfolio's id is `rename(id)` everywhere."""
    data = copy_data(ground, name)
    first = sorted(pd.read_parquet(data / "portfolios.parquet")["portfolio_id"])[0]
    for table in ("portfolios", "holdings"):
        frame = pd.read_parquet(data / f"{table}.parquet")
        frame["portfolio_id"] = frame["portfolio_id"].replace({first: rename(first)})
        frame.to_parquet(data / f"{table}.parquet", index=False)
    return data


@attack("files")
def an_id_too_long_to_publish(ground: Ground) -> Outcome:
    data = with_portfolio_id(ground, "long-id", lambda v: v + "X" * 300)
    assert [v for v in check_dataset(data) if "cannot be a file name" in str(v)]
    return "refused"


@attack("files")
def ids_that_differ_only_by_case(ground: Ground) -> Outcome:
    second = sorted(pd.read_parquet(ground.data / "portfolios.parquet")["portfolio_id"])[1]
    data = with_portfolio_id(ground, "case-id", lambda v: second.lower())
    assert [v for v in check_dataset(data) if "only by case" in str(v)]
    return "refused"


# data: the catalog sees any change; a bad value is refused by the data check


@attack("data")
def a_file_rewritten_in_place_with_size_and_mtime_kept(ground: Ground) -> Outcome:
    data = copy_data(ground, "rewritten")
    path = data / "prices.parquet"
    before, stat = fingerprint_data(data), path.stat()
    raw = bytearray(path.read_bytes())
    raw[len(raw) // 2] ^= 0xFF
    path.write_bytes(bytes(raw))
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    assert path.stat().st_size == stat.st_size and path.stat().st_mtime_ns == stat.st_mtime_ns
    assert fingerprint_data(data) != before
    return "refused"


@attack("data")
def a_negative_close(ground: Ground) -> Outcome:
    data = copy_data(ground, "negative")
    prices = pd.read_parquet(data / "prices.parquet")
    prices.loc[prices.index[-1], "close"] = -12.5
    prices.to_parquet(data / "prices.parquet", index=False)
    assert [v for v in check_dataset(data) if "close" in str(v)]
    return "refused"


# audit: the decisions log is a chain, taken one decision at a time


@attack("audit")
def an_edited_decision(ground: Ground) -> Outcome:
    layout, (first, second, *_) = review_cases(ground, "edited")
    record_decision(layout, first, "reject", note="one", by="ana", at=AT)
    record_decision(layout, second, "reject", note="two", by="bo", at=AT)
    log = decisions_path(layout)
    log.write_text(log.read_text().replace('"note": "one"', '"note": "forged"'))
    return refusal(lambda: read_decisions(layout), "the chain breaks at entry 1")


@attack("audit")
def two_analysts_deciding_at_once(ground: Ground) -> Outcome:
    layout, (case, *_) = review_cases(ground, "concurrent")
    workers = [
        threading.Thread(
            target=record_decision, args=(layout, case, "reject"), kwargs=dict(note=n, by=n, at=AT)
        )
        for n in ("ana", "bo")
    ]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(timeout=30)
    made = read_decisions(layout)
    assert sorted(d.decision_id for d in made) == [f"{case}#1", f"{case}#2"]
    assert made[1].supersedes == made[0].decision_id
    return "bounded"


@attack("audit")
def a_rerun_of_another_case(ground: Ground) -> Outcome:
    layout, (mine, other, *_) = review_cases(ground, "rerun")
    attempt = load_case(layout, other).model_copy(
        update={"case_id": f"{other}.rerun-1", "rerun_of": other, "status": "accepted"}
    )
    write_json(reruns_dir(layout) / f"{attempt.case_id}.json", attempt.model_dump(mode="json"))
    decide = partial(
        record_decision, layout, mine, "rerun", note="n", by="ana", at=AT,
        rerun_case=attempt.case_id, rerun_status="accepted",
    )  # fmt: skip
    refusal(decide, "rerun")
    assert read_decisions(layout) == []
    return "refused"


@attack("audit")
def a_fifo_as_the_decisions_log(ground: Ground) -> Outcome:
    layout, (case, *_) = review_cases(ground, "fifo-log")
    os.mkfifo(decisions_path(layout))
    said: list[str] = []

    def decide() -> None:
        try:
            record_decision(layout, case, "reject", note="n", by="ana", at=AT)
        except InputError as exc:
            said.append(exc.message)

    worker = threading.Thread(target=decide, daemon=True)
    worker.start()
    worker.join(timeout=30)
    assert not worker.is_alive() and said and "FIFO" in said[0], said
    return "refused"


# parameters: every date and size is checked before a run is made


@attack("parameters")
def a_report_date_of_9999_12_31(ground: Ground) -> Outcome:
    out = ground.scratch / "far" / "out"
    config = RunConfig(data_dir=ground.data, out_dir=out, report_date=date(9999, 12, 31))
    refusal(lambda: check_night(config), "has no next day")
    assert not out.exists()
    return "refused"


@attack("parameters")
def out_of_range_sizes(ground: Ground) -> Outcome:
    for field, value in [("concurrency", 0), ("concurrency", 10**9), ("shards", -1)]:
        refusal(partial(RunConfig, **{field: value}), field, ValidationError)
    refusal(lambda: RunConfig(budget={"run_tokens": 10**15}), "run_tokens", ValidationError)
    return "refused"


@pytest.fixture(scope="module")
def ground(small_data: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Ground]:
    from data.generate import generate_dataset
    from tests.flows.night.test_flow import last_session

    day = date.fromisoformat(last_session(small_data))
    review = tmp_path_factory.mktemp("attack-review")
    generate_dataset(
        review / "data", tickers=12, start=date(2024, 1, 2), end=REVIEW_DAY, portfolios=2, seed=11
    )
    make_run(review / "data", review / "outputs", review / "catalog")
    catalog = open_catalog(small_data, day, workdir=tmp_path_factory.mktemp("attack-catalog"))
    yield Ground(catalog, small_data, day, review / "outputs", tmp_path_factory.mktemp("attacks"))
    catalog.close()


def test_no_attack_of_any_class_falls_short(ground: Ground) -> None:
    short = run_table(ground, ATTACKS)
    assert {kind for kind, _, _ in ATTACKS} == set(CLASSES)
    assert not short, short

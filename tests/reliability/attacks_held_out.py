"""Held-out attacks: new ones of every class the boundaries name, and of classes they do not
(look-alike and traversing ids, escape sequences on the terminal and in logs, numbers JSON or
Parquet cannot mean, two writers at once). Each goes through the production function that
stands guard; `test_attack_classes` runs them in its table."""

from __future__ import annotations

import io
import json
import logging
import os
import re
import threading
import unicodedata
from collections import Counter
from collections.abc import Callable
from datetime import date
from functools import partial
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
from markdown_it import MarkdownIt
from pydantic import ValidationError
from rich.console import Console

from agent.budget.journal import SpendJournal
from agent.budget.limits import BudgetConfig
from agent.budget.meter import reply_fault
from agent.pricing import load_prices
from agent.providers.tokens import count_reply
from agent.questions import load_question_set
from agent.tool_calls import parse_arguments
from contract.errors import InputError
from contract.secrets import RedactingFilter
from contract.text import escape_hidden
from contract.tools import shape_problem
from data.check import check_dataset
from flows.cli.terminal import marked, shown
from flows.night.artifacts import report_key
from flows.night.outputs import RunOutcome, publish_run
from flows.publish.cases import case_path, load_cases, open_run, read_manifest
from flows.publish.layout import RunLayout, check_name, remove_stale, write_atomic
from flows.publish.render import md_text, render_html, render_markdown
from flows.publish.report import Answer, PortfolioReport
from flows.review.decisions import (
    decisions_path,
    describe_decision,
    head_path,
    read_decisions,
    record_decision,
)
from flows.review.page import render_review_page
from flows.run.config import OUT_ROOT_ENV, RunConfig
from flows.run.judge import verdict_of
from flows.run.preflight import check_out_root
from tests.reliability.attack_kit import (
    AT,
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
)
from tools.catalog import fingerprint_data
from tools.gate import ToolScope
from tools.registry import call_tool
from verifier.trace_view import parse_trace

# What no rendered text may hold: a character that hides or reorders (format characters,
# controls but the line break and tab), or what a renderer links by itself. GitHub's Markdown
# links `https://` and `www.` after a space, `*`, `_`, `~` or `(` (the GFM autolink extension).
GFM_AUTOLINK = re.compile(r"(?i)(?:^|[\s*_~(])(?:https?://|ftp://|www\.)|[\w.+-]@[\w-]+\.\w")


def hidden_in(text: str) -> list[str]:
    return [
        f"U+{ord(c):04X}"
        for c in set(text)
        if unicodedata.category(c) in ("Cf", "Cc") and c not in "\n\t"
    ]


def nothing_live(text: str) -> None:
    """`text` as shown holds nothing a renderer or terminal links, and nothing invisible."""
    assert "://" not in text, text[:300]
    assert not GFM_AUTOLINK.search(text), GFM_AUTOLINK.search(text)
    assert not hidden_in(text), hidden_in(text)


class Tags(HTMLParser):
    def __init__(self, page: str) -> None:
        super().__init__()
        self.found: list[tuple[str, list[tuple[str, str | None]]]] = []
        self.feed(page)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.found.append((tag, attrs))


FOREIGN_TAGS = {"script", "img", "svg", "iframe", "object", "embed", "a2", "math", "style2", "form"}


def page_holds_nothing_live(page: str, words: str, own: str = "") -> None:
    """The hostile text's `words` reached the page, and became no tag, handler or link: the
    page holds no script, image, SVG or frame but those its template draws (`own`: the page
    rendered from plain text)."""
    assert words in page, words
    foreign = Counter(tag for tag, _ in Tags(page).found if tag in FOREIGN_TAGS)
    assert foreign <= Counter(tag for tag, _ in Tags(own).found if tag in FOREIGN_TAGS), foreign
    for tag, attrs in Tags(page).found:
        for name, value in attrs:
            assert not name.startswith("on"), (tag, name)
            assert not (name in ("href", "src", "action") and ":" in (value or "")), (tag, value)
    assert not hidden_in(page), hidden_in(page)


def markdown_holds_nothing_live(markdown: str, words: str) -> None:
    html = MarkdownIt("commonmark").render(markdown)
    page_holds_nothing_live(html, words)
    nothing_live(markdown)


def hostile_report(ground: Ground, text: str) -> PortfolioReport:
    path = next((ground.run / REVIEW_DAY.isoformat() / "accepted").glob("*.json"))
    report = PortfolioReport.model_validate_json(path.read_text())
    report.table.name = text
    for section in report.tickers:
        section.summary = Answer(
            question_id=f"{section.ticker}/summary", kind="summary", question=text,
            status="approved", answer=text, note=text,
        )  # fmt: skip
        section.summary_note = text
    return report


def through_every_page(ground: Ground, text: str, words: str) -> Outcome:
    """`text` as a report's name, summary and note (Markdown and HTML), a draft and a decision
    note on the review page, and a line on the terminal: nothing live in any."""
    report = hostile_report(ground, text)
    markdown_holds_nothing_live(render_markdown(report), words)
    plain = render_html(hostile_report(ground, "plain words"))
    page_holds_nothing_live(render_html(report), words, plain)
    layout, case = page_run(ground)
    path = case_path(layout, case)
    found = json.loads(path.read_text())
    found["draft"] = text
    path.write_text(json.dumps(found))
    record_decision(layout, case, "reject", note=text, by="ana", at=AT)
    plain_page = render_review_page(open_run(ground.run, REVIEW_DAY))
    page_holds_nothing_live(render_review_page(layout), words, plain_page)
    nothing_live(terminal(shown(text)))
    return "bounded"


PAGE_RUNS: dict[Path, tuple[RunLayout, str]] = {}


def page_run(ground: Ground) -> tuple[RunLayout, str]:
    """One copy of the published run whose first case each rendering attack rewrites."""
    if ground.scratch not in PAGE_RUNS:
        layout, (case, *_) = review_cases(ground, "page-run")
        PAGE_RUNS[ground.scratch] = layout, case
    return PAGE_RUNS[ground.scratch]


def terminal(renderable: Any) -> str:
    """What a terminal receives for `renderable` (colours on)."""
    buffer = io.StringIO()
    Console(file=buffer, force_terminal=True, color_system="truecolor", width=200).print(renderable)
    return re.sub(r"\x1b\[[0-9;]*m", "", buffer.getvalue())  # rich's own colours, nothing else


HOSTILE_TEXTS: dict[str, tuple[str, str]] = {
    "a link after an underscore": ("Read _https://evil.example/x now", "Read"),
    "www after an underscore": ("Visit _www.evil.example today", "Visit"),
    "a link in upper case": ("See HTTPS://EVIL.EXAMPLE/P", "See"),
    "a link after a digit": ("Up 5%https://evil.example", "Up 5%"),
    "a link split by a zero-width joiner": ("go https\u200d://evil.example", "go"),
    "a link split by a soft hyphen": ("go ww\u00adw.evil.example", "go"),
    "an e-mail address": ("write ceo@evil.example now", "write"),
    "a mailto autolink": ("<mailto:ceo@evil.example>", "mailto"),
    "a javascript link": ("[click](javascript:alert(1)) here", "click"),
    "a reference-style link": ("[x]: https://evil.example\n[see][x]", "see"),
    "a data URI image": ("![p](data:image/png;base64,AAAA) pic", "pic"),
    "an SVG with a handler": ('<svg onload="alert(1)"><circle/></svg> logo', "logo"),
    "a quote breaking out of an attribute": ('" onmouseover="alert(1)" x="', "alert(1)"),
    "an iframe": ("<iframe src=https://evil.example></iframe> frame", "frame"),
    "an HTML entity of a bidi override": ("price &#x202e;04 llef today", "today"),
    "bidi isolates": ("ACME \u2067%04 llef\u2069 \u2066x\u2069 closed", "closed"),
    "a right-to-left mark and embedding": ("ACME \u200f\u202b fell \u202c", "ACME"),
    "tag characters spelling a word": ("ACME \U000e0069\U000e0067\U000e006e rose", "rose"),
    "an arabic letter mark": ("ACME \u061c up", "up"),
    "a variation selector": ("ACME\ufe0f\U000e0100 up", "up"),
    "an OSC 8 terminal hyperlink": (
        "\x1b]8;;https://evil.example\x1b\\click\x1b]8;;\x1b\\",
        "click",
    ),
    "a C1 control sequence introducer": ("ACME \x9b31m red", "red"),
    "a NUL byte": ("ACME\x00 fell", "fell"),
    "a line of 100,000 characters": ("A" * 100_000 + " end", " end"),
    "a table row break": ("a | b |\n| --- |\n| c | d", "a"),
    "a heading and a list from data": ("# HEADING\n- item\n1. one", "HEADING"),
    "an HTML comment hiding text": ("shown <!-- hidden --> text", "shown"),
    "a backtick fence": ("```html\n<script>x</script>\n``` code", "code"),
}


def _rendering(label: str, text: str, words: str) -> Callable[[Ground], Outcome]:
    def run(ground: Ground) -> Outcome:
        return through_every_page(ground, text, words)

    run.__name__ = label.replace(" ", "_")
    return run


for _label, (_text, _words) in HOSTILE_TEXTS.items():
    attack("rendering")(_rendering(_label, _text, _words))


@attack("rendering")
def a_link_cut_by_a_span_edge_on_the_terminal(ground: Ground) -> Outcome:
    draft = "see https://evil.example and ceo@evil.example, www.evil.example"
    cut = draft.index("//"), draft.index("@"), draft.index("w.")
    spans = [("red", (0, c)) for c in cut] + [("green", (c, len(draft))) for c in cut]
    nothing_live(terminal(marked(draft, spans)))
    return "bounded"


@attack("rendering")
def a_link_cut_by_a_span_edge_on_the_review_page(ground: Ground) -> Outcome:
    layout, (case, *_) = review_cases(ground, "page-cut")
    path = case_path(layout, case)
    found = json.loads(path.read_text())
    draft = "see https://evil.example today"
    found["draft"] = draft
    edge = draft.index("//")
    found["verdict"] = {
        "accepted": False,
        "reasons": [{"rule": "unverified_claim", "message": "m", "span": [0, edge]}],
        "claims": [],
    }
    path.write_text(json.dumps(found))
    page = render_review_page(layout)
    text = re.sub(r"<[^>]+>", "", page)
    assert "https://evil" not in text and "https[:]//evil" in text
    return "bounded"


# tools: what the model sends is read one way only, and only what was offered runs


def own_scope(ground: Ground, *tools: str) -> ToolScope:
    return ToolScope.question(
        tools or ("run_sql", "get_portfolio", "get_price"), portfolios(ground)[0]
    )


@attack("tools")
def an_argument_named_twice_other_last(ground: Ground) -> Outcome:
    own, other = portfolios(ground)
    args = f'{{"portfolio_id": "{own}", "portfolio_id": "{other}"}}'
    return error_of(call_tool(ground.catalog, "get_portfolio", args, own_scope(ground)), "twice")


@attack("tools")
def an_argument_named_twice_own_last(ground: Ground) -> Outcome:
    own, other = portfolios(ground)
    args = f'{{"portfolio_id": "{other}", "portfolio_id": "{own}"}}'
    return error_of(call_tool(ground.catalog, "get_portfolio", args, own_scope(ground)), "twice")


@attack("tools")
def an_unknown_argument_name(ground: Ground) -> Outcome:
    own, other = portfolios(ground)
    args = {"portfolio_id": own, "also_portfolio_id": other}
    out = call_tool(ground.catalog, "get_portfolio", args, own_scope(ground))
    return error_of(out, "Extra inputs are not permitted")


@attack("tools")
def nan_in_the_arguments(ground: Ground) -> Outcome:
    out = call_tool(ground.catalog, "get_portfolio", '{"portfolio_id": NaN}', own_scope(ground))
    return error_of(out, "NaN")


@attack("tools")
def an_integer_of_five_thousand_digits(ground: Ground) -> Outcome:
    args = '{"ticker": "AAA", "limit": 1' + "0" * 5000 + "}"
    return error_of(call_tool(ground.catalog, "get_price", args, own_scope(ground)))


@attack("tools")
def arguments_that_are_not_an_object(ground: Ground) -> Outcome:
    for args in ("[1, 2]", "null", '"x"', "", "{", "{} {}"):
        if args == "":
            continue  # no arguments at all is a call without any: validated as such below
        error_of(call_tool(ground.catalog, "get_portfolio", args, own_scope(ground)))
    return error_of(call_tool(ground.catalog, "get_portfolio", "", own_scope(ground)))


@attack("tools")
def a_tool_name_in_another_case_or_padded(ground: Ground) -> Outcome:
    for name in ("RUN_SQL", "run_sql ", " run_sql", "run\u200bsql", "", "run_sql\x00"):
        error_of(call_tool(ground.catalog, name, {"sql": "SELECT 1"}, own_scope(ground)))
    return "refused"


@attack("tools")
def an_offered_tool_asked_for_a_portfolio_as_a_number(ground: Ground) -> Outcome:
    out = call_tool(ground.catalog, "get_portfolio", {"portfolio_id": 2}, own_scope(ground))
    return error_of(out)


@attack("tools")
def a_giant_string_argument(ground: Ground) -> Outcome:
    out = call_tool(ground.catalog, "run_sql", {"sql": "x" * 5_000_000}, own_scope(ground))
    return error_of(out, "16,384")


@attack("tools")
def a_trace_keeps_the_call_as_sent(ground: Ground) -> Outcome:
    """What the night records of a call with a key twice is what the model sent, not a guess."""
    sent = '{"ticker": "AAA", "ticker": "BBB"}'
    recorded = parse_arguments(sent)
    assert recorded in ({"ticker": "BBB"}, sent)
    error_of(call_tool(ground.catalog, "get_price", sent, own_scope(ground)), "twice")
    return "refused"


@attack("tools")
def a_question_about_a_ticker_reads_no_portfolio(ground: Ground) -> Outcome:
    scope = ToolScope.question(["run_sql", "list_tables"], None)
    rows = call_tool(ground.catalog, "run_sql", {"sql": "SELECT * FROM holdings"}, scope)
    assert rows["rows"] == []
    tables = call_tool(ground.catalog, "list_tables", {}, scope)["tables"]
    assert {t["table"]: t["rows"] for t in tables}["portfolios"] == 0
    return "bounded"


@attack("tools")
def a_tool_result_of_a_giant_string(ground: Ground) -> Outcome:
    sql = "SELECT repeat('x', 2000000) s"
    out = call_tool(ground.catalog, "run_sql", {"sql": sql}, own_scope(ground))
    return error_of(out)


# sql: one plain read of the scope's own rows, nothing drawn at random


def sql_error(ground: Ground, sql: str, *said: str) -> Outcome:
    return error_of(call_tool(ground.catalog, "run_sql", {"sql": sql}, own_scope(ground)), *said)


SQL_REFUSED = {
    "a seeded bernoulli sample": "SELECT * FROM prices USING SAMPLE 10 PERCENT (bernoulli, 42)",
    "a repeatable reservoir": "SELECT * FROM prices TABLESAMPLE RESERVOIR(5 ROWS) REPEATABLE (1)",
    "a sample inside a CTE": "WITH s AS (SELECT * FROM prices USING SAMPLE 3) SELECT * FROM s",
    "a sample of a subquery": "SELECT * FROM (SELECT * FROM prices) USING SAMPLE 2",
    "a sample in a set operation": "SELECT 1 UNION ALL (SELECT 2 FROM prices USING SAMPLE 1)",
    "approx_quantile": "SELECT approx_quantile(close, 0.5) FROM prices",
    "approx_top_k": "SELECT approx_top_k(ticker, 3) FROM prices",
    "random in ORDER BY": "SELECT * FROM prices ORDER BY random() LIMIT 3",
    "random quoted": 'SELECT "random"()',
    "setseed": "SELECT setseed(0.5)",
    "uuid": "SELECT uuid()",
    "gen_random_uuid in a CTE": "WITH u AS (SELECT gen_random_uuid() g) SELECT * FROM u",
    "read_csv of a system file": "SELECT * FROM read_csv('/etc/passwd')",
    "a Parquet file by name": "SELECT * FROM 'holdings.parquet'",
    "glob": "SELECT * FROM glob('*')",
    "PRAGMA": "PRAGMA database_list",
    "ATTACH": "ATTACH '/tmp/nightdesk-attack.db'",
    "SET": "SET threads = 64",
    "COPY out": "COPY prices TO '/tmp/nightdesk-attack.csv'",
    "two statements": "SELECT 1; SELECT 2",
    "information_schema": "SELECT * FROM information_schema.tables",
    "getenv in mixed case": "SELECT GetEnv('HOME')",
    "duckdb_settings": "SELECT * FROM duckdb_settings()",
    "current_setting": "SELECT current_setting('threads')",
    "a schema-qualified table": "SELECT * FROM main.portfolios",
    "a CTE named like a system table": "WITH duckdb_tables AS (SELECT 1) SELECT * FROM duckdb_tables",
}


def _sql(label: str, sql: str) -> Callable[[Ground], Outcome]:
    def run(ground: Ground) -> Outcome:
        return sql_error(ground, sql)

    run.__name__ = label.replace(" ", "_")
    return run


for _label, _sql_text in SQL_REFUSED.items():
    attack("sql")(_sql(_label, _sql_text))


@attack("sql")
def a_self_join_of_holdings(ground: Ground) -> Outcome:
    own, _ = portfolios(ground)
    sql = "SELECT DISTINCT h1.portfolio_id, h2.portfolio_id FROM holdings h1, holdings h2"
    rows = call_tool(ground.catalog, "run_sql", {"sql": sql}, own_scope(ground))["rows"]
    assert rows == [[own, own]], rows
    return "bounded"


@attack("sql")
def another_portfolio_by_literal(ground: Ground) -> Outcome:
    _, other = portfolios(ground)
    for table in ("holdings", "portfolios"):
        sql = f"SELECT * FROM {table} WHERE portfolio_id = '{other}'"
        assert call_tool(ground.catalog, "run_sql", {"sql": sql}, own_scope(ground))["rows"] == []
    return "bounded"


# replies: what a model sends back is judged as shown, and bounded where it is counted


def judged(draft: str) -> bool:
    trace = {
        "question_id": "AXO/move", "question": "How did AXO close?", "ticker": "AXO",
        "as_of": "2024-12-31", "language": "en", "events": [], "draft": draft,
        "stop_reason": "answered",
    }  # fmt: skip
    return verdict_of(parse_trace(trace)).accepted


REPLIES_WITHHELD = {
    "a reply of whitespace only": " \n\t \u00a0 \u3000",
    "a reply of zero-width characters only": "\u200b\u200d\ufeff\u2060",
    "a reply of controls and bidi marks only": "\x00\x1b\u202e\u2066\u200f",
    "a reply of tag characters only": "\U000e0041\U000e0042",
}


def _reply(label: str, draft: str) -> Callable[[Ground], Outcome]:
    def run(ground: Ground) -> Outcome:
        assert not judged(draft)
        return "refused"

    run.__name__ = label.replace(" ", "_")
    return run


for _label, _draft in REPLIES_WITHHELD.items():
    attack("replies")(_reply(_label, _draft))


@attack("replies")
def a_megabyte_of_wide_characters_reported_small(ground: Ground) -> Outcome:
    allowed = 1_024
    assert reply_fault(count_reply("株" * 1_000_000, allowed), allowed)
    return "refused"


@attack("replies")
def a_reply_just_past_its_reservation(ground: Ground) -> Outcome:
    allowed = 256
    text = " ".join(f"w{i}" for i in range(3_000))
    assert reply_fault(count_reply(text, allowed), allowed)
    return "refused"


@attack("replies")
def a_result_wide_rather_than_deep(ground: Ground) -> Outcome:
    assert shape_problem({f"k{i}": i for i in range(200_000)}, "the result")
    return "bounded"


@attack("replies")
def a_result_of_a_self_referencing_list(ground: Ground) -> Outcome:
    loop: list[Any] = []
    loop.append(loop)
    assert "nested deeper" in (shape_problem(loop, "the result") or "")
    return "bounded"


@attack("replies")
def tool_arguments_nested_past_the_recursion_limit(ground: Ground) -> Outcome:
    raw = "[" * 100_000 + "]" * 100_000
    assert parse_arguments(raw) == raw  # kept as the raw text, no RecursionError
    error_of(call_tool(ground.catalog, "get_price", raw, own_scope(ground)))
    return "refused"


@attack("replies")
def a_draft_whose_hidden_override_reverses_a_figure(ground: Ground) -> Outcome:
    # Shown without its override, the figure is the one written; the raw one is judged.
    assert not judged("AXO closed at \u202e41.782\u202c on 2024-12-31.")
    return "refused"


# files: the night writes, appends and deletes only inside its own tree, through its own paths


@attack("files")
def a_hard_link_where_the_decisions_log_goes(ground: Ground) -> Outcome:
    layout, (case, *_) = review_cases(ground, "hardlink-log")
    outside = ground.folder("hardlink-log-outside") / "victim.txt"
    outside.write_text("")  # empty: the log reads as one without entries
    decisions_path(layout).unlink(missing_ok=True)
    os.link(outside, decisions_path(layout))
    decide = partial(record_decision, layout, case, "reject", note="n", by="ana", at=AT)
    refusal(decide, "hard link")
    assert outside.read_text() == ""
    return "refused"


@attack("files")
def a_hard_link_planted_among_the_reports(ground: Ground) -> Outcome:
    out = ground.folder("hardlink-tree/out")
    outside = ground.folder("hardlink-tree/outside") / "victim.md"
    outside.write_text("mine")
    (out / ground.day.isoformat() / "accepted").mkdir(parents=True)
    os.link(outside, out / ground.day.isoformat() / "accepted" / "P001.md")
    refusal(night(ground, out), "hard link")
    assert outside.read_text() == "mine"
    return "refused"


@attack("files")
def a_hard_link_in_the_spend_ledgers(ground: Ground) -> Outcome:
    out = ground.folder("hardlink-ledger/out")
    outside = ground.folder("hardlink-ledger/outside") / "victim.journal"
    outside.write_text("")
    ledgers = out / ".ledgers" / ground.day.isoformat()
    ledgers.mkdir(parents=True)
    os.link(outside, ledgers / "run.journal")
    refusal(night(ground, out), "hard link")
    return "refused"


@attack("files")
def a_link_where_a_spend_journal_is_opened(ground: Ground) -> Outcome:
    folder, outside = ground.folder("journal-link"), ground.folder("journal-link-outside")
    (folder / "run.journal").symlink_to(outside / "made.journal")
    try:
        SpendJournal(folder / "run.journal").close()
    except OSError:
        assert not (outside / "made.journal").exists()
        return "refused"
    raise AssertionError("a journal was opened through a link")


@attack("files")
def a_hard_link_replaced_by_the_atomic_writer(ground: Ground) -> Outcome:
    folder = ground.folder("hardlink-atomic")
    outside = ground.folder("hardlink-atomic-outside") / "victim.json"
    outside.write_text("mine")
    os.link(outside, folder / "manifest.json")
    write_atomic(folder / "manifest.json", "{}")
    assert outside.read_text() == "mine" and (folder / "manifest.json").read_text() == "{}"
    return "bounded"


@attack("files")
def a_stale_hard_link_removed_as_itself(ground: Ground) -> Outcome:
    folder = ground.folder("hardlink-stale")
    outside = ground.folder("hardlink-stale-outside") / "victim.md"
    outside.write_text("mine")
    os.link(outside, folder / "old.md")
    remove_stale(folder, set())
    assert outside.read_text() == "mine" and not (folder / "old.md").exists()
    return "bounded"


@attack("files")
def a_link_where_the_log_head_goes(ground: Ground) -> Outcome:
    out, outside = ground.folder("head-link/out"), ground.folder("head-link/outside")
    (out / ground.day.isoformat()).mkdir()
    (out / ground.day.isoformat() / ".decisions.head").symlink_to(outside / "head")
    return refusal(night(ground, out), "holds a link")


@attack("files")
def a_link_as_the_catalog_folder(ground: Ground) -> Outcome:
    out, outside = ground.folder("catalog-link/out"), ground.folder("catalog-link/outside")
    (out / ".catalog").symlink_to(outside)
    refusal(night(ground, out), "holds a link")
    assert not any(outside.iterdir())
    return "refused"


@attack("files")
def a_socket_where_a_case_goes(ground: Ground) -> Outcome:
    import socket

    out = ground.folder("sock/out")
    rejected = out / ground.day.isoformat() / "rejected"
    rejected.mkdir(parents=True)
    with socket.socket(socket.AF_UNIX) as sock:
        sock.bind(str(rejected / "X__move.json"))
        return refusal(night(ground, out), "a socket at")


@attack("files")
def a_fifo_as_a_question_set(ground: Ground) -> Outcome:
    fifo = ground.folder("fifo-questions") / "questions.json"
    os.mkfifo(fifo)
    return bounded_in_time(lambda: load_question_set(fifo), "not a regular file")


@attack("files")
def a_fifo_as_a_price_file(ground: Ground) -> Outcome:
    fifo = ground.folder("fifo-prices") / "prices.json"
    os.mkfifo(fifo)
    return bounded_in_time(lambda: load_prices(fifo), "not a regular file")


@attack("files")
def dev_zero_as_a_question_set(ground: Ground) -> Outcome:
    return bounded_in_time(lambda: load_question_set(Path("/dev/zero")), "not a regular file")


@attack("files")
def a_question_set_of_five_megabytes(ground: Ground) -> Outcome:
    big = ground.folder("big-questions") / "questions.json"
    big.write_text("[" + " " * 5_000_000 + "]")
    return bounded_in_time(lambda: load_question_set(big), "larger than")


@attack("files")
def a_question_set_that_is_not_utf8(ground: Ground) -> Outcome:
    bad = ground.folder("latin1-questions") / "questions.json"
    bad.write_bytes('{"questions": "caf\xe9"}'.encode("latin-1"))
    return refusal(lambda: load_question_set(bad), "not UTF-8")


@attack("files")
def a_fifo_as_a_data_file(ground: Ground) -> Outcome:
    data = copy_data(ground, "fifo-data")
    (data / "prices.parquet").unlink()
    os.mkfifo(data / "prices.parquet")
    return bounded_in_time(lambda: fingerprint_data(data), "prices.parquet")


@attack("files")
def a_data_file_linked_to_a_device(ground: Ground) -> Outcome:
    data = copy_data(ground, "device-data")
    (data / "news.parquet").unlink()
    (data / "news.parquet").symlink_to("/dev/zero")
    return bounded_in_time(lambda: fingerprint_data(data), "news.parquet")


@attack("files")
def a_rejected_index_that_is_not_utf8(ground: Ground) -> Outcome:
    layout, _ = review_cases(ground, "index-latin1")
    layout.rejected_index.write_bytes(b'{"case_id": "caf\xe9"}\n')
    return refusal(lambda: load_cases(layout), "not UTF-8")


@attack("files")
def a_manifest_that_is_not_utf8(ground: Ground) -> Outcome:
    layout, _ = review_cases(ground, "manifest-latin1")
    layout.manifest.write_bytes(b'{"run_id": "\xff"}')
    return refusal(lambda: read_manifest(layout), "")


def bounded_in_time(call: Callable[[], Any], said: str, seconds: float = 20) -> Outcome:
    """The call is refused in one line, and does not wait (on a FIFO, a device) to be."""
    outcome: list[Any] = []

    def attempt() -> None:
        try:
            call()
            outcome.append(None)
        except InputError as exc:
            outcome.append(exc)
        except BaseException as exc:
            outcome.append(exc)

    worker = threading.Thread(target=attempt, daemon=True)
    worker.start()
    worker.join(seconds)
    assert not worker.is_alive(), "it waited"
    (found,) = outcome
    assert isinstance(found, InputError), repr(found)
    assert said in found.message and "\n" not in found.message, found.message
    return "refused"


# ids: look-alike, padded and traversing names never reach a path, a scope or a key


def renamed(ground: Ground, name: str, table: str, column: str, value: str) -> Path:
    data = copy_data(ground, name)
    frame = pd.read_parquet(data / f"{table}.parquet")
    first = sorted(frame[column].unique())[0]
    for other in ("companies", "prices", "news", "events", "holdings", "portfolios"):
        path = data / f"{other}.parquet"
        found = pd.read_parquet(path)
        if column in found.columns:
            found[column] = found[column].replace({first: value})
            found.to_parquet(path, index=False)
    return data


ID_VALUES = {
    "a cyrillic ticker": ("ticker", "\u0410AA"),
    "a full-width ticker": ("ticker", "\uff21\uff22\uff23"),
    "a ticker with a NUL byte": ("ticker", "AB\x00C"),
    "a ticker with a trailing newline": ("ticker", "ABC\n"),
    "a formula as a ticker": ("ticker", "=HYPERLINK(1)"),
    "a portfolio id with a zero-width space": ("portfolio_id", "P0\u200b01"),
    "a greek portfolio id": ("portfolio_id", "\u03a1001"),
    "a traversing portfolio id": ("portfolio_id", "../../etc"),
    "a portfolio id with a slash": ("portfolio_id", "P/001"),
    "a formula as a portfolio id": ("portfolio_id", "@SUM(A1)"),
}


def _id(label: str, column: str, value: str) -> Callable[[Ground], Outcome]:
    def run(ground: Ground) -> Outcome:
        table = "companies" if column == "ticker" else "portfolios"
        data = renamed(ground, label.replace(" ", "-"), table, column, value)
        assert [v for v in check_dataset(data) if "file name" in str(v)]
        return "refused"

    run.__name__ = label.replace(" ", "_")
    return run


for _label, (_column, _value) in ID_VALUES.items():
    attack("ids")(_id(_label, _column, _value))


@attack("ids")
def traversing_case_ids_in_review(ground: Ground) -> Outcome:
    layout, _ = review_cases(ground, "traverse-case")
    for case in ("../../manifest", "..", "a/b", "x\x00y", "\u2025", ".hidden"):
        decide = partial(record_decision, layout, case, "reject", note="n", by="ana", at=AT)
        refusal(decide, "cannot be used as a file name")
    return "refused"


@attack("ids")
def look_alike_portfolio_ids_have_their_own_keys(ground: Ground) -> Outcome:
    ids = ["P001", "P0O1", "PO01", "P00l", "P001.", "P001-", "p001x"]
    assert len({report_key(i, ground.day.isoformat()) for i in ids}) == len(ids)
    return "bounded"


@attack("ids")
def a_look_alike_portfolio_in_a_tool_call(ground: Ground) -> Outcome:
    own, _ = portfolios(ground)
    for look_alike in (own.lower(), f"{own}\u200b", "\u0420" + own[1:], f" {own}", f"{own}\n"):
        args = {"portfolio_id": look_alike}
        error_of(call_tool(ground.catalog, "get_portfolio", args, own_scope(ground)))
    return "refused"


@attack("ids")
def a_full_width_date_in_a_tool_call(ground: Ground) -> Outcome:
    wide = "".join(chr(ord(c) + 0xFEE0) if c.isdigit() else c for c in ground.day.isoformat())
    args = {"ticker": "AAA", "date": wide}
    return error_of(call_tool(ground.catalog, "get_price", args, own_scope(ground)), "ISO date")


@attack("ids")
def a_date_with_a_zone_in_a_tool_call(ground: Ground) -> Outcome:
    for when in (f"{ground.day}T00:00:00+14:00", f"{ground.day} ", "1711584000", "2024-02-30"):
        args = {"ticker": "AAA", "date": when}
        error_of(call_tool(ground.catalog, "get_price", args, own_scope(ground)))
    return "refused"


@attack("ids")
def a_traversing_name_in_a_layout(ground: Ground) -> Outcome:
    layout = RunLayout(ground.scratch / "layout", REVIEW_DAY)
    for name in ("../x", "x/../../y", "", ".", "~root", "a\\b"):
        refusal(partial(layout.report, name, ".md"), "cannot be used as a file name")
        refusal(partial(check_name, name, "run id"), "cannot be used as a file name")
    return "refused"


# audit: the log is read only as written, whole, and names who decided as they are


def two_decisions(ground: Ground, name: str) -> RunLayout:
    layout, (first, second, *_) = review_cases(ground, name)
    record_decision(layout, first, "reject", note="one", by="ana", at=AT)
    record_decision(layout, second, "approve", note="two", by="bo", at=AT)
    return layout


@attack("audit")
def a_log_whose_last_entry_was_cut_away(ground: Ground) -> Outcome:
    layout = two_decisions(ground, "truncated")
    log = decisions_path(layout)
    log.write_text(log.read_text().splitlines(keepends=True)[0])
    return refusal(lambda: read_decisions(layout), "entries were removed")


@attack("audit")
def a_log_emptied(ground: Ground) -> Outcome:
    layout = two_decisions(ground, "emptied")
    decisions_path(layout).write_text("")
    return refusal(lambda: read_decisions(layout), "entries were removed")


@attack("audit")
def a_log_removed_whole(ground: Ground) -> Outcome:
    layout = two_decisions(ground, "removed")
    decisions_path(layout).unlink()
    return refusal(lambda: read_decisions(layout), "entries were removed")


@attack("audit")
def a_log_cut_and_its_head_removed(ground: Ground) -> Outcome:
    layout = two_decisions(ground, "headless")
    record_decision(layout, read_decisions(layout)[0].case_id, "reject", note="3", by="cy", at=AT)
    log = decisions_path(layout)
    log.write_text("".join(log.read_text().splitlines(keepends=True)[:2]))
    head_path(layout).unlink()
    return refusal(lambda: read_decisions(layout), "is missing")


@attack("audit")
def a_log_cut_mid_line(ground: Ground) -> Outcome:
    layout = two_decisions(ground, "cut-mid-line")
    log = decisions_path(layout)
    log.write_text(log.read_text()[:-40])
    return refusal(lambda: read_decisions(layout), "is not a decision")


@attack("audit")
def a_duplicated_entry(ground: Ground) -> Outcome:
    layout = two_decisions(ground, "duplicated")
    log = decisions_path(layout)
    lines = log.read_text().splitlines(keepends=True)
    log.write_text(lines[0] + lines[0] + lines[1])
    return refusal(lambda: read_decisions(layout), "the chain breaks at entry 2")


@attack("audit")
def entries_reordered(ground: Ground) -> Outcome:
    layout = two_decisions(ground, "reordered")
    log = decisions_path(layout)
    lines = log.read_text().splitlines(keepends=True)
    log.write_text(lines[1] + lines[0])
    return refusal(lambda: read_decisions(layout), "the chain breaks at entry 1")


@attack("audit")
def a_key_given_twice_in_an_entry(ground: Ground) -> Outcome:
    layout = two_decisions(ground, "duplicate-key")
    log = decisions_path(layout)
    lines = log.read_text().splitlines(keepends=True)
    lines[1] = lines[1].replace('{"decision_id"', '{"action": "reject", "decision_id"', 1)
    log.write_text("".join(lines))
    return refusal(lambda: read_decisions(layout), "the chain breaks at entry 2")


@attack("audit")
def an_entry_respaced(ground: Ground) -> Outcome:
    layout = two_decisions(ground, "respaced")
    log = decisions_path(layout)
    lines = log.read_text().splitlines(keepends=True)
    lines[0] = json.dumps(json.loads(lines[0]), indent=None, separators=(",", ":")) + "\n"
    log.write_text("".join(lines))
    return refusal(lambda: read_decisions(layout), "the chain breaks at entry 1")


@attack("audit")
def a_log_that_is_not_utf8(ground: Ground) -> Outcome:
    layout = two_decisions(ground, "latin1-log")
    with decisions_path(layout).open("ab") as log:
        log.write(b'{"note": "caf\xe9"}\n')
    return refusal(lambda: read_decisions(layout), "not UTF-8")


@attack("audit")
def an_entry_that_is_a_list(ground: Ground) -> Outcome:
    layout = two_decisions(ground, "list-entry")
    with decisions_path(layout).open("a") as log:
        log.write("[1, 2]\n")
    return refusal(lambda: read_decisions(layout), "is not a decision")


@attack("audit")
def a_head_that_is_garbage(ground: Ground) -> Outcome:
    layout = two_decisions(ground, "garbage-head")
    head_path(layout).write_text("{not json")
    return refusal(lambda: read_decisions(layout), "not a log head")


BY_SPOOFS = {
    "a name posing as the account": "ana (account root)",
    "a name with a line break": "ana\nreject by bo",
    "a name with a bidi override": "ana\u202eob",
    "a name with an escape sequence": "ana\x1b[2K",
    "a name mixing latin and cyrillic": "\u0430na",
    "a name of a thousand characters": "a" * 1000,
    "a name that is markup": "<b>bo</b>",
}


def _by(label: str, by: str) -> Callable[[Ground], Outcome]:
    def run(ground: Ground) -> Outcome:
        layout, (case, *_) = review_cases(ground, f"by-{label.replace(' ', '-')}")
        decide = partial(record_decision, layout, case, "reject", note="n", by=by, at=AT)
        refusal(decide, "decision by")
        assert read_decisions(layout) == []
        return "refused"

    run.__name__ = f"by_{label.replace(' ', '_')}"
    return run


for _label, _spoof in BY_SPOOFS.items():
    attack("audit")(_by(_label, _spoof))


@attack("audit")
def a_note_of_bytes_that_are_not_utf8(ground: Ground) -> Outcome:
    layout, (case, *_) = review_cases(ground, "note-surrogates")
    note = b"caf\xe9 \xed\xa0\x80".decode("utf-8", "surrogateescape")  # as argv brings them
    decide = partial(record_decision, layout, case, "reject", note=note, by="ana", at=AT)
    refusal(decide, "UTF-8")
    assert read_decisions(layout) == []
    return "refused"


@attack("audit")
def a_hostile_note_shown_where_decisions_are_listed(ground: Ground) -> Outcome:
    layout, (case, *_) = review_cases(ground, "hostile-note")
    note = "ok \x1b]8;;https://evil.example\x1b\\x\x1b]8;;\x1b\\ \u202eevorppa"
    decision = record_decision(layout, case, "reject", note=note, by="José García", at=AT)
    nothing_live(terminal(shown(describe_decision(decision))))
    assert read_decisions(layout)[0].note == note  # the log keeps it as given
    return "bounded"


# parameters: a flow run's parameters are read one way, and each path is one the system takes


@attack("parameters")
def a_report_date_as_a_timestamp_with_a_zone(ground: Ground) -> Outcome:
    payload = {"report_date": f"{ground.day}T00:00:00+14:00"}
    return refusal(lambda: RunConfig.model_validate(payload), "ISO date", ValidationError)


@attack("parameters")
def a_report_date_as_seconds_since_1970(ground: Ground) -> Outcome:
    payload = {"report_date": 1711584000}
    return refusal(lambda: RunConfig.model_validate(payload), "ISO date", ValidationError)


@attack("parameters")
def a_report_date_of_year_one(ground: Ground) -> Outcome:
    out = ground.scratch / "year-one" / "out"
    refusal(night_on(ground, out, date(1, 1, 1)), "no prices up to")
    assert not out.exists()
    return "refused"


def night_on(ground: Ground, out: Path, day: date) -> Callable[[], Any]:
    from flows.run.preflight import check_night

    return lambda: check_night(RunConfig(data_dir=ground.data, out_dir=out, report_date=day))


@attack("parameters")
def a_report_date_on_a_weekend(ground: Ground) -> Outcome:
    out = ground.scratch / "weekend" / "out"
    saturday = date(2024, 12, 28)
    return refusal(night_on(ground, out, saturday), "not a trading session")


@attack("parameters")
def an_unknown_budget_setting(ground: Ground) -> Outcome:
    refusal(
        lambda: BudgetConfig.model_validate({"run_tokens": 10, "unlimited": True}),
        "unlimited",
        ValidationError,
    )
    refusal(lambda: RunConfig.model_validate({"budget": {"free": 1}}), "free", ValidationError)
    return "refused"


@attack("parameters")
def nan_and_infinity_as_settings(ground: Ground) -> Outcome:
    for field, value in [
        ("max_withheld_share", float("nan")),
        ("batch_poll_seconds", float("nan")),
        ("batch_window_minutes", float("inf")),
    ]:
        refusal(partial(RunConfig, **{field: value}), field, ValidationError)
    refusal(
        lambda: BudgetConfig(usage_fault_factor=float("nan")), "usage_fault_factor", ValidationError
    )
    return "refused"


@attack("parameters")
def a_nul_byte_in_the_output_folder(ground: Ground) -> Outcome:
    return refusal(lambda: RunConfig(out_dir=Path("outputs\x00/x")), "control", ValidationError)


@attack("parameters")
def an_escape_sequence_in_the_data_folder(ground: Ground) -> Outcome:
    return refusal(lambda: RunConfig(data_dir=Path("data\x1b[2J")), "control", ValidationError)


@attack("parameters")
def an_output_folder_name_too_long_for_the_system(ground: Ground) -> Outcome:
    return refusal(lambda: RunConfig(out_dir=Path("o" * 300)), "255", ValidationError)


@attack("parameters")
def an_output_folder_on_a_special_file_system(ground: Ground) -> Outcome:
    return refusal(night(ground, Path("/proc/nightdesk-attack")), "cannot write")


@attack("parameters")
def an_output_folder_that_is_a_device(ground: Ground) -> Outcome:
    return refusal(night(ground, Path("/dev/null")), "")


@attack("parameters")
def a_served_out_dir_climbing_out_with_dots(ground: Ground) -> Outcome:
    root = ground.folder("served/root")
    return served(root, lambda: check_out_root(root / "a" / ".." / ".." / "elsewhere"))


@attack("parameters")
def a_served_out_dir_through_a_link_inside_it(ground: Ground) -> Outcome:
    root, outside = ground.folder("served-link/root"), ground.folder("served-link/outside")
    (root / "shortcut").symlink_to(outside)
    return served(root, lambda: check_out_root(root / "shortcut" / "night"))


@attack("parameters")
def a_served_out_dir_that_is_a_prefix_twin(ground: Ground) -> Outcome:
    root = ground.folder("served-twin/root")
    return served(root, lambda: check_out_root(Path(f"{root}-twin")))


def served(root: Path, call: Callable[[], Any]) -> Outcome:
    before = os.environ.get(OUT_ROOT_ENV)
    os.environ[OUT_ROOT_ENV] = str(root)
    try:
        return refusal(call, "outside")
    finally:
        if before is None:
            del os.environ[OUT_ROOT_ENV]
        else:
            os.environ[OUT_ROOT_ENV] = before


@attack("parameters")
def an_unknown_portfolio_that_traverses(ground: Ground) -> Outcome:
    out = ground.scratch / "unknown-portfolio" / "out"
    return refusal(night(ground, out, portfolios=["../../etc/passwd"]), "unknown portfolio")


# terminal: what reaches a terminal or a log holds no escape sequence


@attack("terminal")
def an_escape_sequence_in_a_log_line(ground: Ground) -> Outcome:
    record = logging.LogRecord(
        "x", logging.INFO, "f", 1, "ticker %s: %s", ("AXO", "\x1b[2J\x1b]0;pwned\x07 done"), None
    )
    RedactingFilter().filter(record)
    assert not hidden_in(record.getMessage()) and "done" in record.getMessage()
    return "bounded"


@attack("terminal")
def a_bidi_override_in_a_log_line(ground: Ground) -> Outcome:
    record = logging.LogRecord("x", logging.INFO, "f", 1, "%s", ("AXO \u202e%04 pu",), None)
    RedactingFilter().filter(record)
    assert not hidden_in(record.getMessage())
    return "bounded"


@attack("terminal")
def escape_sequences_in_json_a_command_prints(ground: Ground) -> Outcome:
    value = {"draft": "\x1b[31mred\x1b[0m \u202eevil \x00 \x9b1m"}
    printed = escape_hidden(json.dumps(value, ensure_ascii=False))
    assert not hidden_in(printed) and json.loads(printed) == value
    return "bounded"


@attack("terminal")
def rich_markup_from_data(ground: Ground) -> Outcome:
    out = terminal(shown("[link=https://evil.example]click[/link] [bold red]x[/]"))
    assert "[link=https[:]//evil.example]click[/link]" in out and "\x1b]8" not in out
    return "bounded"


@attack("terminal")
def a_markdown_line_that_would_be_a_heading(ground: Ground) -> Outcome:
    for text in ("# title", "> quote", "- item", "1. one", "===", "<div>", "| a |"):
        html = MarkdownIt("commonmark").render(md_text(text))
        assert html.startswith("<p>"), html
    return "bounded"


# numbers: values JSON cannot carry or a report could not mean


@attack("numbers")
def nan_and_infinity_from_sql(ground: Ground) -> Outcome:
    sql = "SELECT 'nan'::DOUBLE a, 'inf'::DOUBLE b, '-inf'::DOUBLE c, 10::DOUBLE / 0 d"
    out = call_tool(ground.catalog, "run_sql", {"sql": sql}, own_scope(ground))
    assert out["rows"] == [[None, None, None, None]]
    json.dumps(out, allow_nan=False)
    return "bounded"


@attack("numbers")
def a_huge_integer_and_decimal_from_sql(ground: Ground) -> Outcome:
    sql = "SELECT 170141183460469231731687303715884105727::HUGEINT a, 1.5::DECIMAL(38,10) b"
    out = call_tool(ground.catalog, "run_sql", {"sql": sql}, own_scope(ground))
    json.dumps(out, allow_nan=False)
    return "bounded"


@attack("numbers")
def calculator_overflow_and_huge_powers(ground: Ground) -> Outcome:
    scope = ToolScope.question(["calculate"], None)
    for expression in ("1e308*10", "9**9**9", "0/0", "-" * 5000 + "1", "1" * 5000):
        error_of(call_tool(ground.catalog, "calculate", {"expression": expression}, scope))
    return "refused"


def parquet_with(ground: Ground, name: str, column: str, value: float) -> Path:
    data = copy_data(ground, name)
    table = pq.read_table(data / "prices.parquet")
    values = table.column(column).to_pylist()
    values[-1] = value
    index = table.schema.get_field_index(column)
    table = table.set_column(index, column, pa.array(values, type=table.schema.field(column).type))
    pq.write_table(table, data / "prices.parquet")
    return data


PARQUET_VALUES = {
    "nan close": ("close", float("nan")),
    "infinite close": ("close", float("inf")),
    "negative infinite open": ("open", float("-inf")),
    "a close of 1e300": ("close", 1e300),
    "a close of zero": ("close", 0.0),
    "a denormal close": ("close", 5e-324),
}


def _parquet(label: str, column: str, value: float) -> Callable[[Ground], Outcome]:
    def run(ground: Ground) -> Outcome:
        data = parquet_with(ground, label.replace(" ", "-"), column, value)
        assert check_dataset(data), "the data check passed it"
        return "refused"

    run.__name__ = label.replace(" ", "_")
    return run


for _label, (_column, _number) in PARQUET_VALUES.items():
    attack("numbers")(_parquet(_label, _column, _number))


@attack("numbers")
def a_parquet_file_cut_in_half(ground: Ground) -> Outcome:
    data = copy_data(ground, "cut-parquet")
    raw = (data / "prices.parquet").read_bytes()
    (data / "prices.parquet").write_bytes(raw[: len(raw) // 2])
    assert [v for v in check_dataset(data) if "unreadable" in str(v)]
    return "refused"


# data: values that would mislead are refused before a night reads them


@attack("data")
def news_stored_on_a_local_clock(ground: Ground) -> Outcome:
    data = copy_data(ground, "news-tz")
    news = pd.read_parquet(data / "news.parquet")
    news["published_at"] = news["published_at"].dt.tz_convert("America/New_York")
    news.to_parquet(data / "news.parquet", index=False)
    assert [v for v in check_dataset(data) if "UTC" in str(v)]
    return "refused"


@attack("data")
def a_price_on_a_saturday(ground: Ground) -> Outcome:
    data = copy_data(ground, "saturday")
    prices = pd.read_parquet(data / "prices.parquet")
    row = prices.iloc[[-1]].copy()
    row["date"] = pd.Timestamp("2024-12-28").date()
    pd.concat([prices, row]).to_parquet(data / "prices.parquet", index=False)
    assert check_dataset(data)
    return "refused"


@attack("data")
def a_duplicated_price_row(ground: Ground) -> Outcome:
    data = copy_data(ground, "dup-row")
    prices = pd.read_parquet(data / "prices.parquet")
    pd.concat([prices, prices.iloc[[0]]]).to_parquet(data / "prices.parquet", index=False)
    assert [v for v in check_dataset(data) if "duplicate" in str(v).lower()]
    return "refused"


@attack("data")
def an_extra_column(ground: Ground) -> Outcome:
    data = copy_data(ground, "extra-col")
    companies = pd.read_parquet(data / "companies.parquet")
    companies["password"] = "x"
    companies.to_parquet(data / "companies.parquet", index=False)
    assert [v for v in check_dataset(data) if "extra column" in str(v)]
    return "refused"


@attack("data")
def a_headline_of_a_megabyte(ground: Ground) -> Outcome:
    news = pd.read_parquet(ground.data / "news.parquet")
    ticker = news["ticker"].iloc[0]
    scope = ToolScope.question(["search_news"], None)
    args = {"ticker": ticker, "start": "2024-01-01", "end": ground.day.isoformat(), "limit": 10}
    out = call_tool(ground.catalog, "search_news", args, scope)
    assert shape_problem(out, "the result") is None
    return "bounded"


@attack("data")
def a_data_folder_linked_elsewhere(ground: Ground) -> Outcome:
    link = ground.scratch / "data-link"
    link.symlink_to(ground.data)
    assert fingerprint_data(link) == fingerprint_data(ground.data)
    return "bounded"


@attack("data")
def an_empty_parquet_file(ground: Ground) -> Outcome:
    data = copy_data(ground, "empty-parquet")
    (data / "events.parquet").write_bytes(b"")
    assert [v for v in check_dataset(data) if "unreadable" in str(v)]
    return "refused"


# races: two writers at once each land whole


@attack("races")
def two_nights_publishing_one_date(ground: Ground) -> Outcome:
    """Two publishers of one date at once: each publish lands whole, one after the other, and
    the manifest that stands is one of theirs over its own files."""
    out = ground.folder("race-publish")
    runs = [
        RunOutcome(run_id=f"run-{n}", report_date=REVIEW_DAY, parameters={"n": n}) for n in range(2)
    ]
    errors: list[BaseException] = []

    def publish(outcome: RunOutcome) -> None:
        try:
            for _ in range(5):
                publish_run(out, outcome)
        except BaseException as exc:
            errors.append(exc)

    workers = [threading.Thread(target=publish, args=(run,)) for run in runs]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(60)
    assert not errors and not any(w.is_alive() for w in workers), errors
    layout = open_run(out, REVIEW_DAY)
    assert read_manifest(layout)["run_id"] in {"run-0", "run-1"}
    return "bounded"


@attack("races")
def eight_analysts_deciding_at_once(ground: Ground) -> Outcome:
    layout, cases = review_cases(ground, "race-decide")
    threads = [
        threading.Thread(
            target=record_decision,
            args=(layout, cases[n % len(cases)], "reject"),
            kwargs=dict(note=f"n{n}", by=f"analyst{n}", at=AT),
        )
        for n in range(8)
    ]
    for worker in threads:
        worker.start()
    for worker in threads:
        worker.join(60)
    made = read_decisions(layout)
    assert len(made) == 8 and len({d.decision_id for d in made}) == 8
    return "bounded"


@attack("races")
def a_decision_while_a_night_publishes(ground: Ground) -> Outcome:
    layout, (case, *_) = review_cases(ground, "race-publish-decide")
    errors: list[BaseException] = []

    def publish() -> None:
        try:
            outcome = RunOutcome(run_id="again", report_date=REVIEW_DAY)
            for _ in range(3):
                publish_run(layout.root, outcome)
        except BaseException as exc:
            errors.append(exc)

    worker = threading.Thread(target=publish)
    worker.start()
    for n in range(3):
        record_decision(layout, case, "reject", note=f"n{n}", by="ana", at=AT)
    worker.join(60)
    assert not errors, errors
    assert len(read_decisions(layout)) == 3
    return "bounded"


# parameters through the command line: one line on stderr, a non-zero status, no traceback


def cli_refuses(args: list[str], said: str) -> Outcome:
    """`nightdesk ARGS` as `main` runs it: exit status 2 and one line on stderr saying `said`."""
    import contextlib

    from cyclopts import CycloptsError

    from flows.cli.main import app, fail

    err, out = io.StringIO(), io.StringIO()
    try:
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(out):
            try:
                app(args)
            except InputError as exc:
                fail(exc.message)
            except CycloptsError as exc:
                fail(" ".join(str(exc).split()))
    except SystemExit as exc:
        code = exc.code
    else:
        code = 0
    lines = err.getvalue().strip().splitlines()
    assert code == 2 and len(lines) == 1 and lines[0].startswith("nightdesk: error:"), (
        code,
        err.getvalue()[-500:],
    )
    assert said in lines[0] and not hidden_in(lines[0]), lines[0]
    return "refused"


CLI_REFUSED: dict[str, tuple[list[str], str]] = {
    "run with a NUL in --out": (["run", "--out", "out\x00x"], "control character"),
    "run with an escape in --data": (["run", "--data", "d\x1b[2J"], "control character"),
    "run on the last day there is": (["run", "--date", "9999-12-31"], "9999-12-31"),
    "run with a zoned timestamp for --date": (
        ["run", "--date", "2024-12-31T00:00:00+14:00"],
        "date",
    ),
    "run with a traversing --date": (["run", "--date", "../../etc"], "date"),
    "run with concurrency zero": (["run", "--concurrency", "0"], "concurrency"),
    "run with NaN for --max-withheld-share": (["run", "--max-withheld-share", "nan"], "withheld"),
    "review list on a traversing --date": (["review", "list", "--date", "2024-03-28/.."], "date"),
    "report on a date of year 0": (["report", "--date", "0000-01-01"], "date"),
}


def _cli(label: str, args: list[str], said: str) -> Callable[[Ground], Outcome]:
    def run(ground: Ground) -> Outcome:
        extra = [] if args[0] != "run" or "--data" in args else ["--data", str(ground.data)]
        out = [] if "--out" in args else ["--out", str(ground.scratch / "cli-out")]
        return cli_refuses([*args, *extra, *out], said)

    run.__name__ = label.replace(" ", "_")
    return run


for _label, (_args, _said) in CLI_REFUSED.items():
    attack("parameters")(_cli(_label, _args, _said))


@attack("audit")
def a_decision_on_a_traversing_case_from_the_command_line(ground: Ground) -> Outcome:
    layout, _ = review_cases(ground, "cli-traverse")
    args = ["review", "decide", "../../manifest", "--date", REVIEW_DAY.isoformat()]
    args += ["--out", str(layout.root), "--reject", "--note", "n", "--by", "ana"]
    return cli_refuses(args, "cannot be used as a file name")


@attack("audit")
def a_spoofed_name_from_the_command_line(ground: Ground) -> Outcome:
    layout, (case, *_) = review_cases(ground, "cli-by")
    args = ["review", "decide", case, "--date", REVIEW_DAY.isoformat(), "--out", str(layout.root)]
    cli_refuses([*args, "--reject", "--note", "n", "--by", "ana (account root)"], "decision by")
    assert read_decisions(layout) == []
    return "refused"


@attack("files")
def an_output_folder_under_a_file(ground: Ground) -> Outcome:
    blocker = ground.folder("under-file") / "a-file"
    blocker.write_text("mine")
    refusal(night(ground, blocker / "out"), "is a file, not a folder")
    assert blocker.read_text() == "mine"
    return "refused"


@attack("files")
def an_output_folder_that_cannot_be_written(ground: Ground) -> Outcome:
    if os.geteuid() == 0:  # root writes whatever the mode says: a read-only mount stands in
        return refusal(night(ground, Path("/proc/self/nightdesk-out")), "cannot write")
    out = ground.folder("read-only")
    out.chmod(0o500)
    try:
        return refusal(night(ground, out / "out"), "cannot write")
    finally:
        out.chmod(0o700)


# replies and parameters holding lone surrogates: JSON may escape half a UTF-16 pair
# (`\ud800`), the shell passes bytes that are not UTF-8 as such halves; no file can hold one


def chat_completion(content: str | None, arguments: str | None = None) -> Any:
    from openai.types.chat import ChatCompletion

    calls = [
        {
            "id": "c\ud800",
            "type": "function",
            "function": {"name": "get_price", "arguments": arguments},
        }
    ]
    message: dict[str, Any] = {"role": "assistant", "content": content}
    if arguments is not None:
        message["tool_calls"] = calls
    body = {
        "id": "x", "object": "chat.completion", "created": 0, "model": "m",
        "choices": [{"index": 0, "finish_reason": "stop", "message": message}],
        "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
    }  # fmt: skip
    return ChatCompletion.model_validate(body)


@attack("replies")
def a_reply_holding_a_lone_surrogate(ground: Ground) -> Outcome:
    from agent.providers.openai import parse_response

    reply = parse_response(chat_completion(json.loads('"AXO closed at 1.0 \\ud800 today"')))
    path = ground.folder("surrogate-reply") / "case.json"
    write_atomic(path, json.dumps({"draft": reply.text}, ensure_ascii=False))
    assert "\ufffd" in path.read_text(encoding="utf-8")
    return "bounded"


@attack("replies")
def tool_call_arguments_holding_a_lone_surrogate(ground: Ground) -> Outcome:
    from agent.providers.openai import parse_response

    args = json.loads('"{\\"ticker\\": \\"A\\ud800\\", \\"date\\": \\"2024-12-31\\"}"')
    (call,) = parse_response(chat_completion(None, args)).tool_calls
    call.model_dump_json()  # the trace can hold it
    error_of(call_tool(ground.catalog, "get_price", call.arguments, own_scope(ground)))
    return "refused"


@attack("parameters")
def a_model_name_of_bytes_that_are_not_utf8(ground: Ground) -> Outcome:
    model = b"gpt\xff".decode("utf-8", "surrogateescape")
    refusal(lambda: RunConfig(model=model), "unicode string", ValidationError)
    portfolio = b"P\xff".decode("utf-8", "surrogateescape")
    return refusal(lambda: RunConfig(portfolios=[portfolio]), "UTF-8", ValidationError)


@attack("parameters")
def an_output_folder_of_bytes_that_are_not_utf8(ground: Ground) -> Outcome:
    out = Path(b"out-\xff".decode("utf-8", "surrogateescape"))
    return refusal(lambda: RunConfig(out_dir=out), "UTF-8", ValidationError)

"""What a reader sees of a portfolio report, computed once in the report's language and laid out
by both renderers (Markdown and HTML), so the two never say different things.

Order: the table with its holdings date and price basis; then one paragraph per position worth
reading: material moves first (`tools.portfolio_table.MATERIAL_*`, largest contribution first),
then positions with headlines, scheduled events, withheld answers or analyst notes; the rest are
named in one line. Each paragraph is the ticker's verified summary; the individual answers it was
drafted from stay in the report's JSON (their sentences would repeat it), except those an analyst
approved or that are withheld, which are named under their position.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Any, Literal

from markupsafe import Markup

from contract.number_format import format_number, format_percent, format_quantity
from flows.publish.charts import contribution_chart, price_line
from flows.publish.labels import (
    basis_label,
    kind_label,
    label,
    label_parts,
    moment,
    short_date,
)
from flows.publish.report import Answer, PortfolioReport, TickerSection
from flows.publish.since import SinceLastReport
from tools.portfolio_table import (
    MATERIAL_CONTRIBUTION_PCT,
    MATERIAL_MOVE_PCT,
    PortfolioTable,
    PositionRow,
)

InlineKind = Literal["text", "link", "code"]


@dataclass(frozen=True)
class Inline:
    """A piece of a line: plain text, a link (`href`) or a command to type."""

    kind: InlineKind
    text: str
    href: str = ""


@dataclass
class PositionView:
    """One position worth reading: its verified paragraph, or why it is withheld, and notes."""

    ticker: str
    paragraph: str | None = None
    paragraph_note: str | None = None
    withheld: list[Inline] = field(default_factory=list)
    notes: list[list[Inline]] = field(default_factory=list)
    sources: list[str] = field(default_factory=list)
    company: str = ""
    chart: Markup | None = None
    """The position's price line (HTML only), for a material mover."""


@dataclass
class ReportView:
    language: str
    title: str
    table_error: str | None = None
    stale: str | None = None
    basis: str | None = None
    totals: str | None = None
    benchmark: str | None = None
    leaders: str | None = None
    incomplete: str | None = None
    columns: list[str] = field(default_factory=list)
    rows: list[list[str]] = field(default_factory=list)
    signed: set[int] = field(default_factory=set)
    """Columns whose figures carry a sign (coloured in the HTML table)."""
    wrapped: set[int] = field(default_factory=set)
    """Columns of words (company, sector) that may wrap."""
    chart_title: str = ""
    chart: Markup | None = None
    """The contribution bars (HTML only)."""
    since_title: str = ""
    since: list[str] = field(default_factory=list)
    material_title: str = ""
    material_rule: str = ""
    material: list[PositionView] = field(default_factory=list)
    other_title: str = ""
    other: list[PositionView] = field(default_factory=list)
    quiet: str | None = None
    withheld: list[Inline] = field(default_factory=list)
    withheld_count: int = 0
    answers_where: str = ""
    sources_label: str = ""
    anchored: set[str] = field(default_factory=set)
    """Tickers with a paragraph: the HTML table links them to it."""


@dataclass(frozen=True)
class Links:
    """Where the report points its reader: the review page (relative to the report) and the
    arguments that name the run to `nightdesk review list`."""

    review_href: str = "../review.html"
    cli_args: str = ""
    json_name: str = ""


def build_view(report: PortfolioReport, links: Links) -> ReportView:
    lang = report.language
    t = report.table
    name = f"{t.name} ({t.portfolio_id})" if t.name else t.portfolio_id
    view = ReportView(lang, label(lang, "title", name=name, date=report.report_date.isoformat()))
    if t.error:
        view.table_error = label(lang, "table_unavailable", error=t.error)
    else:
        fill_table(view, t)
        fill_chart(view, t)
    age = report.holdings_age_days
    if age is not None and age > report.holdings_max_age_days:
        view.stale = label(
            lang,
            "stale",
            days=format_quantity(age, lang),
            date=short_date(date.fromisoformat(t.holdings_as_of or ""), lang, year=True),
            limit=format_quantity(report.holdings_max_age_days, lang),
        )
    if report.since is not None:
        fill_since(view, report.since)
    rows = {p.ticker: p for p in t.positions}
    material, other, quiet = [], [], []
    for section in report.tickers:
        row = rows.get(section.ticker)
        position = position_view(section, lang, links, report.report_date.year)
        if row is not None:
            position.company = row.name
        if row is not None and row.error is None and row.material:
            position.chart = mover_chart(t, row, lang)
            material.append((row, position))
        elif worth_reading(section):
            other.append(position)
        else:
            quiet.append(section.ticker)
    material.sort(key=lambda rp: _weight(rp[0]))
    view.material_title = label(lang, "material")
    view.material_rule = label(
        lang,
        "material_rule",
        move=format_percent(MATERIAL_MOVE_PCT, lang),
        contribution=format_percent(MATERIAL_CONTRIBUTION_PCT, lang),
    )
    view.material = [p for _, p in material]
    view.other_title = label(lang, "other")
    view.other = other
    view.anchored = {p.ticker for p in [*view.material, *other]}
    if quiet:
        view.quiet = label(lang, "quiet", tickers=", ".join(quiet))
    view.withheld = withheld_line(report, links)
    view.withheld_count = report.withheld
    view.sources_label = label(lang, "sources")
    view.answers_where = label(lang, "answers_where", json=links.json_name or "JSON")
    return view


def fill_table(view: ReportView, t: PortfolioTable) -> None:
    lang = view.language
    day = t.report_date.isoformat()
    bases = [basis_label(lang, b) for b in t.price_bases] or [label(lang, "basis_unknown")]
    view.basis = label(
        lang,
        "basis",
        holdings_as_of=t.holdings_as_of or label(lang, "basis_unknown"),
        date=day,
        basis=", ".join(bases),
    )
    view.totals = label(
        lang,
        "totals",
        market_value=_num(t.market_value, lang),
        currency=f" {t.base_currency}" if t.base_currency else "",
        day_pnl=_signed(t.day_pnl, lang),
        day_return=_pct(t.day_return_pct, lang),
    )
    view.benchmark = benchmark_line(t, lang)
    rows = {p.ticker: p for p in t.positions}
    none = label(lang, "none")
    view.leaders = label(
        lang,
        "leaders",
        contributors=", ".join(_leader(rows[x], lang) for x in t.contributors) or none,
        detractors=", ".join(_leader(rows[x], lang) for x in t.detractors) or none,
    )
    if t.unpriced:
        view.incomplete = label(lang, "incomplete", tickers=", ".join(t.unpriced), date=day)
    keys = (
        "ticker", "company", "sector", "weight", "quantity", "close", "market_value", "day_pnl",
        "pnl_pct", "contribution",
    )  # fmt: skip
    view.columns = [label(lang, f"col_{k}") for k in keys]
    view.signed = {7, 8, 9}
    view.wrapped = {1, 2}
    for p in t.by_contribution():
        if p.error:
            view.rows.append([p.ticker, label(lang, "unavailable", error=p.error)])
            continue
        view.rows.append(
            [
                p.ticker,
                p.name,
                p.sector,
                _pct(p.weight_pct, lang, signed=False),
                "n/a" if p.quantity is None else format_quantity(p.quantity, lang),
                _num(p.close, lang),
                _num(p.market_value, lang),
                _signed(p.day_pnl, lang),
                _pct(p.pnl_pct, lang),
                _pct(p.contribution_pct, lang),
            ]
        )


def benchmark_line(t: PortfolioTable, lang: str) -> str | None:
    """The day against the benchmark, both returns and their difference as the table's
    figures state them (`PortfolioTable.excess_return_pct`)."""
    b = t.benchmark
    if b is None:
        return None
    if b.ticker:
        name = b.ticker
    else:
        count = format_quantity(b.constituents or 0, lang)
        name = label(lang, "equal_weight", count=count)
    if b.return_pct is None or t.excess_return_pct is None:
        return label(lang, "benchmark_unavailable", name=name, why=b.note or "")
    excess = t.excess_return_pct
    side = "above" if excess > 0 else "below" if excess < 0 else "level"
    return label(
        lang,
        f"benchmark_{side}",
        name=name,
        benchmark=_pct(b.return_pct, lang),
        day_return=_pct(t.day_return_pct, lang),
        points=format_number(abs(excess), lang),
    )


def fill_chart(view: ReportView, t: PortfolioTable) -> None:
    lang = view.language
    bars = [(p.ticker, p.contribution_pct) for p in t.by_contribution()
            if p.error is None and p.contribution_pct is not None]  # fmt: skip
    view.chart_title = label(lang, "chart_contributions")
    view.chart = contribution_chart(bars, lang, view.chart_title)


def mover_chart(t: PortfolioTable, row: PositionRow, lang: str) -> Markup | None:
    points = [(short_date(p.day, lang), p.close) for p in t.history.get(row.ticker, [])]
    if len(points) < 2:
        return None
    title = label(lang, "chart_price", ticker=row.ticker, first=points[0][0], last=points[-1][0])
    return price_line(points, lang, title)


def fill_since(view: ReportView, since: SinceLastReport) -> None:
    lang = view.language
    view.since_title = label(lang, "since", date=short_date(since.report_date, lang, year=True))
    if since.change is not None and since.market_value_then is not None:
        view.since.append(
            label(
                lang,
                "since_value",
                then=_num(since.market_value_then, lang),
                now=_num(since.market_value_now, lang),
                change=_signed(since.change, lang),
                pct=_pct(since.change_pct, lang),
            )
        )
    if since.added or since.removed:
        none = label(lang, "none")
        view.since.append(
            label(
                lang,
                "since_holdings",
                added=", ".join(since.added) or none,
                removed=", ".join(since.removed) or none,
            )
        )
    moves = [
        label(
            lang,
            "since_move",
            ticker=p.ticker,
            pct=_pct(p.change_pct, lang),
            then=_num(p.close_then, lang),
            now=_num(p.close_now, lang),
        )
        for p in since.positions[:SINCE_SHOWN]
    ]
    if moves:
        view.since.append(label(lang, "since_moves", moves="; ".join(moves)))


SINCE_SHOWN = 5
"""How many positions' moves since the last report are named (largest first)."""


def position_view(section: TickerSection, lang: str, links: Links, year: int = 0) -> PositionView:
    view = PositionView(section.ticker)
    summary = section.summary
    if summary is not None and summary.status in ("accepted", "approved") and summary.answer:
        view.paragraph = for_people(summary.answer, summary.evidence, lang, year)
        view.paragraph_note = summary.note
        view.sources = [_call(e) for e in summary.evidence]
    elif summary is not None:
        view.withheld = line_of(
            lang,
            "summary_withheld",
            reason=summary.reason or "",
            case=_case(summary.case_id, links),
        )
    elif section.summary_note:
        view.withheld = line_of(lang, "summary_missing", reason=section.summary_note)
    for answer in section.answers:
        line = answer_line(answer, lang, links)
        if line is not None:
            view.notes.append(line)
    if not (view.paragraph or view.withheld or view.notes):  # never an empty card
        view.withheld = line_of(lang, "summary_none")
    return view


ISO_MOMENT = re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2})?(?:Z|[+-]\d{2}:\d{2})")
ISO_DAY = re.compile(r"(?<![\d-])\d{4}-\d{2}-\d{2}(?!\d|T\d)")
QUOTED = re.compile(r'"[^"]*"|“[^”]*”|«[^»]*»')


def for_people(text: str, evidence: list[dict[str, Any]], lang: str, year: int = 0) -> str:
    """A verified paragraph with its times and dates written as people write them: a
        headline's `2015-12-08T13:55:37-05:00` as `Dec 8, 13:55, during the session` (the session
        as its search result states it), a day as `Dec 7` (with its year when that is not `year`,
    the report's). Quoted headlines stay as they are;
        the JSON keeps the verified text."""
    sessions = {
        str(item.get("published_at")): str(item.get("session") or "")
        for e in evidence
        if isinstance(e.get("result"), dict)
        for item in e["result"].get("news", [])
        if isinstance(item, dict)
    }

    def moment_of(m: re.Match[str]) -> str:
        try:
            stamp = datetime.fromisoformat(m.group().replace("Z", "+00:00"))
        except ValueError:
            return m.group()
        return moment(stamp, sessions.get(m.group(), ""), lang)

    def day_of(m: re.Match[str]) -> str:
        try:
            day = date.fromisoformat(m.group())
            return short_date(day, lang, year=day.year != year)
        except ValueError:
            return m.group()

    pieces, last = [], 0
    for quote in [*QUOTED.finditer(text), None]:
        end = quote.start() if quote else len(text)
        plain = ISO_DAY.sub(day_of, ISO_MOMENT.sub(moment_of, text[last:end]))
        pieces.append(plain + (quote.group() if quote else ""))
        last = quote.end() if quote else end
    return "".join(pieces)


def answer_line(answer: Answer, lang: str, links: Links) -> list[Inline] | None:
    """What an answer adds under its position: only an analyst's decision or a withholding;
    a verified answer is already in the paragraph."""
    kind = kind_label(lang, answer.kind)
    note = [Inline("text", f" ({answer.note})")] if answer.note else []
    if answer.status == "withheld":
        case = _case(answer.case_id, links)
        reason = answer.reason or ""
        return line_of(lang, "withheld_answer", kind=kind, reason=reason, case=case) + note
    if answer.status == "approved":
        return line_of(lang, "approved_answer", kind=kind, text=answer.answer or "") + note
    if answer.note:
        return line_of(lang, "reviewed_answer", kind=kind, text=answer.answer or "") + note
    return None


def line_of(lang: str, key: str, **values: str | Inline) -> list[Inline]:
    """The words for `key` as pieces: each value a text, or the link or command it is."""
    line = []
    for text, name in label_parts(lang, key):
        if text:
            line.append(Inline("text", text))
        if name:
            value = values[name]
            line.append(value if isinstance(value, Inline) else Inline("text", value))
    return line


def _case(case_id: str | None, links: Links) -> Inline:
    """A rejected case, linked to its entry on the review page."""
    if not case_id:
        return Inline("text", "")
    return Inline("link", case_id, f"{links.review_href}#{case_id}")


def worth_reading(section: TickerSection) -> bool:
    """A position without a material move still earns its paragraph with a headline or a
    scheduled event in what was verified, or a withheld answer or analyst note to show."""
    answers = [*section.answers, *([section.summary] if section.summary else [])]
    if any(a.status != "accepted" or a.note for a in answers) or section.summary is None:
        return True
    return any(_has_items(e) for a in answers for e in a.evidence)


def _has_items(evidence: dict[str, Any]) -> bool:
    result = evidence.get("result")
    if not isinstance(result, dict):
        return False
    if evidence.get("tool") == "search_news":
        return bool(result.get("news"))
    if evidence.get("tool") == "get_events":
        return bool(result.get("events"))
    return False


def withheld_line(report: PortfolioReport, links: Links) -> list[Inline]:
    """How many answers and paragraphs were withheld, and where an analyst sees them."""
    lang = report.language
    if report.withheld == 0:
        return [Inline("text", label(lang, "withheld_none"))]
    paragraphs = sum(
        s.summary is not None and s.summary.status == "withheld" for s in report.tickers
    )
    parts = [
        _counted(lang, "answers", report.withheld - paragraphs),
        _counted(lang, "paragraphs", paragraphs),
    ]
    causes = [
        label(lang, f"cause_{cause}", count=str(count))
        for cause, count in report.withheld_by_cause.items()
        if count
    ]
    command = f"nightdesk review list {links.cli_args}".strip()
    return line_of(
        lang,
        "withheld_count",
        count=label(lang, "and").join(p for p in parts if p),
        causes=", ".join(causes),
        page=Inline("link", "review.html", links.review_href),
        command=Inline("code", command),
    )


def _counted(lang: str, what: str, count: int) -> str:
    if count == 0:
        return ""
    if count == 1:
        return label(lang, f"{what}_one")
    return label(lang, f"{what}_many", count=str(count))


def _weight(row: PositionRow) -> tuple[float, float, str]:
    return (-abs(row.contribution_pct or 0.0), -abs(row.pnl_pct or 0.0), row.ticker)


def _call(evidence: dict[str, Any]) -> str:
    args = evidence.get("args")
    shown = ", ".join(f"{k}={v}" for k, v in args.items()) if isinstance(args, dict) else ""
    return f"{evidence.get('tool')}({shown})"


def _num(value: float | None, lang: str) -> str:
    return "n/a" if value is None else format_number(value, lang)


def _signed(value: float | None, lang: str) -> str:
    """An amount with its sign: +1,234.00 or -56.78."""
    if value is None:
        return "n/a"
    return ("+" if value > 0 else "") + format_number(value, lang)


def _pct(value: float | None, lang: str, signed: bool = True) -> str:
    return "n/a" if value is None else format_percent(value, lang, signed=signed)


def _leader(row: PositionRow, lang: str) -> str:
    """`AAPL +1,234.00 (+0.21%)`: a contributor or detractor with its day P&L and its
    contribution to the day's return."""
    return f"{row.ticker} {_signed(row.day_pnl, lang)} ({_pct(row.contribution_pct, lang)})"

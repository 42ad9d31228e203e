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

from dataclasses import dataclass, field
from typing import Any, Literal

from contract.number_format import format_number, format_percent, format_quantity
from flows.publish.labels import basis_label, kind_label, label, label_parts
from flows.publish.report import Answer, PortfolioReport, TickerSection
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


@dataclass
class ReportView:
    language: str
    title: str
    table_error: str | None = None
    basis: str | None = None
    totals: str | None = None
    leaders: str | None = None
    incomplete: str | None = None
    columns: list[str] = field(default_factory=list)
    rows: list[list[str]] = field(default_factory=list)
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
    rows = {p.ticker: p for p in t.positions}
    material, other, quiet = [], [], []
    for section in report.tickers:
        row = rows.get(section.ticker)
        position = position_view(section, lang, links)
        if row is not None and row.error is None and row.material:
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
    date = t.report_date.isoformat()
    bases = [basis_label(lang, b) for b in t.price_bases] or [label(lang, "basis_unknown")]
    view.basis = label(
        lang,
        "basis",
        holdings_as_of=t.holdings_as_of or label(lang, "basis_unknown"),
        date=date,
        basis=", ".join(bases),
    )
    view.totals = label(
        lang,
        "totals",
        market_value=_num(t.market_value, lang),
        currency=f" {t.base_currency}" if t.base_currency else "",
        day_pnl=_num(t.day_pnl, lang),
        day_return=_pct(t.day_return_pct, lang),
    )
    none = label(lang, "none")
    view.leaders = label(
        lang,
        "leaders",
        contributors=", ".join(t.contributors) or none,
        detractors=", ".join(t.detractors) or none,
    )
    if t.unpriced:
        view.incomplete = label(lang, "incomplete", tickers=", ".join(t.unpriced), date=date)
    keys = ("ticker", "quantity", "close", "market_value", "day_pnl", "pnl_pct", "contribution")
    view.columns = [label(lang, f"col_{k}") for k in keys]
    for p in t.positions:
        if p.error:
            view.rows.append([p.ticker, label(lang, "unavailable", error=p.error)])
            continue
        view.rows.append(
            [
                p.ticker,
                "n/a" if p.quantity is None else format_quantity(p.quantity, lang),
                _num(p.close, lang),
                _num(p.market_value, lang),
                _num(p.day_pnl, lang),
                _pct(p.pnl_pct, lang),
                _pct(p.contribution_pct, lang),
            ]
        )


def position_view(section: TickerSection, lang: str, links: Links) -> PositionView:
    view = PositionView(section.ticker)
    summary = section.summary
    if summary is not None and summary.status in ("accepted", "approved") and summary.answer:
        view.paragraph = summary.answer
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
    return view


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
    command = f"nightdesk review list {links.cli_args}".strip()
    return line_of(
        lang,
        "withheld_count",
        count=label(lang, "and").join(p for p in parts if p),
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


def _pct(value: float | None, lang: str) -> str:
    return "n/a" if value is None else format_percent(value, lang, signed=True)

"""One portfolio's report: its table, then per ticker the summary and each answer, verified or
shown as withheld with its reason (never silently dropped). Rendered as JSON and Markdown."""

from __future__ import annotations

import re
from datetime import date
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, Field

from flows.publish.layout import RunLayout, write_atomic, write_json
from flows.publish.records import QuestionRecord, TickerResult
from tools.portfolio_table import PortfolioTable


class Answer(BaseModel):
    """One question's place in a report: the verified text, or why it is withheld."""

    question_id: str
    kind: str
    question: str
    status: Literal["accepted", "approved", "withheld"]
    answer: str | None = None
    reason: str | None = None
    case_id: str | None = None
    note: str | None = None
    evidence: list[dict[str, Any]] = Field(default_factory=list)


class TickerSection(BaseModel):
    ticker: str
    summary: Answer | None = None
    summary_note: str | None = None
    answers: list[Answer] = Field(default_factory=list)


class PortfolioReport(BaseModel):
    """What `accepted/<portfolio>.json` holds; the Markdown file is rendered from it."""

    run_id: str
    report_date: date
    portfolio_id: str
    table: PortfolioTable
    tickers: list[TickerSection] = Field(default_factory=list)


def build_report(
    run_id: str, table: PortfolioTable, results: dict[str, TickerResult]
) -> PortfolioReport:
    """The report of one portfolio from the run's ticker results."""
    sections = []
    for ticker in table.tickers:
        result = results.get(ticker)
        if result is None:
            continue
        mine = [r for r in result.records if table.portfolio_id in r.portfolios]
        sections.append(
            TickerSection(
                ticker=ticker,
                summary=to_answer(result.summary) if result.summary is not None else None,
                summary_note=result.summary_note,
                answers=[to_answer(r) for r in mine],
            )
        )
    return PortfolioReport(
        run_id=run_id,
        report_date=table.report_date,
        portfolio_id=table.portfolio_id,
        table=table,
        tickers=sections,
    )


def to_answer(record: QuestionRecord) -> Answer:
    if record.status == "accepted":
        return Answer(
            question_id=record.question_id,
            kind=record.kind,
            question=record.text,
            status="accepted",
            answer=record.draft,
            evidence=evidence_of(record.trace),
        )
    return Answer(
        question_id=record.question_id,
        kind=record.kind,
        question=record.text,
        status="withheld",
        reason=record.reason,
        case_id=record.case_id,
    )


def evidence_of(trace: dict[str, Any] | None) -> list[dict[str, Any]]:
    """The successful tool calls of a trace: what a released answer rests on."""
    events = (trace or {}).get("events", [])
    return [
        {"tool": e.get("tool"), "args": e.get("args"), "result": e.get("result")}
        for e in events
        if e.get("error") is None
    ]


def render_markdown(report: PortfolioReport) -> str:
    """The report people read. Every text that comes from data, a model or an analyst goes
    through `md_text`, so it reads as written and can never make a heading, table row or HTML."""
    t = report.table
    name = md_text(f"{t.name} ({t.portfolio_id})" if t.name else t.portfolio_id)
    lines = [f"# {name}: {report.report_date.isoformat()}", ""]
    if t.error:
        lines += [f"Portfolio table unavailable: {md_text(t.error)}", ""]
    else:
        lines += [
            f"Market value {_num(t.market_value)} {md_text(t.base_currency)}, day P&L "
            f"{_num(t.day_pnl)}, day return {_pct(t.day_return_pct)}.",
            f"Top contributors: {md_text(', '.join(t.contributors) or 'none')}. "
            f"Top detractors: {md_text(', '.join(t.detractors) or 'none')}.",
            "",
            "| Ticker | Quantity | Close | Market value | Day P&L | P&L % | Contribution % |",
            "| --- | ---: | ---: | ---: | ---: | ---: | ---: |",
        ]
        if t.unpriced:
            lines[-3:-3] = [
                f"**Incomplete**: the totals leave out {md_text(', '.join(t.unpriced))}, which "
                f"{'has' if len(t.unpriced) == 1 else 'have'} no price or day change on "
                f"{report.report_date.isoformat()} (see the table).",
                "",
            ]
        for p in t.positions:
            if p.error:
                lines.append(f"| {md_text(p.ticker)} | unavailable: {md_text(p.error)} | | | | | |")
                continue
            lines.append(
                f"| {md_text(p.ticker)} | {_num(p.quantity)} | {_num(p.close)} "
                f"| {_num(p.market_value)} | {_num(p.day_pnl)} | {_pct(p.pnl_pct)} "
                f"| {_pct(p.contribution_pct)} |"
            )
        lines.append("")
    for section in report.tickers:
        lines += [f"## {md_text(section.ticker)}", ""]
        if section.summary is not None:
            lines += [_text(section.summary), ""]
        elif section.summary_note:
            lines += [f"_Summary withheld: {md_text(section.summary_note)}._", ""]
        lines += [f"- **{md_text(a.kind)}**: {_text(a)}" for a in section.answers]
        lines.append("")
    return "\n".join(lines)


def _text(answer: Answer) -> str:
    note = f" _({md_text(answer.note)})_" if answer.note else ""
    if answer.status in ("accepted", "approved"):
        return md_text(answer.answer or "") + note
    reason = md_text(answer.reason or "")
    return f"_withheld ({reason}); see rejected case `{answer.case_id}`_{note}"


_MD_SPECIAL = re.compile(r"[\\`*\[\]<>|~]|(?<![^\W_])_|_(?![^\W_])|&(?=#?\w+;)")
"""An underscore between letters or digits (`provider_error`) cannot open or close emphasis."""
_MD_LINE_START = re.compile(r"^(\d*)([#>+-]|(?<=\d)[.)](?!\S))")


def md_text(text: str) -> str:
    """`text` as one line of Markdown that renders as the text itself: whitespace runs (line
    breaks too) become one space, and every character that could start emphasis, code, a link,
    a table cell, HTML or an entity is escaped, as is a list or heading marker at its start."""
    flat = " ".join(text.split())
    return _MD_LINE_START.sub(r"\1\\\2", _MD_SPECIAL.sub(lambda m: "\\" + m.group(), flat))


def _num(value: float | None) -> str:
    return "n/a" if value is None else f"{value:,.2f}"


def _pct(value: float | None) -> str:
    return "n/a" if value is None else f"{value:+.2f}%"


def write_report(layout: RunLayout, report: PortfolioReport) -> list[Path]:
    """Write a portfolio report as markdown and JSON, each atomically."""
    json_path = layout.report(report.portfolio_id, ".json")
    md_path = layout.report(report.portfolio_id, ".md")
    write_json(json_path, report.model_dump(mode="json"))
    write_atomic(md_path, render_markdown(report))
    return [md_path, json_path]

"""One portfolio's report: its table, then per ticker the verified paragraph and each answer,
verified or shown as withheld with its reason (never silently dropped). This is what
`accepted/<portfolio>.json` holds; `flows.publish.render` lays it out as Markdown and HTML.
"""

from __future__ import annotations

from collections import Counter
from datetime import date
from typing import Any, Literal

from pydantic import BaseModel, Field

from contract.reasons import CAUSES, Cause, cause_of
from contract.trace import Trace
from flows.publish.records import QuestionRecord, TickerResult
from flows.publish.since import SinceLastReport
from tools.portfolio_table import PortfolioTable

HOLDINGS_MAX_AGE_DAYS = 7
"""The default age (days) past which a report warns that its holdings are stale."""


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
    """What `accepted/<portfolio>.json` holds; the Markdown and HTML pages are rendered from it."""

    run_id: str
    report_date: date
    portfolio_id: str
    language: str = "en"
    table: PortfolioTable
    tickers: list[TickerSection] = Field(default_factory=list)
    holdings_max_age_days: int = HOLDINGS_MAX_AGE_DAYS
    """Holdings older than this many days on the report date get a warning at the top."""
    since: SinceLastReport | None = None
    """Tonight against the portfolio's previous report in the output tree, where there is one."""

    @property
    def holdings_age_days(self) -> int | None:
        """Days from the holdings snapshot to the report date."""
        if not self.table.holdings_as_of:
            return None
        return (self.report_date - date.fromisoformat(self.table.holdings_as_of)).days

    @property
    def withheld_by_cause(self) -> dict[Cause, int]:
        """Withheld answers and paragraphs by cause, every cause present (zero included)."""
        counts = Counter(
            cause_of(a.reason)
            for s in self.tickers
            for a in [*s.answers, *([s.summary] if s.summary else [])]
            if a.status == "withheld"
        )
        return {cause: counts[cause] for cause in CAUSES}

    @property
    def withheld(self) -> int:
        """Answers and paragraphs of this report the verifier (or an analyst) withheld."""
        return sum(
            a.status == "withheld"
            for s in self.tickers
            for a in [*s.answers, *([s.summary] if s.summary else [])]
        )


def build_report(
    run_id: str,
    table: PortfolioTable,
    results: dict[str, TickerResult],
    language: str = "en",
    holdings_max_age_days: int = HOLDINGS_MAX_AGE_DAYS,
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
        language=language,
        table=table,
        tickers=sections,
        holdings_max_age_days=holdings_max_age_days,
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


def evidence_of(trace: Trace | None) -> list[dict[str, Any]]:
    """The successful tool calls of a trace (a record's, or a case file's read back): what a
    released answer rests on."""
    if trace is None:
        return []
    return [{"tool": e.tool, "args": e.args, "result": e.result} for e in trace.events if e.ok]

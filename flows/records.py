"""The records a run produces: one `QuestionRecord` per question asked, grouped per ticker.

A ticker-scope question is asked once and stands for every portfolio holding the ticker
(`portfolios`); a portfolio-scope question is asked per portfolio. So each (portfolio,
ticker, question) of the run is covered by exactly one record, accepted or rejected.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

Status = Literal["accepted", "rejected"]

RETRYABLE_REASONS = frozenset({"provider_error", "budget_exhausted", "internal_error"})
"""Outcomes that say nothing about the answer: a rerun asks these questions again. A draft the
verifier rejected stays rejected (asking again would only shop for a lucky draft)."""


class QuestionRecord(BaseModel):
    """The outcome of one question: its draft, verdict, trace and tokens, accepted or not."""

    question_id: str
    spec_id: str
    kind: str
    ticker: str
    portfolios: list[str] = Field(default_factory=list)
    text: str
    status: Status
    reason: str | None = None
    reasons: list[dict[str, Any]] = Field(default_factory=list)
    draft: str | None = None
    verdict: dict[str, Any] | None = None
    trace: dict[str, Any] | None = None
    tokens: dict[str, int] = Field(default_factory=dict)
    model_calls: int = 0

    @property
    def retryable(self) -> bool:
        return self.status == "rejected" and self.reason in RETRYABLE_REASONS

    @property
    def case_id(self) -> str:
        """The name of its rejected-case file: the question id with `/` as `__`."""
        return self.question_id.replace("/", "__")


class TickerResult(BaseModel):
    """Everything one ticker task produced: its question records and its summary record."""

    ticker: str
    records: list[QuestionRecord] = Field(default_factory=list)
    summary: QuestionRecord | None = None
    summary_note: str | None = None
    """Why a result stored before every ticker got a summary record has none."""

    @property
    def all_records(self) -> list[QuestionRecord]:
        return [*self.records, *([self.summary] if self.summary is not None else [])]

    @property
    def retryable(self) -> bool:
        return any(r.retryable for r in self.all_records)

    @property
    def model_calls(self) -> int:
        return sum(r.model_calls for r in self.all_records)


def withheld_summary(
    ticker: str, portfolios: list[str], reason: str, message: str
) -> QuestionRecord:
    """The summary of a ticker that could not be drafted: a rejected record like any question's,
    so every ticker ends with its summary counted and listed, whatever happened to it."""
    return QuestionRecord(
        question_id=f"{ticker}/summary",
        spec_id="summary",
        kind="summary",
        ticker=ticker,
        portfolios=list(portfolios),
        text="summary",
        status="rejected",
        reason=reason,
        reasons=[{"code": reason, "message": message}],
    )

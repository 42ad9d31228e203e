"""The records a run produces: one `QuestionRecord` per question asked, grouped per ticker.

A ticker-scope question is asked once and stands for every portfolio holding the ticker
(`portfolios`); a portfolio-scope question is asked per portfolio. So each (portfolio,
ticker, question) of the run is covered by exactly one record, accepted or rejected.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field, PrivateAttr

from contract.reasons import RETRYABLE, ReasonCode
from contract.trace import Trace

Status = Literal["accepted", "rejected"]


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
    _live: Trace | None = PrivateAttr(default=None)
    """The trace `trace` was dumped from, while the record lives in the run that made it."""

    def release_trace(self) -> None:
        """Keep only the dumped `trace` (the summary has drafted from the live one)."""
        self._live = None

    def trace_model(self) -> Trace | None:
        """The record's trace as the model (the live one, or read back from `trace`)."""
        if self._live is None and self.trace is not None:
            self._live = Trace.model_validate(self.trace)
        return self._live

    @property
    def retryable(self) -> bool:
        return self.status == "rejected" and self.reason in RETRYABLE

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


def rejected_record(
    question_id: str,
    spec_id: str,
    kind: str,
    ticker: str,
    portfolios: list[str],
    text: str,
    reason: ReasonCode,
    message: str,
) -> QuestionRecord:
    """A question that ended with no draft to judge: its reason, in words."""
    return QuestionRecord(
        question_id=question_id,
        spec_id=spec_id,
        kind=kind,
        ticker=ticker,
        portfolios=list(portfolios),
        text=text,
        status="rejected",
        reason=reason,
        reasons=[{"code": reason, "message": message}],
    )


def withheld_summary(
    ticker: str, portfolios: list[str], reason: ReasonCode, message: str
) -> QuestionRecord:
    """The summary of a ticker that could not be drafted: a rejected record like any question's,
    so every ticker ends with its summary counted and listed, whatever happened to it."""
    return rejected_record(
        f"{ticker}/summary", "summary", "summary", ticker, portfolios, "summary", reason, message
    )

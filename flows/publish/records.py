"""The records a run produces: one `QuestionRecord` per question asked, grouped per ticker.

A ticker-scope question is asked once and stands for every portfolio holding the ticker
(`portfolios`); a portfolio-scope question is asked per portfolio. So each (portfolio,
ticker, question) of the run is covered by exactly one record, accepted or rejected.

A record holds its trace and verdict as the models they were made as; they become JSON only
where a record is written (a case file, the ticker store) and are read back as models
(the `contract` package's docstring, "JSON boundaries").
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field, model_serializer

from contract.reasons import RETRYABLE, ReasonCode
from contract.trace import Trace
from verifier.verdict import Reason, Verdict

Status = Literal["accepted", "rejected"]


class RecordReason(BaseModel):
    """Why a record is rejected, under `code` (what the indexes filter on): a verifier reason
    also keeps its `rule` and `span`; a loop's or a night's reason has only the code and words."""

    code: str
    rule: ReasonCode | None = None
    message: str = ""
    span: tuple[int, int] | None = None

    @classmethod
    def of(cls, reason: Reason) -> RecordReason:
        return cls(code=reason.rule, rule=reason.rule, message=reason.message, span=reason.span)

    @model_serializer(mode="wrap")
    def _as_given(self, handler: Any) -> dict[str, Any]:
        data: dict[str, Any] = handler(self)
        return {k: v for k, v in data.items() if k in self.model_fields_set or k == "code"}


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
    reasons: list[RecordReason] = Field(default_factory=list)
    draft: str | None = None
    verdict: Verdict | None = None
    trace: Trace | None = None
    tokens: dict[str, int] = Field(default_factory=dict)
    model_calls: int = 0

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
        reasons=[RecordReason(code=reason, message=message)],
    )


def withheld_summary(
    ticker: str, portfolios: list[str], reason: ReasonCode, message: str
) -> QuestionRecord:
    """The summary of a ticker that could not be drafted: a rejected record like any question's,
    so every ticker ends with its summary counted and listed, whatever happened to it."""
    return rejected_record(
        f"{ticker}/summary", "summary", "summary", ticker, portfolios, "summary", reason, message
    )

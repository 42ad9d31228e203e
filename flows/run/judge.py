"""The verdict on one answer: accepted only when the loop answered and the verifier found every
claim supported; anything else becomes a rejected record that says why.

`verdict_of` is the one judge of a drafted trace: the night, a rerun, `nightdesk ask` and
`nightdesk verify` all call it, so the same trace gets the same verdict on every path, the leak
checks (a key or another secret, the system prompt repeated) included."""

from __future__ import annotations

from typing import Protocol

from agent.prompts import prompt_echo
from contract.reasons import ReasonCode
from contract.secrets import holds_secret
from contract.trace import Trace
from flows.publish.records import QuestionRecord, RecordReason, rejected_record
from verifier.trace_view import TraceView
from verifier.verdict import Reason, Verdict


def judge(
    trace: Trace, spec_id: str, kind: str, ticker: str, portfolios: list[str]
) -> QuestionRecord:
    """Accepted only when the loop answered and the verifier found every claim supported."""
    record = _record(trace, spec_id, kind, ticker, portfolios)
    if trace.stop_reason != ReasonCode.ANSWERED:
        return _unanswered(record, trace)
    try:
        verdict = verdict_of(trace)
    except Exception as exc:  # a verifier bug withholds the answer, it does not end the ticker
        return _verifier_failed(record, exc)
    return _with_verdict(record, verdict)


class Judges(Protocol):
    """Where a verdict is worked out away from the caller (`flows.run.verifier_pool`)."""

    async def verdict(self, trace: Trace) -> Verdict: ...


async def judge_in(
    pool: Judges | None,
    trace: Trace,
    spec_id: str,
    kind: str,
    ticker: str,
    portfolios: list[str],
) -> QuestionRecord:
    """`judge`, with the verdict worked out in one of `pool`'s processes (None: in this one)."""
    if pool is None:
        return judge(trace, spec_id, kind, ticker, portfolios)
    record = _record(trace, spec_id, kind, ticker, portfolios)
    if trace.stop_reason != ReasonCode.ANSWERED:
        return _unanswered(record, trace)
    try:
        verdict = await pool.verdict(trace)
    except Exception as exc:
        return _verifier_failed(record, exc)
    return _with_verdict(record, verdict)


def _record(
    trace: Trace, spec_id: str, kind: str, ticker: str, portfolios: list[str]
) -> QuestionRecord:
    return QuestionRecord(
        question_id=trace.question_id,
        spec_id=spec_id,
        kind=kind,
        ticker=ticker,
        portfolios=portfolios,
        text=trace.question,
        status="rejected",
        draft=trace.draft,
        trace=trace,
        tokens=trace.usage.model_dump(),
        model_calls=len(trace.turns),
    )


def _unanswered(record: QuestionRecord, trace: Trace) -> QuestionRecord:
    record.reason = str(trace.stop_reason or ReasonCode.NO_ANSWER)
    record.reasons = [RecordReason(code=record.reason, message=trace.stop_detail or "")]
    return record


def _verifier_failed(record: QuestionRecord, exc: Exception) -> QuestionRecord:
    record.reason = ReasonCode.INTERNAL_ERROR
    record.reasons = [RecordReason(code=record.reason, message=f"verifier: {exc!r}")]
    return record


def _with_verdict(record: QuestionRecord, verdict: Verdict) -> QuestionRecord:
    if any(r.rule in LEAKS for r in verdict.reasons):
        record.reason = verdict.reasons[0].rule
        record.reasons = [RecordReason.of(r) for r in verdict.reasons]
        return record  # its verdict is not kept: the case file shows the draft redacted
    record.verdict = verdict
    record.reasons = [RecordReason.of(r) for r in verdict.reasons]
    if verdict.accepted:
        record.status = "accepted"
    else:
        first = record.reasons[0].code if record.reasons else None
        record.reason = str(first or ReasonCode.UNVERIFIED)
    return record


LEAKS = frozenset({ReasonCode.LEAKED_SECRET, ReasonCode.LEAKED_PROMPT})


def verdict_of(trace: Trace | TraceView) -> Verdict:
    """The one judge of a drafted trace (the loop's, or one parsed from JSON at the command
    line, a rejected case file's included): a draft that holds a secret or repeats the system
    prompt is rejected for that before its claims are read; any other goes to the verifier."""
    from verifier.verify import verify

    draft = trace.draft
    if isinstance(draft, str) and holds_secret(draft):
        return _leak(ReasonCode.LEAKED_SECRET, "the draft holds a key or another secret")
    if isinstance(draft, str) and (echo := prompt_echo(draft)):
        return _leak(ReasonCode.LEAKED_PROMPT, f"the draft repeats the system prompt: {echo!r}")
    return verify(trace)


def _leak(code: ReasonCode, message: str) -> Verdict:
    return Verdict(accepted=False, reasons=[Reason(rule=code, message=message)])


def failed_record(
    qid: str,
    spec_id: str,
    kind: str,
    ticker: str,
    portfolios: list[str],
    text: str,
    exc: Exception,
) -> QuestionRecord:
    """A question whose answering raised (a bug in some room): withheld, asked again on rerun."""
    detail = f"{type(exc).__name__}: {exc}"
    return rejected_record(
        qid, spec_id, kind, ticker, portfolios, text, ReasonCode.INTERNAL_ERROR, detail
    )

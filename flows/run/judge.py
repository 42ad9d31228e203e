"""The verdict on one answer: accepted only when the loop answered and the verifier found every
claim supported; anything else becomes a rejected record that says why."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from agent.prompts import prompt_echo
from contract.reasons import ReasonCode
from contract.secrets import holds_secret
from contract.trace import Trace
from flows.publish.records import QuestionRecord, rejected_record


def judge(
    trace: Trace, spec_id: str, kind: str, ticker: str, portfolios: list[str]
) -> QuestionRecord:
    """Accepted only when the loop answered and the verifier found every claim supported."""
    trace_json = trace.model_dump(mode="json")
    record = QuestionRecord(
        question_id=trace.question_id,
        spec_id=spec_id,
        kind=kind,
        ticker=ticker,
        portfolios=portfolios,
        text=trace.question,
        status="rejected",
        draft=trace.draft,
        trace=trace_json,
        tokens=trace.usage.model_dump(),
        model_calls=len(trace.turns),
    )
    record._live = trace  # the summary drafts from it without reading `trace_json` back
    if trace.stop_reason != ReasonCode.ANSWERED:
        record.reason = str(trace.stop_reason or ReasonCode.NO_ANSWER)
        record.reasons = [{"code": record.reason, "message": trace.stop_detail or ""}]
        return record
    if holds_secret(trace.draft or ""):
        record.reason = ReasonCode.LEAKED_SECRET
        record.reasons = [
            {"code": record.reason, "message": "the draft holds a key or another secret"}
        ]
        return record
    if echo := prompt_echo(trace.draft or ""):
        record.reason = ReasonCode.LEAKED_PROMPT
        record.reasons = [
            {"code": record.reason, "message": f"the draft repeats the system prompt: {echo!r}"}
        ]
        return record
    from verifier.verify import verify

    try:
        verdict = verify(trace_json)
    except Exception as exc:  # a verifier bug withholds the answer, it does not end the ticker
        record.reason = ReasonCode.INTERNAL_ERROR
        record.reasons = [{"code": record.reason, "message": f"verifier: {exc!r}"}]
        return record
    record.verdict = verdict.model_dump(mode="json")
    record.reasons = [_plain(r) for r in verdict.reasons]
    if verdict.accepted:
        record.status = "accepted"
    else:
        first = record.reasons[0].get("code") if record.reasons else None
        record.reason = str(first or ReasonCode.UNVERIFIED)
    return record


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


def _plain(reason: Any) -> dict[str, Any]:
    """A verdict reason as JSON with its rule under `code` too (what indexes filter on)."""
    data = reason.model_dump(mode="json") if isinstance(reason, BaseModel) else dict(reason)
    return {"code": data.get("code", data.get("rule")), **data}

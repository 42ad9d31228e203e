"""One ticker's question batch.

It answers the ticker's questions concurrently (market questions once, the position
question per portfolio), verifies each draft, then drafts and verifies the summary from the
accepted answers. It never raises for a model, budget or tool fault: every question ends in a
`QuestionRecord`. Shared objects (provider, catalog, budget, limiter) reach it through a context
variable, not its arguments, so the result key and the stored result hold only plain values.
"""

from __future__ import annotations

import asyncio
import hashlib
from contextvars import ContextVar
from dataclasses import dataclass, field
from datetime import date

from pydantic import BaseModel, Field

from agent.budget.limits import LoopLimits
from agent.budget.meter import RunBudget, TickerBudget
from agent.drafting import SEAT, NightRounds, Seat, TickerSeats
from agent.loop import answer_question, draft_summary
from agent.prompts import PROMPT_VERSION
from agent.providers.base import Provider
from agent.questions import Question, QuestionSet, questions_for
from agent.ratelimit import RateLimiter
from agent.shared_calls import SharedCalls
from contract.reasons import ReasonCode
from contract.trace import Mode
from flows.publish.records import QuestionRecord, TickerResult, withheld_summary
from flows.run.judge import failed_record, judge_in
from flows.run.verifier_pool import VerifierPool
from tools.catalog import Catalog
from tools.registry import TOOLS_VERSION

NO_SUMMARY = (
    "none of the answers about the ticker itself was verified, so there is nothing to summarise"
)


class TickerJob(BaseModel):
    """What identifies one ticker's work; every field but `run_id` is part of the cache key."""

    ticker: str
    portfolios: list[str]
    report_date: date
    question_set: str
    provider: str
    model: str
    mode: Mode = "plan"
    language: str = "en"
    prompt_version: str = PROMPT_VERSION
    tools_version: str = TOOLS_VERSION
    data_fingerprint: str = ""
    run_id: str = Field("", exclude=True)


@dataclass
class RunServices:
    """The live objects one run's ticker tasks share."""

    provider: Provider
    catalog: Catalog
    budget: RunBudget
    limiter: RateLimiter | None
    """None for a provider no server meters (offline, local)."""
    question_set: QuestionSet
    limits: LoopLimits = field(default_factory=LoopLimits)
    rounds: NightRounds | None = None
    """A batch night's drafting rounds (`agent.drafting`); None when each draft goes direct."""
    verifiers: VerifierPool | None = None
    """Processes that judge the drafts; None: they are judged on the event loop."""


SERVICES: ContextVar[RunServices] = ContextVar("nightdesk_run_services")


def ticker_key(job: TickerJob) -> str:
    """Date, ticker, holders, question set, provider, model, mode, language, prompt, tools, data."""
    text = job.model_dump_json(exclude={"run_id"})
    return "ticker-" + hashlib.sha256(text.encode()).hexdigest()[:32]


async def answer_ticker(job: TickerJob, previous: TickerResult | None = None) -> TickerResult:
    """Answer, verify and summarise one ticker; keep the settled records of `previous`."""
    services = SERVICES.get()
    seats = services.rounds.ticker() if services.rounds is not None else None
    try:
        budget = services.budget.ticker(job.ticker)
        kept = {r.question_id: r for r in (previous.records if previous else []) if not r.retryable}
        questions = questions_for(
            job.ticker, job.portfolios, job.report_date, job.language, services.question_set
        )
        asked = seats.answers([q.id for q in questions if q.id not in kept]) if seats else {}
        shared = SharedCalls()  # a call two questions of the ticker make runs once
        try:
            records = list(
                await asyncio.gather(
                    *(
                        settled(kept[q.id])
                        if q.id in kept
                        else ask(services, budget, job, q, asked.get(q.id), shared)
                        for q in questions
                    )
                )
            )
            result = TickerResult(ticker=job.ticker, records=records)
            reuse = previous if previous and set(kept) == {q.id for q in questions} else None
            await summarise(services, budget, job, result, reuse, seats)
        finally:
            budget.close()
    finally:
        if seats is not None:
            seats.close()
    return result


async def settled(record: QuestionRecord) -> QuestionRecord:
    return record


async def ask(
    services: RunServices,
    budget: TickerBudget,
    job: TickerJob,
    question: Question,
    seat: Seat | None = None,
    shared: SharedCalls | None = None,
) -> QuestionRecord:
    """One question answered and judged; a fault of any room becomes a rejected record. With a
    `seat` its draft goes into the night's batch round; `shared`: the ticker's calls made by its
    other questions."""
    holders = [question.portfolio_id] if question.portfolio_id else list(job.portfolios)
    token = SEAT.set(seat)
    try:
        trace = await answer_question(
            question,
            provider=services.provider,
            catalog=services.catalog,
            mode=job.mode,
            meter=budget.question(question.id, question.kind),
            limiter=services.limiter,
            limits=services.limits,
            shared=shared,
        )
    except Exception as exc:  # a bug must not sink the ticker: it becomes a case to review
        return failed_record(
            question.id, question.spec_id, question.kind, job.ticker, holders, question.text, exc
        )
    finally:
        if seat is not None:
            seat.leave()  # a question that never drafted must not hold its round
        SEAT.reset(token)
    return await judge_in(
        services.verifiers, trace, question.spec_id, question.kind, job.ticker, holders
    )


async def summarise(
    services: RunServices,
    budget: TickerBudget,
    job: TickerJob,
    result: TickerResult,
    previous: TickerResult | None,
    seats: TickerSeats | None = None,
) -> None:
    """The summary paragraph from the accepted answers about the ticker itself (a position's
    answer belongs to one portfolio; the summary to all), verified against their traces. In a
    batch night it drafts in the summaries round (`seats`)."""
    if previous is not None and previous.summary is not None and not previous.summary.retryable:
        result.summary = previous.summary
        return
    accepted = [
        trace
        for r in result.records
        if r.status == "accepted" and (trace := r.trace) and trace.portfolio_id is None
    ]
    if not accepted:
        result.summary = withheld_summary(
            job.ticker, job.portfolios, ReasonCode.NO_VERIFIED_ANSWERS, NO_SUMMARY
        )
        return
    qid = f"{job.ticker}/summary"
    seat = seats.summary([qid])[qid] if seats is not None else None
    token = SEAT.set(seat)
    try:
        trace = await draft_summary(
            job.ticker,
            accepted,
            provider=services.provider,
            meter=budget.question(qid, "summary"),
            limiter=services.limiter,
            limits=services.limits,
        )
    except Exception as exc:
        result.summary = failed_record(
            qid, "summary", "summary", job.ticker, job.portfolios, "summary", exc
        )
        return
    finally:
        if seat is not None:
            seat.leave()
        SEAT.reset(token)
    result.summary = await judge_in(
        services.verifiers, trace, "summary", "summary", job.ticker, list(job.portfolios)
    )

"""The tool loop: one question in, one `Trace` out, whatever the model or the tools do.

Two modes. `plan`: the program runs the question's planned calls concurrently and the
model drafts from their results in one call, with no tools offered. `react`: the model
chooses the tools, round after round; the calls of one turn run concurrently and their
results go back in call order, paired with their calls by id only.

Nothing here raises for a model or tool fault: provider failures, budget refusals, step
limits, repeated calls and truncated outputs end the question with a stop reason; tool
failures (unknown tool, a tool the question was not offered, another portfolio than its own,
invalid JSON, bad arguments, timeouts) go back to the model as error observations and into the
trace as error events."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Sequence
from concurrent.futures import Executor
from functools import lru_cache
from time import perf_counter

from agent.budget.limits import LoopLimits
from agent.budget.meter import QuestionMeter, reply_fault
from agent.prompts import (
    PROMPT_VERSION,
    SUMMARY_TASK,
    context_line,
    draft_message,
    react_message,
    render_results,
    summary_instruction,
    system_prompt,
)
from agent.providers.base import (
    CALL_CLOCK,
    Message,
    ModelRequest,
    ModelResponse,
    Provider,
    ToolSpec,
)
from agent.providers.tokens import count_reply, reply_text
from agent.questions import Question
from agent.ratelimit import RateLimiter
from agent.session import Session, open_session
from agent.shared_calls import SharedCalls
from agent.structured import facts_block, facts_of, facts_schema, render_choice
from agent.tool_calls import (
    event_entry,
    observation,
    refuse_calls,
    run_calls,
    union_events,
)
from contract.errors import ProviderError
from contract.reasons import ReasonCode
from contract.trace import Mode, ModelTurn, ToolCall, Trace, Usage
from tools.catalog import Catalog
from tools.gate import ToolScope
from tools.registry import tool_specs

MAX_REPEATS = 2


async def answer_question(
    question: Question,
    *,
    provider: Provider,
    catalog: Catalog,
    mode: Mode = "plan",
    meter: QuestionMeter | None = None,
    limiter: RateLimiter | None = None,
    limits: LoopLimits = LoopLimits(),  # noqa: B008 (frozen)
    executor: Executor | None = None,
    shared: SharedCalls | None = None,
) -> Trace:
    """Answer one question; the trace records every call, result, token and the stop reason.
    `shared`: the calls of the ticker's other questions, which this one reuses."""
    plan_mode = mode == "plan" and bool(question.plan)
    session = open_session(
        provider,
        catalog,
        meter,
        limiter,
        executor,
        limits,
        question_scope(question, plan_mode),
        shared,
    )
    trace = Trace(
        question_id=question.id,
        question=question.text,
        requires=list(question.requires),
        ticker=question.ticker,
        portfolio_id=question.portfolio_id,
        as_of=question.as_of,
        language=question.language,
        provider=provider.name,
        model=provider.model,
        mode=mode,
        prompt_version=PROMPT_VERSION,
    )
    if plan_mode:
        await run_plan(session, trace, question, limits.max_output_tokens, limits.drafting)
    else:
        await run_react(session, trace, question, limits.max_steps, limits.max_output_tokens)
    return trace


def question_scope(question: Question, plan_mode: bool) -> ToolScope:
    """What the question's calls may reach: in plan mode the tools of its plan (the model is
    offered none), in react mode the tools it is offered (a free-form question: every tool);
    in both, its own portfolio's rows or, for a question about a ticker, none."""
    if plan_mode:
        tools = [call.tool for call in question.plan]
    else:
        tools = [
            spec.name for spec in offered_tools(tuple(question.tools) if question.tools else None)
        ]
    return ToolScope.question(tools, question.portfolio_id)


async def draft_summary(
    ticker: str,
    traces: Sequence[Trace],
    *,
    provider: Provider,
    meter: QuestionMeter | None = None,
    limiter: RateLimiter | None = None,
    limits: LoopLimits = LoopLimits(),  # noqa: B008 (frozen)
) -> Trace:
    """The ticker's paragraph in every report that holds it, drafted in one call from its
    accepted answers about the ticker itself.

    One summary stands for every portfolio holding the ticker, so answers about one portfolio's
    position (`portfolio_id` set) are left out: their figures are in that portfolio's table, and
    no other portfolio's report may show them. Its events are the union of the answers' (identical
    calls once, ids prefixed with the question id so they stay unique), so the summary is
    verified like any other draft, against exactly what it was drafted from.
    """
    traces = [t for t in traces if t.portfolio_id is None]
    if not traces:
        raise ValueError(f"no answers about {ticker} itself to summarise")
    first = traces[0]
    events = union_events(traces)
    trace = Trace(
        question_id=f"{ticker}/summary",
        question=summary_instruction(first.language, ticker),
        ticker=ticker,
        as_of=first.as_of,
        language=first.language,
        provider=provider.name,
        model=provider.model,
        prompt_version=PROMPT_VERSION,
        events=events,
    )
    answers = "\n".join(f"- {t.question}\n  {t.draft}" for t in traces if t.draft)
    results = render_results([event_entry(e) for e in events])  # "no news" is news too
    context = context_line(first.language, ticker, str(first.as_of), None)
    text = draft_message(
        f"{trace.question}\n\n{answers}", context, first.language, results, SUMMARY_TASK
    )
    request = ModelRequest(
        system=system_prompt(first.language, "plan"),
        messages=[Message(role="user", text=text)],
        max_output_tokens=limits.max_output_tokens,
    )
    # Summaries run no tools: the catalog is never touched.
    session = open_session(provider, None, meter, limiter, None, limits)
    response = await call_model(session, trace, request, 1)
    if response is not None:
        accept_draft(trace, response)
    return trace


async def run_plan(
    session: Session,
    trace: Trace,
    question: Question,
    max_output_tokens: int,
    drafting: str = "free",
) -> None:
    """Run the planned calls concurrently, then draft from their results in one model call
    (structured drafting: the model chooses facts, the program writes them)."""
    calls = [
        ToolCall(id=f"{question.spec_id}-{i}", name=c.tool, arguments=json.dumps(c.args))
        for i, c in enumerate(question.plan, 1)
    ]
    trace.events = await run_calls(session, calls, step=0)
    context = context_line(
        question.language, question.ticker, str(question.as_of), question.portfolio_id
    )
    entries = [event_entry(e) for e in trace.events]
    facts = facts_of(entries, question.language) if drafting == "structured" else None
    results = render_results(entries) if facts is None else facts_block(facts, question.language)
    request = ModelRequest(
        system=system_prompt(question.language, "plan"),
        messages=[
            Message(
                role="user", text=draft_message(question.text, context, question.language, results)
            )
        ],
        max_output_tokens=max_output_tokens,
        response_schema=facts_schema(len(facts)) if facts else None,
    )
    response = await call_model(session, trace, request, 1)
    if response is not None:
        if response.tool_calls:  # none was offered: recorded, never run
            trace.events.extend(refuse_calls(response.tool_calls, 1, NO_TOOLS_IN_PLAN, session))
        if facts is not None and response.finish_reason != "length":
            draft = render_choice(response.text, facts)
            if draft is None:
                stop(trace, ReasonCode.PROVIDER_ERROR, "the reply chose no fact on offer")
                return
            response = response.model_copy(update={"text": draft})
        accept_draft(trace, response)


@lru_cache(maxsize=64)
def offered_tools(names: tuple[str, ...] | None) -> tuple[ToolSpec, ...]:
    """The specs of the tools a react question is offered (every tool for None), made once
    per set of names: every question of a kind offers the same."""
    return tuple(ToolSpec.model_validate(spec) for spec in tool_specs(names))


NO_TOOLS_IN_PLAN = (
    "no tool is offered in plan mode: the planned calls have run, and their results are "
    "all there is to answer from"
)


async def run_react(
    session: Session, trace: Trace, question: Question, max_steps: int, max_output_tokens: int
) -> None:
    """Let the model call tools round after round until it answers or a guardrail stops it."""
    context = context_line(
        question.language, question.ticker, str(question.as_of), question.portfolio_id
    )
    messages = [Message(role="user", text=react_message(question.text, context, question.language))]
    tools = list(offered_tools(tuple(question.tools) if question.tools else None))
    planned = [
        ToolCall(id=f"plan-{i}", name=c.tool, arguments=json.dumps(c.args))
        for i, c in enumerate(question.plan, 1)
    ]
    for step in range(1, max_steps + 1):
        request = ModelRequest(
            system=system_prompt(question.language, "react"),
            tools=tools,
            messages=list(messages),
            max_output_tokens=max_output_tokens,
            planned_calls=planned,
        )
        response = await call_model(session, trace, request, step)
        if response is None:
            return
        if not response.tool_calls or response.finish_reason == "length":
            accept_draft(trace, response)
            return
        messages.append(
            Message(
                role="assistant",
                text=response.text,
                tool_calls=response.tool_calls,
                raw=response.raw,
            )
        )
        events = await run_calls(session, response.tool_calls, step)
        trace.events.extend(events)
        messages.append(Message(role="tool", results=[observation(e) for e in events]))
        if session.repeats > MAX_REPEATS:
            stop(trace, ReasonCode.REPEATED_CALLS, f"{session.repeats} repeated tool calls")
            return
    stop(trace, ReasonCode.MAX_STEPS, f"no answer after {max_steps} model calls")


async def call_model(
    session: Session, trace: Trace, request: ModelRequest, step: int
) -> ModelResponse | None:
    """One model call inside the budget, the rate limit and the deadline; None when it stopped."""
    estimate = session.provider.estimate_tokens(request)
    wanted = estimate + request.max_output_tokens
    reservation = None
    if session.meter is not None:
        reservation = session.meter.reserve(wanted, prompt_tokens=estimate)
        if reservation is None:
            cut = session.meter.cut
            detail = (
                f"{cut.limit} budget: {cut.requested} tokens wanted, {cut.available} left"
                if cut
                else None
            )
            stop(trace, ReasonCode.BUDGET_EXHAUSTED, detail)
            return None
    ticket = None
    started = perf_counter()
    response = None
    fault = None
    clock: DeadlineClock | None = None
    try:
        if session.limiter is not None:  # our own queue: its wait does not count against
            waited = asyncio.get_running_loop().time()  # the deadline, which bounds the provider
            ticket = await session.limiter.acquire(wanted, request.max_output_tokens)
            session.deadline += asyncio.get_running_loop().time() - waited
            started = perf_counter()
        async with asyncio.timeout_at(session.deadline) as timeout:
            token = CALL_CLOCK.set(clock := DeadlineClock(session, timeout))
            try:
                response = await session.provider.complete(request)
            finally:
                CALL_CLOCK.reset(token)
    except ProviderError as exc:
        stop(trace, ReasonCode.PROVIDER_ERROR, exc.message)
    except TimeoutError:
        spent = clock.usage if clock is not None else None
        note = f" (cut after {spent.output_tokens} output tokens)" if spent is not None else ""
        stop(
            trace,
            ReasonCode.PROVIDER_ERROR,
            f"no answer within the deadline of {session.deadline_s:g} s{note}",
        )
        if spent is not None:  # the call cut short is in the trace, with what it spent
            trace.turns.append(
                ModelTurn(
                    step=step,
                    finish_reason="deadline",
                    estimate=estimate,
                    usage=spent,
                    duration_ms=round((perf_counter() - started) * 1000, 3),
                )
            )
    finally:
        reply = 0 if response is None else count_reply(response_text(response), wanted - estimate)
        if reservation is not None and session.meter is not None:
            if response is None and clock is not None and clock.usage is not None:
                session.meter.settle(reservation, clock.usage)
            elif response is None or response.paid_by is not None:
                session.meter.release(reservation)
            else:
                charged, fault = session.meter.settle(
                    reservation, response.usage, batch=response.batch, reply_tokens=reply
                )
                response = response.model_copy(update={"usage": charged})
        elif response is not None:  # no budget to charge, and still no reply past its bound
            fault = reply_fault(reply, wanted - estimate)
        if ticket is not None:
            ticket.limiter.release(ticket, response.usage.total if response is not None else 0)
    if response is None:
        return None
    trace.turns.append(
        ModelTurn(
            step=step,
            text=shortened(response.text) if fault else response.text,
            tool_calls=response.tool_calls,
            finish_reason=response.finish_reason,
            estimate=estimate,
            usage=response.usage,
            duration_ms=round((perf_counter() - started) * 1000, 3),
            batch=response.batch,
        )
    )
    if fault is not None:  # a reply whose usage cannot be true is not an answer either
        stop(trace, ReasonCode.PROVIDER_ERROR, fault)
        return None
    return response


class DeadlineClock:
    """The question's deadline as the provider of one call steers it (`CallClock`): paused
    while the request waits for the model, moved on by the wait when its generation starts."""

    def __init__(self, session: Session, timeout: asyncio.Timeout) -> None:
        self._session = session
        self._timeout = timeout
        self._paused_at: float | None = None
        self.usage: Usage | None = None

    def pause(self) -> None:
        if self._paused_at is None:
            self._paused_at = asyncio.get_running_loop().time()
            self._timeout.reschedule(None)

    def resume(self) -> None:
        if self._paused_at is not None:
            waited = asyncio.get_running_loop().time() - self._paused_at
            self._paused_at = None
            self._session.deadline += waited
            self._timeout.reschedule(self._session.deadline)

    def spent(self, usage: Usage) -> None:
        self.usage = usage


KEPT_REPLY_CHARS = 2_000
"""What the trace keeps of a reply longer than its call allowed: enough to see what it was."""


def response_text(response: ModelResponse) -> str:
    return reply_text(response.text, response.tool_calls)


def shortened(text: str | None) -> str | None:
    if text is None or len(text) <= KEPT_REPLY_CHARS:
        return text
    return f"{text[:KEPT_REPLY_CHARS]}… ({len(text):,} characters in all)"


def accept_draft(trace: Trace, response: ModelResponse) -> None:
    """A final response becomes the draft, unless it was cut short or says nothing."""
    if response.finish_reason == "length":
        stop(trace, ReasonCode.TRUNCATED, "the model output hit max_output_tokens")
    elif not (response.text or "").strip():
        stop(
            trace,
            ReasonCode.PROVIDER_ERROR,
            f"empty answer (finish reason {response.finish_reason})",
        )
    else:
        trace.draft = response.text
        stop(trace, ReasonCode.ANSWERED)


def stop(trace: Trace, reason: ReasonCode, detail: str | None = None) -> None:
    trace.stop_reason = reason
    trace.stop_detail = detail

"""The tool loop: one question in, one `Trace` out, whatever the model or the tools do.

Two modes. `plan`: the program runs the question's planned calls concurrently and the
model drafts from their results in one call, with no tools offered. `react`: the model
chooses the tools, round after round; the calls of one turn run concurrently and their
results go back in call order, paired with their calls by id only.

Nothing here raises for a model or tool fault: provider failures, budget refusals, step
limits, repeated calls and truncated outputs end the question with a stop reason; tool
failures (unknown tool, invalid JSON, bad arguments, timeouts) go back to the model as
error observations and into the trace as error events.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Sequence
from concurrent.futures import Executor, ThreadPoolExecutor
from dataclasses import dataclass, field
from functools import cache
from time import perf_counter
from typing import Any

from agent.budget.limits import LoopLimits
from agent.budget.meter import QuestionMeter
from agent.prompts import (
    PROMPT_VERSION,
    context_line,
    draft_message,
    react_message,
    render_results,
    summary_instruction,
    system_prompt,
)
from agent.providers.base import (
    Message,
    ModelRequest,
    ModelResponse,
    Provider,
    ToolResultItem,
    ToolSpec,
)
from agent.questions import Question
from agent.ratelimit import RateLimiter
from contract.errors import ProviderError
from contract.reasons import ReasonCode
from contract.tools import ToolFailure
from contract.trace import Mode, ModelTurn, ToolCall, ToolEvent, Trace
from tools.catalog import Catalog
from tools.registry import run_tool, tool_specs

MAX_REPEATS = 2
TOOL_THREADS = 16


@cache
def tool_executor() -> Executor:
    """The threads tool calls run in: their own pool, not the default one `to_thread` shares."""
    return ThreadPoolExecutor(max_workers=TOOL_THREADS, thread_name_prefix="nightdesk-tool")


@dataclass
class Session:
    """What one question's model calls and tool calls share while it is being answered."""

    provider: Provider
    catalog: Catalog | None
    meter: QuestionMeter | None
    limiter: RateLimiter | None
    executor: Executor
    tool_timeout_s: float
    deadline_s: float
    deadline: float
    started: float = field(default_factory=perf_counter)
    seen: dict[str, str] = field(default_factory=dict)
    repeats: int = 0


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
) -> Trace:
    """Answer one question; the trace records every call, result, token and the stop reason."""
    session = open_session(provider, catalog, meter, limiter, executor, limits)
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
    if mode == "plan" and question.plan:
        await run_plan(session, trace, question, limits.max_output_tokens)
    else:
        await run_react(session, trace, question, limits.max_steps, limits.max_output_tokens)
    return trace


async def draft_summary(
    ticker: str,
    traces: Sequence[Trace],
    *,
    provider: Provider,
    meter: QuestionMeter | None = None,
    limiter: RateLimiter | None = None,
    limits: LoopLimits = LoopLimits(),  # noqa: B008 (frozen)
) -> Trace:
    """The ticker's summary paragraph, drafted in one call from its accepted answers.

    Its events are the union of theirs (identical calls once, ids prefixed with the question
    id so they stay unique), so the summary is verified like any other draft.
    """
    if not traces:
        raise ValueError(f"no answers to summarise for {ticker}")
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
    results = render_results([event_entry(e) for e in events if e.ok])
    context = context_line(first.language, ticker, str(first.as_of), None)
    text = draft_message(f"{trace.question}\n\n{answers}", context, first.language, results)
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


def open_session(
    provider: Provider,
    catalog: Catalog | None,
    meter: QuestionMeter | None,
    limiter: RateLimiter | None,
    executor: Executor | None,
    limits: LoopLimits,
) -> Session:
    deadline = asyncio.get_running_loop().time() + limits.deadline_s
    return Session(
        provider,
        catalog,
        meter,
        limiter,
        executor or tool_executor(),
        limits.tool_timeout_s,
        limits.deadline_s,
        deadline,
    )


async def run_plan(
    session: Session, trace: Trace, question: Question, max_output_tokens: int
) -> None:
    """Run the planned calls concurrently, then draft from their results in one model call."""
    calls = [
        ToolCall(id=f"{question.spec_id}-{i}", name=c.tool, arguments=json.dumps(c.args))
        for i, c in enumerate(question.plan, 1)
    ]
    trace.events = await run_calls(session, calls, step=0)
    context = context_line(
        question.language, question.ticker, str(question.as_of), question.portfolio_id
    )
    results = render_results([event_entry(e) for e in trace.events])
    request = ModelRequest(
        system=system_prompt(question.language, "plan"),
        messages=[
            Message(
                role="user", text=draft_message(question.text, context, question.language, results)
            )
        ],
        max_output_tokens=max_output_tokens,
    )
    response = await call_model(session, trace, request, 1)
    if response is not None:
        accept_draft(trace, response)


async def run_react(
    session: Session, trace: Trace, question: Question, max_steps: int, max_output_tokens: int
) -> None:
    """Let the model call tools round after round until it answers or a guardrail stops it."""
    context = context_line(
        question.language, question.ticker, str(question.as_of), question.portfolio_id
    )
    messages = [Message(role="user", text=react_message(question.text, context, question.language))]
    tools = [ToolSpec.model_validate(spec) for spec in tool_specs()]
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
    started = perf_counter()
    response = None
    try:
        async with asyncio.timeout_at(session.deadline):
            if session.limiter is not None:
                await session.limiter.acquire(wanted)
            response = await session.provider.complete(request)
    except ProviderError as exc:
        stop(trace, ReasonCode.PROVIDER_ERROR, exc.message)
    except TimeoutError:
        stop(
            trace,
            ReasonCode.PROVIDER_ERROR,
            f"no answer within the deadline of {session.deadline_s:g} s",
        )
    finally:
        if reservation is not None and session.meter is not None:
            if response is None:
                session.meter.release(reservation)
            else:
                session.meter.settle(reservation, response.usage)
    if response is None:
        return None
    trace.turns.append(
        ModelTurn(
            step=step,
            text=response.text,
            tool_calls=response.tool_calls,
            finish_reason=response.finish_reason,
            estimate=estimate,
            usage=response.usage,
            duration_ms=round((perf_counter() - started) * 1000, 3),
        )
    )
    return response


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


async def run_calls(session: Session, calls: Sequence[ToolCall], step: int) -> list[ToolEvent]:
    """All calls of one turn, concurrently; events come back in call order."""
    pending = []
    for call in calls:
        key = f"{call.name}\x00{canonical(call.arguments)}"
        first = session.seen.get(key)
        if first is None:
            session.seen[key] = call.id
            pending.append(run_call(session, call, step))
        else:
            session.repeats += 1
            pending.append(refuse_repeat(session, call, step, first))
    return list(await asyncio.gather(*pending))


async def run_call(session: Session, call: ToolCall, step: int) -> ToolEvent:
    """One tool call in the tool threads (one cursor each), cut at the tool timeout."""
    if session.catalog is None:
        raise RuntimeError("tool calls need a catalog")
    loop = asyncio.get_running_loop()
    started = perf_counter()
    future = loop.run_in_executor(
        session.executor, run_tool, session.catalog, call.name, call.arguments
    )
    result: dict[str, Any] | None = None
    error: str | None = None
    try:
        outcome = await asyncio.wait_for(future, session.tool_timeout_s)
    except TimeoutError:
        error = f"{call.name} did not finish within {session.tool_timeout_s:g} s; ask for less data"
    else:
        if isinstance(outcome, ToolFailure):
            error = outcome.message
        else:
            result = outcome.data
    return ToolEvent(
        id=call.id,
        tool=call.name,
        args=parse_arguments(call.arguments),
        result=result,
        error=error,
        step=step,
        started_ms=round((started - session.started) * 1000, 3),
        duration_ms=round((perf_counter() - started) * 1000, 3),
    )


async def refuse_repeat(session: Session, call: ToolCall, step: int, first: str) -> ToolEvent:
    return ToolEvent(
        id=call.id,
        tool=call.name,
        args=parse_arguments(call.arguments),
        error=f"repeated call: you already have the result of this exact call (id {first}); use it",
        step=step,
        started_ms=round((perf_counter() - session.started) * 1000, 3),
    )


def observation(event: ToolEvent) -> ToolResultItem:
    """What the model reads back for one event: the result as JSON, or the error."""
    if event.ok:
        content = json.dumps(event.result, ensure_ascii=False, default=str)
    else:
        content = json.dumps({"error": event.error}, ensure_ascii=False)
    return ToolResultItem(call_id=event.id, name=event.tool, content=content, is_error=not event.ok)


def event_entry(event: ToolEvent) -> dict[str, Any]:
    """An event as the model and the verifier read it: id, tool, args, result or error."""
    entry: dict[str, Any] = {"id": event.id, "tool": event.tool, "args": event.args}
    if event.ok:
        entry["result"] = event.result
    else:
        entry["error"] = event.error
    return entry


def union_events(traces: Sequence[Trace]) -> list[ToolEvent]:
    """The events of several traces, identical calls once, ids prefixed by their question."""
    union: list[ToolEvent] = []
    seen: set[str] = set()
    for trace in traces:
        for event in trace.events:
            key = json.dumps(
                [event.tool, event.args, event.result, event.error], sort_keys=True, default=str
            )
            if key not in seen:
                seen.add(key)
                union.append(event.model_copy(update={"id": f"{trace.question_id}:{event.id}"}))
    return union


def parse_arguments(arguments: str) -> Any:
    """The arguments as JSON when they parse, else the raw text the model sent."""
    try:
        return json.loads(arguments)
    except ValueError:
        return arguments


def canonical(arguments: str) -> str:
    parsed = parse_arguments(arguments)
    return json.dumps(parsed, sort_keys=True) if not isinstance(parsed, str) else parsed

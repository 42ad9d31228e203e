"""The tool calls of one model turn: run concurrently in the tool threads (one DuckDB cursor
each), cut at the tool timeout, repeated calls refused, and turned into what the model reads
back."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable, Sequence
from functools import partial
from time import perf_counter
from typing import Any

from agent.providers.base import (
    ToolResultItem,
)
from agent.session import Session
from contract.tools import ToolFailure, shape_problem
from contract.trace import ToolCall, ToolEvent, Trace
from tools.registry import run_tool


async def run_calls(session: Session, calls: Sequence[ToolCall], step: int) -> list[ToolEvent]:
    """All calls of one turn, concurrently; events come back in call order. A call another
    question of the same ticker already made (`session.shared`) is not run again: its event
    carries that call's outcome, marked `reused`."""
    pending: list[Awaitable[ToolEvent]] = []
    for call in calls:
        text = canonical(call.arguments)
        key = f"{call.name}\x00{text}"
        first = session.seen.get(key)
        if first is not None:
            session.repeats += 1
            pending.append(refuse_repeat(session, call, step, first))
            continue
        session.seen[key] = call.id
        shared = session.shared
        if shared is None or not session.scope.offers(call.name):
            pending.append(run_call(session, call, step))
        else:
            reach = (call.name, text, session.scope.portfolios)
            start = partial(run_call, session, call, step)
            pending.append(shared.run(reach, start, reused(session, call, step)))
    return list(await asyncio.gather(*pending))


async def run_call(session: Session, call: ToolCall, step: int) -> ToolEvent:
    """One tool call in the tool threads (one cursor each), cut at the tool timeout."""
    if session.catalog is None:
        raise RuntimeError("tool calls need a catalog")
    loop = asyncio.get_running_loop()
    started = perf_counter()
    future = loop.run_in_executor(
        session.executor, run_tool, session.catalog, call.name, call.arguments, session.scope
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


def reused(session: Session, call: ToolCall, step: int) -> Callable[[ToolEvent], ToolEvent]:
    """How another question's event for the same call is recorded in this one's trace."""
    started = perf_counter()

    def record(first: ToolEvent) -> ToolEvent:
        return first.model_copy(
            update={
                "id": call.id,
                "args": parse_arguments(call.arguments),
                "step": step,
                "started_ms": round((started - session.started) * 1000, 3),
                "duration_ms": round((perf_counter() - started) * 1000, 3),
                "reused": True,
            }
        )

    return record


def refuse_calls(
    calls: Sequence[ToolCall], step: int, why: str, session: Session
) -> list[ToolEvent]:
    """Calls that are not run, each an error event saying why."""
    at = round((perf_counter() - session.started) * 1000, 3)
    return [
        ToolEvent(
            id=call.id,
            tool=call.name,
            args=parse_arguments(call.arguments),
            error=why,
            step=step,
            started_ms=at,
        )
        for call in calls
    ]


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
    """The arguments as JSON when they parse within the bounds every trace keeps
    (`contract.tools.shape_problem`), else the raw text the model sent."""
    try:
        parsed = json.loads(arguments)
    except (ValueError, RecursionError):
        return arguments
    return arguments if shape_problem(parsed, "the arguments") else parsed


def canonical(arguments: str) -> str:
    parsed = parse_arguments(arguments)
    return json.dumps(parsed, sort_keys=True) if not isinstance(parsed, str) else parsed

"""A ticker's questions share their identical tool calls: each distinct call runs once, every
trace still records it (marked `reused` where another question ran it), and a call reaching a
portfolio is shared only among calls with that same reach."""

from __future__ import annotations

import asyncio
from collections import Counter
from typing import Any

import pytest

import agent.tool_calls
from agent.loop import answer_question
from agent.providers import make_provider
from agent.questions import load_question_set, questions_for
from agent.shared_calls import SharedCalls
from contract.trace import Trace


@pytest.fixture
def runs(monkeypatch: pytest.MonkeyPatch) -> Counter[tuple[str, str]]:
    """Every tool run the loop makes, by tool and arguments."""
    counted: Counter[tuple[str, str]] = Counter()
    real = agent.tool_calls.run_tool

    def counting(catalog: Any, name: str, arguments: Any, scope: Any) -> Any:
        counted[(name, str(arguments))] += 1
        return real(catalog, name, arguments, scope)

    monkeypatch.setattr(agent.tool_calls, "run_tool", counting)
    return counted


async def answer_all(
    catalog: Any, ticker: str, portfolio: str, mode: str, shared: Any
) -> list[Trace]:
    questions = questions_for(ticker, [portfolio], catalog.report_date, "en", load_question_set())
    provider = make_provider("offline")
    return list(
        await asyncio.gather(
            *(
                answer_question(q, provider=provider, catalog=catalog, mode=mode, shared=shared)  # type: ignore[arg-type]
                for q in questions
            )
        )
    )


def outcomes(traces: list[Trace]) -> list[list[tuple[str, Any, Any, str | None]]]:
    return [[(e.tool, e.args, e.result, e.error) for e in t.events] for t in traces]


async def test_a_call_two_questions_make_runs_once_and_both_traces_record_it(
    agent_catalog, holding, runs
):
    portfolio, ticker = holding
    alone = await answer_all(agent_catalog, ticker, portfolio, "plan", None)
    unshared = sum(runs.values())
    runs.clear()
    shared = SharedCalls()
    together = await answer_all(agent_catalog, ticker, portfolio, "plan", shared)

    assert outcomes(together) == outcomes(alone)  # the same events, results and errors
    assert max(runs.values()) == 1  # each distinct call ran once
    assert sum(runs.values()) == len(runs) < unshared
    events = [e for t in together for e in t.events]
    reused = [e for e in events if e.reused]
    assert len(reused) == shared.reused == unshared - len(runs) > 0
    assert all(e.duration_ms >= 0 for e in reused)
    dumped = [e.model_dump() for e in events]
    assert sum("reused" in d for d in dumped) == len(reused)  # only a reused event says so
    assert all(t.stop_reason is not None and t.draft for t in together)


async def test_a_position_call_is_shared_only_within_its_portfolio(agent_catalog, holding, runs):
    """The ticker's questions asked twice on one share: the second time every call is reused,
    and the position question's calls are kept apart from the ticker's (another reach)."""
    portfolio, ticker = holding
    shared = SharedCalls()
    first = await answer_all(agent_catalog, ticker, portfolio, "plan", shared)
    again = await answer_all(agent_catalog, ticker, portfolio, "plan", shared)
    assert all(e.reused for t in again for e in t.events)  # the same reach: all reused
    assert outcomes(again) == outcomes(first)
    scopes = {k[2] for k in shared.runs}
    assert frozenset() in scopes and frozenset({portfolio}) in scopes

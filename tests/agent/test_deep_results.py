"""One deeply nested value from a tool costs one error observation, not the question or the
ticker: the model reads a one-line error, answers, and the trace reads back as JSON."""

from __future__ import annotations

import json

import pytest

from agent.budget.limits import LoopLimits
from agent.loop import answer_question
from agent.questions import load_question_set, render_question
from contract.reasons import ReasonCode
from contract.trace import Trace
from tests.agent.scripted import Call, Turn, tool_results

# 40 levels: past the bound of 32, and cheap for DuckDB (300 levels took seconds of CPU, which
# a loaded machine stretched past the query's deadline).
DEEP_SQL = f"SELECT {'[' * 40}1{']' * 40} AS x"
DEEP_ARGS = '{"sql": ' + "[" * 300 + "]" * 300 + "}"


@pytest.fixture
def question(holding, report_date):
    news = render_question(load_question_set().spec("news"), holding[1], report_date, "en")
    return news.model_copy(update={"tools": []})  # free form: every tool offered, run_sql too


@pytest.mark.parametrize("kind", ["openai", "anthropic"])
async def test_a_deep_result_is_an_error_observation_and_the_trace_reads_back(
    kind, scripted, agent_catalog, question
) -> None:
    provider, log = scripted(
        kind,
        [Turn(calls=(Call.of("c1", "run_sql", sql=DEEP_SQL),)), Turn(text="No figure to give.")],
    )
    trace = await answer_question(
        question, provider=provider, catalog=agent_catalog, limits=LoopLimits(), mode="react"
    )
    assert trace.stop_reason == ReasonCode.ANSWERED
    (event,) = trace.events
    assert event.result is None and "nested deeper than 32 levels" in (event.error or "")
    assert tool_results(kind, log.requests[1].body)[0]["is_error"]
    assert Trace.model_validate_json(trace.model_dump_json()) == trace


async def test_deep_arguments_are_recorded_as_text_and_refused(
    scripted, agent_catalog, question
) -> None:
    provider, _ = scripted(
        "openai", [Turn(calls=(Call("c1", "run_sql", DEEP_ARGS),)), Turn(text="Gave up.")]
    )
    trace = await answer_question(
        question, provider=provider, catalog=agent_catalog, limits=LoopLimits(), mode="react"
    )
    assert trace.stop_reason == ReasonCode.ANSWERED
    (event,) = trace.events
    assert event.args == DEEP_ARGS and "flat JSON object" in (event.error or "")
    assert json.loads(trace.model_dump_json())["events"][0]["args"] == DEEP_ARGS

"""The loop on the real openai and anthropic clients, each scenario scripted once, played on both wires."""

from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor

import pytest

from agent.budget.limits import LoopLimits
from agent.budget.meter import QuestionMeter
from agent.loop import answer_question
from agent.questions import load_question_set, render_question
from contract.reasons import ReasonCode
from tests.agent.scripted import Call, Fault, Turn, tool_results

WIRES = ["openai", "anthropic"]
HEAVY_SQL = (
    "SELECT count(*) AS n FROM prices a, prices b, (SELECT ticker FROM companies LIMIT 4) c "
    "WHERE a.close > b.close AND c.ticker <> a.ticker"
)


@pytest.fixture
def question(holding, report_date):
    return render_question(load_question_set().spec("news"), holding[1], report_date, "en")


@pytest.fixture
def open_question(question):
    """The same question asked in free form: every tool is offered."""
    return question.model_copy(update={"tools": []})


LIMITS = ("max_steps", "max_output_tokens", "tool_timeout_s", "deadline_s")


async def ask(question, provider, catalog, **options):
    options.setdefault("mode", "react")
    limits = LoopLimits(**{k: options.pop(k) for k in LIMITS if k in options})
    return await answer_question(
        question, provider=provider, catalog=catalog, limits=limits, **options
    )


@pytest.mark.parametrize("kind", WIRES)
async def test_multi_call_answer_pairs_results_by_id(
    kind, scripted, agent_catalog, question, report_date
):
    t, d = question.ticker, report_date.isoformat()
    provider, log = scripted(
        kind,
        [
            Turn(
                calls=(Call.of("c1", "get_daily_move", ticker=t, date=d),),
                input_tokens=300,
                cached_tokens=200,
            ),
            Turn(calls=(Call.of("c2", "search_news", ticker=t, start="2024-05-31", end=d),)),
            Turn(text=f"{t} moved; see the headlines.", output_tokens=9),
        ],
    )
    trace = await ask(question, provider, agent_catalog)

    assert trace.stop_reason == ReasonCode.ANSWERED
    assert trace.draft == f"{t} moved; see the headlines."
    assert [(e.id, e.tool, e.ok) for e in trace.events] == [
        ("c1", "get_daily_move", True),
        ("c2", "search_news", True),
    ]
    assert trace.events[0].result["session"] == d
    assert [turn.step for turn in trace.turns] == [1, 2, 3]
    assert all(turn.estimate > 0 for turn in trace.turns)
    assert trace.turns[0].usage.input_tokens == 300 and trace.turns[0].usage.cached_tokens == 200
    assert trace.usage.output_tokens == 20 + 20 + 9
    last = log.requests[-1].body
    assert [r["id"] for r in tool_results(kind, last)] == ["c1", "c2"]
    assert tool_results(kind, last)[0]["content"] == trace.events[0].result


@pytest.mark.parametrize("kind", WIRES)
async def test_stable_prefix_and_wire_details(kind, scripted, agent_catalog, question, report_date):
    provider, log = scripted(
        kind,
        [
            Turn(
                calls=(
                    Call.of("c1", "get_daily_move", ticker=question.ticker, date=str(report_date)),
                )
            ),
            Turn(text="done"),
        ],
    )
    await ask(question, provider, agent_catalog)

    first, second = (r.body for r in log.requests)
    assert first["tools"] == second["tools"]
    names = [t["function"]["name"] if kind == "openai" else t["name"] for t in first["tools"]]
    assert names == ["get_daily_move", "search_news"]  # the news question's tools, no others
    if kind == "openai":
        assert first["messages"][0] == second["messages"][0]
        assert first["messages"][0]["role"] == "system"
        assert second["messages"][2]["tool_calls"][0]["id"] == "c1"
    else:
        assert first["system"] == second["system"]
        assert first["system"][0]["cache_control"] == {"type": "ephemeral"}
        assert "temperature" not in first
        assert second["messages"][1]["content"][0]["type"] == "tool_use"


@pytest.mark.parametrize("kind", WIRES)
async def test_calls_of_one_turn_run_concurrently_in_call_order(
    kind, scripted, agent_catalog, open_question
):
    provider, log = scripted(
        kind,
        [
            Turn(
                calls=(
                    Call.of("a", "run_sql", sql=HEAVY_SQL),
                    Call.of("b", "run_sql", sql=HEAVY_SQL + " AND a.volume > 0"),
                )
            ),
            Turn(text="counted"),
        ],
    )
    trace = await ask(open_question, provider, agent_catalog)

    a, b = trace.events
    assert (a.id, b.id) == ("a", "b") and a.ok and b.ok
    a_end, b_end = a.started_ms + a.duration_ms, b.started_ms + b.duration_ms
    print(f"a: {a.started_ms:.1f}-{a_end:.1f} ms, b: {b.started_ms:.1f}-{b_end:.1f} ms")
    assert b.started_ms < a_end and a.started_ms < b_end, "the two calls did not overlap"
    assert [r["id"] for r in tool_results(kind, log.requests[-1].body)] == ["a", "b"]


@pytest.mark.parametrize("kind", WIRES)
async def test_wrong_tool_is_an_error_observation(
    kind, scripted, agent_catalog, open_question, report_date
):
    provider, log = scripted(
        kind,
        [
            Turn(calls=(Call.of("c1", "get_stock_price", symbol=open_question.ticker),)),
            Turn(
                calls=(
                    Call.of("c2", "get_price", ticker=open_question.ticker, date=str(report_date)),
                )
            ),
            Turn(text="priced"),
        ],
    )
    trace = await ask(open_question, provider, agent_catalog)

    assert trace.stop_reason == ReasonCode.ANSWERED
    assert "unknown tool 'get_stock_price'" in trace.events[0].error
    assert trace.events[1].ok
    sent = tool_results(kind, log.requests[1].body)[0]
    assert sent["is_error"] and "unknown tool" in sent["content"]["error"]


@pytest.mark.parametrize("kind", WIRES)
async def test_invented_arguments_corrected_after_validation_error(
    kind, scripted, agent_catalog, question, report_date
):
    t = question.ticker
    provider, _ = scripted(
        kind,
        [
            Turn(calls=(Call.of("c1", "get_daily_move", ticker=t, day="June 3"),)),
            Turn(calls=(Call.of("c2", "get_daily_move", ticker=t, date=str(report_date)),)),
            Turn(text="fixed"),
        ],
    )
    trace = await ask(question, provider, agent_catalog)

    assert trace.events[0].error.startswith("invalid arguments for get_daily_move")
    assert trace.events[0].args == {"ticker": t, "day": "June 3"}
    assert trace.events[1].ok and trace.events[1].result["ticker"] == t
    assert trace.stop_reason == ReasonCode.ANSWERED


@pytest.mark.parametrize("kind", WIRES)
async def test_endless_loop_cut_by_step_limit(kind, scripted, agent_catalog, question):
    days = ["2024-05-28", "2024-05-29", "2024-05-30", "2024-05-31", "2024-06-03"]
    script = [
        Turn(calls=(Call.of(f"c{i}", "get_price", ticker=question.ticker, date=d),))
        for i, d in enumerate(days)
    ]
    provider, log = scripted(kind, script)
    trace = await ask(question, provider, agent_catalog, max_steps=3)

    assert trace.stop_reason == ReasonCode.MAX_STEPS
    assert trace.draft is None
    assert len(log) == 3 and len(trace.events) == 3


@pytest.mark.parametrize("kind", WIRES)
async def test_repeated_call_not_executed_again(
    kind, scripted, agent_catalog, question, report_date
):
    move = {"ticker": question.ticker, "date": str(report_date)}
    provider, log = scripted(
        kind,
        [
            Turn(calls=(Call.of("c1", "get_daily_move", **move),)),
            Turn(calls=(Call.of("c2", "get_daily_move", **move),)),
            Turn(text="same"),
        ],
    )
    trace = await ask(question, provider, agent_catalog)

    first, again = trace.events
    assert first.ok and not again.ok
    assert again.error.startswith("repeated call") and "c1" in again.error
    assert again.duration_ms == 0.0
    assert tool_results(kind, log.requests[2].body)[1]["content"]["error"] == again.error
    assert trace.stop_reason == ReasonCode.ANSWERED


@pytest.mark.parametrize("kind", WIRES)
async def test_too_many_repeats_stop_the_question(
    kind, scripted, agent_catalog, question, report_date
):
    move = {"ticker": question.ticker, "date": str(report_date)}
    script = [Turn(calls=(Call.of(f"c{i}", "get_daily_move", **move),)) for i in range(6)]
    provider, log = scripted(kind, script)
    trace = await ask(question, provider, agent_catalog, max_steps=6)

    assert trace.stop_reason == ReasonCode.REPEATED_CALLS
    assert len(log) == 4 and sum(e.ok for e in trace.events) == 1


async def test_malformed_json_arguments_become_an_error(
    scripted, agent_catalog, question, report_date
):
    """OpenAI-wire only: the Messages API sends tool input as a parsed JSON object."""
    bad = f'{{"ticker": "{question.ticker}", "date": '
    provider, log = scripted(
        "openai",
        [
            Turn(calls=(Call("c1", "get_daily_move", bad),)),
            Turn(
                calls=(
                    Call.of("c2", "get_daily_move", ticker=question.ticker, date=str(report_date)),
                )
            ),
            Turn(text="ok"),
        ],
    )
    trace = await ask(question, provider, agent_catalog)

    assert trace.events[0].args == bad
    assert "not valid JSON" in trace.events[0].error
    assert log.requests[1].body["messages"][2]["tool_calls"][0]["function"]["arguments"] == bad
    assert trace.events[1].ok and trace.stop_reason == ReasonCode.ANSWERED


@pytest.mark.parametrize("kind", WIRES)
async def test_rate_limit_retried_after_retry_after(kind, scripted, agent_catalog, question):
    provider, log = scripted(kind, [Fault(429, retry_after_ms=300), Turn(text="after the wait")])
    trace = await ask(question, provider, agent_catalog)

    assert trace.stop_reason == ReasonCode.ANSWERED and trace.draft == "after the wait"
    assert len(log) == 2
    assert log.requests[1].at - log.requests[0].at >= 0.3


@pytest.mark.parametrize("kind", WIRES)
async def test_persistent_server_error_is_provider_error(kind, scripted, agent_catalog, question):
    provider, log = scripted(kind, [Fault(500, retry_after_ms=1)] * 3, max_retries=2)
    trace = await ask(question, provider, agent_catalog)

    assert trace.stop_reason == ReasonCode.PROVIDER_ERROR
    assert "HTTP 500" in trace.stop_detail
    assert len(log) == 3 and trace.turns == [] and trace.draft is None


@pytest.mark.parametrize("kind", WIRES)
async def test_timeouts_retried_then_provider_error(kind, scripted, agent_catalog, question):
    provider, log = scripted(kind, [Fault(timeout=True)] * 2, max_retries=1)
    trace = await ask(question, provider, agent_catalog)

    assert trace.stop_reason == ReasonCode.PROVIDER_ERROR
    assert "timed out" in trace.stop_detail
    assert len(log) == 2


@pytest.mark.parametrize("kind", WIRES)
async def test_long_retry_after_is_cut_by_the_deadline(kind, scripted, agent_catalog, question):
    provider, log = scripted(kind, [Fault(429, retry_after_ms=120_000), Turn(text="too late")])
    started = time.perf_counter()
    trace = await ask(question, provider, agent_catalog, deadline_s=0.5)

    assert trace.stop_reason == ReasonCode.PROVIDER_ERROR
    assert time.perf_counter() - started < 60  # not the two minutes asked: load cannot reach it
    assert len(log) <= 2


@pytest.mark.parametrize("kind", WIRES)
async def test_truncated_output_is_never_an_answer(kind, scripted, agent_catalog, question):
    provider, _ = scripted(kind, [Turn(text=f"{question.ticker} closed at", finish="length")])
    trace = await ask(question, provider, agent_catalog)

    assert trace.stop_reason == ReasonCode.TRUNCATED
    assert trace.draft is None
    assert trace.turns[0].text == f"{question.ticker} closed at"


@pytest.mark.parametrize("kind", WIRES)
async def test_plan_mode_drafts_from_results_without_tools(kind, scripted, agent_catalog, question):
    provider, log = scripted(kind, [Turn(text="drafted")])
    trace = await ask(question, provider, agent_catalog, mode="plan")

    assert trace.stop_reason == ReasonCode.ANSWERED
    assert [e.tool for e in trace.events] == ["get_daily_move", "search_news"]
    assert len(log) == 1 and "tools" not in log.requests[0].body
    sent = str(log.requests[0].body["messages"])
    assert str(trace.events[0].result["close"]) in sent


@pytest.mark.parametrize("kind", WIRES)
async def test_budget_refusal_makes_no_call(kind, scripted, agent_catalog, question):
    provider, log = scripted(kind, [Turn(text="never sent")])
    meter = QuestionMeter(question.id, question.kind, limit=50)
    trace = await ask(question, provider, agent_catalog, mode="plan", meter=meter)

    assert trace.stop_reason == ReasonCode.BUDGET_EXHAUSTED
    assert len(log) == 0 and meter.spent.total == 0


@pytest.mark.parametrize("kind", WIRES)
async def test_meter_settles_reported_usage(kind, scripted, agent_catalog, question):
    provider, _ = scripted(
        kind, [Turn(text="drafted", input_tokens=700, cached_tokens=100, output_tokens=33)]
    )
    meter = QuestionMeter(question.id, question.kind, limit=100_000)
    trace = await ask(question, provider, agent_catalog, mode="plan", meter=meter)

    assert meter.spent.input_tokens == 700 and meter.spent.cached_tokens == 100
    assert meter.spent.output_tokens == 33 and meter.calls == 1
    assert meter.reserved_total == trace.turns[0].estimate + 1024


async def test_tool_timeout_is_an_error_observation(scripted, agent_catalog, open_question):
    provider, log = scripted(
        "openai", [Turn(calls=(Call.of("slow", "run_sql", sql=HEAVY_SQL),)), Turn(text="gave up")]
    )
    executor = ThreadPoolExecutor(max_workers=1)
    trace = await ask(
        open_question, provider, agent_catalog, tool_timeout_s=0.005, executor=executor
    )
    executor.shutdown(wait=True)  # the abandoned query runs on until DuckDB's own time limit

    assert "did not finish within 0.005 s" in trace.events[0].error
    assert tool_results("openai", log.requests[1].body)[0]["is_error"]


@pytest.mark.parametrize("kind", WIRES)
@pytest.mark.parametrize(
    ("reported", "why"),
    [((5_000_000, 0, 5_000_000), "more than 4 times"), ((-6_569_714, 0, 12), "negative usage")],
)
async def test_a_reply_whose_usage_cannot_be_true_is_a_provider_fault_charged_at_the_reservation(
    kind, scripted, agent_catalog, question, reported, why
):
    inputs, cached, outputs = reported
    provider, log = scripted(
        kind,
        [Turn(text="drafted", input_tokens=inputs, cached_tokens=cached, output_tokens=outputs)],
    )
    meter = QuestionMeter(question.id, question.kind, limit=100_000)
    trace = await ask(question, provider, agent_catalog, mode="plan", meter=meter)

    assert trace.stop_reason == ReasonCode.PROVIDER_ERROR and why in (trace.stop_detail or "")
    assert trace.draft is None and len(log) == 1
    assert 0 < meter.spent.total == meter.reserved_total == trace.usage.total

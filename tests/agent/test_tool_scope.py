"""A hostile model inside the loop, on the real SDKs: a call to a tool its question was not
offered is never run (plan or react), it is an error observation and a failed event; and
whatever it asks, it reads its own portfolio's rows only."""

from __future__ import annotations

import pytest

from agent.loop import answer_question
from agent.questions import load_question_set, render_question
from contract.reasons import ReasonCode
from tests.agent.scripted import Call, Turn, tool_results

WIRES = ["openai", "anthropic"]


@pytest.fixture
def news(holding, report_date):
    return render_question(load_question_set().spec("news"), holding[1], report_date, "en")


@pytest.fixture
def position(holding, report_date):
    portfolio_id, ticker = holding
    return render_question(
        load_question_set().spec("position"), ticker, report_date, "en", portfolio_id
    )


@pytest.fixture
def other_portfolio(agent_catalog, holding) -> str:
    with agent_catalog.cursor() as cur:
        row = cur.execute(
            "SELECT min(portfolio_id) FROM holdings WHERE portfolio_id <> $p", {"p": holding[0]}
        ).fetchone()
    assert row is not None and row[0] is not None
    return row[0]


@pytest.mark.parametrize("kind", WIRES)
async def test_react_a_tool_not_offered_is_an_error_observation_never_run(
    kind, scripted, agent_catalog, news, holding
):
    provider, log = scripted(
        kind,
        [
            Turn(calls=(Call.of("c1", "get_portfolio", portfolio_id=holding[0]),)),
            Turn(text="nothing to add"),
        ],
    )
    trace = await answer_question(news, provider=provider, catalog=agent_catalog, mode="react")

    (event,) = trace.events
    assert event.result is None
    assert event.error == (
        "tool 'get_portfolio' is not offered for this question; "
        "offered tools: get_daily_move, search_news"
    )
    sent = tool_results(kind, log.requests[1].body)[0]
    assert sent["is_error"] and sent["content"] == {"error": event.error}
    assert trace.stop_reason == ReasonCode.ANSWERED


@pytest.mark.parametrize("kind", WIRES)
async def test_plan_a_call_the_drafting_model_makes_is_recorded_never_run(
    kind, scripted, agent_catalog, news, holding
):
    provider, log = scripted(
        kind,
        [
            Turn(
                text="drafted",
                calls=(Call.of("x1", "run_sql", sql="SELECT * FROM holdings"),),
                finish="stop",
            )
        ],
    )
    trace = await answer_question(news, provider=provider, catalog=agent_catalog, mode="plan")

    assert [e.tool for e in trace.events] == ["get_daily_move", "search_news", "run_sql"]
    refused = trace.events[-1]
    assert refused.id == "x1" and refused.result is None
    assert refused.error.startswith("no tool is offered in plan mode")
    assert len(log) == 1


@pytest.mark.parametrize("mode", ["plan", "react"])
async def test_a_planned_call_outside_the_scope_is_refused(
    mode, scripted, agent_catalog, position, other_portfolio
):
    """A question set whose plan names another portfolio (or any tool the question's scope
    lacks) gets error events, not that portfolio's figures."""
    hostile = position.model_copy(
        update={
            "plan": [
                c.model_copy(update={"args": {**c.args, "portfolio_id": other_portfolio}})
                for c in position.plan
            ]
        }
    )
    script = [Turn(text="answered")]
    if mode == "react":
        calls = tuple(Call.of(f"c{i}", p.tool, **p.args) for i, p in enumerate(hostile.plan))
        script.insert(0, Turn(calls=calls))
    provider, _ = scripted("openai", script)
    trace = await answer_question(hostile, provider=provider, catalog=agent_catalog, mode=mode)

    assert len(trace.events) == len(hostile.plan) >= 1
    for event in trace.events:
        assert event.result is None
        assert event.error.startswith(f"portfolio {other_portfolio!r} is out of scope")


@pytest.mark.parametrize("kind", WIRES)
async def test_react_a_hostile_model_reads_its_own_portfolio_only(
    kind, scripted, agent_catalog, position, holding, other_portfolio
):
    own, ticker = holding
    free = position.model_copy(update={"tools": []})  # free form: every tool offered
    day = position.as_of.isoformat()
    provider, log = scripted(
        kind,
        [
            Turn(
                calls=(
                    Call.of("a", "run_sql", sql="SELECT DISTINCT portfolio_id FROM holdings"),
                    Call.of("b", "run_sql", sql="SELECT portfolio_id FROM portfolios"),
                    Call.of("c", "get_portfolio", portfolio_id=other_portfolio),
                    Call.of(
                        "d",
                        "get_position_pnl",
                        portfolio_id=other_portfolio,
                        ticker=ticker,
                        date=day,
                    ),
                    Call.of("e", "get_portfolio", portfolio_id=own),
                )
            ),
            Turn(text="done"),
        ],
    )
    trace = await answer_question(free, provider=provider, catalog=agent_catalog, mode="react")

    a, b, c, d, e = trace.events
    assert a.result["rows"] == [[own]] and b.result["rows"] == [[own]]
    for refused in (c, d):
        assert refused.result is None and "out of scope" in refused.error
    assert e.ok and e.result["portfolio_id"] == own
    shown = [r["content"] for r in tool_results(kind, log.requests[1].body) if not r["is_error"]]
    assert len(shown) == 3 and other_portfolio not in str(shown)


async def test_a_question_about_a_ticker_sees_no_holdings(scripted, agent_catalog, news):
    free = news.model_copy(update={"tools": []})
    provider, _ = scripted(
        "openai",
        [
            Turn(calls=(Call.of("a", "run_sql", sql="SELECT count(*) FROM holdings"),)),
            Turn(text="done"),
        ],
    )
    trace = await answer_question(free, provider=provider, catalog=agent_catalog, mode="react")

    assert trace.events[0].result["rows"] == [[0]]

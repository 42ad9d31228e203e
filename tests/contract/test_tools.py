"""Tool outcomes are typed and the tools' traits are one table that the registry follows."""

from __future__ import annotations

from contract.tools import TRAITS, ToolFailure, ToolResult, traits_of
from tools.registry import TOOLS
from verifier.trace_view import EventView


def test_every_tool_has_the_traits_the_contract_gives_its_name() -> None:
    assert set(TOOLS) == set(TRAITS)
    assert {name: tool.traits for name, tool in TOOLS.items()} == TRAITS


def test_only_the_sql_tool_runs_model_sql_and_only_calculate_evaluates_arithmetic() -> None:
    assert [n for n, t in TRAITS.items() if t.sql] == ["run_sql"]
    assert [n for n, t in TRAITS.items() if t.arithmetic] == ["calculate"]
    assert traits_of("no_such_tool") == traits_of("get_price")


def test_a_result_with_a_field_named_error_is_a_result() -> None:
    data = {"error": "tracking error of the fund", "close": 12.5}
    assert ToolResult(data).as_json() == data
    assert ToolFailure("no session").as_json() == {"error": "no session"}
    event = EventView(id="e1", tool="run_sql", args={}, result=data)
    assert event.failure is None
    assert EventView(id="e2", tool="run_sql", args={}, error="bad").failure == "bad"

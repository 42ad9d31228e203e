"""A tool result nested too deep or too large, and arguments nested too deep, become a one-line
failure where the result is made: the model reads an error and the question goes on, and no
trace holds more nesting than the night's own JSON reader reads back."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from agent.tool_calls import parse_arguments as recorded_arguments
from contract.tools import MAX_DEPTH, MAX_RESULT_CHARS, ToolFailure, ToolResult, shape_problem
from tools import registry
from tools.catalog import Catalog
from tools.registry import call_tool, run_tool


def nested(depth: int, leaf: Any = 1) -> Any:
    """`leaf` inside `depth` lists (built without recursion: any depth)."""
    value = leaf
    for _ in range(depth):
        value = [value]
    return value


def one_line_failure(outcome: object, fragment: str) -> None:
    assert isinstance(outcome, ToolFailure), outcome
    assert fragment in outcome.message and "\n" not in outcome.message


def test_sql_whose_value_nests_too_deep_is_an_error(catalog: Catalog) -> None:
    sql = f"SELECT {'[' * (MAX_DEPTH + 5)}1{']' * (MAX_DEPTH + 5)} AS x"
    one_line_failure(run_tool(catalog, "run_sql", {"sql": sql}), "nested deeper than 32 levels")


def test_sql_with_nesting_within_the_bound_is_a_result(catalog: Catalog) -> None:
    sql = f"SELECT {'[' * 20}1{']' * 20} AS x"
    assert isinstance(run_tool(catalog, "run_sql", {"sql": sql}), ToolResult)


@pytest.mark.parametrize(
    ("result", "fragment"),
    [
        ({"rows": nested(100_000)}, "nested deeper than 32 levels"),
        ({"rows": nested(MAX_DEPTH)}, "nested deeper than 32 levels"),
        ({"rows": ["x" * 1000] * 300}, f"more than {MAX_RESULT_CHARS:,} characters"),
        ({f"k{i}": i for i in range(40_000)}, f"more than {MAX_RESULT_CHARS:,} characters"),
    ],
    ids=["100,000 deep", "just too deep", "long strings", "many keys"],
)
def test_every_tool_result_is_bounded_where_it_is_made(
    catalog: Catalog, monkeypatch: pytest.MonkeyPatch, result: dict[str, Any], fragment: str
) -> None:
    tool = registry.TOOLS["list_tables"]
    patched = dataclasses.replace(tool, fn=lambda cat, args, *scope: result)
    monkeypatch.setitem(registry.TOOLS, "list_tables", patched)
    one_line_failure(run_tool(catalog, "list_tables", {}), fragment)


def test_the_deepest_allowed_result_passes() -> None:
    """The result object is one level, each list inside it one more."""
    assert shape_problem({"rows": nested(MAX_DEPTH - 1)}, "r") is None
    assert shape_problem({"rows": nested(MAX_DEPTH)}, "r") is not None


@pytest.mark.parametrize("depth", [MAX_DEPTH + 1, 100_000])
def test_arguments_nested_too_deep_are_an_error_and_recorded_as_text(
    catalog: Catalog, depth: int
) -> None:
    arguments = '{"ticker": ' + "[" * depth + "]" * depth + ', "date": "2024-01-02"}'
    result = call_tool(catalog, "get_price", arguments)
    assert set(result) == {"error"} and "flat JSON object" in result["error"]
    assert recorded_arguments(arguments) == arguments
    assert recorded_arguments('{"ticker": "AAA"}') == {"ticker": "AAA"}

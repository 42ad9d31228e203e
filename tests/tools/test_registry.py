"""The registry: call_tool never raises, and the three schema formats carry the same tools."""

from __future__ import annotations

import json

import pytest

from tools.catalog import Catalog
from tools.registry import TOOLS, anthropic_tools, call_tool, openai_tools, qwen_tools, tool_specs

NAMES = [
    "get_portfolio", "get_price", "get_daily_move", "get_price_change", "search_news", "get_events",
    "get_position_pnl", "calculate", "list_tables", "describe_table", "run_sql",
    "get_portfolio_ranks", "get_trend", "get_company",
]  # fmt: skip


def test_tool_names_are_the_contract() -> None:
    assert list(TOOLS) == NAMES
    for tool in TOOLS.values():
        assert tool.description and "\n" not in tool.description


def test_neutral_specs_have_schemas_with_descriptions() -> None:
    specs = {s["name"]: s for s in tool_specs()}
    price = specs["get_price"]["parameters"]
    assert price["required"] == ["ticker", "date"]
    assert price["additionalProperties"] is False
    assert "upper case" in price["properties"]["ticker"]["description"]
    assert specs["search_news"]["parameters"]["properties"]["limit"] == {
        "default": 5, "description": "Most recent headlines to return (1-10)", "maximum": 10,
        "minimum": 1, "type": "integer",
    }  # fmt: skip
    assert specs["list_tables"]["parameters"]["properties"] == {}
    assert "title" not in json.dumps(specs)


def test_openai_anthropic_and_qwen_formats() -> None:
    names = ["get_price", "run_sql"]
    neutral = tool_specs(names)
    assert openai_tools(names) == [{"type": "function", "function": s} for s in neutral]
    assert anthropic_tools(names) == [
        {"name": s["name"], "description": s["description"], "input_schema": s["parameters"]}
        for s in neutral
    ]
    qwen = qwen_tools(names)
    assert [q["function"]["name"] for q in qwen] == names
    assert all("$ref" not in json.dumps(q) for q in qwen_tools())
    with pytest.raises(KeyError, match="unknown tools"):
        tool_specs(["get_prices"])


@pytest.mark.parametrize(
    ("name", "arguments", "fragment"),
    [
        ("get_prices", {}, "unknown tool 'get_prices'; valid tools: get_portfolio"),
        ("get_price", "{not json", "not valid JSON"),
        ("get_price", "[1, 2]", "must be a JSON object"),
        ("get_price", {"ticker": "AAA"}, "date: Field required"),
        (
            "get_price",
            {"ticker": "AAA", "date": "2024-01-02", "x": 1},
            "x: Extra inputs are not permitted",
        ),
        (
            "get_price",
            {"ticker": 5, "date": "2024-01-02"},
            "ticker: Input should be a valid string",
        ),
        (
            "search_news",
            {"ticker": "AAA", "start": "2024-01-02", "end": "2024-01-03", "limit": "many"},
            "limit",
        ),
    ],
)
def test_call_tool_turns_every_failure_into_an_error(
    catalog: Catalog, name, arguments, fragment
) -> None:
    result = call_tool(catalog, name, arguments)
    assert set(result) == {"error"} and fragment in result["error"]


def test_arguments_as_json_text(catalog: Catalog) -> None:
    assert call_tool(catalog, "calculate", '{"expression": "1+1"}') == {
        "expression": "1+1",
        "value": 2.0,
    }
    assert "calculate takes expression" in call_tool(catalog, "calculate", "{}")["error"]


def test_results_are_json(catalog: Catalog) -> None:
    for name, args in [
        ("list_tables", {}),
        ("get_portfolio", {"portfolio_id": "P001"}),
        ("describe_table", {"table": "news"}),
    ]:
        assert json.loads(json.dumps(call_tool(catalog, name, args))) == call_tool(
            catalog, name, args
        )

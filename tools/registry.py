"""The registry: every tool by name, `run_tool` that never raises, and the tool schemas in the
neutral, OpenAI, Anthropic and Qwen-template formats.

A tool's name, one-line description and argument schema are a prompt contract: the model
reads them. Change them deliberately and bump `TOOLS_VERSION`.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import cache
from typing import Any, get_type_hints

import duckdb
from pydantic import BaseModel, ValidationError

from contract.errors import ToolError
from contract.tools import (
    MAX_DEPTH,
    TRAITS,
    ToolFailure,
    ToolOutcome,
    ToolResult,
    ToolTraits,
    shape_problem,
)
from tools import analytics, calculator, news, portfolio, prices, sql
from tools.catalog import Catalog
from tools.gate import TRUSTED, ToolScope

TOOLS_VERSION = "3"


@dataclass(frozen=True)
class Tool:
    """A tool as the model sees it (name, description, argument model), the code behind it, and
    its traits (`contract.tools.TRAITS`: what the verifier may take its results for)."""

    name: str
    description: str
    args_model: type[BaseModel]
    fn: Callable[..., dict[str, Any]]
    traits: ToolTraits
    scoped: bool = False
    """It reads rows whose reach depends on the question's portfolio: it is handed the scope."""

    def parameters(self) -> dict[str, Any]:
        """The argument model's JSON schema, without pydantic's titles."""
        return strip_titles(json_schema(self.args_model))


def make_tool(fn: Callable[..., dict[str, Any]]) -> Tool:
    """A tool named after its function, described by its docstring, typed by its argument model,
    with the traits the contract gives its name (a tool the contract lacks is a `KeyError`); a
    function with a `scope` parameter is handed the call's scope."""
    hints = get_type_hints(fn)
    description = (fn.__doc__ or "").strip().splitlines()[0]
    return Tool(fn.__name__, description, hints["args"], fn, TRAITS[fn.__name__], "scope" in hints)


TOOLS: dict[str, Tool] = {
    t.name: t
    for t in (
        make_tool(portfolio.get_portfolio),
        make_tool(prices.get_price),
        make_tool(prices.get_daily_move),
        make_tool(prices.get_price_change),
        make_tool(news.search_news),
        make_tool(news.get_events),
        make_tool(portfolio.get_position_pnl),
        make_tool(calculator.calculate),
        make_tool(sql.list_tables),
        make_tool(sql.describe_table),
        make_tool(sql.run_sql),
        make_tool(analytics.get_portfolio_ranks),
        make_tool(analytics.get_trend),
        make_tool(analytics.get_company),
    )
}


def call_tool(
    catalog: Catalog,
    name: str,
    arguments: str | dict[str, Any],
    scope: ToolScope = TRUSTED,
) -> dict[str, Any]:
    """One call as the model reads it (`nightdesk tools call` shows this): the result, or
    `{"error": ...}`."""
    return run_tool(catalog, name, arguments, scope).as_json()


def run_tool(
    catalog: Catalog,
    name: str,
    arguments: str | dict[str, Any],
    scope: ToolScope = TRUSTED,
) -> ToolOutcome:
    """Run one tool call within `scope`; every failure, a tool the scope does not offer or a
    portfolio it does not read (both refused at the gate, `tools.gate`) and a result nested too deep or too large (`shape_problem`)
    included, comes back as a `ToolFailure` that says what was wrong and what is valid."""
    refused = scope.refusal(name, TOOLS)  # the gate: an unknown tool, or one not offered
    if refused is not None:
        return ToolFailure(refused)
    tool = TOOLS[name]
    try:
        args = tool.args_model.model_validate(parse_arguments(arguments))
        portfolio_id = getattr(args, "portfolio_id", None)
        if isinstance(portfolio_id, str) and not scope.reads(portfolio_id):
            return ToolFailure(scope.out_of_scope(portfolio_id))
        data = tool.fn(catalog, args, scope) if tool.scoped else tool.fn(catalog, args)
        problem = shape_problem(data, f"the result of {name}")
        return ToolFailure(problem) if problem else ToolResult(data)
    except ToolError as exc:
        return ToolFailure(exc.message)
    except ValidationError as exc:
        return ToolFailure(f"invalid arguments for {name}: {explain(exc)}; {signature(tool)}")
    except duckdb.InterruptException:
        return ToolFailure(f"the query ran past the {catalog.query_timeout_s:g} s limit; narrow it")
    except duckdb.Error as exc:
        return ToolFailure(f"query failed: {first_line(str(exc))}")
    except Exception as exc:  # a tool bug must not end the run: report it as an observation
        return ToolFailure(f"{name} failed: {type(exc).__name__}: {first_line(str(exc))}")


def parse_arguments(arguments: str | dict[str, Any]) -> dict[str, Any]:
    """The call's arguments as an object, flat enough for every trace to keep."""
    if isinstance(arguments, dict):
        parsed: Any = arguments
    else:
        try:
            parsed = json.loads(
                arguments or "{}", object_pairs_hook=unique_keys, parse_constant=no_constant
            )
        except ToolError:
            raise
        except (ValueError, TypeError) as exc:  # ValueError: an integer past Python's digits
            raise ToolError(f"arguments are not valid JSON ({exc}); send a JSON object") from None
        except RecursionError:
            raise ToolError(_NOT_FLAT) from None
    if not isinstance(parsed, dict):
        raise ToolError(f"arguments must be a JSON object, got {type(parsed).__name__}")
    if shape_problem(parsed, "the arguments", max_chars=MAX_ARGUMENT_CHARS):
        raise ToolError(_NOT_FLAT)
    return parsed


def unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """An object whose keys are each given once: `{"portfolio_id": "A", "portfolio_id": "B"}`
    reads as B to one JSON reader and A to another, so it is refused, not resolved."""
    found: dict[str, Any] = {}
    for key, value in pairs:
        if key in found:
            raise ToolError(f"arguments name {key!r} twice; send each argument once")
        found[key] = value
    return found


def no_constant(name: str) -> Any:
    """NaN and Infinity are not JSON: refused where a lenient reader would take them."""
    raise ToolError(f"arguments hold {name}, which is not JSON; send a finite number")


MAX_ARGUMENT_CHARS = 16_384
_NOT_FLAT = (
    f"arguments must be a flat JSON object (at most {MAX_DEPTH} levels, "
    f"{MAX_ARGUMENT_CHARS:,} characters)"
)


def explain(exc: ValidationError) -> str:
    return "; ".join(
        f"{'.'.join(str(p) for p in e['loc']) or 'arguments'}: {e['msg']}" for e in exc.errors()
    )


def signature(tool: Tool) -> str:
    props = tool.parameters().get("properties", {})
    return (
        f"{tool.name} takes "
        + ", ".join(f"{k} ({v.get('description', v.get('type', ''))})" for k, v in props.items())
        if props
        else f"{tool.name} takes no arguments"
    )


def first_line(text: str) -> str:
    return text.strip().splitlines()[0] if text.strip() else "unknown error"


@cache
def json_schema(model: type[BaseModel]) -> dict[str, Any]:
    """pydantic's JSON schema of an argument model, made once (read only: callers get
    `strip_titles`'s copy)."""
    return model.model_json_schema()


def strip_titles(schema: Any) -> Any:
    if isinstance(schema, dict):
        return {k: strip_titles(v) for k, v in schema.items() if k != "title"}
    if isinstance(schema, list):
        return [strip_titles(v) for v in schema]
    return schema


def selected(names: Iterable[str] | None) -> list[Tool]:
    if names is None:
        return list(TOOLS.values())
    unknown = [n for n in names if n not in TOOLS]
    if unknown:
        raise KeyError(f"unknown tools {unknown}; valid tools: {', '.join(TOOLS)}")
    return [TOOLS[n] for n in names]


def tool_specs(names: Iterable[str] | None = None) -> list[dict[str, Any]]:
    """Neutral specs: {name, description, parameters (JSON schema)}."""
    return [
        {"name": t.name, "description": t.description, "parameters": t.parameters()}
        for t in selected(names)
    ]


def openai_tools(names: Iterable[str] | None = None) -> list[dict[str, Any]]:
    """Chat Completions `tools`: function definitions."""
    return [{"type": "function", "function": spec} for spec in tool_specs(names)]


def anthropic_tools(names: Iterable[str] | None = None) -> list[dict[str, Any]]:
    """Messages API `tools`: name, description, input_schema."""
    return [
        {"name": s["name"], "description": s["description"], "input_schema": s["parameters"]}
        for s in tool_specs(names)
    ]


def qwen_tools(names: Iterable[str] | None = None) -> list[dict[str, Any]]:
    """The `tools` a Qwen-style chat template renders inside <tools></tools>, one JSON per line."""
    return [
        {"type": "function", "function": {**spec, "parameters": inline_refs(spec["parameters"])}}
        for spec in tool_specs(names)
    ]


def inline_refs(schema: dict[str, Any]) -> dict[str, Any]:
    """Local models read the schema as text: resolve `$defs` references in place."""
    defs = schema.get("$defs", {})

    def resolve(node: Any) -> Any:
        if isinstance(node, dict):
            if "$ref" in node:
                return resolve(defs[node["$ref"].rsplit("/", 1)[-1]])
            return {k: resolve(v) for k, v in node.items() if k != "$defs"}
        if isinstance(node, list):
            return [resolve(v) for v in node]
        return node

    return resolve(schema)

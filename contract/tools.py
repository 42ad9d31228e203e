"""What a tool call comes back as, and the traits of each tool that the verifier relies on.

Inside the program a call's outcome is typed: a `ToolResult` or a `ToolFailure`, never a dict
that may or may not hold an `"error"` key (a real result may well have a field of that name).
JSON is made from it at the model boundary only.

The traits say which tools compute their figures in code (their results vouch for a change or a
percentage), which return news, which evaluate the model's arithmetic, and which run SQL the
model wrote. The registry declares each
tool's traits from `TRAITS` and a test holds the two together.

A result (and the arguments a call is recorded with) is bounded where it is made
(`shape_problem`): nested at most `MAX_DEPTH` levels and at most `MAX_RESULT_CHARS` characters
of JSON. Past either it is a `ToolFailure` of one line, so one bad value costs one answer, and
every trace stays within what the night's own JSON reader reads back (pydantic's stops at 200
levels).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class ToolResult:
    """A call that succeeded: the tool's JSON-ready result."""

    data: dict[str, Any]

    def as_json(self) -> dict[str, Any]:
        return self.data


@dataclass(frozen=True, slots=True)
class ToolFailure:
    """A call that failed: what was wrong and what would be valid (the model can fix it)."""

    message: str

    def as_json(self) -> dict[str, Any]:
        """The failure as the model reads it."""
        return {"error": self.message}


ToolOutcome = ToolResult | ToolFailure

MAX_DEPTH = 32
"""Levels of nesting a result or a call's arguments may have (the object itself is one)."""
MAX_RESULT_CHARS = 262_144
"""Characters of JSON a result may hold: far more than any answer reads, far less than a night's
memory."""


def shape_problem(value: Any, what: str, max_chars: int = MAX_RESULT_CHARS) -> str | None:
    """Why `value` (`what`: "the result of run_sql") is nested too deep or too large to pass on,
    or None. Walked with a stack, not by recursion, so no depth can break the walk itself; its
    size is counted as compact JSON would write it, near enough, and the walk stops at the
    bound."""
    stack: list[tuple[Any, int]] = [(value, 0)]
    chars = 0
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict | list | tuple):
            if depth >= MAX_DEPTH:
                return f"{what} is nested deeper than {MAX_DEPTH} levels; ask for flat values"
            chars += 2 + len(item)
            if isinstance(item, dict):
                chars += sum(len(str(k)) + 3 for k in item)
                stack += [(v, depth + 1) for v in item.values()]
            else:
                stack += [(v, depth + 1) for v in item]
        else:
            chars += len(item) + 2 if isinstance(item, str) else len(str(item))
        if chars > max_chars:
            return (
                f"{what} holds more than {max_chars:,} characters of JSON; "
                "ask for fewer rows or shorter values"
            )
    return None


@dataclass(frozen=True, slots=True)
class ToolTraits:
    computes: bool = False
    """Its figures are computed in code (changes, returns, contributions, arithmetic)."""
    news: bool = False
    """It returns headlines, whose text is data: it vouches for quoting them, nothing more."""
    arithmetic: bool = False
    """It evaluates an expression the model wrote: any of its numbers may be a percentage, and
    the expression it echoes vouches for nothing."""
    sql: bool = False
    """It runs SQL the model wrote: its columns may hold computed figures, news or percentages."""


TRAITS: dict[str, ToolTraits] = {
    "get_portfolio": ToolTraits(),
    "get_price": ToolTraits(),
    "get_daily_move": ToolTraits(computes=True),
    "get_price_change": ToolTraits(computes=True),
    "search_news": ToolTraits(news=True),
    "get_events": ToolTraits(),
    "get_position_pnl": ToolTraits(computes=True),
    "calculate": ToolTraits(computes=True, arithmetic=True),
    "list_tables": ToolTraits(),
    "describe_table": ToolTraits(),
    "run_sql": ToolTraits(sql=True),
    "get_portfolio_ranks": ToolTraits(computes=True),
    "get_trend": ToolTraits(computes=True),
    "get_company": ToolTraits(),
}


def traits_of(tool: str) -> ToolTraits:
    """The traits of a tool by name; none for a name no tool has."""
    return TRAITS.get(tool, NO_TRAITS)


NO_TRAITS = ToolTraits()

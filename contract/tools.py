"""What a tool call comes back as, and the traits of each tool that the verifier relies on.

Inside the program a call's outcome is typed: a `ToolResult` or a `ToolFailure`, never a dict
that may or may not hold an `"error"` key (a real result may well have a field of that name).
JSON is made from it at the model boundary only.

The traits say which tools compute their figures in code (their results vouch for a change or a
percentage), which return news, which evaluate the model's arithmetic, and which run SQL the
model wrote. The registry declares each
tool's traits from `TRAITS` and a test holds the two together.
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

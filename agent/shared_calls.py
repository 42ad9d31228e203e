"""The tool calls of one ticker's questions, each distinct call run once.

Tools are deterministic and read-only over a catalog that does not change while a night runs,
so a second question asking the same (the day's move for a move question and for a volume
question) gets the first one's outcome instead of another DuckDB query. The trace of each
question still records the call, marked `reused` (`contract.trace.ToolEvent`)."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from contract.trace import ToolEvent

SharedKey = tuple[str, str, frozenset[str] | None]
"""Tool, canonical arguments, and the portfolios the call may read."""


@dataclass
class SharedCalls:
    """One ticker's calls so far, by `SharedKey`; a call its question is not offered is never
    looked up here (`agent.tool_calls.run_calls`)."""

    runs: dict[SharedKey, asyncio.Task[ToolEvent]] = field(default_factory=dict)
    reused: int = 0

    async def run(
        self,
        key: SharedKey,
        start: Callable[[], Awaitable[ToolEvent]],
        record: Callable[[ToolEvent], ToolEvent],
    ) -> ToolEvent:
        """The first call with `key` runs (`start`); a later one waits for it and returns its
        event as `record` writes it for the later question."""
        task = self.runs.get(key)
        if task is None:  # shielded: a question cut at its deadline leaves the run to the others
            task = self.runs[key] = asyncio.ensure_future(start())
            return await asyncio.shield(task)
        self.reused += 1
        return record(await asyncio.shield(task))

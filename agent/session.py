"""What one question's model calls and tool calls share while it is being answered: the
provider, catalog, meter, limiter, the tool threads and the deadline."""

from __future__ import annotations

import asyncio
from concurrent.futures import Executor, ThreadPoolExecutor
from dataclasses import dataclass, field
from functools import cache
from time import perf_counter

from agent.budget.limits import LoopLimits
from agent.budget.meter import QuestionMeter
from agent.providers.base import (
    Provider,
)
from agent.ratelimit import RateLimiter
from agent.shared_calls import SharedCalls
from tools.catalog import Catalog
from tools.gate import NOTHING, ToolScope

TOOL_THREADS = 16


@cache
def tool_executor() -> Executor:
    """The threads tool calls run in: their own pool, not the default one `to_thread` shares."""
    return ThreadPoolExecutor(max_workers=TOOL_THREADS, thread_name_prefix="nightdesk-tool")


@dataclass
class Session:
    """What one question's model calls and tool calls share while it is being answered."""

    provider: Provider
    catalog: Catalog | None
    meter: QuestionMeter | None
    limiter: RateLimiter | None
    executor: Executor
    tool_timeout_s: float
    deadline_s: float
    deadline: float
    started: float = field(default_factory=perf_counter)
    scope: ToolScope = NOTHING
    """What the question's tool calls may reach: nothing unless the question says."""
    seen: dict[str, str] = field(default_factory=dict)
    repeats: int = 0
    shared: SharedCalls | None = None
    """The ticker's calls already made by its other questions (None: every call runs)."""


def open_session(
    provider: Provider,
    catalog: Catalog | None,
    meter: QuestionMeter | None,
    limiter: RateLimiter | None,
    executor: Executor | None,
    limits: LoopLimits,
    scope: ToolScope = NOTHING,
    shared: SharedCalls | None = None,
) -> Session:
    deadline = asyncio.get_running_loop().time() + limits.deadline_s
    return Session(
        provider,
        catalog,
        meter,
        limiter,
        executor or tool_executor(),
        limits.tool_timeout_s,
        limits.deadline_s,
        deadline,
        scope=scope,
        shared=shared,
    )

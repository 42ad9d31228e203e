"""A scripted model server that meters its calls as a hosted API does, on either wire.

`Metered` is an httpx2 transport handler (async: each reply waits `latency_s`, so calls
overlap): every request gets a scripted `Turn`; with `limit` set it counts requests in fixed
windows of `window_s` seconds on the event loop's clock, answers 429 past the limit and states
the window in OpenAI's or Anthropic's rate-limit headers (`style`); `faults` maps a request's
number (1-based) to a 429 carrying `retry_after` as the header names it. It records when each
request arrived, its status and its window, and the most requests it held at once.
"""

from __future__ import annotations

import asyncio
import json
import math
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Literal

import httpx2

from tests.agent.scripted import Turn, Wire, _error, anthropic_body, openai_body


@dataclass(frozen=True)
class Arrival:
    at: float
    status: int
    window: int


@dataclass
class Metered:
    wire: Wire = "openai"
    latency_s: float = 0.01
    limit: int | None = None
    window_s: float = 0.25
    style: Literal["openai", "anthropic"] | None = None
    faults: dict[int, dict[str, str]] = field(default_factory=dict)
    arrivals: list[Arrival] = field(default_factory=list)
    refused: asyncio.Event = field(default_factory=asyncio.Event)
    """Set as a scripted fault's 429 goes out."""
    in_flight: int = 0
    most_in_flight: int = 0
    _start: float | None = None
    _counts: dict[int, int] = field(default_factory=dict)

    async def __call__(self, request: httpx2.Request) -> httpx2.Response:
        loop = asyncio.get_running_loop()
        now = loop.time()
        self._start = now if self._start is None else self._start
        window, into = divmod(now - self._start, self.window_s)
        index = int(window)
        count = self._counts[index] = self._counts.get(index, 0) + 1
        number = len(self.arrivals) + 1
        headers = self._headers(count, self.window_s - into)
        status = 200
        if number in self.faults:
            status, headers = 429, {**headers, **self.faults[number]}
        elif self.limit is not None and count > self.limit:
            status = 429
        self.arrivals.append(Arrival(now, status, index))
        self.in_flight += 1
        self.most_in_flight = max(self.most_in_flight, self.in_flight)
        try:
            await asyncio.sleep(self.latency_s)
        finally:
            self.in_flight -= 1
        if number in self.faults:
            self.refused.set()
        if status != 200:
            body = _error(self.wire, "rate_limit_error", "rate limited")
            return httpx2.Response(status, json=body, headers=headers)
        json.loads(request.content)  # the SDK sent a body that parses
        turn = Turn(text="All quiet.")
        body = openai_body(turn) if self.wire == "openai" else anthropic_body(turn)
        return httpx2.Response(200, json=body, headers=headers)

    def _headers(self, count: int, reset_s: float) -> dict[str, str]:
        if self.limit is None or self.style is None:
            return {}
        remaining = str(max(self.limit - count, 0))
        if self.style == "openai":
            return {
                "x-ratelimit-limit-requests": str(self.limit),
                "x-ratelimit-remaining-requests": remaining,
                "x-ratelimit-reset-requests": f"{math.ceil(reset_s * 1000)}ms",
            }
        moment = datetime.now(UTC) + timedelta(seconds=reset_s)
        return {
            "anthropic-ratelimit-requests-limit": str(self.limit),
            "anthropic-ratelimit-requests-remaining": remaining,
            "anthropic-ratelimit-requests-reset": moment.isoformat().replace("+00:00", "Z"),
        }

    def rate_limited_per_window(self) -> dict[int, int]:
        """429s answered in each window that had any."""
        found: dict[int, int] = {}
        for a in self.arrivals:
            if a.status == 429:
                found[a.window] = found.get(a.window, 0) + 1
        return found

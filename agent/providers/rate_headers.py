"""The rate-limit headers of OpenAI and Anthropic replies, read on the SDK client's own HTTP
client as each reply arrives (retried ones included), for the limiter of the call it answers.

OpenAI (and the servers that copy it) sends `x-ratelimit-{limit,remaining,reset}-{requests,
tokens}`, a reset as a duration (`6m0s`, `1s`, `20ms`); Anthropic sends
`anthropic-ratelimit-{requests,tokens,input-tokens,output-tokens}-{limit,remaining,reset}`, a
reset as an RFC 3339 moment. A 429 or 503 may carry `retry-after` (seconds or an HTTP date) or
`retry-after-ms`. A header that does not parse is left out, never guessed at.
"""

from __future__ import annotations

import asyncio
import re
import time
from datetime import datetime
from email.utils import parsedate_to_datetime

import httpx2

from agent.ratelimit import CURRENT, Dimension, ServerLimits, Window

_SCHEMES: tuple[tuple[str, Dimension], ...] = (
    ("x-ratelimit-{part}-requests", "requests"),
    ("x-ratelimit-{part}-tokens", "tokens"),
    ("anthropic-ratelimit-requests-{part}", "requests"),
    ("anthropic-ratelimit-tokens-{part}", "tokens"),
    ("anthropic-ratelimit-input-tokens-{part}", "input_tokens"),
    ("anthropic-ratelimit-output-tokens-{part}", "output_tokens"),
)
_FIELDS: dict[str, tuple[Dimension, int]] = {
    pattern.format(part=part): (dimension, i)
    for pattern, dimension in _SCHEMES
    for i, part in enumerate(("limit", "remaining", "reset"))
}
"""Header name -> (dimension, 0 limit / 1 remaining / 2 reset)."""
RETRY_STATUSES = frozenset({429, 503, 529})
"""Replies whose `retry-after` holds the calls not yet sent (529: Anthropic's overloaded)."""
_DURATION = re.compile(r"(\d+(?:\.\d*)?)(ms|h|m|s)")
_UNIT_S = {"h": 3600.0, "m": 60.0, "s": 1.0, "ms": 0.001}


def server_limits(headers: httpx2.Headers, status: int, wall_now: float) -> ServerLimits:
    """What a reply's headers say of the server's limits, at wall-clock time `wall_now`."""
    found: dict[Dimension, list[str | None]] = {}
    retry_after: str | None = None
    retry_after_ms: str | None = None
    for name, value in headers.multi_items():
        slot = _FIELDS.get(name)
        if slot is not None:
            found.setdefault(slot[0], [None, None, None])[slot[1]] = value
        elif name == "retry-after":
            retry_after = value
        elif name == "retry-after-ms":
            retry_after_ms = value
    windows = tuple(w for d, parts in found.items() if (w := _window(d, parts, wall_now)))
    wait = None
    if status in RETRY_STATUSES:
        wait = _retry_after(retry_after_ms, retry_after, wall_now)
    return ServerLimits(windows, wait)


def _window(dimension: Dimension, parts: list[str | None], wall_now: float) -> Window | None:
    limit, remaining, reset = parts
    remaining_n = _number(remaining)
    reset_s = reset_seconds(reset, wall_now) if reset is not None else None
    if remaining_n is None or reset_s is None:
        return None
    limit_n = _number(limit)
    return Window(dimension, max(limit_n or remaining_n, remaining_n), remaining_n, reset_s)


def reset_seconds(value: str, wall_now: float) -> float | None:
    """Seconds until a reset stated as a duration (`1m30s`, `20ms`, `0.5s`) or an RFC 3339
    moment; None if it is neither."""
    value = value.strip()
    parts = _DURATION.findall(value)
    if parts and "".join(n + u for n, u in parts) == value:
        return sum(float(n) * _UNIT_S[u] for n, u in parts)
    try:
        moment = datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        number = _number(value)  # a bare number: seconds
        return number if number is not None and number >= 0 else None
    if moment.tzinfo is None:
        return None
    return max(moment.timestamp() - wall_now, 0.0)


def retry_after(headers: httpx2.Headers, wall_now: float) -> float | None:
    """The seconds a reply's `retry-after-ms` or `retry-after` asks to wait; None if neither
    parses."""
    return _retry_after(headers.get("retry-after-ms"), headers.get("retry-after"), wall_now)


def _retry_after(ms: str | None, seconds: str | None, wall_now: float) -> float | None:
    if ms is not None and (n := _number(ms)) is not None:
        return n / 1000
    if seconds is None:
        return None
    if (n := _number(seconds)) is not None:
        return n
    try:
        moment = parsedate_to_datetime(seconds)
    except (TypeError, ValueError):
        return None
    return max(moment.timestamp() - wall_now, 0.0)


def _number(value: str | None) -> float | None:
    if value is None:
        return None
    try:
        number = float(value)
    except ValueError:
        return None
    return number if number == number and number not in (float("inf"), float("-inf")) else None


async def observe_reply(response: httpx2.Response) -> None:
    """The response hook: the limits a reply states, to the limiter of the call awaiting it."""
    ticket = CURRENT.get()
    if ticket is None:  # not a metered model call (a batch upload, a call made outside a night)
        return
    limits = server_limits(response.headers, response.status_code, time.time())
    ticket.limiter.observe(ticket, limits, asyncio.get_running_loop().time())


def watch_rate_limits(client: httpx2.AsyncClient) -> None:
    """Read the rate-limit headers of every reply `client` receives (once per client)."""
    hooks = client.event_hooks["response"]
    if observe_reply not in hooks:
        hooks.append(observe_reply)

"""Requests and tokens per minute, per provider, shared by every question of the process.

A server that meters calls says so in every reply: its limits, what remains of them and when
each is whole again (`ServerLimits`, read from the rate-limit headers by the provider's
response hook, `agent/providers/rate_headers.py`). Where the run sets no limit of its own the
limiter follows those and nothing else: a server that sends none is never throttled. Until the
first reply only one call is out, so that a burst cannot spend a small window before the server
has named it. Each call counts against what remains when it is sent, a reply's figure is
lowered by what was sent after its call (the server had not counted those yet), and a call
that does not fit waits for the window's reset. A 429 or 503 carrying `retry-after` holds every
call not yet sent until then; the SDK's own retry waits for the call that got it, which never
queues here again, so no call waits twice.

An explicit limit (`--requests-per-minute`, `--tokens-per-minute`) wins over the server's for
its dimension: an aiolimiter leaky bucket holding one period's worth, so a burst of up to the
limit passes at once, then capacity drips back at limit / period. A call holds its prompt
estimate plus its whole output allowance, and `release` gives back what its reply did not use.
A question's wait here is not counted against its deadline. aiolimiter buckets belong to one
event loop: `limiter_for` keeps one per provider and loop. Shards each take `share(shards)` of
the explicit limits; the server's are the server's, whoever spends them.
"""

from __future__ import annotations

import asyncio
import threading
import weakref
from collections import Counter
from contextvars import ContextVar, Token
from dataclasses import dataclass, field
from typing import Literal

from aiolimiter import AsyncLimiter

Dimension = Literal["requests", "tokens", "input_tokens", "output_tokens"]
DIMENSIONS: tuple[Dimension, ...] = ("requests", "tokens", "input_tokens", "output_tokens")
_INDEX = {name: i for i, name in enumerate(DIMENSIONS)}
MAX_RETRY_AFTER_S = 120.0
"""The longest `retry-after` followed: the SDKs give a call up past it rather than sleep, so the
others try again then instead of holding the night."""


@dataclass(frozen=True, slots=True)
class Window:
    """One limit as the server stated it in a reply."""

    dimension: Dimension
    limit: float
    remaining: float
    reset_s: float
    """Seconds until the limit is whole again."""


@dataclass(frozen=True, slots=True)
class ServerLimits:
    """What one reply said of the server's limits (nothing, for a server without any)."""

    windows: tuple[Window, ...] = ()
    retry_after_s: float | None = None


@dataclass(slots=True)
class LearnedWindow:
    """A server's window as the limiter holds it: what remains after the calls sent since."""

    limit: float
    remaining: float
    reset_at: float | None
    seq: int


@dataclass(slots=True)
class Ticket:
    """One call's place in the limiter, from `acquire` to `release`; the reply's hook finds it
    in `CURRENT` (the call's own task)."""

    limiter: RateLimiter
    seq: int
    costs: tuple[float, float, float, float]
    sent: tuple[float, ...]
    held: int = 0
    context: Token[Ticket | None] | None = field(default=None, repr=False)


CURRENT: ContextVar[Ticket | None] = ContextVar("nightdesk_rate_ticket", default=None)
"""The ticket of the model call running in this task, for the provider's response hook."""


class RateLimiter:
    """Calls and tokens per period: the explicit ones (a minute unless scaled down for tests)
    and, for each dimension without one, what the server says."""

    def __init__(
        self,
        requests_per_minute: int | None = None,
        tokens_per_minute: int | None = None,
        *,
        period_s: float = 60.0,
    ) -> None:
        given = [n for n in (requests_per_minute, tokens_per_minute) if n is not None]
        if any(n <= 0 for n in given) or period_s <= 0:
            raise ValueError("rate limits and their period must be positive")
        self.requests_per_minute = requests_per_minute
        self.tokens_per_minute = tokens_per_minute
        self.period_s = period_s
        self._requests = (
            AsyncLimiter(requests_per_minute, period_s) if requests_per_minute else None
        )
        self._tokens = AsyncLimiter(tokens_per_minute, period_s) if tokens_per_minute else None
        self.learns: frozenset[Dimension] = frozenset(
            d
            for d in DIMENSIONS
            if (d == "requests" and not requests_per_minute)
            or (d != "requests" and not tokens_per_minute)
        )
        self.windows: dict[Dimension, LearnedWindow] = {}
        self.waits: Counter[str] = Counter()
        """Calls that waited, by reason (one call may count under several): `bucket` (an
        explicit limit), `first reply`, `limit` (a server's window spent), `retry-after`."""
        self._sent = [0.0] * len(DIMENSIONS)
        self._out = [0.0] * len(DIMENSIONS)
        self._seq = 0
        self._in_flight = 0
        self._replied = False
        self._hold_until = 0.0
        self._waiters = 0
        self._changed: asyncio.Event | None = None

    async def acquire(self, tokens: int, output_tokens: int = 0) -> Ticket:
        """Wait until one more call carrying `tokens` (its prompt estimate plus `output_tokens`,
        its output allowance) fits; the ticket goes back with `release`."""
        tokens = max(tokens, 0)
        costs = (1.0, float(tokens), float(max(tokens - output_tokens, 0)), float(output_tokens))
        held = 0
        if self._requests is not None or self._tokens is not None:
            held = await self._take_buckets(tokens)
        loop = asyncio.get_running_loop()
        reasons: set[str] = set()
        while (delay := self._delay(costs, loop.time())) is not None:
            reasons.add(delay[1])
            await self._wait(delay[0])
        self.waits.update(reasons)
        return self._take(costs, held)

    def release(self, ticket: Ticket, used: int) -> None:
        """The call is over: it used `used` tokens; a bucket gets back what it held beyond."""
        self._in_flight -= 1
        out = self._out
        for i, cost in enumerate(ticket.costs):
            out[i] -= cost
        if ticket.context is not None:
            try:
                CURRENT.reset(ticket.context)
            except ValueError:  # released from another context than it was acquired in
                CURRENT.set(None)
        if self._tokens is not None and ticket.held > used:
            _refund(self._tokens, ticket.held - used)
        if self._waiters:
            self._wake()

    def observe(self, ticket: Ticket, limits: ServerLimits, now: float) -> None:
        """What a reply to `ticket`'s call said, at loop time `now`."""
        self._replied = True
        if limits.retry_after_s is not None and limits.retry_after_s > 0:
            until = now + min(limits.retry_after_s, MAX_RETRY_AFTER_S)
            self._hold_until = max(self._hold_until, until)
        for window in limits.windows:
            if window.dimension not in self.learns:
                continue
            known = self.windows.get(window.dimension)
            if known is not None and known.seq > ticket.seq:
                continue  # a later call's reply has already said more
            i = _INDEX[window.dimension]
            after = self._sent[i] - ticket.sent[i]  # sent after this call: not counted in it
            self.windows[window.dimension] = LearnedWindow(
                window.limit, window.remaining - after, now + max(window.reset_s, 0.0), ticket.seq
            )
        if self._waiters:
            self._wake()

    def share(self, shards: int) -> RateLimiter:
        """The limits of one shard out of `shards` (at least one call and token each)."""
        if shards <= 0:
            raise ValueError(f"shards must be positive, not {shards}")
        rpm, tpm = self.requests_per_minute, self.tokens_per_minute
        return RateLimiter(
            max(rpm // shards, 1) if rpm else None,
            max(tpm // shards, 1) if tpm else None,
            period_s=self.period_s,
        )

    async def _take_buckets(self, tokens: int) -> int:
        requests, bucket = self._requests, self._tokens
        taken = min(tokens, int(bucket.max_rate)) if bucket is not None else 0
        if (requests is not None and not requests.has_capacity(1)) or (
            bucket is not None and not bucket.has_capacity(taken)
        ):
            self.waits["bucket"] += 1
        if requests is not None:
            await requests.acquire(1)
        if bucket is not None:
            await bucket.acquire(taken)
        return taken

    def _delay(self, costs: tuple[float, ...], now: float) -> tuple[float | None, str] | None:
        """None: the call may go now; else how long to wait (None: until something changes)
        and why."""
        if now < self._hold_until:
            return self._hold_until - now, "retry-after"
        if not self.learns:
            return None
        if not self._replied and self._in_flight:
            return None, "first reply"
        longest: float | None = 0.0
        for dimension, known in self.windows.items():
            i = _INDEX[dimension]
            if known.reset_at is not None and now >= known.reset_at:  # whole again, less what
                known.remaining, known.reset_at = known.limit - self._out[i], None  # is out
            cost = min(costs[i], known.limit)
            if cost <= known.remaining:
                continue
            if known.reset_at is None:
                if not self._in_flight:  # nothing out whose reply could say more: it is whole
                    known.remaining = known.limit
                    continue
                longest = None
            elif longest is not None:
                longest = max(longest, known.reset_at - now)
        if longest == 0.0:
            return None
        return longest, "limit"

    async def _wait(self, delay: float | None) -> None:
        """Until `delay` seconds have passed or a reply or release changed what is known."""
        if self._changed is None:
            self._changed = asyncio.Event()
        changed = self._changed
        self._waiters += 1
        try:
            async with asyncio.timeout(delay):
                await changed.wait()
        except TimeoutError:
            pass
        finally:
            self._waiters -= 1

    def _wake(self) -> None:
        if self._changed is not None:
            self._changed.set()
            self._changed = None

    def _take(self, costs: tuple[float, float, float, float], held: int) -> Ticket:
        self._seq += 1
        self._in_flight += 1
        sent, out = self._sent, self._out
        for i, cost in enumerate(costs):
            sent[i] += cost
            out[i] += cost
        for dimension, known in self.windows.items():
            known.remaining -= costs[_INDEX[dimension]]
        ticket = Ticket(self, self._seq, costs, tuple(sent), held)
        ticket.context = CURRENT.set(ticket)
        return ticket


def _refund(bucket: AsyncLimiter, tokens: int) -> None:
    """Give back tokens a call held but did not use, so that the bucket counts what calls used.
    aiolimiter has no refund: this lowers its level and wakes the next waiter, the two steps its
    own `acquire` takes (its version is pinned in the lock)."""
    bucket._leak()
    bucket._level = max(bucket._level - tokens, 0.0)
    bucket._wake_next()


_limiters: weakref.WeakKeyDictionary[
    asyncio.AbstractEventLoop, dict[tuple[str, int | None, int | None], RateLimiter]
]
_limiters = weakref.WeakKeyDictionary()
_limiters_lock = threading.Lock()


def limiter_for(
    provider: str, requests_per_minute: int | None = None, tokens_per_minute: int | None = None
) -> RateLimiter:
    """The process's limiter for `provider` in the running event loop (made on first use)."""
    loop = asyncio.get_running_loop()
    key = (provider, requests_per_minute, tokens_per_minute)
    with _limiters_lock:
        per_loop = _limiters.setdefault(loop, {})
        if key not in per_loop:
            per_loop[key] = RateLimiter(requests_per_minute, tokens_per_minute)
        return per_loop[key]

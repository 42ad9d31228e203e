"""Requests and tokens per minute, per provider, shared by every question of the process.

Two aiolimiter leaky buckets, one counting calls and one counting tokens. A bucket holds one
period's worth, so a burst of up to the limit passes at once, then capacity drips back at
limit / period: over any stretch of t seconds at most limit x (1 + t / period) acquisitions pass.
A call that asks for more tokens than a whole period allows waits for an empty bucket and takes
all of it. A call holds its prompt estimate plus its whole output allowance, and `refund` gives
back what its reply did not use, so the bucket counts what calls used. The run applies a limiter
only to providers a server meters, and a question's wait in it is not counted against its
deadline. aiolimiter buckets belong to one event loop: `limiter_for` keeps one per provider and
loop. Shards each take `share(shards)` of the limits so that together they stay within them.
"""

from __future__ import annotations

import asyncio
import threading
import weakref

from aiolimiter import AsyncLimiter


class RateLimiter:
    """Calls and tokens per period (a minute unless scaled down for tests)."""

    def __init__(
        self, requests_per_minute: int, tokens_per_minute: int, *, period_s: float = 60.0
    ) -> None:
        if requests_per_minute <= 0 or tokens_per_minute <= 0 or period_s <= 0:
            raise ValueError("rate limits and their period must be positive")
        self.requests_per_minute = requests_per_minute
        self.tokens_per_minute = tokens_per_minute
        self.period_s = period_s
        self._requests = AsyncLimiter(requests_per_minute, period_s)
        self._tokens = AsyncLimiter(tokens_per_minute, period_s)

    async def acquire(self, tokens: int) -> int:
        """Wait until one more call carrying `tokens` (reserved prompt + output) fits; returns
        what the token bucket took, for `refund`."""
        taken = min(max(tokens, 0), self.tokens_per_minute)
        await self._requests.acquire(1)
        await self._tokens.acquire(taken)
        return taken

    def refund(self, tokens: int) -> None:
        """Give back tokens a call held but did not use (its reply was shorter than the output
        it reserved), so that the bucket counts what calls used, not what they might have.
        aiolimiter has no refund: this lowers its level and wakes the next waiter, the two
        steps its own `acquire` takes (its version is pinned in the lock)."""
        bucket = self._tokens
        if tokens <= 0:
            return
        bucket._leak()
        bucket._level = max(bucket._level - tokens, 0.0)
        bucket._wake_next()

    def share(self, shards: int) -> RateLimiter:
        """The limits of one shard out of `shards` (at least one call and token each)."""
        if shards <= 0:
            raise ValueError(f"shards must be positive, not {shards}")
        return RateLimiter(
            max(self.requests_per_minute // shards, 1),
            max(self.tokens_per_minute // shards, 1),
            period_s=self.period_s,
        )


_limiters: weakref.WeakKeyDictionary[
    asyncio.AbstractEventLoop, dict[tuple[str, int, int], RateLimiter]
]
_limiters = weakref.WeakKeyDictionary()
_limiters_lock = threading.Lock()


def limiter_for(provider: str, requests_per_minute: int, tokens_per_minute: int) -> RateLimiter:
    """The process's limiter for `provider` in the running event loop (made on first use)."""
    loop = asyncio.get_running_loop()
    key = (provider, requests_per_minute, tokens_per_minute)
    with _limiters_lock:
        per_loop = _limiters.setdefault(loop, {})
        if key not in per_loop:
            per_loop[key] = RateLimiter(requests_per_minute, tokens_per_minute)
        return per_loop[key]

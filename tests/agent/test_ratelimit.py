"""Explicit rate limits, scaled down to a fraction of a second so the test measures real
waiting (only ever a lower bound, which load cannot break)."""

from __future__ import annotations

import asyncio

import pytest

from agent.ratelimit import RateLimiter, limiter_for

SLACK_S = 0.02  # event-loop timer granularity


def assert_within(times: list[float], amounts: list[int], limit: int, period: float) -> None:
    """Leaky bucket bound: over any stretch [t_i, t_j], at most limit x (1 + span / period)."""
    for i in range(len(times)):
        for j in range(i, len(times)):
            taken = sum(amounts[i : j + 1])
            span = times[j] - times[i] + SLACK_S
            assert taken <= limit * (1 + span / period), (i, j, taken, span)


async def run_questions(limiter: RateLimiter, calls: int, tokens: int) -> list[float]:
    loop = asyncio.get_running_loop()
    stamps: list[float] = []

    async def question() -> None:
        await limiter.acquire(tokens)
        stamps.append(loop.time())

    await asyncio.gather(*(question() for _ in range(calls)))
    return sorted(stamps)


async def test_request_rate_stays_within_the_limit() -> None:
    limiter = RateLimiter(10, 1_000_000, period_s=0.25)
    stamps = await run_questions(limiter, calls=30, tokens=1)
    assert_within(stamps, [1] * len(stamps), limit=10, period=0.25)
    # 10 pass at once, the other 20 at 40 per second
    assert stamps[-1] - stamps[0] >= 0.5 - SLACK_S


async def test_token_rate_stays_within_the_limit() -> None:
    limiter = RateLimiter(1_000, 1_000, period_s=0.25)
    stamps = await run_questions(limiter, calls=10, tokens=300)
    assert_within(stamps, [300] * len(stamps), limit=1_000, period=0.25)
    assert stamps[-1] - stamps[0] >= (3_000 - 1_000) / 4_000 - SLACK_S


async def test_a_call_larger_than_the_bucket_still_passes() -> None:
    limiter = RateLimiter(10, 100, period_s=0.1)
    await asyncio.wait_for(limiter.acquire(10_000), timeout=1)


def test_shards_split_the_limits() -> None:
    share = RateLimiter(10, 100).share(3)
    assert (share.requests_per_minute, share.tokens_per_minute) == (3, 33)
    assert RateLimiter(2, 2).share(5).requests_per_minute == 1
    learned = RateLimiter().share(3)  # the server's limits are the server's to state
    assert (learned.requests_per_minute, learned.tokens_per_minute) == (None, None)
    with pytest.raises(ValueError, match="positive"):
        RateLimiter(2, 2).share(0)
    with pytest.raises(ValueError, match="positive"):
        RateLimiter(0)  # no limit at all is None, not zero


async def test_one_limiter_per_provider_within_a_loop() -> None:
    first = limiter_for("openai", 10, 100)
    assert limiter_for("openai", 10, 100) is first
    assert limiter_for("anthropic", 10, 100) is not first


async def test_tokens_a_call_did_not_use_come_back_at_once() -> None:
    """Calls each holding 300 of a 1,000-token bucket but using 30: with the unused part given
    back ten pass without a wait; kept, the fourth finds no room."""
    refunded = RateLimiter(1_000, 1_000)
    for _ in range(10):
        refunded.release(await refunded.acquire(300), used=30)
    assert refunded.waits == {}
    kept = RateLimiter(1_000, 1_000)
    for _ in range(3):
        kept.release(await kept.acquire(300), used=300)
    with pytest.raises(TimeoutError):  # room for it drips back over about 12 s
        await asyncio.wait_for(kept.acquire(300), timeout=0.2)
    assert kept.waits == {"bucket": 1}


async def test_waiting_on_the_limiter_does_not_count_against_the_deadline() -> None:
    """A question queued behind our own limiter longer than its deadline still gets its call:
    the deadline bounds the provider, the queue is ours."""
    from datetime import date

    from agent.budget.limits import LoopLimits
    from agent.loop import draft_summary
    from agent.providers.offline import OfflineProvider
    from contract.trace import Trace

    limiter = RateLimiter(1, 1_000_000, period_s=1.5)
    await limiter.acquire(1)  # the bucket is full: the next call waits about 1.5 s
    answer = Trace(
        question_id="AAA/move", question="How did AAA close?", ticker="AAA", as_of=date(2024, 6, 3)
    )
    answer.draft = "No data was available."
    loop = asyncio.get_running_loop()
    start = loop.time()
    trace = await draft_summary(
        "AAA",
        [answer],
        provider=OfflineProvider(),
        limiter=limiter,
        limits=LoopLimits(deadline_s=1.0),
    )
    assert loop.time() - start >= 1.4  # it did wait its turn, longer than the deadline
    assert trace.stop_reason == "answered", trace.stop_detail

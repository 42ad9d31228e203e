"""Rate limits learned from the server: the real SDKs on a metered scripted server
(`tests/agent/metered.py`), through the loop's own model call, and the header parser alone."""

from __future__ import annotations

import asyncio
from datetime import date
from typing import Any

import httpx2
import pytest

from agent.budget.limits import BudgetConfig, LoopLimits
from agent.loop import call_model
from agent.providers.anthropic import AnthropicProvider
from agent.providers.base import Message, ModelRequest
from agent.providers.openai import OpenAIProvider
from agent.providers.rate_headers import reset_seconds, server_limits
from agent.ratelimit import RateLimiter, Window
from agent.session import open_session
from contract.trace import Trace
from tests.agent.metered import Metered

NOW = 1_750_000_000.0  # a wall-clock moment for the parser: 2025-06-15T15:06:40Z


def provider_on(server: Metered, **options: Any) -> Any:
    client = httpx2.AsyncClient(transport=httpx2.MockTransport(server))
    cls = OpenAIProvider if server.wire == "openai" else AnthropicProvider
    model = "gpt-4o-mini" if server.wire == "openai" else "claude-haiku-4-5"
    options.setdefault("max_retries", 3)
    return cls(model, api_key="test", http_client=client, **options)


def default_limiter() -> RateLimiter:
    """The limiter a night builds when no limit is given (as `flows/night/fanout.py` does)."""
    budget = BudgetConfig()
    return RateLimiter(budget.requests_per_minute, budget.tokens_per_minute)


async def ask(provider: Any, limiter: RateLimiter, calls: int) -> list[Trace]:
    """`calls` model calls at once, each as a question's `call_model` makes it."""

    async def one(i: int) -> Trace:
        trace = Trace(question_id=f"q{i}", question="?", ticker="AAA", as_of=date(2024, 6, 3))
        session = open_session(provider, None, None, limiter, None, LoopLimits())
        request = ModelRequest(
            system="You answer from tool results.",
            messages=[Message(role="user", text="How did AAA close?")],
            max_output_tokens=64,
        )
        await call_model(session, trace, request, 1)
        return trace

    return list(await asyncio.gather(*(one(i) for i in range(calls))))


def answered(traces: list[Trace]) -> bool:
    return all(t.stop_reason is None and len(t.turns) == 1 for t in traces)


async def test_a_server_without_rate_limit_headers_is_never_throttled() -> None:
    """More calls at once than the old default of 500 a minute: after the first reply none
    waits, and the server holds them all at once."""
    server = Metered(latency_s=0.05)
    limiter = default_limiter()
    provider = provider_on(server)
    assert answered(await ask(provider, limiter, 1))
    traces = await ask(provider, limiter, 520)
    assert answered(traces)
    assert limiter.waits == {}
    assert limiter.windows == {}
    assert len(server.arrivals) == 521


async def test_the_first_burst_waits_only_for_the_first_reply() -> None:
    server = Metered(latency_s=0.02)
    limiter = default_limiter()
    assert answered(await ask(provider_on(server), limiter, 30))
    assert limiter.waits == {"first reply": 29}
    assert {a.status for a in server.arrivals} == {200}


@pytest.mark.parametrize("style", ["openai", "anthropic"])
async def test_a_small_window_sends_at_most_one_429_per_window(style: str) -> None:
    """Four requests per quarter second announced in the headers, 24 calls at once: the calls
    wait for each window's reset instead of running into 429s."""
    server = Metered(wire=style, latency_s=0.01, limit=4, window_s=0.25, style=style)  # type: ignore[arg-type]
    limiter = default_limiter()
    traces = await ask(provider_on(server), limiter, 24)
    assert answered(traces)
    assert all(n <= 1 for n in server.rate_limited_per_window().values()), (
        server.rate_limited_per_window()
    )
    assert limiter.waits["limit"] > 0
    assert limiter.windows["requests"].limit == 4


async def test_without_learning_the_same_burst_meets_many_429s() -> None:
    """The same server and burst with the headers ignored: the test above can fail."""
    server = Metered(latency_s=0.01, limit=4, window_s=0.25, style="openai")
    limiter = RateLimiter(
        requests_per_minute=10_000, tokens_per_minute=10**9
    )  # explicit: no learning
    await ask(provider_on(server, max_retries=0), limiter, 24)
    assert max(server.rate_limited_per_window().values()) > 1


async def refused_then(server: Metered, calls: int) -> tuple[RateLimiter, list[Trace]]:
    """One call answered, one refused with the server's fault, then `calls` more asked the
    moment the refusal is out; every trace."""
    limiter = default_limiter()
    provider = provider_on(server)
    traces = await ask(provider, limiter, 1)
    refused = asyncio.create_task(ask(provider, limiter, 1))
    await server.refused.wait()
    traces += await ask(provider, limiter, calls)
    return limiter, traces + await refused


@pytest.mark.parametrize("header", [{"retry-after": "1"}, {"retry-after-ms": "1000"}])
async def test_retry_after_holds_every_call_not_yet_sent(header: dict[str, str]) -> None:
    """A call meets a 429 with a retry-after of a second: the SDK retries it after that second,
    no call asked meanwhile reaches the server before then either, and the refused call is
    sent again by the SDK only, not queued here a second time."""
    server = Metered(latency_s=0.01, faults={2: header})
    limiter, traces = await refused_then(server, 9)
    assert answered(traces)
    _, refused, *later = server.arrivals
    assert refused.status == 429
    assert len(later) == 10
    assert all(a.at >= refused.at + 1.0 for a in later), [a.at - refused.at for a in later]
    assert limiter.waits == {"retry-after": 9}


async def test_an_explicit_request_limit_wins_over_the_headers() -> None:
    """The server says no request is left for 30 s; the run's own 1,000 a minute decide."""
    server = Metered(latency_s=0.01, limit=1, window_s=30.0, style="openai")
    limiter = RateLimiter(requests_per_minute=1_000)
    provider = provider_on(server)
    assert answered(await ask(provider, limiter, 1))
    assert "requests" not in limiter.windows
    await asyncio.wait_for(limiter.acquire(100), timeout=30)  # not held for the window
    assert limiter.waits == {}


async def test_an_explicit_limit_binds_where_the_server_names_none() -> None:
    limiter = RateLimiter(requests_per_minute=1)
    await limiter.acquire(10)
    with pytest.raises(TimeoutError):  # the next call's place comes a minute later
        await asyncio.wait_for(limiter.acquire(10), timeout=0.2)
    assert limiter.waits == {"bucket": 1}
    assert RateLimiter(90).learns == {"tokens", "input_tokens", "output_tokens"}
    assert RateLimiter(None, 10_000).learns == {"requests"}


async def test_the_anthropic_wire_teaches_the_limiter_its_windows() -> None:
    server = Metered(wire="anthropic", latency_s=0.01, limit=50, window_s=60.0, style="anthropic")
    limiter = default_limiter()
    assert answered(await ask(provider_on(server), limiter, 1))
    window = limiter.windows["requests"]
    assert (window.limit, window.remaining) == (50, 49)
    loop_now = asyncio.get_running_loop().time()
    assert 50 < window.reset_at - loop_now <= 61  # type: ignore[operator]


def test_openai_headers_parse() -> None:
    headers = httpx2.Headers(
        {
            "x-ratelimit-limit-requests": "500",
            "x-ratelimit-remaining-requests": "499",
            "x-ratelimit-reset-requests": "120ms",
            "x-ratelimit-limit-tokens": "30000",
            "x-ratelimit-remaining-tokens": "29000",
            "x-ratelimit-reset-tokens": "6m0s",
            "retry-after": "3",
        }
    )
    limits = server_limits(headers, 200, NOW)
    assert set(limits.windows) == {
        Window("requests", 500, 499, 0.12),
        Window("tokens", 30_000, 29_000, 360.0),
    }
    assert limits.retry_after_s is None  # a retry-after on a success holds nothing
    assert server_limits(headers, 429, NOW).retry_after_s == 3.0


def test_anthropic_headers_parse() -> None:
    at = "2025-06-15T15:07:10Z"  # 30 s after NOW
    headers = httpx2.Headers(
        {
            f"anthropic-ratelimit-{name}-{part}": value
            for name in ("requests", "tokens", "input-tokens", "output-tokens")
            for part, value in (("limit", "1000"), ("remaining", "900"), ("reset", at))
        }
    )
    limits = server_limits(headers, 200, NOW)
    assert {w.dimension for w in limits.windows} == {
        "requests",
        "tokens",
        "input_tokens",
        "output_tokens",
    }
    assert all((w.limit, w.remaining, w.reset_s) == (1000, 900, 30.0) for w in limits.windows)


@pytest.mark.parametrize(
    ("value", "seconds"),
    [
        ("6m0s", 360.0),
        ("1s", 1.0),
        ("20ms", 0.02),
        ("1h2m3.5s", 3723.5),
        ("0.5s", 0.5),
        ("2025-06-15T15:06:50Z", 10.0),
        ("2025-06-15T17:06:50+02:00", 10.0),
        ("2025-06-15T15:00:00Z", 0.0),  # already past: now
        ("soon", None),
        ("5 minutes", None),
        ("2025-06-15T15:06:50", None),  # no zone: not a moment
    ],
)
def test_reset_forms(value: str, seconds: float | None) -> None:
    got = reset_seconds(value, NOW)
    assert got is None if seconds is None else got == pytest.approx(seconds)


@pytest.mark.parametrize(
    ("headers", "seconds"),
    [
        ({"retry-after": "2"}, 2.0),
        ({"retry-after": "Sun, 15 Jun 2025 15:06:45 GMT"}, 5.0),
        ({"retry-after-ms": "250", "retry-after": "9"}, 0.25),
        ({"retry-after": "later"}, None),
        ({}, None),
    ],
)
def test_retry_after_forms(headers: dict[str, str], seconds: float | None) -> None:
    for status in (429, 503):
        assert server_limits(httpx2.Headers(headers), status, NOW).retry_after_s == seconds


def test_a_half_stated_window_is_left_out() -> None:
    headers = httpx2.Headers(
        {"x-ratelimit-remaining-requests": "3", "x-ratelimit-limit-tokens": "100"}
    )
    assert server_limits(headers, 200, NOW).windows == ()

"""Verification cost per draft: typical drafts of 100-200 words against traces of 10 events.

Run: `.venv/bin/python -m tests.bench.bench_verify`. Prints microseconds per draft.
"""

from __future__ import annotations

import time
from typing import Any

from verifier.verify import verify

TICKERS = ["ENYW", "GMJ", "LADN", "MCG", "NGZW"]


def make_trace(i: int) -> dict[str, Any]:
    """Ten events (daily moves, news, P&L, a calculation) and a ~150-word draft over them."""
    events: list[dict[str, Any]] = []
    sentences = []
    for k, t in enumerate(TICKERS):
        close, prev = 100 + i % 7 + k * 13.37, 98.5 + k * 13.1
        pct = round((close - prev) / prev * 100, 2)
        events.append(
            {
                "id": f"m{k}",
                "tool": "get_daily_move",
                "args": {"ticker": t, "date": "2024-03-27"},
                "result": {
                    "ticker": t,
                    "session": "2024-03-27",
                    "previous_session": "2024-03-26",
                    "close": round(close, 2),
                    "previous_close": round(prev, 2),
                    "change": round(close - prev, 2),
                    "change_pct": pct,
                },
            }
        )
        word = "rose" if pct >= 0 else "fell"
        sentences.append(
            f"{t} {word} {abs(pct):.2f}% on March 27, 2024 to close at ${close:,.2f}, "
            f"against a previous close of {prev:.2f} on 2024-03-26"
        )
    news = [
        {
            "headline": f"Company {n} announces quarterly results ahead of estimates",
            "session": "before",
            "published_at": "2024-03-27T12:00:00Z",
            "source": "Reuters",
        }
        for n in range(3)
    ]
    for k, t in enumerate(TICKERS[:3]):
        events.append(
            {
                "id": f"n{k}",
                "tool": "search_news",
                "args": {"ticker": t},
                "result": {"ticker": t, "news": news},
            }
        )
    events.append(
        {
            "id": "p0",
            "tool": "get_position_pnl",
            "args": {"ticker": "ENYW", "portfolio_id": "P001"},
            "result": {
                "ticker": "ENYW",
                "market_value": 119473.38,
                "day_pnl": 4293.81,
                "pnl_pct": 3.73,
                "contribution_pct": 0.85,
            },
        }
    )
    events.append(
        {
            "id": "c0",
            "tool": "calculate",
            "args": {"expression": "4293.81/119473.38"},
            "result": {"value": 0.035939},
        }
    )
    draft = (
        ". ".join(sentences)
        + '. The news flow was "Company 1 announces quarterly results ahead of '
        'estimates". The ENYW position gained $4,293.81 (3.73%), 85 bps of the portfolio, on a market '
        "value of $119.5K, a 3.6% return. Overall the portfolio had a constructive session with most "
        "holdings finishing higher and volumes close to their recent averages."
    )
    return {
        "question": "Summarise the portfolio's day on 2024-03-27.",
        "requires": ["percentage"],
        "events": events,
        "draft": draft,
    }


def main() -> None:
    traces = [make_trace(i) for i in range(200)]
    words = sum(len(t["draft"].split()) for t in traces) / len(traces)
    assert all(verify(t).accepted for t in traces[:5]), verify(traces[0]).reasons
    for t in traces[:20]:
        verify(t)
    rounds, best = 5, float("inf")
    for _ in range(rounds):
        start = time.perf_counter()
        for t in traces:
            verify(t)
        best = min(best, (time.perf_counter() - start) / len(traces))
    print(
        f"verify: {best * 1e6:.0f} us per draft (best of {rounds} x {len(traces)}; "
        f"{words:.0f} words, 10 events, {len(verify(traces[0]).claims)} claims)"
    )


if __name__ == "__main__":
    main()

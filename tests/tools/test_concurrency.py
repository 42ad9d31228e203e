"""The tools of one model turn run from many threads at once, each on its own cursor."""

from __future__ import annotations

import random
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from tools.catalog import Catalog
from tools.registry import call_tool


def mixed_calls(catalog: Catalog) -> list[tuple[str, dict[str, Any]]]:
    tickers = sorted(catalog.listings)[:12]
    days = [d.isoformat() for d in catalog.sessions[-40::7]]
    out: list[tuple[str, dict[str, Any]]] = []
    for i, ticker in enumerate(tickers):
        day = days[i % len(days)]
        out += [
            ("get_price", {"ticker": ticker, "date": day}),
            ("get_daily_move", {"ticker": ticker, "date": day}),
            ("get_price_change", {"ticker": ticker, "start": "2024-03-01", "end": day}),
            ("search_news", {"ticker": ticker, "start": "2024-09-01", "end": day}),
            (
                "run_sql",
                {"sql": f"SELECT date, close FROM prices WHERE ticker = '{ticker}' ORDER BY date"},
            ),
        ]
    out += [("get_portfolio", {"portfolio_id": p}) for p in ("P001", "P002", "P003")]
    return out


def test_threads_give_the_sequential_results(catalog: Catalog) -> None:
    calls = mixed_calls(catalog)
    expected = [call_tool(catalog, name, args) for name, args in calls]
    assert not [r for r in expected if "error" in r]
    order = list(range(len(calls))) * 4
    random.Random(3).shuffle(order)
    with ThreadPoolExecutor(max_workers=16) as pool:
        results = list(pool.map(lambda i: (i, call_tool(catalog, *calls[i])), order))
    for i, result in results:
        assert result == expected[i], calls[i]

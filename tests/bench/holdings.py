"""Who holds what on the report date: the tickers a night reports on, for the benchmark's
driver and peer (the flow reads the same from its portfolio tables)."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

from tests.bench.probe import Probe
from tools.catalog import Catalog
from tools.registry import call_tool


def holders_in(catalog: Catalog) -> dict[str, list[str]]:
    """Each held ticker and the portfolios holding it, in ticker order."""
    owners: dict[str, list[str]] = {}
    for pid in catalog.portfolio_ids():
        for holding in call_tool(catalog, "get_portfolio", {"portfolio_id": pid})["holdings"]:
            owners.setdefault(holding["ticker"], []).append(pid)
    return dict(sorted(owners.items()))


async def answer_every_ticker(
    holders: dict[str, list[str]],
    concurrency: int,
    answer_ticker: Callable[[str, list[str]], Awaitable[None]],
    probe: Probe,
    finish: Callable[[], None] | None = None,
) -> None:
    """Every held ticker answered, at most `concurrency` at once, then `finish` (what ends the
    phase: the verifier processes); the probe times the phase."""
    gate = asyncio.Semaphore(concurrency)

    async def one(ticker: str, portfolios: list[str]) -> None:
        async with gate:
            await answer_ticker(ticker, portfolios)

    probe.begin_answering()
    try:
        await asyncio.gather(*(one(t, p) for t, p in holders.items()))
    finally:
        if finish is not None:
            finish()
    probe.end_answering()

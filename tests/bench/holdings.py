"""Who holds what on the report date: the tickers a night reports on, for the benchmark's
driver and peer (the flow reads the same from its portfolio tables)."""

from __future__ import annotations

from tools.catalog import Catalog
from tools.registry import call_tool


def holders_in(catalog: Catalog) -> dict[str, list[str]]:
    """Each held ticker and the portfolios holding it, in ticker order."""
    owners: dict[str, list[str]] = {}
    for pid in catalog.portfolio_ids():
        for holding in call_tool(catalog, "get_portfolio", {"portfolio_id": pid})["holdings"]:
            owners.setdefault(holding["ticker"], []).append(pid)
    return dict(sorted(owners.items()))

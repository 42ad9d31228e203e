"""How a run's tokens are split before any ticker starts: equal ticker shares, and a pool.

Each ticker named when the run starts gets `run_tokens // tickers`; the remainder opens the pool,
and whatever a ticker still holds when it closes goes there too. A ticker draws on the pool only
once its own share is spent (`agent.budget.meter.TickerBudget`), so early tickers cannot starve
later ones, and a shard that runs its own `RunBudget` over its share needs no counter shared
across processes.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple


class Shares(NamedTuple):
    """The split of one run: each ticker's share, in the order named, and the pool's opening."""

    tickers: list[str]
    share: int
    pool: int


def split_run(run_tokens: int, tickers: Sequence[str]) -> Shares:
    """Equal shares for the distinct tickers (a repeated name counts once); the rest to the pool."""
    names = list(dict.fromkeys(tickers))
    share = run_tokens // len(names) if names else 0
    return Shares(names, share, run_tokens - share * len(names))

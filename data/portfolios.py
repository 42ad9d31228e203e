"""Simulated portfolios: holdings that change over time, one full snapshot per change.

`cost_basis` is the average cost per share in the company's currency: buying more moves it to
the weighted average, selling leaves it alone, a split divides it by the ratio (and multiplies
the quantity). A delisted ticker is sold on its last session.
"""

from __future__ import annotations

import numpy as np
import pyarrow as pa

from data.contract import HOLDINGS, PORTFOLIOS
from data.simulated_market import Market, Specials
from data.universe import Universe

NAMES = (
    "Core Growth", "Dividend Income", "Balanced Allocation", "Technology Leaders",
    "Small Cap Value", "Global Opportunities", "Quality Compounders", "Defensive Equity",
)  # fmt: skip
MIN_HOLDINGS, MAX_HOLDINGS = 8, 25

Position = list[float]  # [quantity, cost_basis]


def portfolio_id(index: int) -> str:
    """Stable identifiers P001, P002, ..."""
    return f"P{index + 1:03d}"


def portfolio_name(index: int) -> str:
    """Display names, numbered once the list runs out."""
    rounds = index // len(NAMES)
    return NAMES[index % len(NAMES)] + (f" {rounds + 1}" if rounds else "")


class _Book:
    """One portfolio's positions as it is simulated session by session."""

    def __init__(self, rng: np.random.Generator, market: Market, s: Specials) -> None:
        self.rng, self.market, self.s = rng, market, s
        self.positions: dict[int, Position] = {}

    def buyable(self, t: int) -> np.ndarray:
        ok = self.market.traded[t].copy()
        ok[list(self.positions)] = False
        if t >= self.s.last_session - 5:
            ok[self.s.delisted_ticker] = False
        return np.nonzero(ok)[0]

    def open_position(self, t: int, i: int, cost: float) -> None:
        price = float(self.market.close[t, i])
        quantity = max(1.0, float(round(self.rng.uniform(5e3, 1e5) / price)))
        self.positions[i] = [quantity, round(cost, 4)]

    def trade(self, t: int) -> None:
        """One random change: buy more, sell some, add a ticker or drop one."""
        held = sorted(i for i in self.positions if self.market.traded[t, i])
        action = self.rng.choice(["buy", "sell", "add", "remove"])
        candidates = self.buyable(t)
        if action == "add" and len(self.positions) < MAX_HOLDINGS and candidates.size:
            i = int(self.rng.choice(candidates))
            self.open_position(t, i, float(self.market.close[t, i]))
        elif action == "remove" and len(self.positions) > MIN_HOLDINGS and held:
            del self.positions[int(self.rng.choice(held))]
        elif held:
            i = int(self.rng.choice(held))
            quantity, cost = self.positions[i]
            change = max(1.0, float(round(quantity * self.rng.uniform(0.1, 0.5))))
            if action == "sell" and change < quantity:
                self.positions[i] = [quantity - change, cost]
            else:
                price = float(self.market.close[t, i])
                average = (quantity * cost + change * price) / (quantity + change)
                self.positions[i] = [quantity + change, round(average, 4)]

    def apply_split(self, t: int) -> None:
        """Before any trade of the split session: more shares, each at a lower cost."""
        s = self.s
        if t == s.split_session and s.split_ticker in self.positions:
            quantity, cost = self.positions[s.split_ticker]
            self.positions[s.split_ticker] = [
                quantity * s.split_ratio,
                round(cost / s.split_ratio, 4),
            ]

    def settle_session(self, t: int) -> None:
        """Sell the delisted ticker on its last session, then top up to the minimum size."""
        s = self.s
        if t == s.last_session:
            self.positions.pop(s.delisted_ticker, None)
        while len(self.positions) < MIN_HOLDINGS:
            i = int(self.rng.choice(self.buyable(t)))
            self.open_position(t, i, float(self.market.close[t, i]))


def simulate_book(
    rng: np.random.Generator, market: Market, s: Specials, must_hold: list[int]
) -> list[tuple[int, dict[int, Position]]]:
    """Snapshots (session index, positions) of one portfolio, the first on the first session."""
    book = _Book(rng, market, s)
    size = min(int(rng.integers(MIN_HOLDINGS, MAX_HOLDINGS + 1)), market.traded.shape[1] - 2)
    for i in must_hold:
        book.open_position(0, i, float(market.close[0, i]) * rng.uniform(0.6, 1.3))
    while len(book.positions) < size:
        i = int(rng.choice(book.buyable(0)))
        book.open_position(0, i, float(market.close[0, i]) * rng.uniform(0.6, 1.3))
    snapshots = [(0, {i: list(p) for i, p in book.positions.items()})]
    days = len(market.sessions)
    trades = set(np.cumsum(rng.integers(10, 40, days // 10 + 1)).tolist())
    for t in sorted((trades | {s.split_session, s.last_session}) & set(range(1, days))):
        before = {i: list(p) for i, p in book.positions.items()}
        book.apply_split(t)
        if t in trades:
            book.trade(t)
        book.settle_session(t)
        if book.positions != before:
            snapshots.append((t, {i: list(p) for i, p in book.positions.items()}))
    return snapshots


def build_portfolios(
    rng: np.random.Generator, universe: Universe, market: Market, s: Specials, count: int
) -> tuple[pa.Table, pa.Table]:
    """The `portfolios` and `holdings` tables; the first books hold the split, delisted and halted tickers."""
    must = [[s.split_ticker, s.delisted_ticker], [s.halt_ticker]]
    rows: dict[str, list] = {name: [] for name in HOLDINGS.columns}
    for p in range(count):
        for t, positions in simulate_book(rng, market, s, must[p] if p < len(must) else []):
            for i in sorted(positions):
                rows["portfolio_id"].append(portfolio_id(p))
                rows["as_of"].append(market.sessions[t])
                rows["ticker"].append(universe.tickers[i])
                rows["quantity"].append(positions[i][0])
                rows["cost_basis"].append(positions[i][1])
    portfolios = pa.table(
        {
            "portfolio_id": [portfolio_id(p) for p in range(count)],
            "name": [portfolio_name(p) for p in range(count)],
            "base_currency": ["USD"] * count,
            "benchmark": [None] * count,  # measured against the universe's equal-weight move
        },
        schema=PORTFOLIOS.schema,
    )
    return portfolios, pa.table(rows, schema=HOLDINGS.schema)

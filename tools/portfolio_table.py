"""The portfolio table at the top of each report: market value, day P&L and return, and the top
contributors and detractors, computed in code from the tools' results (never by the model)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import date

from pydantic import BaseModel, Field, computed_field

from contract.tools import ToolFailure, ToolOutcome, ToolResult
from tools.catalog import Catalog
from tools.gate import TRUSTED, ToolScope
from tools.prices import closes_of, round_price, split_ratios
from tools.registry import run_tool

TOP_N = 3
HISTORY_SESSIONS = 21
"""A month of sessions: the price line of a material mover in the HTML report."""
MATERIAL_MOVE_PCT = 2.0
"""A position's move is material when its day P&L is at least this share (in %) of its value..."""
MATERIAL_CONTRIBUTION_PCT = 0.2
"""...or its contribution to the portfolio's day return at least this many percentage points
(both in absolute terms): a large move of a small holding, or a small move of a large one."""


class PositionRow(BaseModel):
    """One holding on the report date, as `get_position_pnl` reported it (or why it could not),
    with its company, sector and weight as `get_portfolio_ranks` states them."""

    ticker: str
    name: str = ""
    sector: str = ""
    weight_pct: float | None = None
    quantity: float | None = None
    close: float | None = None
    market_value: float | None = None
    day_pnl: float | None = None
    pnl_pct: float | None = None
    contribution_pct: float | None = None
    price_basis: str | None = None
    error: str | None = None

    @property
    def material(self) -> bool:
        """Whether the day moved this position enough to lead the report (`MATERIAL_*`)."""
        move, contribution = abs(self.pnl_pct or 0.0), abs(self.contribution_pct or 0.0)
        return move >= MATERIAL_MOVE_PCT or contribution >= MATERIAL_CONTRIBUTION_PCT


class Benchmark(BaseModel):
    """What the portfolio's day is held against: its benchmark ticker, or the equal-weight move
    of every ticker priced that day (`tools.analytics.benchmark_move`)."""

    name: str
    ticker: str | None = None
    return_pct: float | None = None
    constituents: int | None = None
    note: str | None = None


class PricePoint(BaseModel):
    day: date
    close: float


class PortfolioTable(BaseModel):
    """Totals and ranked positions of one portfolio on one session."""

    portfolio_id: str
    name: str = ""
    base_currency: str = ""
    report_date: date
    holdings_as_of: str | None = None
    market_value: float | None = None
    day_pnl: float | None = None
    day_return_pct: float | None = None
    positions: list[PositionRow] = Field(default_factory=list)
    contributors: list[str] = Field(default_factory=list)
    detractors: list[str] = Field(default_factory=list)
    benchmark: Benchmark | None = None
    history: dict[str, list[PricePoint]] = Field(default_factory=dict)
    """The closes of each material mover over its last `HISTORY_SESSIONS` sessions, splits
    taken out, for the report's price lines."""
    error: str | None = None

    @computed_field  # type: ignore[prop-decorator]
    @property
    def excess_return_pct(self) -> float | None:
        """The portfolio's day return less its benchmark's, in percentage points."""
        if self.day_return_pct is None or self.benchmark is None:
            return None
        if self.benchmark.return_pct is None:
            return None
        return round(self.day_return_pct - self.benchmark.return_pct, 2) + 0.0

    def by_contribution(self) -> list[PositionRow]:
        """The positions in the order of what mattered: largest contribution first, then the
        ones without a figure."""
        return sorted(
            self.positions,
            key=lambda r: (r.error is not None, -(r.contribution_pct or 0.0), r.ticker),
        )

    @property
    def tickers(self) -> list[str]:
        return [p.ticker for p in self.positions]

    @property
    def price_bases(self) -> list[str]:
        """How the closes of the table treat splits, as the tools name it, each basis once."""
        return sorted({p.price_basis for p in self.positions if p.price_basis})

    @computed_field  # type: ignore[prop-decorator]
    @property
    def unpriced(self) -> list[str]:
        """Holdings the totals leave out: no price or no day change for them on the date."""
        return [p.ticker for p in self.positions if p.error]


def build_portfolio_table(
    portfolio_id: str,
    outcome: ToolOutcome,
    pnls: Mapping[str, ToolOutcome],
    report_date: date,
) -> PortfolioTable:
    """The table from one `get_portfolio` outcome and a `get_position_pnl` outcome per ticker."""
    pid = portfolio_id
    if isinstance(outcome, ToolFailure):
        return PortfolioTable(portfolio_id=pid, report_date=report_date, error=outcome.message)
    portfolio = outcome.data
    if not portfolio.get("holdings"):
        message = f"{pid} holds nothing on {report_date}"
        return PortfolioTable(portfolio_id=pid, report_date=report_date, error=message)
    rows = [position_row(h["ticker"], pnls.get(h["ticker"])) for h in portfolio["holdings"]]
    priced = [r for r in rows if r.error is None]
    table = PortfolioTable(
        portfolio_id=pid,
        name=str(portfolio.get("name", "")),
        base_currency=str(portfolio.get("base_currency", "")),
        report_date=report_date,
        holdings_as_of=portfolio.get("holdings_as_of"),
        positions=rows,
    )
    if not priced:
        return table
    table.market_value = round(sum(r.market_value or 0.0 for r in priced), 2)
    table.day_pnl = round(sum(r.day_pnl or 0.0 for r in priced), 2)
    before = _previous_value(pnls.values())
    if before:
        table.day_return_pct = round(table.day_pnl / before * 100, 2)
    ranked = sorted(priced, key=lambda r: (r.day_pnl or 0.0, r.ticker))
    table.contributors = [r.ticker for r in reversed(ranked) if (r.day_pnl or 0) > 0][:TOP_N]
    table.detractors = [r.ticker for r in ranked if (r.day_pnl or 0) < 0][:TOP_N]
    return table


def position_row(ticker: str, pnl: ToolOutcome | None) -> PositionRow:
    if pnl is None:
        return PositionRow(ticker=ticker, error="no position result")
    if isinstance(pnl, ToolFailure):
        return PositionRow(ticker=ticker, error=pnl.message)
    fields = (
        "quantity",
        "close",
        "market_value",
        "day_pnl",
        "pnl_pct",
        "contribution_pct",
        "price_basis",
    )
    return PositionRow.model_validate({"ticker": ticker, **{k: pnl.data.get(k) for k in fields}})


def collect_portfolio_table(
    catalog: Catalog, portfolio_id: str, report_date: date
) -> PortfolioTable:
    """Ask the tools for the holdings and each position's P&L, then build the table."""
    scope = ToolScope.question(["get_portfolio", "get_position_pnl"], portfolio_id)
    portfolio = run_tool(catalog, "get_portfolio", {"portfolio_id": portfolio_id}, scope)
    holdings = portfolio.data.get("holdings", []) if isinstance(portfolio, ToolResult) else []
    pnls: dict[str, ToolOutcome] = {}
    for holding in holdings:
        args = {"portfolio_id": portfolio_id, "ticker": holding["ticker"], "date": str(report_date)}
        pnls[holding["ticker"]] = run_tool(catalog, "get_position_pnl", args, scope)
    table = build_portfolio_table(portfolio_id, portfolio, pnls, report_date)
    if table.error is None:
        ranks = run_tool(
            catalog,
            "get_portfolio_ranks",
            {"portfolio_id": portfolio_id, "date": str(report_date)},
            TRUSTED,
        )
        add_ranks(table, ranks)
        for row in table.positions:
            if row.error is None and row.material:
                table.history[row.ticker] = price_history(catalog, row.ticker, report_date)
    return table


def add_ranks(table: PortfolioTable, ranks: ToolOutcome) -> None:
    """Each position's company, sector and weight, and the benchmark, from `get_portfolio_ranks`
    (the table stays as it is when the tool fails: the report says what it has)."""
    if not isinstance(ranks, ToolResult):
        return
    rows = {r["ticker"]: r for r in ranks.data.get("positions", [])}
    for position in table.positions:
        row = rows.get(position.ticker)
        if row is not None:
            position.name = str(row.get("name") or "")
            position.sector = str(row.get("sector") or "")
            position.weight_pct = row.get("weight_pct")
    benchmark = ranks.data.get("benchmark")
    if isinstance(benchmark, dict) and benchmark.get("name"):
        table.benchmark = Benchmark.model_validate(benchmark)


def price_history(catalog: Catalog, ticker: str, report_date: date) -> list[PricePoint]:
    """The last `HISTORY_SESSIONS` closes up to the report date, each earlier close divided by
    the splits since (so a split is no cliff in the line)."""
    rows = closes_of(catalog, ticker).upto(report_date)[-HISTORY_SESSIONS:]
    if not rows:
        return []
    splits = split_ratios(catalog, ticker, rows[0][0], report_date)
    points = []
    for day, close in rows:
        factor = 1.0
        for split_day, ratio in splits:
            if day < split_day:
                factor *= ratio
        points.append(PricePoint(day=day, close=round_price(close / factor)))
    return points


def _previous_value(pnls: Iterable[ToolOutcome]) -> float | None:
    """The portfolio's value at the previous closes, as the P&L tool states it."""
    for pnl in pnls:
        if not isinstance(pnl, ToolResult):
            continue
        value = pnl.data.get("portfolio_value_previous_close")
        if isinstance(value, int | float) and value > 0:
            return float(value)
    return None

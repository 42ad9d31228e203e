"""The portfolio table at the top of each report: market value, day P&L and return, and the top
contributors and detractors, computed in code from the tools' results (never by the model)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import date
from typing import Any

from pydantic import BaseModel, Field

TOP_N = 3

ToolCaller = Callable[[str, dict[str, Any]], dict[str, Any]]


class PositionRow(BaseModel):
    """One holding on the report date, as `get_position_pnl` reported it (or why it could not)."""

    ticker: str
    quantity: float | None = None
    close: float | None = None
    market_value: float | None = None
    day_pnl: float | None = None
    pnl_pct: float | None = None
    contribution_pct: float | None = None
    error: str | None = None


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
    error: str | None = None

    @property
    def tickers(self) -> list[str]:
        return [p.ticker for p in self.positions]


def build_portfolio_table(
    portfolio: dict[str, Any], pnls: dict[str, dict[str, Any]], report_date: date
) -> PortfolioTable:
    """The table from one `get_portfolio` result and a `get_position_pnl` result per ticker."""
    pid = str(portfolio.get("portfolio_id", ""))
    if "error" in portfolio:
        return PortfolioTable(portfolio_id=pid, report_date=report_date, error=portfolio["error"])
    rows = [position_row(h["ticker"], pnls.get(h["ticker"], {})) for h in portfolio["holdings"]]
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
    before = _previous_value(pnls)
    if before:
        table.day_return_pct = round(table.day_pnl / before * 100, 2)
    ranked = sorted(priced, key=lambda r: (r.day_pnl or 0.0, r.ticker))
    table.contributors = [r.ticker for r in reversed(ranked) if (r.day_pnl or 0) > 0][:TOP_N]
    table.detractors = [r.ticker for r in ranked if (r.day_pnl or 0) < 0][:TOP_N]
    return table


def position_row(ticker: str, pnl: dict[str, Any]) -> PositionRow:
    if not pnl:
        return PositionRow(ticker=ticker, error="no position result")
    if "error" in pnl:
        return PositionRow(ticker=ticker, error=str(pnl["error"]))
    fields = ("quantity", "close", "market_value", "day_pnl", "pnl_pct", "contribution_pct")
    return PositionRow(ticker=ticker, **{k: pnl.get(k) for k in fields})


def collect_portfolio_table(
    call: ToolCaller, portfolio_id: str, report_date: date
) -> PortfolioTable:
    """Ask the tools for the holdings and each position's P&L, then build the table."""
    portfolio = call("get_portfolio", {"portfolio_id": portfolio_id})
    portfolio.setdefault("portfolio_id", portfolio_id)
    pnls: dict[str, dict[str, Any]] = {}
    for holding in portfolio.get("holdings", []) if "error" not in portfolio else []:
        args = {"portfolio_id": portfolio_id, "ticker": holding["ticker"], "date": str(report_date)}
        pnls[holding["ticker"]] = call("get_position_pnl", args)
    return build_portfolio_table(portfolio, pnls, report_date)


def _previous_value(pnls: dict[str, dict[str, Any]]) -> float | None:
    """The portfolio's value at the previous closes, as the P&L tool states it."""
    for pnl in pnls.values():
        value = pnl.get("portfolio_value_previous_close")
        if isinstance(value, int | float) and value > 0:
            return float(value)
    return None

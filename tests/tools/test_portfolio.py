"""Portfolio tools against holdings and prices read with pandas."""

from __future__ import annotations

from datetime import date, timedelta

import pandas as pd

from tools.catalog import Catalog
from tools.registry import call_tool


def snapshot(frames, portfolio_id: str, day: date) -> pd.DataFrame:
    holdings = frames["holdings"]
    mine = holdings[(holdings.portfolio_id == portfolio_id) & (holdings.as_of <= day)]
    return mine[mine.as_of == mine.as_of.max()].sort_values("ticker")


def economic_previous_close(frames, ticker: str, day: date) -> float:
    prices, events = frames["prices"], frames["events"]
    before = prices[(prices.ticker == ticker) & (prices.date < day)].sort_values("date").iloc[-1]
    splits = events[
        (events.ticker == ticker)
        & (events.kind == "split")
        & (events.date > before.date)
        & (events.date <= day)
    ]
    return before.close / splits.value.prod()


def test_get_portfolio(catalog: Catalog, frames) -> None:
    held = snapshot(frames, "P002", catalog.report_date)
    result = call_tool(catalog, "get_portfolio", {"portfolio_id": "P002"})
    assert result["holdings_as_of"] == held.as_of.iloc[0].isoformat()
    assert result["holdings"] == [
        {"ticker": r.ticker, "quantity": r.quantity, "cost_basis": round(r.cost_basis, 2)}
        for r in held.itertuples()
    ]
    assert result["name"] == frames["portfolios"].set_index("portfolio_id").name["P002"]


def position_figures(frames, portfolio_id: str, ticker: str, day: date) -> dict:
    held = snapshot(frames, portfolio_id, day)
    prices = frames["prices"]
    close = prices[(prices.ticker == ticker) & (prices.date == day)].close.iloc[0]
    base = economic_previous_close(frames, ticker, day)
    quantity = held.set_index("ticker").quantity[ticker]
    total = sum(
        r.quantity * economic_previous_close(frames, r.ticker, day) for r in held.itertuples()
    )
    pnl = quantity * (close - base)
    return {
        "quantity": quantity,
        "close": round(close, 2),
        "previous_close": round(base, 2),
        "market_value": round(quantity * close, 2),
        "day_pnl": round(pnl, 2),
        "pnl_pct": round((close - base) / base * 100, 2),
        "portfolio_value_previous_close": round(total, 2),
        "contribution_pct": round(pnl / total * 100, 2),
    }


def test_get_position_pnl(catalog: Catalog, frames) -> None:
    day = date(2024, 10, 15)
    ticker = snapshot(frames, "P001", day).ticker.iloc[2]
    result = call_tool(
        catalog,
        "get_position_pnl",
        {"portfolio_id": "P001", "ticker": ticker, "date": day.isoformat()},
    )
    assert {
        k: result[k] for k in position_figures(frames, "P001", ticker, day)
    } == position_figures(frames, "P001", ticker, day)


def test_get_position_pnl_on_the_split_day(catalog: Catalog, frames, facts) -> None:
    split = facts.split
    holders = frames["holdings"][frames["holdings"].ticker == split.ticker].portfolio_id
    portfolio_id = sorted(holders)[0]
    result = call_tool(
        catalog,
        "get_position_pnl",
        {"portfolio_id": portfolio_id, "ticker": split.ticker, "date": split.date.isoformat()},
    )
    expected = position_figures(frames, portfolio_id, split.ticker, split.date)
    assert {k: result[k] for k in expected} == expected
    assert abs(result["pnl_pct"]) < 25


def test_unknown_portfolio_lists_the_valid_ids(catalog: Catalog) -> None:
    result = call_tool(catalog, "get_portfolio", {"portfolio_id": "P999"})
    assert result == {"error": "unknown portfolio 'P999'; valid ids: P001, P002, P003"}


def test_position_not_held(catalog: Catalog, frames) -> None:
    day = date(2024, 10, 15)
    held = set(snapshot(frames, "P001", day).ticker)
    other = next(t for t in sorted(frames["companies"].ticker) if t not in held)
    result = call_tool(
        catalog,
        "get_position_pnl",
        {"portfolio_id": "P001", "ticker": other, "date": day.isoformat()},
    )
    assert f"does not hold {other}" in result["error"]


def test_position_on_a_holiday(catalog: Catalog, frames, facts) -> None:
    holiday = next(h for h in facts.holidays if h > date(2024, 3, 1))
    ticker = snapshot(frames, "P001", holiday).ticker.iloc[0]
    result = call_tool(
        catalog,
        "get_position_pnl",
        {"portfolio_id": "P001", "ticker": ticker, "date": holiday.isoformat()},
    )
    assert "not a trading session" in result["error"]


def test_position_after_report_date(catalog: Catalog) -> None:
    later = (catalog.report_date + timedelta(days=1)).isoformat()
    result = call_tool(
        catalog, "get_position_pnl", {"portfolio_id": "P001", "ticker": "ZZZ", "date": later}
    )
    assert "after the report date" in result["error"]

"""The portfolio table is arithmetic in code over tool results."""

from __future__ import annotations

from datetime import date

import pytest

from contract.tools import ToolFailure, ToolResult
from tools.portfolio_table import build_portfolio_table

DAY = date(2024, 6, 3)


def pnl(value: float, day: float, before: float) -> ToolResult:
    return ToolResult(
        {
            "market_value": value,
            "day_pnl": day,
            "pnl_pct": 1.0,
            "portfolio_value_previous_close": before,
        }
    )


def test_totals_return_and_ranking() -> None:
    holdings = {
        "portfolio_id": "P",
        "name": "n",
        "base_currency": "USD",
        "holdings": [{"ticker": t} for t in ("A", "B", "C", "D", "E")],
    }
    pnls = {
        "A": pnl(100.0, 5.0, 1000.0),
        "B": pnl(200.0, -7.5, 1000.0),
        "C": pnl(300.0, 2.0, 1000.0),
        "D": ToolFailure("no session on 2024-06-03"),
        "E": pnl(400.0, 0.0, 1000.0),
    }
    table = build_portfolio_table("P", ToolResult(holdings), pnls, DAY)
    assert table.market_value == pytest.approx(1000.0)
    assert table.day_pnl == pytest.approx(-0.5)
    assert table.day_return_pct == pytest.approx(-0.05)
    assert table.contributors == ["A", "C"]
    assert table.detractors == ["B"]
    assert [p.error for p in table.positions if p.error] == ["no session on 2024-06-03"]


def test_portfolio_error_is_kept() -> None:
    table = build_portfolio_table("P", ToolFailure("unknown portfolio"), {}, DAY)
    assert table.error == "unknown portfolio" and table.positions == []


def test_a_holding_without_a_price_marks_the_table_incomplete() -> None:
    from flows.publish.render import render_markdown
    from flows.publish.report import PortfolioReport

    holdings = {"portfolio_id": "P", "holdings": [{"ticker": "A"}, {"ticker": "B"}]}
    pnls = {"A": pnl(100.0, 5.0, 1000.0), "B": ToolFailure("B has no price for 2024-06-03")}
    table = build_portfolio_table("P", ToolResult(holdings), pnls, DAY)
    assert table.unpriced == ["B"] and table.market_value == pytest.approx(100.0)
    report = PortfolioReport(run_id="r", portfolio_id="P", report_date=DAY, table=table)
    assert "**Incomplete: the totals leave out B" in render_markdown(report)
    assert table.model_dump(mode="json")["unpriced"] == ["B"]


def test_a_portfolio_holding_nothing_has_no_table() -> None:
    table = build_portfolio_table("P", ToolResult({"portfolio_id": "P", "holdings": []}), {}, DAY)
    assert table.error == f"P holds nothing on {DAY}"

"""What changed since the last report: the portfolio's previous report in the same output tree
(the latest earlier date with `accepted/<portfolio>.json`), read back and held against tonight's
table. Every figure is computed here from the two reports' own tables, never by a model."""

from __future__ import annotations

import json
from datetime import date

from pydantic import BaseModel, Field, ValidationError

from contract.errors import InputError
from flows.publish.layout import RunLayout, read_owned
from tools.portfolio_table import PortfolioTable

LOOKBACK_FOLDERS = 60
"""How many earlier date folders are looked at for a previous report, newest first."""


class PositionSince(BaseModel):
    ticker: str
    close_then: float
    close_now: float
    change_pct: float


class SinceLastReport(BaseModel):
    """The previous report's date and value, and what moved between then and tonight."""

    report_date: date
    market_value_then: float | None = None
    market_value_now: float | None = None
    change: float | None = None
    change_pct: float | None = None
    added: list[str] = Field(default_factory=list)
    removed: list[str] = Field(default_factory=list)
    positions: list[PositionSince] = Field(default_factory=list)
    """The positions held both times, by the change of their close, largest first."""


def previous_table(layout: RunLayout, portfolio_id: str) -> PortfolioTable | None:
    """The table of the portfolio's latest report before this date in the tree, if any. An
    unreadable or foreign file is passed over: the section is a courtesy, never a failure."""
    if not layout.root.is_dir():
        return None
    earlier = []
    for folder in layout.root.iterdir():
        try:
            day = date.fromisoformat(folder.name)
        except ValueError:
            continue
        if day < layout.report_date:
            earlier.append(day)
    for day in sorted(earlier, reverse=True)[:LOOKBACK_FOLDERS]:
        path = RunLayout(layout.root, day).report(portfolio_id, ".json")
        if not path.is_file():
            continue
        try:
            data = json.loads(read_owned(path))
            return PortfolioTable.model_validate(data["table"])
        except (InputError, OSError, ValueError, KeyError, TypeError, ValidationError):
            continue
    return None


def since_last(then: PortfolioTable, now: PortfolioTable) -> SinceLastReport | None:
    """Tonight's table against the previous report's; None when that one had no figures."""
    if then.error or now.error or then.report_date >= now.report_date:
        return None
    since = SinceLastReport(report_date=then.report_date)
    since.market_value_then, since.market_value_now = then.market_value, now.market_value
    if then.market_value and now.market_value is not None:
        since.change = round(now.market_value - then.market_value, 2) + 0.0
        since.change_pct = round(since.change / then.market_value * 100, 2) + 0.0
    held_then = {p.ticker: p for p in then.positions if p.close is not None}
    held_now = {p.ticker: p for p in now.positions if p.close is not None}
    since.added = sorted(set(now.tickers) - set(then.tickers))
    since.removed = sorted(set(then.tickers) - set(now.tickers))
    for ticker in sorted(held_then.keys() & held_now.keys()):
        before, after = held_then[ticker].close, held_now[ticker].close
        if before and after is not None:
            change = round((after - before) / before * 100, 2) + 0.0
            since.positions.append(PositionSince(ticker=ticker, close_then=before,
                                                 close_now=after, change_pct=change))  # fmt: skip
    since.positions.sort(key=lambda p: (-abs(p.change_pct), p.ticker))
    return since


def find_since(layout: RunLayout, table: PortfolioTable) -> SinceLastReport | None:
    then = previous_table(layout, table.portfolio_id)
    return None if then is None else since_last(then, table)

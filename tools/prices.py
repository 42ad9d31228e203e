"""Price tools: one close, one day's move, the change over a window. Every result names its
price basis. Changes are economic: for as-traded prices a change across a split compares with
the earlier close divided by the split ratio; split-adjusted prices need no correction."""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass
from datetime import date
from typing import Any

from pydantic import Field

from contract.errors import ToolError
from tools.catalog import Catalog
from tools.fields import IsoDate, Ticker, ToolArgs
from tools.sessions import check_adjacent, check_in_range, find_listing, no_session_error

BASIS_NAMES = {"as_traded": "as traded", "split_adjusted": "split-adjusted by the vendor"}


def price_basis(cat: Catalog, ticker: str) -> str:
    """The basis of a ticker's prices, in words for the model and the reader."""
    basis = cat.listings[ticker].price_basis
    return BASIS_NAMES.get(basis, basis)


def round_price(value: float) -> float:
    return round(value, 2) + 0.0  # no negative zero


def percent(change: float, base: float) -> float:
    """A change as a percentage of its base, 2 decimals."""
    return round(change / base * 100, 2) + 0.0


@dataclass(frozen=True)
class Closes:
    """A ticker's closes in date order: all the catalog holds (none after the price cutoff)."""

    dates: list[date]
    rows: list[tuple[date, float]]

    def upto(self, day: date) -> list[tuple[date, float]]:
        """The closes on or before `day`, oldest first."""
        return self.rows[: bisect_right(self.dates, day)]


def closes_of(cat: Catalog, ticker: str) -> Closes:
    """The ticker's closes, read once while its questions are answered: the day's move, its
    trend, its changes and its chart all read them, and a DuckDB query costs half a
    millisecond or more however few rows it returns."""

    def load() -> Closes:
        with cat.cursor() as cur:
            rows: list[tuple[date, float]] = cur.execute(
                "SELECT date, close FROM prices WHERE ticker = $t ORDER BY date", {"t": ticker}
            ).fetchall()
        return Closes([day for day, _ in rows], rows)

    return cat.memo_recent(("closes", ticker), load)


def split_ratios(cat: Catalog, ticker: str, after: date, until: date) -> list[tuple[date, float]]:
    """Splits of the ticker dated in (after, until] that its prices still show, with their ratios."""
    if not cat.listings[ticker].adjusts_for_splits:
        return []
    return [(d, r) for d, r in splits_by_ticker(cat).get(ticker, ()) if after < d <= until]


def splits_by_ticker(cat: Catalog) -> dict[str, list[tuple[date, float]]]:
    """Every ticker's splits in date order, read once per catalog (a few rows per ticker at
    most) instead of one query per price change: a DuckDB query costs a millisecond or two
    whatever it reads."""
    return cat.memo("splits", lambda: _load_splits(cat))


def _load_splits(cat: Catalog) -> dict[str, list[tuple[date, float]]]:
    with cat.cursor() as cur:
        rows = cur.execute(
            "SELECT ticker, date, value FROM events WHERE kind = 'split' AND value > 0 "
            "ORDER BY ticker, date"
        ).fetchall()
    splits: dict[str, list[tuple[date, float]]] = {}
    for ticker, day, value in rows:
        splits.setdefault(ticker, []).append((day, float(value)))
    return splits


def split_note(splits: list[tuple[date, float]]) -> dict[str, Any]:
    factor = 1.0
    for _, ratio in splits:
        factor *= ratio
    return {
        "splits": [{"date": d.isoformat(), "ratio": r} for d, r in splits],
        "split_factor": factor,
        "note": (
            "split-adjusted: the earlier close is divided by the split ratio "
            f"{factor:g} before the change is computed"
        ),
    }


class PriceArgs(ToolArgs):
    ticker: Ticker
    date: IsoDate


def get_price(cat: Catalog, args: PriceArgs) -> dict[str, Any]:
    """The close of the last session on or before a date, and the basis of its prices."""
    listing = find_listing(cat, args.ticker)
    check_in_range(cat, listing, args.date)
    with cat.cursor() as cur:
        row = cur.execute(
            "SELECT date, open, high, low, close, volume FROM prices "
            "WHERE ticker = $t AND date <= $d ORDER BY date DESC LIMIT 1",
            {"t": args.ticker, "d": args.date},
        ).fetchone()
    assert row is not None
    session, open_, high, low, close, volume = row
    result: dict[str, Any] = {
        "ticker": args.ticker,
        "date": args.date.isoformat(),
        "session": session.isoformat(),
        "close": round_price(close),
        "open": round_price(open_),
        "high": round_price(high),
        "low": round_price(low),
        "volume": volume,
        "price_basis": price_basis(cat, args.ticker),
    }
    if session != args.date:
        result["note"] = f"no session on {args.date}; the last session on or before it is {session}"
    return result


class DailyMoveArgs(ToolArgs):
    ticker: Ticker
    date: IsoDate = Field(description="The session, ISO date YYYY-MM-DD")


def get_daily_move(cat: Catalog, args: DailyMoveArgs) -> dict[str, Any]:
    """Close, previous session's close and date, and the day's change of one ticker."""
    listing = find_listing(cat, args.ticker)
    check_in_range(cat, listing, args.date)
    rows = closes_of(cat, args.ticker).upto(args.date)[-2:][::-1]
    if not rows or rows[0][0] != args.date:
        raise no_session_error(cat, listing, args.date)
    if len(rows) < 2:
        raise ToolError(
            f"{args.date} is the first session of {args.ticker}; there is no previous close"
        )
    (session, close), (prev_session, prev_close) = rows
    check_adjacent(args.ticker, prev_session, session)
    splits = split_ratios(cat, args.ticker, prev_session, session)
    return {
        "ticker": args.ticker,
        "session": session.isoformat(),
        "previous_session": prev_session.isoformat(),
        "price_basis": price_basis(cat, args.ticker),
        **change_between(prev_close, close, splits, "close", "previous_close"),
    }


def change_between(
    start: float, end: float, splits: list[tuple[date, float]], end_key: str, start_key: str
) -> dict[str, Any]:
    """Both closes, the change and the change in %, split-adjusted when splits lie between."""
    base = start
    result: dict[str, Any] = {end_key: round_price(end), start_key: round_price(start)}
    if splits:
        note = split_note(splits)
        base = start / note["split_factor"]
        result[f"{start_key}_adjusted"] = round_price(base)
        result.update(note)
    result["change"] = round_price(end - base)
    result["change_pct"] = percent(end - base, base)
    return result


class PriceChangeArgs(ToolArgs):
    ticker: Ticker
    start: IsoDate = Field(description="Start of the window, ISO date YYYY-MM-DD")
    end: IsoDate = Field(description="End of the window, ISO date YYYY-MM-DD")


def get_price_change(cat: Catalog, args: PriceChangeArgs) -> dict[str, Any]:
    """The change between the last sessions on or before two dates, split-adjusted."""
    if args.start >= args.end:
        raise ToolError(f"start {args.start} must be before end {args.end}")
    listing = find_listing(cat, args.ticker)
    check_in_range(cat, listing, args.start, "start")
    check_in_range(cat, listing, args.end, "end")
    closes = closes_of(cat, args.ticker)
    (start_session, start_close), (end_session, end_close) = (
        closes.upto(day)[-1] for day in (args.start, args.end)
    )
    if start_session == end_session:
        raise ToolError(
            f"{args.ticker} has no session between {args.start} and {args.end}; widen the window"
        )
    splits = split_ratios(cat, args.ticker, start_session, end_session)
    return {
        "ticker": args.ticker,
        "start_session": start_session.isoformat(),
        "end_session": end_session.isoformat(),
        "price_basis": price_basis(cat, args.ticker),
        **change_between(start_close, end_close, splits, "end_close", "start_close"),
    }

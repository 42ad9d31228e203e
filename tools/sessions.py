"""Which session a tool may use for a ticker and a date, and the errors that say why not.

The rules are the same for every tool: nothing after the report date, nothing before a
ticker's first session, a delisted ticker ends at its last session, and a day without a
session names the nearest sessions instead.
"""

from __future__ import annotations

import difflib
from bisect import bisect_left, bisect_right
from datetime import date

from contract.errors import ToolError
from data.calendar import previous_session, trading_days
from tools.catalog import Catalog, Listing


def find_listing(cat: Catalog, ticker: str) -> Listing:
    """The ticker's listing, or an error naming similar tickers."""
    listing = cat.listings.get(ticker)
    if listing is None:
        raise unknown_ticker(cat, ticker)
    if listing.first is None or listing.last is None:
        raise ToolError(f"{ticker} has no prices on or before the report date {cat.report_date}")
    return listing


def unknown_ticker(cat: Catalog, ticker: str) -> ToolError:
    """The error for a ticker the companies table lacks, naming similar ones."""
    close = difflib.get_close_matches(ticker, list(cat.listings), n=3, cutoff=0.5)
    hint = f"; did you mean {', '.join(close)}?" if close else ""
    return ToolError(
        f"unknown ticker {ticker!r}{hint} ({len(cat.listings)} tickers are in the companies table)"
    )


def check_not_after_report(cat: Catalog, day: date, name: str = "date") -> None:
    if day > cat.report_date:
        raise ToolError(
            f"{name} {day} is after the report date {cat.report_date}; "
            f"use a date on or before {cat.report_date}"
        )


def check_in_range(cat: Catalog, listing: Listing, day: date, name: str = "date") -> None:
    """Refuse dates after the report date, before the first session or after a delisting."""
    assert listing.first is not None and listing.last is not None
    check_not_after_report(cat, day, name)
    if day < listing.first:
        raise ToolError(
            f"{name} {day} is before the first session of {listing.ticker}, {listing.first}; "
            f"its prices run from {listing.first} to {listing.last}"
        )
    if day > listing.last and market_sessions_between(cat, listing.last, day):
        raise ToolError(
            f"{listing.ticker} has not traded since its last session {listing.last} "
            f"(delisted or suspended); use a date on or before {listing.last}"
        )


def market_sessions_between(cat: Catalog, after: date, until: date) -> list[date]:
    """Market sessions in (after, until]."""
    return cat.sessions[bisect_right(cat.sessions, after) : bisect_right(cat.sessions, until)]


def ticker_sessions_around(cat: Catalog, ticker: str, day: date) -> tuple[date | None, date | None]:
    """The ticker's last session before `day` and its first session after it."""
    with cat.cursor() as cur:
        row = cur.execute(
            "SELECT max(date) FILTER (WHERE date < $d), min(date) FILTER (WHERE date > $d) "
            "FROM prices WHERE ticker = $t",
            {"t": ticker, "d": day},
        ).fetchone()
    assert row is not None
    return row[0], row[1]


def no_session_error(cat: Catalog, listing: Listing, day: date) -> ToolError:
    """The error for a day the ticker did not trade, naming the nearest sessions."""
    before, after = ticker_sessions_around(cat, listing.ticker, day)
    if day > cat.price_cutoff:
        return ToolError(
            f"the session of {day} had not closed by the as-of moment {cat.as_of.isoformat()}; "
            f"the last closed session of {listing.ticker} is {before}"
        )
    i = bisect_left(cat.sessions, day)
    market_open = i < len(cat.sessions) and cat.sessions[i] == day
    why = (
        f"{listing.ticker} did not trade on {day} (trading halt)"
        if market_open
        else f"{day} is not a trading session (weekend or exchange holiday)"
    )
    nearest = [str(d) for d in (before, after) if d is not None]
    return ToolError(f"{why}; the nearest sessions are {' and '.join(nearest)}")


def check_adjacent(ticker: str, previous: date, day: date) -> None:
    """A day's change is between two adjacent sessions of the exchange calendar: a gap in a
    ticker's prices (missing sessions) makes it unavailable, not a change over several days."""
    expected = previous_session(day)
    if previous < expected:
        missing = len(trading_days(previous, expected)) - 1
        raise ToolError(
            f"{ticker} has no price for {expected}, the session before {day} (its last price "
            f"before is on {previous}, {missing} session(s) missing), so there is no day change; "
            f"get_price_change from {previous} to {day} gives the change over the gap"
        )

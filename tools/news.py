"""News and corporate events of one ticker in a window.

News is dated on the exchange's clock: a window's days are the exchange's days, each
headline's `published_at` is written in the exchange's time zone with its offset (a post at
00:15 UTC on January 1 is `2024-12-31T19:15:00-05:00`, news of December 31 in New York), and
each says whether it came before, during or after that day's session (or on a day without
one). Syndicated copies, the same headline (links aside) from another source within the same
day, are dropped in favour of the earliest. Posts that are not news about the company never
reach the tool: the importer drops them (`data.news_screen`).
"""

from __future__ import annotations

import math
from bisect import bisect_left
from datetime import date, datetime, time, timedelta
from typing import Any

from pydantic import Field

from contract.errors import ToolError
from data.headlines import normalise_headline
from tools.catalog import Catalog, Listing
from tools.fields import IsoDate, Ticker, ToolArgs
from tools.sessions import check_not_after_report, find_listing
from tools.values import iso_local, iso_utc

MAX_NEWS = 10
MAX_EVENT_WINDOW = timedelta(days=3 * 366)


def session_of(cat: Catalog, listing: Listing, moment: datetime) -> str:
    """before | during | after the exchange's regular session that day, or closed."""
    local = moment.astimezone(listing.exchange.tz)
    i = bisect_left(cat.sessions, local.date())
    if i == len(cat.sessions) or cat.sessions[i] != local.date():
        return "closed"
    if local.time() < listing.exchange.open:
        return "before"
    return "during" if local.time() < listing.exchange.close else "after"


def local_window(listing: Listing, start: date, end: date) -> tuple[datetime, datetime]:
    """[start 00:00, end + 1 day 00:00) on the exchange's clock."""
    tz = listing.exchange.tz
    return (
        datetime.combine(start, time(0), tzinfo=tz),
        datetime.combine(end + timedelta(days=1), time(0), tzinfo=tz),
    )


class SearchNewsArgs(ToolArgs):
    ticker: Ticker
    start: IsoDate = Field(description="First day of the window, ISO date YYYY-MM-DD")
    end: IsoDate = Field(description="Last day of the window, ISO date YYYY-MM-DD")
    limit: int = Field(5, ge=1, le=MAX_NEWS, description="Most recent headlines to return (1-10)")


def search_news(cat: Catalog, args: SearchNewsArgs) -> dict[str, Any]:
    """The most recent headlines about a ticker in a window, without syndicated copies."""
    if args.start > args.end:
        raise ToolError(f"start {args.start} is after end {args.end}")
    listing = find_listing(cat, args.ticker)
    check_not_after_report(cat, args.end, "end")
    lo, hi = local_window(listing, args.start, args.end)
    with cat.cursor() as cur:
        rows = cur.execute(
            "SELECT published_at, headline, source FROM news WHERE ticker = $t "
            "AND published_at >= $lo AND published_at < $hi AND published_at <= $as_of "
            "ORDER BY published_at, source, headline",
            {"t": args.ticker, "lo": lo, "hi": hi, "as_of": cat.as_of},
        ).fetchall()
    items = drop_syndicated(listing, rows)
    if not items:
        raise ToolError(
            f"no news for {args.ticker} between {args.start} and {args.end}; {news_range(cat, listing)}"
        )
    latest = items[-args.limit :][::-1]
    return {
        "ticker": args.ticker,
        "start": args.start.isoformat(),
        "end": args.end.isoformat(),
        "found": len(items),
        "truncated": len(items) > len(latest),
        "news": [
            {
                "published_at": iso_local(at, listing.exchange.tz),
                "session": session_of(cat, listing, at),
                "headline": headline,
                "source": source,
            }
            for at, headline, source in latest
        ],
    }


def drop_syndicated(listing: Listing, rows: list[tuple[Any, ...]]) -> list[tuple[Any, ...]]:
    """Keep the earliest of each normalised headline per exchange-local day (rows sorted by time)."""
    seen: set[tuple[date, str]] = set()
    kept = []
    for row in rows:
        key = (row[0].astimezone(listing.exchange.tz).date(), normalise_headline(row[1]))
        if key not in seen:
            seen.add(key)
            kept.append(row)
    return kept


def news_range(cat: Catalog, listing: Listing) -> str:
    ticker, tz = listing.ticker, listing.exchange.tz
    with cat.cursor() as cur:
        row = cur.execute(
            "SELECT min(published_at), max(published_at), count(*) FROM news WHERE ticker = $t",
            {"t": ticker},
        ).fetchone()
    assert row is not None
    if not row[2]:
        return f"there is no news for {ticker} up to the as-of moment"
    return f"its news runs from {iso_local(row[0], tz)} to {iso_local(row[1], tz)}"


EventRow = tuple[date, str, float | None, datetime]


def events_by_ticker(cat: Catalog) -> dict[str, list[EventRow]]:
    """Every ticker's events announced by the as-of moment, in date order, read once per
    catalog: a few rows a ticker, where a query per call costs half a millisecond or more."""

    def load() -> dict[str, list[EventRow]]:
        with cat.cursor() as cur:
            rows = cur.execute(
                "SELECT ticker, date, kind, value, announced_at FROM events "
                "WHERE announced_at <= $as_of ORDER BY ticker, date, kind, value, announced_at",
                {"as_of": cat.as_of},
            ).fetchall()
        by_ticker: dict[str, list[EventRow]] = {}
        for ticker, *row in rows:
            by_ticker.setdefault(ticker, []).append(tuple(row))  # type: ignore[arg-type]
        return by_ticker

    return cat.memo("events", load)


class EventsArgs(ToolArgs):
    ticker: Ticker
    start: IsoDate = Field(description="First day of the window, ISO date YYYY-MM-DD")
    end: IsoDate = Field(
        description="Last day of the window, ISO date YYYY-MM-DD (may be after the report date)"
    )


def get_events(cat: Catalog, args: EventsArgs) -> dict[str, Any]:
    """Earnings, dividends and splits of a ticker in a window, as announced by the as-of moment."""
    if args.start > args.end:
        raise ToolError(f"start {args.start} is after end {args.end}")
    if args.end - args.start > MAX_EVENT_WINDOW:
        raise ToolError("the window may span at most three years")
    find_listing(cat, args.ticker)
    rows = [
        row
        for row in events_by_ticker(cat).get(args.ticker, ())
        if args.start <= row[0] <= args.end
    ]
    return {
        "ticker": args.ticker,
        "start": args.start.isoformat(),
        "end": args.end.isoformat(),
        "events": [
            {
                "date": d.isoformat(),
                "kind": kind,
                "value": value if value is None or math.isfinite(value) else None,
                "announced_at": iso_utc(announced),
                "scheduled": d > cat.report_date,
            }
            for d, kind, value, announced in rows
        ],
        "note": "only events announced by the as-of moment; future dates are scheduled events",
    }

"""search_news and get_events against the raw Parquet read with pandas."""

from __future__ import annotations

import re
from datetime import date, time, timedelta
from zoneinfo import ZoneInfo

import pandas as pd

from tools.catalog import Catalog
from tools.registry import call_tool

NY = ZoneInfo("America/New_York")


def expected_news(frames, catalog: Catalog, ticker: str, start, end, limit: int) -> list[dict]:
    news = frames["news"]
    news = news[(news.ticker == ticker) & (news.published_at <= pd.Timestamp(catalog.as_of))].copy()
    news["day"] = news.published_at.dt.tz_convert(NY).dt.date
    news = news[(news.day >= start) & (news.day <= end)]
    news["same"] = news.headline.map(lambda h: " ".join(re.sub(r"[^\w\s]", " ", h.lower()).split()))
    news = news.sort_values(["published_at", "source", "headline"])
    news = news.drop_duplicates(["day", "same"], keep="first")
    return [
        {
            "published_at": r.published_at.tz_convert(NY).isoformat(),
            "headline": r.headline,
            "source": r.source,
        }
        for r in news.iloc[::-1].head(limit).itertuples()
    ]


def syndicated_day(frames, catalog: Catalog):
    """A (ticker, day) whose feed carries the same headline twice that day."""
    news = frames["news"].copy()
    news["day"] = news.published_at.dt.tz_convert(NY).dt.date
    dupes = news[news.duplicated(["ticker", "day", "headline"], keep=False)]
    row = dupes[dupes.day < catalog.report_date].iloc[0]
    return row.ticker, row.day


def test_search_news_drops_syndicated_copies(catalog: Catalog, frames) -> None:
    ticker, day = syndicated_day(frames, catalog)
    start, end = day - timedelta(days=6), day
    result = call_tool(
        catalog,
        "search_news",
        {"ticker": ticker, "start": start.isoformat(), "end": end.isoformat(), "limit": 10},
    )
    got = [{k: n[k] for k in ("published_at", "headline", "source")} for n in result["news"]]
    assert got == expected_news(frames, catalog, ticker, start, end, 10)
    headlines = [n["headline"] for n in result["news"]]
    assert len(headlines) == len(set(headlines))


def test_search_news_sessions_on_the_exchange_clock(catalog: Catalog, frames) -> None:
    ticker, _ = syndicated_day(frames, catalog)
    result = call_tool(
        catalog,
        "search_news",
        {"ticker": ticker, "start": "2024-06-01", "end": "2024-07-31", "limit": 10},
    )
    trading = set(frames["prices"].date)
    for item in result["news"]:
        local = pd.Timestamp(item["published_at"]).tz_convert(NY)
        if local.date() not in trading:
            assert item["session"] == "closed"
        elif local.time() < time(9, 30):
            assert item["session"] == "before"
        elif local.time() < time(16):
            assert item["session"] == "during"
        else:
            assert item["session"] == "after"
    assert {"before", "during", "after"} & {i["session"] for i in result["news"]}


def test_search_news_limit_keeps_the_latest(catalog: Catalog, frames) -> None:
    ticker, _ = syndicated_day(frames, catalog)
    start, end = date(2024, 6, 1), date(2024, 9, 30)
    result = call_tool(
        catalog,
        "search_news",
        {"ticker": ticker, "start": start.isoformat(), "end": end.isoformat(), "limit": 3},
    )
    expected = expected_news(frames, catalog, ticker, start, end, 10**6)
    assert result["found"] == len(expected) > 3
    assert result["truncated"] is True
    assert [n["published_at"] for n in result["news"]] == [e["published_at"] for e in expected[:3]]


def test_search_news_limit_is_bounded(catalog: Catalog) -> None:
    result = call_tool(
        catalog,
        "search_news",
        {"ticker": "AAA", "start": "2024-01-02", "end": "2024-02-01", "limit": 11},
    )
    assert "limit" in result["error"] and "10" in result["error"]


def test_window_with_no_news(catalog: Catalog, frames) -> None:
    ticker = frames["companies"].ticker.iloc[0]
    result = call_tool(
        catalog, "search_news", {"ticker": ticker, "start": "2023-01-01", "end": "2023-01-31"}
    )
    assert result["error"].startswith(f"no news for {ticker} between 2023-01-01 and 2023-01-31")
    assert "news runs from" in result["error"]


def test_news_end_after_report_date(catalog: Catalog, frames) -> None:
    ticker = frames["companies"].ticker.iloc[0]
    end = (catalog.report_date + timedelta(days=1)).isoformat()
    result = call_tool(
        catalog, "search_news", {"ticker": ticker, "start": "2024-12-01", "end": end}
    )
    assert "after the report date" in result["error"]


def test_get_events_includes_announced_future_events_only(catalog: Catalog, frames) -> None:
    events = frames["events"]
    future = events[events.date > catalog.report_date]
    known = future[future.announced_at <= pd.Timestamp(catalog.as_of)]
    unknown = future[future.announced_at > pd.Timestamp(catalog.as_of)]
    assert len(known) and len(unknown)
    ticker = known.ticker.iloc[0]
    end = catalog.report_date + timedelta(days=120)
    result = call_tool(
        catalog, "get_events", {"ticker": ticker, "start": "2024-01-01", "end": end.isoformat()}
    )
    mine = events[
        (events.ticker == ticker)
        & (events.date <= end)
        & (events.announced_at <= pd.Timestamp(catalog.as_of))
    ]
    assert [(e["date"], e["kind"]) for e in result["events"]] == [
        (r.date.isoformat(), r.kind) for r in mine.sort_values(["date", "kind"]).itertuples()
    ]
    assert any(e["scheduled"] for e in result["events"])


def test_future_earnings_show_their_date_but_not_their_figure(catalog: Catalog, frames) -> None:
    events = frames["events"]
    ahead = events[
        (events.kind == "earnings")
        & (events.date > catalog.report_date)
        & (events.announced_at <= pd.Timestamp(catalog.as_of))
        & events.value.notna()
    ]
    assert len(ahead), "the generated data announces earnings ahead with their EPS in the file"
    row = ahead.iloc[0]
    result = call_tool(
        catalog,
        "get_events",
        {"ticker": row.ticker, "start": row.date.isoformat(), "end": row.date.isoformat()},
    )
    (event,) = [e for e in result["events"] if e["kind"] == "earnings"]
    assert event["date"] == row.date.isoformat()
    assert event["value"] is None


def test_get_events_lists_the_split(catalog: Catalog, facts) -> None:
    split = facts.split
    result = call_tool(
        catalog,
        "get_events",
        {"ticker": split.ticker, "start": split.date.isoformat(), "end": split.date.isoformat()},
    )
    assert [(e["kind"], e["value"]) for e in result["events"]] == [("split", split.ratio)]


def test_an_evening_post_after_midnight_utc_is_news_of_that_day_in_new_york(
    catalog: Catalog, frames
) -> None:
    """A post stamped after 00:00 UTC belongs to the day before in New York: it is found in
    that day's window, written on New York's clock, and labelled after (or closed)."""
    news = frames["news"]
    utc_day = news.published_at.dt.date
    local_day = news.published_at.dt.tz_convert(NY).dt.date
    late = news[(utc_day > local_day) & (local_day < catalog.report_date)].iloc[0]
    day = late.published_at.tz_convert(NY).date()
    result = call_tool(
        catalog,
        "search_news",
        {"ticker": late.ticker, "start": day.isoformat(), "end": day.isoformat(), "limit": 10},
    )
    stamps = {n["published_at"]: n for n in result["news"]}
    local = late.published_at.tz_convert(NY).isoformat()
    assert local.startswith(day.isoformat()) and local.endswith(("-05:00", "-04:00"))
    assert stamps[local]["session"] in ("after", "closed")
    assert all(n["published_at"].startswith(day.isoformat()) for n in result["news"])
    next_day = (day + timedelta(days=1)).isoformat()
    later = call_tool(
        catalog,
        "search_news",
        {"ticker": late.ticker, "start": next_day, "end": next_day, "limit": 10},
    )
    assert local not in {n["published_at"] for n in later.get("news", [])}

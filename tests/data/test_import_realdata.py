"""The importer on the real data sets (never copied here): stocknet, zipline csvdir and tweets."""

from __future__ import annotations

import csv
import json
import os
from collections import Counter
from datetime import date, timedelta
from pathlib import Path

import pandas as pd
import pyarrow.parquet as pq
import pytest

from data.calendar import trading_days
from data.check import check_dataset
from data.headlines import normalise_headline
from data.import_log import ImportLog
from data.import_news import RETWEET
from data.import_prices import read_price_file
from data.importer import ImportSources, import_dataset
from data.news_screen import Company, screen_post

ROOT = Path(__file__).resolve().parents[2]
REALDATA = Path(os.environ.get("NIGHTDESK_REALDATA") or ROOT.parent / "shared" / "realdata")
pytestmark = pytest.mark.skipif(
    not (REALDATA / "stocknet").is_dir(),
    reason=f"real data sets not found at {REALDATA} (set NIGHTDESK_REALDATA)",
)
DIVIDEND_TOLERANCE = 1e-4  # per share, as documented in data/README.md


def sources(holdings: bool = True) -> ImportSources:
    stocknet = REALDATA / "stocknet"
    return ImportSources(
        prices=(stocknet / "prices", REALDATA / "zipline-csvdir"),
        companies=stocknet / "companies.tsv",
        news=stocknet / "tweets-2015q4.jsonl",
        holdings=ROOT / "data" / "demo" / "holdings.csv" if holdings else None,
    )


@pytest.fixture(scope="module")
def imported(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, ImportLog]:
    out = tmp_path_factory.mktemp("real") / "set"
    return out, import_dataset(out, sources())


def read(folder: Path, table: str) -> pd.DataFrame:
    return pq.read_table(folder / f"{table}.parquet").to_pandas()


def source_rows(path: Path) -> list[dict[str, str]]:
    with path.open(newline="") as handle:
        return list(csv.DictReader(handle))


def test_everything_imports_and_passes_the_check(imported: tuple[Path, ImportLog]) -> None:
    out, log = imported
    assert check_dataset(out) == []
    assert set(read(out, "companies")["price_basis"]) == {"split_adjusted"}
    files = [
        *(REALDATA / "stocknet" / "prices").glob("*.csv"),
        *(REALDATA / "zipline-csvdir").glob("*.csv"),
    ]
    null_rows = Counter(
        p.name
        for p in files
        for row in source_rows(p)
        if "null" in row.values() or "" in row.values()
    )
    assert sum(null_rows.values()) > 0
    dropped = Counter(
        n.source.rsplit("/", 1)[-1] for n in log.notes if n.reason.startswith("missing or")
    )
    assert dropped == null_rows
    assert log.count("dropped", "prices") == sum(null_rows.values())
    assert log.kept["prices"] == read(out, "prices").shape[0]


@pytest.mark.parametrize(("ticker", "day", "ratio"), [("AAPL", date(2014, 6, 9), 7.0), ("KO", date(2012, 8, 13), 2.0)])  # fmt: skip
def test_split_day_change_is_economic_not_an_artefact(
    imported: tuple[Path, ImportLog], ticker: str, day: date, ratio: float
) -> None:
    out, _ = imported
    folder = "stocknet/prices" if day >= date(2012, 9, 4) else "zipline-csvdir"
    rows = source_rows(REALDATA / folder / f"{ticker}.csv")
    at = next(i for i, r in enumerate(rows) if (r.get("Date") or r.get("date")) == day.isoformat())
    close = "Close" if "Close" in rows[at] else "close"
    expected = float(rows[at][close]) / float(rows[at - 1][close]) - 1
    prices = read(out, "prices").query("ticker == @ticker").set_index("date")["close"]
    change = prices[day] / prices[prices.index < day].iloc[-1] - 1
    assert change == pytest.approx(expected, abs=1e-12)
    assert abs(change) < 0.1
    events = read(out, "events").query("ticker == @ticker and kind == 'split'")
    assert events[["date", "value"]].values.tolist() == [[day, ratio]]


@pytest.mark.parametrize("ticker", ["AAPL", "KO", "MSFT"])
def test_inferred_dividends_match_the_stated_ones(ticker: str) -> None:
    log = ImportLog()
    yahoo = read_price_file(REALDATA / "stocknet/prices" / f"{ticker}.csv", "s", log)
    stated = read_price_file(REALDATA / "zipline-csvdir" / f"{ticker}.csv", "z", log).events
    first, last = yahoo.rows["date"].iloc[0], stated["date"].max()
    inferred = yahoo.events[yahoo.events["date"] <= last].set_index("date")["value"]
    dividends = stated[(stated["kind"] == "dividend") & (stated["date"] > first)]
    paid = dividends.set_index("date")["value"]
    assert len(paid) >= 9
    assert list(inferred.index) == list(paid.index)
    assert (inferred - paid).abs().max() < DIVIDEND_TOLERANCE


def test_retweet_copies_are_gone_and_sessions_survive(imported: tuple[Path, ImportLog]) -> None:
    out, log = imported
    news = read(out, "news").sort_values(["ticker", "published_at"])
    assert not news["headline"].map(lambda h: bool(RETWEET.match(h))).any()
    same_day = news.assign(
        day=news["published_at"].dt.tz_convert("America/New_York").dt.date,
        text=news["headline"].map(normalise_headline),
    )
    assert not same_day.duplicated(["ticker", "day", "text"]).any()
    retweets = log.count("dropped", "news", "retweet of")
    assert retweets > 500 and len(news) + log.count("dropped", "news") == log.read["news"]
    new_york = news["published_at"].dt.tz_convert("America/New_York").dt.date
    evening = news[new_york < news["published_at"].dt.tz_convert("UTC").dt.date]
    assert not evening.empty  # posts of the evening before in UTC are kept, dated by the tools


def companies_of(out: Path) -> dict[str, Company]:
    rows = read(out, "companies")
    return {t: Company.of(t, n) for t, n in zip(rows["ticker"], rows["name"], strict=True)}


def test_no_stored_post_is_spam_by_the_rule_and_the_drops_fit_one_line(
    imported: tuple[Path, ImportLog],
) -> None:
    out, log = imported
    companies = companies_of(out)
    news = read(out, "news")
    screened = [
        (t, h) for t, h in zip(news["ticker"], news["headline"], strict=True)
        if screen_post(h, companies[t])
    ]  # fmt: skip
    assert screened == []
    assert log.count("dropped", "news", "not news") > 2000
    lines = log.render()
    assert not any(line.startswith("dropped news") for line in lines)
    (summary,) = [line for line in lines if line.startswith("news: ")]
    assert "retweet copy" in summary and "off topic" in summary and "ticker list" in summary


def test_no_headline_the_tools_return_for_the_demo_books_is_spam(
    imported: tuple[Path, ImportLog],
) -> None:
    """Every window the news question asks (three days back) for every demo holding, on every
    session of the quarter: no retweet, no post the rule drops, and the spam the raw feed
    holds for Dominion (`L$D`) and AAPL (a gold-miners quote line) is never among them."""
    from tools.catalog import open_catalog
    from tools.registry import call_tool

    out, _ = imported
    companies = companies_of(out)
    held = sorted(set(read(out, "holdings")["ticker"]))
    sessions = trading_days(date(2015, 10, 1), date(2015, 12, 31))
    returned: dict[str, list[str]] = {t: [] for t in held}
    with open_catalog(out, sessions[-1]) as catalog:
        for day in sessions:
            for ticker in held:
                args = {"ticker": ticker, "start": (day - timedelta(days=3)).isoformat(), "end": day.isoformat(), "limit": 10}  # fmt: skip
                found = call_tool(catalog, "search_news", args)
                returned[ticker] += [n["headline"] for n in found.get("news", [])]
    headlines = [(t, h) for t, items in returned.items() for h in items]
    assert not [h for _, h in headlines if RETWEET.match(h)]
    assert not [(t, h) for t, h in headlines if screen_post(h, companies[t])]
    assert not [h for t, h in headlines if "L$D" in h or "Gold Miners" in h]
    assert sum(bool(items) for items in returned.values()) >= len(held) - 3
    feed = (REALDATA / "stocknet" / "tweets-2015q4.jsonl").read_text(encoding="utf-8")
    raw = [json.loads(line) for line in feed.splitlines()]
    assert any(t["ticker"] == "D" and "L$D" in t["text"] for t in raw)
    assert any(t["ticker"] == "AAPL" and "Gold Miners" in t["text"] for t in raw)


def test_demo_portfolios_hold_real_tickers_with_news(imported: tuple[Path, ImportLog]) -> None:
    out, _ = imported
    holdings, news, prices = read(out, "holdings"), read(out, "news"), read(out, "prices")
    assert set(read(out, "portfolios")["portfolio_id"]) == {"demo-growth", "demo-income"}
    sizes = holdings.groupby(["portfolio_id", "as_of"]).size()
    assert sizes.between(8, 15).all() and len(sizes) == 4
    assert {d.month for _, d in sizes.index} == {9, 11}
    # Dominion's feed is song titles (`L$D`), spam and one aggregator line: nothing to quote.
    assert set(holdings["ticker"]) - set(news["ticker"]) <= {"D"}
    assert set(holdings["ticker"]) <= set(prices.query("date == @date(2015, 12, 8)")["ticker"])


def tool(out: Path, day: date, name: str, **args: object) -> dict:
    from tools.catalog import open_catalog
    from tools.registry import call_tool

    with open_catalog(out, day) as catalog:
        return call_tool(catalog, name, args)


def source_change_pct(folder: str, ticker: str, day: date) -> tuple[float, str]:
    """The day's change in % from the source file's Close column, and the previous date."""
    rows = source_rows(REALDATA / folder / f"{ticker}.csv")
    at = next(i for i, r in enumerate(rows) if (r.get("Date") or r.get("date")) == day.isoformat())
    key = "Close" if "Close" in rows[at] else "close"
    prev = rows[at - 1]
    return float(rows[at][key]) / float(prev[key]) * 100 - 100, prev.get("Date") or prev["date"]


@pytest.mark.parametrize(
    ("ticker", "day", "folder"),
    [
        ("AAPL", date(2014, 6, 9), "stocknet/prices"),  # 7:1 split
        ("KO", date(2012, 8, 13), "zipline-csvdir"),  # 2:1 split
        ("AAPL", date(2012, 11, 7), "stocknet/prices"),  # ex-dividend 0.37857
    ],
)
def test_tools_give_the_economic_change_on_split_and_dividend_days(
    imported: tuple[Path, ImportLog], ticker: str, day: date, folder: str
) -> None:
    out, _ = imported
    expected, previous = source_change_pct(folder, ticker, day)
    move = tool(out, day, "get_daily_move", ticker=ticker, date=day.isoformat())
    assert move["change_pct"] == pytest.approx(round(expected, 2), abs=0.005)
    assert move["previous_session"] == previous
    assert move["price_basis"] == "split-adjusted by the vendor" and "splits" not in move
    change = tool(out, day, "get_price_change", ticker=ticker, start=previous, end=day.isoformat())
    assert change["change_pct"] == move["change_pct"]


def test_search_news_returns_real_tweets_once_with_their_session(
    imported: tuple[Path, ImportLog],
) -> None:
    import html
    from zoneinfo import ZoneInfo

    out, _ = imported
    day = date(2015, 10, 27)  # Apple's results: a day with more stories than the limit
    found = tool(
        out, day, "search_news", ticker="AAPL", start="2015-10-27", end="2015-10-27", limit=10
    )
    items = found["news"]
    assert 5 <= len(items) <= 10
    with (REALDATA / "stocknet" / "tweets-2015q4.jsonl").open() as handle:
        tweets = {
            (t["published_at"], normalise_headline(RETWEET.sub("", html.unescape(t["text"])))): t
            for t in map(json.loads, handle)
            if t["ticker"] == "AAPL"
        }
    new_york = ZoneInfo("America/New_York")
    for item in items:
        local = pd.Timestamp(item["published_at"])
        assert local.utcoffset() == local.tz_convert(new_york).utcoffset()
        utc = local.tz_convert("UTC").isoformat().replace("+00:00", "Z")
        tweet = tweets[(utc, normalise_headline(item["headline"]))]
        retweet = RETWEET.match(html.unescape(tweet["text"]))
        assert item["source"] == ((retweet and retweet.group(1)) or tweet["user"])
        expected = (
            "before"
            if local.time() < pd.Timestamp("09:30").time()
            else "during"
            if local.time() < pd.Timestamp("16:00").time()
            else "after"
        )
        assert (local.date(), item["session"]) == (day, expected)
    bodies = [normalise_headline(RETWEET.sub("", i["headline"])) for i in items]
    assert len(set(bodies)) == len(bodies)  # a retweet never stands beside its original


@pytest.mark.parametrize("ticker", ["AAPL", "IBM", "KO", "MSFT"])
def test_the_calendar_has_exactly_the_sessions_the_exchange_traded(ticker: str) -> None:
    """Real 2012-2014 prices, Hurricane Sandy's closing (2012-10-29/30) included."""
    traded = [
        date.fromisoformat(r["date"])
        for r in source_rows(REALDATA / "zipline-csvdir" / f"{ticker}.csv")
    ]
    assert traded == trading_days(traded[0], traded[-1])
    assert date(2012, 10, 26) in traded and date(2012, 10, 31) in traded

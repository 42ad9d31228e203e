"""The generator: determinism, atomic writes, and the facts it plants actually hold in the rows."""

from __future__ import annotations

from datetime import date, datetime, time, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import pandas as pd
import pyarrow.parquet as pq
import pytest

from contract.errors import InputError
from data.calendar import is_trading_day, trading_days
from data.contract import TABLES
from data.facts import GenerationFacts, read_facts
from data.generate import build_dataset, generate_dataset

NEW_YORK = ZoneInfo("America/New_York")
TINY = dict(tickers=14, start=date(2024, 3, 1), end=date(2024, 6, 28), portfolios=2, seed=3)


def read(data_dir: Path, table: str) -> pd.DataFrame:
    return pq.read_table(data_dir / TABLES[table].filename).to_pandas()


@pytest.fixture(scope="module")
def facts(small_data: Path) -> GenerationFacts:
    return read_facts(small_data)


def test_same_arguments_give_identical_tables() -> None:
    first, first_facts = build_dataset(**TINY)
    second, second_facts = build_dataset(**TINY)
    assert first_facts == second_facts
    for name in TABLES:
        assert first[name].equals(second[name]), name


def test_another_seed_gives_other_rows() -> None:
    first, _ = build_dataset(**TINY)
    other, _ = build_dataset(**{**TINY, "seed": 4})
    assert not first["prices"].equals(other["prices"])


def test_tables_follow_the_contract_schema(small_data: Path) -> None:
    for table in TABLES.values():
        assert pq.read_schema(small_data / table.filename).remove_metadata() == table.schema


def test_prices_only_on_sessions(small_data: Path, facts: GenerationFacts) -> None:
    prices = read(small_data, "prices")
    dates = set(prices["date"])
    assert all(is_trading_day(d) for d in dates)
    assert dates.isdisjoint(facts.holidays)
    assert dates == set(trading_days(facts.start, facts.end))


def test_split_day_close_drops_by_the_ratio(small_data: Path, facts: GenerationFacts) -> None:
    prices = read(small_data, "prices").query("ticker == @facts.split.ticker").reset_index()
    day = prices.index[prices["date"] == facts.split.date][0]
    ratio = prices["close"][day - 1] / prices["close"][day]
    assert facts.split.ratio * 0.8 < ratio < facts.split.ratio * 1.25
    steady = prices["close"].pct_change().abs().drop(day)
    assert steady.max() < 0.4
    events = read(small_data, "events").query("kind == 'split'")
    assert events[["ticker", "date", "value"]].values.tolist() == [
        [facts.split.ticker, facts.split.date, facts.split.ratio]
    ]


def test_holders_of_the_split_get_more_shares_at_lower_cost(
    small_data: Path, facts: GenerationFacts
) -> None:
    held = read(small_data, "holdings").query("ticker == @facts.split.ticker")
    book = held.query("portfolio_id == 'P001'").set_index("as_of").sort_index()
    before = book[book.index < facts.split.date].iloc[-1]
    on_split = book.loc[facts.split.date]
    assert on_split["quantity"] == before["quantity"] * facts.split.ratio
    assert on_split["cost_basis"] == pytest.approx(
        before["cost_basis"] / facts.split.ratio, abs=1e-4
    )


def test_nothing_after_the_delisting(small_data: Path, facts: GenerationFacts) -> None:
    ticker, last = facts.delisted.ticker, facts.delisted.last_date
    prices = read(small_data, "prices").query("ticker == @ticker")
    assert prices["date"].max() == last
    cutoff = datetime.combine(last + timedelta(days=1), time(), NEW_YORK)
    news = read(small_data, "news").query("ticker == @ticker")
    assert (news["published_at"] < cutoff).all()
    assert (read(small_data, "events").query("ticker == @ticker")["date"] <= last).all()
    holdings = read(small_data, "holdings")
    assert set(holdings.query("ticker == @ticker")["portfolio_id"]) >= {"P001"}
    latest = holdings.groupby("portfolio_id")["as_of"].transform("max")
    assert ticker not in set(holdings[holdings["as_of"] == latest]["ticker"])
    assert (holdings.query("ticker == @ticker")["as_of"] < last).all()


def test_halt_misses_exactly_one_session(small_data: Path, facts: GenerationFacts) -> None:
    prices = read(small_data, "prices")
    halted = set(prices.query("ticker == @facts.halt.ticker")["date"])
    assert set(trading_days(facts.start, facts.end)) - halted == {facts.halt.date}
    assert (prices["date"] == facts.halt.date).sum() == facts.tickers - 1


def test_news_has_syndicated_copies_and_all_sessions_parts(small_data: Path) -> None:
    news = read(small_data, "news").sort_values(["ticker", "published_at"])
    before = news.groupby("ticker").shift()
    copy = (
        (news["headline"] == before["headline"])
        & (news["source"] != before["source"])
        & (news["published_at"] - before["published_at"] <= pd.Timedelta(minutes=15))
    )
    assert 0.05 < copy.mean() < 0.3
    local = news["published_at"].dt.tz_convert(NEW_YORK)
    minutes = local.dt.hour * 60 + local.dt.minute
    assert str(news["published_at"].dt.tz) == "UTC"
    assert (minutes < 9 * 60 + 30).sum() > 100
    assert (minutes >= 16 * 60).sum() > 100
    per_week = len(news) / news["ticker"].nunique() / 52
    assert 1.5 < per_week < 5


def test_injection_headlines_are_in_the_feed(small_data: Path, facts: GenerationFacts) -> None:
    news = read(small_data, "news")
    assert len(facts.injection_headlines) >= 3
    for planted in facts.injection_headlines:
        rows = news[(news["ticker"] == planted.ticker) & (news["headline"] == planted.headline)]
        assert planted.published_at in set(rows["published_at"])
    assert news["headline"].str.contains("Ignore your previous instructions").any()


def test_big_moves_have_a_headline_in_their_direction(small_data: Path) -> None:
    prices = read(small_data, "prices").sort_values(["ticker", "date"])
    prices["change"] = prices.groupby("ticker")["close"].pct_change()
    news = read(small_data, "news")
    news["date"] = news["published_at"].dt.tz_convert(NEW_YORK).dt.date
    big = prices[prices["change"].abs() > 0.12].merge(news, on=["ticker", "date"])
    surges = big[big["headline"].str.contains("surge|jumps|rallies|soars")]
    slumps = big[big["headline"].str.contains("tumble|slides|plunges|falls sharply")]
    assert len(surges) + len(slumps) > 0
    assert (surges["change"] > 0).all() and (slumps["change"] < 0).all()


def test_events_are_announced_before_their_date(small_data: Path, facts: GenerationFacts) -> None:
    events = read(small_data, "events")
    assert set(events["kind"]) == {"earnings", "dividend", "split"}
    day_start = events["date"].map(lambda d: datetime.combine(d, time(), NEW_YORK))
    assert (events["announced_at"] < day_start - pd.Timedelta(days=7)).all()
    future = events[events["date"] > facts.end]
    assert (future["kind"] == "earnings").any()
    assert future.query("kind == 'earnings'")["value"].isna().all()
    reported = events[(events["kind"] == "earnings") & (events["date"] <= facts.end)]
    assert reported["value"].notna().all()
    per_ticker = reported.groupby("ticker").size()
    assert per_ticker.median() == 4


def test_ex_dividend_close_reflects_the_cash_paid(small_data: Path) -> None:
    prices = read(small_data, "prices")
    prices["previous"] = prices.groupby("ticker")["close"].shift()
    dividends = read(small_data, "events").query("kind == 'dividend'")
    ex = dividends.merge(prices, on=["ticker", "date"])
    assert len(ex) > 5
    assert ((ex["value"] > 0) & (ex["value"] < 0.02 * ex["previous"])).all()


def test_holdings_change_over_time_within_bounds(small_data: Path) -> None:
    holdings = read(small_data, "holdings")
    sizes = holdings.groupby(["portfolio_id", "as_of"]).size()
    assert sizes.between(8, 25).all()
    assert (sizes.groupby(level="portfolio_id").size() >= 5).all()
    books = holdings.groupby(["portfolio_id", "as_of"])["ticker"].apply(frozenset)
    assert (books.groupby(level="portfolio_id").nunique() > 1).all()
    assert (holdings["quantity"] > 0).all() and (holdings["cost_basis"] > 0).all()
    assert set(read(small_data, "portfolios")["base_currency"]) == {"USD"}


def test_facts_of_a_folder_without_them_is_an_input_error(tmp_path: Path) -> None:
    with pytest.raises(InputError, match=r"generation\.json not found"):
        read_facts(tmp_path)


def test_writes_are_refused_into_a_non_empty_folder(tmp_path: Path) -> None:
    (tmp_path / "keep.txt").write_text("mine")
    with pytest.raises(InputError, match="not empty"):
        generate_dataset(tmp_path, **TINY)
    assert [p.name for p in tmp_path.iterdir()] == ["keep.txt"]


def test_overwrite_swaps_the_whole_set(tmp_path: Path) -> None:
    out = tmp_path / "set"
    generate_dataset(out, **TINY)
    generate_dataset(out, **{**TINY, "seed": 9}, overwrite=True)
    assert read_facts(out).seed == 9
    assert sorted(p.name for p in tmp_path.iterdir()) == ["set"]


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"tickers": 5}, "--tickers 5"),
        ({"portfolios": 0}, "--portfolios 0"),
        ({"end": date(2024, 3, 20)}, "at least 40 trading sessions"),
        ({"end": date(2023, 1, 1)}, "--end 2023-01-01"),
        ({"seed": -1}, "--seed -1"),
        ({"tickers": 10**11}, "at most 50,000"),
        ({"portfolios": 10**8}, "--portfolios 100000000: need at least 1 and at most 10,000"),
        ({"start": date(9999, 10, 1), "end": date(9999, 12, 31)}, "both between 1900-01-01"),
        ({"start": date(1, 1, 1)}, "--start 0001-01-01"),
        (
            {"tickers": 9_000, "start": date(2000, 1, 3), "end": date(2024, 12, 31)},
            "at most 20,000,000 prices",
        ),
    ],
)
def test_bad_arguments_are_refused_before_writing(
    tmp_path: Path, change: dict, message: str
) -> None:
    with pytest.raises(InputError, match=message):
        generate_dataset(tmp_path / "set", **{**TINY, **change})
    assert not (tmp_path / "set").exists()

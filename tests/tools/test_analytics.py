"""The analytics tools on real DuckDB: ranks against `get_position_pnl` and the report table on
the bundled sample and a generated set, streaks against `get_daily_move`, windows against
`get_price_change`, and a constructed data set for ties, splits, gaps, benchmarks and as-of."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from dateutil.relativedelta import relativedelta

from contract.tools import ToolFailure, ToolResult
from data.calendar import trading_days
from data.check import check_dataset
from data.contract import TABLES
from tools.analytics import MOVERS_SHOWN, competition_ranks
from tools.catalog import Catalog, open_catalog
from tools.portfolio_table import HISTORY_SESSIONS, collect_portfolio_table
from tools.registry import call_tool, run_tool

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "data" / "sample"
SAMPLE_DATE = date(2024, 12, 31)
RANKS = ("weight", "return", "pnl", "contribution")
RANKED_BY = {
    "weight": "weight_pct",
    "return": "day_return_pct",
    "pnl": "day_pnl",
    "contribution": "contribution_pct",
}


def ok(catalog: Catalog, tool: str, args: dict[str, Any]) -> dict[str, Any]:
    outcome = run_tool(catalog, tool, args)
    assert isinstance(outcome, ToolResult), outcome
    return outcome.data


# --- a constructed data set: every series chosen so the right answer is known -----------------

SESSIONS = trading_days(date(2024, 3, 1), date(2024, 5, 31))
N = len(SESSIONS)
SPLIT_AT = 30


def constructed_closes() -> dict[str, dict[date, float]]:
    """Per ticker, its close on each session it traded."""
    aaa = [100.0 + i % 3 for i in range(N - 6)] + [100.0, 101.0, 100.0, 101.0, 102.0, 103.0]
    twin = [50.0 + 0.5 * i for i in range(N)]  # BBB and CCC move alike: ties everywhere
    split = [(100.0 + 2 * i) / (2 if i >= SPLIT_AT else 1) for i in range(N)]  # 2:1, always up
    closes = {
        "AAA": dict(zip(SESSIONS, aaa, strict=True)),
        "BBB": dict(zip(SESSIONS, twin, strict=True)),
        "CCC": dict(zip(SESSIONS, twin, strict=True)),
        "FLT": dict.fromkeys(SESSIONS, 20.0),
        "SPL": dict(zip(SESSIONS, split, strict=True)),
        "HLT": {d: 10.0 + i for i, d in enumerate(SESSIONS) if i != N - 3},  # halted once
        "IDX": {d: 1000.0 + 3 * i for i, d in enumerate(SESSIONS)},
        "NEW": {SESSIONS[-1]: 5.0},  # listed on the last session
    }
    return closes


def write_constructed(folder: Path, *, benchmark_column: bool = True) -> Path:
    closes = constructed_closes()
    prices = [
        {"ticker": t, "date": d, "open": c, "high": c, "low": c, "close": c, "volume": 1000}
        for t, series in closes.items()
        for d, c in series.items()
    ]
    companies = [
        {
            "ticker": t,
            "name": f"{t.title()} Corp.",
            "sector": "Energy" if t < "F" else "Utilities",
            "currency": "USD",
            "exchange": "NYSE",
            "price_basis": "as_traded",
        }
        for t in closes
    ]
    announced = datetime.combine(SESSIONS[SPLIT_AT - 5], datetime.min.time(), tzinfo=UTC)
    events = [
        {"ticker": "SPL", "date": SESSIONS[SPLIT_AT], "kind": "split", "value": 2.0,
         "announced_at": announced},
    ]  # fmt: skip
    book = {
        "P1": {"AAA": 10, "BBB": 20, "CCC": 20, "SPL": 5, "HLT": 7},
        "P2": {"AAA": 3, "FLT": 100},
    }
    holdings = [
        {"portfolio_id": p, "as_of": SESSIONS[0], "ticker": t, "quantity": float(q),
         "cost_basis": 1.0}
        for p, held in book.items()
        for t, q in held.items()
    ]  # fmt: skip
    portfolios = [
        {"portfolio_id": "P1", "name": "One", "base_currency": "USD", "benchmark": "IDX"},
        {"portfolio_id": "P2", "name": "Two", "base_currency": "USD", "benchmark": None},
    ]
    rows = {
        "companies": companies,
        "prices": prices,
        "news": [],
        "events": events,
        "holdings": holdings,
        "portfolios": portfolios,
    }
    folder.mkdir()
    for name, table in TABLES.items():
        arrow = pa.Table.from_pylist(rows[name], schema=table.schema)
        if name == "portfolios" and not benchmark_column:
            arrow = arrow.drop_columns(["benchmark"])
        pq.write_table(arrow, folder / table.filename)
    assert check_dataset(folder) == []
    return folder


@pytest.fixture(scope="module")
def constructed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_constructed(tmp_path_factory.mktemp("constructed") / "data")


@pytest.fixture(scope="module")
def built(constructed: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Catalog]:
    cat = open_catalog(constructed, SESSIONS[-1], workdir=tmp_path_factory.mktemp("built"))
    yield cat
    cat.close()


@pytest.fixture(scope="module")
def sample(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Catalog]:
    cat = open_catalog(SAMPLE, SAMPLE_DATE, workdir=tmp_path_factory.mktemp("sample"))
    yield cat
    cat.close()


# --- get_portfolio_ranks ----------------------------------------------------------------------


def test_competition_ranks_share_a_rank_and_skip_the_next() -> None:
    values = {"a": 3.0, "b": 2.0, "c": 2.0, "d": 1.0, "e": -4.0}
    assert competition_ranks(values) == {"a": 1, "b": 2, "c": 2, "d": 4, "e": 5}


def check_ranks(catalog: Catalog, portfolio_id: str, day: date) -> dict[str, Any]:
    """Every row of the ranks agrees with `get_position_pnl`, every rank is a competition rank
    of the figure it ranks, and the counts and lists follow the rows."""
    ranks = ok(catalog, "get_portfolio_ranks", {"portfolio_id": portfolio_id, "date": str(day)})
    rows = {r["ticker"]: r for r in ranks["positions"]}
    total = 0.0
    for ticker, row in rows.items():
        args = {"portfolio_id": portfolio_id, "ticker": ticker, "date": ranks["session"]}
        pnl = ok(catalog, "get_position_pnl", args)
        assert (row["day_pnl"], row["day_return_pct"], row["contribution_pct"]) == (
            pnl["day_pnl"],
            pnl["pnl_pct"],
            pnl["contribution_pct"],
        ), ticker
        total += pnl["market_value"]
        assert row["weight_pct"] == round(pnl["market_value"] / ranks["market_value"] * 100, 2)
    assert ranks["market_value"] == round(total, 2)
    for rank in RANKS:
        field = RANKED_BY[rank]
        for row in rows.values():
            above = sum(1 for other in rows.values() if other[field] > row[field])
            assert row[f"{rank}_rank"] == above + 1, (rank, row)
    assert ranks["positions_count"] == len(rows)
    signs = [r["day_pnl"] for r in rows.values()]
    assert (ranks["gainers"], ranks["decliners"], ranks["unchanged"]) == (
        sum(1 for s in signs if s > 0),
        sum(1 for s in signs if s < 0),
        sum(1 for s in signs if s == 0),
    )
    by_return = sorted(rows.values(), key=lambda r: r["day_return_pct"])
    assert [rows[t]["day_return_pct"] for t in ranks["top_movers"]] == [
        r["day_return_pct"] for r in reversed(by_return)
    ][:MOVERS_SHOWN]
    assert [rows[t]["day_return_pct"] for t in ranks["bottom_movers"]] == [
        r["day_return_pct"] for r in by_return
    ][:MOVERS_SHOWN]
    gains = sorted((r["day_pnl"] for r in rows.values() if r["day_pnl"] > 0), reverse=True)
    losses = sorted(r["day_pnl"] for r in rows.values() if r["day_pnl"] < 0)
    assert [rows[t]["day_pnl"] for t in ranks["top_contributors"]] == gains[:MOVERS_SHOWN]
    assert [rows[t]["day_pnl"] for t in ranks["detractors"]] == losses[:MOVERS_SHOWN]
    return ranks


def test_ranks_agree_with_the_position_tool_and_the_table_on_the_sample(sample: Catalog) -> None:
    for portfolio_id in sample.portfolio_ids():
        for day in (SAMPLE_DATE, date(2024, 12, 20), date(2024, 7, 1), date(2023, 6, 14)):
            check_ranks(sample, portfolio_id, day)
        ranks = check_ranks(sample, portfolio_id, SAMPLE_DATE)
        table = collect_portfolio_table(sample, portfolio_id, SAMPLE_DATE)
        assert (ranks["market_value"], ranks["portfolio_day_pnl"]) == (
            table.market_value,
            table.day_pnl,
        )
        assert ranks["portfolio_return_pct"] == table.day_return_pct
        assert ranks["top_contributors"][:3] == table.contributors
        assert ranks["detractors"][:3] == table.detractors


def test_ranks_agree_with_the_position_tool_on_a_generated_set(catalog: Catalog) -> None:
    for portfolio_id in catalog.portfolio_ids():
        for day in catalog.sessions[-60::7]:
            check_ranks(catalog, portfolio_id, day)


def test_equal_figures_share_their_ranks(built: Catalog) -> None:
    ranks = check_ranks(built, "P1", SESSIONS[-1])
    rows = {r["ticker"]: r for r in ranks["positions"]}
    for rank in RANKS:
        assert rows["BBB"][f"{rank}_rank"] == rows["CCC"][f"{rank}_rank"], rank
        taken = sorted(r[f"{rank}_rank"] for r in rows.values())
        tie = rows["BBB"][f"{rank}_rank"]
        assert tie + 1 not in taken, (rank, taken)  # the rank after a pair is skipped


def test_a_benchmark_named_in_the_data_is_used(built: Catalog) -> None:
    ranks = ok(built, "get_portfolio_ranks", {"portfolio_id": "P1", "date": str(SESSIONS[-1])})
    move = ok(built, "get_daily_move", {"ticker": "IDX", "date": str(SESSIONS[-1])})
    assert ranks["benchmark"] == {"name": "IDX", "ticker": "IDX", "return_pct": move["change_pct"]}
    assert move["change_pct"] == round(3 / (1000 + 3 * (N - 2)) * 100, 2)


def universe_mean(day_index: int) -> float:
    """The equal-weight day return from the constructed closes, splits taken out by hand."""
    moves = []
    before, day = SESSIONS[day_index - 1], SESSIONS[day_index]
    for ticker, series in constructed_closes().items():
        if before in series and day in series:
            base = series[before] / (2 if ticker == "SPL" and day_index == SPLIT_AT else 1)
            moves.append((series[day] - base) / base * 100)
    return round(sum(moves) / len(moves), 2)


def test_without_a_benchmark_the_universe_equal_weight_move_is_used(built: Catalog) -> None:
    for index in (SPLIT_AT, N - 1, N - 2):
        ranks = ok(
            built, "get_portfolio_ranks", {"portfolio_id": "P2", "date": str(SESSIONS[index])}
        )
        assert ranks["benchmark"]["name"] == "equal-weight universe"
        assert ranks["benchmark"]["ticker"] is None
        assert ranks["benchmark"]["return_pct"] == universe_mean(index), index


def test_a_portfolios_file_without_the_benchmark_column_reads_as_none(tmp_path: Path) -> None:
    folder = write_constructed(tmp_path / "old", benchmark_column=False)
    with open_catalog(folder, SESSIONS[-1], workdir=tmp_path / "work") as cat:
        ranks = ok(cat, "get_portfolio_ranks", {"portfolio_id": "P1", "date": str(SESSIONS[-1])})
    assert ranks["benchmark"]["name"] == "equal-weight universe"
    assert ranks["benchmark"]["return_pct"] == universe_mean(N - 1)


def test_a_position_without_a_day_change_is_named_not_ranked(built: Catalog) -> None:
    """HLT did not trade on the session two before the last: that day it has no P&L."""
    ranks = ok(built, "get_portfolio_ranks", {"portfolio_id": "P1", "date": str(SESSIONS[N - 3])})
    assert "HLT" not in {r["ticker"] for r in ranks["positions"]}
    assert [u["ticker"] for u in ranks["unpriced"]] == ["HLT"]
    assert ranks["positions_count"] == 4


def test_ranks_never_see_a_price_after_their_date(
    constructed: Path, built: Catalog, catalog: Catalog, small_data: Path, tmp_path: Path
) -> None:
    """Asked for an earlier date, a catalog that holds later prices answers as one that does not."""
    cases = [
        (constructed, built, SESSIONS[-2], "P1"),
        (small_data, catalog, catalog.sessions[-5], "P002"),
    ]
    for folder, late, day, portfolio_id in cases:
        args = {"portfolio_id": portfolio_id, "date": str(day)}
        with open_catalog(folder, day, workdir=tmp_path / str(day)) as early:
            ranks = call_tool(early, "get_portfolio_ranks", args)
            assert call_tool(late, "get_portfolio_ranks", args) == ranks
            for row in ranks["positions"]:
                trend = {"ticker": row["ticker"], "date": str(day)}
                assert call_tool(late, "get_trend", trend) == call_tool(early, "get_trend", trend)


def test_a_day_not_a_session_answers_for_the_session_before(built: Catalog) -> None:
    saturday = next(
        d for d in (SESSIONS[-1] - timedelta(days=i) for i in range(7)) if d.weekday() == 5
    )
    ranks = ok(built, "get_portfolio_ranks", {"portfolio_id": "P1", "date": str(saturday)})
    assert ranks["session"] == str(max(d for d in SESSIONS if d < saturday))
    assert "no session on" in ranks["note"]


@pytest.mark.parametrize(
    ("tool", "args", "says"),
    [
        ("get_portfolio_ranks", {"portfolio_id": "NOPE", "date": "2024-05-31"}, "unknown portfolio 'NOPE'; valid ids: P1, P2"),
        ("get_portfolio_ranks", {"portfolio_id": "P1", "date": "2024-06-03"}, "after the report date"),
        ("get_portfolio_ranks", {"portfolio_id": "P1", "date": "2024-02-01"}, "no session on or before 2024-02-01"),
        ("get_trend", {"ticker": "AAA", "date": "2024-06-03"}, "after the report date"),
        ("get_trend", {"ticker": "ZZZ", "date": "2024-05-31"}, "unknown ticker 'ZZZ'"),
        ("get_company", {"ticker": "AAB"}, "unknown ticker 'AAB'; did you mean AAA"),
    ],
)  # fmt: skip
def test_a_bad_argument_is_one_line_that_says_what_is_valid(
    built: Catalog, tool: str, args: dict[str, Any], says: str
) -> None:
    outcome = run_tool(built, tool, args)
    assert isinstance(outcome, ToolFailure)
    assert says in outcome.message and "\n" not in outcome.message


# --- get_trend --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("ticker", "direction", "sessions", "since"),
    [
        ("AAA", "up", 3, SESSIONS[N - 3]),
        ("SPL", "up", N - 1, SESSIONS[1]),  # the split day is a rise once the ratio is out
        ("FLT", "flat", N - 1, SESSIONS[1]),
        ("HLT", "up", 1, SESSIONS[N - 1]),  # the halt ends the run
    ],
)
def test_streak_on_a_constructed_series(
    built: Catalog, ticker: str, direction: str, sessions: int, since: date
) -> None:
    trend = ok(built, "get_trend", {"ticker": ticker, "date": str(SESSIONS[-1])})
    assert trend["streak"] == {
        "direction": direction,
        "sessions": sessions,
        "since_session": since.isoformat(),
    }


def test_a_first_session_has_no_streak_and_no_window(built: Catalog) -> None:
    trend = ok(built, "get_trend", {"ticker": "NEW", "date": str(SESSIONS[-1])})
    assert trend["streak"] is None and trend["changes"] == []


def test_streaks_agree_with_the_daily_move_on_a_generated_set(catalog: Catalog) -> None:
    """Every session of the run moved the streak's way; the session before it did not, or had
    no day change at all."""
    for ticker, listing in sorted(catalog.listings.items()):
        if listing.last is None or listing.last < catalog.report_date:
            continue
        trend = ok(catalog, "get_trend", {"ticker": ticker, "date": str(catalog.report_date)})
        streak = trend["streak"]
        if streak is None:  # the session has no day change: a gap before it
            args = {"ticker": ticker, "date": trend["session"]}
            assert isinstance(run_tool(catalog, "get_daily_move", args), ToolFailure)
            continue
        run = [d for d in catalog.sessions if streak["since_session"] <= str(d) <= trend["session"]]
        assert len(run) == streak["sessions"], ticker
        for day in run:
            move = ok(catalog, "get_daily_move", {"ticker": ticker, "date": str(day)})
            assert direction(move["change"]) == streak["direction"], (ticker, day)
        if run[0] == catalog.sessions[0]:
            continue
        before = catalog.sessions[catalog.sessions.index(run[0]) - 1]
        outcome = run_tool(catalog, "get_daily_move", {"ticker": ticker, "date": str(before)})
        if isinstance(outcome, ToolResult):
            assert direction(outcome.data["change"]) != streak["direction"], ticker


def direction(change: float) -> str:
    return "up" if change > 0 else "down" if change < 0 else "flat"


def window_start(window: str, session: date) -> date:
    """Each window's start date, computed another way than the tool does."""
    if window == "week":
        return session - timedelta(days=7)
    if window == "month":
        return session - relativedelta(months=1)
    if window == "quarter":
        return (pd.Period(session, freq="Q").start_time - pd.Timedelta(days=1)).date()
    return date(session.year - 1, 12, 31)


def check_windows(catalog: Catalog, ticker: str, day: date) -> list[str]:
    """Every window equals `get_price_change` from its start date to the session."""
    trend = ok(catalog, "get_trend", {"ticker": ticker, "date": str(day)})
    session = date.fromisoformat(trend["session"])
    for change in trend["changes"]:
        start = window_start(change["window"], session)
        expected = ok(
            catalog,
            "get_price_change",
            {"ticker": ticker, "start": str(start), "end": str(session)},
        )
        expected.pop("ticker"), expected.pop("price_basis")
        assert {k: v for k, v in change.items() if k != "window"} == expected, (ticker, change)
    return [c["window"] for c in trend["changes"]]


def test_windows_agree_with_the_price_change_tool(sample: Catalog, built: Catalog) -> None:
    for ticker in ("AAA", "SPL", "HLT", "IDX"):
        assert check_windows(built, ticker, SESSIONS[-1]) == ["week", "month", "quarter"]
    assert check_windows(built, "SPL", SESSIONS[SPLIT_AT + 3]) == ["week", "month", "quarter"]
    assert check_windows(built, "AAA", SESSIONS[15]) == ["week"]  # the prices start in March
    every = ["week", "month", "quarter", "year_to_date"]
    for ticker, listing in sorted(sample.listings.items()):
        if listing.last is not None and listing.last >= date(2024, 11, 15):
            assert check_windows(sample, ticker, date(2024, 11, 15)) == every, ticker


def test_the_windows_are_those_the_prices_reach(catalog: Catalog) -> None:
    """The generated set starts in January 2024: no year to date, the rest all there."""
    ticker = next(t for t, listing in sorted(catalog.listings.items()) if listing.last)
    assert check_windows(catalog, ticker, catalog.report_date) == ["week", "month", "quarter"]


# --- get_company ------------------------------------------------------------------------------


def test_company_is_the_companies_row(sample: Catalog) -> None:
    companies = pd.read_parquet(SAMPLE / "companies.parquet").set_index("ticker")
    for ticker in companies.index[:10]:
        assert ok(sample, "get_company", {"ticker": ticker}) == {
            "ticker": ticker,
            "name": companies.at[ticker, "name"],
            "sector": companies.at[ticker, "sector"],
        }
    ranks = ok(sample, "get_portfolio_ranks", {"portfolio_id": "P001", "date": str(SAMPLE_DATE)})
    for row in ranks["positions"]:
        assert (row["name"], row["sector"]) == tuple(
            companies.loc[row["ticker"], ["name", "sector"]]
        )


def test_the_table_names_weighs_and_benchmarks_each_position(sample: Catalog) -> None:
    """The report's table carries the ranks' company, sector, weight and benchmark, the excess
    return computed from them, and a month of closes for each material mover."""
    for portfolio_id in sample.portfolio_ids():
        ranks = run_tool(sample, "get_portfolio_ranks", {"portfolio_id": portfolio_id,
                                                         "date": str(SAMPLE_DATE)}).data  # fmt: skip
        table = collect_portfolio_table(sample, portfolio_id, SAMPLE_DATE)
        rows = {r["ticker"]: r for r in ranks["positions"]}
        for position in table.positions:
            if position.error is None:
                row = rows[position.ticker]
                assert (position.name, position.sector) == (row["name"], row["sector"])
                assert position.weight_pct == row["weight_pct"] and position.name
        assert table.benchmark is not None
        assert table.benchmark.return_pct == ranks["benchmark"]["return_pct"]
        assert table.excess_return_pct == round(
            table.day_return_pct - ranks["benchmark"]["return_pct"], 2
        )
        order = [p.contribution_pct for p in table.by_contribution() if p.error is None]
        assert order == sorted(order, reverse=True)
        movers = {p.ticker for p in table.positions if p.error is None and p.material}
        assert set(table.history) == movers
        for ticker, points in table.history.items():
            assert 2 <= len(points) <= HISTORY_SESSIONS and points[-1].day <= SAMPLE_DATE
            closes = {p.ticker: p.close for p in table.positions}
            assert points[-1].close == closes[ticker]
            assert [p.day for p in points] == sorted(p.day for p in points)

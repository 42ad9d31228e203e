"""Price tools against figures computed here from the raw Parquet with pandas."""

from __future__ import annotations

from datetime import date, timedelta

import pandas as pd
import pytest

from data.facts import GenerationFacts
from tools.catalog import Catalog
from tools.registry import call_tool


def sessions(frames: dict[str, pd.DataFrame], ticker: str) -> pd.DataFrame:
    prices = frames["prices"]
    return prices[prices.ticker == ticker].sort_values("date").reset_index(drop=True)


def plain_ticker(frames: dict[str, pd.DataFrame], facts: GenerationFacts) -> str:
    special = {facts.split.ticker, facts.delisted.ticker, facts.halt.ticker}
    return next(t for t in sorted(frames["companies"].ticker) if t not in special)


def test_get_price_on_a_session(catalog: Catalog, frames, facts) -> None:
    ticker = plain_ticker(frames, facts)
    row = sessions(frames, ticker).iloc[100]
    result = call_tool(catalog, "get_price", {"ticker": ticker, "date": row.date.isoformat()})
    assert result["session"] == row.date.isoformat()
    assert result["close"] == round(row.close, 2)
    assert result["volume"] == row.volume
    assert result["price_basis"] == "as traded"
    assert "note" not in result


def test_get_price_on_a_holiday_uses_the_previous_session(catalog: Catalog, frames, facts) -> None:
    ticker = plain_ticker(frames, facts)
    holiday = next(h for h in facts.holidays if date(2024, 2, 1) < h < catalog.report_date)
    rows = sessions(frames, ticker)
    previous = rows[rows.date < holiday].iloc[-1]
    result = call_tool(catalog, "get_price", {"ticker": ticker, "date": holiday.isoformat()})
    assert result["session"] == previous.date.isoformat()
    assert result["close"] == round(previous.close, 2)
    assert holiday.isoformat() in result["note"]


def test_get_price_never_reads_past_the_report_date(catalog: Catalog, frames, facts) -> None:
    ticker = plain_ticker(frames, facts)
    rows = sessions(frames, ticker)
    assert rows.date.max() > catalog.report_date  # the raw file does hold later sessions
    result = call_tool(
        catalog, "get_price", {"ticker": ticker, "date": catalog.report_date.isoformat()}
    )
    assert result["session"] == rows[rows.date <= catalog.report_date].date.max().isoformat()


def test_get_daily_move(catalog: Catalog, frames, facts) -> None:
    ticker = plain_ticker(frames, facts)
    rows = sessions(frames, ticker)
    today, before = rows.iloc[150], rows.iloc[149]
    result = call_tool(
        catalog, "get_daily_move", {"ticker": ticker, "date": today.date.isoformat()}
    )
    change = today.close - before.close
    assert result == {
        "ticker": ticker,
        "session": today.date.isoformat(),
        "previous_session": before.date.isoformat(),
        "price_basis": "as traded",
        "close": round(today.close, 2),
        "previous_close": round(before.close, 2),
        "change": round(change, 2),
        "change_pct": round(change / before.close * 100, 2),
    }


def test_get_daily_move_on_the_split_day_is_the_economic_change(
    catalog: Catalog, frames, facts
) -> None:
    split = facts.split
    rows = sessions(frames, split.ticker)
    i = rows.index[rows.date == split.date][0]
    close, previous = rows.close[i], rows.close[i - 1]
    result = call_tool(
        catalog, "get_daily_move", {"ticker": split.ticker, "date": split.date.isoformat()}
    )
    adjusted = previous / split.ratio
    assert result["previous_close"] == round(previous, 2)
    assert result["previous_close_adjusted"] == round(adjusted, 2)
    assert result["change_pct"] == round((close - adjusted) / adjusted * 100, 2)
    assert abs(result["change_pct"]) < 25  # as traded it would read as a halving
    assert result["splits"] == [{"date": split.date.isoformat(), "ratio": split.ratio}]
    assert "split" in result["note"]


def test_get_price_change_across_the_split(catalog: Catalog, frames, facts) -> None:
    split = facts.split
    rows = sessions(frames, split.ticker)
    start, end = split.date - timedelta(days=40), split.date + timedelta(days=40)
    first = rows[rows.date <= start].iloc[-1]
    last = rows[rows.date <= end].iloc[-1]
    result = call_tool(
        catalog,
        "get_price_change",
        {"ticker": split.ticker, "start": start.isoformat(), "end": end.isoformat()},
    )
    base = first.close / split.ratio
    assert result["start_session"] == first.date.isoformat()
    assert result["end_session"] == last.date.isoformat()
    assert result["start_close"] == round(first.close, 2)
    assert result["end_close"] == round(last.close, 2)
    assert result["change"] == round(last.close - base, 2)
    assert result["change_pct"] == round((last.close - base) / base * 100, 2)


def test_get_price_change_without_split(catalog: Catalog, frames, facts) -> None:
    ticker = plain_ticker(frames, facts)
    rows = sessions(frames, ticker)
    first, last = rows.iloc[10], rows.iloc[60]
    result = call_tool(
        catalog,
        "get_price_change",
        {"ticker": ticker, "start": first.date.isoformat(), "end": last.date.isoformat()},
    )
    assert "splits" not in result
    assert result["change_pct"] == round((last.close - first.close) / first.close * 100, 2)


def error_of(catalog: Catalog, name: str, args: dict) -> str:
    result = call_tool(catalog, name, args)
    assert set(result) == {"error"}, result
    return result["error"]


def test_unknown_ticker_suggests_near_ones(catalog: Catalog, frames, facts) -> None:
    ticker = plain_ticker(frames, facts)
    message = error_of(catalog, "get_price", {"ticker": ticker + "X", "date": "2024-06-03"})
    assert "unknown ticker" in message and ticker in message


@pytest.mark.parametrize(
    "bad", ["2024/06/03", "20240603", "2024-13-01", "June 3", "2024-06-03T10:00"]
)
def test_bad_date_format(catalog: Catalog, frames, facts, bad: str) -> None:
    message = error_of(catalog, "get_price", {"ticker": plain_ticker(frames, facts), "date": bad})
    assert "date" in message and "YYYY-MM-DD" in message


def test_lower_case_ticker_is_refused_with_the_rule(catalog: Catalog, frames, facts) -> None:
    message = error_of(
        catalog, "get_price", {"ticker": plain_ticker(frames, facts).lower(), "date": "2024-06-03"}
    )
    assert "upper case" in message


def test_date_before_data_names_the_first_session(catalog: Catalog, frames, facts) -> None:
    ticker = plain_ticker(frames, facts)
    first = sessions(frames, ticker).date.min()
    message = error_of(catalog, "get_daily_move", {"ticker": ticker, "date": "2023-06-01"})
    assert f"first session of {ticker}, {first.isoformat()}" in message


def test_date_after_report_date(catalog: Catalog, frames, facts) -> None:
    later = (catalog.report_date + timedelta(days=3)).isoformat()
    message = error_of(catalog, "get_price", {"ticker": plain_ticker(frames, facts), "date": later})
    assert f"after the report date {catalog.report_date}" in message


def test_daily_move_on_a_holiday_names_the_nearest_sessions(
    catalog: Catalog, frames, facts
) -> None:
    ticker = plain_ticker(frames, facts)
    holiday = next(h for h in facts.holidays if date(2024, 2, 1) < h < catalog.report_date)
    rows = sessions(frames, ticker)
    before, after = rows[rows.date < holiday].date.max(), rows[rows.date > holiday].date.min()
    message = error_of(catalog, "get_daily_move", {"ticker": ticker, "date": holiday.isoformat()})
    assert "not a trading session" in message
    assert f"{before.isoformat()} and {after.isoformat()}" in message


def test_daily_move_on_a_halt(catalog: Catalog, facts) -> None:
    halt = facts.halt
    message = error_of(
        catalog, "get_daily_move", {"ticker": halt.ticker, "date": halt.date.isoformat()}
    )
    assert "did not trade" in message and "nearest sessions" in message


@pytest.mark.parametrize("tool", ["get_price", "get_daily_move"])
def test_delisted_ticker_after_its_last_day(catalog: Catalog, facts, tool: str) -> None:
    gone = facts.delisted
    later = (gone.last_date + timedelta(days=14)).isoformat()
    message = error_of(catalog, tool, {"ticker": gone.ticker, "date": later})
    assert f"last session {gone.last_date.isoformat()}" in message


def test_delisted_ticker_on_its_last_day_still_answers(catalog: Catalog, frames, facts) -> None:
    gone = facts.delisted
    result = call_tool(
        catalog, "get_price", {"ticker": gone.ticker, "date": gone.last_date.isoformat()}
    )
    assert result["session"] == gone.last_date.isoformat()


def test_first_session_has_no_previous_close(catalog: Catalog, frames, facts) -> None:
    ticker = plain_ticker(frames, facts)
    first = sessions(frames, ticker).date.min().isoformat()
    assert "no previous close" in error_of(
        catalog, "get_daily_move", {"ticker": ticker, "date": first}
    )


def test_price_change_window_must_be_ordered(catalog: Catalog, frames, facts) -> None:
    args = {"ticker": plain_ticker(frames, facts), "start": "2024-06-10", "end": "2024-06-03"}
    assert "before end" in error_of(catalog, "get_price_change", args)


def test_no_day_change_across_missing_sessions(catalog: Catalog, facts) -> None:
    """The session after a halt has no day change: its previous price is two sessions back."""
    from data.calendar import next_session

    halt = facts.halt
    after = next_session(halt.date)
    message = error_of(
        catalog, "get_daily_move", {"ticker": halt.ticker, "date": after.isoformat()}
    )
    assert f"no price for {halt.date.isoformat()}" in message and "no day change" in message
    change = call_tool(
        catalog,
        "get_price_change",
        {"ticker": halt.ticker, "start": "2024-01-02", "end": after.isoformat()},
    )
    assert "error" not in change

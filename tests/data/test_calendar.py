"""The NYSE calendar against the exchange's published holiday schedules."""

from __future__ import annotations

from datetime import date, timedelta
from itertools import pairwise

from hypothesis import given
from hypothesis import strategies as st

from data.calendar import (
    CLOSINGS,
    holidays_between,
    is_trading_day,
    next_session,
    nyse_holidays,
    previous_session,
    trading_days,
)

# Holidays as published by NYSE for these years (the one-off closing of 2025-01-09 included).
PUBLISHED = {
    2021: ["01-01", "01-18", "02-15", "04-02", "05-31", "07-05", "09-06", "11-25", "12-24"],
    2022: ["01-17", "02-21", "04-15", "05-30", "06-20", "07-04", "09-05", "11-24", "12-26"],
    2023: ["01-02", "01-16", "02-20", "04-07", "05-29", "06-19", "07-04", "09-04", "11-23",
           "12-25"],
    2024: ["01-01", "01-15", "02-19", "03-29", "05-27", "06-19", "07-04", "09-02", "11-28",
           "12-25"],
    2025: ["01-01", "01-09", "01-20", "02-17", "04-18", "05-26", "06-19", "07-04", "09-01",
           "11-27", "12-25"],
    2027: ["01-01", "01-18", "02-15", "03-26", "05-31", "06-18", "07-05", "09-06", "11-25",
           "12-24"],
}  # fmt: skip


def test_holidays_match_published_schedules() -> None:
    for year, days in PUBLISHED.items():
        assert list(nyse_holidays(year)) == [date.fromisoformat(f"{year}-{d}") for d in days]


def test_one_off_closings_are_not_sessions() -> None:
    assert all(not is_trading_day(day) and day.weekday() < 5 for day in CLOSINGS)
    assert previous_session(date(2012, 10, 31)) == date(2012, 10, 26)
    assert next_session(date(2018, 12, 4)) == date(2018, 12, 6)
    assert holidays_between(date(2001, 9, 10), date(2001, 9, 17)) == [
        date(2001, 9, 11),
        date(2001, 9, 12),
        date(2001, 9, 13),
        date(2001, 9, 14),
    ]


def test_new_year_on_saturday_is_not_observed_on_friday() -> None:
    assert is_trading_day(date(2021, 12, 31))
    assert date(2022, 1, 1) not in nyse_holidays(2022)


def test_juneteenth_only_from_2022() -> None:
    assert is_trading_day(date(2021, 6, 18))
    assert not is_trading_day(date(2022, 6, 20))


def test_session_counts_per_year() -> None:
    assert len(trading_days(date(2023, 1, 1), date(2023, 12, 31))) == 250
    assert len(trading_days(date(2024, 1, 1), date(2024, 12, 31))) == 252


def test_previous_and_next_session_skip_weekends_and_holidays() -> None:
    assert previous_session(date(2024, 1, 16)) == date(2024, 1, 12)
    assert previous_session(date(2024, 4, 1)) == date(2024, 3, 28)
    assert next_session(date(2024, 12, 24)) == date(2024, 12, 26)
    assert next_session(date(2024, 12, 31)) == date(2025, 1, 2)


def test_holidays_between_lists_weekday_closures_only() -> None:
    assert holidays_between(date(2024, 11, 1), date(2025, 1, 5)) == [
        date(2024, 11, 28),
        date(2024, 12, 25),
        date(2025, 1, 1),
    ]


@given(st.dates(date(2000, 1, 1), date(2040, 12, 31)), st.integers(0, 40))
def test_trading_days_agree_with_the_session_functions(start: date, length: int) -> None:
    days = trading_days(start, start + timedelta(days=length))
    assert all(is_trading_day(d) and d.weekday() < 5 for d in days)
    for earlier, later in pairwise(days):
        assert next_session(earlier) == later
        assert previous_session(later) == earlier

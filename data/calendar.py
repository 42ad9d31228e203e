"""The NYSE trading calendar, computed by rule, plus the exchange's past one-off closings.

Full-day holidays: New Year's Day, Martin Luther King Jr. Day, Washington's Birthday, Good Friday,
Memorial Day, Juneteenth (from 2022), Independence Day, Labor Day, Thanksgiving and Christmas.
A holiday on a Saturday is observed on the Friday before, on a Sunday on the Monday after, except
New Year's Day on a Saturday, which the exchange does not observe (NYSE Rule 7.2). Closings no rule
gives (national days of mourning, storms, 9/11) are listed in `CLOSINGS`; a new one is added there.
"""

from __future__ import annotations

from datetime import date, timedelta
from functools import lru_cache

__all__ = [
    "holidays_between",
    "is_trading_day",
    "next_session",
    "nyse_holidays",
    "previous_session",
    "trading_days",
]

_ONE_DAY = timedelta(days=1)

CLOSINGS: dict[date, str] = {
    date(1985, 9, 27): "Hurricane Gloria",
    date(1994, 4, 27): "National Day of Mourning for Richard Nixon",
    date(2001, 9, 11): "September 11 attacks",
    date(2001, 9, 12): "September 11 attacks",
    date(2001, 9, 13): "September 11 attacks",
    date(2001, 9, 14): "September 11 attacks",
    date(2004, 6, 11): "National Day of Mourning for Ronald Reagan",
    date(2007, 1, 2): "National Day of Mourning for Gerald Ford",
    date(2012, 10, 29): "Hurricane Sandy",
    date(2012, 10, 30): "Hurricane Sandy",
    date(2018, 12, 5): "National Day of Mourning for George H. W. Bush",
    date(2025, 1, 9): "National Day of Mourning for Jimmy Carter",
}
"""Full-day closings that no rule gives: the exchange announces them days ahead at most."""


def _easter(year: int) -> date:
    """Western Easter Sunday (the anonymous Gregorian computus)."""
    a, b, c = year % 19, year // 100, year % 100
    d, e = divmod(b, 4)
    f = (b + 8) // 25
    g = (b - f + 1) // 3
    h = (19 * a + b - d - g + 15) % 30
    i, k = divmod(c, 4)
    m = (32 + 2 * e + 2 * i - h - k) % 7
    n = (a + 11 * h + 22 * m) // 451
    month, day = divmod(h + m - 7 * n + 114, 31)
    return date(year, month, day + 1)


def _nth_weekday(year: int, month: int, weekday: int, n: int) -> date:
    """The n-th given weekday (Monday=0) of a month; n=-1 is the last one."""
    if n > 0:
        first = date(year, month, 1)
        return first + timedelta(days=(weekday - first.weekday()) % 7 + 7 * (n - 1))
    last = date(year + month // 12, month % 12 + 1, 1) - _ONE_DAY
    return last - timedelta(days=(last.weekday() - weekday) % 7)


def _observed(day: date) -> date:
    """Saturday holidays move to Friday, Sunday holidays to Monday."""
    if day.weekday() == 5:
        return day - _ONE_DAY
    if day.weekday() == 6:
        return day + _ONE_DAY
    return day


@lru_cache(maxsize=256)
def nyse_holidays(year: int) -> dict[date, str]:
    """The exchange's full-day holidays and one-off closings of one calendar year, by date."""
    days = {
        _nth_weekday(year, 1, 0, 3): "Martin Luther King Jr. Day",
        _nth_weekday(year, 2, 0, 3): "Washington's Birthday",
        _easter(year) - timedelta(days=2): "Good Friday",
        _nth_weekday(year, 5, 0, -1): "Memorial Day",
        _observed(date(year, 7, 4)): "Independence Day",
        _nth_weekday(year, 9, 0, 1): "Labor Day",
        _nth_weekday(year, 11, 3, 4): "Thanksgiving Day",
        _observed(date(year, 12, 25)): "Christmas Day",
    }
    new_year = date(year, 1, 1)
    if new_year.weekday() != 5:
        days[_observed(new_year)] = "New Year's Day"
    if year >= 2022:
        days[_observed(date(year, 6, 19))] = "Juneteenth"
    days.update({day: why for day, why in CLOSINGS.items() if day.year == year})
    return dict(sorted(days.items()))


def is_trading_day(day: date) -> bool:
    """True for a weekday that is not an exchange holiday."""
    return day.weekday() < 5 and day not in nyse_holidays(day.year)


def trading_days(start: date, end: date) -> list[date]:
    """Every session from `start` to `end`, both included, in order."""
    count = (end - start).days + 1
    return [d for d in (start + timedelta(days=i) for i in range(count)) if is_trading_day(d)]


def holidays_between(start: date, end: date) -> list[date]:
    """Exchange holidays that fall on weekdays from `start` to `end`, both included."""
    return [
        d
        for year in range(start.year, end.year + 1)
        for d in nyse_holidays(year)
        if start <= d <= end and d.weekday() < 5
    ]


def previous_session(day: date) -> date:
    """The last session strictly before `day`."""
    day -= _ONE_DAY
    while not is_trading_day(day):
        day -= _ONE_DAY
    return day


def next_session(day: date) -> date:
    """The first session strictly after `day`."""
    day += _ONE_DAY
    while not is_trading_day(day):
        day += _ONE_DAY
    return day

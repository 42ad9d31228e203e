"""Readings: what one result string vouches for (its dates, tickers and numbers), read once and
cached, since results repeat strings; and the details a date may be named at."""

from __future__ import annotations

import re
from datetime import date, timedelta
from functools import lru_cache
from typing import NamedTuple

from verifier.claim import QUARTER_BASE, Claim, DateReading
from verifier.extraction import extract_facts
from verifier.periods import Period
from verifier.trace_facts import ISO_DATE, TOKEN


class TextReading(NamedTuple):
    """What one result string vouches for, independent of the event that holds it."""

    tickers: tuple[str, ...]
    dates: tuple[tuple[DateReading, bool], ...]
    """Each date named, and whether the string names it only as a comparison base (a quarter)."""
    numbers: tuple[tuple[float, int, bool, bool, Period | None, int], ...]
    """(value, decimals written, signed, has a percent-like unit, period, bound)."""
    empty: bool
    """Whether the string vouches for no date and no ticker."""


_NOTHING = TextReading((), (), (), True)
_ASCII_DIGIT = re.compile("[0-9]")
"""`str.isdigit` of an ASCII character (beyond ASCII it also holds superscripts: asked per
character there)."""


@lru_cache(maxsize=8192)
def read_text(text: str) -> TextReading:
    """Dates, tickers and numbers written in a string; cached, since results repeat strings."""
    iso = ISO_DATE.fullmatch(text)
    if iso:
        days = iso_days(iso)
        return TextReading((), days, (), not days)
    tickers = tuple(TOKEN.findall(text))
    if not (_ASCII_DIGIT.search(text) if text.isascii() else any(map(str.isdigit, text))):
        return TextReading(tickers, (), (), not tickers) if tickers else _NOTHING
    dates: list[DateReading] = []
    tied: set[DateReading] = set()
    free: set[DateReading] = set()
    numbers: list[tuple[float, int, bool, bool, Period | None, int]] = []
    claims = extract_facts(text)
    years = _quarter_years(claims)
    for claim in claims:
        if claim.kind == "date":
            dates += claim.dates
            (tied if claim.tied else free).update(claim.dates)
        elif claim.readings:
            unit, signed = bool(claim.unit), claim.sign != 0
            period = claim.period
            if period is not None and period.year is None and period.quarter in years:
                period = period._replace(year=years[period.quarter].year)
            for value, decimals in claim.readings:
                scaled = value * claim.scale * (claim.sign or 1)
                numbers.append((scaled, decimals, signed, unit, period, claim.bound))
                if claim.scale != 1.0:
                    numbers.append((value, decimals, False, unit, period, claim.bound))
    only_base = tied - free
    named = tuple((when, when in only_base) for when in dates)
    return TextReading(tickers, named, tuple(numbers), not (tickers or named))


@lru_cache(maxsize=1024)
def arg_dates(value: str) -> tuple[DateReading, ...]:
    """The dates a call's argument names where it is written as an ISO date or timestamp
    (calls repeat their arguments)."""
    if not ISO_DATE.fullmatch(value):
        return ()
    return tuple(when for when, _ in read_text(value).dates)


def _quarter_years(claims: list[Claim]) -> dict[int, Period]:
    """The periods a source means by the quarters it names without a year ("Third quarter
    adjusted EPS was $0.34"): the one year it names that quarter with for its own figures (not as
    a base), where there is exactly one."""
    years: dict[int, set[int]] = {}
    for claim in claims:
        if claim.kind != "date" or claim.tied:
            continue
        for year, month, day in claim.dates:
            if year is not None and month > QUARTER_BASE and day is None:
                years.setdefault(month - QUARTER_BASE, set()).add(year)
    return {q: Period(next(iter(ys)), q) for q, ys in years.items() if len(ys) == 1}


def iso_days(m: re.Match[str]) -> tuple[tuple[DateReading, bool], ...]:
    """The calendar day of an ISO date or timestamp (and the US day before, before 05:00 UTC)."""
    try:
        day = date(int(m.group(1)), int(m.group(2)), int(m.group(3)))
    except ValueError:
        return ()
    hour, zone = m.group(4), m.group(5)
    if hour is not None and zone in ("Z", "+00:00", "+0000") and int(hour) < 5:
        before = day - timedelta(days=1)
        return (
            ((day.year, day.month, day.day), False),
            ((before.year, before.month, before.day), False),
        )
    return (((day.year, day.month, day.day), False),)


@lru_cache(maxsize=4096)
def date_keys(reading: DateReading) -> tuple[DateReading, ...]:
    """Every detail a claim may give of a date: day, month, quarter, year."""
    year, month, day = reading
    keys: set[DateReading] = {(year, month, day), (None, month, day), (year, month, None)}
    if month <= QUARTER_BASE:
        quarter = QUARTER_BASE + (month - 1) // 3 + 1
        keys |= {(year, quarter, None), (None, quarter, None)}
    if year is not None:
        keys.add((year, 0, None))
    return tuple(k for k in keys if not (k[0] is None and k[2] is None and k[1] <= QUARTER_BASE))

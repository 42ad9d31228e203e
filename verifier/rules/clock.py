"""Clock times: "at 4:27 p.m. ET", "a las 8:36, hora de Nueva York", "(08:45 ET)" are claims.

A time of day is held against the times the results give (a headline's `published_at`, an
event's `announced_at`, any ISO timestamp a result writes), in the zone the draft names (New
York time by default: the exchange's, as the results write it; UTC where it says so), on the
day its sentence names nearest to it and, where that day or the sentence is tied to a quoted
headline, at that headline's times. A time no result gives ("the call is at 8:30am ET") is
`unsupported_date`; one that holds covers its words, zone included.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta, timezone
from functools import lru_cache
from zoneinfo import ZoneInfo

from contract.reasons import ReasonCode
from verifier.claim import Claim
from verifier.grammar.dates import CLOCK
from verifier.periods import sentence_starts
from verifier.reuse import per_trace
from verifier.rules.case import Case
from verifier.verdict import Reason

_HINT = re.compile(r"\d:\d\d")
_STAMP = re.compile(r"\d{4}-\d\d-\d\d[T ]\d\d:\d\d(?::\d\d(?:\.\d+)?)?(?:Z|[+-]\d\d:?\d\d)?")
_NEW_YORK = ZoneInfo("America/New_York")


_OFFSET = re.compile(r"(?:utc|gmt)\s?([+\-−])\s?(\d{1,2})(?::?(\d\d))?")
"""A zone written as an offset from UTC ("UTC-05:00", as the results write their times)."""


def _zone(written: str | None) -> str:
    """ "utc", "et", "" (none written) or an offset in minutes east of UTC ("-300")."""
    folded = (written or "").strip().casefold()
    if offset := _OFFSET.fullmatch(folded):
        sign = -1 if offset.group(1) in "-−" else 1
        return str(sign * (int(offset.group(2)) * 60 + int(offset.group(3) or 0)))
    if folded in {"utc", "gmt", "z", "hora utc"}:
        return "utc"
    return "et" if written else ""


@lru_cache(maxsize=4096)
def _moment(stamp: str) -> datetime:
    when = datetime.fromisoformat(stamp.replace(" ", "T"))
    return when if when.tzinfo else when.replace(tzinfo=UTC)


def _stamps(case: Case) -> list[str]:
    return _all_stamps((), [case.evidence.runs], case.evidence.runs)


@per_trace
def _all_stamps(runs: list[tuple[str, list[str]]]) -> list[str]:
    """Every timestamp a result string writes, once each."""
    found = {
        m.group() for _, texts in runs for text in texts if ":" in text
        for m in _STAMP.finditer(text)
    }  # fmt: skip
    return sorted(found)


def _readings(stamp: str, zone: str) -> set[tuple[tuple[int, int, int], int, int]]:
    """(day, hour, minute) of a timestamp in the zone named; with none, in New York time and as
    the result writes it."""
    when = _moment(stamp)
    if zone.lstrip("-").isdigit():  # "16:47 (UTC-05:00)": the time at that offset
        there = when.astimezone(timezone(timedelta(minutes=int(zone))))
        return {((there.year, there.month, there.day), there.hour, there.minute)}
    seen = [when.astimezone(UTC)] if zone == "utc" else [when.astimezone(_NEW_YORK)]
    if not zone:
        seen.append(when)
    return {((w.year, w.month, w.day), w.hour, w.minute) for w in seen}


def _days(claim: Claim) -> list[tuple[int | None, int, int | None]]:
    return [d for d in claim.dates if d[2] is not None]


def check_clock_times(case: Case) -> Iterator[Reason]:
    """Each time of day the draft writes outside a timestamp, held against the results' times."""
    text = case.trace.draft or ""
    if _HINT.search(text) is None:
        return
    dates = [f.claim for f in case.findings if f.claim.kind == "date"]
    quotes = [f.claim for f in case.findings if f.claim.kind == "headline"]
    starts = sentence_starts(text)
    for m in CLOCK.finditer(text):
        start, end = m.span()
        if any(d.start <= start < d.end for d in dates):
            continue  # a date written with its time: the date rules hold it
        hour, minute = int(m["h"]), int(m["m"])
        if m["half"]:
            if not 1 <= hour <= 12:
                continue
            hour = hour % 12 + (12 if m["half"].casefold() == "p" else 0)
        if hour > 23:
            continue
        sentence = bisect_right(starts, start) - 1
        low = starts[sentence]
        high = starts[sentence + 1] if sentence + 1 < len(starts) else len(text)
        near = [d for d in dates if low <= d.start < high and _days(d)]
        day = min(near, key=lambda d: abs(d.start - start), default=None)
        headlines = {day.headline} if day is not None and day.headline else set()
        headlines |= {q.text for q in quotes if low <= q.start < high}
        stamps = _stamps(case)
        if headlines:
            times = {t for h in headlines for t in case.evidence.headline_times(h)}
            stamps = sorted(times) or stamps
        zone = _zone(m["zone"])
        if _held(stamps, zone, hour, minute, day):
            case.bound.append((start, end))
            continue
        on = f" on the day its sentence names ({day.text})" if day is not None else ""
        yield Reason(
            rule=ReasonCode.UNSUPPORTED_DATE,
            message=(
                f'"{m.group().strip()}": no tool result gives this time of day{on}'
                + (" for the headline it is written with" if headlines else "")
            ),
            span=(start, end),
        )


def _held(stamps: list[str], zone: str, hour: int, minute: int, day: Claim | None) -> bool:
    for stamp in stamps:
        for (year, month, dd), h, mi in _readings(stamp, zone):
            if (h, mi) != (hour, minute):
                continue
            if day is None or any(
                (y is None or y == year) and mo == month and d == dd for y, mo, d in _days(day)
            ):
                return True
    return False

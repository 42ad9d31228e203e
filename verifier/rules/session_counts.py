"""Sessions counted between two days: "the 2024-12-24 close, four sessions before 2024-12-31",
"the previous close, on 2024-12-30, was one session earlier", "cinco sesiones antes del 31 de
diciembre". The count is the exchange's weekdays after the earlier day up to the later one,
fixed-date holidays left out (December 25, January 1, July 4): one that differs is
`wrong_time`; one whose days the sentence does not name is `unverified_claim`.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Iterator
from datetime import date, timedelta

from contract.reasons import ReasonCode
from verifier.periods import sentence_starts
from verifier.rules.case import Case
from verifier.rules.relations import count_words
from verifier.scanner import fold_aligned
from verifier.verdict import Reason

_COUNTED = re.compile(
    r"(?<!\w)(?P<n>\d{1,3}|[a-z]+)\s+(?:trading\s+)?(?:sessions?|trading\s+days?|sesi(?:ón|ones)|"
    r"jornadas?|ruedas?)(?:\s+(?:de\s+)?(?:bolsa|negociación))?\s+(?P<way>before|after|earlier|later|"
    r"prior(?:\s+to)?|ago|antes|después|más\s+tarde|atrás)(?!\w)"
)
_HOLIDAYS = ((1, 1), (7, 4), (12, 25))
"""Fixed-date exchange holidays: a weekday on one of them is no session."""


def check_session_counts(case: Case) -> Iterator[Reason]:
    """Each count of sessions between two days, held against the exchange's weekdays."""
    text = case.trace.draft or ""
    folded = fold_aligned(text)
    if not any(w in folded for w in ("session", "trading day", "sesi", "jornada", "rueda")):
        return
    report = case.report_day
    starts = sentence_starts(text)
    dated = sorted(
        (f.claim for f in case.findings if f.claim.kind == "date" and len(f.claim.dates) == 1),
        key=lambda c: c.start,
    )
    for m in _COUNTED.finditer(folded):
        n = int(m["n"]) if m["n"].isdigit() else count_words().get(m["n"])
        if n is None or report is None:
            continue
        lo = starts[bisect_right(starts, m.start()) - 1]
        before = [c for c in dated if lo <= c.start and c.end <= m.start()]
        after = [c for c in dated if m.end() <= c.start <= m.end() + 8]
        first = _day(before[-1].dates[0], report) if before else None
        second = _day(after[0].dates[0], report) if after else report
        said = text[m.start() : after[0].end if after else m.end()]
        if first is None or second is None:
            yield Reason(
                rule=ReasonCode.UNVERIFIED_CLAIM,
                message=f'"{said}" counts sessions between days the sentence does not name',
                span=m.span(),
            )
            continue
        lo_day, hi_day = sorted((first, second))
        held = _sessions(lo_day, hi_day)
        if held == n:
            case.bound.append(m.span())
            continue
        yield Reason(
            rule=ReasonCode.WRONG_TIME,
            message=f'"{said}" counts {n} session{"s" if n != 1 else ""} from {lo_day} to '
            f"{hi_day}, but the exchange traded {held}",
            span=m.span(),
        )


def _day(reading: tuple[int | None, int, int | None], report: date) -> date | None:
    year, month, day = reading
    if not day:
        return None
    year = year or report.year - (month > report.month)
    try:
        return date(year, month, day)
    except ValueError:
        return None


def is_session(day: date) -> bool:
    """Whether the exchange trades on `day`: a weekday that is no fixed-date holiday."""
    return day.weekday() < 5 and (day.month, day.day) not in _HOLIDAYS


def session_before(day: date) -> date:
    """The last session before `day`."""
    day -= timedelta(days=1)
    while not is_session(day):
        day -= timedelta(days=1)
    return day


def session_after(day: date) -> date:
    """The first session after `day`."""
    day += timedelta(days=1)
    while not is_session(day):
        day += timedelta(days=1)
    return day


def _sessions(first: date, last: date) -> int:
    """The sessions after `first` up to `last`."""
    count, day = 0, first
    while day < last:
        day += timedelta(days=1)
        count += is_session(day)
    return count

"""Rules on dates: a date no result holds, a wrong weekday, a day named as an event's that is
not, a headline's session or time the source does not give."""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import date, datetime, time, timedelta
from zoneinfo import ZoneInfo

from contract.reasons import ReasonCode
from verifier.claim import QUARTER_BASE, Claim
from verifier.evidence import Evidence
from verifier.readings import iso_days
from verifier.rules.case import Case, Finding
from verifier.rules.session_counts import is_session, session_after, session_before
from verifier.times import same_day
from verifier.trace_facts import ISO_DATE
from verifier.verdict import Reason

_TIMESTAMP = re.compile(r"(\d{4}-\d\d-\d\d)[T ](\d\d:\d\d)")
"""A date written with its time: the time (to the minute) must be one a result holds."""
_DAY_NAMES = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")


def _wrong_weekday(claim: Claim, evidence: Evidence) -> str | None:
    """Why the weekday written with a date is not its day, if no reading of it agrees. A date
    without its year ("Tuesday, January 13") takes the years the trace gives that day."""
    days: list[tuple[date, int]] = []
    for year, month, day in claim.dates:
        if day is None or month > QUARTER_BASE:
            return None
        years = (
            [year]
            if year is not None
            else sorted({y for y, m, d in evidence.dates if m == month and d == day and y})
        )
        for each in years:
            try:
                when = date(each, month, day)
            except ValueError:
                continue
            days.append((when, when.weekday()))
    if not days or any(weekday == claim.weekday for _, weekday in days):
        return None
    when, weekday = days[0]
    return (
        f'"{claim.text}" ({when.isoformat()}) is a {_DAY_NAMES[weekday]}, not a '
        f"{_DAY_NAMES[claim.weekday]} as the draft writes"
    )


def _wrong_time(claim: Claim, stamp: re.Match[str], evidence: Evidence) -> str | None:
    """Why a date written with its time is unsupported: no result holds that minute of that day,
    or the quoted headline it is written with came at another time."""
    day, minute = stamp.groups()
    written = (f"{day}T{minute}", f"{day} {minute}")
    if not any(w in text for text, _ in evidence.texts for w in written):
        return f'"{claim.text}": no tool result has this time on that day'
    if not claim.headline:
        return None
    times = evidence.headline_times(claim.headline)
    if not times or any(when.startswith(written) for when in times):
        return None
    return (
        f'"{claim.text}" is given as the time of "{claim.headline}", but the source has that '
        f"headline at {' or '.join(sorted(times))}"
    )


def _wrong_event(claim: Claim, evidence: Evidence) -> str | None:
    """Why a date named as the day of an event kind ("earnings on 2025-01-13") is not one, where
    the trace lists events on that day and none of them is of that kind."""
    listed: set[str] = set()
    for reading in claim.dates:
        held = evidence.event_days.get(reading, set())
        for ticker, kind in held | evidence.announced_days.get(reading, set()):
            if claim.scope and ticker is not None and ticker not in claim.scope:
                continue  # another ticker's event that day
            if kind == claim.event:
                return None  # its day, or the day it was announced ("declared a dividend on")
            if (ticker, kind) in held:
                listed.add(kind)
    if not listed:
        return _outside_listing(claim, evidence)
    return (
        f'"{claim.text}" is named as the day of {_EVENT_SAID[claim.event]}, but the trace lists '
        f"{' and '.join(_EVENT_SAID[k] for k in sorted(listed))} on that day"
    )


def _outside_listing(claim: Claim, evidence: Evidence) -> str | None:
    """Why a date named as an event's day is not one, where an events result covers that day for
    the ticker and lists that kind on other days only (or not at all)."""
    for year, month, day in claim.dates:
        if day is None or month > QUARTER_BASE:
            return None
        for ticker, start, end in evidence.event_windows:
            if claim.scope and ticker is not None and ticker not in claim.scope:
                continue
            inside = [
                when
                for y in ((year,) if year else (start.year, end.year))
                if (when := _day(y, month, day)) is not None and start <= when <= end
            ]  # a day written without its year: the year the window holds it in
            if not inside:
                continue
            when = inside[0]
            days = evidence.event_dates.get((ticker, claim.event), [])
            if when in days:
                return None
            listed = ", ".join(d.isoformat() for d in sorted(days)) or "no day in its window"
            who = f" for {ticker}" if ticker else ""
            return (
                f'"{claim.text}" is named as the day of {_EVENT_SAID[claim.event]}, but the events '
                f"result{who} ({start.isoformat()} to {end.isoformat()}) lists it on {listed}"
            )
    return None


def _day(year: int, month: int, day: int) -> date | None:
    try:
        return date(year, month, day)
    except ValueError:
        return None


_EVENT_SAID = {"dividend": "a dividend", "earnings": "earnings", "split": "a split"}


def check_wrong_weekday(case: Case) -> Iterator[Reason]:
    """A date written with a day of the week it does not fall on ("Monday, December 31, 2024":
    a Tuesday), or with one said relative to the report date that names other days ("next
    Monday (2025-01-13)" on December 31: January 6)."""
    for f in case.findings:
        claim = f.claim
        wrong = _wrong_weekday(claim, case.evidence) if claim.weekday >= 0 else None
        if claim.kind == "date" and wrong:
            yield Reason(rule=ReasonCode.WRONG_WEEKDAY, message=wrong, span=claim.span)
        elif claim.kind == "date" and claim.beside:
            named = " or ".join(_show_day(d) for d in claim.dates)
            yield Reason(
                rule=ReasonCode.WRONG_TIME,
                message=f'"{claim.text}" as said names {named} against the report date, but the '
                f"date written beside it is {_show_day(claim.beside[0])}",
                span=claim.span,
            )


def _show_day(reading: tuple[int | None, int, int | None]) -> str:
    year, month, day = reading
    return "-".join(p for p in (str(year) if year else "", f"{month:02d}", f"{day or 0:02d}") if p)


def _timestamp(f: Finding) -> re.Match[str] | None:
    claim = f.claim
    return _TIMESTAMP.match(claim.text) if claim.kind == "date" and f.supported_by else None


def _wrong_day(claim: Claim, evidence: Evidence) -> str | None:
    """Why a day given as a headline's ("published on December 30") is not the day its news
    result has it at (the UTC day, or the US day before for a time before 05:00 UTC)."""
    times = evidence.headline_times(claim.headline)
    days: set[tuple[int, int, int]] = set()
    for when in times:
        if claim.session:  # "before Monday's open": the session the item came before or after
            days |= _session_days(when, claim.session)
            continue
        found = ISO_DATE.match(when)
        if found:
            days |= {(y, m, d) for (y, m, d), _ in iso_days(found) if y is not None and d}
    if not days and not (claim.session and times):
        return None  # no time to hold the day against
    for year, month, day in claim.dates:
        if any((year is None or year == y) and month == m and day == d for y, m, d in days):
            return None
    return (
        f'"{claim.text}" is given as the day of "{claim.headline}", but the source has that '
        f"headline at {' or '.join(sorted(times))}"
    )


_NEW_YORK = ZoneInfo("America/New_York")
_OPEN, _CLOSE = time(9, 30), time(16, 0)


def _session_days(when: str, session: str) -> set[tuple[int, int, int]]:
    """The day whose session an item published at `when` came before, during or after (New
    York time): "before Tuesday's open" holds of Monday evening's item, "after Monday's close"
    of one before Tuesday's open."""
    try:
        at = datetime.fromisoformat(when.replace("Z", "+00:00")).astimezone(_NEW_YORK)
    except ValueError:
        return set()
    day, clock = at.date(), at.time()
    found: date | None
    if session == "before":
        found = day if is_session(day) and clock < _OPEN else session_after(day)
    elif session == "after":
        found = day if is_session(day) and clock >= _CLOSE else session_before(day)
    else:
        found = day if is_session(day) and _OPEN <= clock < _CLOSE else None
    return {(found.year, found.month, found.day)} if found else set()


def check_wrong_event_day(case: Case) -> Iterator[Reason]:
    """A date named as the day of an event kind where the trace lists other kinds that day."""
    for f in case.findings:
        claim = f.claim
        if not claim.event or _weekday_wrong(f, case) or _timestamp(f) is not None:
            continue
        if f.supported_by and (wrong := _wrong_event(claim, case.evidence)):
            yield Reason(rule=ReasonCode.WRONG_EVENT_DAY, message=wrong, span=claim.span)


def _weekday_wrong(f: Finding, case: Case) -> bool:
    return f.claim.weekday >= 0 and _wrong_weekday(f.claim, case.evidence) is not None


def check_unsupported_date(case: Case) -> Iterator[Reason]:
    """A date (or a date with its time) that neither a result, a failed call's arguments and
    error, nor the question contains; a headline's time where the source has another."""
    for f in case.findings:
        claim = f.claim
        if claim.kind != "date" or _weekday_wrong(f, case):
            continue
        if (stamp := _timestamp(f)) is not None:
            if message := _wrong_time(claim, stamp, case.evidence):
                code = ReasonCode.WRONG_TIME if claim.headline else ReasonCode.UNSUPPORTED_DATE
                if "no tool result has this time" in message:
                    code = ReasonCode.UNSUPPORTED_DATE
                yield Reason(rule=code, message=message, span=claim.span)
            continue
        if claim.headline and f.supported_by and (wrong := _wrong_day(claim, case.evidence)):
            yield Reason(rule=ReasonCode.WRONG_TIME, message=wrong, span=claim.span)
            continue
        if not f.supported_by:
            message = f'"{claim.text}" is a date that no tool result and not the question contains'
            if case.evidence.match_date(claim):
                message = (
                    f'"{claim.text}" is named as the period of what the draft says, but the '
                    "sources name it only as a comparison base"
                )
            yield Reason(rule=ReasonCode.UNSUPPORTED_DATE, message=message, span=claim.span)


_SESSION_SAID = {
    "before": "before the open",
    "during": "during the session",
    "after": "after the close",
}


def check_wrong_session(case: Case) -> Iterator[Reason]:
    """A quoted headline said to come before the open, during the session or after the close,
    where every news result that holds it says otherwise."""
    dayed = {f.claim.headline for f in case.findings if f.claim.kind == "date" and f.claim.session}
    for f in case.findings:
        claim = f.claim
        if claim.kind != "headline" or not claim.session or not f.supported_by:
            continue
        if claim.text in dayed:
            continue  # "before Tuesday's open" of Monday evening's item: its day's rule holds it
        sessions = case.evidence.headline_sessions(claim)
        if sessions and claim.session not in sessions:
            said = _SESSION_SAID.get(claim.session, claim.session)
            source = " or ".join(_SESSION_SAID.get(x, x) for x in sorted(sessions))
            yield Reason(
                rule=ReasonCode.WRONG_SESSION,
                message=f'"{claim.text}" is said to come {said}, but the source has it {source}',
                span=claim.span,
            )


_BASE_DAY_BEFORE = re.compile(
    r"(?i)(?<!\w)(?:against|versus|vs\.?|from|relative\s+to|compared\s+(?:with|to)|frente\s+al?|"
    r"respecto\s+al?|desde)\s+(?:the\s+|el\s+|la\s+)?(?:(?:close|closing\s+price|cierre)\s+"
    r"(?:of\s+|del?\s+)(?:the\s+)?)?$"
)
_BASE_DAY_AFTER = re.compile(r"(?i)(?:['’]s)?\s+(?:close|closing\s+price|cierre)(?!\w)")
_BASE_KEYS = ("previous_session", "start_session")


def check_base_days(case: Case) -> Iterator[Reason]:
    """A day named as the close a change is measured from ("computed against the 2024-12-30
    close", "frente al cierre del 24 de diciembre"): some result must measure a change from that
    day (a previous session, a window's start); the session itself is no such day."""
    text = case.trace.draft or ""
    starts: set[date] | None = None
    for f in case.findings:
        claim = f.claim
        if claim.kind != "date" or not claim.dates or claim.headline:
            continue
        before = _BASE_DAY_BEFORE.search(text, max(claim.start - 40, 0), claim.start)
        after = _BASE_DAY_AFTER.match(text, claim.end)
        if before is None or (
            after is None and not re.search(r"(?i)(?:close|cierre)", before.group())
        ):
            continue
        if starts is None:
            starts = _base_days(case)
        if not starts:
            return
        days = [d for d in claim.dates if d[2] is not None]
        if days and not any(same_day(d, s) for d in days for s in starts):
            held = ", ".join(sorted(s.isoformat() for s in starts))
            yield Reason(
                rule=ReasonCode.WRONG_TIME,
                message=(
                    f'"{claim.text}" is named as the close a change is measured from, but the '
                    f"trace measures its changes from {held}"
                ),
                span=claim.span,
            )


def _base_days(case: Case) -> set[date]:
    """The days the trace's changes are measured from."""
    found: set[date] = set()

    def walk(value: object) -> None:
        if isinstance(value, dict):
            for key, item in value.items():
                if key in _BASE_KEYS and isinstance(item, str) and ISO_DATE.fullmatch(item):
                    found.add(date.fromisoformat(item))
                else:
                    walk(item)
        elif isinstance(value, list):
            for item in value:
                walk(item)

    for event in case.trace.events:
        walk(event.result)
    return found


_PERIOD_WORD = re.compile(
    r"(?i)(?<!\w)(?P<when>this\s+week|next\s+week|this\s+month|next\s+month|esta\s+semana|"
    r"la\s+(?:próxima\s+semana|semana\s+(?:que\s+viene|próxima))|este\s+mes|el\s+(?:próximo\s+mes|"
    r"mes\s+(?:que\s+viene|próximo)))(?!\w)"
)
_PERIOD_GAP = re.compile(r"\s*,?\s*(?:\(\s*)?$")
"""Only a comma or a bracket between a date and the period word said with it."""


def check_period_words(case: Case) -> Iterator[Reason]:
    """A day said with the week or month it falls in ("on Thursday, Jan 23, this week", "el 13
    de enero, la próxima semana"): relative to the report date, the day must be in that week
    (Monday to Sunday) or that month."""
    text = case.trace.draft or ""
    as_of = case.report_day
    if as_of is None or not _PERIOD_WORD.search(text):
        return
    days = [f.claim for f in case.findings if f.claim.kind == "date" and f.claim.dates]
    for m in _PERIOD_WORD.finditer(text):
        before = [
            d for d in days if d.end <= m.start() and _PERIOD_GAP.fullmatch(text, d.end, m.start())
        ]
        if not before:
            continue
        claim = before[-1]
        first, last = _period(m.group("when").casefold(), as_of)
        full = [d for d in claim.dates if d[2] is not None]
        if not full:
            continue
        if any(first <= when <= last for d in full if (when := _on(d, as_of)) is not None):
            case.bound.append(m.span())  # the period holds its day: its words are checked
        else:
            yield Reason(
                rule=ReasonCode.WRONG_TIME,
                message=(
                    f'"{claim.text}" is said to fall in "{m.group()}", which runs from {first} '
                    f"to {last} for a report of {as_of}"
                ),
                span=(claim.start, m.end()),
            )


def _period(when: str, as_of: date) -> tuple[date, date]:
    monday = as_of - timedelta(days=as_of.weekday())
    if "week" in when or "semana" in when:
        ahead = "next" in when or "próxima" in when or "viene" in when
        start = monday + timedelta(days=7 if ahead else 0)
        return start, start + timedelta(days=6)
    ahead = "next" in when or "próximo" in when or "viene" in when
    year, month = (
        (as_of.year + (as_of.month // 12), as_of.month % 12 + 1)
        if ahead
        else (
            as_of.year,
            as_of.month,
        )
    )
    first = date(year, month, 1)
    following = date(year + month // 12, month % 12 + 1, 1)
    return first, following - timedelta(days=1)


def _on(reading: tuple[int | None, int, int | None], as_of: date) -> date | None:
    """The day a reading names, its year the report's (or the next, for a month before it)."""
    year, month, day = reading
    if day is None:
        return None
    if year is None:
        year = as_of.year + (1 if month < as_of.month else 0)
    try:
        return date(year, month, day)
    except ValueError:
        return None

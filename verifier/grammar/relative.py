"""Relative days: "today", "yesterday", a weekday named without a date, read as the session they
name counted from the report date.

A draft that says "yesterday AXO rose 1.31%" states the move for the session before the report
date; written as a date claim here, the figure binds to it like to a written date, and a move the
trace holds for the report date is then `wrong_time`. Without a report date (a bare trace) the
words stay unread, so the closed-world rule rejects them: a time the verifier cannot place is
never taken for the right one. A weekday written next to a date ("Monday, December 30") is that
date's (`attach_weekdays` checks it); one written alone names the latest such day on or before
the report date, or the next one after it ("earnings on Thursday"): either reading may be
supported.
"""

from __future__ import annotations

import re
from datetime import date, timedelta
from typing import NamedTuple

from verifier.claim import Claim, DateReading
from verifier.lexicon import LANGUAGES, grouped
from verifier.scanner import PhraseScan


class Anchor(NamedTuple):
    """The report date and the session before it (from the trace's results, else the weekday
    before)."""

    report: date
    previous: date


RELATIVE = PhraseScan(grouped("relative_days"))
WEEKDAYS = PhraseScan(
    {
        f"d{number}": [
            name.replace(".", r"\.") for lexicon in LANGUAGES for name in lexicon.weekdays[number]
        ]
        for number in range(7)
    }
)
MONTHS = PhraseScan(
    {
        f"m{number}": [lexicon.months[number - 1] for lexicon in LANGUAGES if lexicon.months]
        for number in range(1, 13)
    }
)
"""A month named alone ("For December", "since the end of November"): the latest such month
on or before the report date."""
_SPANISH = frozenset(m for lexicon in LANGUAGES if lexicon.name == "es" for m in lexicon.months)
_NEAR = 24
"""How far (characters) a weekday may stand from the date it is written with."""


def _reading(when: date) -> DateReading:
    return (when.year, when.month, when.day)


def find_relative_days(
    folded: str, text: str, claims: list[Claim], anchor: Anchor | None
) -> list[Claim]:
    """Date claims for the relative day words of the text (see the module docstring); without
    an anchor only the weekdays written next to a date."""
    found: list[Claim] = []
    dated = [c for c in claims if c.kind == "date" and c.dates]
    if anchor is None:
        for m in WEEKDAYS.finditer(folded):
            near = _written_with(text, m, dated, claims)
            if near is not None:
                found.append(_claim(text, m.start(), m.end(), near.dates))
        return found
    for m in RELATIVE.finditer(folded):
        name = m.lastgroup or ""
        when = {
            "today": anchor.report,
            "yesterday": anchor.previous,
            "tomorrow": _next_weekday(anchor.report),
            "year_end": anchor.report if _year_end(anchor.report) else None,
        }.get(name)
        if when is not None:
            found.append(_claim(text, m.start(), m.end(), (_reading(when),)))
    for m in _EDGE_OF_YEAR.finditer(folded):
        year = int(m["year"] or m["año"])
        first = (m["which"] or m["cual"]) in ("first", "primer", "primera")
        found.append(_claim(text, m.start(), m.end(), (_reading(_edge_session(year, first)),)))
    for m in MONTHS.finditer(folded):
        start, end = m.start(), m.end()
        inside = any(c.start <= start < c.end for c in dated)
        if inside or (lexicon_of(m) == "en" and not text[start:end].istitle()):
            continue  # inside a date, or "may" as a verb
        month = int((m.lastgroup or "m1")[1:])
        year = anchor.report.year - (month > anchor.report.month)
        found.append(_claim(text, start, end, ((year, month, None),)))
    for m in WEEKDAYS.finditer(folded):
        weekday = int((m.lastgroup or "d0")[1:])
        start, end = m.start(), m.end()
        if not _a_weekday(text, m, claims, dated):
            continue
        near = _written_with(text, m, dated, claims)
        if near is not None:
            said = _qualified(folded, start, end, weekday, anchor.report)
            claim = _claim(text, start, end, near.dates)
            if said and not any(_matches(d, near.dates) for d in said):
                claim.dates = tuple(dict.fromkeys(_reading(d) for d in said))  # "next Monday
                claim.beside = near.dates  # (2025-01-13)": the word's days, beside another
            found.append(claim)
            continue
        back = (anchor.report.weekday() - weekday) % 7
        last = anchor.report - timedelta(days=back)
        ahead = last + timedelta(days=7) if back else anchor.report + timedelta(days=7)
        if _PAST_BEFORE.search(folded, max(start - 12, 0), start) or _PAST_AFTER.match(folded, end):
            last = last if back else last - timedelta(days=7)  # "last Tuesday" on a Tuesday
            found.append(_claim(text, start, end, (_reading(last),)))
        elif _NEXT_BEFORE.search(folded, max(start - 16, 0), start) or _NEXT_AFTER.match(
            folded, end
        ):
            found.append(_claim(text, start, end, (_reading(ahead),)))
        else:
            found.append(_claim(text, start, end, (_reading(ahead), _reading(last))))
    return found


def _qualified(folded: str, start: int, end: int, weekday: int, report: date) -> list[date]:
    """The days a weekday with "next", "this", "last" (or "el próximo", "este", "pasado") can
    name against the report date: "next Friday" the first one after it or next week's, "this
    Friday" this week's, "last Monday" the latest before it or last week's. Empty where the
    weekday has no such word."""
    monday = report - timedelta(days=report.weekday())
    this_week = monday + timedelta(days=weekday)
    back = (report.weekday() - weekday) % 7 or 7
    if _PAST_BEFORE.search(folded, max(start - 12, 0), start) or _PAST_AFTER.match(folded, end):
        return [report - timedelta(days=back), this_week - timedelta(days=7)]
    if _NEXT_BEFORE.search(folded, max(start - 16, 0), start) or _NEXT_AFTER.match(folded, end):
        ahead = (weekday - report.weekday()) % 7 or 7
        return [report + timedelta(days=ahead), this_week + timedelta(days=7)]
    if _THIS_BEFORE.search(folded, max(start - 8, 0), start):
        return [this_week]
    return []


def _matches(day: date, readings: tuple[DateReading, ...]) -> bool:
    return any((m, d) == (day.month, day.day) and y in (None, day.year) for y, m, d in readings)


_THIS_BEFORE = re.compile(r"(?<!\w)(?:this|este|esta)\s+$")
_PAST_BEFORE = re.compile(r"(?<!\w)(?:last|past|previous|prior|el\s+pasado)\s+$")
_PAST_AFTER = re.compile(r"\s+(?:pasado|anterior)(?!\w)")
"""A weekday said to be past ("last Tuesday", "el martes pasado"): the latest one before the
report day."""
_NEXT_BEFORE = re.compile(r"(?<!\w)(?:next|this\s+coming|coming|el\s+próximo|el\s+proximo)\s+$")
_NEXT_AFTER = re.compile(r"\s+(?:próximo|proximo|que\s+viene)(?!\w)")
"""A weekday said to come ("next Friday", "el viernes que viene"): the next one after it."""


def _a_weekday(text: str, m: re.Match[str], claims: list[Claim], dated: list[Claim]) -> bool:
    """Whether a weekday word is one: not "sat" or "sun" as plain words, not "WED" as a ticker,
    not inside a date the date grammar read."""
    word, start = text[m.start() : m.end()], m.start()
    if word.isupper() or (len(word) <= 3 and not word.istitle()):
        return False
    return not any(c.start <= start < c.end for c in claims if c.kind in ("ticker", "date"))


def _written_with(
    text: str, m: re.Match[str], dated: list[Claim], claims: list[Claim]
) -> Claim | None:
    """The date a weekday is written with (`attach_weekdays` gave it that weekday)."""
    if not _a_weekday(text, m, claims, dated):
        return None
    weekday, start, end = int((m.lastgroup or "d0")[1:]), m.start(), m.end()
    for c in dated:
        if c.weekday == weekday and (abs(c.start - end) <= _NEAR or abs(start - c.end) <= _NEAR):
            return c
    return None


def anchor_of(as_of: str | None, results: list[object]) -> Anchor | None:
    """The anchor of a trace: its report date and the previous session a result gives for it."""
    try:
        report = date.fromisoformat(as_of or "")
    except ValueError:
        return None
    for result in results:
        if isinstance(result, dict) and result.get("session") == report.isoformat():
            previous = result.get("previous_session")
            if isinstance(previous, str):
                try:
                    return Anchor(report, date.fromisoformat(previous))
                except ValueError:
                    pass
    return Anchor(report, previous_weekday(report))


def lexicon_of(m: re.Match[str]) -> str:
    """Which language's month a match is (English ones must be capitalised)."""
    return "es" if m.group() in _SPANISH else "en"


_EDGE_OF_YEAR = re.compile(
    r"(?<!\w)(?:the\s+)?(?P<which>last|final|first)\s+(?:trading\s+|business\s+)?(?:day|session)"
    r"\s+of\s+(?P<year>(?:19|20)\d\d)(?![\d/-])|(?<!\w)(?:el\s+|la\s+)?(?P<cual>último|primer|"
    r"última|primera)\s+(?:día|sesión|jornada)(?:\s+(?:de\s+cotización|hábil|bursátil))?\s+"
    r"del?\s+(?:año\s+)?(?P<año>(?:19|20)\d\d)(?![\d/-])"
)
"""A session named by its place in a year ("the last trading day of 2023", "el último día de
cotización de 2023", "la primera sesión de 2024"): that session, a weekday at the year's edge."""


def _edge_session(year: int, first: bool) -> date:
    """The first weekday after New Year's Day, or the last weekday of the year."""
    when = date(year, 1, 2) if first else date(year, 12, 31)
    step = timedelta(days=1 if first else -1)
    while when.weekday() > 4:
        when += step
    return when


def _year_end(when: date) -> bool:
    return when.month == 12 and when.day >= 24


def _claim(text: str, start: int, end: int, dates: tuple[DateReading, ...]) -> Claim:
    return Claim(text[start:end], start, end, "date", dates=dates)


def _next_weekday(when: date) -> date:
    step = {4: 3, 5: 2}.get(when.weekday(), 1)
    return when + timedelta(days=step)


def previous_weekday(when: date) -> date:
    """The weekday before `when` (the previous session where no result names one)."""
    step = {0: 3, 6: 2}.get(when.weekday(), 1)
    return when - timedelta(days=step)

"""A calendar window said of an event: "earnings on January 13 (later this month)", "pays a
dividend next week", "presenta resultados el mes que viene". The words are each free ("this",
"month", "later"), so a wrong one would pass; this rule reads the window against the report
date (this / next week, month, quarter, year) and holds the event's day against it: the day the
sentence names for the event, else every event of the kind it names (`wrong_time` where none
falls in the window). Rolling windows ("the coming month") are the question's own 30 days and
left to the other rules.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Iterator
from datetime import date, timedelta
from typing import Any

from contract.reasons import ReasonCode
from verifier.grammar.events import EVENT_WORD
from verifier.periods import sentence_end, sentence_starts
from verifier.rules.case import Case
from verifier.scanner import fold_aligned
from verifier.verdict import Reason

_WINDOW = re.compile(
    r"(?<!\w)(?:"
    r"(?:(?:later|earlier)\s+)?this\s+(?P<this>week|month|quarter|year)"
    r"|next\s+(?P<next>week|month|quarter|year)"
    r"|(?:(?:más\s+adelante|a\s+finales?\s+de)\s+)?(?:este|esta)\s+(?P<este>semana|mes|trimestre|año)"
    r"|(?:(?:el|la|del|de\s+la)\s+)?(?:próxim[oa]|proxim[oa])\s+(?P<proximo>semana|mes|trimestre|año)"
    r"|(?:el|la|del|de\s+la)\s+(?P<viene>semana|mes|trimestre|año)\s+que\s+viene"
    r")(?!\w)"
)
_UNITS = {
    "semana": "week",
    "mes": "month",
    "trimestre": "quarter",
    "año": "year",
}
_ANNOUNCED = re.compile(
    r"(?<!\w)(?:announced|anunciad[oa]s?|anunci[oó]|se\s+anunci[oó]|disclosed|confirmed|"
    r"put\s+on\s+the\s+calendar|added\s+to\s+the\s+calendar)\s+(?:[\w-]+\s+){0,2}$"
)
"""A window said of when the event was announced, not of when it comes."""
_EVENT_TOOLS = frozenset({"get_events"})
_REACH = 60
_BETWEEN = re.compile(r"\n|[!?;]|\.\s+[a-z]{4,}|\.\s+(?:the|it|its|el|la|su)\s")
"""What parts a day from a window word: a line break, a sentence's end (read in the case-folded
text, where a month's short name ends in a full stop too: "jan. 13")."""


def check_event_windows(case: Case) -> Iterator[Reason]:
    """Each calendar window said of an event, held against the event's day."""
    report = case.report_day
    text = case.trace.draft or ""
    if report is None or not any(e.tool in _EVENT_TOOLS for e in case.trace.events):
        return
    folded = fold_aligned(text)
    windows = list(_WINDOW.finditer(folded))
    if not windows:
        return
    names = EVENT_WORD.finditer(folded)
    days = [f.claim for f in case.findings if f.claim.kind == "date" and f.claim.event]
    starts = sentence_starts(text)
    for m in windows:
        lo = starts[bisect_right(starts, m.start()) - 1]
        hi = sentence_end(starts, m.start(), len(text))
        named = [n for n in names if lo <= n.start() < hi and n.lastgroup]
        near = [
            d
            for d in days
            if abs(d.start - m.start()) <= _REACH
            and not _BETWEEN.search(folded, min(d.end, m.end()), max(d.start, m.start()))
        ]  # "on Monday, Jan. 13 (later this month)": beside it, whatever the full stops
        if not near and not named:
            continue  # no event in the sentence: a figure's window, the period rules' words
        if _ANNOUNCED.search(folded, max(m.start() - 30, 0), m.start()):
            continue  # "announced this month": the announcement's day (`announced`)
        first, last = _part(folded, m, *_span(m, report), report)
        part = _PART.search(folded, max(m.start() - 24, 0), m.start())
        if near:
            day = min(near, key=lambda d: abs(d.start - m.start()))
            said = [
                when
                for y, mo, d in day.dates
                if mo and d
                for year in ((y,) if y else (report.year - 1, report.year, report.year + 1))
                if (when := _day(year, mo, d)) is not None
            ]
            inside = any(first <= when <= last for when in said)
            what = f'"{day.text}" does not'
        else:
            kinds = {n.lastgroup for n in named}
            held = [
                when
                for event in _events(case)
                if event.get("kind") in kinds and (when := _date(event)) is not None
            ]
            inside = any(first <= when <= last for when in held)
            what = "the " + " or ".join(sorted(k for k in kinds if k)) + " of the trace do not"
            if not held:
                continue  # no event of that kind at all: the absence rules' case
        case.bound.append((part.start() if part else m.start(), m.end()))
        if inside:
            continue
        yield Reason(
            rule=ReasonCode.WRONG_TIME,
            message=(
                f'"{text[m.start() : m.end()]}" runs from {first} to {last}, the report date '
                f"being {report}, but {what} fall in it"
            ),
            span=m.span(),
        )


_PART = re.compile(
    r"(?:(?P<late>(?:at\s+)?(?:the\s+)?(?:end|close)\s+of|late|a\s+finales(?:\s+del?)?)"
    r"|(?P<early>(?:at\s+)?(?:the\s+)?(?:beginning|start)\s+of|early|a\s+principios(?:\s+del?)?)"
    r"|(?P<mid>(?:in\s+)?(?:the\s+)?middle\s+of|mid-?|a\s+mediados(?:\s+del?)?))\s*$"
)
"""A part of the window said before it ("at the end of next month", "early next week",
"a mediados del mes que viene"): its last, first or middle third."""


def _part(
    folded: str, m: re.Match[str], first: date, last: date, report: date
) -> tuple[date, date]:
    """The window narrowed by the words that say which part of it: a third, its last days for
    its "end", or the days after (before) the report date for "later" ("earlier") this month."""
    said = m.group()
    if said.startswith(("later", "más adelante")):
        first = max(first, report + timedelta(days=1))
    elif said.startswith("earlier"):
        last = min(last, report - timedelta(days=1))
    part = _PART.search(folded, max(m.start() - 24, 0), m.start())
    if part is None:
        return first, last
    third = (last - first).days // 3
    if part.group().rstrip().endswith(("end of", "close of")):  # its last days, a fifth
        return last - timedelta(days=max((last - first).days // 5, 2)), last
    if part.lastgroup == "late":
        return last - timedelta(days=third), last
    if part.lastgroup == "early":
        return first, first + timedelta(days=third)
    return first + timedelta(days=third), last - timedelta(days=third)


def _span(m: re.Match[str], report: date) -> tuple[date, date]:
    """The first and last day of the window the words name, against the report date."""
    group = m.lastgroup or "this"
    unit = _UNITS.get(m.group(group), m.group(group))
    ahead = group in ("next", "proximo", "viene")
    if unit == "week":
        monday = report - timedelta(days=report.weekday()) + timedelta(days=7 * ahead)
        return monday, monday + timedelta(days=6)
    if unit == "month":
        month = report.month + ahead
        year = report.year + (month > 12)
        month = (month - 1) % 12 + 1
        following = date(year + (month == 12), month % 12 + 1, 1)
        return date(year, month, 1), following - timedelta(days=1)
    if unit == "quarter":
        first_month = 3 * ((report.month - 1) // 3) + 1 + 3 * ahead
        year = report.year + (first_month > 12)
        first_month = (first_month - 1) % 12 + 1
        end_month = first_month + 3
        following = date(year + (end_month > 12), (end_month - 1) % 12 + 1, 1)
        return date(year, first_month, 1), following - timedelta(days=1)
    year = report.year + ahead
    return date(year, 1, 1), date(year, 12, 31)


def _day(year: int, month: int, day: int) -> date | None:
    try:
        return date(year, month, day)
    except ValueError:
        return None


def _events(case: Case) -> list[dict[str, Any]]:
    out = []
    for event in case.trace.events:
        if event.tool in _EVENT_TOOLS and isinstance(event.result, dict):
            out += [e for e in event.result.get("events") or [] if isinstance(e, dict)]
    return out


def _date(event: dict[str, Any]) -> date | None:
    try:
        return date.fromisoformat(str(event.get("date"))[:10])
    except ValueError:
        return None

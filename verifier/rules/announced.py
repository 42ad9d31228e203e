"""The day of an announcement: "KGC announced today", "(announced December 12)", "anunciada el 12
de diciembre" name the day an item of the subject was made public.

A date is always a day some result holds ("today" is the report date), so the date rule alone
lets an announcement be moved to any day of the trace. A day written right after a verb that
makes something public (the lexicon's `announce_verbs`), or right before one ("today
announced"), must be the day an events result says one of the subject's events was announced
(`announced_at`) or a news result published one of its items (`published_at`); otherwise it is
`wrong_time`. A day tied to a quoted headline is the quote rules' (`wrong_time` there too).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import date, timedelta
from functools import cache

from contract.reasons import ReasonCode
from verifier.claim import Claim, DateReading
from verifier.evidence import Evidence
from verifier.lexicon import alternatives
from verifier.rules.case import Case
from verifier.scanner import fold_aligned
from verifier.verdict import Reason

_AFTER = re.compile(r"(?i)(?:\s|,|\(|on\b|the\b|el\b|this\b|este\b|a\s+día\b)*")
"""What may stand between the verb and its day: "announced on the", "anunciada el"."""
_BEFORE = re.compile(r"[\s,]*")


@cache
def _verbs() -> re.Pattern[str]:
    return re.compile(rf"(?<!\w)(?:{alternatives('announce_verbs')})(?!\w)")


def _days(evidence: Evidence, scope: frozenset[str]) -> set[tuple[int, int]]:
    """(month, day) of every announcement and publication of the subject's items."""
    days = {
        (month, day)
        for (_, month, day), held in evidence.announced_days.items()
        if day is not None and any(not scope or t is None or t in scope for t, _ in held)
    }
    for headline, times in evidence.published.items():
        tickers = evidence.news_tickers.get(headline, {None})
        if scope and not any(t is None or t in scope for t in tickers):
            continue
        days |= {(int(t[5:7]), int(t[8:10])) for t in times if len(t) >= 10 and t[4] == "-"}
    return days


def _said(claim: Claim) -> list[DateReading]:
    return [d for d in claim.dates if d[2] is not None]


_PERIOD = re.compile(
    r"(?i)\s+(?:(?P<last>last|past|previous)\s+(?P<unit>week|month)|(?:this|earlier\s+this)\s+"
    r"(?P<unit2>week|month)|la\s+(?P<sem_pasada>semana)\s+pasada|el\s+(?P<mes_pasado>mes)\s+pasado|"
    r"esta\s+(?P<sem>semana)|este\s+(?P<mes>mes))(?!\w)"
)
"""A week or a month said after the verb ("announced last week", "se anunció esta semana"),
relative to the report date."""


def _period(m: re.Match[str], as_of: date) -> tuple[date, date]:
    """The first and last day of the week or month the phrase names."""
    week = (m["unit"] or m["unit2"] or "").casefold() == "week" or bool(m["sem_pasada"] or m["sem"])
    last = bool(m["last"] or m["sem_pasada"] or m["mes_pasado"])
    if week:
        monday = as_of - timedelta(days=as_of.weekday())
        return (monday - timedelta(days=7), monday - timedelta(days=1)) if last else (monday, as_of)
    first = as_of.replace(day=1)
    if last:
        end = first - timedelta(days=1)
        return end.replace(day=1), end
    return first, as_of


def _announced_on(case: Case, scope: frozenset[str]) -> set[date]:
    """Every day (with its year) an events result says one of the subject's events was
    announced, or a news result published one of its items."""
    days = {
        date(year, month, day)
        for (year, month, day), held in case.evidence.announced_days.items()
        if year and day and any(not scope or t is None or t in scope for t, _ in held)
    }
    for headline, times in case.evidence.published.items():
        tickers = case.evidence.news_tickers.get(headline, {None})
        if scope and not any(t is None or t in scope for t in tickers):
            continue
        days |= {date.fromisoformat(t[:10]) for t in times if len(t) >= 10 and t[4] == "-"}
    return days


def check_announcement_days(case: Case) -> Iterator[Reason]:
    """Each day said as the day something was announced, held against the results' days."""
    text = case.trace.draft or ""
    verbs = list(_verbs().finditer(fold_aligned(text)))
    if not verbs:
        return
    dates = [f.claim for f in case.findings if f.claim.kind == "date" and not f.claim.headline]
    tickers = [f.claim for f in case.findings if f.claim.kind == "ticker"]
    for m in verbs:
        said = _PERIOD.match(text, m.end())
        as_of = case.report_day
        if said is not None and as_of is not None:
            scope = frozenset(
                t.symbol for t in tickers if t.end <= m.start() and m.start() - t.end < 200
            )
            first, last = _period(said, as_of)
            made = _announced_on(case, scope)
            if any(first <= d <= last for d in made):
                case.bound.append((m.start(), said.end()))
                continue
            yield Reason(
                rule=ReasonCode.WRONG_TIME,
                message=(
                    f'"{text[m.start() : said.end()]}" places the announcement from {first} to '
                    f"{last}, but the results give it on: "
                    f"{', '.join(str(d) for d in sorted(made)) or 'none'}"
                ),
                span=(m.start(), said.end()),
            )
            continue
        after = _AFTER.match(text, m.end())
        day = next(
            (d for d in dates if after and d.start == after.end() and _said(d)),
            None,
        ) or next(
            (
                d
                for d in dates
                if d.end <= m.start()
                and (gap := _BEFORE.match(text, d.end)) is not None
                and gap.end() == m.start()
                and _said(d)
            ),
            None,
        )
        if day is None:
            continue
        scope = day.scope or frozenset(
            t.symbol for t in tickers if t.end <= m.start() and m.start() - t.end < 200
        )
        held = _days(case.evidence, scope)
        if any((month, dd) in held for _, month, dd in _said(day)):
            continue
        listed = ", ".join(f"{mo:02d}-{d:02d}" for mo, d in sorted(held)) or "none"
        who = f" for {', '.join(sorted(scope))}" if scope else ""
        yield Reason(
            rule=ReasonCode.WRONG_TIME,
            message=(
                f'"{day.text}" is said to be the day of an announcement{who}, but the results '
                f"give its announcements and publications on: {listed}"
            ),
            span=day.span,
        )

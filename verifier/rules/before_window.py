"""A time said to fall before a window or the report date: "the most recent story predates the
search window", "the holdings snapshot predates the report date", "la última noticia es
anterior a la ventana de búsqueda". The subject is the date its sentence names before the verb,
else what it names: the latest news item on file (a search's items, or the end of the range its
error gives), the holdings date of a position's result. The window is the news search's (its
first day), the report date the trace's. A relation that holds covers its words; one that does
not is `wrong_relation`; one whose subject or window the trace does not give stays for the
closed world.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import date
from typing import Any

from contract.reasons import ReasonCode
from verifier.periods import sentence_starts
from verifier.rules.case import Case
from verifier.scanner import fold_aligned
from verifier.spans import iso_day
from verifier.verdict import Reason

_BEFORE = re.compile(
    r"(?<!\w)(?P<verb>pre-?dates?|pre-?dated|precedes?|preceded|(?:is|was)\s+older\s+than|"
    r"(?:comes|came|falls|fell|is|was|lies|sits)\s+(?:just\s+)?(?:before|ahead\s+of)|"
    r"(?:(?:es|era|fue|queda|quedó)\s+)?anterior\s+(?:a|al))\s+(?:the\s+|la\s+|el\s+)?"
    r"(?P<window>(?:(?:news\s+)?search\s+)?window(?:\s+searched)?|search(?:\s+(?:window|period|"
    r"range))?|(?:ventana|periodo|período)(?:\s+(?:de\s+(?:la\s+)?búsqueda|consultado|buscado))?|"
    r"report(?:ing)?\s+date|as[-\s]of\s+date|fecha\s+del\s+informe)(?!\w)"
)
_LATEST = re.compile(
    r"(?<!\w)(?:most\s+recent|latest|last|newest|última|más\s+reciente)\s+(?:\w+\s+)?"
    r"(?:story|headline|item|article|news|noticia|titular)|(?:noticia|titular)\s+más\s+reciente"
)
_HOLDINGS = re.compile(r"(?<!\w)(?:holdings?|positions?|posiciones|cartera)(?:\s+\w+)?\s*$")
_ISO = re.compile(r"\d{4}-\d\d-\d\d")


def check_before_window(case: Case) -> Iterator[Reason]:
    """Each "predates the window / report date" held against the subject's day."""
    text = case.trace.draft or ""
    folded = fold_aligned(text)
    if not any(w in folded for w in ("date", "cede", "older", "before", "ahead", "anterior")):
        return
    starts = sentence_starts(text)
    dated = [f.claim for f in case.findings if f.claim.kind == "date" and f.supported_by]
    for m in _BEFORE.finditer(folded):
        lo = max(s for s in starts if s <= m.start())
        limit = _limit(case, m.group("window"))
        subject, named = _subject(case, folded, lo, m.start(), dated)
        if limit is None or subject is None:
            continue
        case.bound.append(m.span())
        if named is not None:
            case.bound.append(named)  # "the most recent story": the item the relation is of
        if subject < limit:
            continue
        yield Reason(
            rule=ReasonCode.WRONG_RELATION,
            message=(
                f'"{text[m.start() : m.end()]}" puts {subject.isoformat()} before '
                f"{limit.isoformat()}, and it is not"
            ),
            span=m.span(),
        )


def _limit(case: Case, window: str) -> date | None:
    """The first day of the window named: the news search's, or the report date."""
    if "report" in window or "informe" in window or window.startswith("as"):
        return case.report_day
    starts = [
        iso_day(event.args.get("start"))
        for event in case.trace.events
        if event.tool == "search_news" and isinstance(event.args, dict)
    ]
    known = [d for d in starts if d is not None]
    return min(known) if known else None


def _subject(
    case: Case, folded: str, lo: int, at: int, dated: list[Any]
) -> tuple[date | None, tuple[int, int] | None]:
    """The day said to come first: a date of the sentence before the verb, else the latest
    news item on file or the holdings date its words name (with the span of those words)."""
    before = [c for c in dated if lo <= c.start and c.end <= at and c.dates]
    latest = _LATEST.search(folded, before[-1].end if before else lo, at)
    holdings = _HOLDINGS.search(folded, before[-1].end if before else lo, at)
    if before and latest is None and holdings is None:
        year, month, day = before[-1].dates[0]
        if day is None or case.report_day is None:
            return None, None
        try:
            return date(year or case.report_day.year, month, day), None
        except ValueError:
            return None, None
    if latest is not None:
        return _latest_news(case), latest.span()
    if holdings is not None:
        held = [
            iso_day(event.result.get("holdings_as_of"))
            for event in case.trace.events
            if isinstance(event.result, dict)
        ]
        known = [d for d in held if d is not None]
        return (max(known) if known else None), holdings.span()
    return None, None


def _latest_news(case: Case) -> date | None:
    """The day of the latest item the news calls report: an item's, or the end of the range a
    failed search's message gives ("its news runs from … to 2024-12-27T08:45")."""
    days: list[date] = []
    for event in case.trace.events:
        if event.tool != "search_news":
            continue
        if isinstance(event.result, dict):
            for item in event.result.get("news") or []:
                if isinstance(item, dict) and (day := iso_day(item.get("published_at"))):
                    days.append(day)
        if event.failure:
            found = [d for d in (iso_day(s) for s in _ISO.findall(event.failure)) if d]
            days += found[-1:]
    return max(days) if days else None

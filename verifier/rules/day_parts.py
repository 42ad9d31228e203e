"""Parts of a day said of a headline: "in the afternoon", "early in the morning", "late
evening", "por la tarde", "a primera hora de la mañana", "de madrugada". The quoted headline of
the sentence (or the one item of the wire it names) must have been published, New York time,
within the hours the part names; that covers the words, another part is `wrong_time`, and a
part with no headline to bind stays uncovered.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

from contract.reasons import ReasonCode
from verifier.rules.case import Case
from verifier.rules.draft_scan import scan_of
from verifier.verdict import Reason

_NEW_YORK = ZoneInfo("America/New_York")
_PART = re.compile(
    r"(?<!\w)(?:(?P<early>early|a\s+primera\s+hora\s+de)\s+|(?P<late>late|a\s+última\s+hora\s+de)\s+)?"
    r"(?:(?:in\s+the\s+)?(?P<en>morning|afternoon|evening|night)|(?:(?:por|en|de|a)\s+la\s+|(?<=esta\s))"
    r"(?P<es>mañana|tarde|noche)|de\s+(?P<dawn>madrugada))(?!\w)"
)
"""A part of the day; in Spanish only after its preposition ("mañana" alone is tomorrow,
"tarde" alone is late)."""
_HINTS = ("morning", "afternoon", "evening", "night", "mañana", "tarde", "noche", "madrugada")
_HOURS = {
    "morning": (4, 12),
    "mañana": (4, 12),
    "afternoon": (12, 18),
    "tarde": (12, 20),
    "evening": (17, 24),
    "night": (19, 24),
    "noche": (20, 24),
    "madrugada": (0, 6),
}


def check_day_parts(case: Case) -> Iterator[Reason]:
    """Each part of a day said in a sentence that quotes a headline (or names its wire)."""
    lowered = (case.trace.draft or "").lower()
    if not any(word in lowered for word in _HINTS):
        return
    scan = scan_of(case)
    folded, text, starts = scan.folded, scan.text, scan.starts
    items = [i for r in scan.results for i in _news(r)]
    if not items:
        return
    quotes = [f.claim for f in case.findings if f.claim.kind == "headline"]
    for m in _PART.finditer(folded):
        before = folded[max(m.start() - 5, 0) : m.start()]
        today = before.endswith(
            ("this ", "esta ")
        )  # "this morning", "esta mañana": the report day's
        lo = max(s for s in starts if s <= m.start())
        hi = min((s for s in starts if s > m.start()), default=len(text))
        said = [q for q in quotes if lo <= q.start < hi]
        matched = [i for i in items if any(_quotes(q.text, i) for q in said)]
        if not said:
            matched = [i for i in items if str(i.get("source") or "").casefold() in folded[lo:hi]]
        stamps = [_local(i) for i in matched]
        if len(stamps) != 1 or stamps[0] is None:
            continue
        when = stamps[0]
        day = next(
            (
                f.claim
                for f in case.findings
                if f.claim.kind == "date" and f.claim.dates and 0 <= m.start() - f.claim.end < 4
            ),
            None,
        )  # "yesterday morning", "Monday afternoon", "el lunes por la tarde"
        if today and case.report_day is not None and when.date() != case.report_day:
            case.bound.append((m.start() - 5, m.end()))
            yield Reason(
                rule=ReasonCode.WRONG_TIME,
                message=(
                    f'"{text[m.start() - 5 : m.end()]}" is the report day, {case.report_day}, but '
                    f"the item was published {when:%Y-%m-%d %H:%M} New York time"
                ),
                span=(m.start() - 5, m.end()),
            )
            continue
        if day is not None:
            days = {(y or when.year, mo, d) for y, mo, d in day.dates if d}
            if days and (when.year, when.month, when.day) not in days:
                case.bound.append(m.span())
                yield Reason(
                    rule=ReasonCode.WRONG_TIME,
                    message=(
                        f'"{text[day.start : m.end()]}" is not when the item came: it was '
                        f"published {when:%Y-%m-%d %H:%M} New York time"
                    ),
                    span=(day.start, m.end()),
                )
                continue
        low, high = _HOURS[m.group("en") or m.group("es") or m.group("dawn")]
        if m.group("early"):
            high = low + (high - low) // 2
        elif m.group("late"):
            low = low + (high - low) // 2
        case.bound.append((m.start() - 5, m.end()) if today else m.span())
        hour = when.hour
        if low <= hour < high:
            continue
        yield Reason(
            rule=ReasonCode.WRONG_TIME,
            message=(
                f'"{text[m.start() : m.end()]}" says the item came between {low}:00 and '
                f"{high}:00 New York time, but it was published at {hour}:xx"
            ),
            span=m.span(),
        )


def _news(result: dict[str, Any]) -> list[dict[str, Any]]:
    found = result.get("news")
    return [i for i in found if isinstance(i, dict)] if isinstance(found, list) else []


def _quotes(quote: str, item: dict[str, Any]) -> bool:
    said = quote.strip("\"'“”«»‘’ ").casefold().rstrip(".…")
    return bool(said) and said in str(item.get("headline") or "").casefold()


def _local(item: dict[str, Any]) -> datetime | None:
    try:
        when = datetime.fromisoformat(str(item.get("published_at")))
    except ValueError:
        return None
    if when.tzinfo is None:
        return None
    return when.astimezone(_NEW_YORK)

"""When a quoted headline came, said in words: a part of the session ("late in the session",
"shortly after the open", "a media sesión", "cerca del cierre") or the day of what the draft
said before it ("the same day", "earlier that day", "ese mismo día"). Held against the New York
time of the item whose headline the sentence quotes: another part of the session, or another
day, is `wrong_time`.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import date, datetime, time
from itertools import pairwise

from contract.reasons import ReasonCode
from verifier.periods import sentence_end, sentence_starts
from verifier.rules.case import Case
from verifier.rules.news_times import news_items
from verifier.scanner import fold_aligned
from verifier.verdict import Reason

_PARTS = {
    "early": (
        time(9, 30),
        time(11, 30),
        r"early\s+in\s+(?:the\s+)?(?:session|trading\s+day|trading)|in\s+early\s+trading|"
        r"(?:shortly|soon|just)\s+after\s+the\s+(?:open|opening\s+bell|bell)|at\s+the\s+open|"
        r"in\s+the\s+first\s+hour|al\s+(?:inicio|comienzo)\s+de\s+la\s+(?:sesión|jornada)|"
        r"a\s+primera\s+hora|poco\s+después\s+de\s+la\s+apertura|en\s+la\s+primera\s+hora",
    ),
    "midday": (
        time(11, 0),
        time(14, 0),
        r"(?:at|around|near)\s+(?:midday|noon)|mid-?session|mid-?day|a\s+media\s+sesión|"
        r"a\s+mediodía|a\s+mitad\s+de\s+(?:la\s+)?(?:sesión|jornada)",
    ),
    "late": (
        time(14, 0),
        time(16, 0),
        r"late\s+in\s+(?:the\s+)?(?:session|trading\s+day|trading)|in\s+late\s+trading|"
        r"al\s+final\s+de\s+la\s+(?:sesión|jornada)|en\s+la\s+recta\s+final\s+de\s+la\s+sesión",
    ),
    "close": (
        time(15, 0),
        time(16, 0),
        r"(?:near|just\s+before|shortly\s+before|ahead\s+of)\s+the\s+(?:close|closing\s+bell)|"
        r"in\s+the\s+(?:final|last)\s+hour|cerca\s+del\s+cierre|poco\s+antes\s+del\s+cierre|"
        r"en\s+la\s+última\s+hora",
    ),
}
"""Parts of the session (New York time, from and to) and the words that name them."""
_PART = re.compile(
    "|".join(f"(?P<{name}>(?<!\\w)(?:{words})(?!\\w))" for name, (_, _, words) in _PARTS.items())
)
_SAME_DAY = re.compile(
    r"(?<!\w)(?:(?:the|that|on\s+the)\s+(?:very\s+)?same\s+(?:day|session)|(?:earlier|later)\s+"
    r"(?:that|the\s+same|in\s+the)\s+(?:day|session)|that\s+(?:very\s+)?day|"
    r"(?:el|ese|aquel|en\s+el)\s+mismo\s+día|ese\s+día|(?:esa|la|en\s+la)\s+misma\s+"
    r"(?:sesión|jornada)|(?:más\s+tarde|antes)\s+ese\s+(?:mismo\s+)?día)(?!\w)"
)


def check_headline_parts(case: Case) -> Iterator[Reason]:
    """Each part of the session or "same day" said in a sentence that quotes a headline."""
    text = case.trace.draft or ""
    folded = fold_aligned(text)
    parts = list(_PART.finditer(folded))
    same = list(_SAME_DAY.finditer(folded))
    if not parts and not same:
        return
    items = _items(case)
    if not items:
        return
    starts = sentence_starts(text)
    for m in [*parts, *same]:
        lo = max(s for s in starts if s <= m.start())
        hi = sentence_end(starts, m.start(), len(text))
        quoted = [i for i in items if i[0] in folded[lo:hi]]
        if len(quoted) != 1:
            continue
        headline, when = quoted[0]
        if m.re is _PART:
            first, last, _ = _PARTS[m.lastgroup or ""]
            if first <= when.time() <= last and when.weekday() < 5:
                continue
            said = f"{first:%H:%M} to {last:%H:%M}"
        else:
            day = _day_before(case, folded, m.start())
            if day is None or when.date() == day:
                continue
            said = day.isoformat()
        yield Reason(
            rule=ReasonCode.WRONG_TIME,
            message=(
                f'"{text[m.start() : m.end()]}" places "{headline}" at {said} (New York), but it '
                f"came {when:%Y-%m-%d %H:%M}"
            ),
            span=m.span(),
        )


_THEN = re.compile(
    r"(?<!\w)(?:(?P<later>(?:and\s+)?(?:later|then|afterwards|subsequently|followed\s+by|"
    r"después|luego|más\s+tarde|posteriormente|a\s+continuación))|(?P<after>after|tras|"
    r"después\s+de\s+que)|(?P<before>before|antes\s+de\s+que))(?!\w)"
    r"(?!\s+(?:the\s+|el\s+|la\s+|del\s+|de\s+la\s+)?(?:[\w-]+['’]s\s+)?(?:close|closing|open|opening|bell|session|"
    r"market|hours|cierre|apertura|sesión)(?!\w))"
)
"""Words between two quoted headlines that order them: the second came later ("and later",
"then", "luego"), or the first came after ("after", "tras") or before ("before") the second;
not a part of the session ("after Monday's close", "antes de la apertura")."""


def check_headline_sequence(case: Case) -> Iterator[Reason]:
    """Two quoted headlines ordered by a word between them, held against their times."""
    quotes = sorted(
        (f.claim for f in case.findings if f.claim.kind == "headline" and f.supported_by),
        key=lambda c: c.start,
    )
    if len(quotes) < 2:
        return
    text = case.trace.draft or ""
    folded = fold_aligned(text)
    items = _items(case)
    tickers = [f.claim.start for f in case.findings if f.claim.kind == "ticker"]
    for first, second in pairwise(quotes):
        if second.start - first.end > 160:
            continue
        if any(first.end <= t < second.start for t in tickers):
            continue  # "AXO rose after "X"; BRQ fell after "Y"": each clause its own
        word = _THEN.search(folded, first.end, second.start)
        times = [_time_of(q.text, items) for q in (first, second)]
        if word is None or None in times:
            continue
        a, b = times
        assert a is not None and b is not None
        later = word.lastgroup == "later" or word.lastgroup == "after"
        holds = (b > a) if word.lastgroup == "later" else (a > b) if later else (a < b)
        if holds:
            continue
        yield Reason(
            rule=ReasonCode.WRONG_RELATION,
            message=(
                f'"{word.group()}" orders {first.text} and {second.text}, but the first came '
                f"{a:%Y-%m-%d %H:%M} and the second {b:%Y-%m-%d %H:%M} (New York)"
            ),
            span=(first.start, second.end),
        )


def _time_of(quote: str, items: list[tuple[str, datetime]]) -> datetime | None:
    said = quote.strip("\"“”«»'‘’ ").casefold().rstrip(".")
    found = [when for headline, when in items if said and (said in headline or headline in said)]
    return found[0] if len(set(found)) == 1 else None


def _items(case: Case) -> list[tuple[str, datetime]]:
    """Each news item's headline (case-folded) and New York time."""
    return [
        (item["headline"].casefold(), when)
        for item, when, _ in news_items(case)
        if isinstance(item.get("headline"), str)
    ]


def _day_before(case: Case, folded: str, at: int) -> date | None:
    """The day "the same day" points back to: the last day the draft names before it (a year
    left out is the report's, or the one before for a later month), else the report date (the
    day of the move the answer opens with)."""
    report = case.report_day
    if report is None:
        return None
    days = [
        d
        for f in case.findings
        if f.claim.kind == "date" and f.claim.end <= at
        for d in f.claim.dates
        if d[1] <= 12 and d[2]
    ]
    if not days:
        return report
    year, month, day = days[-1]
    year = year or (report.year if month <= report.month else report.year - 1)
    try:
        return date(year, month, day or 1)
    except ValueError:
        return None


_LIST_ORDER = re.compile(
    r"(?<!\w)(?:(?P<newest>newest\s+first|latest\s+first|most\s+recent\s+first|"
    r"(?:in\s+)?reverse\s+chronological(?:\s+order)?|del\s+más\s+reciente\s+al\s+más\s+antiguo|"
    r"(?:las\s+)?más\s+recientes\s+primero)|"
    r"(?P<oldest>oldest\s+first|earliest\s+first|(?:in\s+)?chronological(?:\s+order)?|"
    r"del\s+más\s+antiguo\s+al\s+más\s+reciente|en\s+orden\s+cronológico))(?!\w)"
)
"""The order a list of headlines is said to run in ("newest first", "in chronological order",
"del más reciente al más antiguo")."""


def check_list_order(case: Case) -> Iterator[Reason]:
    """A list of quoted headlines said to run newest or oldest first: the quotes after the words
    (up to the next blank line or the end) in that order of their times; the words with no quote
    after them say nothing checked and stay for the closed world."""
    text = case.trace.draft or ""
    folded = fold_aligned(text)
    if (
        "first" not in folded
        and "chrono" not in folded
        and "cronol" not in folded
        and ("recient" not in folded)
    ):
        return
    quotes = sorted(
        (f.claim for f in case.findings if f.claim.kind == "headline" and f.supported_by),
        key=lambda c: c.start,
    )
    items = _items(case)
    for m in _LIST_ORDER.finditer(folded):
        end = folded.find("\n\n", folded.find("\n", m.end()) + 1)
        listed = [q for q in quotes if m.end() <= q.start and (end < 0 or q.start < end)]
        if not listed:
            continue  # no list after the words: they order nothing checked
        times = [t for q in listed if (t := _time_of(q.text, items)) is not None]
        if len(times) < len(listed):
            continue  # a quote of no one item: its time is another rule's question
        newest = m.lastgroup == "newest"
        ordered = all((a >= b) if newest else (a <= b) for a, b in pairwise(times))
        case.bound.append(m.span())
        if ordered:
            continue
        yield Reason(
            rule=ReasonCode.WRONG_RELATION,
            message=(
                f'"{text[m.start() : m.end()]}" orders the headlines after it, but their times '
                "run " + ", ".join(f"{t:%Y-%m-%d %H:%M}" for t in times) + " (New York)"
            ),
            span=(m.start(), listed[-1].end),
        )

"""What a draft says of all the news items at once: "Both of its headlines came from Barron's",
"the search returned two headlines, both on December 31", "sus dos titulares se publicaron
durante la sesión". A sentence that takes the items together (both, all, each, "the two
headlines", "sus dos titulares") and names one wire, one day, one part of the session or one
weekday says each item has it: held against every item the searches returned, it is
`wrong_relation` where one has another.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import cache
from typing import Any

from contract.reasons import ReasonCode
from verifier.lexicon import alternatives_of
from verifier.periods import sentence_end, sentence_starts
from verifier.rules.case import Case
from verifier.rules.news_times import news_items
from verifier.verdict import Reason

_NOUN = r"(?:news\s+)?(?:headlines?|stories|items?|articles?|reports?|titulares|noticias|artículos)"
_TOGETHER = re.compile(
    r"(?<!\w)(?:both|all|each|every\s+one|ambos|ambas|todos|todas|cada\s+un[oa])(?!\w)|"
    r"(?<!\w)(?:los|las)\s+(?:dos|tres|cuatro|cinco)(?=\s+(?:se|fueron|salieron|llegaron))|"
    rf"(?<!\w)(?<!of\s)(?<!de\s)(?:the|its|their|sus|los|las)\s+(?:two|three|four|five|dos|tres|cuatro|cinco|\d)"
    rf"\s+{_NOUN}(?!\w)"
)
_ITEMS = re.compile(rf"(?<!\w){_NOUN}(?!\w)")
_WEEKDAYS = (
    ("monday", "lunes"), ("tuesday", "martes"), ("wednesday", "miércoles"),
    ("thursday", "jueves"), ("friday", "viernes"), ("saturday", "sábado"), ("sunday", "domingo"),
)  # fmt: skip


@cache
def _sessions() -> re.Pattern[str]:
    return re.compile(
        "|".join(
            f"(?P<{name}>(?<!\\w)(?:{alternatives_of('sessions', name)})(?!\\w))"
            for name in ("before", "during", "after")
        )
    )


def check_items_together(case: Case) -> Iterator[Reason]:
    """Each sentence that takes the news items together, held against every item."""
    text = case.trace.draft or ""
    folded = text.casefold()
    if not _TOGETHER.search(folded) or not _ITEMS.search(folded):
        return
    items = _items(case)
    if len(items) < 2:
        return  # one item: "both" and "all" say nothing more of it than the item rules do
    starts = sentence_starts(text)
    dates = [f.claim for f in case.findings if f.claim.kind == "date" and f.claim.dates]
    quoted = [f.claim.start for f in case.findings if f.claim.kind == "headline"]
    done: set[int] = set()
    for m in _TOGETHER.finditer(folded):
        lo = max(s for s in starts if s <= m.start())
        hi = sentence_end(starts, m.start(), len(text))
        if lo in done or not _ITEMS.search(folded, lo, hi) or any(lo <= q < hi for q in quoted):
            continue  # a quoted item's wire and day are its own (`news_sources`, `news_times`)
        done.add(lo)
        yield from _each(text, folded, lo, hi, items, [d for d in dates if lo <= d.start < hi])


def _each(
    text: str, folded: str, lo: int, hi: int, items: list[dict[str, Any]], dates: list[Any]
) -> Iterator[Reason]:
    sentence = folded[lo:hi]
    said: list[tuple[str, Any, Any]] = []  # (what, the value said, each item's)
    wires = {str(i["source"]).casefold() for i in items if i.get("source")}
    named = [w for w in wires if w and re.search(rf"(?<!\w){re.escape(w)}(?!\w)", sentence)]
    if len(named) == 1:
        said.append(("wire", named[0], lambda i: str(i.get("source") or "").casefold()))
    days = {(m, d) for c in dates for _, m, d in c.dates if m and d and m <= 12}
    if len(days) == 1:
        said.append(("day", days.pop(), lambda i: (i["when"].month, i["when"].day)))
    sessions = {s.lastgroup for s in _sessions().finditer(sentence)}
    if len(sessions) == 1:
        said.append(("session", sessions.pop(), lambda i: i["session"]))
    weekdays = {
        k
        for k, pair in enumerate(_WEEKDAYS)
        if any(re.search(rf"(?<!\w){w}(?!\w)", sentence) for w in pair)
    }
    if len(weekdays) == 1:
        said.append(("weekday", weekdays.pop(), lambda i: i["when"].weekday()))
    for what, value, of in said:
        other = [i for i in items if of(i) != value]
        if other:
            yield Reason(
                rule=ReasonCode.WRONG_RELATION,
                message=(
                    f'"{text[lo:hi].strip()}" gives every news item one {what}, but '
                    f"{len(other)} of the {len(items)} the search returned "
                    f'("{other[0].get("headline", "")}") has another'
                ),
                span=(lo, hi),
            )


def _items(case: Case) -> list[dict[str, Any]]:
    """Each news item the searches returned, with its New York time and its session."""
    return [{**item, "when": when, "session": session} for item, when, session in news_items(case)]

"""Paraphrase: a headline retold in other words ("MarketWatch's CFO announcement", "Benzinga
informó del nombramiento de un nuevo director financiero") is bound to one headline of its
ticker, or stays `unverified_claim`.

Quoting a headline whole is checked by `unknown_headline`; retelling one says the same thing in
words no quote rule reads. So a run of words the closed world left uncovered is bound to a news
item when every word of it is a word of that item's headline (by its stem, "resignation" for
"resigns") or stands for one (the lexicon's `news_terms`: "CFO" and "director financiero" for
"chief financial officer"), apart from linking words, and at least one is; when its sentence
attributes it to the news (the item's wire, or a word of `news_nouns`: "story", "informó");
when the item is one of the subject's (an item only another ticker's news holds is
`wrong_subject`); and when the wire, day and session its sentence gives it are the item's own
(another wire leaves it unbound; another day or session is `wrong_time`).
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Iterable
from datetime import datetime
from functools import cache
from typing import Any

from contract.reasons import ReasonCode
from verifier.claim import Claim
from verifier.lexicon import alternatives, grouped
from verifier.rules.case import Case
from verifier.scanner import PhraseScan
from verifier.verdict import Reason

_WORD = re.compile(r"[^\W\d_][^\W_&]*(?:&[^\W_]+)?")
_LINKING = frozenset(
    [
        "a",
        "an",
        "the",
        "of",
        "its",
        "on",
        "for",
        "with",
        "to",
        "from",
        "and",
        "by",
        "at",
        "in",
        "about",
        "over",
        "into",
        "de",
        "del",
        "la",
        "el",
        "los",
        "las",
        "un",
        "una",
        "unos",
        "unas",
        "en",
        "ante",
        "al",
        "con",
        "por",
        "para",
        "sobre",
        "y",
        "e",
        "su",
        "sus",
    ]
)
"""Words that join the words of a retold headline and carry none of its content."""


def _stem(word: str) -> str:
    return word[:5]


@cache
def _terms() -> tuple[PhraseScan, dict[str, frozenset[str]]]:
    groups = grouped("news_terms")
    names = {f"t{i}": words for i, words in enumerate(groups)}
    scan = PhraseScan({f"t{i}": parts for i, parts in enumerate(groups.values())})
    return scan, {k: frozenset(_stem(w) for w in v.split()) for k, v in names.items()}


@cache
def _nouns() -> re.Pattern[str]:
    return re.compile(rf"(?<!\w)(?:{alternatives('news_nouns')})(?!\w)")


@cache
def _sessions() -> PhraseScan:
    return PhraseScan(grouped("sessions"))


class Item:
    """One news item of the trace: its headline's stems, ticker, wire, day and session."""

    __slots__ = ("day", "headline", "published", "session", "source", "stems", "ticker")

    def __init__(self, node: dict[str, Any], ticker: str | None) -> None:
        self.headline = str(node.get("headline") or "")
        self.stems = frozenset(_stem(w) for w in _WORD.findall(self.headline.casefold()))
        self.ticker = ticker
        self.source = str(node.get("source") or "").casefold()
        self.published = str(node.get("published_at") or "")
        self.day = self.published[:10]
        self.session = str(node.get("session") or "").casefold()


def news_items(case: Case) -> list[Item]:
    """Every news item of the trace's successful calls, with the ticker it was returned for."""
    items: list[Item] = []
    for event in case.trace.events:
        result = event.result
        if not isinstance(result, dict) or not isinstance(result.get("news"), list):
            continue
        ticker = result.get("ticker") or event.ticker
        for node in result["news"]:
            if isinstance(node, dict) and isinstance(node.get("headline"), str):
                items.append(Item(node, ticker if isinstance(ticker, str) else None))
    return items


def bind_paraphrases(
    case: Case,
    text: str,
    folded: str,
    spans: list[tuple[int, int]],
    starts: list[int],
) -> tuple[list[tuple[int, int]], list[Reason]]:
    """The spans left unbound, and the reasons for retold headlines the trace contradicts."""
    items = news_items(case)
    if not items or not spans:
        return spans, []
    scan, canon = _terms()
    hits = scan.finditer(folded)
    tickers = [f.claim for f in case.findings if f.claim.kind == "ticker"]
    dates = [f.claim for f in case.findings if f.claim.kind == "date" and f.claim.dates]
    left: list[tuple[int, int]] = []
    reasons: list[Reason] = []
    fitted: list[tuple[tuple[int, int], int, dict[int, frozenset[str]]]] = []
    shared: dict[tuple[int, int], set[str]] = {}
    for span in spans:
        i = bisect_right(starts, span[0]) - 1
        words = _words(folded, _compound(folded, span), hits, canon)
        fits: dict[int, frozenset[str]] = {}
        for k, item in enumerate(items):
            used = _explains(words, item) if words is not None else None
            if used is not None:
                fits[k] = used
                shared.setdefault((i, k), set()).update(used)
        fitted.append((span, i, fits))
    for span, i, fits in fitted:
        lo, hi = starts[i], starts[i + 1] if i + 1 < len(starts) else len(text)
        # two words of one headline at least, over its sentence: one in common is no retelling
        told = [items[k] for k in fits if len(shared[i, k]) >= 2]
        said = starts[i - 1] if i and _ABBREVIATED.search(folded, 0, lo) else lo  # "Corp. lanzó"
        if not told or not _attributed(folded, said, hi, items):
            left.append(span)
            continue
        reason = _bind(case, text, folded, span, (lo, hi), told, tickers, dates, items)
        if reason is False:
            left.append(span)
        elif isinstance(reason, Reason):
            reasons.append(reason)
    return left, reasons


_ABBREVIATED = re.compile(r"(?<!\w)(?:corp|inc|co|ltd|plc|llc|s\.a|cía)\.\s*$")
"""A sentence start that is only the full stop of a company's name ("Tidewater Energy Corp.")."""


_HYPHENED = re.compile(r"-(\w+)")


def _compound(folded: str, span: tuple[int, int]) -> tuple[int, int]:
    """The span with the words hyphens join to it ("senior-notes item"): a compound says
    its headline's words together, though another rule covers one of them ("notes")."""
    start, end = span
    while m := _HYPHENED.match(folded, end):
        end = m.end()
    while start > 1 and folded[start - 1] == "-" and folded[start - 2].isalnum():
        start -= 1  # back over the hyphen and the word before it, without scanning the text
        while start > 0 and folded[start - 1].isalnum():
            start -= 1
    return start, end


def _words(
    folded: str,
    span: tuple[int, int],
    hits: Iterable[re.Match[str]],
    canon: dict[str, frozenset[str]],
) -> list[list[frozenset[str]]] | None:
    """For each content word of the span, what it may stand for: its own stem, or the whole of
    a `news_terms` phrase covering it ("CFO": chief, financial, officer; all of them or none);
    None when the span has no content word."""
    inside = [h for h in hits if h.start() < span[1] and span[0] < h.end()]
    words: list[list[frozenset[str]]] = []
    for m in _WORD.finditer(folded, span[0], span[1]):
        word = m.group()
        if word in _LINKING:
            continue
        options = [frozenset({_stem(word)})]
        for h in inside:
            if h.start() <= m.start() and m.end() <= h.end():
                options.append(canon[h.lastgroup or ""])
        words.append(options)
    return words or None


def _explains(words: list[list[frozenset[str]]], item: Item) -> frozenset[str] | None:
    """The headline's words the span's words stand for, where every word stands for some."""
    used: set[str] = set()
    for options in words:
        fits = [o for o in options if o <= item.stems]
        if not fits:
            return None
        used |= max(fits, key=len)
    return frozenset(used)


def _attributed(folded: str, lo: int, hi: int, items: list[Item]) -> bool:
    """Whether a sentence speaks of the news: it names a wire of the trace's items, or a
    word that attributes ("story", "informó")."""
    sentence = folded[lo:hi]
    return bool(_nouns().search(sentence)) or any(
        item.source and item.source in sentence for item in items
    )


def _bind(
    case: Case,
    text: str,
    folded: str,
    span: tuple[int, int],
    sentence: tuple[int, int],
    told: list[Item],
    tickers: list[Claim],
    dates: list[Claim],
    items: list[Item],
) -> Reason | bool | None:
    """None when one item of the subject's news retold here agrees with the wire, day and
    session the sentence gives; a reason when none does; False when no item is retold. A wire
    of the trace named nearest the words is the one they are attributed to ("Business Wire
    reported the buyback": `wrong_relation` where PR Newswire ran it)."""
    if not told:
        return False
    lo, hi = sentence
    said = text[span[0] : span[1]]
    before = [t for t in tickers if t.start < span[0]]
    subject = before[-1].symbol if before else (tickers[0].symbol if tickers else None)
    own = [item for item in told if subject is None or item.ticker in (None, subject)]
    if not own:
        return Reason(
            rule=ReasonCode.WRONG_SUBJECT,
            message=(
                f'"{said}" retells "{told[0].headline}", a headline of {told[0].ticker}, '
                f"not of {subject}"
            ),
            span=span,
        )
    wires = {item.source for item in told if item.source and item.source in folded[lo:hi]}
    others = {
        i.source
        for i in items
        if i.source
        and (at := folded.find(i.source, lo, hi)) >= 0
        and not _ORDER_BEFORE.search(folded, lo, at)  # "came after Benzinga's": compared with
    } - wires
    if others and not wires:  # "Business Wire reported the buyback" where PR Newswire ran it
        nearest = min(others, key=lambda w: _distance(folded, w, lo, hi, span))
        return Reason(
            rule=ReasonCode.WRONG_RELATION,
            message=(
                f'"{said}" retells "{own[0].headline}", which {own[0].source} ran, not {nearest}'
            ),
            span=span,
        )
    lo, hi = _clause(folded, span, lo, hi, {item.source for item in told} - wires)
    day = _nearest(dates, span, lo, hi)
    session = _session(folded, span, lo, hi)
    fits = [
        item
        for item in own
        if (day is None or any(_same_day(r, item.day) for r in day.dates))
        and (session is None or not item.session or item.session == session)
    ]
    if fits:
        added = _added(folded, span, lo, hi, fits, items, dates)
        if added is not None:
            return Reason(
                rule=ReasonCode.WRONG_RELATION,
                message=(
                    f'"{text[lo:hi].strip()}" retells "{fits[0].headline}" with '
                    f'"{text[added[0] : added[1]]}", which the headline does not say'
                ),
                span=added,
            )
        case.bound.append(span)
        return None
    item = own[0]
    when = f"{item.day} ({item.session or 'no session given'})"
    return Reason(
        rule=ReasonCode.WRONG_TIME,
        message=f'"{said}" retells "{item.headline}", which came {when}, not when the draft says',
        span=span,
    )


_REPORTED = re.compile(
    r"(?<!\w)(?:reported|reports|said|says|announced|announces|noted|notes|wrote|writes|ran|"
    r"published|flagged|informó|informa|publicó|publica|anunció|anuncia|señaló|señala|dijo|"
    r"dice|recogió|recoge|según|according\s+to)(?!\w)"
)
"""Words that attribute what follows to a wire: a retold headline starts after them."""
_GLUE = frozenset(
    {
        *("that", "que", "it", "has", "had", "have", "will", "would", "is", "was", "were"),
        *("are", "be", "been", "this", "these", "se", "ha", "han", "había", "lo", "le"),
        *("before", "during", "after", "antes", "durante", "tras", "después"),
        *("came", "out", "ran", "appeared", "salió", "llegó", "apareció"),
    }
)
"""Words a retelling may add that carry nothing of the headline's content."""


_ORDER_BEFORE = re.compile(
    r"(?<!\w)(?P<word>before|after|ahead\s+of|antes\s+del?|después\s+del?|tras)\s+"
    r"(?:the\s+|el\s+|la\s+|los\s+|las\s+)?$"
)
"""A retold item said to come before or after another wire's item: held against both times."""


def _in_order(fits: list[Item], others: list[Item], order: re.Match[str]) -> bool:
    """Whether every retold item came before (or after) every item of the other wire."""
    later = order.group("word") in ("after", "tras") or order.group("word").startswith("después")
    try:
        mine = [datetime.fromisoformat(i.published) for i in fits]
        theirs = [datetime.fromisoformat(i.published) for i in others]
    except ValueError:
        return False
    return bool(mine and theirs) and all(
        (m > t) if later else (m < t) for m in mine for t in theirs
    )


def _added(
    folded: str,
    span: tuple[int, int],
    lo: int,
    hi: int,
    fits: list[Item],
    items: list[Item],
    dates: list[Claim],
) -> tuple[int, int] | None:
    """A word the retelling adds to its headline ("closed" for "opens", "two" new centres,
    "annual" for "quarterly", "stock" for "notes"): after the words that attribute it to its
    wire, each word must be one of the headline's, a linking word, or its day and session."""
    start = span[0]
    marks = [m.end() for m in _REPORTED.finditer(folded, lo, span[0])]
    marks += [
        folded.rfind(i.source, lo, span[0]) + len(i.source)
        for i in items
        if i.source and folded.rfind(i.source, lo, span[0]) >= 0
    ]
    if marks:
        start = max(marks)
    told = {i.source for i in fits}
    for item in items:  # another wire after the words opens another item's statement
        at = folded.find(item.source, span[1], hi) if item.source not in told else -1
        if item.source and at >= 0:
            order = _ORDER_BEFORE.search(folded, span[1], at)
            if order and not _in_order(fits, [i for i in items if i.source == item.source], order):
                return order.span("word")  # "came after MarketWatch's CFO announcement"
            hi = at
    skip = [(d.start, d.end) for d in dates if start <= d.start < hi]
    skip += [(start + m.start(), start + m.end()) for m in _sessions().finditer(folded[start:hi])]
    skip += [m.span() for m in _REPORTED.finditer(folded, start, hi)]
    skip += [m.span() for m in _nouns().finditer(folded, start, hi)]
    for item in items:
        at = folded.find(item.source, start, hi) if item.source else -1
        while at >= 0:
            skip.append((at, at + len(item.source)))
            at = folded.find(item.source, at + 1, hi)
    stems = frozenset().union(*(i.stems for i in fits))
    scan, canon = _terms()
    skip += [h.span() for h in scan.finditer(folded) if canon[h.lastgroup or ""] <= stems]
    for m in _WORD.finditer(folded, start, hi):
        word = m.group()
        if word in _LINKING or word in _GLUE or _stem(word) in stems or len(word) == 1:
            continue
        if any(a <= m.start() < b for a, b in skip):
            continue
        return m.span()
    return None


_JOIN = re.compile(r"\s(?:and|y|while|whereas|but|pero|mientras)\s|;|[\"“”«»]")


def _clause(
    folded: str, span: tuple[int, int], lo: int, hi: int, others: set[str]
) -> tuple[int, int]:
    """The part of a sentence a retold headline's day and session are read in: up to a word
    that joins another statement, a quote or another wire."""
    for m in _JOIN.finditer(folded, lo, span[0]):
        lo = m.end()
    cut = _JOIN.search(folded, span[1], hi)
    if cut is not None:
        hi = cut.start()
    for wire in others:
        at = folded.find(wire, span[1], hi)
        if at >= 0:
            hi = at
        back = folded.rfind(wire, lo, span[0])
        if back >= 0:
            lo = back + len(wire)
    return lo, hi


def _distance(folded: str, word: str, lo: int, hi: int, span: tuple[int, int]) -> int:
    best = hi - lo
    at = folded.find(word, lo, hi)
    while at >= 0:
        best = min(best, abs(at - span[0]), abs(at + len(word) - span[1]))
        at = folded.find(word, at + 1, hi)
    return best


def _nearest(dates: list[Claim], span: tuple[int, int], lo: int, hi: int) -> Claim | None:
    near = [d for d in dates if lo <= d.start < hi]
    if not near:
        return None
    return min(near, key=lambda d: min(abs(d.start - span[1]), abs(span[0] - d.end)))


def _session(folded: str, span: tuple[int, int], lo: int, hi: int) -> str | None:
    found = [m for m in _sessions().finditer(folded[lo:hi])]
    if not found:
        return None
    m = min(found, key=lambda m: min(abs(lo + m.start() - span[1]), abs(span[0] - lo - m.end())))
    return m.lastgroup


def _same_day(reading: tuple[int | None, int, int | None], day: str) -> bool:
    if len(day) != 10:
        return True
    year, month, dom = reading
    return (
        (year is None or year == int(day[:4]))
        and month == int(day[5:7])
        and (dom is None or dom == int(day[8:]))
    )

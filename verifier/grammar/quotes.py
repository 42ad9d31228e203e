"""Quotes: quoted headlines, the session and time the draft says each came at, and the tickers it is quoted for."""

from __future__ import annotations

import re
from collections.abc import Sequence

from verifier.claim import Claim
from verifier.grammar.dates import CLOCK, is_timestamp
from verifier.lexicon import grouped
from verifier.periods import SENTENCE_END, item_bar
from verifier.scanner import PhraseScan, fold_aligned

HEADLINE = re.compile(
    r"\"([^\"\n]{3,400})\"|“([^”\n]{3,400})”|«([^»\n]{3,400})»|„([^“”\n]{3,400})[“”]"
    r"|‘(?=\S)((?:[^’\n]|’(?=\w)|(?<=\s)’){3,400})(?<=\S)’(?!\w)"
    r"|'(?<![^\s(\[{]')(?=\S)((?:[^'\n]|'(?=\w)|(?<=\s)'){3,400})(?<=\S)'(?!\w)"
)
"""Quoted text. A single quote opens after a start, a space or a bracket and before a non-space,
and closes after a non-space and before no letter or digit, so apostrophes (AXO's, the stocks'
gains, rock 'n' roll) are not quotes; one inside a word is no closing one either."""
_QUOTES = ('"', "“", "«", "„", "‘", "'")
_ELLIPSIS = " .…"


SESSION_WORD = PhraseScan(grouped("sessions"))
"""When a piece of news came, as a draft says it (`verifier.lexicon`: `sessions`)."""


def attach_quote_times(text: str, claims: list[Claim]) -> None:
    """Each session phrase, and each date (with or without its time), goes to the quoted
    headline it says when came (`_quote_owner`)."""
    folded = fold_aligned(text)
    quotes = [c for c in claims if c.kind == "headline"]
    dates = [c for c in claims if c.kind == "date"]
    sessions = SESSION_WORD.finditer(folded)
    owned: list[tuple[int, int, tuple[Claim, str]]] = []
    for m in sessions:
        owner = _quote_owner(text, m.start(), m.end(), quotes, dates, through_days=True)
        if owner is not None and not owner.session:
            owner.session = m.lastgroup or ""
        if owner is not None:
            owned.append((m.start(), m.end(), (owner, m.lastgroup or "")))
    said = [m.span() for m in sessions]
    for stamp in dates:
        if stamp.role:
            continue  # an end of a window ("del 2024-05-28 al 2024-05-31: ..."), not a day's news
        inside = next((o for a, b, o in owned if a <= stamp.start and stamp.end <= b), None)
        if inside is not None and stamp.dates:
            stamp.headline = inside[0].text  # "before Monday's open": the session of that day
            stamp.session = inside[1]
            continue
        day = is_timestamp(stamp) or any(d is not None and m <= 12 for _, m, d in stamp.dates)
        if day and (owner := _quote_owner(text, stamp.start, stamp.end, quotes, dates, said)):
            stamp.headline = owner.text


def attach_quote_subjects(text: str, claims: list[Claim], tickers: list[Claim]) -> None:
    """A quote speaks of the tickers named with it in its sentence (before it, or right after:
    `"..." (AXO)`): its news result must be one of theirs."""
    for quote in claims:
        if quote.kind != "headline":
            continue
        near = [
            t.symbol
            for t in tickers
            if (t.end <= quote.start and not SENTENCE_END.search(text, t.end, quote.start))
            or (t.start >= quote.end and not SENTENCE_END.search(text, quote.end, t.start))
        ]
        quote.scope = frozenset(near)


_AFTER_QUOTE = re.compile(r"[ \t]*(?:\([^()\n]{0,48}|\[[^\[\]\n]{0,48})")
"""From a quote's end to a time in the brackets right after it: `"..." (PR Newswire, `."""
_LINK_WORDS = frozenset(
    re.findall(
        r"\S+",
        "at on was were is published posted released appeared came ran hit crossed the wire wires "
        "timestamped stamped dated by via from per reported carried said wrote first out with its "
        "a an in headline story item news time utc gmt et z a las el la en publicado publicada "
        "publicó apareció salió por de del según titular noticia con hora issued s fue se that "
        "que informó during durante report reports article post piece release informe artículo "
        "comunicado nota date fecha when",
    )
)
"""Words that may stand between a quote and its time ("published at", "PR Newswire ran")."""
_LINK_TOKEN = re.compile(r"[^\W\d_]+|\S")
_LINK_MARKS = frozenset(",:()[]|*—–-'’")
"""Marks that may stand between a quote and its time too (brackets, table bars, bold, "'s")."""


_TIME_LABEL = re.compile(
    r"[ \t]*(?:[-*•·>]|\d{1,2}[.)])?[ \t*_]*(?:published|posted|publication\s+date|date|dated|"
    r"time|timestamp|when|publicado|publicada|publicación|fecha|hora)(?:\s+\(?[a-z]{1,4}\)?)?"
    r"[ \t*_]*:",
    re.IGNORECASE,
)
"""The label of a line that gives a news item's time within its record ("- **Published:**",
"Fecha:")."""


def _same_record(text: str, lo: int, hi: int, at: int) -> bool:
    """Whether a time at `at` on a labelled line of its own ("- **Published:** 2024-12-30") and
    a quote with only lines of the same list between them (no blank line) are one record."""
    if "\n" not in text[lo:hi] or re.search(r"\n[ \t]*\n", text[lo:hi]):
        return False
    label = _TIME_LABEL.match(text, text.rfind("\n", 0, at) + 1)
    return label is not None and label.end() <= at


def _quote_owner(
    text: str,
    start: int,
    end: int,
    quotes: list[Claim],
    dates: list[Claim],
    sessions: Sequence[tuple[int, int]] = (),
    through_days: bool = False,
) -> Claim | None:
    """The quote that what the draft writes from `start` to `end` (a time, a session phrase)
    says when came: the one whose brackets hold it (`"..." (PR Newswire, 2024-12-30T14:22Z)`),
    else the quote before or after it joined only by linking words and source names ("At ...
    PR Newswire ran", "published ... by", "after the close MarketWatch reported"), the one
    without a comma between if both are; None where that does not tell. A session phrase may
    be joined across the days said with it (`through_days`: "came out yesterday (Monday) after
    the close")."""
    before = [q for q in quotes if q.end <= start]
    after = [q for q in quotes if q.start >= end]
    if before and _AFTER_QUOTE.fullmatch(text, before[-1].end, start):
        return before[-1]
    linked: list[tuple[int, Claim]] = []
    for quote, (lo, hi) in (
        (before[-1] if before else None, (before[-1].end if before else 0, start)),
        (after[0] if after else None, (end, after[0].start if after else 0)),
    ):
        days = [(d.start, d.end) for d in dates if lo <= d.start < hi]
        if days and not through_days:
            continue  # a date between a date and a quote: which one it dates is not told
        inside = sum(b - a for a, b in [*sessions, *days] if lo <= a and b <= hi)
        record = _same_record(text, lo, hi, start)
        if quote is None or hi - lo - inside > (160 if record else 48):
            continue
        if ("\n" in text[lo:hi] and not record) or item_bar(text, lo, hi):
            continue  # a line break ends a list item or a table row; a bar, an item of a line
        gap = CLOCK.sub(lambda c: " " * len(c.group()), text[lo:hi])  # "Reuters 12/30 09:37: "
        for a, b in [*sessions, *days]:  # "On December 31, during the session, PR Newswire
            if lo <= a and b <= hi:  # ran", "came out yesterday (Monday) after the close":
                gap = gap[: a - lo] + " " * (b - a) + gap[b - lo :]  # part of the time
        tokens = _LINK_TOKEN.findall(gap)
        if all(t in _LINK_MARKS or t[0].isupper() or t.casefold() in _LINK_WORDS for t in tokens):
            linked.append(("," in tokens, quote))
    if len(linked) == 2 and linked[0][0] != linked[1][0]:
        return min(linked, key=lambda pair: pair[0])[1]
    return linked[0][1] if len(linked) == 1 else None


def find_quotes(text: str, claims: list[Claim]) -> list[tuple[int, int]]:
    spans: list[tuple[int, int]] = []
    if not any(map(text.__contains__, _QUOTES)):
        return spans
    for m in HEADLINE.finditer(text):
        inner = m.group(m.lastindex or 1)
        if len(inner.rstrip(_ELLIPSIS).split()) >= 3 or len(inner) >= 24:  # a post with no spaces
            claims.append(Claim(inner, m.start(), m.end(), "headline"))
            spans.append((m.start(), m.end()))
    return spans


def normalise_headline(text: str) -> str:
    """Case, quote marks, spacing and trailing punctuation do not make a headline different."""
    text = text.replace("’", "'").replace("‘", "'").casefold()
    return " ".join(text.split()).strip(" .,;:!?")

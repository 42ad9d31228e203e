"""Who ran a quoted headline: "Bloomberg, Mon 7:23 a.m.: “...”", "“...” (Reuters)", "Dow Jones
Newswires reported “...”". A wire the trace names (a news item's `source`) said beside a quote
is that quote's source: the nearest quote on its line and in its sentence, a few words off, is
the one it speaks of, and a wire that did not run it is `wrong_relation`. A wire the trace does not name is no
name of the trace, so the closed world already rejects it.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Iterator
from typing import Any

from contract.reasons import ReasonCode
from verifier.claim import Claim
from verifier.grammar.quotes import normalise_headline
from verifier.periods import item_bar, sentence_starts
from verifier.rules.case import Case
from verifier.verdict import Reason

_ELLIPSIS = " .…"


def check_news_sources(case: Case) -> Iterator[Reason]:
    """Each wire said beside a quoted headline, held against the source of that headline."""
    quotes = [f.claim for f in case.findings if f.claim.kind == "headline" and f.supported_by]
    runs = _sources(case.trace.events) if quotes else {}
    wires = {source for held in runs.values() for source in held}
    if not wires:
        return
    text = case.trace.draft or ""
    names = "|".join(re.escape(w) for w in sorted(wires, key=len, reverse=True))
    starts = sentence_starts(text)
    for m in re.finditer(rf"(?i)(?<!\w)(?:{names})(?!\w)", text):
        quote = _nearest(text, starts, quotes, m.start(), m.end())
        if quote is None and not _ITS_OWN_ITEM.match(text, m.end()):
            quote = _referred(text, starts, quotes, m.start(), m.end())
        held = _ran(runs, quote.text) if quote is not None else set()
        if quote is None or not held or m.group().casefold() in held:
            continue
        yield Reason(
            rule=ReasonCode.WRONG_RELATION,
            message=(
                f'"{m.group()}" is said to have run "{quote.text}", but the search returned it '
                f"from {' and '.join(sorted(held))}"
            ),
            span=m.span(),
        )


def _sources(events: Any) -> dict[str, set[str]]:
    """Each headline the trace's news results hold, normalised, with the wires that ran it
    (case-folded)."""
    runs: dict[str, set[str]] = {}
    for event in events:
        result = event.result
        items = result.get("news") if isinstance(result, dict) else None
        for item in items if isinstance(items, list) else ():
            if isinstance(item, dict):
                headline, source = item.get("headline"), item.get("source")
                if isinstance(headline, str) and isinstance(source, str) and source.strip():
                    key = normalise_headline(headline)
                    runs.setdefault(key, set()).add(source.strip().casefold())
    return runs


def _ran(runs: dict[str, set[str]], said: str) -> set[str]:
    """The wires of the headline a quote gives, whole or cut short with an ellipsis."""
    key = normalise_headline(said)
    if key in runs:
        return runs[key]
    cut = key.rstrip(_ELLIPSIS)
    return {w for headline, held in runs.items() if headline.startswith(cut) for w in held}


def _nearest(
    text: str, starts: list[int], quotes: list[Claim], start: int, end: int
) -> Claim | None:
    """The quote nearest a wire's name on its line and in its sentence, if one is near."""
    line_lo = text.rfind("\n", 0, start) + 1
    line_hi = text.find("\n", end)
    line_hi = len(text) if line_hi < 0 else line_hi
    i = bisect_right(starts, start) - 1
    lo = max(line_lo, starts[i] if i >= 0 else 0)
    hi = min(line_hi, starts[i + 1] if i + 1 < len(starts) else len(text))
    gaps = [
        (start - q.end if q.end <= start else q.start - end, q)
        for q in quotes
        if lo <= q.start
        and q.end <= hi
        and not item_bar(text, min(q.end, end), max(q.start, start))
    ]
    near = [(gap, q) for gap, q in gaps if gap <= _NEAR]
    return min(near, key=lambda pair: pair[0])[1] if near else None


_ITS_OWN_ITEM = re.compile(
    r"(?i)['’]?s?\s+(?:item|story|headline|report|piece|article|news\s+item)(?!\w)"
)
"""A wire naming an item by itself ("The MarketWatch item came out after the close, so it
…"): the item is the one that wire ran, whatever was quoted last."""
_REFERS = re.compile(
    r"(?i)(?<!\w)(?:it|its|the\s+(?:source|wire|item|story)|source|fuente|vía|via|lo|la|"
    r"came\s+from|provenía|procedía)(?!\w)"
)
"""Words that point a wire back at the item quoted before ("It came from X", "X ran it after
the close", "Source: X", "La publicó X", "vía X")."""


def _referred(
    text: str, starts: list[int], quotes: list[Claim], start: int, end: int
) -> Claim | None:
    """The quote a wire speaks of from the sentence or line after it, where that sentence
    quotes nothing and points back at it ("... \"Tidewater launches ...\". It came from Dow
    Jones Newswires.", "- \"...\"\n  Source: Benzinga")."""
    i = bisect_right(starts, start) - 1
    lo = max(text.rfind("\n", 0, start) + 1, starts[i] if i >= 0 else 0)
    hi = _clause_end(text, starts, i, end)
    if any(lo <= q.start < hi for q in quotes) or not _REFERS.search(text, lo, hi):
        return None
    before = [q for q in quotes if q.end <= lo]
    if not before or lo - before[-1].end > 80:
        return None
    return before[-1]


def _clause_end(text: str, starts: list[int], i: int, end: int) -> int:
    """Where the sentence `i` (or the line) holding a wire ends."""
    line = text.find("\n", end)
    stop = starts[i + 1] if i + 1 < len(starts) else len(text)
    return min(stop, len(text) if line < 0 else line)


_NEAR = 48
"""At most this many characters between a wire and the quote it ran ("Bloomberg, Mon 7:23
a.m.: “...”"); further off, the wire speaks of something else ("Dow Jones Newswires reported
the filing after Monday's close, and Barron's ran “...”")."""

"""Periods: the quarter or year a figure is stated for, taken from the nearest mention around it.

Earnings text is full of figures for neighbouring periods ("$3.69 for the third quarter of 2021,
up from $3.41 in the second quarter"), so a figure found somewhere in a source still misleads when
the draft states it for another period. A figure's period is the nearest period mention in its
sentence, a period right after it joined by "in", "for", "during"... first: a quarter ("Q3 2021",
"third quarter"), a year written alone ("2021"), or a relative one ("prior year", "last quarter",
"year-ago"). Two periods disagree only where both say something
about the same part (year, quarter, or the relative step) and say different things.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Sequence
from typing import Any, NamedTuple, Protocol


class Stated(Protocol):
    """What this module reads of a draft's claim (`verifier.claim.Claim`), and the four fields
    it sets: `period`, `period_own`, `tied` and `used`."""

    period: Period | None
    period_own: bool
    tied: bool
    used: bool

    @property
    def kind(self) -> str: ...
    @property
    def text(self) -> str: ...
    @property
    def start(self) -> int: ...
    @property
    def end(self) -> int: ...
    @property
    def dates(self) -> tuple[tuple[int | None, int, int | None], ...]: ...
    @property
    def readings(self) -> tuple[Any, ...]: ...
    @property
    def sign(self) -> int: ...
    @property
    def scale(self) -> float: ...


class Period(NamedTuple):
    """Year and quarter (1-4) where stated, or a step back ("year" or "quarter") from the text's own."""

    year: int | None = None
    quarter: int | None = None
    back: str | None = None

    def describe(self) -> str:
        if self.back:
            return f"the prior {self.back}"
        quarter = f"Q{self.quarter}" if self.quarter else ""
        return " ".join(p for p in (quarter, str(self.year or "")) if p)


RELATIVE = re.compile(
    r"(?i)(?<![\w-])(?:(?:prior|previous|last|past)[\s-]+(?P<step>year|quarter)"
    r"|(?:linked|sequential)\s+(?P<linked>quarter)|(?P<ago>year[\s-]+ago|a\s+year\s+earlier))(?!\w)"
)
_RELATIVE_WORDS = ("prior", "previous", "last", "past", "linked", "sequential", "ago", "earlier")
_RELATIVE_START = re.compile(r"prior|previous|last|past|linked|sequential|year|a\s+year")
"""Where a RELATIVE mention can start (in the case-folded text); it is tried only there."""
_YEAR = re.compile(r"(?:19|20)\d\d")
SENTENCE_END = re.compile(
    r"[.!?;\n](?:(?<=\n)|(?<!\.)(?=\s)|(?<![\s(]i\.e\.)(?<![\s(]e\.g\.)(?<![\s(]vs\.)(?=\s)"
    r"(?!\s+[a-záéíóúüñç]))"
)
"""A sentence ends at `.!?;` before a space, or at a line break (written to open with a class, so
that the engine skips ahead to it); a full stop before a lower-case word ends an abbreviation,
not a sentence ("Orion Electric Co. presentará", "Corp. names"), and so does one of "i.e.",
"e.g." and "vs." whatever follows ("21st of 25, i.e. 5th from the bottom")."""
QUARTER_BASE = 12
_FIGURE_KINDS = ("number", "money", "percent")
_LINK = re.compile(
    r"(?i)\s*,?\s*(?:in|for|during|of|at\s+the\s+end\s+of)\s+(?:the\s+)?(?:fiscal\s+)?(?:year\s+)?"
)
"""What binds a figure to the period after it ("$2.75 in the third quarter"): that one wins."""
_BASE = re.compile(
    r"(?i)(?<!\w)(?:from|compared\s+(?:with|to)|versus|vs\.?|over|than|against)\s+(?:the\s+)?"
    r"(?:same\s+(?:period|quarter)\s+(?:in|of)\s+)?(?:the\s+)?$"
)
"""A period a change is measured against ("up 17% from Q3 2019") is nobody's period."""
_JOINED = re.compile(r"(?i)[^.;:!?$\d]{0,40}?(?:,\s*(?:and\s+)?|\s+(?:and|y)\s+)")
"""What joins two base figures ("$0.16 last quarter and $0.29"): words, then "and" or a comma."""


def periods_agree(a: Period | None, b: Period | None) -> bool:
    """Whether two periods can be the same: no part that both state differs."""
    if a is None or b is None:
        return True
    return all(x is None or y is None or x == y for x, y in zip(a, b, strict=True))


_IN_AFTER = re.compile(
    r"\s*,?\s*(?:in|during|for|over|throughout|en|durante)\s+(?:the\s+(?:month\s+of\s+)?|el\s+"
    r"(?:mes\s+de\s+)?|all\s+of\s+|todo\s+)?"
)
_IN_BEFORE = re.compile(
    r"(?:^|[\s(,;:])(?:in|during|for|over|throughout|en|durante)\s+(?:the\s+|el\s+|all\s+of\s+|"
    r"todo\s+)?$",
    re.IGNORECASE,
)
_LABEL_BETWEEN = re.compile(r"[*_`]*\s*[:=|]\s*[*_`]*\s*\(?\s*")
_LABEL_HEAD = re.compile(
    r"(?:^|[\n;|]|[.!?]\s)[ \t\-*•·>#]*[*_`]*(?:(?:in|for|during|since|en|durante|desde)\s+)?$",
    re.IGNORECASE,
)
"""A period that labels the figure after it, at the head of its line or item: the period is
the figure's own window."""
_OF_A_DAY = re.compile(
    r"(?i)['’]s|\s+(?:final|last|first|closing|opening)?\s*(?:session|day|trading|close|cierre|"
    r"sesión|jornada)(?!\w)"
)
_CLAUSE_BETWEEN = re.compile(r"[^\d.;:!?\n]{0,40}")


def own_period(text: str, figure: tuple[int, int], mention: tuple[int, int]) -> bool:
    """Whether a period mention is the figure's own window: joined right after it ("rose 31.14%
    in Q4", "cayó un 2,04 % en el cuarto trimestre") or opening its clause ("en 2024 pierde un
    14 %", "In November, AXO rose 11.5%"), not a day's or a base's ("on the last trading day of
    2024", "desde el cierre de 2023")."""
    if _OF_A_DAY.match(text, mention[1]):
        return False  # "in December's final session": a day of the month
    if mention[0] >= figure[1]:
        return _IN_AFTER.fullmatch(text, figure[1], mention[0]) is not None
    if _LABEL_BETWEEN.fullmatch(text, mention[1], figure[0]) is not None and (
        _LABEL_HEAD.search(text, max(mention[0] - 24, 0), mention[0]) is not None
    ):
        return True  # "2024: +31.14%", "- December: +11.50%", "**Q4:** +31.14%": a label
    return (
        _IN_BEFORE.search(text, max(mention[0] - 24, 0), mention[0]) is not None
        and _CLAUSE_BETWEEN.fullmatch(text, mention[1], figure[0]) is not None
    )


def sentence_starts(text: str) -> list[int]:
    """Where each sentence of `text` starts (after `.!?;` and a space, or a line break)."""
    return [0, *[m.end() for m in SENTENCE_END.finditer(text)]]


def item_bar(text: str, lo: int, hi: int) -> bool:
    """Whether a bar between two items of one line stands between `lo` and `hi` ("cls 17.38 |
    AP 31/12 16:07: «...» | Reuters 12/30: ..."): what stands on either side of it belongs to
    its own item. A table's row (a line that opens with a bar) keeps its cells together."""
    for bar in (m.start() for m in _BAR.finditer(text, lo, hi)):
        if not text[text.rfind("\n", 0, bar) + 1 :].lstrip().startswith("|"):
            return True
    return False


_BAR = re.compile(r" \| ")


def sentence_end(starts: list[int], at: int, length: int) -> int:
    """Where the sentence holding position `at` ends (`starts` from `sentence_starts`, the text
    `length` long)."""
    following = bisect_right(starts, at)
    return starts[following] if following < len(starts) else length


def attach_periods(text: str, claims: Sequence[Stated], starts: list[int] | None = None) -> None:
    """Give each figure of `text` the period it is stated for, if its sentence names one.

    A period joined to the figure before it ("$2.75 in Q3 2020") belongs to that figure alone, and
    one a change is measured from ("up 17% from Q3 2019") to none; otherwise a figure takes the
    nearest period of its sentence that no other figure stands between. The claim naming a
    period is marked `tied` when it names only a base: a change's, or a base figure's ("down from
    $2.39 in Q3 2019"); and `used` when some figure takes it. `starts`: `sentence_starts(text)`,
    where the caller has it.
    """
    found = _mentions(text, claims)
    if not found:
        return
    if starts is None:
        starts = sentence_starts(text)
    mentions = [(s, e, p, bisect_right(starts, s) - 1) for s, e, p, _ in found]
    figures = [
        c
        for c in claims
        if c.kind in _FIGURE_KINDS and not (len(c.text) == 4 and c.kind == "number" and _is_year(c))
    ]
    ends = [f.end for f in figures]
    owner: dict[int, int] = {}
    for i, (start, _, _, _) in enumerate(mentions):
        before = bisect_right(ends, start) - 1
        if before >= 0 and _LINK.fullmatch(text, figures[before].end, start) is not None:
            owner[i] = before
        elif _is_base(text, start):
            owner[i] = -1
        mentioned = found[i][3]
        if mentioned is not None and i in owner:
            figure = figures[owner[i]] if owner[i] >= 0 else None
            mentioned.tied = figure is None or _is_base_figure(text, figures, owner[i])
    for k, figure in enumerate(figures):
        sentence = bisect_right(starts, figure.start) - 1
        best: tuple[int, int, Period, int] | None = None
        for i, (start, end, period, where) in enumerate(mentions):
            mine = owner.get(i)
            if where != sentence or (mine is not None and mine != k):
                continue
            if start >= figure.end:
                gap, crossed = start - figure.end, bisect_right(ends, start) - 1 != k
            else:
                gap, crossed = figure.start - end, bisect_right(ends, end) < k
            if gap < 0 or crossed:
                continue
            rank = (0 if mine == k else 1, gap)
            if best is None or rank < best[:2]:
                best = (*rank, period, i)
        if best is not None:
            figure.period = best[2]
            start, end = mentions[best[3]][:2]
            figure.period_own = own_period(text, (figure.start, figure.end), (start, end))
            mentioned = found[best[3]][3]
            if mentioned is not None:
                mentioned.used = True
        elif k and figures[k - 1].period and _CHANGE_OF.fullmatch(text, ends[k - 1], figure.start):
            figure.period = figures[k - 1].period  # "$0.34, up 17%": the change of $0.34


_CHANGE_OF = re.compile(
    r"(?i)\s*,?\s*(?:(?:and|or|y|o)\s+)?(?:an?\s+|un[ao]?\s+)?(?:up|down|increas(?:ed|e|ing)"
    r"|decreas(?:ed|e|ing)|r(?:ose|ise|ising)|f(?:ell|all|alling)|grew|growth|gain(?:ed)?|drop(?:ped)?"
    r"|declin(?:ed|e|ing)|jump(?:ed)?|subió|subida|cayó|caída|aument(?:ó|o))\s*(?:of|by|de|un|en)?\s*"
)
"""What makes a percentage the change of the figure right before it ("$0.34, up 17%")."""


Mention = tuple[int, int, Period, Stated | None]
"""Where a period is named, the period, and the claim that names it (None for a relative one)."""


def _mentions(text: str, claims: Sequence[Stated]) -> list[Mention]:
    found: list[Mention] = []
    for claim in claims:
        if claim.kind == "date":
            if claim.dates:
                year, month, day = claim.dates[0]
                if month > QUARTER_BASE and day is None:
                    found.append(
                        (claim.start, claim.end, Period(year, month - QUARTER_BASE), claim)
                    )
        elif len(claim.text) == 4 and _is_year(claim):
            found.append((claim.start, claim.end, Period(int(claim.readings[0].value)), claim))
    lowered = text.casefold()
    if any(word in lowered for word in _RELATIVE_WORDS):
        found += _relative_mentions(text, lowered)
    return found


def _relative_mentions(text: str, lowered: str) -> list[Mention]:
    """`RELATIVE.finditer(text)`, trying the pattern only where a mention can start."""
    if len(lowered) != len(text):
        matches = list(RELATIVE.finditer(text))
    else:
        matches, pos = [], 0
        while (hint := _RELATIVE_START.search(lowered, pos)) is not None:
            m = RELATIVE.match(text, hint.start())
            if m is None:
                pos = hint.start() + 1
            else:
                matches.append(m)
                pos = max(m.end(), hint.start() + 1)
    found: list[Mention] = []
    for m in matches:
        step = m.group("step") or m.group("linked") or "year"
        found.append((m.start(), m.end(), Period(back=step.lower()), None))
    return found


def _is_base_figure(text: str, figures: Sequence[Stated], k: int) -> bool:
    """Whether figure `k` is what a change is measured from: it follows "from", "compared to"...,
    or "and" joins it to one that does ("compared to $0.16 last quarter and $0.29 in Q3 2019")."""
    while not _is_base(text, figures[k].start):
        if k == 0 or _JOINED.fullmatch(text, figures[k - 1].end, figures[k].start) is None:
            return False
        k -= 1
    return True


def _is_base(text: str, start: int) -> bool:
    """Whether what starts at `start` is what a change is measured from ("down from $2.39")."""
    return _BASE.search(text, max(start - 40, 0), start) is not None


def _is_year(claim: Stated) -> bool:
    return (
        claim.kind == "number"
        and len(claim.text) == 4
        and not claim.sign
        and claim.scale == 1.0
        and _YEAR.fullmatch(claim.text) is not None
    )

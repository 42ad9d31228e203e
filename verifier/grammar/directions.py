"""Directions: the word that governs a figure ("rose 2.1%", "a 2,897.51 loss") and the figures chained to it."""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Iterable

from verifier.claim import Claim
from verifier.scanner import Scan, word_starts

DIRECTION = re.compile(
    r"(?i)(?<!\w)(?:(?P<up>rose|rise[sn]?|rising|gain(?:ed|s)?|climb(?:ed|s)?|jump(?:ed|s)?|advance[ds]?|increase[ds]?"
    r"|rall(?:ied|ies|y)|rebound(?:ed|s)?|up|surg(?:ed|es|e|ing)|soar(?:ed|s|ing)?|add(?:ed|s|ing)|firm(?:ed|s)"
    r"|spik(?:ed|es)|popp?(?:ed|s)|appreciat(?:ed|es)|higher|strengthen(?:ed|s)?"
    r"|sub(?:ió|e|ida)|gan(?:ó|a|ancia)|avanz(?:ó|a)|crec(?:ió|e)|aument(?:ó|a|o)|alza|repunt(?:ó|a)"
    r"|dispar(?:ó|a))"
    r"|(?P<down>fell|falls?|fallen|falling|drop(?:ped|s)?|decline[ds]?|lost|loses|loss|sli[dp](?:ped|s)?|sank|sinks?"
    r"|decrease[ds]?|down|tumbl(?:ed|es|ing)|retreat(?:ed|s)?|dipp(?:ed|ing)|dips?|plung(?:ed|es|ing)"
    r"|eas(?:ed|es)|shed(?:s|ding)?|lower|slump(?:ed|s)?|plummet(?:ed|s)?|weaken(?:ed|s)?"
    r"|ca(?:yó|e|ída|ida)|perd(?:ió|e)|pierde|pérdida|perdida|baj(?:ó|a|ada)|retroced(?:ió|e)"
    r"|descend(?:ió|e)|desciende|descenso|disminu(?:yó|ye|ción)|ced(?:ió|e)|desplom(?:ó|a)|hund(?:ió|e)|rest(?:ó|a)))(?!\w)"
)
_LEAD_GAP = re.compile(
    r"(?i)\s*(?:(?:by|of|por|un|una|de|del|was|were|is|fue|some|about|around|roughly|approximately|nearly|almost|just|a|an|"
    r"total|sharply|slightly|modestly|casi|cerca|alrededor|fuertemente|ligeramente)\s+){0,3}\(?\s*"
)
_CHAIN_GAP = re.compile(r"(?i)\s*[,(/]?\s*(?:or|o|i\.e\.)?\s*\(?\s*")


_DIRECTION_WORDS = (
    "ros ris gain climb jump advance increase rall rebound up surg soar add firm spik pop apprec"
    " higher strength sub gan avanz crec aument alza repunt dispar fell fall drop decline los sli"
    " sank sink decrease down tumbl retreat dip plung eas shed lower slump plummet weaken ca perd"
    " pierde pérdida baj retroced descen disminu ced desplom hund rest"
)
_AFTER_FIGURE = frozenset(
    re.findall(
        r"\S+",
        "higher lower gain gains loss decline drop rise increase decrease fall jump advance rally"
        " rebound alza subida caída caida pérdida perdida ganancia bajada descenso aumento",
    )
)
"""Direction words that also govern the figure right before them ("closed 1.31% lower", "a
2,897.51 loss"); a verb or `up`/`down` there belongs to what follows ("287.14, down 3.71")."""
DIRECTION_SCAN = Scan(DIRECTION, word_starts(_DIRECTION_WORDS), True, ())


def attach_directions(text: str, figures: list[Claim], directions: Iterable[re.Match[str]]) -> None:
    """Each direction word governs the figure after it and those chained to that one."""
    starts = [f.start for f in figures]
    ends: list[int] | None = None
    for m in directions:
        direction = 1 if m.group("up") else -1
        if m.group().casefold() in _AFTER_FIGURE:
            if ends is None:
                ends = [f.end for f in figures]
            before = bisect_right(ends, m.start()) - 1
            if (
                before >= 0
                and not figures[before].direction
                and not text[figures[before].end : m.start()].strip()
            ):
                figures[before].direction, figures[before].direction_word = direction, m.group()
        i = _first_at_or_after(starts, m.end())
        gap = _LEAD_GAP
        cursor = m.end()
        while i < len(figures) and gap.fullmatch(text, cursor, figures[i].start):
            if not figures[i].direction:
                figures[i].direction, figures[i].direction_word = direction, m.group()
            cursor, gap, i = figures[i].end, _CHAIN_GAP, i + 1


def _first_at_or_after(starts: list[int], position: int) -> int:
    return bisect_left(starts, position)

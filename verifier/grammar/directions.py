"""Directions: the word that governs a figure ("rose 2.1%", "a 2,897.51 loss") and the figures chained to it."""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right

from verifier.claim import Claim
from verifier.lexicon import fragments, grouped
from verifier.scanner import PhraseScan

DIRECTION = PhraseScan(grouped("governing"))
"""A direction word that governs a figure, its direction the group's name: "up" or "down"."""
_LEAD_GAP = re.compile(
    r"(?i)\s*(?:(?:the\s+|la\s+)?(?:portfolio|fund|book|account|cartera|p\d{3,})(?:'s\s+return)?\s+)?"
    r"(?:(?:by|of|por|un|una|de|del|was|were|is|fue|some|about|around|roughly|approximately|nearly|almost|just|a|an|"
    r"total|sharply|slightly|modestly|modest|moderate|only|mere|marginally|solo|sólo|apenas|"
    r"casi|cerca|alrededor|fuertemente|ligeramente|algo|poco|más|menos|"
    r"more\s+than|less\s+than|over|under|at\s+least|al\s+menos|upwards\s+of)\s+){0,4}\(?\s*"
)
_SESSIONS_AFTER = re.compile(
    r"(?i)[-\s]+(?:(?:straight|consecutive|successive)\s+)?"
    r"(?:sessions?|days?|trading\s+days?|sesiones|jornadas|días|ruedas)(?!\w)"
)
"""A count of sessions ("fallen four sessions in a row"): a length of time, never a signed change."""
_CHAIN_GAP = re.compile(r"(?i)\s*[,(/]?\s*(?:or|o|i\.e\.)?\s*\(?\s*")
_LIST_GAP = re.compile(
    r"(?i)\s+(?:(?:on|over|for|in|during|across|en|durante|para)\s+)?"
    r"(?:(?:the|this|el|la|lo\s+que\s+va\s+del?)\s+)?(?:(?:past|last|trailing|último|última)\s+)?"
    r"(?:week|month|quarter|year(?:\s+to\s+date)?|ytd|semana|mes|trimestre|año)"
    r"\s*(?:,\s*(?:and\s+|y\s+)?|\s+and\s+|\s+y\s+)(?:(?:by\s+|un\s+|el\s+)?)"
)
"""Between the figures of a list that one direction word governs, each with its window ("down
1.56% on the week, 5.48% on the month and 2.96% on the quarter", "cae un 1,56 % en la semana y
un 5,48 % en el mes"): every unsigned percentage of the list takes the word's direction."""
_COUNTED = re.compile(
    r"(?i)\s+(?:positions?|stocks?|names|holdings|constituents|companies|shares\s+(?:rose|fell)|"
    r"closes|finishes|posiciones|valores|títulos|empresas|cierres)(?!\w)"
)
"""A count of holdings or closes ("18 down (25 positions)", "two lower closes"): a number of
things, never a signed change."""
_PLURAL_VERB = re.compile(
    r"(?i)(?:subieron|bajaron|cayeron|avanzaron|retrocedieron|ganaron|perdieron|suben|bajan|"
    r"caen|avanzan|retroceden|ganan|pierden)$"
)
"""A Spanish verb in the plural ("bajaron 12", "suben 7"): the count after it is its subject,
how many holdings moved, not a change."""


_FROM = re.compile(r"(?i)(?<!\w)(?:de|del|desde)\s")
_TO_NEXT = re.compile(
    r"(?i)\s*(?:\$|us\$|€|dólares)?(?:\s+(?:el|del)\s+[\w\s-]{1,30}?)?"
    r"\s+(?:a|al|hasta)\s+(?:los\s+)?(?:us)?[$€]?\s*[-+−]?\d"
)
"""A level "de" one figure "a" the next ("bajó de 405,00 a 399,54", "de 405,00 el 30 de diciembre
a 399,54"): a path between levels."""


_ARROW_NEXT = re.compile(r"\s*(?:→|->|=>|⇒)\s*(?:us)?[$€]?\s*[-+−]?\d")
"""A level with an arrow to the next ("405,00 → 399,54"): a path, never a restated change."""


_AFTER_FIGURE = frozenset(fragments("after_figure"))
"""Direction words that also govern the figure right before them ("closed 1.31% lower", "a
2,897.51 loss"); a verb or `up`/`down` there belongs to what follows ("287.14, down 3.71")."""


def attach_directions(text: str, folded: str, figures: list[Claim]) -> None:
    """Each direction word governs the figure after it and those chained to that one."""
    starts = [f.start for f in figures]
    ends: list[int] | None = None
    for m in DIRECTION.finditer(folded):
        direction = 1 if m.lastgroup == "up" else -1
        word = text[m.start() : m.end()]
        if m.group() in _AFTER_FIGURE:
            if ends is None:
                ends = [f.end for f in figures]
            before = bisect_right(ends, m.start()) - 1
            if (
                before >= 0
                and not figures[before].direction
                and not text[figures[before].end : m.start()].strip()
                and not _COUNTED.match(text, m.end())
            ):
                figures[before].direction, figures[before].direction_word = direction, word
        i = _first_at_or_after(starts, m.end())
        gap = _LEAD_GAP
        cursor = m.end()
        while i < len(figures) and gap.fullmatch(text, cursor, figures[i].start):
            if _SESSIONS_AFTER.match(text, figures[i].end) or _COUNTED.match(text, figures[i].end):
                break
            if _bare_count(figures[i]) and _PLURAL_VERB.search(word):
                break
            if _FROM.search(text, cursor, figures[i].start) and _TO_NEXT.match(
                text, figures[i].end
            ):
                break  # "bajó de 405,00 a 399,54": from one level to another, not a fall of 405
            if gap is _CHAIN_GAP and _ARROW_NEXT.match(text, figures[i].end):
                break  # "una caída de 5,46 (405,00 → 399,54)": the levels the fall ran between
            if not figures[i].direction:
                figures[i].direction, figures[i].direction_word = direction, word
            cursor, gap, i = figures[i].end, _CHAIN_GAP, i + 1
        while (  # "down 1.56% on the week, 5.48% on the month and 2.96% on the quarter"
            0 < i < len(figures)
            and figures[i].kind == figures[i - 1].kind == "percent"
            and not figures[i].sign
            and not figures[i].direction
            and figures[i - 1].direction == direction
            and _LIST_GAP.fullmatch(text, cursor, figures[i].start)
        ):
            figures[i].direction, figures[i].direction_word = direction, word
            cursor, i = figures[i].end, i + 1
    attach_trailing_up_down(text, figures)


_UP_DOWN_AFTER = re.compile(
    r"(?i)\s*(?:pct|percent|per\s*cent|%)?\s+(?P<word>up|down)(?!\w)(?!\s*[,:]?\s*[-+−$€£(]?\s*\d)"
)
"""`up` or `down` right after a figure and before no other figure ("(2.03% up)", "2.03 pct down
on the day"): the figure's direction, not the next figure's ("287.14, down 3.71")."""


def attach_trailing_up_down(text: str, figures: list[Claim]) -> None:
    """The direction of a change written with `up` or `down` after it (a count is no change:
    "eighteen down" is a number of decliners)."""
    for figure in figures:
        if figure.direction or figure.kind not in ("percent", "money"):
            continue
        m = _UP_DOWN_AFTER.match(text, figure.end)
        if m is not None:
            word = m.group("word")
            figure.direction = 1 if word.lower() == "up" else -1
            figure.direction_word = word


def _bare_count(figure: Claim) -> bool:
    """A whole number written with no unit, sign or decimals ("12")."""
    return not figure.unit and figure.text.isdigit()


def _first_at_or_after(starts: list[int], position: int) -> int:
    return bisect_left(starts, position)

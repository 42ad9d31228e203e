"""Moves: a direction word said of a ticker, with or without a figure ("AXO fell on 2024-12-31",
"closed lower at 287.14", "las acciones de AXO cayeron").

A move is a claim of its own when no figure right after the word carries its direction (those are
the figure's, see `verifier.extraction`). Its subject is the ticker named right before the word, with
only words about the price between ("AXO shares", "AXO's stock", "las acciones de AXO"); a word
about anything else ("AXO's volume fell") or a negation ("did not fall") makes it no move.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Sequence
from typing import Protocol

from verifier.lexicon import alternatives, fragments
from verifier.scanner import PhraseScan

MOVE = PhraseScan({"up": fragments("rise"), "down": fragments("fall")})
"""A direction word or phrase (case-folded text): the `up` or the `down` group."""
_GAP = re.compile(rf"(?:\s*(?:(?:{alternatives('price_nouns')})(?!\w)|[,:*_()\-—–]))*\s*")
"""What may stand between a ticker and its direction word."""
_SESSION_VERB = re.compile(rf"(?<!\w)(?:{alternatives('session_verbs')})(?!\w)[^.;]*$")
"""A verb of the session's end before the word: the move is the day's."""
EXTENDED = PhraseScan({"extended": fragments("extended_hours")})
_NEGATED = re.compile(rf"(?<!\w)(?:{alternatives('negations')})\s+(?:\w+\s+)?$")


class Moved(Protocol):
    """What this module reads of the claims around a move."""

    @property
    def kind(self) -> str: ...
    @property
    def start(self) -> int: ...
    @property
    def end(self) -> int: ...
    @property
    def symbol(self) -> str: ...
    @property
    def direction(self) -> int: ...


def find_moves(
    folded: str,
    tickers: Sequence[Moved],
    figures: Sequence[Moved],
    starts: list[int],
    make: Callable[[int, int, int, str, bool], object],
) -> list[object]:
    """The moves of the text, each made by `make(start, end, direction, ticker, daily)`;
    `daily`: the word is said of a session's close ("closed lower", "cerró a la baja")."""
    if not tickers:
        return []
    found: list[object] = []
    moves = MOVE.finditer(folded)
    if not moves:
        return found
    extended = [m.span() for m in EXTENDED.finditer(folded)]
    figure_starts, figure_ends = [f.start for f in figures], [f.end for f in figures]
    ticker_ends = [t.end for t in tickers]
    for m in moves:
        start, end = m.span()
        if _carried(folded, start, end, figures, figure_starts, figure_ends):
            continue
        subject = _subject(folded, start, tickers, ticker_ends, starts)
        if subject is None or _NEGATED.search(folded, max(start - 16, 0), start):
            continue
        if any(s < end + 40 and e > start - 40 for s, e in extended):
            continue  # "fell before the open": not the session's change
        daily = _SESSION_VERB.search(folded, max(start - 24, 0), end) is not None
        found.append(make(start, end, 1 if m.lastgroup == "up" else -1, subject, daily))
    return found


def _carried(
    folded: str,
    start: int,
    end: int,
    figures: Sequence[Moved],
    figure_starts: list[int],
    figure_ends: list[int],
) -> bool:
    """Whether a figure carries the word's direction: the first one after it ("fell 2.1%"), or
    the one right before it ("closed 1.31% lower")."""
    i = bisect_left(figure_starts, end)
    if i < len(figures) and figures[i].direction and _LEAD.fullmatch(folded, end, figure_starts[i]):
        return True
    j = bisect_right(figure_ends, start) - 1
    return j >= 0 and bool(figures[j].direction) and not folded[figure_ends[j] : start].strip()


_LEAD = re.compile(
    r"\s*(?:(?:by|of|por|un|una|de|del|was|were|is|fue|some|about|around|roughly|nearly|almost"
    r"|just|a|an|to|at|hasta|a)\s+){0,3}[(*_\s]*"
)


def _subject(
    folded: str, start: int, tickers: Sequence[Moved], ticker_ends: list[int], starts: list[int]
) -> str | None:
    """The ticker right before the word in its sentence, joined by words about the price."""
    j = bisect_right(ticker_ends, start) - 1
    if j < 0:
        return None
    last = tickers[j]
    if last.start < starts[bisect_right(starts, start) - 1]:
        return None  # named in an earlier sentence
    if _GAP.fullmatch(folded, last.end, start) is None:
        return None
    return last.symbol

"""Context passes: what binds each claim of a draft, in an explicit order.

The grammar modules find the claims; the passes here bind them, one concern each, in `PASSES`
order: a pass may read what an earlier one bound (fields read before times, because a previous
close never takes the date before it; tickers before moves and quotes, which need a subject).
A new wording is a lexicon entry; a new kind of binding is one pass here, with a test.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from operator import attrgetter

from verifier.claim import Claim
from verifier.grammar.dates import attach_weekdays
from verifier.grammar.directions import attach_directions
from verifier.grammar.events import attach_event_kinds
from verifier.grammar.field_words import attach_fields, named_for_the_day
from verifier.grammar.figures import attach_bounds, attach_hedges, attach_names
from verifier.grammar.moves import find_moves
from verifier.grammar.quotes import attach_quote_subjects, attach_quote_times
from verifier.grammar.relative import Anchor, find_relative_days
from verifier.grammar.tickers import attach_scopes
from verifier.literals import decimal_mark, read_with_mark
from verifier.periods import attach_periods, sentence_starts
from verifier.scanner import fold_aligned
from verifier.times import ClaimTime, attach_times

_START = attrgetter("start")
_WEEKDAY_HINT = re.compile(
    "mon|tue|wed|thu|fri|sat|sun|lunes|martes|mi[eé]rcoles|jueves|viernes|s[aá]bado|domingo"
)


@dataclass(slots=True)
class Draft:
    """A draft's text and its claims while the passes bind them."""

    text: str
    claims: list[Claim]
    tickers: list[Claim]
    figures: list[Claim]
    anchor: Anchor | None = None
    """The report date relative days are counted from; without it they stay unread."""
    portfolios: Sequence[tuple[str, str]] = ()
    """Each portfolio's name and id ("Dividend Income", "P002")."""
    _starts: list[int] | None = field(default=None, init=False)
    _folded: str | None = field(default=None, init=False)

    @property
    def starts(self) -> list[int]:
        """Where each sentence starts."""
        if self._starts is None:
            self._starts = sentence_starts(self.text)
        return self._starts

    @property
    def folded(self) -> str:
        """The case fold, position for position."""
        if self._folded is None:
            self._folded = fold_aligned(self.text)
        return self._folded


def bind_names(d: Draft) -> None:
    """A whole number after an upper-case word is part of a name ("MAX 10")."""
    attach_names(d.text, d.figures)


def named_as_ids(text: str, portfolios: Sequence[tuple[str, str]]) -> str:
    """The text with each portfolio's name written as its id in the name's place, next to
    the word it leans on: before a possessive right-aligned ("Dividend Income's loss" ->
    "           P002's loss"), else left-aligned ("in Balanced Allocation, fell" -> "in P003
    ..."). Positions stay, and the subject rules that read "P002" read the name."""
    for name, pid in portfolios:
        if len(name) < len(pid):
            continue
        lowered, key = text.casefold(), name.casefold()
        at = lowered.find(key)
        while at >= 0:
            end = at + len(name)
            possessive = text.startswith(("'s", "’s"), end)
            written = pid.rjust(len(name)) if possessive else pid.ljust(len(name))
            text = text[:at] + written + text[end:]
            at = lowered.find(key, end)
    return text


_DIGITS = re.compile(r"\d[\d,.]*\d|\d")


def bind_separators(d: Draft) -> None:
    """A digit string that reads two ways ("781,000", "93.000") takes the decimal mark the
    draft's other figures show beyond doubt ("1,387.26" or "3,99"): a draft writes its numbers
    one way. Where they show both marks or none, both readings stand."""
    marks = {decimal_mark(m.group()) for f in d.figures for m in _DIGITS.finditer(f.text)}
    marks.discard("")
    if len(marks) != 1:
        return
    mark = marks.pop()
    for f in d.figures:
        if len(f.readings) == 2:
            digits = _DIGITS.search(f.text)
            if digits is not None:
                f.readings = (read_with_mark(digits.group(), mark),)


def bind_bounds(d: Draft) -> None:
    """A figure after "over", "fewer than", "más de" is a bound."""
    attach_bounds(d.text, d.figures)


def bind_hedges(d: Draft) -> None:
    """A round figure after "roughly", "close to", "cerca del" is said to its tens."""
    attach_hedges(d.text, d.figures)


def bind_fields(d: Draft) -> None:
    """The field named right before a figure ("closed at", "previous close of")."""
    attach_fields(d.text, d.figures)


def bind_directions(d: Draft) -> None:
    """The direction word governing a figure ("rose 2.1%", "closed 1.31% lower")."""
    attach_directions(d.text, d.folded, d.figures)


def bind_subjects(d: Draft) -> None:
    """The tickers each figure speaks of: those named before it in its sentence (or the
    portfolio or benchmark a sentence says it of, in a draft that names no ticker too)."""
    if d.tickers or d.figures:
        attach_scopes(named_as_ids(d.text, d.portfolios), d.figures, d.tickers, d.starts)


def bind_periods(d: Draft) -> None:
    """The quarter or year each figure is stated for."""
    attach_periods(d.text, d.claims, d.starts)


def bind_weekdays(d: Draft) -> None:
    """The weekday written with a date."""
    attach_weekdays(d.text, d.claims)


def bind_relative_days(d: Draft) -> None:
    """ "Today", "yesterday", a weekday alone: date claims counted from the report date."""
    if d.anchor is not None or _WEEKDAY_HINT.search(d.folded):
        found = find_relative_days(d.folded, d.text, d.claims, d.anchor)
        if found:
            d.claims += found
            d.claims.sort(key=_START)


def bind_moves(d: Draft) -> None:
    """Direction words said of a ticker with no figure of their own become move claims."""
    if not d.tickers:
        return

    def make(start: int, end: int, direction: int, subject: str, daily: bool) -> Claim:
        word = d.text[start:end]
        claim = Claim(word, start, end, "move", direction=direction, direction_word=word)
        claim.scope = frozenset({subject})
        claim.time = ClaimTime("day") if daily else None
        return claim

    moves = find_moves(d.folded, d.tickers, d.figures, d.starts, make)
    if moves:
        d.claims += [m for m in moves if isinstance(m, Claim)]
        d.claims.sort(key=_START)


def bind_times(d: Draft) -> None:
    """The session or window each figure and move is stated for; a number inside a window
    phrase ("the last 30 days") is part of the time, not a claim."""
    inside = attach_times(d.text, d.folded, d.claims, d.starts)
    if d.figures:
        for figure in named_for_the_day(d.text, d.figures):
            if figure.time is None:
                figure.time = ClaimTime("day")  # "a day change of +0.08": one session's change
    if inside:
        d.claims[:] = [
            c for c in d.claims if not any(s <= c.start and c.end <= e for s, e in inside)
        ]


def bind_quotes(d: Draft) -> None:
    """The session and time each quote is said to have come at, and its tickers."""
    if any(c.kind == "headline" for c in d.claims):
        attach_quote_times(d.text, d.claims)
        if d.tickers:
            attach_quote_subjects(d.text, d.claims, d.tickers)


def bind_events(d: Draft) -> None:
    """The corporate event a date is named as the day of, and whose."""
    attach_event_kinds(d.text, d.claims, d.starts, d.tickers)


FIGURE_PASSES: tuple[Callable[[Draft], None], ...] = (
    bind_separators,
    bind_names,
    bind_bounds,
    bind_hedges,
    bind_fields,
    bind_directions,
    bind_subjects,
)
"""Passes over figures only: skipped for a draft without any."""
PASSES: tuple[Callable[[Draft], None], ...] = (
    bind_periods,
    bind_weekdays,
    bind_relative_days,
    bind_moves,
    bind_times,
    bind_quotes,
    bind_events,
)


def bind_claims(d: Draft) -> list[Claim]:
    """Run every pass in order; the claims, bound, in order of position."""
    if d.figures:
        for bind in FIGURE_PASSES:
            bind(d)
    for bind in PASSES:
        bind(d)
    return d.claims

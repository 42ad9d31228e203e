"""Extraction: the checkable statements (claims) of a draft or of a result string, each with
its character span.

A claim (`verifier.claim`) is a figure (number, money, percentage, basis points), a date, a
ticker symbol, a quoted headline or a move (a direction word said of a ticker). Each kind has its
grammar module under `verifier.grammar`; `verifier.context` binds them to their subject, time and
field in an explicit order of passes. Extraction is plain text work, in English and Spanish;
whether a claim holds is decided elsewhere, against the trace.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from operator import attrgetter

from verifier.claim import Claim
from verifier.context import Draft, bind_claims
from verifier.grammar.dates import find_dates
from verifier.grammar.figures import attach_bounds, find_figures
from verifier.grammar.quotes import find_quotes
from verifier.grammar.relative import Anchor
from verifier.grammar.tickers import find_tickers
from verifier.periods import attach_periods
from verifier.scanner import mask

_START = attrgetter("start")


def _quotes_and_dates(
    text: str, claims: list[Claim], known_days: frozenset[tuple[int, int]] = frozenset()
) -> str:
    """Find the quotes, then the dates outside them; the text with both blanked. A date is
    never read across a quote ("0«0 0 0»de MARZO" is no "0 de marzo")."""
    quotes = find_quotes(text, claims)
    masked = mask(text, quotes)
    first = len(claims)
    spans = find_dates(masked, claims, known_days)
    if quotes and spans:
        kept = [c for c in claims[first:] if not any(c.start < b and a < c.end for a, b in quotes)]
        if len(kept) != len(claims) - first:
            claims[first:] = kept
            spans = [(c.start, c.end) for c in kept]
    return mask(masked, spans)


def extract_claims(
    text: str,
    known_tickers: Iterable[str] = (),
    anchor: Anchor | None = None,
    portfolios: Sequence[tuple[str, str]] = (),
    known_days: frozenset[tuple[int, int]] = frozenset(),
) -> list[Claim]:
    """All claims of `text` in order of position, bound by the context passes; relative days
    ("yesterday") are read only with the report date's `anchor`; a portfolio's name
    (`portfolios`: name and id) is a subject like its id; `known_days` (month, day) are the
    days the trace names, which a bare `12/31` may be read as."""
    claims: list[Claim] = []
    masked = _quotes_and_dates(text, claims, known_days)
    tickers = find_tickers(masked, frozenset(known_tickers), claims)
    figures = find_figures(mask(masked, [(t.start, t.end) for t in tickers]), claims)
    claims.sort(key=_START)
    return bind_claims(Draft(text, claims, tickers, figures, anchor, portfolios))


def extract_facts(text: str) -> list[Claim]:
    """The claims of a source text (a tool result), without the draft-only direction and scope."""
    claims: list[Claim] = []
    masked = _quotes_and_dates(text, claims)
    tickers = find_tickers(masked, frozenset(), claims)
    figures = find_figures(mask(masked, [(t.start, t.end) for t in tickers]), claims)
    if figures:
        attach_bounds(text, figures)
    attach_periods(text, claims)
    return claims

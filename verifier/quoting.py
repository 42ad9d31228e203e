"""Quoting: whether a source string is the one a draft quotes, whole or with marked cuts.

A post's wrapping is not part of what it says: links, a retweet's "RT @user:", and the
cashtags and handles that open it and those and the hashtags that close it may be left out of a
quote (a `#` or `$` inside it may be dropped too); anything else left out must be marked with
an ellipsis."""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache

from verifier.grammar.quotes import normalise_headline


@lru_cache(maxsize=8192)
def normalised(text: str) -> str:
    return normalise_headline(text)


_LINK = re.compile(r"https?://\S+|www\.\S+|\bt\.co/\S+")
_RETWEET = re.compile(r"^rt\s+@\w+:?\s*")
_WRAPPING = re.compile(
    r"^(?:\s*(?:[$@][^\W\d][\w.\-]*|[-–—|:•]))+\s*"
    r"|(?:\s*(?:[$#@][^\W\d][\w.\-]*|[-–—|:•]|via))+\s*$"
)
"""Cashtags and handles that open a post; cashtags, handles and hashtags that close it."""
_SIGIL = re.compile(r"(?<!\S)[#$](?=[^\W\d])")


@lru_cache(maxsize=8192)
def core(text: str) -> str:
    """What a post says, without its wrapping (see the module docstring), normalised."""
    text = normalised(text)
    if not any(mark in text for mark in "#$@:/"):
        return text
    text = _RETWEET.sub("", _LINK.sub(" ", text))
    text = _SIGIL.sub("", _WRAPPING.sub("", text))
    return " ".join(text.split()).strip(" .,;:!?")


_ELLIPSIS = re.compile(r"\s*(?:\.\.\.|…|\[\s*(?:\.\.\.|…)\s*\]|\(\s*(?:\.\.\.|…)\s*\))\s*")
"""A marked cut in a quote: "...", "…", "[...]", "(…)"."""


def quoted_by(quote: str, whole: bool = True) -> Callable[[str], bool]:
    """Whether a string is the one a draft quotes: the quote is all of it (case, quote marks,
    spacing and end punctuation aside), or its pieces between marked cuts ("Acme beats Q3…",
    "…beats Q3 estimates", "Acme … estimates") come in it in order, each cut at a word's end.
    With `whole` False (the question, not a source), any piece of the string will do."""
    pieces = [normalise_headline(p) for p in _ELLIPSIS.split(quote.strip())]
    if len(pieces) == 1:
        text, said = pieces[0], core(pieces[0])
        if not whole:
            return lambda headline: bool(text) and text in normalised(headline)
        return lambda headline: (
            bool(text) and (text == normalised(headline) or said == core(headline))
        )
    if sum(len(p.split()) for p in pieces) < 3:
        return lambda headline: False  # too little to name a headline
    cores = [core(p) if p else p for p in pieces]
    return lambda headline: (
        _pieces_in(normalised(headline), pieces, whole) or _pieces_in(core(headline), cores, whole)
    )


def _pieces_in(headline: str, pieces: list[str], whole: bool) -> bool:
    """The pieces of a quote cut with ellipses come in the headline in order; an empty first
    or last piece is a cut at the start or end, otherwise the headline starts or ends there."""
    at = 0
    last = len(pieces) - 1
    for i, piece in enumerate(pieces):
        if not piece:
            continue
        found = headline.find(piece, at)
        while found >= 0 and not _word_cut(headline, found, found + len(piece)):
            found = headline.find(piece, found + 1)
        if found < 0 or (whole and i == 0 and found != 0):
            return False
        at = found + len(piece)
        if whole and i == last and at != len(headline):
            return False
    return True


def _word_cut(headline: str, start: int, end: int) -> bool:
    """A piece starts and ends at word boundaries: "EPS of $0.3…" is not in "EPS of $0.38"."""
    before = start == 0 or not headline[start - 1].isalnum()
    return before and (end == len(headline) or not headline[end].isalnum())

"""Words of each language the grammar reads, as data: one module per language.

A grammar module never spells a word itself; it builds its patterns from the entries here, so a new
wording is a new entry (with a test), not a new branch. Entries are regex fragments matched in the
case-folded text; `LANGUAGES` lists every lexicon the verifier reads a draft with.
"""

from __future__ import annotations

from verifier.lexicon import en, es
from verifier.lexicon.model import Lexicon

LANGUAGES: tuple[Lexicon, ...] = (en.LEXICON, es.LEXICON)


def alternatives(pick: str) -> str:
    """The fragments of one entry across every language, as one regex alternation (the longest
    fragments first, so that a phrase wins over a word it starts with)."""
    fragments = [f for lexicon in LANGUAGES for f in getattr(lexicon, pick)]
    return "|".join(f"(?:{f})" for f in sorted(fragments, key=len, reverse=True))


def alternatives_of(pick: str, name: str) -> str:
    """The fragments of one group of a mapping entry across languages, as one alternation."""
    fragments = grouped(pick).get(name, [])
    return "|".join(f"(?:{f})" for f in sorted(fragments, key=len, reverse=True))


def grouped(pick: str) -> dict[str, list[str]]:
    """A mapping entry (name -> fragments) across languages, merged by name."""
    names: dict[str, list[str]] = {}
    for lexicon in LANGUAGES:
        for name, fragments in getattr(lexicon, pick).items():
            names.setdefault(name, []).extend(fragments)
    return names


def fragments(pick: str) -> list[str]:
    """The fragments of one entry across every language."""
    return [f for lexicon in LANGUAGES for f in getattr(lexicon, pick)]


__all__ = ["LANGUAGES", "Lexicon", "alternatives", "alternatives_of", "fragments", "grouped"]

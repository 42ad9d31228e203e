"""The scanner: where the verifier's speed tricks live.

Python's regex engine skips ahead in C only to the first character of a pattern that opens with
a character; a pattern that opens with an assertion (`(?<!\\w)`) or an optional group is entered at
every position of the text. A lexicon phrase is therefore tried only where one of its stems (the
literal words it can open with) starts, found by `str.find`; the word boundary before it is checked
there. `PhraseScan` does that for any alternation of lexicon fragments, and falls back to a plain
scan where a fragment has no literal opening.
"""

from __future__ import annotations

import re

_META = frozenset("\\[](){}?*+|^$.")


def literal_prefix(fragment: str) -> str:
    """The literal text a regex fragment must open with ("" where it opens with a class, a
    group or an optional character)."""
    out: list[str] = []
    for ch in fragment:
        if ch in _META:
            if ch in "?*{" and out:
                out.pop()  # the character before was optional
            break
        out.append(ch)
    return "".join(out)


def stems_of(fragment: str) -> list[str] | None:
    """The literal openings of a fragment, one per leading alternative (`(?:past|last)\\s+week`
    opens with "past" or "last"); None where some opening is not literal."""
    if fragment.startswith("(?:"):
        depth, i = 1, 3
        while i < len(fragment) and depth:
            depth += {"(": 1, ")": -1}.get(fragment[i], 0)
            i += 1
        if i < len(fragment) and fragment[i] in "?*{":
            return None
        inner = fragment[3 : i - 1]
        if "(" in inner:
            return None
        stems = [literal_prefix(alt) for alt in inner.split("|")]
        return stems if all(stems) else None
    stem = literal_prefix(fragment)
    return [stem] if stem else None


class PhraseScan:
    """Non-overlapping matches of lexicon fragments at word starts, in order, as `finditer` of
    `(?<!\\w)(?:...)(?!\\w)` finds them, tried only where a stem starts. With `groups`, each
    group of fragments is a named group (the match's `lastgroup`)."""

    __slots__ = ("hint", "pattern", "stems")

    def __init__(self, groups: dict[str, list[str]]) -> None:
        alternation = "|".join(
            f"(?P<{name}>{'|'.join(_longest_first(parts))})" for name, parts in groups.items()
        )
        self.pattern = re.compile(rf"(?:{alternation})(?!\w)")
        stems: list[str] = []
        for parts in groups.values():
            for fragment in parts:
                found = stems_of(fragment)
                if found is None:
                    self.stems: tuple[str, ...] | None = None
                    self.hint = self.pattern
                    return
                stems += found
        self.stems = tuple(dict.fromkeys(stems))
        ordered = sorted(self.stems, key=len, reverse=True)
        self.hint = re.compile("|".join(re.escape(stem) for stem in ordered))
        """Any stem: a pattern of literals opens with a class of first characters, which the
        engine skips ahead to in C."""

    def finditer(self, folded: str) -> list[re.Match[str]]:
        if self.stems is None:
            return [m for m in self.pattern.finditer(folded) if _word_start(folded, m.start())]
        found: list[re.Match[str]] = []
        last = -1
        match = self.pattern.match
        for hit in self.hint.finditer(folded):
            start = hit.start()
            if start >= last and _word_start(folded, start) and (m := match(folded, start)):
                found.append(m)
                last = m.end()
        return found


def _longest_first(parts: list[str]) -> list[str]:
    return [f"(?:{p})" for p in sorted(parts, key=len, reverse=True)]


def _word_start(text: str, i: int) -> bool:
    """Not inside a word or a number ("$0.12m" holds no "12m")."""
    return i == 0 or not (text[i - 1].isalnum() or text[i - 1] in "_.,$€£-")

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
from collections.abc import Iterable, Iterator
from typing import ClassVar, Literal, NamedTuple

_META = frozenset("\\[](){}?*+|^$.")


def literal_prefix(fragment: str) -> str:
    """The literal text a regex fragment must open with ("" where it opens with a class, a
    group or an optional character); a required space (`\\s+`) counts as one space, so that a
    short word is only a stem with the space after it ("a gain" opens with "a "); an escaped
    mark (`\\(`) is that mark."""
    out: list[str] = []
    i = 0
    while i < len(fragment):
        ch = fragment[i]
        if fragment.startswith("\\s+", i) and out:
            out.append(" ")
            break
        if ch == "\\" and i + 1 < len(fragment) and fragment[i + 1] in _META:
            ch, i = fragment[i + 1], i + 1  # an escaped mark stands for itself
        elif ch in _META:
            if ch in "?*{" and out:
                out.pop()  # the character before was optional
            break
        out.append(ch)
        i += 1
    return "".join(out)


def stems_of(fragment: str) -> list[str] | None:
    """The literal openings of a fragment, one per leading alternative (`(?:past|last)\\s+week`
    opens with "past" or "last"; `(?:the\\s+)?week` with "the " or "week"); None where some
    opening is not literal. A lookbehind it opens with (`(?<=\\d\\s)more`) matches no character:
    the openings are those of what follows it."""
    if fragment.startswith(("(?<=", "(?<!")):
        depth, i = 1, 4
        while i < len(fragment) and depth:
            if fragment[i] == "\\":
                i += 2
                continue
            depth += {"(": 1, ")": -1}.get(fragment[i], 0)
            i += 1
        return stems_of(fragment[i:]) if fragment[i:] else None
    if fragment.startswith("(?:"):
        depth, i = 1, 3
        while i < len(fragment) and depth:
            depth += {"(": 1, ")": -1}.get(fragment[i], 0)
            i += 1
        if i < len(fragment) and fragment[i] == "?" and fragment[i + 1 : i + 2] not in ("?", "+"):
            optional = stems_of(fragment[:i])  # the group itself, then what may stand for it
            rest = stems_of(fragment[i + 1 :])
            return None if optional is None or rest is None else optional + rest
        if i < len(fragment) and fragment[i] in "?*{":
            return None
        inner = fragment[3 : i - 1]
        if "(" in inner:  # an alternative holds a group: its own openings, or a digit's
            found: list[str] = []
            for alt in _alternatives(inner):
                opening = _opening(alt)
                if opening is None:
                    return None
                found += opening
            return found
        stems = [literal_prefix(alt) for alt in inner.split("|")]
        return stems if all(stems) else None
    return _opening(fragment)


DIGIT = "\\d"
"""The opening of an alternative that starts with a required digit (`\\d{1,2}(?:st|nd|rd|th)`):
any character `str.isdecimal` holds (what `\\d` matches in a text)."""


def _opening(alt: str) -> list[str] | None:
    """The openings of one alternative of a leading group (`stems_of`)."""
    if alt.startswith("(?:"):
        return stems_of(alt)
    if alt.startswith(DIGIT):
        after = alt[len(DIGIT) :]
        optional = after[:1] in ("?", "*") or after.startswith(("{0", "{,"))
        return None if optional else [DIGIT]
    stem = literal_prefix(alt)
    return [stem] if stem else None


def _alternatives(inner: str) -> list[str]:
    """The top-level alternatives of a group's body (bars inside groups or classes, or escaped,
    do not split it)."""
    parts, depth, start, i, in_class = [], 0, 0, 0, False
    while i < len(inner):
        ch = inner[i]
        if ch == "\\":
            i += 2
            continue
        if in_class:
            in_class = ch != "]"
        elif ch == "[":
            in_class = True
        elif ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        elif ch == "|" and depth == 0:
            parts.append(inner[start:i])
            start = i + 1
        i += 1
    parts.append(inner[start:])
    return parts


class PhraseScan:
    """Non-overlapping matches of lexicon fragments at word starts, in order, as `finditer` of
    `(?<!\\w)(?:...)(?!\\w)` (`reference`) finds them. Where every fragment opens with a literal
    stem, the pattern is tried only where a stem follows a character that ends a word (the hint
    opens with that character, so the engine skips ahead to it in C), and there only with the
    fragments whose stems open with the character found: an alternation of a hundred phrases is
    not tried at every position. With `groups`, each group of fragments is a named group
    (`lastgroup`)."""

    __slots__ = ("_reference", "by_first", "digits", "hint", "source", "sources")

    made: ClassVar[list[PhraseScan]] = []
    """Every scan built (the lexicon's are module constants), for `compile_all`."""

    def __init__(self, groups: dict[str, list[str]]) -> None:
        PhraseScan.made.append(self)
        self.source = rf"(?<!{_IN_WORD})(?:{_alternation(groups)})(?!\w)"
        self._reference: re.Pattern[str] | None = None
        self.hint: re.Pattern[str] | None = None
        self.by_first: dict[str, re.Pattern[str]] = {}
        """The pattern of each first character, compiled when a text first holds it (most
        scans meet few of theirs; compiling them all cost a night's first draft ~0.1 s)."""
        self.sources: dict[str, str] = {}
        self.digits: list[tuple[str, str, frozenset[str], bool]] = []
        """Where some fragment opens with a digit: every fragment, in order, with the first
        characters of its stems and whether it may open with a digit, for the pattern of a
        digit (those fragments and the ones a stem opens with that digit)."""
        entries: list[tuple[str, str, frozenset[str], bool]] = []
        stems: set[str] = set()
        for name, parts in groups.items():
            for fragment in sorted(parts, key=len, reverse=True):
                found = stems_of(fragment)
                if found is None:
                    return  # no literal opening: `finditer` runs the reference pattern
                literal = {stem for stem in found if stem != DIGIT}
                stems.update(literal)
                firsts = frozenset(stem[0] for stem in literal)
                entries.append((name, fragment, firsts, DIGIT in found))
        buckets: dict[str, dict[str, list[str]]] = {}
        for name, fragment, firsts, _ in entries:
            for first in firsts:
                buckets.setdefault(first, {}).setdefault(name, []).append(f"(?:{fragment})")
        digit = any(opens for *_, opens in entries)
        openings = [trie(stems)] if stems else []
        self.hint = re.compile(f"{_BEFORE_WORD}(?={'|'.join(openings + [DIGIT] * digit)})")
        self.sources = {
            first: rf"(?:{_alternation(bucket, ordered=True)})(?!\w)"
            for first, bucket in buckets.items()
        }
        if digit:
            self.digits = entries
            for first in "0123456789":  # the others are built when a text first holds them
                self.sources[first] = self.digit_source(first)

    def digit_source(self, first: str) -> str:
        """The pattern of a decimal digit: the fragments that may open with any digit and those
        a stem opens with this one, in the order of the reference pattern."""
        bucket: dict[str, list[str]] = {}
        for name, fragment, firsts, opens in self.digits:
            if opens or first in firsts:
                bucket.setdefault(name, []).append(f"(?:{fragment})")
        return rf"(?:{_alternation(bucket, ordered=True)})(?!\w)"

    @property
    def reference(self) -> re.Pattern[str]:
        """`(?<!\\w)(?:...)(?!\\w)` over every fragment: what the scan finds, done plainly."""
        if self._reference is None:
            self._reference = re.compile(self.source)
        return self._reference

    def finditer(self, folded: str) -> list[re.Match[str]]:
        if self.hint is None:
            return list(self.reference.finditer(folded))
        found: list[re.Match[str]] = []
        by_first, sources = self.by_first, self.sources
        last = -1
        starts = [hit.end() for hit in self.hint.finditer(folded)]
        if folded and (folded[0] in sources or (self.digits and folded[0].isdecimal())):
            starts.insert(0, 0)
        for start in starts:
            if start < last:
                continue
            first = folded[start]
            pattern = by_first.get(first)
            if pattern is None:
                source = sources.get(first) or self.digit_source(first)
                pattern = by_first[first] = re.compile(source)
            if (m := pattern.match(folded, start)) is not None:
                found.append(m)
                last = m.end()
        return found


def compile_all() -> None:
    """Compile every scan's patterns now: a night does it while it prepares, so that its first
    drafts do not pay for them (about a quarter of a second, most of it the few scans that fall
    back to one large pattern)."""
    for scan in list(PhraseScan.made):
        if scan.hint is None:
            scan.reference  # noqa: B018 -- the property compiles and keeps it
        for first, source in scan.sources.items():
            if first not in scan.by_first:
                scan.by_first[first] = re.compile(source)


def _alternation(groups: dict[str, list[str]], ordered: bool = False) -> str:
    return "|".join(
        f"(?P<{name}>{'|'.join(parts if ordered else _longest_first(parts))})"
        for name, parts in groups.items()
    )


_BREAKS = " \\t\\n\\r\\f\\v\u00a0()\\[\\]{}*_\"'“”«»‘’/|:;!?¿¡+~>#—–"
_BEFORE_WORD = f"[{_BREAKS}]"
"""A character after which a phrase may start: a space, a bracket, markup, a quote mark, a
stop other than a full stop or comma (those also sit inside numbers: "$0.12m"). A small set
of characters, which the engine skips ahead to in C."""
_IN_WORD = f"[^{_BREAKS}]"
"""Any other character: no phrase starts right after one."""
"""A character after which a word starts."""


def trie(words: set[str]) -> str:
    """A regex for any of the words, factored by their first characters (`r(?:ose|is(?:e|en))`),
    so that the engine tries one branch per first character, not one per word."""
    if "" in words and len(words) == 1:
        return ""
    heads: dict[str, set[str]] = {}
    for word in words:
        if word:
            heads.setdefault(word[0], set()).add(word[1:])
    branches = [re.escape(head) + trie(tails) for head, tails in sorted(heads.items())]
    body = branches[0] if len(branches) == 1 else f"(?:{'|'.join(branches)})"
    return f"(?:{body})?" if "" in words else body


def _longest_first(parts: list[str]) -> list[str]:
    return [f"(?:{p})" for p in sorted(parts, key=len, reverse=True)]


# Scans. Python's engine skips ahead in C only to the first character of a pattern that opens
# with a character (or a class); a pattern that opens with an assertion (`\b`, a lookbehind) is
# entered at every position, and each match handed to Python costs as much as scanning a hundred
# characters. So a pattern runs in a form that opens with its first character and checks what may
# precede it right after (`X(?<!\w.)` for `(?<!\w)X`); or it is tried only at a few candidate
# starts: where a month name starts, or where a one-character hint (the rest as a lookahead) hits,
# for the case-insensitive ones. Tests hold every scan equal to `finditer` of the pattern.


class Scan(NamedTuple):
    """How a pattern is run: `pattern.finditer`, or `pattern.match` at each candidate start.

    Candidates are the hits of `hint` (in the case-folded text if `fold`), or, with `at`, the
    positions where a month name starts ("month"), the day written before one can ("day"), or an
    ISO date can, four characters before a dash ("dash").
    `needs`: words one of which the text (folded unless `cased`) must hold for any match.
    """

    pattern: re.Pattern[str]
    hint: re.Pattern[str] | None
    fold: bool
    needs: tuple[str, ...]
    cased: bool = False
    at: Literal["", "month", "day", "dash"] = ""
    gate: re.Pattern[str] | None = None
    """Something else the text must hold, cheaper to look for than `needs`."""


def word_starts(words: str, before: str = r"\w", then: str = "") -> re.Pattern[str]:
    """A one-character hint for `words` (regexes opening with a plain letter, separated by spaces)
    at a word start: not after `before`, and followed by `then`."""
    tails: dict[str, list[str]] = {}
    for word in words.split():
        tails.setdefault(word[0], []).append(word[1:])
    return re.compile(
        "|".join(
            f"{first}(?<!{before}.)(?=(?:{'|'.join(rest)}){then})" for first, rest in tails.items()
        )
    )


_MONTH_START = re.compile(
    "J(?=an|un|ul)|F(?=eb)|M(?=ar|ay)|A(?=pr|ug)|S(?=ep)|O(?=ct)|N(?=ov)|D(?=ec)"
)
"""Where an English month name (as `_MON` reads it) can start."""
_ISO_DASH = re.compile(r"-(?=\d\d-\d\d)")
_DAY_SUFFIXES = frozenset({"st", "nd", "rd", "th"})


def scan(
    how: Scan, text: str, folded: str | None, months: list[int] | None = None
) -> Iterable[re.Match[str]]:
    """The matches of the pattern `how` stands for, in order, as `finditer` finds them.

    `folded` is the case fold of `text` (None where folding changed the length: a hinted pattern
    then runs plainly); `months` the month starts (`month_starts`), for the month-anchored scans.
    """
    if how.at == "dash":
        return _matches_at(how.pattern, text, [h.start() - 4 for h in _ISO_DASH.finditer(text, 4)])
    if how.at:
        if months is None:
            months = month_starts(text)
        starts = months if how.at == "month" else _day_starts(text, months)
        return _matches_at(how.pattern, text, starts)
    if how.hint is None or folded is None:
        return how.pattern.finditer(text)
    return _matches_at_hits(how.pattern, text, how.hint.finditer(folded if how.fold else text))


def month_starts(text: str) -> list[int]:
    """Where an English month name can start; every English date pattern holds one."""
    return [m.start() for m in _MONTH_START.finditer(text)]


def _matches_at(
    pattern: re.Pattern[str], text: str, starts: Iterable[int]
) -> Iterator[re.Match[str]]:
    """`pattern.finditer(text)`, given (in order) every position where a match can start."""
    end = -1
    match = pattern.match
    for start in starts:
        if start >= end and (m := match(text, start)) is not None:
            end = m.end()
            yield m


def _matches_at_hits(
    pattern: re.Pattern[str], text: str, hits: Iterable[re.Match[str]]
) -> Iterator[re.Match[str]]:
    """`_matches_at`, given the hint's matches (the start of each is a candidate)."""
    end = -1
    match = pattern.match
    for hit in hits:
        start = hit.start()
        if start >= end and (m := match(text, start)) is not None:
            end = m.end()
            yield m


def _day_starts(text: str, months: list[int]) -> list[int]:
    """Where a day written before a month name can start (`5 March`, `5th of March`)."""
    starts: set[int] = set()
    for month in months:
        i = month
        while i and text[i - 1].isspace():
            i -= 1
        if i == month:
            continue
        ends = [i]
        if i > 2 and text[i - 2 : i] == "of" and text[i - 3].isspace():
            i -= 2
            while i and text[i - 1].isspace():
                i -= 1
            ends.append(i)
        for end in ends:
            for day_end in (end, end - 2) if text[end - 2 : end] in _DAY_SUFFIXES else (end,):
                for start in (day_end - 1, day_end - 2):
                    if start >= 0 and text[start:day_end].isdecimal():
                        starts.add(start)
    return sorted(starts)


def holds(how: Scan, text: str, folded: str | None) -> bool:
    """Whether the text holds one of the words the pattern needs (always, if the fold failed)."""
    if how.gate is not None and how.gate.search(text) is None:
        return False
    if not how.needs:
        return True
    if how.cased:
        return any(map(text.__contains__, how.needs))
    return folded is None or any(map(folded.__contains__, how.needs))


def fold(text: str) -> str | None:
    folded = text.casefold()
    return folded if len(folded) == len(text) else None


def mask(text: str, spans: Iterable[tuple[int, int]]) -> str:
    parts, last = [], 0
    for start, end in spans:
        parts.append(text[last:start])
        parts.append(" " * (end - start))
        last = end
    if not parts:
        return text
    parts.append(text[last:])
    return "".join(parts)


_DOTTED_I = str.maketrans({"ı": "i", "İ": "i"})


def word_hint(fragments: Iterable[str]) -> re.Pattern[str] | None:
    """Where one of the fragments can open a word of a case-folded text: the literal words they
    open with, each cut at its first space (a required space may be any whitespace in a text),
    as one trie after a word boundary; None where some fragment has no literal opening."""
    words: set[str] = set()
    for fragment in fragments:
        stems = stems_of(fragment)
        if stems is None or DIGIT in stems:
            return None
        words.update(stem.split(" ", 1)[0] for stem in stems)
    return re.compile(rf"(?<!\w){trie(words)}") if all(words) else None


def matches_at_word_hints(
    pattern: re.Pattern[str], text: str, folded: str, hint: re.Pattern[str]
) -> Iterator[re.Match[str]]:
    """`pattern.finditer(text)` for a pattern that opens with `(?<!\\w)` and one of the
    fragments `hint` stands for (`word_hint`), tried only where the hint finds one in the case
    fold `folded` (aligned to the text): one pass of a trie, where the pattern's lookbehind
    would have the engine enter its whole alternation at every position. The dotted and dotless
    capital and small i, which `(?i)` takes for "i" and the case fold does not, are read as one."""
    if "ı" in folded or "İ" in folded:
        folded = folded.translate(_DOTTED_I)
    return _matches_at_hits(pattern, text, hint.finditer(folded))


def fold_aligned(text: str) -> str:
    """The case fold of `text` character for character (one whose fold is longer, "ß" -> "ss",
    stays as it is), so that a position in it is the same position in `text`."""
    folded = text.casefold()
    if len(folded) == len(text):
        return folded
    return "".join(f if len(f := c.casefold()) == 1 else c for c in text)

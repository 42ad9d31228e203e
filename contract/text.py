"""Text from data, a model or an analyst: as people are shown it, and as secrets and prompts are
looked for in it.

Shown (`display_text`, for every report, page, artifact and terminal line): every character of
Unicode's format category (Cf: the bidi embeddings, overrides, isolates and marks, zero-width
spaces and joiners, the word joiner, the byte order mark, the soft hyphen, tag characters) and
the other invisible ones (variation selectors, fillers) are removed, as is every control
character but the line break and the tab (C0, DEL and C1: a terminal escape sequence begins
with one). What a renderer would turn into a live link on its own (`scheme://`, `www.`, an
e-mail address) is written with brackets, as security reports write them: `https[:]//`,
`www[.]`, `name[@]host`. Each medium's markup (Markdown, HTML, the terminal's) is escaped by its
renderer on top; the JSON keeps the text as it came.

Matched (`fold_text`, for the redactor and the prompt-leak check alike): the same invisible
characters removed, then NFKC, so a key split by a zero-width space or written in full-width
letters is still the key.
"""

from __future__ import annotations

import re
import sys
import unicodedata
from functools import cache

KEPT_CONTROLS = frozenset("\n\t")
IGNORABLE_RANGES = (
    (0x034F, 0x034F),  # combining grapheme joiner
    (0x115F, 0x1160),  # Hangul fillers
    (0x17B4, 0x17B5),  # Khmer inherent vowels
    (0x180B, 0x180F),  # Mongolian variation selectors
    (0x3164, 0x3164),  # Hangul filler
    (0xFE00, 0xFE0F),  # variation selectors
    (0xFFA0, 0xFFA0),  # half-width Hangul filler
    (0xE0100, 0xE01EF),  # variation selectors supplement
)
"""Unicode's default-ignorable code points that are not format characters (Cf): they show as
nothing, and the category alone does not find them."""

LINK_SCHEME = re.compile(r":(?=//)")
"""Every `://`, whatever stands before it: GitHub's Markdown links `_https://x.example` too."""
LINK_WWW = re.compile(r"(?i)(www)\.")
"""Every `www.`, inside a word too (`_www.x.example` is a link to GitHub's Markdown)."""
LINK_MAIL = re.compile(r"(?<=[\w.+\-])@(?=[\w\-]+\.\w)")


FORMAT_AND_CONTROL = {
    "14.0.0": (
        (0x0000, 0x0008), (0x000B, 0x001F), (0x007F, 0x009F), (0x00AD, 0x00AD),
        (0x0600, 0x0605), (0x061C, 0x061C), (0x06DD, 0x06DD), (0x070F, 0x070F),
        (0x0890, 0x0891), (0x08E2, 0x08E2), (0x180E, 0x180E), (0x200B, 0x200F),
        (0x202A, 0x202E), (0x2060, 0x2064), (0x2066, 0x206F), (0xFEFF, 0xFEFF),
        (0xFFF9, 0xFFFB), (0x110BD, 0x110BD), (0x110CD, 0x110CD), (0x13430, 0x13438),
        (0x1BCA0, 0x1BCA3), (0x1D173, 0x1D17A), (0xE0001, 0xE0001), (0xE0020, 0xE007F),
    ),
}  # fmt: skip
"""Per Unicode version of `unicodedata`, the ranges of its format (Cf) and control (Cc) code
points but the line break and the tab: what `format_and_control` finds by asking every code
point, which costs about a second; another version is asked (tests/contract/test_text.py
holds the table to the answer)."""


def format_and_control() -> tuple[tuple[int, int], ...]:
    """The ranges of the Cf and Cc code points (line break and tab aside) of this Python's
    Unicode: from the table where it holds the version, else by asking every code point."""
    known = FORMAT_AND_CONTROL.get(unicodedata.unidata_version)
    return known if known is not None else as_ranges(asked_code_points())


def asked_code_points() -> list[int]:
    """Every Cf and Cc code point (line break and tab aside), asked of `unicodedata`."""
    return [
        cp
        for cp in range(sys.maxunicode + 1)
        if unicodedata.category(chr(cp)) in ("Cf", "Cc") and chr(cp) not in KEPT_CONTROLS
    ]


def as_ranges(points: list[int]) -> tuple[tuple[int, int], ...]:
    """Sorted code points as runs (first, last)."""
    ranges: list[tuple[int, int]] = []
    for cp in points:
        if ranges and ranges[-1][1] == cp - 1:
            ranges[-1] = (ranges[-1][0], cp)
        else:
            ranges.append((cp, cp))
    return tuple(ranges)


@cache
def _hidden() -> tuple[re.Pattern[str], re.Pattern[str]]:
    """Every code point `display_text` and `fold_text` remove, as a character class: one of
    the basic plane's alone (a bitmap to the regex engine, six times faster) and one of all."""
    hidden = {cp for low, high in format_and_control() for cp in range(low, high + 1)}
    hidden |= {cp for low, high in IGNORABLE_RANGES for cp in range(low, high + 1)}
    basic = "".join(re.escape(chr(cp)) for cp in sorted(hidden) if cp <= 0xFFFF)
    astral = as_ranges(sorted(cp for cp in hidden if cp > 0xFFFF))
    ranges = [f"{re.escape(chr(low))}-{re.escape(chr(high))}" for low, high in astral]
    return re.compile(f"[{basic}]+"), re.compile(f"[{basic}{''.join(ranges)}]+")


ASCII_HIDDEN = bytes(c for c in [*range(0x20), 0x7F] if chr(c) not in KEPT_CONTROLS)


def visible_chars(text: str) -> str:
    """`text` without its invisible characters and controls (line breaks and tabs kept)."""
    if text.isascii():  # most of what the night writes: bytes are ten times faster than a class
        raw = text.encode("ascii")
        kept = raw.translate(None, ASCII_HIDDEN)
        return text if len(kept) == len(raw) else kept.decode("ascii")
    basic, every = _hidden()
    beyond_basic = len(text.encode("utf-16-le", "surrogatepass")) != 2 * len(text)
    hidden = every if beyond_basic else basic
    return hidden.sub("", text) if hidden.search(text) else text


def display_text(text: str) -> str:
    """`text` as people may be shown it: nothing invisible, no control, nothing a renderer would
    make a link of."""
    text = visible_chars(text)
    if "//" in text:
        text = LINK_SCHEME.sub("[:]", text)
    if "@" in text:
        text = LINK_MAIL.sub("[@]", text)
    return LINK_WWW.sub(r"\1[.]", text) if "." in text else text


def whole_links(text: str, cuts: list[int]) -> list[int]:
    """`cuts` (sorted offsets `text` is to be shown in pieces at) without those that fall inside
    a `://`, a `www.` or an `@` (invisible characters between their letters included): each
    piece passes `display_text` alone, and a link cut in two would be made safe in neither."""
    inside = {
        offset
        for mark in _link_marks().finditer(text)
        for offset in range(mark.start() + 1, mark.end())
    }
    return [cut for cut in cuts if cut not in inside] if inside else cuts


@cache
def _link_marks() -> re.Pattern[str]:
    hidden = _hidden()[1].pattern[:-1] + "*"  # the class, any number of times
    return re.compile(f"(?i):{hidden}/{hidden}/|w{hidden}w{hidden}w{hidden}\\.|[\\w.+\\-]{hidden}@")


LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def whole_chars(text: str) -> str:
    """`text` with each lone surrogate (half of a UTF-16 pair: JSON may escape one, `\\ud800`,
    and no UTF-8 writer can write it) replaced by U+FFFD, as a decoder replaces a bad byte."""
    return LONE_SURROGATE.sub("\ufffd", text) if not text.isascii() else text


def escape_hidden(json_text: str) -> str:
    """Serialised JSON with every character `visible_chars` removes written as a `\\u` escape
    instead: the same values (such characters stand only inside strings), nothing a terminal
    acts on, what the JSON a command prints is made of."""
    if visible_chars(json_text) == json_text:
        return json_text
    return _hidden()[1].sub(lambda m: "".join(map(_escaped, m.group())), json_text)


def _escaped(char: str) -> str:
    units = char.encode("utf-16-be")
    return "".join(f"\\u{units[i]:02x}{units[i + 1]:02x}" for i in range(0, len(units), 2))


def fold_text(text: str) -> str:
    """`text` as secrets and prompts are matched in it: invisible characters removed, NFKC."""
    if text.isascii():
        return visible_chars(text)
    return unicodedata.normalize("NFKC", visible_chars(text))

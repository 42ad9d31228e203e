"""Labels: the words that name a value, not state one.

A table's header row and the first cell of each row ("| Measure | Rank |", "| Contribution |
7 / 19 |"), the key of a "key: value" line ("**Ficha**: ...", "- Sector: ..."), and a heading
line with no figure ("**ABXQ — resumen rápido**", "Key points:") say what the value beside or
under them is; the value is checked by its own rules. Their unbound words are free, except the
words a claim is made of (`verifier.limits.grammar_words`: a move, a relation, a cause, news,
what no tool returns), which stay `unverified_claim` unless a rule bound them: "**Upgraded to
Buy:** ..." still asserts the upgrade.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

_SEPARATOR = re.compile(r"[ \t]*\|?[ \t]*:?-{2,}:?[ \t]*(?:\|[ \t]*:?-{2,}:?[ \t]*)*\|?[ \t]*")
"""A markdown table's separator row (`|---|:--:|`)."""
_ROW = re.compile(r"[ \t]*\|(?P<cell>[^|\n]*)\|")
"""A table row's first cell."""
_KEY = re.compile(
    r"[ \t]*(?:[-*•·▪►]+[ \t]*|[^\w\s*#|]{1,3}[ \t]*)?(?:\*\*|__)?"
    r"(?P<key>[^\W\d_][^:\n|*()]{0,40}?)(?:\*\*|__)?[ \t]*[:：](?!\d)(?:\*\*|__)?[ \t]*\S"
)
"""A line that opens with a short key and a colon, a value after it ("- **Sector:** Energy");
a key with an aside in brackets says more than a name ("AAPL (Straße office): ..."), and the
colon of a clock time is none ("- Zebra Wire, Tue 1:07 p.m.: ..." names no label)."""


def column_header(text: str, at: int) -> str:
    """The header cell above position `at` when `at` is in a markdown table's cell ("| Week |
    +1.76% | Dec. 24 |" under "| Window | % change | Measured from |": "Measured from"; a
    table without outer bars alike), else ""."""
    lo = text.rfind("\n", 0, at) + 1
    end = text.find("\n", at)
    if "|" not in text[lo : len(text) if end < 0 else end]:
        return ""  # a row has its cells' bars, with or without the outer ones
    column = text.count("|", lo, at)
    line = lo
    while line > 0:
        above = text.rfind("\n", 0, line - 1) + 1
        row = text[above : line - 1]
        if _SEPARATOR.fullmatch(row):
            header = text[text.rfind("\n", 0, max(above - 1, 0)) + 1 if above else 0 : above - 1]
            cells = header.strip().split("|")
            return cells[column].strip() if column < len(cells) else ""
        if "|" not in row:
            return ""
        line = above
    return ""


_MAX_KEY_WORDS = 5
_MAX_HEADING_WORDS = 8


def label_regions(text: str) -> list[tuple[int, int]]:
    """Where the labels of `text` stand: header rows, first cells, keys and headings."""
    return list(_regions(text))


def _regions(text: str) -> Iterator[tuple[int, int]]:
    title = _TITLE.match(text)
    if title is not None and len(title.group().split()) <= _MAX_HEADING_WORDS:
        yield title.span()  # "Flash — PCDM. The stock edged down ...": a title, then the note
    lines = text.split("\n")
    at = 0
    for i, line in enumerate(lines):
        lo, hi = at, at + len(line)
        at = hi + 1
        if "|" in line and i + 1 < len(lines) and _SEPARATOR.fullmatch(lines[i + 1]):
            yield lo, hi  # the header row
            continue
        row = _ROW.match(line)
        if row is not None:
            yield lo + row.start("cell"), lo + row.end("cell")
            continue
        key = _KEY.match(line)
        if (
            key is not None
            and len(key.group("key").split()) <= _MAX_KEY_WORDS
            and not _INNER_STOP.search(key.group("key"))
        ):
            yield lo + key.start("key"), lo + key.end("key")
            continue
        if _heading(line):
            yield lo, hi


_HEADING = re.compile(
    r"[ \t]*(?:#{1,6}[ \t]+[^\n]+|(?:\*\*|__)[^\n]+(?:\*\*|__)[ \t]*:?|[^\W\d_][^\n]*[:：]"
    r"|[^\W\d_][^\n—–|()]*?[ \t][—–|][ \t][^\n—–|()]+?\.?)[ \t]*"
)
"""A heading line: a markdown heading, a line in bold, a line that ends with a colon, or a
title and what it is about on either side of a dash or a bar ("Flash — PCDM."; "Panel | JBBM
(sector de salud)" is no heading: what its brackets add is a fact)."""
_TITLE = re.compile(
    r"[ \t]*[^\W\d_][^\n.!?:—–|\d()]{0,40}?[ \t][—–|][ \t][^\n.!?:\d()]{1,60}?\.(?=[ \t])"
)
"""A draft's opening title and what it is about, before a dash or a bar, ended by a full stop
on the line the note goes on ("Flash — PCDM. The stock ...", "Comentario de gestión — Dividend
Income. DMFH ...")."""
_INNER_STOP = re.compile(r"[.!?](?:\s|$)(?!$)")


def _heading(line: str) -> bool:
    """A short heading with no figure and no sentence inside it ("**ABXQ — resumen rápido**",
    "Key points:"); "Aaaa. **Summary**" is a sentence before a heading, not a heading."""
    stripped = line.strip()
    return (
        bool(_HEADING.fullmatch(line))
        and not any(ch.isdigit() for ch in line)
        and len(line.split()) <= _MAX_HEADING_WORDS
        and not _INNER_STOP.search(stripped.rstrip(":*_ "))
    )

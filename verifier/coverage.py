"""Coverage: the closed world. Every word of an accepted draft was checked or asserts nothing.

A word is covered when it lies inside a claim some rule held against the trace (a figure, date,
ticker, quote or move), inside a phrase of the grammar that binds a claim (a field, a direction,
a window, an event: `verifier/lexicon/en.py`, `es.py`), on the list of words that carry no fact
(`verifier/lexicon/free/*.txt`: articles, framing, neutral nouns of the domain), or is a word of
a name the trace itself gives (a company's or portfolio's `name`, a `sector`). Anything else
("the biggest holding", "a fourth straight gain", "analysts rate it a buy") is an assertion no
rule bound: the draft is rejected `unverified_claim`, naming the span. A wording the verifier has
never seen is therefore a rejection an analyst can read, never an acceptance.
"""

from __future__ import annotations

import re
import unicodedata
from bisect import bisect_right
from collections.abc import Iterable, Iterator, Sequence
from functools import cache, lru_cache
from pathlib import Path

from verifier.claim import Claim
from verifier.lexicon import fragments, grouped
from verifier.lexicon.sectors import SECTORS_ES
from verifier.reuse import per_trace
from verifier.scanner import PhraseScan

FREE_DIR = Path(__file__).parent / "lexicon" / "free"
WITH_FIGURE_DIR = Path(__file__).parent / "lexicon" / "with_figure"
GRAMMAR_PICKS = (
    "windows",
    "since",
    "through",
    "range_open",
    "range_join",
    "negations",
    "portfolio",
    "benchmark",
    "session_verbs",
    "contribution_after",
    "traded",
    "events",
    "sessions",
    "fields",
)
"""Lexicon entries whose phrases bind a claim: a word of one of them is the grammar's. Left out:
`other_nouns` ("volume fell": a direction said of what no tool returns), `extended_hours` (no
result holds a move after hours), `not_tickers` (an acronym asserts what it names), ordinals and
number words (a figure's, covered by its span when the figure grammar read it), the direction
words (`rise`, `fall`, `governing`, `after_figure`: covered only where a figure or a move claim
took them, see `direction_spans`), `price_nouns`
(what may stand between a ticker and its direction word: "sharply" there says a size no rule
reads unless `verifier.rules.relations` holds it)."""
NAME_KEYS = frozenset({"name", "company", "company_name", "sector", "industry", "source"})
"""Result keys whose string is a name the draft may use as it stands (a news item's `source` is
the wire that ran it)."""
_WORD = re.compile(
    r"(?<!['’\w])[^\W\d_]+(?:['’][^\W\d_]+)*|(?<![\w.,])\d{1,3}(?:st|nd|rd|th|\.?[ºª°])(?!\w)"
)
"""A word; the "s" of "P001's" is not one. A place in digits ("3rd", "12.º") is a word: no
figure rule reads it, so only a rule that held it (a ranking, a streak, a date) covers it."""
_POSSESSIVE = re.compile(r"['’]s?$")


@cache
def free_words() -> frozenset[str]:
    """The words of every free list, case-folded."""
    return _read_words(FREE_DIR)


@cache
def figure_words() -> frozenset[str]:
    """The words that may stand only in a sentence stating a checked figure."""
    return _read_words(WITH_FIGURE_DIR)


def _read_words(folder: Path) -> frozenset[str]:
    """The words of the lists, each also without its accents: "variacion", "ultima" are how
    many writers (and keyboards) spell "variación", "última"."""
    words: set[str] = set()
    for path in sorted(folder.glob("*.txt")):
        for line in path.read_text(encoding="utf-8").splitlines():
            if not line.startswith(("#", "~")):
                words.update(w.casefold() for w in line.split())
    return frozenset(words | {unaccented(w) for w in words})


def unaccented(word: str) -> str:
    """The word without its combining accents ("variación" -> "variacion"; "ñ" stays)."""
    if word.isascii():
        return word
    return "".join(
        base[0] if ch not in "ñÑ" and (base := unicodedata.normalize("NFD", ch)) else ch
        for ch in word
    )


@cache
def free_phrases() -> list[str]:
    """The phrases of the free lists (lines opening with `~`, regex fragments of the folded
    text): words free only together ("expected on", "to be released on")."""
    return [
        line[1:].strip()
        for path in sorted(FREE_DIR.glob("*.txt"))
        for line in path.read_text(encoding="utf-8").splitlines()
        if line.startswith("~")
    ]


@cache
def grammar_scan() -> PhraseScan:
    """One scan for every binding phrase of the grammar, across languages."""
    groups: dict[str, list[str]] = {}
    for pick in GRAMMAR_PICKS:
        try:
            entries = grouped(pick)
        except AttributeError:
            entries = {}
        if isinstance(entries, dict) and entries:
            for name, parts in entries.items():
                groups.setdefault(f"{pick}_{name}", []).extend(parts)
        else:
            groups[pick] = list(fragments(pick))
    groups["free_phrases"] = free_phrases()
    return PhraseScan({k: v for k, v in groups.items() if v})


def direction_spans(text: str, claims: Iterable[Claim]) -> list[tuple[int, int]]:
    """Where the direction words a claim took stand: a move's own span, and for a figure its
    word right before it ("rose 2.1%") or right after it ("closed 1.31% lower")."""
    spans: list[tuple[int, int]] = []
    folded = text.casefold()
    for claim in claims:
        word = claim.direction_word.casefold()
        if not word or claim.kind == "move":
            continue
        before = folded.rfind(word, max(claim.start - 60, 0), claim.start)
        after = folded.find(word, claim.end, claim.end + 30)
        at = before if before >= 0 else after
        if at >= 0:
            spans.append((at, at + len(word)))
    if spans:  # the whole phrase a word of it took: "ticked up 1.4%", "edged lower"
        from verifier.grammar.moves import MOVE

        for m in MOVE.finditer(folded):
            if any(m.start() < e and s < m.end() for s, e in spans):
                spans.append(m.span())
    return spans


def names_in(node: object, out: list[str]) -> None:
    """Add to `out` the strings under `NAME_KEYS` in `node`, at any depth of its dicts and lists
    (what the index's walk does not visit: a failed call's result, an echoed expression)."""
    stack = [node]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            for key, value in node.items():
                if key in NAME_KEYS and isinstance(value, str):
                    out.append(value)
                elif isinstance(value, (dict, list)):
                    stack.append(value)
        elif isinstance(node, list):
            stack.extend(node)


def name_words(names: list[str]) -> frozenset[str]:
    """The words of the names the results of a trace give (`Evidence.names`, gathered by the
    index's walk); once per trace, reused by every draft over it."""
    return _name_words((), [names], names)


@per_trace
def _name_words(names: list[str]) -> frozenset[str]:
    unique = dict.fromkeys(names)
    translated = [es for name in unique for es in SECTORS_ES.get(name.casefold(), ())]
    return frozenset(word for name in [*unique, *translated] for word in words_of_name(name))


@lru_cache(maxsize=2048)
def words_of_name(name: str) -> tuple[str, ...]:
    """The words of one name, case-folded, without possessives; names repeat across results."""
    return tuple(_bare(w.casefold()) for w in _WORD.findall(name))


def uncovered(
    text: str,
    folded: str,
    covered: Iterable[tuple[int, int]],
    names: frozenset[str] = frozenset(),
    figures: Iterable[int] = (),
    starts: Sequence[int] = (0,),
) -> list[tuple[int, int]]:
    """The spans of `text` made of words no claim, binding phrase, free word or name covers (a
    word that qualifies a figure is covered in a sentence that holds one of the `figures`, given
    by position; `starts` are where the sentences start); neighbouring words (only spaces or
    hyphens between) form one span."""
    spans = sorted(covered)
    spans += [(m.start(), m.end()) for m in grammar_scan().finditer(folded)]
    spans.sort()
    free, qualifying = free_words(), figure_words()
    with_figure = {bisect_right(starts, at) - 1 for at in figures}
    out: list[tuple[int, int]] = []
    for start, end in _words(text, spans):
        word = folded[start:end]
        if word in free or word in names:
            continue
        if word in qualifying and bisect_right(starts, start) - 1 in with_figure:
            continue
        if out and _joined(text, out[-1][1], start):
            out[-1] = (out[-1][0], end)
        else:
            out.append((start, end))
    return out


def _words(text: str, spans: list[tuple[int, int]]) -> Iterator[tuple[int, int]]:
    """The words of `text` outside every span (a word a span only touches is inside it)."""
    i, n = 0, len(spans)
    for m in _WORD.finditer(text):
        start, end = m.span()
        if possessive := _POSSESSIVE.search(text, start, end):
            end = possessive.start() or end  # "AXO's" is covered where "AXO" is
        while i < n and spans[i][1] <= start:
            i += 1
        j, inside = i, False
        while j < n and spans[j][0] < end:
            if spans[j][0] <= start and end <= spans[j][1]:
                inside = True
                break
            j += 1
        if not inside:
            yield start, end


def _bare(word: str) -> str:
    """A word without its possessive ("barron's" -> "barron")."""
    return _POSSESSIVE.sub("", word) or word


def _joined(text: str, end: int, start: int) -> bool:
    return not text[end:start].strip(" -–")

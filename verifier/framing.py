"""The frame of a message: a greeting that opens it, a sign-off and signature that end it, and
the phrases that hand it over. They assert nothing a tool could hold, so the closed world covers
them, but only in that shape: a name is free in the salutation's slot ("Hi Daniel,", "Estimado
cliente:") and in the signature after a closing line ("Best regards,\\nClaire"), nowhere else; a
sentence of unknown words at the start or end of a draft is still `unverified_claim`.
"""

from __future__ import annotations

import re
from functools import cache

from verifier.lexicon.framing import ADDRESSEES, CLOSINGS, GREETINGS, PHRASES, SIGNERS
from verifier.scanner import PhraseScan

_MAX_NAME_WORDS = 4
_MAX_SIGNATURE_WORDS = 7
_MAX_SIGNATURE_LINES = 3
_TAIL = 240
_DASHED = re.compile(r"(?m)^[ \t]*(?:—|–|--)[ \t]*(?P<name>[^\n]+?)[ \t]*\Z")
"""How far from the end a closing line may stand: its line and a signature of a few short
lines (only that much of a draft is scanned for one)."""
_HEADER = re.compile(r"(?:[ \t*_]*(?:subject|asunto|re|to|para)[ \t*_]*:[^\n]*\n\s*){1,2}")
"""A message's header lines above its greeting ("Subject: BGBO in your portfolio"): their
words are judged like any other; the greeting under them opens the message."""
_NAME_WORD = re.compile(r"[^\W\d_][\w'’.-]*")
_SIGNERS = frozenset(SIGNERS)
_TICKER_SHAPE = re.compile(r"(?<![\w$])\$?[A-Z]{2,5}(?![\w])")


def _alt(fragments: tuple[str, ...]) -> str:
    return "|".join(f"(?:{f})" for f in sorted(fragments, key=len, reverse=True))


@cache
def _patterns() -> tuple[PhraseScan, re.Pattern[str], re.Pattern[str], re.Pattern[str]]:
    greeting = re.compile(rf"\s*(?:[*_#>¡¿]+\s*)?(?:{_alt(GREETINGS)})(?!\w)")
    closing = re.compile(rf"(?m)(?:^|(?<=[.!?])[ \t]+)[ \t*_>¡-]*(?:{_alt(CLOSINGS)})(?!\w)")
    addressee = re.compile(rf"(?:{_alt(ADDRESSEES)})\.?")
    return PhraseScan({"framing": list(PHRASES)}), greeting, closing, addressee


def framing_spans(text: str, folded: str) -> list[tuple[int, int]]:
    """The spans of `text` that frame it (`folded` is its case-folded twin, aligned)."""
    phrases, greeting, closing, addressee = _patterns()
    spans = [m.span() for m in phrases.finditer(folded)]
    if (salutation := _salutation(text, folded, greeting, addressee)) is not None:
        spans.append(salutation)
    if (signature := _signature(text, folded, closing)) is not None:
        spans.append(signature)
    return spans


def _salutation(
    text: str, folded: str, greeting: re.Pattern[str], addressee: re.Pattern[str]
) -> tuple[int, int] | None:
    """A greeting opening the draft, then at most four words of whom it addresses (a name with
    its capital, or `ADDRESSEES`), then a mark or the line's end: "Hi Daniel,", "Hola!"."""
    m = greeting.match(folded)
    if m is None and (header := _HEADER.match(folded)) is not None:
        m = greeting.match(folded, header.end())  # "Subject: …\n\nDear client,"
    if m is None:
        return None
    named: int | None
    if folded.startswith(",", m.end()):  # "Buenos días, Marta:" or "Hola, te paso"
        named = _named(text, folded, m.end() + 1, addressee) or m.end() + 1
    else:
        named = _named(text, folded, m.end(), addressee)
    return None if named is None else (m.start(), named)


def _named(text: str, folded: str, at: int, addressee: re.Pattern[str]) -> int | None:
    """Where the name slot from `at` ends (after its mark), or None where a word there is no
    name or whom a salutation addresses."""
    words = 0
    while True:
        gap = re.match(r"[ \t]*", text[at:])
        at += gap.end() if gap else 0
        if at >= len(text) or text[at] in ",:!.;\n" or not text[at].isalnum():
            return at + (1 if at < len(text) and text[at] in ",:!.;" else 0)
        word = _NAME_WORD.match(text, at)
        if word is None or words == _MAX_NAME_WORDS:
            return None
        named = word.group()[0].isupper() or addressee.fullmatch(folded, at, word.end())
        if not named:
            return None
        at, words = word.end(), words + 1


def _signature(text: str, folded: str, closing: re.Pattern[str]) -> tuple[int, int] | None:
    """A closing line near the end ("Best regards,", "Atentamente,", "Saludos, Ana") and the
    signature lines after it to the end, each a few words with no figure or ticker."""
    start_of_tail = len(text.rstrip())
    if not _closing_words().finditer(folded[max(start_of_tail - _TAIL, 0) :]):
        return _dashed(text, start_of_tail)
    for m in closing.finditer(folded, max(start_of_tail - _TAIL, 0)):
        line_end = text.find("\n", m.end())
        line_end = start_of_tail if line_end < 0 else line_end
        rest_of_line = text[m.end() : line_end]
        if not re.fullmatch(r"\s*[,.!]?\s*|\s*,[^,]*", rest_of_line):
            continue  # "Thanks to the rally": no sign-off
        rest_of_line = rest_of_line.strip(" \t,.!")
        tail = text[line_end:start_of_tail].strip().splitlines()
        if len(tail) > _MAX_SIGNATURE_LINES:
            continue
        named = all(w[0].isupper() for w in rest_of_line.split())
        if named and all(_signed(line) for line in [rest_of_line, *tail]):
            return m.start(), start_of_tail
    return _dashed(text, start_of_tail)


@cache
def _closing_words() -> PhraseScan:
    """The closings alone, a hinted scan: most drafts hold none, and the full pattern (a line
    start or a sentence end before it) is tried only where one does."""
    return PhraseScan({"closing": list(CLOSINGS)})


def _dashed(text: str, start_of_tail: int) -> tuple[int, int] | None:
    """A last line that signs with a dash ("— Claire")."""
    dashed = _DASHED.search(text, max(start_of_tail - _TAIL, 0), start_of_tail)
    if dashed is not None and dashed.group("name").strip() and _signed(dashed.group("name")):
        return dashed.start(), start_of_tail
    return None


def _signed(line: str) -> bool:
    """A line of a signature: a few words, no digit, nothing shaped like a ticker."""
    line = line.strip(" \t*_,.!-—").replace("(", " ").replace(")", " ")
    words = line.split()
    if not words:  # nothing but marks ("(", "—"): no word that could claim
        return True
    return (
        len(words) <= _MAX_SIGNATURE_WORDS
        and words[0][0].isupper()
        and not any(ch.isdigit() for ch in line)
        and not _TICKER_SHAPE.search(line)
        and all(_signature_word(w.strip(",.")) for w in words)
    )


def _signature_word(word: str) -> bool:
    """A word of a signature: a name (capitalised) or a word of whom it signs for ("your
    advisory team", "equipo de gestión patrimonial"), never a claim's word ("will rally")."""
    if not _NAME_WORD.fullmatch(word):
        return False
    return word[0].isupper() or word.casefold() in _SIGNERS

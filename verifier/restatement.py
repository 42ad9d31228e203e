"""A restated question asserts nothing: "The question asks how COD closed on 2024-12-31 and what
its day change was" says what was asked, in the question's own words.

A sentence that opens by naming the question ("The question asks", "You asked", "La pregunta
es") may hold unbound words only where each is a word of the trace's question (its stem: the
first five letters) or a question word ("how", "which", "qué"); its figures, dates and tickers
are still checked by their rules. A word the question does not hold ("The question asks why the
analyst downgrade hit COD") stays `unverified_claim`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

_FRAME = re.compile(
    r"[\W_]*(?:(?:so|ok|okay|well|bueno|vale|entonces),?\s+)?"
    r"(?:(?:the|your)\s+question\s+(?:asks|is|was)|you\s+(?:asked|want\s+to\s+know)|"
    r"you(?:'re|\s+are)\s+asking|(?:me|nos)\s+preguntan?|"
    r"la\s+pregunta\s+es|(?:me\s+)?preguntas|quieres\s+saber|(?:question|pregunta|q|p)[*_]*\s*[:：]|"
    r"(?:to|para)\s+(?:answer|responder)(?:\s+(?:your|tu|su)\s+(?:question|pregunta))?|"
    r"[¿])(?!\w)"
)
"""How a sentence opens when it names the question, or is one ("¿qué aportó XMQ a P002?")."""
_QUESTION_WORDS = frozenset(
    {
        *("how", "what", "which", "when", "where", "who", "whom", "whether"),
        *("qué", "cómo", "cuál", "cuáles", "cuánto", "cuánta", "cuándo", "dónde", "quién"),
        *("question", "asks", "asked", "asking", "want", "know", "pregunta", "preguntas"),
        *("preguntan", "quieres", "saber"),
        *("answer", "responder"),
    }
)
"""Question words and the frame's own words."""
_WORD = re.compile(r"[^\W\d_]+")
_STEM = 5


def restated_free(
    folded: str, question: str, spans: list[tuple[int, int]], starts: Sequence[int]
) -> list[tuple[int, int]]:
    """`spans` without those in a sentence that restates the question in its own words."""
    if not spans or not question:
        return spans
    ends = [*starts[1:], len(folded)]
    restating = [(lo, hi) for lo, hi in zip(starts, ends, strict=True) if _FRAME.match(folded, lo)]
    if not restating:
        return spans
    asked = {w.group() for w in _WORD.finditer(question.casefold())}
    stems = {w[:_STEM] for w in asked if len(w) >= 4}
    kept = []
    for start, end in spans:
        inside = any(lo <= start and end <= hi for lo, hi in restating)
        words = [w.group() for w in _WORD.finditer(folded, start, end)]
        if inside and all(_asked(w, asked, stems) for w in words):
            continue
        kept.append((start, end))
    return kept


def _asked(word: str, asked: set[str], stems: set[str]) -> bool:
    if word in asked or word in _QUESTION_WORDS:
        return True
    return len(word) >= 4 and word[:_STEM] in stems

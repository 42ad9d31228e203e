"""A line written in capitals, as headline writers write it ("**YQZ EDGES DOWN 0.02% ON
TUESDAY**"), is read in ordinary case: its words that are not the trace's tickers are words, so
"EDGES" and "DOWN" are no tickers and "TUESDAY" is the day. Only the case changes, never a
character's place, so every span the verdict names is the draft's own.
"""

from __future__ import annotations

import re
from collections.abc import Collection

_WORD = re.compile(r"(?<![\w.])[^\W\d_]{2,}(?![\w])")
_MIN_WORDS = 3
"""A line of fewer capital words is a ticker and a label ("AXO: UP"), not a headline."""


def uncapped(draft: str, tickers: Collection[str]) -> str:
    """The draft with each line written in capitals read in ordinary case, the trace's tickers
    left as they are."""
    if not any(line.isupper() for line in draft.splitlines()):
        return draft
    lines = draft.split("\n")
    for i, line in enumerate(lines):
        words = _WORD.findall(line)
        if not line.isupper() or len(words) < _MIN_WORDS:
            continue
        lines[i] = _WORD.sub(lambda m: _word(m.group(), tickers), line)
    out = "\n".join(lines)
    return out if len(out) == len(draft) else draft


def _word(word: str, tickers: Collection[str]) -> str:
    if word in tickers:  # a portfolio id holds digits: no word of `_WORD`
        return word
    lowered = word[0] + word[1:].lower()
    return lowered if len(lowered) == len(word) else word

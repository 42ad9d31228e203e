"""Cheap checks that let the verifier skip a costly pattern must never skip a match: each guard
finds something wherever the pattern it guards does, under the same case rules (Python's
`(?i)` also folds "ſ", "ı" and the Kelvin sign)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from verifier.rules.closed_world import _CAUSE_WORDS, _cause

JOINTS = [
    "thanks to",
    "due to",
    "because of",
    "on the back of",
    "in response to",
    "gracias a",
    "debido a",
    "a causa de",
]
MOVES = ["rose", "fell", "gained", "dropped", "subió", "cayó", "rallied", "slid"]
OBJECTS = ["the news", "the report", '"Acme wins"', "la noticia", "an announcement", "*"]
FOLDS = {"s": "ſ", "i": "ı", "k": "\u212a", "a": "A", "e": "E", "t": "T"}


def _fold(text: str, picks: list[bool]) -> str:
    return "".join(
        FOLDS[c] if c in FOLDS and picks[i % len(picks)] else c for i, c in enumerate(text)
    )


@settings(max_examples=300, deadline=None)
@given(
    move=st.sampled_from(MOVES),
    joint=st.sampled_from(JOINTS),
    what=st.sampled_from(OBJECTS),
    gap=st.sampled_from([" ", "  ", "\n", "\t"]),
    picks=st.lists(st.booleans(), min_size=1, max_size=7),
    before=st.text(max_size=20),
)
def test_the_cause_guard_finds_a_word_wherever_a_cause_is_said(
    move: str, joint: str, what: str, gap: str, picks: list[bool], before: str
) -> None:
    text = before + " " + _fold(gap.join([move, *joint.split(), what]), picks)
    if _cause().search(text) is not None:
        assert _CAUSE_WORDS.search(text) is not None


def test_the_cause_guard_is_reached_by_real_causes() -> None:
    for joint in JOINTS:
        text = f"AXO rose {joint} the news."
        assert _cause().search(text) and _CAUSE_WORDS.search(text)

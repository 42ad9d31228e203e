"""Derived figures: a figure one operation on two figures of its sentence gives is supported at
the precision shown; one whose operands the sentence does not name is not; and the rate at which
a random figure passes for a derivation by chance is measured (verifier/README.md quotes it)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from verifier.verify import verify_json as verify

POSITION = {
    "id": "e1",
    "tool": "get_position_pnl",
    "args": {"portfolio_id": "P001", "ticker": "AXO", "date": "2024-12-31"},
    "result": {
        "portfolio_id": "P001",
        "ticker": "AXO",
        "session": "2024-12-31",
        "previous_session": "2024-12-30",
        "quantity": 781.0,
        "close": 287.14,
        "previous_close": 283.43,
        "market_value": 224256.34,
        "day_pnl": 2897.51,
        "pnl_pct": 1.31,
        "portfolio_value_previous_close": 934156.74,
        "contribution_pct": 0.31,
    },
}


def rules(draft: str, events: list[dict[str, Any]] | None = None) -> list[str]:
    trace = {"question": "q", "draft": draft, "events": events or [POSITION], "as_of": "2024-12-31"}
    return sorted({r.rule.value for r in verify(trace).reasons})


@pytest.mark.parametrize(
    ("draft", "expected"),
    [
        ("AXO went from 283.43 to 287.14, a gain of 3.71 per share.", []),
        ("AXO went from 283.43 to 287.14, a gain of 3.81 per share.", ["unsupported_figure"]),
        ("AXO's 224,256.34 is about 24.0% of the 934,156.74 book.", []),
        ("AXO's 224,256.34 is about 26.0% of the 934,156.74 book.", ["unsupported_figure"]),
        ("AXO's 224,256.34 is roughly a quarter of the 934,156.74 book.", []),
        ("AXO's 224,256.34 is roughly a third of the 934,156.74 book.", ["unsupported_figure"]),
        ("781 shares at 287.14 come to 224,256.34.", []),
        # a change per share is the result's close less its previous close, which the program
        # computes: the words name that one operation, on that holding, with its sign
        ("AXO gained 3.71 per share.", []),
        ("AXO gained 3.81 per share.", ["unsupported_figure"]),
        ("AXO lost 3.71 per share.", ["unsupported_figure"]),
        # operands the sentence does not name: no derivation
        ("AXO gained 3.71.", ["unsupported_figure"]),
        ("The position was worth about 221,358.83 at the previous close.", ["unsupported_figure"]),
    ],
)
def test_a_figure_derived_from_figures_its_sentence_names(draft: str, expected: list[str]) -> None:
    assert rules(draft) == expected


@pytest.mark.parametrize("decimals", [2, 1, 0])
def test_a_random_figure_passes_for_a_derivation_rarely(decimals: int) -> None:
    rng = random.Random(7)
    hits = tries = 0
    for _ in range(400):
        a = round(rng.uniform(10, 1000), 2)
        b = round(rng.uniform(10, 1000), 2)
        move = {
            "id": "m",
            "tool": "get_daily_move",
            "args": {"ticker": "AXO", "date": "2024-12-31"},
            "result": {"ticker": "AXO", "session": "2024-12-31", "close": a, "previous_close": b},
        }
        c = round(rng.uniform(10, 2000), decimals)
        tries += 1
        drafted = (
            f"AXO closed at {a:.2f}, from a previous close of {b:.2f}, a move of {c:.{decimals}f}."
        )
        hits += "unsupported_figure" not in rules(drafted, [move])
    rate = hits / tries
    print(
        f"\nderived figures, {decimals} decimals: {hits}/{tries} random figures passed for a "
        f"derivation ({rate:.2%})"
    )
    assert rate < 0.01


def test_a_change_between_two_closes_keeps_the_sign_of_its_direction() -> None:
    """ "closed at 354.42 (+2.03%) versus 361.76": the percentage a close and the previous one
    give is a fall from the one to the other; said as a rise it is no derivation (and no fact),
    over every move of the free-form night."""
    from tests.verifier.test_unseen_prose import _moves, _verdict

    checked = 0
    for question, move, _ in _moves():
        t, close, before, pct = (
            move["ticker"],
            move["close"],
            move["previous_close"],
            move["change_pct"],
        )
        if abs(pct) < 0.1:
            continue
        said = (
            f"{t} closed at {close:.2f} ({{:+.2f}}%) versus {before:.2f} in the previous session."
        )
        kept = _verdict(question, said.format(pct))
        assert kept.accepted, (question, kept.reasons)
        assert not _verdict(question, said.format(-pct)).accepted, question
        checked += 1
    assert checked >= 30

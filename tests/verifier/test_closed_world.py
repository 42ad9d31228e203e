"""The closed world: an accepted draft states nothing the verifier did not check.

`closed_world/` holds drafts written the way language models write, over real traces of a
sample night (the tools' own results), in English and Spanish, faithful ones beside corrupted
ones, of every kind the open-world verifier let through: comparisons, rankings and streaks, time
words counted from the report date, number words, verbs that carry a sign, facts no tool
returns, another portfolio's figures, derived figures, and kinds nobody named. The traces ask
for no particular field (`requires` is empty): what is measured is the closed world, not
completeness, which `missing_answer` holds elsewhere.
"""

from __future__ import annotations

import json
import random
import string
from collections import Counter
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from verifier.coverage import free_words, grammar_scan
from verifier.extraction import extract_claims
from verifier.framing import framing_spans
from verifier.grammar.moves import MOVE
from verifier.grammar.relative import Anchor
from verifier.limits import holds_open
from verifier.rules.direction_rules import SIGN
from verifier.rules.qualities import quality_scan
from verifier.scanner import fold_aligned
from verifier.verify import verify_json as verify

HERE = Path(__file__).parent / "closed_world"
TRACES: dict[str, dict[str, Any]] = json.loads((HERE / "traces.json").read_text())
DRAFTS = [json.loads(line) for line in (HERE / "drafts.jsonl").read_text().splitlines()]
FREE_TRACES: dict[str, dict[str, Any]] = json.loads((HERE / "free_form_traces.json").read_text())
FREE = [json.loads(line) for line in (HERE / "free_form.jsonl").read_text().splitlines()]
"""Drafts written freely, one by one (not from patterns), over a night whose traces hold the
ranks, trends and company names; each a complete answer to its question."""


def judged(row: dict[str, Any], traces: dict[str, dict[str, Any]] = TRACES) -> bool:
    return verify({**traces[row["question_id"]], "draft": row["draft"]}).accepted


def table(
    rows: list[dict[str, Any]], traces: dict[str, dict[str, Any]], title: str
) -> tuple[Counter[tuple[str, str]], Counter[tuple[str, str]], float, float]:
    """Per kind and label: drafts judged right and drafts; printed; the two overall rates."""
    right: Counter[tuple[str, str]] = Counter()
    total: Counter[tuple[str, str]] = Counter()
    for row in rows:
        key = (row["kind"], row["label"])
        total[key] += 1
        right[key] += judged(row, traces) == (row["label"] == "faithful")
    lines = [f"{k:16} {label:9} {right[k, label]:3}/{total[k, label]:3}" for k, label in total]
    print(f"\n{title}, per kind:\n" + "\n".join(sorted(lines)))
    faithful = sum(right[k] for k in total if k[1] == "faithful")
    corrupted = sum(right[k] for k in total if k[1] != "faithful")  # corrupted, unsupported
    n_faithful = sum(total[k] for k in total if k[1] == "faithful")
    n_corrupted = sum(total[k] for k in total if k[1] != "faithful")
    print(f"faithful kept {faithful}/{n_faithful}, the others rejected {corrupted}/{n_corrupted}")
    return right, total, faithful / n_faithful, corrupted / n_corrupted


def test_every_kind_keeps_the_faithful_and_rejects_the_corrupted() -> None:
    right, total, kept, rejected = table(DRAFTS, TRACES, "closed world (patterned drafts)")
    assert len(DRAFTS) >= 400 and {k for k, _ in total} >= {
        "comparison", "streak_trend", "time_words", "number_words", "sign_verbs",
        "external_facts", "cross_portfolio", "derived", "unseen",
    }  # fmt: skip
    assert rejected >= 0.99
    assert kept >= 0.96
    for key in total:
        assert right[key] / total[key] >= 0.85, key


def test_free_form_drafts_are_rejected_when_wrong() -> None:
    """Free prose is where a closed world costs: what it says beyond the checked facts ("a
    rough week", "comfortably beat") rejects faithful drafts too; what it never does is let a
    corrupted one through."""
    _, total, kept, rejected = table(FREE, FREE_TRACES, "closed world (free-form drafts)")
    assert len(FREE) >= 400 and len({k for k, _ in total}) >= 10
    assert rejected >= 0.98
    assert kept >= 0.92


ANCHOR = Anchor(date(2024, 12, 31), date(2024, 12, 30))
OUTSIDE = st.text(alphabet=string.ascii_lowercase, min_size=4, max_size=10).filter(
    lambda w: (
        w not in free_words()
        and not grammar_scan().finditer(w)
        and not MOVE.finditer(w)  # a direction word: a claim of its own
        and not SIGN.finditer(w)  # a sign word ("negativa"): held against its subject's day
        and not quality_scan().finditer(w)  # a quality of the day ("rebote"): held against it
        and not extract_claims(f"On {w.capitalize()} {w}", (), ANCHOR)  # a weekday, a number
        and not _framing(w)  # a greeting or a closing ("Hello.", "Thanks."): the frame's
        and not holds_open(w)  # "Conjecture.": a hedge's own word (`verifier.limits`)
    )
)


def _framing(word: str) -> bool:
    return any(
        framing_spans(text, fold_aligned(text))
        for text in (f"{word.capitalize()}.", f"{word.capitalize()}, x", f"x. {word.capitalize()}.")
    )


@settings(max_examples=150, deadline=None)
@given(words=st.lists(OUTSIDE, min_size=1, max_size=4), seed=st.integers(0, 10_000))
def test_words_outside_the_vocabulary_are_never_accepted(words: list[str], seed: int) -> None:
    rng = random.Random(seed)
    row = rng.choice([r for r in DRAFTS if r["label"] == "faithful" and judged(r)])
    added = " ".join(words).capitalize() + "."
    draft = f"{added} {row['draft']}" if rng.random() < 0.5 else f"{row['draft']} {added}"
    verdict = verify({**TRACES[row["question_id"]], "draft": draft})
    assert not verdict.accepted
    assert "unverified_claim" in {r.rule.value for r in verdict.reasons}


def test_an_unverified_claim_names_its_span() -> None:
    row = next(r for r in DRAFTS if r["kind"] == "offline_style")
    draft = row["draft"] + " Analysts call it a strong buy."
    verdict = verify({**TRACES[row["question_id"]], "draft": draft})
    spans = [draft[r.span[0] : r.span[1]] for r in verdict.reasons if r.span]
    assert "Analysts" in spans and "strong buy" in spans


@pytest.mark.parametrize(
    ("draft", "accepted"),
    [
        ("AXO closed at 287.14 today, up 1.31%.", True),
        ("AXO closed at 287.14 on Tuesday, up 1.31%.", True),
        ("Yesterday AXO closed at 287.14, up 1.31%.", False),
        ("On Monday AXO closed at 287.14, up 1.31%.", False),
        ("AXO cerró hoy a 287,14, un 1,31 % más.", True),
        ("Ayer AXO cerró a 287,14.", False),
    ],
)
def test_a_relative_day_is_counted_from_the_report_date(draft: str, accepted: bool) -> None:
    trace = TRACES["AXO/move"]
    assert verify({**trace, "draft": draft}).accepted is accepted


def test_without_a_report_date_a_relative_day_is_not_read() -> None:
    trace = {k: v for k, v in TRACES["AXO/move"].items() if k != "as_of"}
    verdict = verify({**trace, "draft": "AXO closed at 287.14 today, up 1.31%."})
    assert [r.rule.value for r in verdict.reasons] == ["unverified_claim"]

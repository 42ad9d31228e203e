"""The golden corpus (built by build_corpus.py from the real tools): every verdict and rule code
as expected; precision and recall of rejection printed and both 100%."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from verifier.verify import verify

CASES = Path(__file__).parent / "cases"


def load_cases() -> list[dict[str, Any]]:
    return [
        json.loads(line)
        for path in sorted(CASES.glob("*.jsonl"))
        for line in path.read_text().splitlines()
    ]


def test_corpus_verdicts_and_rejection_precision_recall() -> None:
    cases = load_cases()
    assert len(cases) >= 120
    assert {c["expect"]["accepted"] for c in cases} == {True, False}
    wrong, tp, fp, fn = [], 0, 0, 0
    for case in cases:
        verdict = verify(case["trace"])
        rules = sorted({r.rule.value for r in verdict.reasons})
        rejected, expected = not verdict.accepted, not case["expect"]["accepted"]
        tp += rejected and expected
        fp += rejected and not expected
        fn += expected and not rejected
        if rules != case["expect"]["rules"]:
            wrong.append(f"{case['id']}: expected {case['expect']['rules']}, got {rules}")
    precision, recall = tp / max(tp + fp, 1), tp / max(tp + fn, 1)
    print(f"\ncorpus: {len(cases)} cases, rejection precision {precision:.1%}, recall {recall:.1%}")
    assert wrong == []
    assert (precision, recall) == (1.0, 1.0)


def test_corpus_covers_every_rule_both_languages_and_the_classic_failures() -> None:
    cases = load_cases()
    rules = {r for c in cases for r in c["expect"]["rules"]}
    assert rules >= {
        "unsupported_figure",
        "uncomputed_percentage",
        "unresolved_error",
        "unknown_headline",
        "unsupported_date",
        "unknown_ticker",
        "wrong_direction",
        "missing_answer",
        "no_draft",
    }
    ids = {c["id"] for c in cases}
    assert "failure/ZZZZ-classic-10" in ids and "failure/classic-27-88" in ids
    assert any(c["id"].endswith("-es") and c["expect"]["accepted"] for c in cases)

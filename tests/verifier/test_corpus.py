"""The golden corpus (built by build_corpus.py from the real tools): every verdict and rule code
as expected; precision and recall of rejection printed and both 100%."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from verifier.verify import verify_json as verify

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
        "wrong_subject",
        "wrong_time",
        "wrong_field",
        "wrong_weekday",
        "wrong_session",
        "wrong_event_day",
    }
    ids = {c["id"] for c in cases}
    assert "failure/ZZZZ-classic-10" in ids and "failure/classic-27-88" in ids
    assert any(c["id"].endswith("-es") and c["expect"]["accepted"] for c in cases)


def test_every_bound_corruption_has_its_faithful_twin_in_both_languages() -> None:
    cases = {c["id"]: c for c in load_cases() if c["id"].startswith("bound/")}
    corrupted = [c for i, c in cases.items() if i.endswith("-bad")]
    assert len(corrupted) >= 90
    kinds: dict[str, set[str]] = {}
    for bad in corrupted:
        twin = cases[bad["id"].removesuffix("-bad")]
        assert twin["expect"] == {"accepted": True, "rules": []}
        assert twin["trace"]["events"] == bad["trace"]["events"]
        (rule,) = bad["expect"]["rules"]
        kinds.setdefault(rule, set()).add(bad["id"].removesuffix("-bad").rsplit("-", 1)[1])
    for rule in ("wrong_subject", "wrong_time", "wrong_field", "wrong_direction", "wrong_weekday"):
        assert kinds[rule] == {"en", "es"}, rule
    assert {"en", "es"} <= kinds["wrong_event_day"] | kinds["unresolved_error"]

"""Portfolio ids of any length: a night of 2,000 portfolios numbers them past P999 (the
generator writes `P{n:03d}`), and a position answer names its own as faithfully as P001's, while
a draft that names another portfolio of that form is still the wrong subject."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from verifier.verify import verify_json

TRACES = json.loads((Path(__file__).parent / "closed_world" / "free_form_traces.json").read_text())
POSITIONS = sorted(q for q, t in TRACES.items() if t.get("portfolio_id"))


def renamed(trace: dict[str, object], old: str, new: str) -> dict[str, object]:
    return json.loads(json.dumps(trace).replace(old, new))  # type: ignore[no-any-return]


@pytest.mark.parametrize("question", POSITIONS[:12])
@pytest.mark.parametrize("own", ["P1863", "P20000"])
def test_an_answer_naming_its_own_long_portfolio_id_is_accepted(question: str, own: str) -> None:
    trace = TRACES[question]
    pid = str(trace["portfolio_id"])
    assert pid in trace["draft"]
    before = verify_json(trace).accepted
    assert verify_json(renamed(trace, pid, own)).accepted == before


@pytest.mark.parametrize("question", POSITIONS[:12])
@pytest.mark.parametrize(
    ("own", "other"), [("P002", "P1235"), ("P1863", "P1864"), ("P1863", "P186")]
)
def test_an_answer_naming_another_portfolio_of_any_length_is_the_wrong_subject(
    question: str, own: str, other: str
) -> None:
    trace = renamed(TRACES[question], str(TRACES[question]["portfolio_id"]), own)
    trace["draft"] = str(trace["draft"]).replace(own, other)
    verdict = verify_json(trace)
    assert not verdict.accepted
    assert any(other in r.message and r.rule == "wrong_subject" for r in verdict.reasons)

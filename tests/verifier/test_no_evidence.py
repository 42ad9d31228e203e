"""A draft with no tool call behind it is rejected, however plausible: a model can write one from
the question's own ticker and dates; a failed call is still an observation an answer rests on."""

from __future__ import annotations

from verifier.verify import verify_json as verify

QUESTION = "What is scheduled for ACME in the 30 days after 2024-12-31?"
FAILED = {"id": "c1", "tool": "get_events", "args": {"ticker": "ACME"}, "error": "unknown ticker"}


def rules(draft: str, events: list[dict[str, object]]) -> list[str]:
    trace = {"question": QUESTION, "draft": draft, "as_of": "2024-12-31", "events": events}
    return sorted({r.rule.value for r in verify(trace).reasons})


def test_an_answer_with_no_tool_call_is_rejected() -> None:
    assert rules("ACME is scheduled to launch on 2024-12-31.", []) == [
        "no_evidence",
        "unverified_claim",
    ]
    assert rules("ACME: 2024-12-31.", []) == ["no_evidence"]


def test_an_answer_over_a_failed_call_rests_on_that_failure() -> None:
    assert "no_evidence" not in rules("The events of ACME are unavailable.", [FAILED])

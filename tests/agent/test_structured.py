"""Structured drafting: facts written by the program from tool results, a choice rendered back
into the draft, and what a reply that is not a choice becomes."""

from __future__ import annotations

import pytest

from agent.structured import facts_block, facts_of, facts_schema, render_choice
from verifier.verify import verify_json as verify

MOVE = {
    "tool": "get_daily_move",
    "args": {"ticker": "EXMPL", "date": "2024-12-31"},
    "result": {
        "ticker": "EXMPL",
        "session": "2024-12-31",
        "previous_session": "2024-12-30",
        "close": 1234567.89,
        "previous_close": 1234000.0,
        "change": 567.89,
        "change_pct": 0.05,
    },
}
TREND = {"tool": "get_trend", "args": {"ticker": "EXMPL"}, "result": {"ticker": "EXMPL"}}


@pytest.mark.parametrize("language", ["en", "es"])
def test_every_fact_on_offer_is_accepted_by_the_verifier(language: str) -> None:
    facts = facts_of([MOVE, TREND], language)
    assert len(facts) == 3  # the move, the close alone, the direction; context tools state none
    for fact in facts:
        trace = {
            "question": "How did EXMPL close?",
            "draft": fact.sentence,
            "as_of": "2024-12-31",
            "events": [{"id": "c1", **MOVE}],
        }
        assert verify(trace).accepted, (fact.sentence, verify(trace).reasons)
    assert ("1.234.567,89" if language == "es" else "1,234,567.89") in facts[0].sentence
    assert f"\n[1] {facts[0].sentence}\n[2] " in facts_block(facts, language)


def test_a_choice_is_rendered_in_its_order_each_fact_once() -> None:
    facts = facts_of([MOVE], "en")
    assert (
        render_choice('{"facts": [2, 1, 2]}', facts) == f"{facts[1].sentence} {facts[0].sentence}"
    )


@pytest.mark.parametrize(
    "reply", ["", "EXMPL rose.", '{"facts": [9]}', '{"facts": []}', '{"facts": "1"}', "[1]"]
)
def test_a_reply_that_is_not_a_choice_renders_nothing(reply: str) -> None:
    assert render_choice(reply, facts_of([MOVE], "en")) is None


def test_the_schema_names_the_facts_on_offer() -> None:
    assert facts_schema(2)["properties"]["facts"]["items"]["enum"] == [1, 2]

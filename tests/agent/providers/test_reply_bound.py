"""A reply longer than its reservation allows is a provider fault charged at the reservation,
whatever usage the server reports: the length is counted here (`count_reply`), on the real SDKs'
parsing of a scripted wire."""

from __future__ import annotations

import pytest

from agent.budget.limits import LoopLimits
from agent.budget.meter import REPLY_MARGIN, QuestionMeter
from agent.loop import KEPT_REPLY_CHARS, answer_question
from agent.providers.tokens import MAX_CHARS_PER_TOKEN, count_reply
from agent.questions import load_question_set, render_question
from contract.reasons import ReasonCode
from tests.agent.scripted import Call, Turn

WIRES = ["openai", "anthropic"]
SENTENCE = "ACME closed at 101.25 on 2024-06-03, up 1.2% from 100.05 the session before. "


@pytest.fixture
def question(holding, report_date):
    return render_question(load_question_set().spec("move"), holding[1], report_date, "en")


async def ask(question, provider, catalog, meter=None, max_output_tokens=1_024, mode="plan"):
    limits = LoopLimits(max_output_tokens=max_output_tokens)
    return await answer_question(
        question, provider=provider, catalog=catalog, limits=limits, mode=mode, meter=meter
    )


def refused_and_billed_at_the_reservation(trace, meter: QuestionMeter) -> None:
    assert trace.stop_reason == ReasonCode.PROVIDER_ERROR and trace.draft is None
    assert "by local count" in (trace.stop_detail or "")
    assert 0 < meter.spent.total == meter.reserved_total == trace.usage.total
    assert len(trace.turns[0].text or "") < KEPT_REPLY_CHARS + 100


@pytest.mark.parametrize("kind", WIRES)
async def test_a_million_characters_reported_as_200_tokens_is_refused_and_billed_at_the_reservation(
    kind, scripted, agent_catalog, question
) -> None:
    provider, log = scripted(kind, [Turn(text="x" * 1_000_000, output_tokens=200)])
    meter = QuestionMeter(question.id, question.kind, limit=100_000)
    trace = await ask(question, provider, agent_catalog, meter)

    refused_and_billed_at_the_reservation(trace, meter)
    assert meter.spent.output_tokens == 1_024 and len(log) == 1


@pytest.mark.parametrize("kind", WIRES)
async def test_a_reply_past_its_output_tokens_by_a_local_count_is_refused(
    kind, scripted, agent_catalog, question
) -> None:
    text = SENTENCE * 20  # some 600 tokens, reported as 40, on a call allowed 100
    assert count_reply(text, 100) > 100 * REPLY_MARGIN
    provider, _ = scripted(kind, [Turn(text=text, output_tokens=40)])
    meter = QuestionMeter(question.id, question.kind, limit=100_000)
    trace = await ask(question, provider, agent_catalog, meter, max_output_tokens=100)

    refused_and_billed_at_the_reservation(trace, meter)


async def test_tool_calls_count_as_output_too(scripted, agent_catalog, question) -> None:
    sql = "SELECT 1 AS one" + " " * 200_000
    provider, _ = scripted("openai", [Turn(calls=(Call.of("c1", "run_sql", sql=sql),))])
    meter = QuestionMeter(question.id, question.kind, limit=100_000)
    trace = await ask(question, provider, agent_catalog, meter, mode="react")

    assert trace.stop_reason == ReasonCode.PROVIDER_ERROR and not trace.events
    assert meter.spent.total == meter.reserved_total


async def test_without_a_budget_the_reply_is_still_refused(scripted, agent_catalog, question):
    provider, _ = scripted("openai", [Turn(text="y" * 1_000_000, output_tokens=200)])
    trace = await ask(question, provider, agent_catalog)
    assert trace.stop_reason == ReasonCode.PROVIDER_ERROR and "by local count" in trace.stop_detail


@pytest.mark.parametrize("kind", WIRES)
async def test_a_long_reply_within_its_output_tokens_is_an_answer(
    kind, scripted, agent_catalog, question
) -> None:
    text = SENTENCE * 20
    provider, _ = scripted(kind, [Turn(text=text, output_tokens=600)])
    meter = QuestionMeter(question.id, question.kind, limit=100_000)
    trace = await ask(question, provider, agent_catalog, meter)

    assert trace.stop_reason == ReasonCode.ANSWERED and trace.draft == text
    assert meter.spent.output_tokens == 600


def test_the_count_never_tokenises_what_no_tokenizer_could_fit() -> None:
    allowed = 1_024
    huge = "z" * (allowed * MAX_CHARS_PER_TOKEN + 1)
    assert count_reply(huge, allowed) == allowed + 1
    assert count_reply("short", allowed) == 1

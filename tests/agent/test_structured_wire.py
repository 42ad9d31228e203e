"""Structured drafting on the real openai and anthropic clients, faked at the HTTP transport: the
request carries the facts schema (OpenAI's strict `response_format`, Anthropic's forced tool), and
the reply's choice becomes the program's sentences, which the verifier accepts."""

from __future__ import annotations

import json

import pytest

from agent.budget.limits import LoopLimits
from agent.loop import answer_question
from agent.providers.base import Message, ModelRequest
from agent.questions import load_question_set, render_question
from agent.structured import facts_of, facts_schema
from agent.tool_calls import event_entry
from contract.reasons import ReasonCode
from tests.agent.scripted import Call, Turn
from verifier.verify import verify


@pytest.fixture
def question(holding, report_date):
    return render_question(load_question_set().spec("move"), holding[1], report_date, "en")


def choice(kind: str, *numbers: int) -> Turn:
    """The reply choosing `numbers`: JSON text on OpenAI, the schema tool's input on Anthropic."""
    if kind == "openai":
        return Turn(text=json.dumps({"facts": list(numbers)}))
    return Turn(calls=(Call.of("toolu_facts", "facts", facts=list(numbers)),))


def sent_schema(kind: str, body: dict) -> dict:
    if kind == "openai":
        form = body["response_format"]
        assert form["type"] == "json_schema" and form["json_schema"]["strict"] is True
        return form["json_schema"]["schema"]
    assert body["tool_choice"] == {"type": "tool", "name": "facts"}
    [tool] = body["tools"]
    assert tool["name"] == "facts"
    return tool["input_schema"]


async def draft(kind, scripted, agent_catalog, question, reply):
    provider, log = scripted(kind, [reply])
    trace = await answer_question(
        question,
        provider=provider,
        catalog=agent_catalog,
        limits=LoopLimits(drafting="structured"),
        mode="plan",
    )
    return trace, log


@pytest.mark.parametrize("kind", ["openai", "anthropic"])
async def test_the_schema_goes_out_and_the_choice_comes_back_verified(
    kind, scripted, agent_catalog, question
):
    trace, log = await draft(kind, scripted, agent_catalog, question, choice(kind, 1))

    assert len(log) == 1
    schema = sent_schema(kind, log.requests[0].body)
    facts = facts_of([event_entry(e) for e in trace.events], "en")
    assert schema["properties"]["facts"]["items"]["enum"] == [f.number for f in facts]
    assert trace.stop_reason == ReasonCode.ANSWERED
    assert trace.draft == facts[0].sentence
    assert not trace.events or all(e.tool != "facts" for e in trace.events)  # no call recorded
    assert verify(trace).accepted


@pytest.mark.parametrize("kind", ["openai", "anthropic"])
async def test_a_choice_of_no_fact_on_offer_is_no_draft(kind, scripted, agent_catalog, question):
    trace, _ = await draft(kind, scripted, agent_catalog, question, choice(kind, 99))

    assert trace.stop_reason == ReasonCode.PROVIDER_ERROR
    assert trace.draft is None


@pytest.mark.parametrize("kind", ["openai", "anthropic"])
async def test_free_drafting_sends_no_schema(kind, scripted, agent_catalog, question):
    provider, log = scripted(kind, [Turn(text="drafted")])
    await answer_question(question, provider=provider, catalog=agent_catalog, mode="plan")

    body = log.requests[0].body
    assert "response_format" not in body and "tool_choice" not in body and "tools" not in body


@pytest.mark.parametrize("kind", ["openai", "anthropic"])
def test_the_schema_is_counted_in_the_estimate(kind, scripted) -> None:
    provider, _ = scripted(kind, [])
    plain = ModelRequest(system="Answer.", messages=[Message(role="user", text="Choose.")])
    shaped = plain.model_copy(update={"response_schema": facts_schema(12)})
    assert provider.estimate_tokens(shaped) > provider.estimate_tokens(plain)

"""The batch interfaces over the real SDK clients, on a scripted transport that plays the batch
endpoints: submit, a look while the batch runs, a look once it ended, then every item's reply
or failure (errored, expired, and one the provider never accounted for)."""

from __future__ import annotations

import httpx2
import pytest

from agent.providers import batch_api
from agent.providers.anthropic import AnthropicProvider
from agent.providers.base import Message, ModelRequest, ModelResponse
from agent.providers.batch import BatchFailure
from agent.providers.openai import OpenAIProvider
from contract.errors import InputError
from tests.agent.batch_wire import BatchWire, Outcome
from tests.agent.scripted import Wire

FATE: dict[str, Outcome] = {"c-0": "succeeded", "c-1": "errored", "c-2": "expired"}


def provider(kind: Wire, wire: BatchWire):
    client = httpx2.AsyncClient(transport=httpx2.MockTransport(wire))
    if kind == "openai":
        return OpenAIProvider("gpt-4o-mini", api_key="test", http_client=client, max_retries=0)
    return AnthropicProvider("claude-haiku-4-5", api_key="test", http_client=client, max_retries=0)


def request(i: int) -> ModelRequest:
    return ModelRequest(system="s", messages=[Message(role="user", text=f"Question {i}?")])


@pytest.mark.parametrize("kind", ["openai", "anthropic"])
async def test_a_batch_is_submitted_polled_and_read_item_by_item(kind: Wire) -> None:
    wire = BatchWire(kind, polls=1, outcome=lambda cid, text: FATE.get(cid, "succeeded"))
    api = batch_api(provider(kind, wire))
    items = [(f"c-{i}", request(i)) for i in range(4)]

    batch_id = await api.submit(items, "answers-k1")
    running = await api.status(batch_id)
    ended = await api.status(batch_id)
    results = await api.results(batch_id, [cid for cid, _ in items] + ["ghost"])

    assert not running.ended and ended.ended
    assert wire.calls["create"] == 1 and wire.submitted == [cid for cid, _ in items]
    if kind == "openai":
        assert wire.calls["upload"] == 1
    good = [results["c-0"], results["c-3"]]
    assert all(isinstance(r, ModelResponse) and r.batch and r.text for r in good)
    assert sum(r.usage.output_tokens for r in good if isinstance(r, ModelResponse)) == 80
    assert isinstance(results["c-1"], BatchFailure) and results["c-1"].kind == "errored"
    assert "scripted server error" in results["c-1"].message
    assert isinstance(results["c-2"], BatchFailure) and results["c-2"].kind == "expired"
    assert isinstance(results["ghost"], BatchFailure) and results["ghost"].kind == "missing"
    assert wire.calls["direct"] == 0


async def test_a_lost_openai_batch_id_is_found_again_by_its_key() -> None:
    wire = BatchWire("openai")
    api = batch_api(provider("openai", wire))
    batch_id = await api.submit([("c-0", request(0))], "answers-lost")
    assert await api.find("answers-lost") == batch_id
    assert await api.find("answers-other") is None


async def test_an_openai_create_whose_reply_was_lost_is_found_not_retried() -> None:
    wire = BatchWire("openai")
    wire.lose_create_reply = True
    client = httpx2.AsyncClient(transport=httpx2.MockTransport(wire))
    openai = OpenAIProvider("gpt-4o-mini", api_key="test", http_client=client, max_retries=3)
    batch_id = await batch_api(openai).submit([("c-0", request(0))], "answers-lost")
    assert batch_id == "batch_1" and wire.calls["create"] == 1 and len(wire.batches) == 1


def test_only_openai_and_anthropic_have_a_batch_interface() -> None:
    from agent.providers.offline import OfflineProvider

    with pytest.raises(InputError, match="has no batch interface"):
        batch_api(OfflineProvider("templates"))

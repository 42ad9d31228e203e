"""A reply the server cut short or garbled is a provider fault (`ProviderError`), never a bug of
ours: the question ends `provider_error`, which a rerun asks again."""

from __future__ import annotations

import json

import httpx2
import pytest

from agent.providers.anthropic import AnthropicProvider
from agent.providers.base import Message, ModelRequest
from agent.providers.openai import OpenAIProvider
from contract.errors import ProviderError
from tests.agent.scripted import Turn, anthropic_body, openai_body

REQUEST = ModelRequest(system="s", messages=[Message(role="user", text="How did ACME move?")])


def provider(kind: str, body: bytes):
    def handle(request: httpx2.Request) -> httpx2.Response:
        return httpx2.Response(200, content=body, headers={"content-type": "application/json"})

    client = httpx2.AsyncClient(transport=httpx2.MockTransport(handle))
    if kind == "openai":
        return OpenAIProvider("gpt-4o-mini", api_key="test", http_client=client, max_retries=0)
    return AnthropicProvider("claude-haiku-4-5", api_key="test", http_client=client, max_retries=0)


def whole(kind: str) -> str:
    turn = Turn(text="ACME rose 2%.")
    return json.dumps(openai_body(turn) if kind == "openai" else anthropic_body(turn))


@pytest.mark.parametrize("kind", ["openai", "anthropic"])
@pytest.mark.parametrize("damage", ["truncated", "not json", "empty object", "wrong shape"])
async def test_a_damaged_200_is_a_provider_error(kind: str, damage: str) -> None:
    body = {
        "truncated": whole(kind)[: len(whole(kind)) // 2],
        "not json": "<html>502 Bad Gateway</html>",
        "empty object": "{}",
        "wrong shape": json.dumps({"choices": "none", "content": 7, "usage": []}),
    }[damage]
    with pytest.raises(ProviderError, match=f"^{kind}: "):
        await provider(kind, body.encode()).complete(REQUEST)

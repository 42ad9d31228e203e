"""Both SDKs' faults reach the loop as one `ProviderError` whose fields say what the provider said:
its HTTP status, the wait its `retry-after` asked for and its own error type. The real SDK
clients, faked at the HTTP transport, retries off so that the first reply is the last."""

from __future__ import annotations

import pickle
from collections.abc import Callable

import httpx2
import pytest

from agent.providers.anthropic import AnthropicProvider
from agent.providers.base import Message, ModelRequest
from agent.providers.openai import OpenAIProvider
from agent.providers.rate_headers import retry_after
from contract.errors import ProviderError

REQUEST = ModelRequest(system="s", messages=[Message(role="user", text="How did ACME move?")])
Handler = Callable[[httpx2.Request], httpx2.Response]


def provider(kind: str, handle: Handler) -> OpenAIProvider | AnthropicProvider:
    client = httpx2.AsyncClient(transport=httpx2.MockTransport(handle))
    if kind == "openai":
        return OpenAIProvider("gpt-4o-mini", api_key="test", http_client=client, max_retries=0)
    return AnthropicProvider("claude-haiku-4-5", api_key="test", http_client=client, max_retries=0)


def error_reply(kind: str, status: int, error_type: str, headers: dict[str, str]) -> Handler:
    """A reply as each provider writes its errors: OpenAI `{"error": {"type", "code"}}`,
    Anthropic `{"type": "error", "error": {"type"}}`."""
    if kind == "openai":
        body = {"error": {"message": "refused", "type": error_type, "param": None, "code": None}}
    else:
        body = {"type": "error", "error": {"type": error_type, "message": "refused"}}

    def handle(request: httpx2.Request) -> httpx2.Response:
        return httpx2.Response(
            status, json=body, headers={"content-type": "application/json", **headers}
        )

    return handle


async def fault(kind: str, handle: Handler) -> ProviderError:
    with pytest.raises(ProviderError) as caught:
        await provider(kind, handle).complete(REQUEST)
    return caught.value


CASES = [
    # kind, status, the provider's type for it, headers, expected retry_after
    ("openai", 429, "rate_limit_exceeded", {"retry-after": "7"}, 7.0),
    ("anthropic", 429, "rate_limit_error", {"retry-after": "7"}, 7.0),
    ("openai", 429, "tokens", {"retry-after-ms": "1500", "retry-after": "9"}, 1.5),
    ("openai", 500, "server_error", {}, None),
    ("anthropic", 500, "api_error", {}, None),
    ("anthropic", 529, "overloaded_error", {"retry-after": "3"}, 3.0),
    ("openai", 401, "invalid_request_error", {}, None),
    ("anthropic", 401, "authentication_error", {}, None),
]


@pytest.mark.parametrize(("kind", "status", "error_type", "headers", "wait"), CASES)
async def test_a_refusal_carries_status_retry_after_and_type(
    kind: str, status: int, error_type: str, headers: dict[str, str], wait: float | None
) -> None:
    error = await fault(kind, error_reply(kind, status, error_type, headers))
    assert (error.status, error.retry_after, error.error_type) == (status, wait, error_type)
    assert error.message.startswith(f"{kind}: HTTP {status}: ")


@pytest.mark.parametrize("kind", ["openai", "anthropic"])
async def test_a_timeout_is_a_provider_error_with_no_status(kind: str) -> None:
    def handle(request: httpx2.Request) -> httpx2.Response:
        raise httpx2.ReadTimeout("read timed out", request=request)

    error = await fault(kind, handle)
    assert error.message == f"{kind}: request timed out (retries exhausted)"
    assert (error.status, error.retry_after, error.error_type) == (None, None, None)


@pytest.mark.parametrize("kind", ["openai", "anthropic"])
async def test_a_refused_connection_names_the_sdk_error(kind: str) -> None:
    def handle(request: httpx2.Request) -> httpx2.Response:
        raise httpx2.ConnectError("connection refused", request=request)

    error = await fault(kind, handle)
    assert error.message.startswith(f"{kind}: APIConnectionError: ")
    assert error.status is None


@pytest.mark.parametrize("kind", ["openai", "anthropic"])
async def test_an_error_without_a_json_body_keeps_its_status(kind: str) -> None:
    def handle(request: httpx2.Request) -> httpx2.Response:
        return httpx2.Response(502, content=b"<html>Bad Gateway</html>")

    error = await fault(kind, handle)
    assert (error.status, error.error_type) == (502, None)


async def test_the_fields_survive_pickling() -> None:
    """A Prefect result or a worker process carries the error across processes."""
    error = await fault("openai", error_reply("openai", 429, "tokens", {"retry-after": "2"}))
    again = pickle.loads(pickle.dumps(error))
    assert (again.message, again.status, again.retry_after, again.error_type) == (
        error.message,
        429,
        2.0,
        "tokens",
    )


def test_a_retry_after_date_is_read_as_seconds_from_now() -> None:
    headers = httpx2.Headers({"retry-after": "Wed, 21 Oct 2015 07:28:10 GMT"})
    assert retry_after(headers, wall_now=1445412480.0) == 10.0
    assert retry_after(httpx2.Headers({"retry-after": "soon"}), wall_now=0.0) is None

"""Chat Completions with tools, through the official async client.

Works with any OpenAI-compatible server (vLLM, Ollama, llama.cpp): the client honours
OPENAI_API_KEY and OPENAI_BASE_URL; with a base URL and no key, a placeholder key is sent.
Retries (429, 5xx, timeouts, honouring Retry-After) are the SDK's; what is left after them
becomes a `ProviderError`. Every reply's rate-limit headers go to the run's limiter
(`rate_headers.py`). A request with a response schema (structured drafting) sends it as a strict
`response_format`, so the server decodes under it.
"""

from __future__ import annotations

import os
from typing import Any

import httpx2
import openai
from openai.types.chat import ChatCompletion

from agent.providers.base import (
    RESPONSE_SCHEMA_NAME,
    FinishReason,
    Message,
    ModelRequest,
    ModelResponse,
)
from agent.providers.faults import SdkErrors, malformed_reply, sdk_faults
from agent.providers.rate_headers import watch_rate_limits
from agent.providers.tokens import estimate_request
from agent.providers.transport import sdk_http_client
from contract import secrets
from contract.errors import InputError, ProviderError
from contract.trace import ToolCall, Usage

SDK_ERRORS = SdkErrors(
    openai.APIStatusError, openai.APITimeoutError, openai.APIError, openai.OpenAIError
)
_FINISH: dict[str, FinishReason] = {
    "stop": "stop",
    "tool_calls": "tool_calls",
    "function_call": "tool_calls",
    "length": "length",
}
_NOT_REPLAYED = ("annotations", "audio")


class OpenAIProvider:
    """The `openai` provider: one Chat Completions request per `complete`."""

    name = "openai"
    rate_limited = True

    def __init__(
        self,
        model: str,
        *,
        api_key: str | None = None,
        base_url: str | None = None,
        http_client: httpx2.AsyncClient | None = None,
        max_retries: int = 3,
        timeout_s: float = 60.0,
        token_param: str = "max_completion_tokens",
        **client_options: Any,
    ) -> None:
        base_url = base_url or os.environ.get("OPENAI_BASE_URL") or None
        if api_key is None and base_url and not os.environ.get("OPENAI_API_KEY"):
            api_key = "unused"
        secrets.register(api_key)
        try:
            self.client = openai.AsyncOpenAI(
                api_key=api_key,
                base_url=base_url,
                http_client=http_client or sdk_http_client(openai.DefaultAsyncHttpxClient),
                max_retries=max_retries,
                timeout=timeout_s,
                **client_options,
            )
        except openai.OpenAIError:
            raise InputError(
                "provider openai needs OPENAI_API_KEY (or OPENAI_BASE_URL for a local server)"
            ) from None
        watch_rate_limits(self.client._client)  # the SDK's client, whichever it is
        self.model = model
        self.token_param = token_param

    def estimate_tokens(self, request: ModelRequest) -> int:
        return estimate_request(request, "openai", self.model)

    async def aclose(self) -> None:
        """Close the client's connections (the night's end)."""
        await self.client.close()

    def body(self, request: ModelRequest) -> dict[str, Any]:
        """The Chat Completions body of `request` (a batch line carries the same)."""
        options: dict[str, Any] = {
            "model": self.model,
            "messages": render_messages(request),
            self.token_param: request.max_output_tokens,
        }
        if request.tools:
            options["tools"] = [_tool(t.model_dump()) for t in request.tools]
        if request.response_schema is not None:
            options["response_format"] = {
                "type": "json_schema",
                "json_schema": {
                    "name": RESPONSE_SCHEMA_NAME,
                    "schema": request.response_schema,
                    "strict": True,
                },
            }
        return options

    async def complete(self, request: ModelRequest) -> ModelResponse:
        async with sdk_faults(SDK_ERRORS, "openai"):
            response = await self.client.post(
                "/chat/completions",
                body=self.body(request),
                cast_to=ChatCompletion,
                options={"security": {"bearer_auth": True}},
            )
        with malformed_reply("openai"):
            return parse_response(response)


def render_messages(request: ModelRequest) -> list[dict[str, Any]]:
    """The neutral history in Chat Completions form, system first."""
    wire: list[dict[str, Any]] = [{"role": "system", "content": request.system}]
    for message in request.messages:
        wire.extend(_render(message))
    return wire


def _render(message: Message) -> list[dict[str, Any]]:
    if message.role == "user":
        return [{"role": "user", "content": message.text or ""}]
    if message.role == "tool":
        return [
            {"role": "tool", "tool_call_id": r.call_id, "content": r.content}
            for r in message.results
        ]
    if isinstance(message.raw, dict):
        return [message.raw]
    calls = [
        {"id": c.id, "type": "function", "function": {"name": c.name, "arguments": c.arguments}}
        for c in message.tool_calls
    ]
    return [
        {"role": "assistant", "content": message.text, **({"tool_calls": calls} if calls else {})}
    ]


def _tool(spec: dict[str, Any]) -> dict[str, Any]:
    return {"type": "function", "function": spec}


def parse_response(response: Any) -> ModelResponse:
    """Text, tool calls, finish reason and usage of the first choice; the message kept raw."""
    if not response.choices:
        raise ProviderError("openai: the response has no choices")
    choice = response.choices[0]
    message = choice.message
    calls = []
    for call in message.tool_calls or []:
        if call.type == "function":
            calls.append(
                ToolCall(id=call.id, name=call.function.name, arguments=call.function.arguments)
            )
        else:
            calls.append(ToolCall(id=call.id, name=call.custom.name, arguments=call.custom.input))
    raw = {k: v for k, v in message.to_dict(exclude_none=True).items() if k not in _NOT_REPLAYED}
    return ModelResponse(
        text=message.content,
        tool_calls=calls,
        finish_reason=_FINISH.get(choice.finish_reason or "", "other"),
        usage=_usage(response.usage),
        raw=raw,
    )


def _usage(usage: Any) -> Usage:
    if usage is None:
        return Usage()
    details = usage.prompt_tokens_details
    cached = (details.cached_tokens or 0) if details is not None else 0
    return Usage(
        input_tokens=usage.prompt_tokens,
        cached_tokens=cached,
        output_tokens=usage.completion_tokens,
    )

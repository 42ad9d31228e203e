"""Messages with tools, through the official async client.

The stable prefix (tools, then system) carries one cache breakpoint, so every round of a
question reads it from the provider's prompt cache. All tool results of a turn go back in
one user message, failures flagged `is_error`. Usage is normalised: `input_tokens` here
counts the whole prompt (uncached + cache writes + cache reads), as it does for OpenAI.
Retries are the SDK's (it sleeps for any Retry-After: the loop's deadline bounds it). Every
reply's rate-limit headers go to the run's limiter (`rate_headers.py`). A request with a response
schema (structured drafting) offers one tool whose input schema it is, and forces its use.
"""

from __future__ import annotations

import json
import os
from typing import Any

import anthropic
import httpx2

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
from contract.errors import InputError
from contract.trace import ToolCall, Usage

SDK_ERRORS = SdkErrors(
    anthropic.APIStatusError,
    anthropic.APITimeoutError,
    anthropic.APIError,
    anthropic.AnthropicError,
)
_FINISH: dict[str, FinishReason] = {
    "end_turn": "stop",
    "stop_sequence": "stop",
    "tool_use": "tool_calls",
    "max_tokens": "length",
    "model_context_window_exceeded": "length",
}
_CACHE = {"type": "ephemeral"}
_SCHEMA_TOOL = "Reply with the facts that answer the question, most important first."


class AnthropicProvider:
    """The `anthropic` provider: one Messages request per `complete`."""

    name = "anthropic"
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
        **client_options: Any,
    ) -> None:
        api_key = api_key or os.environ.get("ANTHROPIC_API_KEY")
        secrets.register(api_key)
        if not api_key:
            raise InputError("provider anthropic needs ANTHROPIC_API_KEY")
        self.client = anthropic.AsyncAnthropic(
            api_key=api_key,
            base_url=base_url or os.environ.get("ANTHROPIC_BASE_URL") or None,
            http_client=http_client or sdk_http_client(anthropic.DefaultAsyncHttpxClient),
            max_retries=max_retries,
            timeout=timeout_s,
            **client_options,
        )
        watch_rate_limits(self.client._client)  # the SDK's client, whichever it is
        self.model = model

    def estimate_tokens(self, request: ModelRequest) -> int:
        return estimate_request(request, "anthropic", self.model)

    async def aclose(self) -> None:
        """Close the client's connections (the night's end)."""
        await self.client.close()

    def body(self, request: ModelRequest) -> dict[str, Any]:
        """The Messages parameters of `request` (a batch request carries the same)."""
        options: dict[str, Any] = {
            "model": self.model,
            "max_tokens": request.max_output_tokens,
            "system": [{"type": "text", "text": request.system, "cache_control": _CACHE}],
            "messages": render_messages(request),
        }
        if request.tools:
            options["tools"] = [
                {"name": t.name, "description": t.description, "input_schema": t.parameters}
                for t in request.tools
            ]
        if request.response_schema is not None:
            options["tools"] = [
                {
                    "name": RESPONSE_SCHEMA_NAME,
                    "description": _SCHEMA_TOOL,
                    "input_schema": request.response_schema,
                }
            ]
            options["tool_choice"] = {"type": "tool", "name": RESPONSE_SCHEMA_NAME}
        return options

    async def complete(self, request: ModelRequest) -> ModelResponse:
        async with sdk_faults(SDK_ERRORS, "anthropic"):
            response = await self.client.messages.create(**self.body(request))
        with malformed_reply("anthropic"):
            return parse_response(response)


def render_messages(request: ModelRequest) -> list[dict[str, Any]]:
    """The neutral history as Messages turns."""
    return [_render(m) for m in request.messages]


def _render(message: Message) -> dict[str, Any]:
    if message.role == "user":
        return {"role": "user", "content": message.text or ""}
    if message.role == "tool":
        results = [
            {
                "type": "tool_result",
                "tool_use_id": r.call_id,
                "content": r.content,
                "is_error": r.is_error,
            }
            for r in message.results
        ]
        return {"role": "user", "content": results}
    if isinstance(message.raw, list):
        return {"role": "assistant", "content": message.raw}
    blocks: list[dict[str, Any]] = [{"type": "text", "text": message.text}] if message.text else []
    blocks += [
        {"type": "tool_use", "id": c.id, "name": c.name, "input": _input(c.arguments)}
        for c in message.tool_calls
    ]
    return {"role": "assistant", "content": blocks}


def _finish(stop_reason: str | None, chosen: bool) -> FinishReason:
    finish = _FINISH.get(stop_reason or "", "other")
    return "stop" if chosen and finish == "tool_calls" else finish


def _input(arguments: str) -> Any:
    try:
        return json.loads(arguments)
    except ValueError:
        return {}


def parse_response(response: Any) -> ModelResponse:
    """Text blocks joined, tool_use blocks as calls (input re-serialised), usage normalised.
    The forced use of the schema tool (structured drafting) is the reply itself: its input, as
    JSON text, is the whole text, and the turn ends as a stop."""
    chosen = [
        b for b in response.content if b.type == "tool_use" and b.name == RESPONSE_SCHEMA_NAME
    ]
    if chosen:
        texts = [json.dumps(chosen[0].input, ensure_ascii=False)]
    else:
        texts = [b.text for b in response.content if b.type == "text"]
    calls = [
        ToolCall(id=b.id, name=b.name, arguments=json.dumps(b.input, ensure_ascii=False))
        for b in response.content
        if b.type == "tool_use" and not chosen
    ]
    usage = response.usage
    written = usage.cache_creation_input_tokens or 0
    read = usage.cache_read_input_tokens or 0
    return ModelResponse(
        text="".join(texts) if texts else None,
        tool_calls=calls,
        finish_reason=_finish(response.stop_reason, bool(chosen)),
        usage=Usage(
            input_tokens=usage.input_tokens + written + read,
            cached_tokens=read,
            output_tokens=usage.output_tokens,
            cache_write_tokens=written,
        ),
        raw=[b.to_dict() for b in response.content],
    )

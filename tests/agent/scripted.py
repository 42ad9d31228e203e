"""Scenario scripts in one neutral form, played on the OpenAI or the Anthropic wire.

A script is a list of steps, one per HTTP request the SDK sends: a `Turn` (text and/or
tool calls, finish, usage) or a `Fault` (an HTTP status with retry-after-ms, or a read
timeout). `wire(kind, script)` returns an httpx2 transport handler that answers each
request with the next step rendered in that wire format, and a log of what was sent.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from typing import Any, Literal

import httpx2

Wire = Literal["openai", "anthropic"]


@dataclass(frozen=True)
class Call:
    id: str
    name: str
    arguments: str

    @classmethod
    def of(cls, id: str, name: str, **args: Any) -> Call:
        return cls(id, name, json.dumps(args))


@dataclass(frozen=True)
class Turn:
    text: str | None = None
    calls: tuple[Call, ...] = ()
    finish: Literal["stop", "tool_calls", "length"] | None = None
    input_tokens: int = 120
    cached_tokens: int = 0
    output_tokens: int = 20

    @property
    def finish_reason(self) -> str:
        return self.finish or ("tool_calls" if self.calls else "stop")


@dataclass(frozen=True)
class Fault:
    status: int = 500
    retry_after_ms: int | None = None
    timeout: bool = False


Step = Turn | Fault


@dataclass
class Exchange:
    """One request as the SDK sent it, with when it arrived (perf_counter seconds)."""

    at: float
    body: dict[str, Any]
    headers: dict[str, str]


@dataclass
class Log:
    requests: list[Exchange] = field(default_factory=list)

    def __len__(self) -> int:
        return len(self.requests)


def wire(kind: Wire, script: list[Step]) -> tuple[Any, Log]:
    """A MockTransport handler playing `script` in the `kind` wire format, and its request log."""
    log = Log()
    steps = iter(script)

    def handler(request: httpx2.Request) -> httpx2.Response:
        log.requests.append(
            Exchange(time.perf_counter(), json.loads(request.content), dict(request.headers))
        )
        step = next(steps, None)
        if step is None:
            return httpx2.Response(
                400, json=_error(kind, "invalid_request_error", "script exhausted")
            )
        if isinstance(step, Fault):
            return _fault(kind, step, request)
        body = openai_body(step) if kind == "openai" else anthropic_body(step)
        return httpx2.Response(200, json=body)

    return handler, log


def _fault(kind: Wire, fault: Fault, request: httpx2.Request) -> httpx2.Response:
    if fault.timeout:
        raise httpx2.ReadTimeout("scripted read timeout", request=request)
    headers = {} if fault.retry_after_ms is None else {"retry-after-ms": str(fault.retry_after_ms)}
    code = "rate_limit_error" if fault.status == 429 else "api_error"
    return httpx2.Response(
        fault.status, json=_error(kind, code, f"scripted {fault.status}"), headers=headers
    )


def _error(kind: Wire, code: str, message: str) -> dict[str, Any]:
    if kind == "openai":
        return {"error": {"message": message, "type": code, "param": None, "code": None}}
    return {"type": "error", "error": {"type": code, "message": message}}


def openai_body(turn: Turn) -> dict[str, Any]:
    message: dict[str, Any] = {"role": "assistant", "content": turn.text, "refusal": None}
    if turn.calls:
        message["tool_calls"] = [
            {"id": c.id, "type": "function", "function": {"name": c.name, "arguments": c.arguments}}
            for c in turn.calls
        ]
    return {
        "id": "chatcmpl-scripted",
        "object": "chat.completion",
        "created": 1_750_000_000,
        "model": "scripted",
        "choices": [
            {"index": 0, "message": message, "finish_reason": turn.finish_reason, "logprobs": None}
        ],
        "usage": {
            "prompt_tokens": turn.input_tokens,
            "completion_tokens": turn.output_tokens,
            "total_tokens": turn.input_tokens + turn.output_tokens,
            "prompt_tokens_details": {"cached_tokens": turn.cached_tokens},
        },
    }


_STOP = {"stop": "end_turn", "tool_calls": "tool_use", "length": "max_tokens"}


def anthropic_body(turn: Turn) -> dict[str, Any]:
    """Messages carry tool input as a JSON object, so every scripted call must parse."""
    content: list[dict[str, Any]] = [{"type": "text", "text": turn.text}] if turn.text else []
    content += [
        {"type": "tool_use", "id": c.id, "name": c.name, "input": json.loads(c.arguments)}
        for c in turn.calls
    ]
    return {
        "id": "msg_scripted",
        "type": "message",
        "role": "assistant",
        "model": "scripted",
        "content": content,
        "stop_reason": _STOP[turn.finish_reason],
        "stop_sequence": None,
        "usage": {
            "input_tokens": turn.input_tokens - turn.cached_tokens,
            "output_tokens": turn.output_tokens,
            "cache_creation_input_tokens": 0,
            "cache_read_input_tokens": turn.cached_tokens,
        },
    }


def tool_results(kind: Wire, body: dict[str, Any]) -> list[dict[str, Any]]:
    """The tool results a request sends back, as (call id, content, is_error), in order."""
    found: list[dict[str, Any]] = []
    for message in body["messages"]:
        if kind == "openai" and message["role"] == "tool":
            content = json.loads(message["content"])
            found.append(
                {"id": message["tool_call_id"], "content": content, "is_error": "error" in content}
            )
        if (
            kind == "anthropic"
            and message["role"] == "user"
            and isinstance(message["content"], list)
        ):
            for block in message["content"]:
                found.append(
                    {
                        "id": block["tool_use_id"],
                        "content": json.loads(block["content"]),
                        "is_error": block["is_error"],
                    }
                )
    return found

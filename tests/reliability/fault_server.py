"""An OpenAI-compatible server on loopback that misbehaves on purpose.

Each request draws one outcome from a seeded generator: at `rate` a fault (429, 500, a reset
connection, a reply slower than the client's timeout, a 200 cut short, a huge reply, inflated,
negative or missing usage, a 401 that echoes the key, a malformed tool call), otherwise a
faithful draft from the tool results the request carries, like the offline provider's.
"""

from __future__ import annotations

import json
import random
import threading
import time
from collections import Counter
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from agent.prompts import parse_language, parse_results
from agent.providers.offline import draft_text

FAULTS = (
    "429",
    "500",
    "reset",
    "slow",
    "truncated",
    "huge",
    "inflated_usage",
    "negative_usage",
    "missing_usage",
    "echo_key_401",
    "malformed_tool_call",
)


class FaultServer:
    """Serves until `close()`; `drawn` counts what each request got, `served` the replies
    with usage written whole and the tokens they reported."""

    def __init__(self, *, rate: float, seed: int, slow_s: float = 3.0) -> None:
        self.rate, self.slow_s = rate, slow_s
        self.random = random.Random(seed)
        self.lock = threading.Lock()
        self.drawn: Counter[str] = Counter()
        self.served: Counter[str] = Counter()
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:  # quiet
                pass

            def do_POST(self) -> None:
                length = int(self.headers.get("content-length", 0))
                body = json.loads(self.rfile.read(length) or b"{}")
                outer.answer(self, body)

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()

    @property
    def requests(self) -> int:
        """Requests answered or being answered so far."""
        with self.lock:
            return sum(self.drawn.values())

    def draw(self) -> str:
        with self.lock:
            outcome = self.random.choice(FAULTS) if self.random.random() < self.rate else "ok"
            self.drawn[outcome] += 1
            return outcome

    def answer(self, handler: BaseHTTPRequestHandler, body: dict[str, Any]) -> None:
        outcome = self.draw()
        text = "".join(
            m["content"] if isinstance(m.get("content"), str) else ""
            for m in body.get("messages", [])
            if m.get("role") == "user"
        )
        draft = draft_text(parse_results(text) or [], parse_language(text))
        usage = {
            "prompt_tokens": len(json.dumps(body)) // 4,
            "completion_tokens": len(draft) // 4 + 1,
        }
        message: dict[str, Any] = {"role": "assistant", "content": draft}
        if outcome == "429":
            return send(handler, 429, error("rate limited"), {"retry-after-ms": "5"})
        if outcome == "500":
            return send(handler, 500, error("internal"))
        if outcome == "reset":
            handler.close_connection = True
            handler.connection.close()
            return None
        if outcome == "slow":
            time.sleep(self.slow_s)
        if outcome == "echo_key_401":
            key = handler.headers.get("authorization", "").removeprefix("Bearer ")
            return send(handler, 401, error(f"Incorrect API key provided: {key}"))
        if outcome == "huge":
            message["content"] = draft + " " + "x" * 2_000_000
            usage["completion_tokens"] = 500_000
        if outcome == "inflated_usage":
            usage = {"prompt_tokens": 5_000_000, "completion_tokens": 5_000_000}
        if outcome == "negative_usage":
            usage["prompt_tokens"] = -6_569_714
        if outcome == "malformed_tool_call":
            message["tool_calls"] = [
                {
                    "id": "c1",
                    "type": "function",
                    "function": {"name": "get_price", "arguments": "{not json"},
                }
            ]
        reply: dict[str, Any] = {
            "id": "chatcmpl-fault",
            "object": "chat.completion",
            "created": 0,
            "model": body.get("model", "m"),
            "choices": [{"index": 0, "message": message, "finish_reason": "stop"}],
        }
        if outcome != "missing_usage":
            reply["usage"] = {**usage, "total_tokens": sum(usage.values())}
        data = json.dumps(reply).encode()
        if outcome == "truncated":
            data = data[: len(data) // 2]
        if send_bytes(handler, 200, data) and "usage" in reply and outcome != "truncated":
            with self.lock:
                self.served["calls"] += 1
                self.served["tokens"] += reply["usage"]["total_tokens"]
        return None


def error(message: str) -> dict[str, Any]:
    return {"error": {"message": message, "type": "fault", "param": None, "code": None}}


def send(
    handler: BaseHTTPRequestHandler, status: int, body: Any, headers: dict[str, str] | None = None
) -> None:
    send_bytes(handler, status, json.dumps(body).encode(), headers)


def send_bytes(
    handler: BaseHTTPRequestHandler, status: int, data: bytes, headers: dict[str, str] | None = None
) -> bool:
    """Whether the whole reply was written."""
    try:
        handler.send_response(status)
        handler.send_header("content-type", "application/json")
        handler.send_header("content-length", str(len(data)))
        for name, value in (headers or {}).items():
            handler.send_header(name, value)
        handler.end_headers()
        handler.wfile.write(data)
        handler.wfile.flush()
    except (BrokenPipeError, ConnectionResetError):  # the client gave up first (its timeout)
        return False
    return True

"""A scripted OpenAI-compatible Chat Completions server on loopback, for benchmarks.

One asyncio process, HTTP/1.1 with keep-alive, a fixed latency per reply. It answers like a
model that always picks the right tools and copies their figures faithfully:

- a request whose user message carries a tool results block (`RESULTS_MARKER`: plan-mode
  drafts, summaries) gets a draft written from those results, as the offline provider does;
- a request that offers tools and has no tool turn yet gets the tool calls its question needs:
  the question is found by rendering every spec of the question set for the ticker, date and
  portfolio of the context line (`Ticker: X. As-of date: D. Portfolio: P.`) and looking for its
  text in the message; only tools the request offers are called;
- a request with tool turns gets a draft from their results.

It also plays the Batch API: `POST /v1/files` (the JSONL input), `POST /v1/batches`, `GET
/v1/batches[/{id}]`, `POST /v1/batches/{id}/cancel`, `GET /v1/files/{id}/content`. A batch
answers every line as the direct endpoint would, one latency after it was created, then reads
`completed` with an output file.

`GET /stats` returns what was served since the last `POST /reset` (HTTP requests; model
requests, direct and batch items apart; prompt and completion tokens counted with the OpenAI
tokenizer over the messages and tool schemas, the most requests in flight at once). Run: `python -m tests.bench.fake_model --latency-ms 100`;
it prints `PORT <n>` once it listens.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import re
from collections import Counter
from dataclasses import dataclass, field
from datetime import date
from functools import lru_cache
from typing import Any

from agent.prompts import parse_language, parse_results
from agent.providers.offline import draft_text
from agent.providers.tokens import count_text
from agent.questions import QuestionSet, load_question_set, render_question

TOKENIZER_MODEL = "gpt-4o"
_CONTEXT = re.compile(
    r"Ticker: (?P<ticker>[\w.-]+)\. (?:As-of date|Fecha de referencia): "
    r"(?P<date>\d{4}-\d{2}-\d{2})\.(?: (?:Portfolio|Cartera): (?P<portfolio>[\w.-]+)\.)?"
)


@dataclass
class ServedStats:
    """What the server answered since the last reset."""

    requests: int = 0
    http_requests: int = 0
    batches: int = 0
    batch_items: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    tool_schema_tokens: int = 0
    replies: Counter[str] = field(default_factory=Counter)
    in_flight: int = 0
    max_in_flight: int = 0

    def as_json(self) -> dict[str, Any]:
        return {
            "requests": self.requests,
            "http_requests": self.http_requests,
            "batches": self.batches,
            "batch_items": self.batch_items,
            "prompt_tokens": self.prompt_tokens,
            "completion_tokens": self.completion_tokens,
            "total_tokens": self.prompt_tokens + self.completion_tokens,
            "tool_schema_tokens": self.tool_schema_tokens,
            "replies": dict(self.replies),
            "max_in_flight": self.max_in_flight,
        }


@dataclass
class Reply:
    """One scripted assistant turn: tool calls, or a draft."""

    kind: str
    message: dict[str, Any]
    finish_reason: str
    completion_text: str


def user_text(messages: list[dict[str, Any]]) -> str:
    """The text of every user message, whether sent as a string or as content parts."""
    parts: list[str] = []
    for message in messages:
        if message.get("role") != "user":
            continue
        content = message.get("content")
        if isinstance(content, str):
            parts.append(content)
        elif isinstance(content, list):
            parts.extend(str(p.get("text", "")) for p in content if isinstance(p, dict))
    return "\n\n".join(parts)


def planned_calls(text: str, qset: QuestionSet, offered: set[str]) -> list[dict[str, Any]]:
    """The calls the question in `text` needs (its spec's plan), among the offered tools."""
    context = _CONTEXT.search(text)
    if context is None:
        return []
    as_of = date.fromisoformat(context["date"])
    language = parse_language(text)
    for spec in qset.questions:
        portfolio = context["portfolio"] if spec.scope == "portfolio" else None
        if spec.scope == "portfolio" and not portfolio:
            continue
        question = render_question(spec, context["ticker"], as_of, language, portfolio)
        if question.text in text:
            return [
                {"name": c.tool, "arguments": json.dumps(c.args)}
                for c in question.plan
                if c.tool in offered
            ]
    return []


def history_results(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The tool turns of a conversation as drafting entries: tool, args, result or error."""
    calls = {
        call["id"]: call["function"]
        for m in messages
        if m.get("role") == "assistant"
        for call in m.get("tool_calls") or []
    }
    entries: list[dict[str, Any]] = []
    for message in messages:
        if message.get("role") != "tool":
            continue
        function = calls.get(message.get("tool_call_id"), {})
        name = function.get("name", "")
        try:
            args = json.loads(function.get("arguments") or "{}")
            payload = json.loads(message.get("content") or "null")
        except ValueError:
            entries.append({"tool": name, "error": message.get("content")})
            continue
        if not isinstance(payload, dict) or set(payload) == {"error"}:
            entries.append({"tool": name, "args": args, "error": str(payload)})
        else:
            entries.append({"tool": name, "args": args, "result": payload})
    return entries


def script_reply(body: dict[str, Any], qset: QuestionSet, step: int) -> Reply:
    """What a faithful model answers to one Chat Completions request."""
    messages = body.get("messages") or []
    text = user_text(messages)
    results = parse_results(text)
    if results is None:
        offered = {t["function"]["name"] for t in body.get("tools") or [] if "function" in t}
        if offered and not any(m.get("role") == "tool" for m in messages):
            calls = planned_calls(text, qset, offered)
            if calls:
                wire = [
                    {"id": f"call_{step}_{i}", "type": "function", "function": call}
                    for i, call in enumerate(calls, 1)
                ]
                message = {"role": "assistant", "content": None, "tool_calls": wire}
                spoken = "".join(c["name"] + c["arguments"] for c in calls)
                return Reply("tool_calls", message, "tool_calls", spoken)
        results = history_results(messages)
    draft = draft_text(results, parse_language(text))
    return Reply("draft", {"role": "assistant", "content": draft}, "stop", draft)


@lru_cache(maxsize=8192)
def tokens_of(text: str) -> int:
    """Tokens of one piece of a request; system prompts and tool schemas repeat, so cached."""
    return count_text(text, TOKENIZER_MODEL) if text else 0


def prompt_tokens(body: dict[str, Any]) -> tuple[int, int]:
    """Tokens of the messages and of the tool schemas a request sends (tiktoken)."""
    total = 0
    for message in body.get("messages") or []:
        content = message.get("content")
        total += tokens_of(content if isinstance(content, str) else json.dumps(content or ""))
        for call in message.get("tool_calls") or []:
            total += tokens_of(call["function"]["name"] + call["function"]["arguments"])
    tools = body.get("tools")
    schema = tokens_of(json.dumps(tools, separators=(",", ":"))) if tools else 0
    return total + schema, schema


class ScriptedModelServer:
    """Serves scripted replies after `latency_s`; `stats` counts them."""

    def __init__(self, latency_s: float, qset: QuestionSet | None = None) -> None:
        self.latency_s = latency_s
        self.qset = qset or load_question_set()
        self.stats = ServedStats()
        self.server: asyncio.Server | None = None
        self.files: dict[str, bytes] = {}
        self.batches: dict[str, dict[str, Any]] = {}
        self.running: set[asyncio.Task[None]] = set()

    async def start(self, port: int = 0) -> int:
        self.server = await asyncio.start_server(self.serve_connection, "127.0.0.1", port)
        return int(self.server.sockets[0].getsockname()[1])

    async def serve_connection(
        self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter
    ) -> None:
        try:
            while True:
                head = await reader.readuntil(b"\r\n\r\n")
                lines = head.decode("latin-1").split("\r\n")
                method, path, _ = lines[0].split(" ", 2)
                headers = {
                    k.strip().lower(): v.strip()
                    for k, v in (line.split(":", 1) for line in lines[1:] if ":" in line)
                }
                body = await reader.readexactly(int(headers.get("content-length", "0")))
                self.stats.http_requests += 1
                status, payload = await self.route(method, path.split("?")[0], body)
                data = payload if isinstance(payload, bytes) else json.dumps(payload).encode()
                writer.write(
                    f"HTTP/1.1 {status} OK\r\ncontent-type: application/json\r\n"
                    f"content-length: {len(data)}\r\n\r\n".encode()
                    + data
                )
                await writer.drain()
                if headers.get("connection", "").lower() == "close":
                    break
        except (asyncio.IncompleteReadError, ConnectionError, asyncio.LimitOverrunError):
            pass
        finally:
            writer.close()

    async def route(
        self, method: str, path: str, body: bytes
    ) -> tuple[int, dict[str, Any] | bytes]:
        if "/files" in path or "/batches" in path:
            return await self.route_batch(method, path, body)
        if method == "GET" and path.endswith("/stats"):
            return 200, self.stats.as_json()
        if method == "POST" and path.endswith("/reset"):
            self.stats = ServedStats()
            return 200, {"reset": True}
        if method == "POST" and path.endswith("/chat/completions"):
            return 200, await self.complete(json.loads(body or b"{}"))
        return 404, {"error": {"message": f"no route {method} {path}", "type": "not_found"}}

    async def route_batch(
        self, method: str, path: str, body: bytes
    ) -> tuple[int, dict[str, Any] | bytes]:
        """The Batch API: upload, create, retrieve, list, cancel, file content."""
        parts = path.rstrip("/").split("/")
        if method == "POST" and parts[-1] == "files":
            file_id = f"file-{len(self.files) + 1}"
            lines = [x for x in body.splitlines() if x.startswith(b'{"custom_id"')]
            self.files[file_id] = b"\n".join(lines)
            return 200, {
                "id": file_id,
                "object": "file",
                "bytes": len(body),
                "created_at": 0,
                "filename": "batch.jsonl",
                "purpose": "batch",
                "status": "processed",
            }
        if method == "POST" and parts[-1] == "batches":
            request = json.loads(body)
            batch_id = f"batch_{len(self.batches) + 1}"
            lines = self.files[request["input_file_id"]].splitlines()
            self.batches[batch_id] = {
                "id": batch_id,
                "object": "batch",
                "endpoint": request["endpoint"],
                "input_file_id": request["input_file_id"],
                "completion_window": request["completion_window"],
                "status": "in_progress",
                "created_at": 0,
                "metadata": request.get("metadata"),
                "request_counts": {"total": len(lines), "completed": 0, "failed": 0},
            }
            self.stats.batches += 1
            task = asyncio.create_task(self.run_batch(batch_id, lines))
            self.running.add(task)
            task.add_done_callback(self.running.discard)
            return 200, self.batches[batch_id]
        if method == "GET" and parts[-1] == "batches":
            return 200, {"object": "list", "data": list(self.batches.values()), "has_more": False}
        if parts[-2] == "batches" and parts[-1] in self.batches and method == "GET":
            return 200, self.batches[parts[-1]]
        if parts[-1] == "cancel" and parts[-2] in self.batches:
            self.batches[parts[-2]]["status"] = "cancelled"
            return 200, self.batches[parts[-2]]
        if parts[-1] == "content" and parts[-2] in self.files:
            return 200, self.files[parts[-2]]
        return 404, {"error": {"message": f"no route {method} {path}", "type": "not_found"}}

    async def run_batch(self, batch_id: str, lines: list[bytes]) -> None:
        """Answer every line as the direct endpoint would, then end the batch `completed`."""
        await asyncio.sleep(self.latency_s)
        out = []
        for raw in lines:
            line = json.loads(raw)
            self.stats.batch_items += 1
            reply = self.reply(line["body"], self.stats.requests + self.stats.batch_items)
            response = {"status_code": 200, "request_id": line["custom_id"], "body": reply}
            out.append(json.dumps({"id": line["custom_id"], "custom_id": line["custom_id"],
                                   "response": response, "error": None}))  # fmt: skip
        file_id = f"file-out-{batch_id}"
        self.files[file_id] = "\n".join(out).encode()
        batch = self.batches[batch_id]
        if batch["status"] == "cancelled":
            return
        batch.update(status="completed", output_file_id=file_id)
        batch["request_counts"]["completed"] = len(lines)

    def reply(self, body: dict[str, Any], step: int) -> dict[str, Any]:
        """One Chat Completions reply with its usage, counted in the stats (no latency)."""
        stats = self.stats
        reply = script_reply(body, self.qset, step)
        prompt, schema = prompt_tokens(body)
        completion = tokens_of(reply.completion_text)
        stats.prompt_tokens += prompt
        stats.completion_tokens += completion
        stats.tool_schema_tokens += schema
        stats.replies[reply.kind] += 1
        return chat_completion(body, step, reply, prompt, completion)

    async def complete(self, body: dict[str, Any]) -> dict[str, Any]:
        stats = self.stats
        stats.requests += 1
        stats.in_flight += 1
        stats.max_in_flight = max(stats.max_in_flight, stats.in_flight)
        try:
            answer = self.reply(body, stats.requests)
            await asyncio.sleep(self.latency_s)
        finally:
            stats.in_flight -= 1
        return answer


def chat_completion(
    body: dict[str, Any], step: int, reply: Reply, prompt: int, completion: int
) -> dict[str, Any]:
    return {
        "id": f"chatcmpl-{step}",
        "object": "chat.completion",
        "created": 0,
        "model": body.get("model", "scripted"),
        "choices": [{"index": 0, "message": reply.message, "finish_reason": reply.finish_reason}],
        "usage": {
            "prompt_tokens": prompt,
            "completion_tokens": completion,
            "total_tokens": prompt + completion,
        },
    }


async def serve(latency_s: float, port: int) -> None:
    server = ScriptedModelServer(latency_s)
    bound = await server.start(port)
    print(f"PORT {bound}", flush=True)
    assert server.server is not None
    async with server.server:
        await server.server.serve_forever()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--latency-ms", type=float, default=100.0)
    parser.add_argument("--port", type=int, default=0)
    opts = parser.parse_args()
    asyncio.run(serve(opts.latency_ms / 1000, opts.port))


if __name__ == "__main__":
    main()

"""A scripted provider that plays the batch endpoints of the OpenAI or the Anthropic wire.

OpenAI: file upload (multipart JSONL), batch create, retrieve (`in_progress` for the first
`polls` looks, then `completed` with an output and an error file), file content, list, cancel.
Anthropic: message batch create, retrieve (`in_progress`, then `ended` with a results URL),
results (JSONL), cancel. Both also answer direct calls (`/chat/completions`, `/messages`), the
fallback path. Every draft is written from the tool results its request carries, as the
offline provider writes them, so the verifier accepts it; `outcome(custom_id, text)` says which
items succeed, error or expire. `calls` counts each endpoint, so a test sees what was submitted.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Callable
from typing import Any, Literal

import httpx2

from agent.prompts import parse_language, parse_results
from agent.providers.offline import draft_text
from tests.agent.scripted import Turn, Wire, anthropic_body, openai_body

Outcome = Literal["succeeded", "errored", "expired"]
CREATED = "2026-01-01T00:00:00Z"


def draft_turn(text: str, body_size: int) -> Turn:
    draft = draft_text(parse_results(text) or [], parse_language(text))
    prompt = body_size // 4
    return Turn(text=draft, input_tokens=prompt, cached_tokens=prompt // 4, output_tokens=40)


def user_text(kind: Wire, body: dict[str, Any]) -> str:
    message = next(m for m in body["messages"] if m["role"] == "user")
    content = message["content"]
    if isinstance(content, str):
        return content
    return "".join(block.get("text", "") for block in content)


class BatchWire:
    """The transport handler; `polls` looks at a batch find it still running."""

    def __init__(
        self,
        kind: Wire,
        *,
        polls: int = 1,
        outcome: Callable[[str, str], Outcome] = lambda cid, text: "succeeded",
        on_poll: Callable[[], None] | None = None,
    ) -> None:
        self.kind = kind
        self.polls = polls
        self.outcome = outcome
        self.on_poll = on_poll
        self.calls: Counter[str] = Counter()
        self.batches: dict[str, dict[str, Any]] = {}
        self.files: dict[str, str] = {}
        self.looks: Counter[str] = Counter()
        self.submitted: list[str] = []
        """custom_ids in submission order: one that appears twice was paid for twice."""
        self.lose_create_reply = False
        """Create the next batch, then answer 500 as if the reply was lost on the way."""
        self.usage = Counter[str]()
        """Tokens of every reply served, batch or direct: what the provider bills once."""

    def __call__(self, request: httpx2.Request) -> httpx2.Response:
        path, method = request.url.path, request.method
        if self.kind == "openai":
            return self.openai(method, path, request)
        return self.anthropic(method, path, request)

    # -- OpenAI -------------------------------------------------------------------------
    def openai(self, method: str, path: str, request: httpx2.Request) -> httpx2.Response:
        if method == "POST" and path.endswith("/chat/completions"):
            self.calls["direct"] += 1
            body = json.loads(request.content)
            turn = draft_turn(user_text("openai", body), len(request.content))
            self.count(turn)
            return httpx2.Response(200, json=openai_body(turn))
        if method == "POST" and path.endswith("/files"):
            self.calls["upload"] += 1
            content = request.read().decode()
            lines = [x for x in content.splitlines() if x.startswith('{"custom_id"')]
            file_id = f"file-in-{len(self.files) + 1}"
            self.files[file_id] = "\n".join(lines)
            return httpx2.Response(200, json=self.file_object(file_id))
        if method == "POST" and path.endswith("/batches"):
            self.calls["create"] += 1
            body = json.loads(request.content)
            batch_id = f"batch_{len(self.batches) + 1}"
            lines = [json.loads(x) for x in self.files[body["input_file_id"]].splitlines()]
            self.submitted += [x["custom_id"] for x in lines]
            self.batches[batch_id] = {"lines": lines, "metadata": body.get("metadata")}
            if self.lose_create_reply:
                self.lose_create_reply = False
                return httpx2.Response(500, json={"error": {"message": "lost", "type": "server"}})
            return httpx2.Response(200, json=self.openai_batch(batch_id, "validating"))
        if method == "GET" and path.endswith("/batches"):
            self.calls["list"] += 1
            data = [self.openai_batch(b, "in_progress") for b in self.batches]
            return httpx2.Response(200, json={"object": "list", "data": data, "has_more": False})
        match = re.search(r"/batches/([\w-]+)(/cancel)?$", path)
        if match:
            batch_id = match.group(1)
            if match.group(2):
                self.calls["cancel"] += 1
                return httpx2.Response(200, json=self.openai_batch(batch_id, "cancelling"))
            self.calls["retrieve"] += 1
            return httpx2.Response(200, json=self.openai_batch(batch_id, self.look(batch_id)))
        match = re.search(r"/files/([\w-]+)/content$", path)
        if match:
            self.calls["content"] += 1
            return httpx2.Response(200, content=self.files[match.group(1)].encode())
        return httpx2.Response(404, json={"error": {"message": f"no route {method} {path}"}})

    def look(self, batch_id: str) -> str:
        self.looks[batch_id] += 1
        if self.on_poll is not None:
            self.on_poll()
        return "in_progress" if self.looks[batch_id] <= self.polls else "completed"

    def file_object(self, file_id: str) -> dict[str, Any]:
        return {
            "id": file_id,
            "object": "file",
            "bytes": len(self.files[file_id]),
            "created_at": 1_750_000_000,
            "filename": "batch.jsonl",
            "purpose": "batch",
            "status": "processed",
        }

    def openai_batch(self, batch_id: str, status: str) -> dict[str, Any]:
        batch = self.batches[batch_id]
        total = len(batch["lines"])
        body: dict[str, Any] = {
            "id": batch_id,
            "object": "batch",
            "endpoint": "/v1/chat/completions",
            "input_file_id": "file-in",
            "completion_window": "24h",
            "status": status,
            "created_at": 1_750_000_000,
            "metadata": batch["metadata"],
            "request_counts": {"total": total, "completed": 0, "failed": 0},
        }
        if status == "completed":
            done, failed = self.openai_results(batch_id)
            body["request_counts"] = {"total": total, "completed": done, "failed": failed}
            body["output_file_id"] = f"file-out-{batch_id}"
            body["error_file_id"] = f"file-err-{batch_id}"
        return body

    def openai_results(self, batch_id: str) -> tuple[int, int]:
        """Write the batch's output and error files (once); (succeeded, failed)."""
        out, err = f"file-out-{batch_id}", f"file-err-{batch_id}"
        if out not in self.files:
            good, bad = [], []
            for line in self.batches[batch_id]["lines"]:
                cid, body = line["custom_id"], line["body"]
                text = user_text("openai", body)
                verdict = self.outcome(cid, text)
                if verdict == "succeeded":
                    turn = draft_turn(text, len(json.dumps(body)))
                    self.count(turn)
                    reply = {"status_code": 200, "request_id": "r", "body": openai_body(turn)}
                    good.append({"id": f"req-{cid}", "custom_id": cid, "response": reply})
                elif verdict == "errored":
                    error = {"error": {"message": "scripted server error", "type": "server"}}
                    reply = {"status_code": 500, "request_id": "r", "body": error}
                    bad.append({"id": f"req-{cid}", "custom_id": cid, "response": reply})
                else:
                    expired = {"code": "batch_expired", "message": "not run within 24h"}
                    bad.append({"id": f"req-{cid}", "custom_id": cid, "error": expired})
            self.files[out] = "\n".join(json.dumps(x) for x in good)
            self.files[err] = "\n".join(json.dumps(x) for x in bad)
        return len(self.files[out].splitlines()), len(self.files[err].splitlines())

    # -- Anthropic ------------------------------------------------------------------------
    def anthropic(self, method: str, path: str, request: httpx2.Request) -> httpx2.Response:
        if method == "POST" and path.endswith("/messages"):
            self.calls["direct"] += 1
            body = json.loads(request.content)
            turn = draft_turn(user_text("anthropic", body), len(request.content))
            self.count(turn)
            return httpx2.Response(200, json=anthropic_body(turn))
        if method == "POST" and path.endswith("/messages/batches"):
            self.calls["create"] += 1
            requests = json.loads(request.content)["requests"]
            batch_id = f"msgbatch_{len(self.batches) + 1}"
            self.submitted += [r["custom_id"] for r in requests]
            self.batches[batch_id] = {"requests": requests}
            return httpx2.Response(200, json=self.anthropic_batch(batch_id, "in_progress"))
        match = re.search(r"/messages/batches/([\w-]+)(/results|/cancel)?$", path)
        if match is None:
            return httpx2.Response(404, json={"type": "error", "error": {"type": "not_found"}})
        batch_id, tail = match.groups()
        if tail == "/cancel":
            self.calls["cancel"] += 1
            return httpx2.Response(200, json=self.anthropic_batch(batch_id, "canceling"))
        if tail == "/results":
            self.calls["content"] += 1
            return httpx2.Response(200, content=self.anthropic_results(batch_id).encode())
        self.calls["retrieve"] += 1
        status = "in_progress" if self.look(batch_id) == "in_progress" else "ended"
        return httpx2.Response(200, json=self.anthropic_batch(batch_id, status))

    def anthropic_batch(self, batch_id: str, status: str) -> dict[str, Any]:
        total = len(self.batches[batch_id]["requests"])
        counts = {"processing": total, "succeeded": 0, "errored": 0, "canceled": 0, "expired": 0}
        body: dict[str, Any] = {
            "id": batch_id,
            "type": "message_batch",
            "processing_status": status,
            "created_at": CREATED,
            "expires_at": "2026-01-02T00:00:00Z",
            "request_counts": counts,
            "results_url": None,
        }
        if status == "ended":
            counts["processing"] = 0
            counts["succeeded"] = total
            body["ended_at"] = CREATED
            body["results_url"] = (
                f"https://api.anthropic.com/v1/messages/batches/{batch_id}/results"
            )
        return body

    def anthropic_results(self, batch_id: str) -> str:
        """The batch's results file, written once."""
        if "results" not in self.batches[batch_id]:
            self.batches[batch_id]["results"] = self.write_anthropic_results(batch_id)
        return str(self.batches[batch_id]["results"])

    def write_anthropic_results(self, batch_id: str) -> str:
        lines = []
        for item in self.batches[batch_id]["requests"]:
            cid, params = item["custom_id"], item["params"]
            text = user_text("anthropic", params)
            verdict = self.outcome(cid, text)
            if verdict == "succeeded":
                turn = draft_turn(text, len(json.dumps(params)))
                self.count(turn)
                result: dict[str, Any] = {"type": "succeeded", "message": anthropic_body(turn)}
            elif verdict == "errored":
                error = {"type": "api_error", "message": "scripted server error"}
                result = {
                    "type": "errored",
                    "error": {"type": "error", "error": error, "request_id": "r"},
                }
            else:
                result = {"type": "expired"}
            lines.append(json.dumps({"custom_id": cid, "result": result}))
        return "\n".join(lines)

    def count(self, turn: Turn) -> None:
        self.usage["input_tokens"] += turn.input_tokens
        self.usage["cached_tokens"] += turn.cached_tokens
        self.usage["output_tokens"] += turn.output_tokens

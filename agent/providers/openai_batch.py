"""OpenAI's Batch API for Chat Completions: a JSONL file uploaded, one batch over it, replies
read from its output and error files.

The batch carries its key in `metadata`, so a batch whose id a kill (or a create whose reply was
lost) lost is found again by listing the batches; create itself is never retried blindly. Items missing from both files when the batch ended (it failed validation,
or expired before reaching them) are failures too: every item submitted gets an outcome.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from contextlib import AbstractAsyncContextManager
from typing import Any, Final

from openai.types.chat import ChatCompletion

from agent.providers.base import ModelRequest
from agent.providers.batch import BatchFailure, BatchResult, BatchStatus, FailureKind
from agent.providers.faults import sdk_faults
from agent.providers.openai import SDK_ERRORS, OpenAIProvider, parse_response
from contract.errors import ProviderError

ENDPOINT: Final = "/v1/chat/completions"
KEY = "nightdesk_key"
ENDED = frozenset({"completed", "failed", "expired", "cancelled"})
LIST_LIMIT = 100


def faults(what: str) -> AbstractAsyncContextManager[None]:
    """The provider's SDK faults at one step of a batch; its replies are read here too."""
    return sdk_faults(SDK_ERRORS, f"openai batch {what}", (ValueError, KeyError, TypeError))


class OpenAIBatches:
    """The `openai` provider's batches, over its client."""

    def __init__(self, provider: OpenAIProvider) -> None:
        self.provider = provider
        self.client = provider.client

    async def submit(self, items: Sequence[tuple[str, ModelRequest]], key: str) -> str:
        lines = [
            json.dumps(
                {
                    "custom_id": cid,
                    "method": "POST",
                    "url": ENDPOINT,
                    "body": self.provider.body(request),
                },
                ensure_ascii=False,
            )
            for cid, request in items
        ]
        data = ("\n".join(lines) + "\n").encode()
        async with faults("upload"):
            uploaded = await self.client.files.create(
                file=(f"{key}.jsonl", data, "application/jsonl"), purpose="batch"
            )
        try:  # never retried blindly: a retry after a lost reply would create a second batch
            async with faults("create"):
                batch = await self.client.with_options(max_retries=0).batches.create(
                    input_file_id=uploaded.id,
                    endpoint=ENDPOINT,
                    completion_window="24h",
                    metadata={KEY: key},
                )
        except ProviderError:
            found = await self.find(key)  # it may have been created all the same
            if found is None:
                raise
            return found
        return batch.id

    async def find(self, key: str) -> str | None:
        async with faults("list"):
            async for batch in self.client.batches.list(limit=LIST_LIMIT):
                if (batch.metadata or {}).get(KEY) == key and batch.status != "cancelled":
                    return batch.id
        return None

    async def status(self, batch_id: str) -> BatchStatus:
        async with faults("retrieve"):
            batch = await self.client.batches.retrieve(batch_id)
        counts = batch.request_counts
        return BatchStatus(
            ended=batch.status in ENDED,
            status=batch.status,
            done=(counts.completed + counts.failed) if counts else 0,
            total=counts.total if counts else 0,
        )

    async def results(self, batch_id: str, expected: Sequence[str]) -> dict[str, BatchResult]:
        async with faults("retrieve"):
            batch = await self.client.batches.retrieve(batch_id)
        found: dict[str, BatchResult] = {}
        for file_id in (batch.output_file_id, batch.error_file_id):
            if not file_id:
                continue
            async with faults("results"):
                content = await self.client.files.content(file_id)
                text = content.text
            for raw in text.splitlines():
                if raw.strip():
                    cid, result = parse_line(json.loads(raw))
                    found[cid] = result
        errors = batch.errors.data or [] if batch.errors else []
        why = "; ".join(e.message or "" for e in errors)
        rest = BatchFailure(
            "expired" if batch.status == "expired" else "missing",
            f"openai batch {batch_id} ended {batch.status} without this item"
            + (f": {why}" if why else ""),
        )
        return {cid: found.get(cid, rest) for cid in expected}

    async def cancel(self, batch_id: str) -> None:
        async with faults("cancel"):
            await self.client.batches.cancel(batch_id)


def parse_line(line: dict[str, Any]) -> tuple[str, BatchResult]:
    """One line of an output or error file: its custom_id and reply, or why it has none."""
    cid = str(line["custom_id"])
    error = line.get("error")
    response = line.get("response") or {}
    if error:
        code = str(error.get("code") or "")
        kind: FailureKind = "expired" if code == "batch_expired" else "errored"
        return cid, BatchFailure(kind, f"openai batch item: {code}: {error.get('message')}")
    status = response.get("status_code")
    body = response.get("body") or {}
    if status != 200:
        message = (body.get("error") or {}).get("message") if isinstance(body, dict) else body
        return cid, BatchFailure("errored", f"openai batch item: HTTP {status}: {message}")
    try:
        reply = parse_response(ChatCompletion.model_validate(body))
    except (ProviderError, ValueError, TypeError, AttributeError, IndexError) as exc:
        return cid, BatchFailure("errored", f"openai batch item: malformed reply ({exc})")
    return cid, reply.model_copy(update={"batch": True})

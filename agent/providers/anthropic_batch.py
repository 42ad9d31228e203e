"""Anthropic's Message Batches: the requests sent in one create, replies streamed from the
results once processing has ended.

Message Batches carry no metadata, so a batch whose id a kill lost between its create and the
saving of its id cannot be found again (`find` says None); the night saves the id the moment
create returns, which leaves that window as narrow as one local file write. Create is not
retried (a retry after a lost reply would pay for the batch twice): a failed create makes its
items `errored`, for the night's fallback.
"""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import AbstractAsyncContextManager

from agent.providers.anthropic import SDK_ERRORS, AnthropicProvider, parse_response
from agent.providers.base import ModelRequest
from agent.providers.batch import BatchFailure, BatchResult, BatchStatus
from agent.providers.faults import sdk_faults


def faults(what: str) -> AbstractAsyncContextManager[None]:
    """The provider's SDK faults at one step of a batch; its replies are read here too."""
    return sdk_faults(SDK_ERRORS, f"anthropic batch {what}", (ValueError, KeyError, TypeError))


class AnthropicBatches:
    """The `anthropic` provider's message batches, over its client."""

    def __init__(self, provider: AnthropicProvider) -> None:
        self.provider = provider
        self.client = provider.client

    async def submit(self, items: Sequence[tuple[str, ModelRequest]], key: str) -> str:
        requests = [
            {"custom_id": cid, "params": self.provider.body(request)} for cid, request in items
        ]
        async with faults("create"):  # not retried: a retry after a lost reply pays twice
            batch = await self.client.with_options(max_retries=0).messages.batches.create(
                requests=requests  # type: ignore[arg-type]
            )
        return batch.id

    async def find(self, key: str) -> str | None:
        return None

    async def status(self, batch_id: str) -> BatchStatus:
        async with faults("retrieve"):
            batch = await self.client.messages.batches.retrieve(batch_id)
        counts = batch.request_counts
        done = counts.succeeded + counts.errored + counts.canceled + counts.expired
        return BatchStatus(
            ended=batch.processing_status == "ended",
            status=batch.processing_status,
            done=done,
            total=done + counts.processing,
        )

    async def results(self, batch_id: str, expected: Sequence[str]) -> dict[str, BatchResult]:
        found: dict[str, BatchResult] = {}
        async with faults("results"):
            async for line in await self.client.messages.batches.results(batch_id):
                result = line.result
                if result.type == "succeeded":
                    try:
                        reply = parse_response(result.message)
                    except (AttributeError, TypeError, ValueError) as exc:
                        found[line.custom_id] = BatchFailure(
                            "errored", f"anthropic batch item: malformed reply ({exc})"
                        )
                        continue
                    found[line.custom_id] = reply.model_copy(update={"batch": True})
                elif result.type == "errored":
                    error = result.error.error
                    found[line.custom_id] = BatchFailure(
                        "errored", f"anthropic batch item: {error.type}: {error.message}"
                    )
                else:
                    found[line.custom_id] = BatchFailure(
                        result.type, f"anthropic batch item {result.type}"
                    )
        rest = BatchFailure("missing", f"anthropic batch {batch_id} has no result for this item")
        return {cid: found.get(cid, rest) for cid in expected}

    async def cancel(self, batch_id: str) -> None:
        async with faults("cancel"):
            await self.client.messages.batches.cancel(batch_id)

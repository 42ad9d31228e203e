"""The seam between a night's drafting round and a provider's batch interface.

A `BatchApi` submits many requests at once under ids of ours (`custom_id`), says whether a
submitted batch has ended, and gives each item's reply or why it has none. A fault of the
interface itself raises `ProviderError`, as `Provider.complete` does; an item that errored,
expired or was cancelled inside a batch is data (`BatchFailure`), and the night decides what
becomes of it. Batches cost half the direct price at both providers, and take up to a day.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal, Protocol

from agent.providers.base import ModelRequest, ModelResponse

FailureKind = Literal["errored", "expired", "canceled", "missing"]


@dataclass(frozen=True, slots=True)
class BatchFailure:
    """Why one item of a batch has no reply."""

    kind: FailureKind
    message: str


BatchResult = ModelResponse | BatchFailure


@dataclass(frozen=True, slots=True)
class BatchStatus:
    """Where a submitted batch stands: `ended` once no item of it will change any more."""

    ended: bool
    status: str
    done: int = 0
    total: int = 0


class BatchApi(Protocol):
    async def submit(self, items: Sequence[tuple[str, ModelRequest]], key: str) -> str:
        """Submit every (custom_id, request) as one batch tagged `key`; the batch id."""
        ...

    async def find(self, key: str) -> str | None:
        """The id of a batch submitted earlier under `key` (a kill may have lost it), if the
        provider can tell; None when it cannot or there is none."""
        ...

    async def status(self, batch_id: str) -> BatchStatus: ...

    async def results(self, batch_id: str, expected: Sequence[str]) -> dict[str, BatchResult]:
        """The reply (`batch` set) or failure of every `expected` custom_id, once the batch
        ended; an item the provider does not account for is a failure (`missing`)."""
        ...

    async def cancel(self, batch_id: str) -> None:
        """Stop a batch whose replies are no longer wanted (its done items are still billed)."""
        ...

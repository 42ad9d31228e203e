"""Drafting through a batch: a night's plan-mode drafts are collected into rounds, and each
round goes to the provider at once.

In plan mode every question drafts exactly once, with no tools, so a night knows all its drafts
before the first is sent. A round knows who may still draft in it: each ticker announces which of
its questions will (`TickerSeats.answers`, `.summary`: one seat each), and each seat either sends
its one request or leaves without one (the budget refused it, or the question failed first).
When every ticker has announced and every seat has sent or left, the round hands all requests to
its `Submit` in one go and wakes each seat with its reply. The loop reserves a call's tokens
before it reaches the provider (`call_model`), so the budget covers all that a round submits,
and what the budget refused never reaches it. Answers form the first round; summaries, drafted
from the accepted answers, the second.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Literal

from agent.providers.base import ModelRequest, ModelResponse, Provider
from agent.providers.batch import BatchFailure, BatchResult
from contract.errors import ProviderError

RoundName = Literal["answers", "summaries"]
Fallback = Literal["direct", "provider_error"]


@dataclass(frozen=True, slots=True)
class Draft:
    """One drafting request of a round, and the question it drafts."""

    question_id: str
    request: ModelRequest


Submit = Callable[[RoundName, list[Draft]], Awaitable[dict[str, BatchResult]]]
"""Sends a round's drafts; the reply or failure of each, by question id."""


class Seat:
    """One question's place in a round: it sends one request, or leaves without one."""

    def __init__(self, round_: DraftRound, question_id: str) -> None:
        self.round = round_
        self.question_id = question_id
        self.done = False

    async def send(self, request: ModelRequest) -> BatchResult:
        if self.done:
            raise RuntimeError(f"{self.question_id} has already drafted in {self.round.name}")
        self.done = True
        return await self.round._arrive(Draft(self.question_id, request))

    def leave(self) -> None:
        """No request from this seat (idempotent; nothing after it has sent)."""
        if not self.done:
            self.done = True
            self.round._left()


class DraftRound:
    """The drafts of one round, submitted once every ticker has announced its seats and every
    seat has sent or left."""

    def __init__(self, name: RoundName, tickers: int, submit: Submit) -> None:
        self.name = name
        self._submit = submit
        self._tickers_left = tickers
        self._open_seats = 0
        self._drafts: list[Draft] = []
        self._waiting: dict[str, asyncio.Future[BatchResult]] = {}
        self._task: asyncio.Task[None] | None = None
        self.submitted = 0

    def seats(self, question_ids: Sequence[str]) -> dict[str, Seat]:
        """A ticker's announcement: these of its questions may draft in this round."""
        if self._tickers_left <= 0:
            raise RuntimeError(f"more tickers announced in {self.name} than the night holds")
        self._tickers_left -= 1
        self._open_seats += len(question_ids)
        seats = {qid: Seat(self, qid) for qid in question_ids}
        self._maybe_flush()
        return seats

    async def _arrive(self, draft: Draft) -> BatchResult:
        future = asyncio.get_running_loop().create_future()
        self._waiting[draft.question_id] = future
        self._drafts.append(draft)
        self._open_seats -= 1
        self._maybe_flush()
        return await future

    def _left(self) -> None:
        self._open_seats -= 1
        self._maybe_flush()

    def _maybe_flush(self) -> None:
        if self._tickers_left or self._open_seats or self._task is not None or not self._drafts:
            return
        self._task = asyncio.get_running_loop().create_task(self._flush())

    def cancel(self) -> None:
        if self._task is not None and not self._task.done():
            self._task.cancel()

    async def _flush(self) -> None:
        drafts, self._drafts = self._drafts, []
        self.submitted = len(drafts)
        try:
            results = await self._submit(self.name, drafts)
        except Exception as exc:  # a bug in the submission must not leave a seat waiting
            failure = BatchFailure("errored", f"batch submission failed: {exc!r}")
            results = {d.question_id: failure for d in drafts}
        for draft in drafts:
            missing = BatchFailure("missing", f"the {self.name} batch returned no reply")
            future = self._waiting.pop(draft.question_id)
            if not future.done():
                future.set_result(results.get(draft.question_id, missing))


class TickerSeats:
    """One ticker's part in the night's rounds; `close` announces nothing in a round it has not
    announced in yet and leaves its unused seats, so no round waits for a ticker that is done."""

    def __init__(self, rounds: NightRounds) -> None:
        self._rounds = rounds
        self._announced: set[RoundName] = set()
        self._seats: list[Seat] = []

    def answers(self, question_ids: Sequence[str]) -> dict[str, Seat]:
        return self._announce("answers", question_ids)

    def summary(self, question_ids: Sequence[str]) -> dict[str, Seat]:
        return self._announce("summaries", question_ids)

    def _announce(self, name: RoundName, question_ids: Sequence[str]) -> dict[str, Seat]:
        if name in self._announced:
            raise RuntimeError(f"this ticker has announced its {name} already")
        self._announced.add(name)
        seats = self._rounds.round(name).seats(question_ids)
        self._seats.extend(seats.values())
        return seats

    def close(self) -> None:
        for seat in self._seats:
            seat.leave()
        for name in ("answers", "summaries"):
            if name not in self._announced:
                self._announce(name, [])  # type: ignore[arg-type]


class NightRounds:
    """The answers round and the summaries round of a night of `tickers` tickers."""

    def __init__(self, tickers: int, submit: Submit) -> None:
        self.answers = DraftRound("answers", tickers, submit)
        self.summaries = DraftRound("summaries", tickers, submit)

    def round(self, name: RoundName) -> DraftRound:
        return self.answers if name == "answers" else self.summaries

    def cancel(self) -> None:
        """Stop a submission still under way: the night that waited for it has ended."""
        for round_ in (self.answers, self.summaries):
            round_.cancel()

    def ticker(self) -> TickerSeats:
        return TickerSeats(self)


SEAT: ContextVar[Seat | None] = ContextVar("nightdesk_draft_seat", default=None)
"""The seat of the question whose task this is (set by the ticker around each question)."""


class BatchDrafter:
    """The provider of a batch night: a request from a question holding a seat goes into its
    round; the direct fallback and any request without a seat go straight to `inner`.

    An item the batch could not answer (errored, expired, cancelled, missing) is asked again
    directly with `fallback="direct"`, or ends the question `provider_error` otherwise."""

    rate_limited = False  # a batch is metered by the provider's batch queue, not per minute

    def __init__(self, inner: Provider, fallback: Fallback = "direct") -> None:
        self.inner = inner
        self.name = inner.name
        self.model = inner.model
        self.fallback = fallback
        self.direct_calls = 0

    def estimate_tokens(self, request: ModelRequest) -> int:
        return self.inner.estimate_tokens(request)

    async def complete(self, request: ModelRequest) -> ModelResponse:
        seat = SEAT.get()
        if seat is None or seat.done:
            return await self._direct(request)
        result = await seat.send(request)
        if isinstance(result, ModelResponse):
            return result
        if self.fallback == "direct":
            return await self._direct(request)
        raise ProviderError(result.message)

    async def _direct(self, request: ModelRequest) -> ModelResponse:
        self.direct_calls += 1
        return await self.inner.complete(request)

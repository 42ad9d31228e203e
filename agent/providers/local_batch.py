"""One model, many questions: the requests that wait for the model go through it as one batch.

A night asks many questions at once, and a model in this process decodes one token for a
whole batch of sequences in about the time it takes for one (the weights are read once per
step). So requests are not served one at a time: a generation thread takes the first waiting
request, collects those arriving within `window_s` (and all that queued while the previous
batch ran), up to `max_batch`, and hands them to `generate` as one batch. The thread is not
tied to any event loop; callers wait on a `concurrent.futures.Future`.

Each request sees when its batch starts (`Job.started`), so its caller's deadline counts
generation, never the wait for the model; `Job.produced` counts its tokens as they come, so a
call cut short can say what it spent.
"""

from __future__ import annotations

import queue
import threading
from collections import Counter
from collections.abc import Callable, Sequence
from concurrent.futures import Future
from dataclasses import dataclass, field
from time import monotonic
from typing import Literal

Stopped = Literal["stop", "length", "loop", "cancelled"]


@dataclass(frozen=True, slots=True)
class Generated:
    """What one request got: its tokens (end-of-turn included), why it stopped, its batch."""

    tokens: list[int]
    stopped: Stopped
    batch_size: int
    seconds: float


@dataclass(eq=False)
class Job:
    """One request waiting for, or in, a batch."""

    prompt: list[int]
    max_new_tokens: int
    started: Callable[[], None] = lambda: None
    """Called on the generation thread when the job's batch starts."""
    cancelled: threading.Event = field(default_factory=threading.Event)
    result: Future[Generated] = field(default_factory=Future)
    produced: int = 0
    """Tokens generated so far (updated at every step)."""
    pattern: str | None = None
    """A regular expression the output must match (structured drafting), or None."""


GenerateBatch = Callable[[Sequence[Job]], list[Generated]]


class Cancelled(Exception):
    """The caller stopped waiting before the job's batch started."""


class BatchQueue:
    """Requests in, batches out, on one daemon thread started at the first request."""

    def __init__(self, generate: GenerateBatch, *, max_batch: int = 16, window_s: float = 0.05):
        if max_batch < 1:
            raise ValueError("max_batch must be at least 1")
        self._generate = generate
        self.max_batch = max_batch
        self.window_s = window_s
        self._queue: queue.Queue[Job] = queue.Queue()
        self._thread: threading.Thread | None = None
        self._start = threading.Lock()
        self.batches: list[int] = []
        """The size of every batch generated so far, in order."""
        self.tokens = 0
        """Tokens generated so far, every batch together."""
        self.busy_s = 0.0
        """Seconds spent generating so far."""

    def submit(self, job: Job) -> Future[Generated]:
        with self._start:
            if self._thread is None:
                self._thread = threading.Thread(
                    target=self._serve, name="nightdesk-generate", daemon=True
                )
                self._thread.start()
        self._queue.put(job)
        return job.result

    def _collect(self) -> list[Job]:
        jobs = [self._queue.get()]
        until = monotonic() + self.window_s
        while len(jobs) < self.max_batch:
            try:
                jobs.append(self._queue.get_nowait())
                continue
            except queue.Empty:
                pass
            left = until - monotonic()
            if left <= 0:
                break
            try:
                jobs.append(self._queue.get(timeout=left))
            except queue.Empty:
                break
        live = []
        for job in jobs:  # a running future can no longer be cancelled by its waiter
            if not job.result.set_running_or_notify_cancel():
                continue
            if job.cancelled.is_set():
                job.result.set_exception(Cancelled())
            else:
                live.append(job)
        return live

    def _serve(self) -> None:
        while True:
            jobs = self._collect()
            if not jobs:
                continue
            self.batches.append(len(jobs))
            for job in jobs:
                job.started()
            try:
                results = self._generate(jobs)
            except Exception as exc:  # the callers see it; the thread serves the next batch
                for job in jobs:
                    job.result.set_exception(exc)
                continue
            self.tokens += sum(len(g.tokens) for g in results)
            self.busy_s += max((g.seconds for g in results), default=0.0)
            for job, generated in zip(jobs, results, strict=True):
                job.result.set_result(generated)

    def note(self) -> str | None:
        """What the queue generated, for a night's log: batches, their sizes, tokens/s."""
        if not self.batches:
            return None
        sizes = Counter(self.batches)
        shown = ", ".join(f"{size}x{sizes[size]}" for size in sorted(sizes, reverse=True))
        rate = self.tokens / self.busy_s if self.busy_s else 0.0
        return (
            f"{len(self.batches)} batches (size x count: {shown}; mean "
            f"{sum(self.batches) / len(self.batches):.1f}), {self.tokens} tokens in "
            f"{self.busy_s:.1f} s of generation = {rate:.1f} tokens/s"
        )


LOOP_REPEATS = 3
LOOP_MIN_TOKENS = 12
LOOP_MAX_PERIOD = 48


def loop_start(tokens: Sequence[int]) -> int | None:
    """Where a generation that has started to loop should end, or None while it does not loop.

    A loop is the same run of tokens (period 1 to `LOOP_MAX_PERIOD`) said `LOOP_REPEATS` times
    in a row at the end, over at least `LOOP_MIN_TOKENS` tokens ("2024-12-31 2024-12-31
    2024-12-31"). The answer keeps the first saying: the length up to its end."""
    n = len(tokens)
    for period in range(1, min(LOOP_MAX_PERIOD, n // LOOP_REPEATS) + 1):
        span = max(period * LOOP_REPEATS, LOOP_MIN_TOKENS)
        span -= span % period
        if span > n:
            continue
        tail = tokens[n - span :]
        if tail[period:] == tail[:-period]:
            return n - span + period
    return None

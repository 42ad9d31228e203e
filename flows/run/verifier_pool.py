"""Drafts judged in worker processes, beside the event loop.

The verifier is pure Python on the CPU, 2-3 ms a draft. Run on the event loop it holds the
interpreter lock while the model's replies wait, so a night's answering phase was CPU on one
core: on the 200-ticker benchmark night the verifier was a third of it. A pool of worker
processes, each with the verifier imported and warmed up, judges a draft while the loop goes
on with the next replies.

The verdict is still `verdict_of`'s (the leak checks included), so a trace gets the same
verdict in a worker as in the process. A worker that dies does not end the night: the pool is
marked broken and every later draft is judged in this process.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import time
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from contract.trace import Trace
    from verifier.trace_view import TraceView
    from verifier.verdict import Verdict

LOG = logging.getLogger(__name__)


def available_cpus() -> int:
    """The CPUs this process may run on (its affinity, not the machine's count)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # no affinity on this platform
        return os.cpu_count() or 1


def auto_workers(tickers: int) -> int:
    """How many verifier processes a night of `tickers` gets when none is set: two fewer than
    the CPUs, at most four, and none for a night too small to repay a worker's start (about a
    second: the imports and the warm-up). One CPU is the event loop's; the other runs what the
    loop's threads and the machine's servers need: on two CPUs, with the model's server and
    Prefect's on them too, a worker added CPU and memory to the 200-ticker benchmark night and
    saved no time."""
    if tickers < MIN_TICKERS:
        return 0
    return max(0, min(available_cpus() - 2, MAX_AUTO_WORKERS))


MIN_TICKERS = 100
"""A night of fewer tickers verifies in well under the second a worker takes to start."""
MAX_AUTO_WORKERS = 4


def _start_worker() -> None:
    from verifier.verify import warm_up

    warm_up()


def _ready() -> None:
    """Nothing: submitted once per worker so that each starts now."""


def _judge_in_worker(view: TraceView) -> tuple[Verdict, float]:
    """The verdict of one trace and the CPU seconds it took, in a worker process."""
    from flows.run.judge import verdict_of

    started = time.thread_time()
    verdict = verdict_of(view)
    return verdict, time.thread_time() - started


@dataclass
class VerifierPool:
    """Worker processes that judge drafts; `cpu_s` is the CPU the verdicts took in them."""

    workers: int
    cpu_s: float = 0.0
    verdicts: int = 0
    broken: str | None = None
    """Why the pool stopped judging (a worker died); every later draft is judged here."""
    _executor: ProcessPoolExecutor | None = field(default=None, repr=False)

    def start(self) -> None:
        """Start every worker now, without waiting: each imports and warms up the verifier
        (about a second) while the night's first questions are asked."""
        if self.workers < 1 or self._executor is not None:
            return
        self._executor = ProcessPoolExecutor(
            max_workers=self.workers,
            mp_context=multiprocessing.get_context("spawn"),  # no fork of a threaded process
            initializer=_start_worker,
        )
        for _ in range(self.workers):  # a submit starts a worker while fewer are idle
            self._executor.submit(_ready)

    async def verdict(self, trace: Trace | TraceView) -> Verdict:
        """The verdict of `trace` (`verdict_of`'s), judged in a worker where there is one."""
        from flows.run.judge import verdict_of
        from verifier.trace_view import TraceView, view_of

        if not self.in_workers:
            return verdict_of(trace)
        view = trace if isinstance(trace, TraceView) else view_of(trace)
        loop = asyncio.get_running_loop()
        try:
            verdict, cpu_s = await loop.run_in_executor(self._executor, _judge_in_worker, view)
        except BrokenProcessPool as exc:
            self.broken = (
                f"a verifier process died ({exc}); drafts are judged in the night's process"
            )
            LOG.warning(self.broken)
            return verdict_of(trace)
        self.cpu_s += cpu_s
        self.verdicts += 1
        return verdict

    @property
    def in_workers(self) -> bool:
        """Whether the next draft goes to a worker (not where the pool is off or broken)."""
        return self._executor is not None and self.broken is None

    def pids(self) -> list[int]:
        """The worker processes' ids (for measuring them from outside)."""
        processes = getattr(self._executor, "_processes", None) or {}
        return list(processes)

    def close(self) -> None:
        if self._executor is not None:
            self._executor.shutdown(wait=True, cancel_futures=True)
            self._executor = None

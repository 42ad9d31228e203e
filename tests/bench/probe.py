"""What a contestant of the night benchmark measures from inside its own process and writes
to one JSON file at exit: the answering phase, the verifier's CPU time, tool-call durations and
the outcome of every question.

Two tool figures: `tool_ms`, a tool's run inside its thread (what every contestant can measure
alike), and `call_ms`, a call as the trace records it, from the loop's request to the result
(the wait for a free tool thread included; nightdesk and the driver only)."""

from __future__ import annotations

import importlib
import json
import resource
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any


@dataclass
class Probe:
    """Figures one contestant collects while it runs."""

    answer_s: float | None = None
    answer_cpu_s: float | None = None
    """CPU seconds of this process over the answering phase (every thread, the verifier's too),
    and of the verifier processes it started and ended in that phase."""
    answer_main_cpu_s: float | None = None
    """The same, this process alone (without the verifier processes)."""
    answer_started_at: float | None = None
    """When the answering phase began (epoch seconds): the launch until then is the prepare."""
    verifier_cpu_s: float = 0.0
    tool_cpu_s: float = 0.0
    max_turns: int = 0
    """The most model calls one question made: its chain of round trips."""
    """CPU seconds of the tool runs, each in its thread."""
    verified: int = 0
    tool_ms: list[float] = field(default_factory=list)
    call_ms: list[float] = field(default_factory=list)
    process_cpu_s: float = 0.0
    outcomes: Counter[str] = field(default_factory=Counter)
    _answer_clock: tuple[float, float, float] = field(default=(0.0, 0.0, 0.0), repr=False)

    def note_trace(self, trace: dict[str, Any]) -> None:
        """The tool-call durations of a question's trace (a summary's events are copies)."""
        if not str(trace.get("question_id", "")).endswith("/summary"):
            self.max_turns = max(self.max_turns, len(trace.get("turns") or []))
            self.call_ms.extend(
                float(e["duration_ms"]) for e in trace.get("events") or [] if "duration_ms" in e
            )

    def timed_verify(self, verify: Callable[[Any], Any]) -> Callable[[Any], Any]:
        """`verify` that adds its thread CPU time to `verifier_cpu_s` and notes the trace."""

        def timed(trace: Any) -> Any:
            started = time.thread_time()
            try:
                return verify(trace)
            finally:
                self.verifier_cpu_s += time.thread_time() - started
                self.verified += 1
                if isinstance(trace, dict):
                    self.note_trace(trace)
                elif hasattr(trace, "turns"):  # the loop's `Trace`, as the night passes it
                    self.note_trace(trace.model_dump(include={"question_id", "turns", "events"}))

        return timed

    def timed_tool(self, run: Callable[..., Any]) -> Callable[..., Any]:
        """`run` (a tool runner) that adds each call's duration in its thread to `tool_ms`."""

        def timed(*args: Any) -> Any:
            started, cpu = time.perf_counter(), time.thread_time()
            try:
                return run(*args)
            finally:
                self.tool_ms.append((time.perf_counter() - started) * 1000)
                self.tool_cpu_s += time.thread_time() - cpu

        return timed

    def begin_answering(self) -> None:
        """The answering phase starts now."""
        self.answer_started_at = time.time()
        self._answer_clock = (time.perf_counter(), time.process_time(), _children_cpu_s())

    def end_answering(self) -> None:
        """The answering phase is over: its wall and CPU seconds, the verifier processes'
        included (the night ends them before its answering phase returns)."""
        wall, cpu, children = self._answer_clock
        self.answer_s = time.perf_counter() - wall
        self.answer_main_cpu_s = time.process_time() - cpu
        self.answer_cpu_s = self.answer_main_cpu_s + _children_cpu_s() - children

    def timed_phase(self, answer: Callable[..., Any]) -> Callable[..., Any]:
        """`answer` (a coroutine function: the night's answering phase) timed by the probe."""

        async def timed(*args: Any, **kwargs: Any) -> Any:
            self.begin_answering()
            try:
                return await answer(*args, **kwargs)
            finally:
                self.end_answering()

        return timed

    def instrument(self) -> None:
        """Time the verifier and the tool runner of the agent loop in this process, and count
        what verifier processes judged (their CPU comes back with each verdict)."""
        verifier = importlib.import_module("verifier.verify")
        verifier.verify = self.timed_verify(verifier.verify)  # type: ignore[attr-defined]
        pool = importlib.import_module("flows.run.verifier_pool").VerifierPool
        verdict, close = pool.verdict, pool.close

        async def noted(judges: Any, trace: Any) -> Any:
            in_worker = judges.in_workers
            result = await verdict(judges, trace)
            if in_worker:  # `timed_verify` did not see it
                self.verified += 1
                self.note_trace(trace.model_dump(include={"question_id", "turns", "events"}))
            return result

        def closed(judges: Any) -> None:
            self.verifier_cpu_s += judges.cpu_s
            close(judges)

        pool.verdict, pool.close = noted, closed
        loop_tools = importlib.import_module("agent.tool_calls")
        loop_tools.run_tool = self.timed_tool(loop_tools.run_tool)  # type: ignore[attr-defined]

    def instrument_night(self) -> None:
        """Also time the answering phase of `nightdesk run`'s flow (its tickers or shards). The
        flow's module is patched when the run first reaches it (`launch.run_flow`), not before:
        importing Prefect earlier would read its settings before the run sets its defaults (the
        quieter task-run logs, the run's own temporary server), and measure another night."""
        launch = importlib.import_module("flows.night.launch")
        run_flow = launch.run_flow

        def patched(*args: Any, **kwargs: Any) -> Any:
            flow = importlib.import_module("flows.night.flow")
            for name in ("answer_tickers", "run_shards"):
                setattr(flow, name, self.timed_phase(getattr(flow, name)))
            return run_flow(*args, **kwargs)

        launch.run_flow = patched  # type: ignore[attr-defined]

    def write(self, path: Path) -> None:
        """Write the figures, with this process's own CPU time so far (its children excluded)."""
        self.process_cpu_s = time.process_time()
        figures = {**asdict(self), "outcomes": dict(self.outcomes)}
        figures.pop("_answer_clock")
        path.write_text(json.dumps(figures))


def _children_cpu_s() -> float:
    """CPU seconds of this process's children that have ended (and been waited for)."""
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def read_probe(path: Path) -> Probe:
    raw = json.loads(path.read_text())
    return Probe(
        answer_s=raw["answer_s"],
        answer_cpu_s=raw.get("answer_cpu_s"),
        answer_main_cpu_s=raw.get("answer_main_cpu_s"),
        answer_started_at=raw.get("answer_started_at"),
        verifier_cpu_s=raw["verifier_cpu_s"],
        tool_cpu_s=raw.get("tool_cpu_s", 0.0),
        max_turns=raw.get("max_turns", 0),
        verified=raw["verified"],
        tool_ms=raw["tool_ms"],
        call_ms=raw["call_ms"],
        process_cpu_s=raw["process_cpu_s"],
        outcomes=Counter(raw["outcomes"]),
    )

"""Model-written SQL runs in worker processes whose limits the operating system enforces.

DuckDB's own `max_execution_time` and `memory_limit` do not bound every query (a list built by
`range`, a string built by `repeat`...), so `run_sql` never runs model SQL in the night's process.
Each catalog keeps a few workers (`tools.sql_worker`), started on first use: each caps its own
address space and CPU time before it opens the catalog file read-only, and the parent kills it
outright when a query passes its deadline. A killed or crashed worker is replaced by the next
call; its query comes back to the model as a `ToolError`, and the night goes on.
"""

from __future__ import annotations

import json
import os
import selectors
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Hashable
from pathlib import Path
from typing import Any

from contract.errors import ToolError

KEPT_ENV = ("PATH", "LANG", "LC_ALL", "TZ", "SYSTEMROOT")
"""The only variables a worker inherits: no key or secret of the night reaches it."""


RECYCLED = frozenset({"OutOfMemoryException", "TooLarge", "ScopeNotLoaded"})
STARTUP_S = 60.0
"""How long a new worker may take to import DuckDB and open the catalog: not the query's time,
and generous, since a loaded machine starts processes slowly."""
LOAD_GRACE_S = 10.0
"""What loading a scope's rows may take beyond a query's own limit."""
UNLOADED = object()
"""The scope of a worker that holds no scoped rows yet."""


class Worker:
    """One worker process and its pipes."""

    def __init__(self, path: Path, memory_mb: int, timeout_s: float) -> None:
        root = Path(__file__).resolve().parents[1]
        env = {k: v for k, v in os.environ.items() if k in KEPT_ENV}
        env["PYTHONPATH"] = str(root)
        self.process = subprocess.Popen(
            [sys.executable, "-m", "tools.sql_worker", str(path), str(memory_mb), str(timeout_s)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            env=env,
            cwd=str(root),
        )
        self.started = False
        self.overran = False
        self.scope: Hashable = UNLOADED

    def ask(self, request: dict[str, Any], timeout_s: float) -> dict[str, Any] | None:
        """The worker's reply within `timeout_s` of the query's start (a new worker's start
        comes first and does not count), or None when it died or ran past (it is then killed;
        `overran` says which)."""
        assert self.process.stdin is not None and self.process.stdout is not None
        self.overran = False
        try:
            if not self.started:
                if self._line(time.monotonic() + STARTUP_S) is None:
                    self.kill()
                    return None
                self.started = True
            deadline = time.monotonic() + timeout_s
            self.process.stdin.write((json.dumps(request) + "\n").encode())
            self.process.stdin.flush()
        except (BrokenPipeError, OSError):
            self.kill()
            return None
        line = self._line(deadline)
        if line is None:
            self.overran = time.monotonic() >= deadline
            self.kill()
            return None
        reply: dict[str, Any] = json.loads(line)
        return reply

    def _line(self, deadline: float) -> bytes | None:
        assert self.process.stdout is not None
        with selectors.DefaultSelector() as selector:
            selector.register(self.process.stdout, selectors.EVENT_READ)
            if not selector.select(max(deadline - time.monotonic(), 0.0)):
                return None
        line = self.process.stdout.readline()
        return line or None

    @property
    def alive(self) -> bool:
        return self.process.poll() is None

    def kill(self) -> None:
        if self.alive:
            self.process.kill()
        self.process.wait()
        for pipe in (self.process.stdin, self.process.stdout):
            if pipe is not None:
                pipe.close()


class SqlSandbox:
    """A pool of at most `workers` SQL workers over one catalog file."""

    def __init__(self, path: Path, *, timeout_s: float, memory_mb: int, workers: int = 2) -> None:
        self.path = path
        self.timeout_s = timeout_s
        self.memory_mb = memory_mb
        self.size = workers
        self._idle: list[Worker] = []
        self._count = 0
        self._closed = False
        self._ready = threading.Condition()

    def query(
        self,
        sql: str,
        max_rows: int,
        scope: Hashable = None,
        tables: Callable[[], dict[str, Any]] = dict,
    ) -> dict[str, Any]:
        """`{"columns", "rows", "truncated"}` of one checked SELECT over the public file and the
        rows `tables()` gives for `scope` (handed to a worker only when it holds another
        scope's); `ToolError` otherwise."""
        worker = self._checkout()
        reply = None
        try:
            if worker.scope != scope:
                self._load(worker, scope, tables())
            reply = worker.ask({"sql": sql, "max_rows": max_rows}, self.timeout_s)
            if reply is not None and reply.get("error") in RECYCLED:
                worker.kill()  # what it allocated may stay mapped: the next query gets a fresh one
        finally:
            self._checkin(worker)
        if reply is None:
            if worker.overran:
                raise ToolError(f"the query ran past the {self.timeout_s:g} s limit; narrow it")
            raise ToolError(
                "the query was stopped: its worker ended (it needed more than "
                f"{self.memory_mb:,} MB); narrow it"
            )
        if "error" in reply:
            raise ToolError(refusal(reply["error"], reply.get("message", ""), self))
        return reply

    def _load(self, worker: Worker, scope: Hashable, tables: dict[str, Any]) -> None:
        """Hand the worker the rows of `scope` (our own data: its time is not the query's)."""
        worker.scope = UNLOADED
        loaded = worker.ask({"tables": tables}, self.timeout_s + LOAD_GRACE_S)
        if loaded is None or "error" in loaded:
            worker.kill()
            raise ToolError("the query was stopped: its worker could not load its tables; retry")
        worker.scope = scope

    def _checkout(self) -> Worker:
        with self._ready:
            while not self._idle and self._count >= self.size:
                self._ready.wait()
            if self._closed:
                raise ToolError("the catalog is closed")
            if self._idle:
                return self._idle.pop()
            self._count += 1
        return Worker(self.path, self.memory_mb, self.timeout_s)

    def _checkin(self, worker: Worker) -> None:
        with self._ready:
            if worker.alive and not self._closed:
                self._idle.append(worker)
            else:
                worker.kill()
                self._count -= 1
            self._ready.notify()

    def close(self) -> None:
        with self._ready:
            self._closed = True
            idle, self._idle = self._idle, []
            self._count -= len(idle)
            self._ready.notify_all()
        for worker in idle:
            worker.kill()


def refusal(kind: str, message: str, sandbox: SqlSandbox) -> str:
    """What the model reads for a query DuckDB refused inside the worker."""
    if kind == "OutOfMemoryException":
        return f"the query needed more than {sandbox.memory_mb:,} MB; narrow it"
    if kind == "TooLarge":
        return f"the result is too large ({message}); select fewer or narrower columns"
    if kind == "InterruptException":
        return f"the query ran past the {sandbox.timeout_s:g} s limit; narrow it"
    return f"query failed: {message}"

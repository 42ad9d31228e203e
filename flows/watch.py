"""A `nightdesk run` whose temporary Prefect server dies stops at once, saying so in one line.

Without its server the flow engine can record no state, log or event: it retries, and a run that
has already published would wait for the server for good, deaf to SIGTERM. A Ctrl-C in a
terminal reaches the server too, which ends first, so an interrupted run would hang the same way
for a minute. Finished tickers and the spend are on disk (each written atomically), so running
the same command again resumes where this run stopped.
"""

from __future__ import annotations

import os
import signal
import threading
import time
from types import FrameType, TracebackType

from rich.console import Console

from flows.guard import PROC, descendants, started, zombie

POLL_S = 0.5
GRACE_S = 3.0
"""How long an interrupted run waits for its server to end before leaving it to Prefect."""
SERVER_APP = b"prefect.server.api.server:create_app"


class ServerWatch:
    """While in use, ends this process if the temporary Prefect server it started dies."""

    def __init__(self, console: Console) -> None:
        self.console = console
        self.done = threading.Event()
        self.interrupted = False
        self.server: tuple[int, int] | None = None
        self._previous: object = None

    def __enter__(self) -> ServerWatch:
        if (PROC / "self" / "stat").is_file():  # it reads /proc (Linux); elsewhere it is idle
            threading.Thread(target=self._watch, name="server-watch", daemon=True).start()
        self._previous = signal.signal(signal.SIGINT, self._interrupt)
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.done.set()
        signal.signal(signal.SIGINT, self._previous)  # type: ignore[arg-type]
        if kind is KeyboardInterrupt and self.server is not None and self._gone(GRACE_S):
            self.interrupted = True
            self._stop()  # Prefect's shutdown would wait for the server, which got the Ctrl-C too

    def _interrupt(self, signum: int, frame: FrameType | None) -> None:
        self.interrupted = True
        signal.default_int_handler(signum, frame)

    def _watch(self) -> None:
        while not self.done.wait(POLL_S):
            if self.server is None:
                self.server = find_server(os.getpid())
            elif self._gone(0.0):
                if not self.done.is_set():
                    self._stop()
                return

    def _gone(self, wait_s: float) -> bool:
        """Whether the server has ended, waiting up to `wait_s` for it to."""
        assert self.server is not None
        pid, born = self.server
        deadline = time.monotonic() + wait_s
        while started(pid) == born and not zombie(pid):
            if time.monotonic() >= deadline:
                return False
            time.sleep(0.05)
        return True

    def _stop(self) -> None:
        resume = "finished tickers are kept: run the same command again to resume"
        if self.interrupted:
            self._say(f"nightdesk: interrupted; {resume}")
            os._exit(130)
        self._say(
            f"nightdesk: error: the temporary Prefect server stopped during the run; {resume}"
        )
        os._exit(1)

    def _say(self, line: str) -> None:
        self.console.print(line, soft_wrap=True, markup=False, highlight=False)


def find_server(pid: int) -> tuple[int, int] | None:
    """The (pid, start time) of the Prefect server among `pid`'s descendants, if one runs."""
    for child in descendants(pid):
        try:
            command = (PROC / str(child) / "cmdline").read_bytes()
        except OSError:
            continue
        if SERVER_APP in command and (born := started(child)) is not None:
            return child, born
    return None

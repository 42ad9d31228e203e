"""A `nightdesk run` stops at once, in one line, on a Ctrl-C or when its temporary Prefect server
dies.

Without its server the flow engine can record no state, log or event: it retries, and a run that
has already published would wait for the server for good, deaf to SIGTERM. A Ctrl-C in a
terminal reaches the server too, and a KeyboardInterrupt raised wherever the run happens to be
can be taken for a failure of the ticker it strikes (the night would then go on and publish it
as an `internal_error`). So a Ctrl-C ends the process there and then, as a dead server does.
Finished tickers and the spend are on disk (each written atomically, the manifest last), and the
guard (`flows.night.guard`) stops the server if it still runs, so the run's own command resumes it.
"""

from __future__ import annotations

import os
import signal
import sys
import threading
from types import FrameType, TracebackType

from flows.night.guard import PROC, descendants, started, zombie

POLL_S = 0.5
SERVER_APP = b"prefect.server.api.server:create_app"


class ServerWatch:
    """While in use, a Ctrl-C or the death of the temporary Prefect server this process started
    ends the process with one line that gives `resume`, the command that resumes the run.

    `server` is the pid of the run's own server; `None` with `search` set, when Prefect starts
    one itself (it is then looked for among this process's descendants); with neither, the run
    talks to a server it did not start, which is not its to watch, and only a Ctrl-C is."""

    def __init__(self, resume: str, server: int | None = None, *, search: bool = False) -> None:
        self.resume = resume
        self.done = threading.Event()
        born = started(server) if server is not None else None
        self.server: tuple[int, int] | None = (server, born) if server and born else None
        self.search = search and self.server is None
        self._previous: object = None

    def __enter__(self) -> ServerWatch:
        watching = self.server is not None or self.search
        if watching and (PROC / "self" / "stat").is_file():  # reads /proc (Linux)
            threading.Thread(target=self._watch, name="server-watch", daemon=True).start()
        self._previous = signal.signal(signal.SIGINT, self._interrupt)
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.done.set()
        signal.signal(signal.SIGINT, self._previous)  # type: ignore[arg-type]

    def _interrupt(self, signum: int, frame: FrameType | None) -> None:
        self._stop("nightdesk: interrupted", 130)

    def _watch(self) -> None:
        while not self.done.wait(POLL_S):
            if self.server is None:
                self.server = find_server(os.getpid())
                continue
            pid, born = self.server
            if started(pid) != born or zombie(pid):
                if not self.done.is_set():
                    self._stop("nightdesk: error: the temporary Prefect server stopped", 1)
                return

    def _stop(self, what: str, code: int) -> None:
        """Say why and how to resume, in one line, and end the process without its shutdown
        (which would wait for the server or for threads the interruption left waiting)."""
        line = f"{what} during the run; finished tickers are kept: resume with `{self.resume}`\n"
        show_cursor = "\x1b[?25h" if sys.stderr.isatty() else ""  # the progress bar hid it
        stderr = os.dup(2)
        quiet = os.open(os.devnull, os.O_WRONLY)
        for fd in (1, 2):  # what other threads still print goes nowhere: this line is the last
            os.dup2(quiet, fd)
        os.write(stderr, (show_cursor + line).encode())
        os._exit(code)


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

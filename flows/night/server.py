"""The temporary Prefect server of a `nightdesk run` that has no PREFECT_API_URL.

Prefect starts its own temporary server only when the flow first talks to the API, and then waits
for it: seconds of a night spent doing nothing else, after the run has imported the flow and
checked its input and before it builds the catalog. This module starts the same server (uvicorn on
Prefect's server app, UI off, the run's Prefect settings) as the run's first step, points
PREFECT_API_URL at it, and waits for it only when the flow is about to start, so that the server
comes up while the run imports, checks and builds. The run's own process then talks to it as to
any server and never loads the server's code. A run with PREFECT_API_URL set uses that server.

Nothing here imports Prefect: it must run before Prefect reads its settings.
"""

from __future__ import annotations

import contextlib
import importlib.util
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

from contract.errors import InputError

SERVER_APP = "prefect.server.api.server:create_app"
STOP_GRACE_S = 5.0


class TemporaryServer:
    """One Prefect API server on a free loopback port, for one run."""

    def __init__(self, log: Path) -> None:
        self.port = 0
        self.log = log
        """Where the server writes what it has to say (the last line is quoted if it fails)."""
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def api_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/api"

    def start(self) -> None:
        """Start the server and point this process's (and its children's) Prefect at it.

        The listening socket is bound here and handed to the server, so its port is known and
        held from the start: no other process can take it between a look and a bind, and the
        URL Prefect reads when it is imported is the one the server answers on."""
        self.log.parent.mkdir(parents=True, exist_ok=True)
        with listening_socket() as sock, self.log.open("wb") as log:
            self.port = int(sock.getsockname()[1])
            self.process = subprocess.Popen(
                server_command(sock.fileno()),
                env=server_env(),
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
                pass_fds=(sock.fileno(),),
            )
        os.environ["PREFECT_API_URL"] = self.api_url
        os.environ.setdefault("PREFECT_UI_URL", "")  # it serves no UI: no "View at" link to it

    def wait_ready(self, timeout_s: float) -> None:
        """Return once the server answers its health check; a server that exits or does not
        answer within `timeout_s` is one line saying so."""
        assert self.process is not None, "start() first"
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            status = self.process.poll()
            if status is not None:
                raise InputError(
                    f"the temporary Prefect server exited with status {status} "
                    f"({last_line(self.log)}); check PREFECT_HOME and that nothing stops it, "
                    "then run the command again"
                )
            if healthy(self.api_url):
                return
            time.sleep(0.05)
        self.stop()
        raise InputError(
            f"the temporary Prefect server did not answer within {timeout_s:.0f} s; raise "
            "PREFECT_SERVER_EPHEMERAL_STARTUP_TIMEOUT_SECONDS or set PREFECT_API_URL to a server"
        )

    def abandon(self) -> None:
        """Stop a server the run no longer needs, before it has served the run anything: killed
        at once (its database commits atomically, so a start cut short leaves it whole), and
        this process no longer pointed at it."""
        process, self.process = self.process, None
        if process is not None and process.poll() is None:
            process.kill()
            process.wait()
        if os.environ.get("PREFECT_API_URL") == self.api_url:
            del os.environ["PREFECT_API_URL"]

    def stop(self) -> None:
        """Stop the server (SIGTERM, then SIGKILL after a grace period)."""
        process, self.process = self.process, None
        if process is None or process.poll() is not None:
            return
        process.terminate()
        try:
            process.wait(timeout=STOP_GRACE_S)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


SERVER_ENV = {
    "PREFECT_UI_ENABLED": "0",
    "PREFECT__SERVER_EPHEMERAL": "1",
    "PREFECT__SERVER_FINAL": "1",
}
"""What Prefect sets for its own temporary server: no UI, the services of an ephemeral one."""

SERVER_DEFAULTS = {
    "PREFECT_API_BLOCKS_REGISTER_ON_START": "false",
    "PREFECT_SERVER_SERVICES_TRIGGERS_ENABLED": "false",
    "PREFECT_SERVER_SERVICES_EVENT_LOGGER_ENABLED": "false",
    "PREFECT_SERVER_SERVICES_TASK_RUN_RECORDER_BATCH_SIZE": "100",
    "PREFECT_SERVER_SERVICES_TASK_RUN_RECORDER_FLUSH_INTERVAL": "1",
}
"""What the temporary server does unless the environment says otherwise. It leaves out what a
night never uses: block types (it keeps none), automations (nobody sets one on a server that lives
for one night) and the event log to the console; their start took about half a second of every
night. And it records the tickers' task runs from their state events up to 100 at a time, at
least once a second, where Prefect's default writes each event in its own transaction: at 500
tickers that halves the server's CPU (10.6-15.2 s to 5.3-6.1 s in `make bench`), which shares
the machine's cores with the night; a task run's state reaches the UI at most a second later. Flow runs, the tickers' task runs (recorded from their events), states, logs, artifacts
and events are kept, so a `prefect server start` on the same home shows the night; that server
registers the block types itself."""


def server_env() -> dict[str, str]:
    """The temporary server's environment: this process's, with `SERVER_DEFAULTS` where it
    says nothing and `SERVER_ENV` over all."""
    return {**SERVER_DEFAULTS, **os.environ, **SERVER_ENV}


def server_command(fd: int) -> list[str]:
    """The command Prefect runs for its temporary server, serving the socket `fd`."""
    spec = importlib.util.find_spec("prefect")
    assert spec is not None and spec.origin is not None, "prefect is not installed"
    app_dir = Path(spec.origin).parent.parent
    return [
        *(sys.executable, "-m", "uvicorn", "--app-dir", str(app_dir)),
        *("--factory", SERVER_APP, "--fd", str(fd)),
        *("--log-level", "error", "--lifespan", "on"),
    ]


def listening_socket() -> socket.socket:
    """A TCP socket listening on a free loopback port (the server's copy outlives ours)."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind(("127.0.0.1", 0))
    sock.listen(128)
    return sock


def healthy(api_url: str) -> bool:
    try:
        with urllib.request.urlopen(f"{api_url}/health", timeout=1) as response:
            return bool(response.status == 200)
    except (urllib.error.URLError, OSError):
        return False


def reachable(api_url: str) -> bool:
    """Whether a server answers at `api_url` at all (any HTTP status: a hosted API may want a
    key for its health check), as opposed to no server listening there."""
    try:
        with urllib.request.urlopen(f"{api_url}/health", timeout=5):
            return True
    except urllib.error.HTTPError:
        return True
    except (urllib.error.URLError, OSError):
        return False


def last_line(log: Path) -> str:
    """The last line the server wrote, or that it wrote none."""
    text = ""
    with contextlib.suppress(OSError):
        text = log.read_text(errors="replace")
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    return f"its last words, in {log}: {lines[-1]}" if lines else "it wrote nothing"

"""A `nightdesk run` that dies takes its temporary Prefect server with it.

Prefect starts the temporary server as a child process and stops it at exit; a run killed with
SIGKILL (the OOM killer, `kill -9`) never reaches that, and the server would keep its port and
memory. So the run starts this guard first: a small process that notes the run's descendants
while the run lives and, once it is gone, stops those still running (SIGTERM, then SIGKILL).
The run also marks its environment (`NIGHTDESK_RUN`), which every process it starts inherits,
so that a child born just before the run died, between two looks, is found too. It reads `/proc`
(Linux); elsewhere it is not started.

Run as `python -m flows.night.guard PID`.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

PROC = Path("/proc")
POLL_S = 0.5
GRACE_S = 5.0
MARK = "NIGHTDESK_RUN"
_GUARDS: list[subprocess.Popen[bytes]] = []
"""The guard this process started, held so that it is not collected while it runs."""


def start_guard() -> None:
    """Guard this process's descendants (once; not where there is no `/proc` to read)."""
    pid = os.getpid()
    if _GUARDS or (born := started(pid)) is None:
        return
    os.environ[MARK] = f"{pid}:{born}"
    _GUARDS.append(
        subprocess.Popen(
            [sys.executable, "-m", "flows.night.guard", str(os.getpid())],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,  # a signal to the run's process group leaves the guard be
        )
    )


def stat(pid: int | str) -> list[str] | None:
    """The fields of `/proc/PID/stat` after the command name (the state first, then the
    parent); None once the process is gone."""
    try:
        return (PROC / str(pid) / "stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None


def started(pid: int) -> int | None:
    """When the process started (clock ticks since boot), telling a pid reused from its owner;
    None once it is gone."""
    fields = stat(pid)
    return int(fields[19]) if fields else None


def zombie(pid: int) -> bool:
    """Whether the process has exited and waits only to be reaped by its parent."""
    fields = stat(pid)
    return fields is not None and fields[0] == "Z"


def parents() -> dict[int, int]:
    """Every live process's parent."""
    found = {}
    for entry in PROC.iterdir():
        if entry.name.isdigit() and (fields := stat(entry.name)):
            found[int(entry.name)] = int(fields[1])
    return found


def descendants(pid: int) -> set[int]:
    children: dict[int, list[int]] = {}
    for child, parent in parents().items():
        children.setdefault(parent, []).append(child)
    found, todo = set(), [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            if child not in found:
                found.add(child)
                todo.append(child)
    return found


def guard(pid: int, born: int | None) -> None:
    """Note `pid`'s descendants until it is gone, then stop the ones still running. `born` is
    the run's start time as the run read it: a guard that comes up only after the run has died
    (a loaded machine) still finds the processes the run marked."""
    me = os.getpid()
    seen: dict[int, int] = {}
    while born is not None and started(pid) == born and not zombie(pid):  # a zombie has died
        for child in descendants(pid) - {me}:
            if child not in seen and (when := started(child)) is not None:
                seen[child] = when
        time.sleep(POLL_S)
    for child in marked(f"{pid}:{born}") - {me}:
        if child not in seen and (when := started(child)) is not None:
            seen[child] = when
    for sig in (signal.SIGTERM, signal.SIGKILL):
        left = [c for c, when in seen.items() if started(c) == when and not zombie(c)]
        for child in left:
            with contextlib.suppress(OSError):
                os.kill(child, sig)
        deadline = time.monotonic() + GRACE_S
        while left and time.monotonic() < deadline:
            left = [c for c in left if started(c) == seen[c] and not zombie(c)]
            time.sleep(0.1)
        if not left:
            return


def marked(mark: str) -> set[int]:
    """The processes whose environment carries the run's mark (only this user's can be read)."""
    entry = f"{MARK}={mark}".encode()
    found = set()
    for folder in PROC.iterdir():
        if folder.name.isdigit():
            try:
                environ = (folder / "environ").read_bytes()
            except OSError:
                continue
            if entry in environ.split(b"\0"):
                found.add(int(folder.name))
    return found


def run_mark(pid: int) -> int | None:
    """The start time of run `pid` from the mark it gave this guard's environment."""
    owner, _, born = os.environ.get(MARK, "").partition(":")
    return int(born) if owner == str(pid) and born.isdigit() else started(pid)


if __name__ == "__main__":
    guard(int(sys.argv[1]), run_mark(int(sys.argv[1])))

"""A command run as a child process, measured from outside: wall time, CPU time of the child
and its reaped descendants, and the peak resident memory of the whole tree (sampled from
`/proc`, every descendant's RSS added up)."""

from __future__ import annotations

import contextlib
import os
import resource
import signal
import subprocess
import threading
import time
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

PAGE = resource.getpagesize()


@dataclass
class MeasuredRun:
    returncode: int
    wall_s: float
    cpu_s: float
    peak_rss_mb: float
    log: Path


def tree_rss_bytes(root: int) -> int:
    """Resident bytes of `root` and every process below it, now."""
    children: dict[int, list[int]] = defaultdict(list)
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            ppid = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
        except (OSError, IndexError, ValueError):
            continue
        children[ppid].append(int(entry.name))
    total, stack = 0, [root]
    while stack:
        pid = stack.pop()
        with contextlib.suppress(OSError, IndexError, ValueError):  # gone since the scan
            total += int(Path(f"/proc/{pid}/statm").read_text().split()[1]) * PAGE
        stack.extend(children.get(pid, []))
    return total


def run_measured(
    command: list[str],
    *,
    env: dict[str, str],
    cwd: Path,
    log: Path,
    timeout_s: float,
    sample_s: float = 0.1,
) -> MeasuredRun:
    """Run `command` to its end (killed with its group after `timeout_s`), measured."""
    started = time.perf_counter()
    with log.open("wb") as out:
        child = subprocess.Popen(
            command, env=env, cwd=cwd, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
        )
    peak = 0
    done = threading.Event()

    def sample() -> None:
        nonlocal peak
        while not done.is_set():
            peak = max(peak, tree_rss_bytes(child.pid))
            if time.perf_counter() - started > timeout_s:
                os.killpg(child.pid, signal.SIGKILL)
            done.wait(sample_s)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - started
    done.set()
    sampler.join()
    child.returncode = os.waitstatus_to_exitcode(status)
    return MeasuredRun(
        returncode=child.returncode,
        wall_s=wall,
        cpu_s=usage.ru_utime + usage.ru_stime,
        peak_rss_mb=peak / 2**20,
        log=log,
    )

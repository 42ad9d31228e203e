"""The server watch follows only a server the run started (or Prefect started for it); a run
against a server it did not start scans nothing. The night runs with start-up's heap frozen."""

from __future__ import annotations

import gc
import subprocess
import sys
import threading
import time

import pytest

from flows.night.launch import settled_heap
from flows.night.watch import ServerWatch


def watch_threads() -> list[threading.Thread]:
    return [t for t in threading.enumerate() if t.name == "server-watch"]


def test_a_server_it_did_not_start_is_not_watched() -> None:
    before = len(watch_threads())
    with ServerWatch("nightdesk run", None, search=False):
        assert len(watch_threads()) == before


def test_the_death_of_its_own_server_stops_the_run(monkeypatch: pytest.MonkeyPatch) -> None:
    server = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    stops: list[tuple[str, int]] = []
    monkeypatch.setattr(ServerWatch, "_stop", lambda self, what, code: stops.append((what, code)))
    monkeypatch.setattr("flows.night.watch.POLL_S", 0.02)
    try:
        with ServerWatch("nightdesk run --date 2024-12-31", server.pid) as watch:
            assert watch.server is not None and watch.server[0] == server.pid
            time.sleep(0.1)
            assert stops == []  # alive: nothing to say
            server.kill()
            server.wait()
            deadline = time.monotonic() + 5
            while not stops and time.monotonic() < deadline:
                time.sleep(0.02)
    finally:
        server.kill()
    assert stops == [("nightdesk: error: the temporary Prefect server stopped", 1)]


def test_a_pid_that_no_longer_runs_is_not_taken_for_the_server() -> None:
    gone = subprocess.Popen([sys.executable, "-c", "pass"])
    gone.wait()
    watch = ServerWatch("nightdesk run", gone.pid)
    assert watch.server is None and not watch.search


def test_the_night_sees_start_up_frozen_and_the_collector_on() -> None:
    was = gc.isenabled()
    gc.disable()
    try:
        with settled_heap():
            assert gc.isenabled()
            assert gc.get_freeze_count() > 0
        assert gc.get_freeze_count() == 0  # given back to the collector
    finally:
        gc.unfreeze()
        if was:
            gc.enable()
        else:
            gc.disable()

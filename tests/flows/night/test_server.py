"""The run's Prefect server: its own temporary one, started first and gone after, or the one in
PREFECT_API_URL; a server that cannot start is one line."""

from __future__ import annotations

import json
import os
import socket
import sqlite3
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from contract.errors import InputError
from flows.night.guard import PROC
from flows.night.server import TemporaryServer, server_env

pytestmark = pytest.mark.slow
NIGHTDESK = [sys.executable, "-c", "from flows.cli.main import main; main()"]
DAY = "2024-12-31"


def clean_env(home: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PREFECT_")}
    return {**env, "PREFECT_HOME": str(home)}


def night(data: Path, out: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    args = [*NIGHTDESK, "run", "--data", str(data), "--out", str(out), "--date", DAY]
    return subprocess.run(args, env=env, capture_output=True, text=True, timeout=300)


def processes_with(home: Path) -> list[int]:
    """Live processes whose environment names this Prefect home (the run's and its server's)."""
    entry = f"PREFECT_HOME={home}".encode()
    found = []
    for folder in PROC.iterdir():
        if folder.name.isdigit():
            try:
                if entry in (folder / "environ").read_bytes().split(b"\0"):
                    found.append(int(folder.name))
            except OSError:
                continue
    return found


def use_home(home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """This process's Prefect settings are `home`'s alone, and the URL a server started here
    sets is undone after the test (a stale one would send later runs to a stopped server)."""
    for name, value in clean_env(home).items():
        monkeypatch.setenv(name, value)
    for name in ("PREFECT_API_URL", "PREFECT_UI_URL"):
        monkeypatch.setenv(name, "")  # recorded as it was (absent or not), so undone after
        monkeypatch.delenv(name)


@pytest.fixture
def server(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[TemporaryServer]:
    home = tmp_path / "server-home"
    use_home(home, monkeypatch)
    started = TemporaryServer(home / "server.log")
    started.start()
    try:
        started.wait_ready(180)
        yield started
    finally:
        started.stop()


def test_a_run_without_a_server_uses_its_own_and_leaves_none_behind(
    small_data: Path, tmp_path: Path
) -> None:
    home = tmp_path / "prefect"
    done = night(small_data, tmp_path / "out", clean_env(home))
    assert done.returncode == 0, done.stderr[-3000:]
    assert (home / "server.log").is_file()  # the run's own server, not one Prefect started
    with sqlite3.connect(home / "prefect.db") as db:  # and the night is recorded on it
        names = [row[0] for row in db.execute("select name from flow_run")]
        logs = db.execute("select count(*) from log").fetchone()[0]
        artifacts = {row[0] for row in db.execute("select key from artifact")}
        block_types = db.execute("select count(*) from block_type").fetchone()[0]
        task_runs = dict(db.execute("select state_type, count(*) from task_run group by 1"))
    tickers = json.loads((tmp_path / "out" / DAY / "manifest.json").read_text())["summary"]
    # every ticker's task run is recorded in its final state, though the server writes their
    # events in batches and was stopped as soon as the night ended
    assert task_runs == {"COMPLETED": tickers["night"]["tickers"]}
    assert f"nightly-{DAY}" in names
    assert logs > 0 and f"summary-{DAY}" in artifacts  # its logs and artifacts with it
    assert block_types == 0  # what a night never uses was not started
    assert "View at http" not in done.stderr  # it serves no UI, so no link to one
    deadline = time.monotonic() + 30  # the guard looks every half second, then leaves too
    while (left := processes_with(home)) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert left == [], [(PROC / str(pid) / "cmdline").read_bytes() for pid in left]


def test_a_run_with_prefect_api_url_records_the_night_on_that_server(
    small_data: Path, tmp_path: Path, server: TemporaryServer
) -> None:
    home = tmp_path / "run-home"
    done = night(
        small_data, tmp_path / "out", {**clean_env(home), "PREFECT_API_URL": server.api_url}
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert not (home / "server.log").exists()  # it started none of its own
    request = urllib.request.Request(
        f"{server.api_url}/flow_runs/filter",
        data=json.dumps({"limit": 10}).encode(),
        headers={"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=30) as response:
        runs = json.loads(response.read())
    assert [(r["name"], r["state_type"]) for r in runs] == [(f"nightly-{DAY}", "COMPLETED")]


def test_what_the_temporary_server_leaves_out_the_environment_can_put_back(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("PREFECT_SERVER_SERVICES_TRIGGERS_ENABLED", raising=False)
    monkeypatch.setenv("PREFECT_API_BLOCKS_REGISTER_ON_START", "true")
    monkeypatch.setenv("PREFECT_UI_ENABLED", "1")
    env = server_env()
    assert env["PREFECT_API_BLOCKS_REGISTER_ON_START"] == "true"
    assert env["PREFECT_SERVER_SERVICES_TRIGGERS_ENABLED"] == "false"
    assert env["PREFECT_UI_ENABLED"] == "0"  # a temporary server never serves the UI


def test_the_servers_port_is_held_from_the_moment_it_is_started(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No other process can take the port the run's Prefect already points at, even before
    the server has come up; the server then answers on it."""
    use_home(tmp_path / "prefect", monkeypatch)
    started = TemporaryServer(tmp_path / "prefect" / "server.log")
    started.start()
    try:
        assert os.environ["PREFECT_API_URL"] == started.api_url
        with socket.socket() as other, pytest.raises(OSError):
            other.bind(("127.0.0.1", started.port))
        started.wait_ready(180)
        with urllib.request.urlopen(f"{started.api_url}/health", timeout=10) as response:
            assert response.status == 200
    finally:
        started.stop()


def test_a_server_that_cannot_start_is_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    home = tmp_path / "prefect"
    use_home(home, monkeypatch)
    monkeypatch.setenv(
        "PREFECT_API_DATABASE_CONNECTION_URL", f"sqlite+aiosqlite:///{tmp_path}/missing/dir/x.db"
    )
    broken = TemporaryServer(home / "server.log")
    broken.start()
    try:
        with pytest.raises(InputError) as refused:
            broken.wait_ready(120)
    finally:
        broken.stop()
    line = refused.value.message
    assert "\n" not in line
    assert line.startswith("the temporary Prefect server exited with status")
    assert str(home / "server.log") in line  # where to read what it said


def test_a_prefect_api_url_where_no_server_listens_is_one_line(
    small_data: Path, tmp_path: Path
) -> None:
    with socket.socket() as closed:  # a port that was free a moment ago: nothing listens there
        closed.bind(("127.0.0.1", 0))
        port = closed.getsockname()[1]
    home = tmp_path / "prefect"
    env = {**clean_env(home), "PREFECT_API_URL": f"http://127.0.0.1:{port}/api"}
    done = night(small_data, tmp_path / "out", env)
    assert done.returncode == 2, done.stderr[-3000:]
    (line,) = done.stderr.strip().splitlines()
    assert f"PREFECT_API_URL=http://127.0.0.1:{port}/api does not answer" in line
    assert "Traceback" not in done.stderr and not (tmp_path / "out" / DAY).exists()


def test_a_refused_night_on_a_home_with_a_database_stops_the_server_it_started(
    small_data: Path, tmp_path: Path
) -> None:
    """There the server starts beside the checks; the refused night ends with its one line, no
    server of its own left running (not even for the guard to find) and nothing it wrote."""
    home = tmp_path / "prefect"
    home.mkdir()
    sqlite3.connect(home / "prefect.db").close()
    args = [*NIGHTDESK, "run", "--data", str(small_data), "--out", str(tmp_path / "out")]
    done = subprocess.run(
        [*args, "--date", "2024-12-25"],  # Christmas: not a trading session
        env=clean_env(home), capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert done.returncode == 2
    (line,) = done.stderr.strip().splitlines()
    assert "not a trading session" in line
    assert not (home / "server.log").exists()  # the log of the server it had started went too
    assert (home / "prefect.db").is_file()  # the operators' database stays
    servers = [
        pid
        for pid in processes_with(home)
        if b"uvicorn" in (PROC / str(pid) / "cmdline").read_bytes()
    ]
    assert servers == []

"""Scale-out on a real Prefect server: a process work pool, two workers, a night in two shards.

The sharded night must publish the same records as the unsharded one, write each record once,
and keep each shard within its budget share.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from agent.budget.limits import BudgetConfig
from tests.flows.night.test_crash import records
from tests.flows.night.test_flow import last_session, published_entries

pytestmark = pytest.mark.slow
PREFECT = [sys.executable, "-m", "prefect"]
NIGHTDESK = [sys.executable, "-c", "from flows.cli.main import main; main()"]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def processes() -> Iterator[list[subprocess.Popen[bytes]]]:
    """Started subprocesses, each in its own process group, all ended on the way out."""
    started: list[subprocess.Popen[bytes]] = []
    try:
        yield started
    finally:
        for proc in reversed(started):
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGTERM)
        for proc in reversed(started):
            try:
                proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()


def start(cmd: list[str], env: dict[str, str], log: Path) -> subprocess.Popen[bytes]:
    with log.open("wb") as out:
        return subprocess.Popen(
            cmd, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
        )


def wait_healthy(api: str, server: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + 150
    while True:
        try:
            urllib.request.urlopen(f"{api}/health", timeout=2).read()
            return
        except OSError:
            assert server.poll() is None, "prefect server exited"
            assert time.monotonic() < deadline, "prefect server did not start"
            time.sleep(1)


def night(data: Path, out: Path, day: str, env: dict[str, str], *extra: str) -> None:
    args = [*NIGHTDESK, "run", "--data", str(data), "--out", str(out), "--date", day, *extra]
    done = subprocess.run(args, env=env, capture_output=True, text=True, timeout=240)
    assert done.returncode == 0, done.stderr[-3000:]


def test_two_shards_on_two_workers_match_unsharded(small_data: Path, tmp_path: Path) -> None:
    port = free_port()
    api = f"http://127.0.0.1:{port}/api"
    base = {
        **os.environ,
        "PREFECT_HOME": str(tmp_path / "prefect"),
        "PREFECT_SERVER_ANALYTICS_ENABLED": "false",
        "PREFECT_SERVER_EPHEMERAL_STARTUP_TIMEOUT_SECONDS": "180",
        "PREFECT_LOGGING_LOGGERS_PREFECT_TASK_RUNS_LEVEL": "WARNING",
    }
    base.pop("PREFECT_API_URL", None)
    env = {**base, "PREFECT_API_URL": api, "PREFECT_WORKER_QUERY_SECONDS": "1"}
    day = last_session(small_data)
    plain, sharded = tmp_path / "plain", tmp_path / "sharded"
    with processes() as started:
        server_cmd = [*PREFECT, "server", "start", "--host", "127.0.0.1", "--port", str(port)]
        started.append(start(server_cmd, base, tmp_path / "server.log"))
        wait_healthy(api, started[0])
        pool = [*PREFECT, "work-pool", "create", "nightdesk", "--type", "process"]
        subprocess.run(pool, env=env, check=True, capture_output=True, timeout=120)
        for name in ("w1", "w2"):
            worker = [*PREFECT, "worker", "start", "--pool", "nightdesk", "--limit", "1"]
            started.append(start([*worker, "--name", name], env, tmp_path / f"{name}.log"))
        night(small_data, plain, day, env)
        night(small_data, sharded, day, env, "--shards", "2")

    assert records(sharded / day) == records(plain / day)
    keys = [e[:3] for e in published_entries(sharded / day)]
    assert len(keys) == len(set(keys)), "an entry was published twice"

    manifest = json.loads((sharded / day / "manifest.json").read_text())
    budget, counts = manifest["budget"], manifest["counts"]
    shards = budget["shards"]
    assert [s["shard"] for s in shards] == [0, 1]
    assert {s["state"] for s in shards} == {"Completed"}
    assert len({s["flow_run_id"] for s in shards}) == 2
    assert sum(s["tickers"] for s in shards) == counts["tickers"]
    whole = BudgetConfig()
    for s in shards:
        share = whole.for_shard(s["tickers"], counts["tickers"], 2)
        assert s["run_tokens"] == share.run_tokens < whole.run_tokens
        assert s["requests_per_minute"] == share.requests_per_minute
        assert 0 < s["used"]["total"] <= s["run_tokens"]
    assert budget["used"]["input_tokens"] == sum(s["used"]["input_tokens"] for s in shards)
    plain_used = json.loads((plain / day / "manifest.json").read_text())["budget"]["used"]
    assert budget["used"] == plain_used

    assert {(s["tickers_finished"], s["ledger_from"]) for s in shards} == {
        (s["tickers"], "final") for s in shards
    }
    (run_dir,) = (sharded / ".shards" / day).iterdir()
    assert sorted(p.name for p in run_dir.iterdir()) == ["shard-0", "shard-1"]
    stored = [json.loads(p.read_text()) for p in sorted(run_dir.glob("shard-*/tickers/*.json"))]
    tickers = [s["result"]["ticker"] for s in stored]
    assert len(tickers) == len(set(tickers)) == counts["tickers"]
    questions = [q["question_id"] for s in stored for q in s["result"]["records"]]
    assert len(questions) == len(set(questions))

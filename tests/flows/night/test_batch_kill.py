"""A batch night killed outright (kill -9 of its whole process group, its Prefect server with
it) while its answers batch runs at the provider, then run again: the rerun collects that batch
instead of submitting its drafts again. Counted at the provider: the scripted OpenAI-compatible
server of the benchmark, which plays the Batch API and answers a batch one latency after it was
created."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import time
from pathlib import Path

import pytest

from tests.bench.bench_night import ModelServer
from tests.flows.night.test_crash import NIGHTDESK, records

pytestmark = pytest.mark.slow
DAY = "2024-12-31"


def night(data: Path, out: Path, env: dict[str, str], err: Path) -> subprocess.Popen[bytes]:
    """The night as its own process group; what it says goes to `err`."""
    args = [
        *NIGHTDESK,
        *("run", "--data", str(data), "--out", str(out), "--date", DAY),
        *("--provider", "openai", "--batch", "--batch-poll-seconds", "0.5"),
    ]
    with err.open("wb") as log:
        return subprocess.Popen(
            args, env=env, stdout=subprocess.DEVNULL, stderr=log, start_new_session=True
        )


def test_a_batch_night_killed_after_submitting_submits_nothing_twice(
    small_data: Path, tmp_path: Path
) -> None:
    server = ModelServer(latency_ms=8_000, log=tmp_path / "server.log")  # a batch runs 8 s
    env = {
        **os.environ,
        "OPENAI_API_KEY": "sk-test-batch-kill",
        "OPENAI_BASE_URL": f"{server.url}/v1",
        "PREFECT_HOME": str(tmp_path / "prefect"),
    }
    out = tmp_path / "out"
    try:
        first = night(small_data, out, env, tmp_path / "first.err")
        deadline = time.monotonic() + 240
        while server.stats()["batches"] == 0 and first.poll() is None:
            assert time.monotonic() < deadline, "no batch was submitted"
            time.sleep(0.1)
        assert first.poll() is None, (tmp_path / "first.err").read_text()[-3000:]
        os.killpg(first.pid, signal.SIGKILL)  # the answers batch is still running
        first.wait()
        killed = server.stats()
        assert (killed["batches"], killed["batch_items"], killed["requests"]) == (1, 0, 0)

        rerun = night(small_data, out, env, tmp_path / "rerun.err")
        assert rerun.wait(timeout=300) == 0, (tmp_path / "rerun.err").read_text()[-3000:]
        served = server.stats()
    finally:
        server.close()
    counts = json.loads((out / DAY / "manifest.json").read_text())["counts"]
    questions = counts["questions"]
    assert questions > 0 and counts["accepted"] == questions
    assert all(status == "accepted" for _, _, status, _ in records(out / DAY))
    # answers once (the killed attempt's batch, collected), summaries once, nothing direct
    assert served["batches"] == 2 and served["requests"] == 0
    assert served["batch_items"] == questions

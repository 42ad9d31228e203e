"""`RELIABILITY_KILLS` kill -9 at random moments of one night (2 here, 30 in `make
reliability`), each followed by a rerun: nothing lost, nothing duplicated, no partial file, and
the spend of every killed attempt accounted for."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import time
from pathlib import Path

import pytest

from tests.flows.night.test_crash import NIGHTDESK, records, run, stored_results

pytestmark = pytest.mark.slow
KILLS = int(os.environ.get("RELIABILITY_KILLS", "2"))


def run_until_killed(data: Path, out: Path, env: dict[str, str], after_s: float) -> bool:
    """A run killed `after_s` seconds in (True), or one that finished first (False)."""
    args = [*NIGHTDESK, "run", "--data", str(data), "--out", str(out), "--concurrency", "2"]
    proc = subprocess.Popen(
        args, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True
    )
    deadline = time.monotonic() + after_s
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            return False
        time.sleep(0.01)
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    return True


def test_random_kills_then_a_rerun_end_like_one_clean_run(small_data: Path, tmp_path: Path) -> None:
    def env(name: str) -> dict[str, str]:
        return {**os.environ, "PREFECT_HOME": str(tmp_path / name)}

    clean, killed = tmp_path / "clean", tmp_path / "killed"
    assert run(small_data, clean, env("clean")) == 0
    chance = random.Random(int(os.environ.get("RELIABILITY_SEED", "5")))
    kills = 0
    for attempt in range(KILLS):
        # Prefect's server takes a few seconds to start: kill anywhere from before it is up
        # to deep into the answers.
        if run_until_killed(small_data, killed, env(f"k{attempt}"), chance.uniform(1.0, 14.0)):
            kills += 1
    assert run(small_data, killed, env("final")) == 0
    (day,) = [p for p in killed.iterdir() if not p.name.startswith(".")]
    assert records(day) == records(clean / day.name)
    leftovers = [p for p in killed.rglob("*") if p.name.endswith((".tmp", ".partial", ".link"))]
    assert leftovers == []
    for path in [*day.rglob("*.json"), *stored_results(killed)]:
        json.loads(path.read_bytes())
    night = json.loads((day / "manifest.json").read_text())["budget"]["night"]
    answered = [a["answered"] for a in night["attempts"]]
    assert answered[-1] is True and len(answered) >= 1
    assert night["used"]["total"] >= sum(a["used"]["total"] for a in night["attempts"][-1:]) > 0
    assert kills >= min(KILLS, 1)

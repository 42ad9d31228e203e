"""`RELIABILITY_KILLS` kill -9 at random moments (2 here, 30 in `make reliability`), up to
three on each night, which is then rerun: nothing lost, nothing duplicated, no partial file, and
the spend of every killed attempt accounted for: every reply the server wrote whole is in some
attempt's ledger, settled or, when the kill came before its settle, at its reservation."""

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
from tests.reliability.fault_server import FaultServer

pytestmark = pytest.mark.slow
KILLS = int(os.environ.get("RELIABILITY_KILLS", "2"))
PER_NIGHT = 3


def run_until_killed(
    data: Path, out: Path, env: dict[str, str], server: FaultServer, chance: random.Random
) -> bool:
    """A run killed at a random moment (True), or one that finished first (False): one kill
    in five while it starts (before its Prefect server is up, or while it plans), the others
    from 0 to 1.5 s after its first model request, when calls are out and settling (a small
    night answers within a few seconds of it)."""
    args = [
        *NIGHTDESK,
        *("run", "--data", str(data), "--out", str(out), "--concurrency", "2"),
        *("--provider", "openai"),
    ]
    seen = server.requests
    early = chance.random() < 0.2
    after_s = chance.uniform(0.5, 6.0) if early else chance.uniform(0.0, 1.5)
    proc = subprocess.Popen(
        args, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True
    )
    started = time.monotonic()
    while not early and server.requests == seen and time.monotonic() - started < 120:
        if proc.poll() is not None:
            return False
        time.sleep(0.01)
    deadline = time.monotonic() + after_s
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            return False
        time.sleep(0.01)
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    return True


def test_random_kills_then_a_rerun_end_like_one_clean_run(small_data: Path, tmp_path: Path) -> None:
    """Nights killed `PER_NIGHT` times each (fewer when a run finishes first), then rerun,
    until `KILLS` kills have struck: a night resumed to the end needs no more kills."""
    server = FaultServer(rate=0.0, seed=0)
    base = {
        **os.environ,
        "OPENAI_API_KEY": "sk-test-kills",
        "OPENAI_BASE_URL": server.base_url,
    }

    def env(name: str) -> dict[str, str]:
        return {**base, "PREFECT_HOME": str(tmp_path / name)}

    clean = tmp_path / "clean"
    chance = random.Random(int(os.environ.get("RELIABILITY_SEED", "5")))
    kills, nights, lines = 0, 0, []
    try:
        assert run(small_data, clean, env("clean"), provider="openai") == 0
        while kills < KILLS and nights < 2 * KILLS:  # a run may finish before its kill
            killed = tmp_path / f"night-{nights}"
            server.served.clear()
            struck, runs = 0, 1  # the rerun that ends the night
            for attempt in range(PER_NIGHT):
                runs += 1
                home = env(f"k{nights}-{attempt}")
                if not run_until_killed(small_data, killed, home, server, chance):
                    break  # it finished by itself
                struck += 1
            assert run(small_data, killed, env(f"final-{nights}"), provider="openai") == 0
            lines.append(check_resumed(killed, clean, struck, runs, dict(server.served)))
            kills, nights = kills + struck, nights + 1
    finally:
        server.close()
    figures = f"{kills} kills over {nights} nights; " + "; ".join(lines)
    print(figures)
    if report := os.environ.get("RELIABILITY_REPORT"):
        with open(report, "a", encoding="utf-8") as file:
            file.write(figures + "\n")
    assert kills >= KILLS


def check_resumed(killed: Path, clean: Path, struck: int, runs: int, served: dict[str, int]) -> str:
    """One killed-then-rerun night is the clean one: same records, nothing partial, every reply
    the server wrote in some attempt's ledger. Its figures, as one line."""
    (day,) = [p for p in killed.iterdir() if not p.name.startswith(".")]
    assert records(day) == records(clean / day.name)
    leftovers = [p for p in killed.rglob("*") if p.name.endswith((".tmp", ".partial", ".link"))]
    assert leftovers == []
    for path in [*day.rglob("*.json"), *stored_results(killed)]:
        json.loads(path.read_bytes())
    night = json.loads((day / "manifest.json").read_text())["budget"]["night"]
    answered = [a["answered"] for a in night["attempts"]]
    assert answered[-1] is True  # an earlier one may have answered all and died publishing
    assert len(answered) <= runs  # a run killed before its first call has no attempt
    calls = sum(a["calls"] for a in night["attempts"])
    in_flight = sum(a["in_flight_tokens"] for a in night["attempts"])
    assert calls >= served.get("calls", 0) > 0
    assert night["used"]["total"] >= served.get("tokens", 0)
    return (
        f"{struck} kills, {len(answered)} attempts: server wrote {served['calls']} replies "
        f"({served['tokens']:,} tokens), ledgers hold {calls} calls, "
        f"{night['used']['total']:,} tokens ({in_flight:,} in flight)"
    )

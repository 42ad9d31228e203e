"""A run killed with SIGKILL part-way, then rerun, ends like an uninterrupted run."""

from __future__ import annotations

import json
import os
import shlex
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from datetime import date
from pathlib import Path

import pytest

from contract.trace import Usage
from flows.publish.layout import RunLayout
from flows.run.attempts import load_night

pytestmark = pytest.mark.slow
NIGHTDESK = [sys.executable, "-c", "from flows.cli.main import main; main()"]


def stored_results(out: Path) -> list[Path]:
    results = out / ".results"
    return [p for p in results.glob("*") if not p.name.startswith(".")] if results.is_dir() else []


def readable(path: Path) -> bool:
    """A stored result the kill did not cut short (it may have struck mid-write)."""
    try:
        json.loads(path.read_bytes())
    except ValueError:
        return False
    return True


def run(
    data: Path,
    out: Path,
    env: dict[str, str],
    *,
    kill_after: int | None = None,
    provider: str = "offline",
) -> int:
    args = [
        *NIGHTDESK,
        *("run", "--data", str(data), "--out", str(out), "--concurrency", "1"),
        *("--provider", provider),
    ]
    proc = subprocess.Popen(
        args,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE if kill_after is None else subprocess.DEVNULL,
        start_new_session=True,  # the kill takes the run's temporary Prefect server with it
    )
    if kill_after is None:
        _, err = proc.communicate(timeout=300)
        if proc.returncode:
            print(err.decode(errors="replace")[-4000:])  # shown with the failing test
        return proc.returncode
    deadline = time.monotonic() + 240
    while time.monotonic() < deadline and proc.poll() is None:
        if len(stored_results(out)) >= kill_after:
            os.killpg(proc.pid, signal.SIGKILL)  # a machine that dies: every process of it
            proc.wait()
            return sum(readable(p) for p in stored_results(out))
        time.sleep(0.02)
    os.killpg(proc.pid, signal.SIGKILL)
    pytest.fail("the run ended before it could be killed")


def records(day: Path) -> set[tuple[str, ...]]:
    found = set()
    for path in (day / "accepted").glob("*.json"):
        report = json.loads(path.read_text())
        for s in report["tickers"]:
            for a in [*s["answers"], *([s["summary"]] if s["summary"] else [])]:
                found.add(
                    (report["portfolio_id"], a["question_id"], a["status"], a["answer"] or "")
                )
    for path in (day / "rejected").glob("*__*.json"):
        case = json.loads(path.read_text())
        found.add(("case", case["question_id"], case["reason"], case["draft"] or ""))
    return found


def test_kill_then_rerun_matches_uninterrupted(small_data: Path, tmp_path: Path) -> None:
    # Each run gets its own Prefect home: resuming needs only the stored results under --out.
    def env(name: str) -> dict[str, str]:
        return {**os.environ, "PREFECT_HOME": str(tmp_path / name)}

    killed, clean = tmp_path / "killed", tmp_path / "clean"
    assert run(small_data, clean, env("p1")) == 0
    finished = run(small_data, killed, env("p2"), kill_after=3)
    assert finished >= 2
    assert not list(killed.glob("*/manifest.json")), "the killed run must not have published"
    (ledgers,) = (killed / ".ledgers").iterdir()
    (stopped,) = load_night(RunLayout(killed, date.fromisoformat(ledgers.name))).attempts
    assert not stopped.answered and stopped.tickers_done >= finished - 1 >= 1
    assert stopped.ledger.used.input_tokens > 0
    budget = subprocess.run(
        [*NIGHTDESK, "budget", "--date", ledgers.name, "--out", str(killed)],
        env={**env("p2"), "COLUMNS": "200"},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert budget.returncode == 0, budget.stderr
    assert f"No attempt at {ledgers.name} has published yet" in budget.stdout
    assert "stopped early" in budget.stdout
    hint = shlex.split(budget.stdout.split("rerun the night with `")[1].split("`")[0])
    assert hint[:2] == ["nightdesk", "run"] and "--concurrency" in hint  # the attempt's own
    rerun = subprocess.run(  # the hint, pasted as it is, resumes the same night
        [*NIGHTDESK, *hint[1:]], env=env("p3"), capture_output=True, timeout=300
    )
    assert rerun.returncode == 0
    (day_k,) = [p for p in killed.iterdir() if not p.name.startswith(".")]
    day_c = clean / day_k.name
    assert records(day_k) == records(day_c)
    assert not [p for p in killed.rglob("*") if p.name.endswith((".tmp", ".partial"))]
    for path in day_k.rglob("*.json"):
        json.loads(path.read_text())
    manifest = json.loads((day_k / "manifest.json").read_text())
    rerun = manifest["counts"]
    full = json.loads((day_c / "manifest.json").read_text())["counts"]
    assert rerun["tickers_reused"] >= finished
    assert 0 < rerun["model_calls"] < full["model_calls"]
    assert rerun["model_calls"] == sum(line["calls"] for line in manifest["budget"]["lines"])
    night, used = manifest["budget"]["night"], Usage(**manifest["budget"]["used"]).total
    assert [a["answered"] for a in night["attempts"]] == [False, True]
    totals = [a["used"]["total"] for a in night["attempts"]]
    assert night["used"]["total"] == sum(totals) > totals[1] == used > 0


def start_run(data: Path, out: Path, home: Path, **popen: object) -> subprocess.Popen[bytes]:
    """`nightdesk run` in a child process, with its own Prefect home."""
    args = [*NIGHTDESK, "run", "--data", str(data), "--out", str(out), "--concurrency", "1"]
    env = {**os.environ, "PREFECT_HOME": str(home)}
    return subprocess.Popen(args, env=env, **popen)  # type: ignore[call-overload, no-any-return]


def wait_until(proc: subprocess.Popen[bytes], ready: Callable[[], object]) -> None:
    """Wait until `ready()` holds, while the run goes on."""
    deadline = time.monotonic() + 240
    while not ready():
        assert proc.poll() is None and time.monotonic() < deadline, "the run ended too soon"
        time.sleep(0.01)


def wait_gone(processes: dict[int, int | None], what: str) -> None:
    """Wait until none of `processes` (pid: start time) runs any more."""
    from flows.night.guard import started

    deadline = time.monotonic() + 20
    while [pid for pid, born in processes.items() if started(pid) == born]:
        assert time.monotonic() < deadline, f"processes of the {what} run are still running"
        time.sleep(0.1)


def family(pid: int) -> dict[int, int | None]:
    from flows.night.guard import descendants, started

    return {child: started(child) for child in descendants(pid)}


@pytest.mark.parametrize("when", ["mid-run", "as its server starts"])
def test_a_run_killed_alone_takes_its_temporary_server_with_it(
    small_data: Path, tmp_path: Path, when: str
) -> None:
    from flows.night.watch import find_server

    out = tmp_path / "out"
    proc = start_run(
        small_data, out, tmp_path / "prefect", stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    try:
        wait_until(
            proc,
            lambda: find_server(proc.pid) and (when != "mid-run" or stored_results(out)),
        )
        children = family(proc.pid)
    finally:
        proc.kill()  # only the run process, as the OOM killer would
        proc.wait()
    wait_gone(children, "killed")


def test_a_run_whose_temporary_server_dies_stops_at_once_and_a_rerun_resumes(
    small_data: Path, tmp_path: Path
) -> None:
    from flows.night.watch import find_server

    out = tmp_path / "out"
    home = tmp_path / "prefect"
    proc = start_run(small_data, out, home, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        wait_until(proc, lambda: stored_results(out) and find_server(proc.pid))
        server = find_server(proc.pid)
        assert server is not None
        os.kill(server[0], signal.SIGKILL)
        _, err = proc.communicate(timeout=30)  # it would otherwise wait for the server for good
    finally:
        if proc.poll() is None:
            proc.kill()
    lines = err.decode().strip().splitlines()
    assert proc.returncode == 1
    assert lines[-1].startswith("nightdesk: error: the temporary Prefect server stopped")
    assert "Traceback" not in err.decode()
    assert not list(out.glob("*/manifest.json"))
    env = {**os.environ, "PREFECT_HOME": str(home)}
    assert run(small_data, out, env) == 0  # the same command again resumes and publishes
    assert list(out.glob("*/manifest.json"))


@pytest.mark.parametrize("to", ["group", "run"])
def test_ctrl_c_stops_a_run_at_once(small_data: Path, tmp_path: Path, to: str) -> None:
    out = tmp_path / "out"
    proc = start_run(
        small_data,
        out,
        tmp_path / "prefect",
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )
    try:
        wait_until(proc, lambda: stored_results(out))
        children = family(proc.pid)
        if to == "group":
            os.killpg(proc.pid, signal.SIGINT)  # a terminal's Ctrl-C reaches the server as well
        else:
            os.kill(proc.pid, signal.SIGINT)
        _, err = proc.communicate(timeout=20)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    assert proc.returncode == 130
    line = err.decode().strip().splitlines()[-1]
    assert line.startswith("nightdesk: interrupted during the run; finished tickers are kept:")
    assert f"--out {out}" in line and "Traceback" not in err.decode()
    wait_gone(children, "interrupted")


def test_a_guard_that_comes_up_after_its_run_died_still_stops_what_the_run_started(
    tmp_path: Path,
) -> None:
    """On a loaded machine the guard may first look when the run is already gone: the
    processes the run marked are stopped all the same."""
    from flows.night.guard import MARK, started

    run = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    mark = f"{run.pid}:{started(run.pid)}"
    child = subprocess.Popen(  # what the run started, carrying its mark, now an orphan
        [sys.executable, "-c", "import time; time.sleep(60)"], env={**os.environ, MARK: mark}
    )
    try:
        run.kill()
        run.wait()
        guard = subprocess.run(
            [sys.executable, "-m", "flows.night.guard", str(run.pid)],
            env={**os.environ, MARK: mark},
            timeout=60,
        )
        assert guard.returncode == 0
        assert child.wait(timeout=20) != 0  # stopped by the guard, not ended by itself
    finally:
        child.kill()
        child.wait()

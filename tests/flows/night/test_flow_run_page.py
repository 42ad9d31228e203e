"""The fan-out in the Prefect UI, as an operator opens it: a real `prefect server start` with its
UI, a night recorded on it, and the flow run's page in headless Chromium, whose header counts
one task run per ticker and whose Task Runs tab lists each ticker with its state. The page's
screenshot (the flow run graph) is kept as `outputs/screens/flow-run-graph.png`."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from datetime import date
from pathlib import Path
from typing import Any

import pytest

from tests.flows.browser import ARGS, CHROMIUM

pytestmark = [
    pytest.mark.filterwarnings("ignore::ResourceWarning"),
    pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning"),
]
SCREENS = Path(__file__).resolve().parents[3] / "outputs" / "screens"
DAY = date(2024, 12, 31)
FINAL = {"COMPLETED", "FAILED", "CRASHED", "CANCELLED"}


@pytest.fixture(autouse=True)
def events_to_this_server() -> None:
    """Task runs reach the server as events, through a process-wide events worker that keeps
    the API URL it first saw: a worker left by an earlier test of this process may still point
    at a server that test started and stopped, so it is drained and the night starts a new one."""
    from prefect.events.worker import EventsWorker

    EventsWorker.drain_all()


@pytest.fixture(scope="module")
def ui_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A Prefect server with its UI, on a home of its own; its address."""
    home = tmp_path_factory.mktemp("prefect-ui")
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    url = f"http://127.0.0.1:{port}"
    env = {k: v for k, v in os.environ.items() if not k.startswith("PREFECT_")}
    env |= {
        "PREFECT_HOME": str(home),
        "PREFECT_UI_ENABLED": "true",
        "PREFECT_UI_API_URL": f"{url}/api",
        "PREFECT_SERVER_ANALYTICS_ENABLED": "false",
    }
    prefect = Path(sys.executable).with_name("prefect")
    with (home / "server.log").open("wb") as log:
        server = subprocess.Popen(
            [prefect, "server", "start", "--host", "127.0.0.1", "--port", str(port)],
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
    try:
        for _ in range(START_TRIES):
            if server.poll() is not None:
                pytest.fail((home / "server.log").read_text()[-2000:])
            try:
                with urllib.request.urlopen(f"{url}/api/health", timeout=1):
                    break
            except OSError:
                time.sleep(0.5)
        yield url
    finally:
        server.terminate()
        server.wait(timeout=60)


START_TRIES = 360
"""Half-second looks for the server's first answer: three minutes on a loaded machine."""


def test_the_flow_run_page_shows_one_task_run_per_ticker(
    ui_server: str, small_data: Path, tmp_path: Path
) -> None:
    from playwright.sync_api import sync_playwright

    clean = {k: v for k, v in os.environ.items() if not k.startswith("PREFECT_")}
    night = subprocess.run(  # as an operator starts it, in a process of its own
        [Path(sys.executable).with_name("nightdesk"), "run", "--data", str(small_data),
         "--out", str(tmp_path), "--portfolio", "P001", "--date", str(DAY)],
        env={**clean, "PREFECT_API_URL": f"{ui_server}/api", "PREFECT_HOME": str(tmp_path / "h")},
        capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert night.returncode == 0, night.stderr[-3000:]
    result = json.loads((tmp_path / str(DAY) / "manifest.json").read_text())
    result["day"] = str(tmp_path / str(DAY))
    tickers = result["counts"]["tickers"]
    SCREENS.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        page = browser.new_page(viewport={"width": 1600, "height": 1100})
        page.goto(f"{ui_server}/runs/flow-run/{result['run_id']}")
        page.get_by_text(f"{tickers} Task runs").wait_for(timeout=120_000)
        page.wait_for_timeout(3_000)  # the graph draws its bars after the counts
        page.screenshot(path=str(SCREENS / "flow-run-graph.png"))
        page.get_by_text("Task Runs", exact=True).first.click()
        for section in report_tickers(Path(result["day"])):
            page.get_by_text(section, exact=True).first.wait_for(timeout=60_000)
        assert page.get_by_text("Completed").count() >= 1
        browser.close()
    assert (SCREENS / "flow-run-graph.png").stat().st_size > 10_000


def report_tickers(day: Path) -> list[str]:
    return sorted(
        {
            section["ticker"]
            for path in (day / "accepted").glob("*.json")
            for section in json.loads(path.read_text())["tickers"]
        }
    )


def test_a_cut_night_says_so_on_its_page_and_in_its_summary_artifact(
    ui_server: str, small_data: Path, tmp_path: Path
) -> None:
    """A night cut by its run budget: the flow run's page names the state `Partial`, the
    state's message says the budget cut it, and the summary artifact's page shows the table
    with this attempt's and the night's figures. Screenshots: `cut-night.png`,
    `summary-artifact.png`."""
    from playwright.sync_api import sync_playwright

    clean = {k: v for k, v in os.environ.items() if not k.startswith("PREFECT_")}
    night = subprocess.run(
        [Path(sys.executable).with_name("nightdesk"), "run", "--data", str(small_data),
         "--out", str(tmp_path), "--portfolio", "P001", "--date", str(DAY),
         "--run-tokens", "20000"],
        env={**clean, "PREFECT_API_URL": f"{ui_server}/api", "PREFECT_HOME": str(tmp_path / "h")},
        capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    manifest = json.loads((tmp_path / str(DAY) / "manifest.json").read_text())
    assert manifest["summary"]["night"]["cut"], night.stdout[-2000:]
    run_id = manifest["run_id"]
    with urllib.request.urlopen(f"{ui_server}/api/flow_runs/{run_id}", timeout=30) as reply:
        state = json.loads(reply.read())["state"]
    assert state["name"] == "Partial" and "budget" in state["message"].lower(), state
    tasks = settled_task_states(ui_server, run_id)
    cases = rejected_cases(tmp_path / str(DAY))
    cut = {c["ticker"] for c in cases if c["reason"] == "budget_exhausted"}
    assert cut and {name for name, s in tasks.items() if s and s["name"] == "Cut"} == cut, tasks
    SCREENS.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        page = browser.new_page(viewport={"width": 1600, "height": 1100})
        page.goto(f"{ui_server}/runs/flow-run/{run_id}")
        page.get_by_text("Partial", exact=True).first.wait_for(timeout=120_000)
        page.wait_for_timeout(2_000)
        page.screenshot(path=str(SCREENS / "cut-night.png"))
        page.get_by_text("Artifacts", exact=True).first.click()
        page.get_by_text(f"summary-{DAY}").first.click()
        page.get_by_text(f"Night of {DAY}").first.wait_for(timeout=60_000)
        page.wait_for_timeout(1_000)
        page.screenshot(path=str(SCREENS / "summary-artifact.png"), full_page=True)
        body = page.inner_text("body")
        browser.close()
    tokens = manifest["summary"]["attempt"]["tokens"]
    assert f"{tokens:,}" in body, body[-2000:]


def settled_task_states(ui_server: str, run_id: str, wait_s: float = 120) -> dict[str, Any]:
    """The final state of each task run of a flow run, by task name. The server learns task
    states from events it processes after the flow has ended, so a state still `Running`
    here is the server catching up, as is a task run it has created but not yet given a
    state (`null`): ask again until every state is final (or time is up)."""
    ask = urllib.request.Request(
        f"{ui_server}/api/task_runs/filter",
        data=json.dumps({"flow_runs": {"id": {"any_": [run_id]}}}).encode(),
        headers={"Content-Type": "application/json"},
    )
    deadline = time.monotonic() + wait_s
    while True:
        with urllib.request.urlopen(ask, timeout=30) as reply:
            tasks = {t["name"]: t["state"] for t in json.loads(reply.read())}
        settled = all(s is not None and s["type"] in FINAL for s in tasks.values())
        if settled or time.monotonic() > deadline:
            return tasks
        time.sleep(0.5)


def rejected_cases(day: Path) -> list[dict[str, Any]]:
    """Every rejected case of a published night (its `rejected/` files)."""
    return [json.loads(path.read_text()) for path in (day / "rejected").glob("*.json")]

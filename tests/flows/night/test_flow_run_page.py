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

import pytest

from tests.flows.browser import ARGS, CHROMIUM

pytestmark = [
    pytest.mark.filterwarnings("ignore::ResourceWarning"),
    pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning"),
]
SCREENS = Path(__file__).resolve().parents[3] / "outputs" / "screens"
DAY = date(2024, 12, 31)


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

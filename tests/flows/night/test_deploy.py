"""A real Prefect server: the `nightly` deployment registers with its schedule and a parameter
schema holding the budget fields (the UI form); the `shard` deployment registers on its pool."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow

CHECK = """
import asyncio, json
from pathlib import Path
from prefect.client.orchestration import get_client
from flows.night.deploy import nightly_deployment

dep = nightly_deployment(cron="30 18 * * 1-5", timezone="Europe/Madrid",
                         data_dir=Path("data/sample"), out_dir=Path("outputs"))
dep.apply()

async def read():
    async with get_client() as client:
        d = await client.read_deployment_by_name("nightly-reports/nightly")
        return {"schedules": [s.schedule.model_dump(mode="json") for s in d.schedules],
                "schema": d.parameter_openapi_schema}

from contract.errors import InputError
from flows.night.shard import register_shard_deployment
from prefect.client.schemas.actions import WorkPoolCreate

async def shard():
    try:
        await register_shard_deployment("nightdesk")
    except InputError as exc:
        missing = str(exc)
    async with get_client() as client:
        await client.create_work_pool(WorkPoolCreate(name="nightdesk", type="process"))
    await register_shard_deployment("nightdesk")
    async with get_client() as client:
        d = await client.read_deployment_by_name("nightly-shard/shard")
        return {"missing": missing, "pool": d.work_pool_name, "entrypoint": d.entrypoint}

print(json.dumps({**asyncio.run(read()), "shard": asyncio.run(shard())}))
"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_deployment_schedule_and_budget_form(tmp_path: Path) -> None:
    port = free_port()
    env = {
        **os.environ,
        "PREFECT_HOME": str(tmp_path / "prefect"),
        "PREFECT_SERVER_ANALYTICS_ENABLED": "false",
    }
    server = subprocess.Popen(
        [sys.executable, "-m", "prefect", "server", "start", "--port", str(port)],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    api = f"http://127.0.0.1:{port}/api"
    try:
        deadline = time.monotonic() + 180
        while True:
            try:
                urllib.request.urlopen(f"{api}/health", timeout=2).read()
                break
            except OSError:
                assert time.monotonic() < deadline, "prefect server did not start"
                time.sleep(1)
        out = subprocess.run(
            [sys.executable, "-c", CHECK],
            env={**env, "PREFECT_API_URL": api},
            capture_output=True,
            text=True,
            timeout=180,
            check=True,
        )
        found = json.loads(out.stdout.strip().splitlines()[-1])
    finally:
        server.terminate()
        server.wait(timeout=30)
    (schedule,) = found["schedules"]
    assert schedule["cron"] == "30 18 * * 1-5" and schedule["timezone"] == "Europe/Madrid"
    text = json.dumps(found["schema"])
    for field in ("run_tokens", "question_tokens", "max_output_tokens", "requests_per_minute"):
        assert field in text
    assert "config" in found["schema"]["properties"]
    shard = found["shard"]
    assert "work pool 'nightdesk' does not exist" in shard["missing"]
    assert shard["pool"] == "nightdesk" and shard["entrypoint"] == "flows.night.shard.nightly_shard"


@pytest.mark.parametrize(
    ("env", "args", "message"),
    [
        ({}, (), "serve needs a Prefect server: start one"),
        (
            {"PREFECT_API_URL": "http://127.0.0.1:9/api"},
            (),
            "no Prefect server answers at http://127.0.0.1:9/api",
        ),
        ({}, ("--data", "/nonexistent/data"), "data directory /nonexistent/data does not exist"),
    ],
)
def test_serve_that_cannot_work_says_so_in_one_line(
    tmp_path: Path, env: dict[str, str], args: tuple[str, ...], message: str
) -> None:
    base = {k: v for k, v in os.environ.items() if k != "PREFECT_API_URL"}
    base["PREFECT_HOME"] = str(tmp_path / "prefect")
    done = subprocess.run(
        [sys.executable, "-c", "from flows.cli.main import main; main()", "serve", "--out",
         str(tmp_path / "out"), *args],
        env={**base, **env},
        capture_output=True,
        text=True,
        timeout=120,
    )  # fmt: skip
    assert done.returncode == 2, done.stderr[-2000:]
    (line,) = done.stderr.strip().splitlines()
    assert line.startswith("nightdesk: error: ") and message in line


def test_a_custom_run_without_folders_uses_the_served_ones(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Prefect replaces the `config` parameter whole: what it leaves out falls back to the
    folders `serve` was given (it sets these variables), not to folders relative to its cwd."""
    from flows.run.config import DATA_ENV, OUT_ENV, RunConfig

    monkeypatch.setenv(DATA_ENV, str(tmp_path / "data"))
    monkeypatch.setenv(OUT_ENV, str(tmp_path / "out"))
    config = RunConfig.model_validate({"portfolios": ["P001"]})
    assert (config.data_dir, config.out_dir) == (tmp_path / "data", tmp_path / "out")
    monkeypatch.delenv(DATA_ENV)
    assert RunConfig().data_dir == Path("data/sample")

"""The bundled sample's night, run as a user runs it (`nightdesk run --provider offline`), once
per report language, for the report tests to read."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

SAMPLE = Path(__file__).resolve().parents[3] / "data" / "sample"
DATE = "2024-12-31"


def run_night(out: Path, language: str, home: Path) -> Path:
    nightdesk = Path(sys.executable).with_name("nightdesk")
    env = {k: v for k, v in os.environ.items() if k != "PREFECT_API_URL"}
    env["PREFECT_HOME"] = str(home)  # its own temporary server, whatever the shell names
    command = [str(nightdesk), "run", "--data", str(SAMPLE), "--out", str(out), "--date", DATE]
    command += ["--provider", "offline", "--language", language]
    done = subprocess.run(
        command,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
        env=env,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return out / DATE


@pytest.fixture(scope="session")
def prefect_home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("prefect-home")


@pytest.fixture(scope="session")
def night_en(tmp_path_factory: pytest.TempPathFactory, prefect_home: Path) -> Path:
    return run_night(tmp_path_factory.mktemp("night-en"), "en", prefect_home)


@pytest.fixture(scope="session")
def night_es(tmp_path_factory: pytest.TempPathFactory, prefect_home: Path) -> Path:
    return run_night(tmp_path_factory.mktemp("night-es"), "es", prefect_home)

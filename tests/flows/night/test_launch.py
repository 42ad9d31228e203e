"""The shell runner builds the night's catalog in a thread from its first moment; the flow finds
it built, and a catalog that cannot be built is the same error where the run waits for it. Its
temporary Prefect server starts beside the checks on a home whose database exists, and a
refusal stops it; on a first night's home it starts only once the checks have passed."""

from __future__ import annotations

from datetime import date
from pathlib import Path
from types import SimpleNamespace

import pytest

from contract.errors import InputError
from flows.night import launch
from flows.night.launch import CatalogBuild, run_with_progress
from flows.publish.layout import catalog_dir
from flows.run.config import RunConfig
from tools.catalog import open_catalog

DAY = date(2024, 12, 31)


def test_the_catalog_is_built_in_a_thread_and_the_night_finds_it(
    small_data: Path, tmp_path: Path
) -> None:
    config = RunConfig(data_dir=small_data, out_dir=tmp_path / "out", report_date=DAY)
    build = CatalogBuild(config)
    assert build.thread.name == "nightdesk-catalog"
    build.wait()
    (built,) = [
        p
        for p in catalog_dir(config.out_dir).glob("*.duckdb")
        if "-t" not in p.name and not p.name.endswith("-public.duckdb")
    ]
    inode = built.stat().st_ino
    open_catalog(small_data, DAY, workdir=catalog_dir(config.out_dir)).close()
    assert built.stat().st_ino == inode  # reused as it was, not built again


def test_a_catalog_that_cannot_be_built_fails_where_the_run_waits(tmp_path: Path) -> None:
    empty = tmp_path / "data"
    empty.mkdir()
    config = RunConfig(data_dir=empty, out_dir=tmp_path / "out", report_date=DAY)
    build = CatalogBuild(config)
    with pytest.raises(InputError):
        build.wait()


class RecordingServer:
    """Stands for the temporary server: records what the run does with it, in order with the
    checks (`events` is shared with them)."""

    def __init__(self, events: list[str]) -> None:
        self.events = events

    def start(self) -> None:
        self.events.append("start")

    def abandon(self) -> None:
        self.events.append("abandon")

    def stop(self) -> None:
        self.events.append("stop")


@pytest.mark.parametrize(
    ("first_night", "refused", "expected"),
    [
        (False, False, ["start", "checks"]),  # the server comes up while the run checks
        (False, True, ["start", "checks", "abandon"]),
        (True, False, ["checks", "start"]),  # its first start creates the database
        (True, True, ["checks"]),
    ],
)
def test_the_temporary_server_starts_before_the_checks_only_where_a_refusal_cannot_hurt(
    small_data: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    first_night: bool,
    refused: bool,
    expected: list[str],
) -> None:
    home = tmp_path / "prefect"
    home.mkdir()
    if not first_night:
        (home / "prefect.db").write_bytes(b"")
    monkeypatch.setenv("PREFECT_HOME", str(home))
    for name, value in launch.PREFECT_DEFAULTS.items():  # the run sets them: undone after
        monkeypatch.setenv(name, value)
    for name in ("PREFECT_API_URL", *launch.DATABASE_URL_SETTINGS):
        monkeypatch.delenv(name, raising=False)
    events: list[str] = []
    server = RecordingServer(events)
    checks = launch.check_night

    def check_night(config: RunConfig) -> RunConfig:
        events.append("checks")
        return checks(config)

    ran: list[object] = []
    monkeypatch.setattr(launch, "check_night", check_night)
    monkeypatch.setattr(launch, "temporary_server", lambda: server)
    monkeypatch.setattr(launch, "start_guard", lambda: None)
    monkeypatch.setattr(launch, "atexit", SimpleNamespace(register=lambda _: None))
    monkeypatch.setattr(launch, "CatalogBuild", lambda _: None)
    monkeypatch.setattr(launch, "run_flow", lambda *args: ran.append(args[2]) or {})
    day = date(2024, 12, 25) if refused else DAY  # Christmas: not a trading session
    config = RunConfig(data_dir=small_data, out_dir=tmp_path / "out", report_date=day)
    if refused:
        with pytest.raises(InputError, match="not a trading session"):
            run_with_progress(config)
        assert ran == []
    else:
        run_with_progress(config)
        assert ran == [server]  # the flow runs against the server the run started
    assert events == expected

"""The shell runner builds the night's catalog in a thread from its first moment; the flow finds
it built, and a catalog that cannot be built is the same error where the run waits for it."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from contract.errors import InputError
from flows.night.launch import CatalogBuild
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
    (built,) = [p for p in catalog_dir(config.out_dir).glob("*.duckdb") if "-t" not in p.name]
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

"""The catalog: the as-of copy of each table, the cache, the lockdown, bad input."""

from __future__ import annotations

import os
import shutil
from datetime import UTC, date, datetime
from pathlib import Path

import pandas as pd
import pytest

from contract.errors import InputError
from data.contract import TABLES
from tools.catalog import default_as_of, open_catalog


def test_default_as_of_is_the_end_of_the_day_in_new_york() -> None:
    assert default_as_of(date(2024, 12, 20)) == datetime(
        2024, 12, 21, 4, 59, 59, 999999, tzinfo=UTC
    )
    assert default_as_of(date(2024, 7, 1)) == datetime(2024, 7, 2, 3, 59, 59, 999999, tzinfo=UTC)


def test_tables_hold_only_what_was_known(catalog, frames) -> None:
    as_of = pd.Timestamp(catalog.as_of)
    expected = {
        "prices": (frames["prices"].date <= catalog.report_date).sum(),
        "holdings": (frames["holdings"].as_of <= catalog.report_date).sum(),
        "news": (frames["news"].published_at <= as_of).sum(),
        "events": (frames["events"].announced_at <= as_of).sum(),
        "companies": len(frames["companies"]),
        "portfolios": len(frames["portfolios"]),
    }
    assert all(expected[t] < len(frames[t]) for t in ("prices", "news", "events"))
    with catalog.cursor() as cur:
        for name, table in TABLES.items():
            assert cur.execute(f"SELECT count(*) FROM {name}").fetchone()[0] == expected[name]
            assert [
                d[0] for d in cur.execute(f"SELECT * FROM {name} LIMIT 0").description
            ] == table.columns
        keys = cur.execute("SELECT ticker, date FROM prices").fetchall()
        tables = {r[0] for r in cur.execute("SELECT table_name FROM duckdb_tables()").fetchall()}
    assert keys == sorted(keys)
    assert tables == set(TABLES)


def test_as_of_before_the_close_hides_that_day(small_data: Path, tmp_path: Path) -> None:
    as_of = datetime(2024, 6, 28, 15, 0, tzinfo=UTC)  # 11:00 in New York
    with open_catalog(small_data, date(2024, 6, 28), as_of=as_of, workdir=tmp_path) as cat:
        assert cat.price_cutoff == date(2024, 6, 27)
        with cat.cursor() as cur:
            assert cur.execute("SELECT max(date) FROM prices").fetchone()[0] == date(2024, 6, 27)


def test_lockdown_settings_hold(catalog) -> None:
    with catalog.cursor() as cur:
        settings = dict(
            cur.execute(
                "SELECT name, value FROM duckdb_settings() WHERE name IN "
                "('enable_external_access', 'lock_configuration', 'python_enable_replacements', "
                "'max_execution_time', 'temp_directory', 'autoload_known_extensions', 'access_mode')"
            ).fetchall()
        )
    assert settings == {
        "enable_external_access": "false",
        "lock_configuration": "true",
        "python_enable_replacements": "false",
        "max_execution_time": "5000",
        "temp_directory": "",
        "autoload_known_extensions": "false",
        "access_mode": "read_only",
    }


def test_built_file_is_reused_and_rebuilt_when_data_changes(
    small_data: Path, tmp_path: Path
) -> None:
    data = tmp_path / "data"
    shutil.copytree(small_data, data)
    work = tmp_path / "work"
    first = open_catalog(data, date(2024, 6, 28), workdir=work)
    first.close()
    built = sorted(work.glob("catalog-*"))
    stamp = [p.stat().st_ino for p in built]  # a rebuild replaces the file: a new inode
    again = open_catalog(data, date(2024, 6, 28), workdir=work)
    again.close()
    assert again.fingerprint == first.fingerprint
    assert [p.stat().st_ino for p in sorted(work.glob("catalog-*"))] == stamp
    other_day = open_catalog(data, date(2024, 6, 27), workdir=work)
    other_day.close()
    os.utime(data / "news.parquet", ns=(1, 1))
    touched = open_catalog(data, date(2024, 6, 28), workdir=work)
    touched.close()
    assert touched.fingerprint == first.fingerprint  # keyed on content, not on the clock
    news = pd.read_parquet(data / "news.parquet")
    news.iloc[:1].to_parquet(data / "news.parquet")
    changed = open_catalog(data, date(2024, 6, 28), workdir=work)
    changed.close()
    assert changed.fingerprint != first.fingerprint
    builds = {p.name.split("-")[1].removesuffix(".duckdb") for p in work.glob("catalog-*")}
    assert len(builds) == 3
    assert all((work / f"catalog-{key}-public.duckdb").is_file() for key in builds)


def test_different_time_limits_in_one_process(small_data: Path, tmp_path: Path) -> None:
    a = open_catalog(small_data, date(2024, 6, 28), workdir=tmp_path, query_timeout_s=1)
    b = open_catalog(small_data, date(2024, 6, 28), workdir=tmp_path, query_timeout_s=2)
    with a, b, a.cursor() as ca, b.cursor() as cb:
        assert ca.execute("SELECT current_setting('max_execution_time')").fetchone()[0] == 1000
        assert cb.execute("SELECT current_setting('max_execution_time')").fetchone()[0] == 2000


def test_closed_catalog_refuses_cursors(small_data: Path, tmp_path: Path) -> None:
    cat = open_catalog(small_data, date(2024, 6, 28), workdir=tmp_path)
    cat.close()
    with pytest.raises(RuntimeError, match="closed"), cat.cursor():
        pass


@pytest.mark.parametrize("case", ["missing_dir", "missing_table", "naive_as_of"])
def test_bad_input_is_one_clear_line(small_data: Path, tmp_path: Path, case: str) -> None:
    data, as_of = small_data, None
    if case == "missing_dir":
        data = tmp_path / "nowhere"
    elif case == "missing_table":
        data = tmp_path / "data"
        shutil.copytree(small_data, data)
        (data / "news.parquet").unlink()
    else:
        as_of = datetime(2024, 6, 28, 20, 0)
    with pytest.raises(InputError) as err:
        open_catalog(data, date(2024, 6, 28), as_of=as_of, workdir=tmp_path / "work")
    assert "\n" not in err.value.message
    assert {
        "missing_dir": "does not exist",
        "missing_table": "lacks news.parquet",
        "naive_as_of": "no time zone",
    }[case] in err.value.message


def test_a_work_folder_keeps_only_the_catalogs_used_last(small_data, tmp_path) -> None:
    """A run of nights leaves `KEEP_CATALOGS` catalog files, the most recently used, not one
    per night; a catalog opened again counts as used again."""
    from datetime import timedelta

    from tools.catalog import KEEP_CATALOGS

    work = tmp_path / "work"

    def night(day: date) -> str:
        with open_catalog(small_data, day, workdir=work) as cat:
            key = cat.path.name.split("-")[1]
        for path in work.glob("catalog-*.duckdb"):  # one minute passes between nights
            os.utime(path, (path.stat().st_mtime - 60,) * 2)
        return key

    days = [date(2024, 6, 3) + timedelta(days=i) for i in range(KEEP_CATALOGS + 3)]
    keys = [night(day) for day in days]
    assert len(set(keys)) == len(days)
    rerun = night(days[2])  # an old night run again: the newest-used catalog now
    assert rerun == keys[2]
    night(days[-1] + timedelta(days=1))  # a new night: the oldest unused ones go
    left = {p.name.split("-")[1].removesuffix(".duckdb") for p in work.glob("catalog-*.duckdb")}
    assert len(left) == KEEP_CATALOGS
    assert keys[2] in left and keys[3] not in left and keys[-1] in left


def test_a_build_its_process_never_ended_is_removed_by_the_next_build(small_data, tmp_path) -> None:
    """A run stopped while its catalog was being built (in the run's build thread) leaves a
    partial file; the next build on the folder removes it, and never one of a live process."""
    import subprocess
    import sys

    work = tmp_path / "work"
    work.mkdir()
    gone = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True
    )
    dead = work / f"catalog-0123abcd.duckdb.{gone.stdout.strip()}.140001.partial"
    live = work / f"catalog-4567cdef.duckdb.{os.getpid()}.140002.partial"
    for path in (dead, live, dead.with_name(dead.name + ".wal")):
        path.write_bytes(b"half a catalog")
    open_catalog(small_data, date(2024, 6, 3), workdir=work).close()
    assert not dead.exists() and not dead.with_name(dead.name + ".wal").exists()
    assert live.exists()


def test_a_file_rewritten_in_place_with_its_size_and_mtime_kept_is_checked_again(
    small_data: Path, tmp_path: Path
) -> None:
    """The data check is passed once per data version: a price file whose bytes change under
    the same size and modification time is a new version, and its negative close is refused
    before a catalog is built on it."""
    data = tmp_path / "data"
    shutil.copytree(small_data, data)
    path = data / "prices.parquet"
    prices = pd.read_parquet(path)
    plain = {"compression": None, "use_dictionary": False, "write_statistics": False}
    prices.to_parquet(path, index=False, **plain)
    work = tmp_path / "work"
    open_catalog(data, date(2024, 6, 28), workdir=work).close()
    before = path.stat()
    prices.loc[prices.index[-1], ["open", "high", "low", "close"]] = -1.0
    prices.to_parquet(path, index=False, **plain)
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))
    after = path.stat()
    assert (after.st_size, after.st_mtime_ns) == (before.st_size, before.st_mtime_ns)
    with pytest.raises(InputError, match="must be positive") as err:
        open_catalog(data, date(2024, 6, 28), workdir=work)
    assert "\n" not in err.value.message

"""Data that breaks the contract never becomes a catalog: one line naming the problem and
`nightdesk data check`, no half-built file, from the library and from every CLI command."""

from __future__ import annotations

import math
import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from datetime import date
from pathlib import Path

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq
import pytest

from contract.errors import InputError
from tools.catalog import build_catalog_file, default_as_of, open_catalog

NIGHTDESK = Path(sys.executable).with_name("nightdesk")
REPORT_DATE = date(2024, 12, 20)
Breakage = Callable[[Path], None]


def truncate_prices(data: Path) -> None:
    os.truncate(data / "prices.parquet", 5000)


def empty_companies(data: Path) -> None:
    (data / "companies.parquet").write_bytes(b"")


def drop_close(data: Path) -> None:
    path = data / "prices.parquet"
    pq.write_table(pq.read_table(path).drop(["close"]), path)


def set_number(column: str, value: float, table: str = "holdings") -> Breakage:
    """Set the first row's `column` through Arrow (pandas would write a NaN as a null)."""

    def apply(data: Path) -> None:
        path = data / f"{table}.parquet"
        arrow = pq.read_table(path)
        values = arrow.column(column).to_pylist()
        values[0] = value
        index = arrow.schema.get_field_index(column)
        pq.write_table(arrow.set_column(index, column, pa.array(values, pa.float64())), path)

    return apply


def rename_first_ticker(data: Path) -> None:
    """One held ticker renamed `AX/O` in every table, consistently."""
    old = sorted(pq.read_table(data / "holdings.parquet").column("ticker").to_pylist())[0]
    for table in ("companies", "prices", "news", "events", "holdings"):
        path = data / f"{table}.parquet"
        arrow = pq.read_table(path)
        renamed = pc.if_else(pc.equal(arrow["ticker"], old), "AX/O", arrow["ticker"])
        index = arrow.schema.get_field_index("ticker")
        pq.write_table(arrow.set_column(index, "ticker", renamed), path)


UNREADABLE: dict[str, tuple[Breakage, str]] = {
    "truncated prices": (truncate_prices, "prices.parquet"),
    "empty companies": (empty_companies, "companies.parquet"),
    "prices without close": (drop_close, "prices.parquet"),
}
BROKEN: dict[str, tuple[Breakage, str]] = {
    "truncated prices": (truncate_prices, "unreadable Parquet file prices.parquet"),
    "empty companies": (empty_companies, "unreadable Parquet file companies.parquet"),
    "prices without close": (drop_close, "prices.close: missing column"),
    "nan quantity": (set_number("quantity", math.nan), "quantity row 0: nan is not a finite number"),
    "infinite close": (set_number("close", math.inf, "prices"), "close row 0: inf is not a finite"),
    "negative close": (set_number("close", -5.0, "prices"), "close row 0: price -5.0 must be positive"),
    "unsafe ticker": (rename_first_ticker, "ticker 'AX/O' cannot be a file name"),
}  # fmt: skip


def broken_copy(source: Path, target: Path, breakage: Breakage) -> Path:
    shutil.copytree(source, target)
    breakage(target)
    return target


def assert_one_line_to_data_check(message: str, data: Path, fragment: str) -> None:
    assert "\n" not in message
    assert fragment in message, message
    assert message.endswith(f"run `nightdesk data check {data}` for every problem")


@pytest.mark.parametrize("case", list(BROKEN))
def test_open_catalog_refuses_data_that_breaks_the_contract(
    small_data: Path, tmp_path: Path, case: str
) -> None:
    breakage, fragment = BROKEN[case]
    data = broken_copy(small_data, tmp_path / "data", breakage)
    work = tmp_path / "work"
    with pytest.raises(InputError) as err:
        open_catalog(data, REPORT_DATE, workdir=work)
    assert_one_line_to_data_check(err.value.message, data, fragment)
    assert list(work.iterdir()) == []


@pytest.mark.parametrize("case", list(UNREADABLE))
def test_a_failed_build_names_the_file_and_leaves_nothing(
    small_data: Path, tmp_path: Path, case: str
) -> None:
    breakage, filename = UNREADABLE[case]
    data = broken_copy(small_data, tmp_path / "data", breakage)
    work = tmp_path / "work"
    work.mkdir()
    with pytest.raises(InputError) as err:
        build_catalog_file(data, work / "c.duckdb", REPORT_DATE, default_as_of(REPORT_DATE))
    assert err.value.message.startswith(f"cannot read {data / filename}: ")
    assert err.value.message.endswith(f"; run `nightdesk data check {data}`")
    assert "\n" not in err.value.message
    assert list(work.iterdir()) == []


def test_fixed_data_is_accepted_after_a_refusal(small_data: Path, tmp_path: Path) -> None:
    data = broken_copy(small_data, tmp_path / "data", set_number("quantity", math.nan))
    work = tmp_path / "work"
    with pytest.raises(InputError):
        open_catalog(data, REPORT_DATE, workdir=work)
    shutil.copy(small_data / "holdings.parquet", data / "holdings.parquet")
    with open_catalog(data, REPORT_DATE, workdir=work) as cat, cat.cursor() as cur:
        assert cur.execute("SELECT count(*) FROM holdings WHERE isnan(quantity)").fetchone() == (0,)


def nightdesk(tmp_path: Path, *args: str | Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "TMPDIR": str(tmp_path)}  # the default catalog folder lives there
    return subprocess.run(
        [str(NIGHTDESK), *map(str, args)], capture_output=True, text=True, env=env
    )


@pytest.mark.parametrize(
    ("case", "command"),
    [
        ("truncated prices", ("run", "--portfolio", "P001", "--out", "{out}")),
        ("nan quantity", ("tools", "call", "get_price", "--args", '{{"ticker": "AAA"}}')),
        ("unsafe ticker", ("ask", "move", "--ticker", "AAA")),
    ],
)
def test_cli_commands_on_broken_data_print_one_line_and_exit_2(
    small_data: Path, tmp_path: Path, case: str, command: tuple[str, ...]
) -> None:
    breakage, fragment = BROKEN[case]
    data = broken_copy(small_data, tmp_path / "data", breakage)
    out = tmp_path / "out"
    args = [a.format(out=out) for a in command]
    done = nightdesk(tmp_path, *args, "--date", REPORT_DATE.isoformat(), "--data", data)
    assert (done.returncode, done.stdout) == (2, ""), done.stderr
    assert done.stderr.startswith("nightdesk: error: data folder ")
    assert_one_line_to_data_check(done.stderr.removesuffix("\n"), data, fragment)
    assert not [p for p in tmp_path.rglob("*") if p.is_file() and not p.is_relative_to(data)]

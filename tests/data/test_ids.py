"""Ids that name files, case ids and Prefect artifacts are refused at `data check` when
publishing could not use them: too long, holding the case id's separator, or differing from
another only by case."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq
import pytest

from data.check import check_dataset
from data.contract import MAX_ID, TABLES

Rename = Callable[[list[str]], dict[str, str]]


def renamed(source: Path, target: Path, column: str, rename: Rename) -> Path:
    """A copy of `source` with ids of `column` renamed in every table that holds them."""
    shutil.copytree(source, target)
    owner = "portfolios" if column == "portfolio_id" else "companies"
    ids = sorted(pq.read_table(target / TABLES[owner].filename).column(column).to_pylist())
    mapping = rename(ids)
    for table in TABLES.values():
        path = target / table.filename
        arrow = pq.read_table(path)
        if column not in arrow.column_names:
            continue
        values = arrow[column].to_pylist()
        new = pa.array([mapping.get(v, v) for v in values], pa.string())
        pq.write_table(arrow.set_column(arrow.schema.get_field_index(column), column, new), path)
    return target


@pytest.mark.parametrize(
    ("column", "rename", "message"),
    [
        ("portfolio_id", lambda ids: {ids[0]: "p1", ids[1]: "P1"}, "differs from 'p1' only by case"),
        ("ticker", lambda ids: {ids[0]: "ABC", ids[1]: "abc"}, "differs from 'ABC' only by case"),
        ("ticker", lambda ids: {ids[0]: "BRK__B"}, "no '__' (it joins the parts of a case id)"),
        ("portfolio_id", lambda ids: {ids[0]: "P__1"}, "no '__'"),
        ("portfolio_id", lambda ids: {ids[0]: "P" * (MAX_ID + 1)}, f"at most {MAX_ID} characters"),
        ("ticker", lambda ids: {ids[0]: "T" * (MAX_ID + 1)}, f"at most {MAX_ID} characters"),
    ],
    ids=["portfolio-case", "ticker-case", "ticker-separator", "portfolio-separator",
         "portfolio-long", "ticker-long"],
)  # fmt: skip
def test_ids_publishing_cannot_use_are_refused(
    small_data: Path, tmp_path: Path, column: str, rename: Rename, message: str
) -> None:
    broken = renamed(small_data, tmp_path / "b", column, rename)
    found = [str(v) for v in check_dataset(broken)]
    owner = "portfolios" if column == "portfolio_id" else "companies"
    assert len(found) == 1, found
    assert found[0].startswith(f"{owner}.{column} row ") and message in found[0]


def test_ids_that_differ_in_characters_the_slug_drops_are_allowed(
    small_data: Path, tmp_path: Path
) -> None:
    """'P_1' and 'P-1' name different files; their artifact keys differ by a hash."""
    data = renamed(
        small_data, tmp_path / "d", "portfolio_id", lambda ids: {ids[0]: "P_1", ids[1]: "P-1"}
    )
    assert check_dataset(data) == []
    tickers = pc.unique(pq.read_table(data / "companies.parquet")["ticker"]).to_pylist()
    assert all(len(t) <= MAX_ID for t in tickers)

"""A catalog over the shared generated data set, pinned to a report date before its end, and
the same Parquet files read with pandas so tests compute expected figures independently."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date
from pathlib import Path

import pandas as pd
import pytest

from data.contract import TABLES
from data.facts import GenerationFacts, read_facts
from tools.catalog import Catalog, open_catalog

REPORT_DATE = date(2024, 12, 20)


@pytest.fixture(scope="session")
def facts(small_data: Path) -> GenerationFacts:
    return read_facts(small_data)


@pytest.fixture(scope="session")
def frames(small_data: Path) -> dict[str, pd.DataFrame]:
    """The raw Parquet tables (all rows, future ones included), dates as `date` objects."""
    out = {name: pd.read_parquet(small_data / t.filename) for name, t in TABLES.items()}
    for name, column in (("prices", "date"), ("events", "date"), ("holdings", "as_of")):
        out[name][column] = pd.to_datetime(out[name][column]).dt.date
    return out


@pytest.fixture(scope="session")
def catalog(small_data: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Catalog]:
    cat = open_catalog(small_data, REPORT_DATE, workdir=tmp_path_factory.mktemp("catalog"))
    yield cat
    cat.close()

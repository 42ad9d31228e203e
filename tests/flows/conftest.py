"""One Prefect test server for the flow tests of this session, and data sets derived from the
shared small one."""

from __future__ import annotations

import gc
import shutil
import warnings
from collections.abc import Iterator
from pathlib import Path

import pyarrow.compute as pc
import pyarrow.parquet as pq
import pytest


@pytest.fixture(scope="module", autouse=True)
def collect_prefect_sockets() -> Iterator[None]:
    """Prefect's client and test server leave sockets for the garbage collector: collect them
    when a flow module ends, so that they are not reported in whatever module runs next."""
    yield
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ResourceWarning)
        gc.collect()


@pytest.fixture(scope="session")
def prefect_server() -> Iterator[None]:
    from prefect.testing.utilities import prefect_test_harness

    with prefect_test_harness(server_startup_timeout=180):
        yield


@pytest.fixture(scope="session")
def broken_data(small_data: Path, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """The small set with one held ticker's prices removed: a ticker whose data is missing."""
    out = tmp_path_factory.mktemp("broken")
    for f in small_data.iterdir():
        shutil.copy(f, out / f.name)
    holdings = pq.read_table(out / "holdings.parquet")
    ticker = sorted(set(holdings.column("ticker").to_pylist()))[0]
    prices = pq.read_table(out / "prices.parquet")
    pq.write_table(prices.filter(pc.not_equal(prices["ticker"], ticker)), out / "prices.parquet")
    return out, ticker

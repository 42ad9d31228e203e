"""Shared fixtures: a small generated data set, made once per test session."""

from __future__ import annotations

import gc
import os
import warnings
from collections.abc import Iterator
from datetime import date
from pathlib import Path

import pytest
from hypothesis import settings

# Property tests check behaviour, not speed: on a shared machine a first example that imports a
# module can take longer than any fixed deadline, so none is set (speed lives in tests/bench).
settings.register_profile("nightdesk", deadline=None)
settings.load_profile("nightdesk")


@pytest.fixture(autouse=True, scope="module")
def _collect_left_sockets() -> Iterator[None]:
    """Sockets Prefect's client and test server leave for the garbage collector are collected as
    their module ends, not in whichever test of another module the collector next runs in
    (where the warning would fail a test that opened none)."""
    yield
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ResourceWarning)
        gc.collect()


@pytest.fixture(autouse=True)
def prefect_url_kept() -> Iterator[None]:
    """A test leaves PREFECT_API_URL in this process as it found it: the nights later tests start
    inherit it, and a URL left by a server that has stopped sends them nowhere."""
    before = os.environ.get("PREFECT_API_URL")
    yield
    after = os.environ.get("PREFECT_API_URL")
    if after != before:
        if before is None:
            os.environ.pop("PREFECT_API_URL", None)
        else:
            os.environ["PREFECT_API_URL"] = before
        pytest.fail(f"the test left PREFECT_API_URL={after} in the environment (was {before})")


SMALL = dict(tickers=24, start=date(2024, 1, 2), end=date(2024, 12, 31), portfolios=3, seed=7)


@pytest.fixture
def no_proxy(monkeypatch: pytest.MonkeyPatch) -> None:
    """No proxy variable set: the providers then run over their own transport (behind a proxy
    they keep the SDK's client, which mounts it)."""
    for name in (
        "HTTP_PROXY",
        "HTTPS_PROXY",
        "ALL_PROXY",
        "http_proxy",
        "https_proxy",
        "all_proxy",
    ):
        monkeypatch.delenv(name, raising=False)


@pytest.fixture(scope="session")
def small_data(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A generated data set (same generator as data/sample), shared read-only by the tests."""
    from data.generate import generate_dataset

    out = tmp_path_factory.mktemp("data")
    generate_dataset(out, **SMALL)
    return out

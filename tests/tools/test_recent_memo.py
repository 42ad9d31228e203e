"""What one ticker's calls read together is read once while they run, and a night of many
tickers holds only the last few hundred: `Catalog.memo_recent`, and the closes and events the
price and event tools read through it."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from datetime import date, datetime
from functools import partial
from pathlib import Path

import pandas as pd
import pytest

from tools import catalog as catalog_module
from tools.catalog import Catalog, open_catalog
from tools.news import events_by_ticker
from tools.prices import closes_of


@pytest.fixture
def fresh(small_data: Path, tmp_path: Path) -> Iterator[Catalog]:
    cat = open_catalog(small_data, date(2024, 12, 20), workdir=tmp_path)
    yield cat
    cat.close()


def test_a_key_is_built_once_while_it_is_recent(fresh: Catalog) -> None:
    built: list[str] = []

    def build() -> int:
        built.append("a")
        return len(built)

    for _ in range(3):
        assert fresh.memo_recent("a", build) == 1
    assert built == ["a"]


def test_the_least_recently_used_key_goes_first(
    fresh: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(catalog_module, "RECENT_KEYS", 3)
    built: list[int] = []

    def build(key: int) -> int:
        built.append(key)
        return key

    for key in (1, 2, 3):
        fresh.memo_recent(key, partial(build, key))
    fresh.memo_recent(1, lambda: build(1))  # used again: 2 is now the oldest
    fresh.memo_recent(4, lambda: build(4))
    assert len(fresh._recent) == 3
    fresh.memo_recent(1, lambda: build(1))
    fresh.memo_recent(2, lambda: build(2))
    assert built == [1, 2, 3, 4, 2]


def test_callers_of_a_key_being_built_wait_for_that_build(fresh: Catalog) -> None:
    entered, release = threading.Event(), threading.Event()
    builds: list[int] = []

    def build() -> object:
        builds.append(1)
        entered.set()
        release.wait(10)
        return object()

    got: list[object] = []
    first = threading.Thread(target=lambda: got.append(fresh.memo_recent("k", build)))
    first.start()
    assert entered.wait(10)
    others = [
        threading.Thread(target=lambda: got.append(fresh.memo_recent("k", build))) for _ in range(6)
    ]
    for t in others:
        t.start()
    time.sleep(0.05)  # let them reach the key; had one arrived later, it would find the value
    release.set()
    for t in [first, *others]:
        t.join(10)
    assert len(builds) == 1
    assert len(got) == 7 and all(value is got[0] for value in got)


def test_a_failed_build_is_not_kept(fresh: Catalog) -> None:
    def fail() -> int:
        raise RuntimeError("the query failed")

    with pytest.raises(RuntimeError):
        fresh.memo_recent("k", fail)
    assert fresh.memo_recent("k", lambda: 7) == 7
    assert fresh._building == {}


def test_closes_are_every_visible_close_of_the_ticker_in_date_order(
    catalog: Catalog, frames: dict[str, pd.DataFrame]
) -> None:
    prices = frames["prices"]
    visible = prices[prices["date"] <= catalog.price_cutoff]
    for ticker in sorted(catalog.listings):
        own = visible[visible["ticker"] == ticker].sort_values("date")
        closes = closes_of(catalog, ticker)
        assert closes.dates == list(own["date"])
        assert [c for _, c in closes.rows] == pytest.approx(list(own["close"]))
        middle = closes.dates[len(closes.dates) // 2]
        assert closes.upto(middle)[-1][0] == middle
        assert all(day <= middle for day, _ in closes.upto(middle))


def test_events_are_those_announced_by_the_as_of_moment(
    catalog: Catalog, frames: dict[str, pd.DataFrame]
) -> None:
    events = frames["events"]
    announced = pd.to_datetime(events["announced_at"], utc=True)
    known = events[announced <= pd.Timestamp(catalog.as_of)]
    held = events_by_ticker(catalog)
    assert sum(len(rows) for rows in held.values()) == len(known)
    for ticker, rows in held.items():
        own = known[known["ticker"] == ticker]
        assert [(d, k) for d, k, *_ in rows] == sorted(zip(own["date"], own["kind"], strict=True))
        assert all(isinstance(at, datetime) and at <= catalog.as_of for *_, at in rows)

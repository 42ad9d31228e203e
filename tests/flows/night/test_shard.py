"""Splitting a night into shards: deterministic, balanced by questions, shares that add up."""

from __future__ import annotations

from datetime import date

import pytest
from hypothesis import given
from hypothesis import strategies as st

from agent.budget.limits import BudgetConfig
from contract.errors import InputError
from flows.night.shard import plan_shards, split_tickers
from flows.run.config import RunConfig

# Prefect's client and test server leave sockets for the garbage collector, which may collect
# them during any later test of this file (a property test here drew one in CI).
pytestmark = [
    pytest.mark.filterwarnings("ignore::ResourceWarning"),
    pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning"),
]

HOLDERS = {
    "AAA": ["P1", "P2", "P3"],
    "BBB": ["P1"],
    "CCC": ["P2"],
    "DDD": ["P1", "P3"],
    "EEE": ["P3"],
}

holdings = st.dictionaries(
    st.from_regex(r"[A-Z]{1,4}", fullmatch=True),
    st.lists(st.sampled_from(["P1", "P2", "P3", "P4"]), min_size=1, max_size=4, unique=True),
    min_size=1,
    max_size=40,
)


@given(holdings, st.integers(1, 8))
def test_every_ticker_in_exactly_one_part(holders: dict[str, list[str]], shards: int) -> None:
    parts = split_tickers(holders, shards)
    assert len(parts) == min(shards, len(holders))
    seen = [t for part in parts for t in part]
    assert sorted(seen) == sorted(holders)
    assert all(part[t] == holders[t] for part in parts for t in part)
    assert split_tickers(dict(reversed(list(holders.items()))), shards) == parts
    loads = [sum(1 + len(owners) for owners in part.values()) for part in parts]
    heaviest = max(1 + len(owners) for owners in holders.values())
    assert max(loads) - min(loads) <= heaviest


def test_split_balances_questions() -> None:
    parts = split_tickers(HOLDERS, 2)
    assert parts == [
        {"AAA": ["P1", "P2", "P3"], "CCC": ["P2"]},
        {"BBB": ["P1"], "DDD": ["P1", "P3"], "EEE": ["P3"]},
    ]


def test_plan_gives_each_shard_its_share(tmp_path) -> None:
    budget = BudgetConfig(run_tokens=100_000, question_tokens=20_000, requests_per_minute=90)
    config = RunConfig(
        report_date=date(2024, 6, 3),
        budget=budget,
        concurrency=5,
        shards=2,
        data_dir=tmp_path / "data",
        out_dir=tmp_path / "out",
    )
    jobs = plan_shards(config, HOLDERS, "run-1", "fp")
    assert [j.index for j in jobs] == [0, 1] and {j.count for j in jobs} == {2}
    assert [j.config.budget.run_tokens for j in jobs] == [40_000, 60_000]
    assert sum(j.config.budget.run_tokens for j in jobs) <= budget.run_tokens
    assert {j.config.budget.requests_per_minute for j in jobs} == {45}
    assert {j.config.concurrency for j in jobs} == {2}
    assert {j.config.shards for j in jobs} == {1}
    assert all(j.config.out_dir.is_absolute() and j.config.data_dir.is_absolute() for j in jobs)


def test_budget_too_small_to_split_is_an_input_error(tmp_path) -> None:
    config = RunConfig(
        budget=BudgetConfig(run_tokens=5_000, question_tokens=4_000, max_output_tokens=1_000),
        shards=5,
    )
    with pytest.raises(InputError, match="fewer shards"):
        plan_shards(config, HOLDERS, "run-1", "fp")


def test_failed_shard_becomes_rejected_records(tmp_path) -> None:
    from uuid import uuid4

    from prefect.client.schemas.objects import FlowRun
    from prefect.states import Failed

    from agent.questions import load_question_set
    from flows.night.shard import gather_shard, shard_line

    config = RunConfig(report_date=date(2024, 6, 3), shards=2, out_dir=tmp_path)
    job = plan_shards(config, HOLDERS, "run-1", "fp")[1]
    run = FlowRun(flow_id=uuid4(), state=Failed(message="worker lost"))
    result = gather_shard(job, run, load_question_set())
    assert [r.ticker for r in result.results] == sorted(job.holders)
    records = [q for r in result.results for q in r.records]
    assert records and {(q.status, q.reason) for q in records} == {("rejected", "internal_error")}
    assert "shard 1 ended Failed: worker lost" in records[0].reasons[0].message
    assert {(r.summary.question_id, r.summary.reason) for r in result.results if r.summary} == {
        (f"{t}/summary", "internal_error") for t in job.holders
    }
    positions = [q for q in records if q.ticker == "DDD" and q.spec_id == "position"]
    assert sorted(p for q in positions for p in q.portfolios) == ["P1", "P3"]
    line = shard_line(job, run, result)
    assert line["state"] == "Failed" and line["used"]["total"] == 0
    assert (line["tickers_finished"], line["ledger_from"]) == (0, "none")
    assert line["run_tokens"] == job.config.budget.run_tokens


@pytest.mark.usefixtures("prefect_server")
def test_shard_that_dies_keeps_the_tickers_it_finished(
    small_data, tmp_path, prefect_server
) -> None:
    """A real shard run stores each ticker as it finishes; cut short (its last ticker and its
    final ledger never written), the parent still gets the finished tickers and their spend."""
    import asyncio
    from uuid import uuid4

    import pyarrow.parquet as pq
    from prefect.client.schemas.objects import FlowRun
    from prefect.states import Completed, Crashed

    from agent.questions import load_question_set
    from flows.night.shard import gather_shard, nightly_shard, shard_line
    from flows.run.shard_store import ShardStore
    from tests.flows.night.test_flow import last_session
    from tools.catalog import open_catalog

    day = date.fromisoformat(last_session(small_data))
    holders: dict[str, list[str]] = {}
    for row in pq.read_table(small_data / "holdings.parquet").to_pylist():
        holders.setdefault(row["ticker"], []).append(row["portfolio_id"])
    holders = {t: sorted(holders[t]) for t in sorted(holders)[:3]}
    config = RunConfig(report_date=day, data_dir=small_data, out_dir=tmp_path / "out", shards=1)
    with open_catalog(small_data, day, workdir=tmp_path / "cat") as catalog:
        fingerprint = catalog.fingerprint
    (job,) = plan_shards(config, holders, "run-1", fingerprint)
    asyncio.run(nightly_shard(job))
    qset = load_question_set()
    whole = gather_shard(job, FlowRun(flow_id=uuid4(), state=Completed()), qset)
    assert whole.ledger_from == "final" and whole.finished == 3
    assert "internal_error" not in {q.reason for r in whole.results for q in r.all_records}

    store = ShardStore.of(job)
    last = sorted(holders)[-1]
    (store.folder / "final.json").unlink()
    (store.folder / "tickers" / f"{last}.json").unlink()
    run = FlowRun(flow_id=uuid4(), state=Crashed(message="worker died"))
    cut = gather_shard(job, run, qset)

    assert [r.ticker for r in cut.results] == sorted(holders)
    assert cut.results[:2] == whole.results[:2]
    lost = cut.results[2].records
    assert lost and {(q.status, q.reason) for q in lost} == {("rejected", "internal_error")}
    assert "shard 0 ended Crashed: worker died" in lost[0].reasons[0].message
    assert cut.ledger_from == "journal" and cut.finished == 2
    assert cut.ledger.used == whole.ledger.used and cut.ledger.used.total > 0
    assert cut.ledger.lines == whole.ledger.lines
    line = shard_line(job, run, cut)
    assert (line["state"], line["tickers_finished"], line["ledger_from"]) == (
        "Crashed",
        2,
        "journal",
    )
    assert line["used"]["total"] == whole.ledger.used.total


def test_a_running_shard_is_stalled_only_when_nothing_it_stores_changes(tmp_path) -> None:
    import os

    from flows.night.shard import stalled
    from flows.publish.records import TickerResult
    from flows.run.shard_store import ShardStore

    store = ShardStore(tmp_path / "shard-0")
    start = 1_000_000.0
    assert not stalled(store, start, 600, start + 599)  # running, nothing stored yet
    assert stalled(store, start, 600, start + 601)
    store.ticker_done(TickerResult(ticker="AAA"), False)
    for path in store.folder.rglob("*.json"):
        os.utime(path, (start + 500, start + 500))
    assert not stalled(store, start, 600, start + 1_000)  # a ticker finished 500 s in
    assert stalled(store, start, 600, start + 1_101)


def test_a_file_that_goes_while_the_store_is_read_is_a_change_not_a_crash(
    tmp_path, monkeypatch
) -> None:
    """A ticker's temporary file is renamed into place between the store's listing and the
    look at its time: the shard is busy, and the night that watches it goes on."""
    from pathlib import Path

    from flows.night.shard import stalled
    from flows.run.shard_store import ShardStore

    store = ShardStore(tmp_path / "shard-0")
    store.folder.mkdir(parents=True, exist_ok=True)
    gone = store.folder / ".AAA.json.tmp"
    listed = Path.rglob
    monkeypatch.setattr(Path, "rglob", lambda self, pattern: [*listed(self, pattern), gone])
    start = 1_000_000.0
    assert not stalled(store, start, 600, start + 5_000)
    monkeypatch.undo()
    assert stalled(store, start, 600, start + 601)  # nothing went: a quiet store
    assert stalled(ShardStore(tmp_path / "never-made"), start, 600, start + 601)


def test_a_shard_on_other_data_than_the_night_planned_on_refuses_to_run(
    small_data, tmp_path, prefect_server
) -> None:
    """Workers on several machines must read the same shared data folder: a shard whose data
    has another fingerprint than the parent's plan stops before any question, storing nothing."""
    import asyncio

    from flows.night.shard import nightly_shard
    from flows.run.shard_store import ShardStore
    from tests.flows.night.test_flow import last_session

    day = date.fromisoformat(last_session(small_data))
    config = RunConfig(report_date=day, data_dir=small_data, out_dir=tmp_path / "out", shards=1)
    (job,) = plan_shards(config, {"AAA": ["P1"]}, "run-1", "another-machines-data")
    with pytest.raises(InputError, match="differs from the data the night planned on"):
        asyncio.run(nightly_shard(job))
    assert not ShardStore.of(job).folder.exists()

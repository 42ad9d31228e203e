"""Splitting a night into shards: deterministic, balanced by questions, shares that add up."""

from __future__ import annotations

from datetime import date

import pytest
from hypothesis import given
from hypothesis import strategies as st

from agent.budget import BudgetConfig
from data.errors import InputError
from flows.config import RunConfig
from flows.shard import plan_shards, split_tickers

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
    from flows.shard import gather_shard, shard_line

    config = RunConfig(report_date=date(2024, 6, 3), shards=2, out_dir=tmp_path)
    job = plan_shards(config, HOLDERS, "run-1", "fp")[1]
    run = FlowRun(flow_id=uuid4(), state=Failed(message="worker lost"))
    result = gather_shard(job, run, load_question_set())
    assert [r.ticker for r in result.results] == sorted(job.holders)
    records = [q for r in result.results for q in r.records]
    assert records and {(q.status, q.reason) for q in records} == {("rejected", "internal_error")}
    assert "shard 1 ended Failed: worker lost" in records[0].reasons[0]["message"]
    positions = [q for q in records if q.ticker == "DDD" and q.spec_id == "position"]
    assert sorted(p for q in positions for p in q.portfolios) == ["P1", "P3"]
    line = shard_line(job, run, result)
    assert line["state"] == "Failed" and line["used"]["total"] == 0
    assert line["run_tokens"] == job.config.budget.run_tokens

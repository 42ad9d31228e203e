"""Drafts judged in worker processes reach the verdict this process reaches, and a worker that
dies leaves the night judging here rather than ending it."""

from __future__ import annotations

import json
import os
import signal
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from contract.trace import Trace
from flows.run import verifier_pool
from flows.run.judge import judge, judge_in, verdict_of
from flows.run.verifier_pool import VerifierPool, auto_workers
from tests.flows.run.test_one_judge import DRAFTS, trace_of
from verifier.trace_view import parse_trace

CORPUS = Path(__file__).parents[2] / "verifier" / "closed_world"


def corpus_traces(count: int) -> list[dict[str, Any]]:
    """Every `step`-th free-form draft with its trace: accepted and rejected ones, both
    languages, every kind of tool result."""
    traces = json.loads((CORPUS / "free_form_traces.json").read_text())
    rows = [json.loads(line) for line in (CORPUS / "free_form.jsonl").read_text().splitlines()]
    step = max(len(rows) // count, 1)
    return [{**traces[r["question_id"]], "draft": r["draft"]} for r in rows[::step]]


@pytest.fixture(scope="module")
def pool() -> Iterator[VerifierPool]:
    judges = VerifierPool(1)
    judges.start()
    yield judges
    judges.close()


async def test_a_worker_reaches_this_process_s_verdict(pool: VerifierPool) -> None:
    traces = corpus_traces(80)
    accepted, before, cpu_s = 0, pool.verdicts, pool.cpu_s
    for data in traces:
        view = parse_trace(data)
        here, there = verdict_of(view), await pool.verdict(view)
        assert there.model_dump() == here.model_dump(), data["draft"]
        accepted += here.accepted
    assert 0 < accepted < len(traces)  # both kinds of verdict went through the worker
    assert pool.verdicts == before + len(traces) and pool.cpu_s > cpu_s


@pytest.mark.parametrize("name", DRAFTS)
async def test_the_night_s_record_is_the_same_judged_in_a_worker(
    pool: VerifierPool, name: str
) -> None:
    """The leak checks too: a worker runs `verdict_of`, not the bare verifier."""
    trace = Trace.model_validate(trace_of(DRAFTS[name][0]))
    before = pool.verdicts
    there = await judge_in(pool, trace, "move", "move", "AXO", ["P001"])
    here = judge(trace, "move", "move", "AXO", ["P001"])
    assert pool.verdicts == before + 1
    assert there.model_dump() == here.model_dump()
    assert sorted({r.code for r in there.reasons}) == DRAFTS[name][1]


async def test_a_worker_that_dies_leaves_the_drafts_to_this_process() -> None:
    judges = VerifierPool(1)
    judges.start()
    try:
        data = trace_of(DRAFTS["closed world"][0])
        first = await judges.verdict(parse_trace(data))
        for pid in judges.pids():
            os.kill(pid, signal.SIGKILL)
        later = [await judges.verdict(parse_trace(data)) for _ in range(3)]
        assert all(v == first == verdict_of(parse_trace(data)) for v in later)
        assert judges.broken is not None and "died" in judges.broken
        assert not judges.in_workers and judges.verdicts == 1
    finally:
        judges.close()


def test_a_pool_of_no_workers_judges_here() -> None:
    judges = VerifierPool(0)
    judges.start()
    assert not judges.in_workers and judges.pids() == []


@pytest.mark.parametrize(
    ("cpus", "tickers", "workers"),
    [(2, 159, 0), (3, 159, 1), (16, 2_000, 4), (1, 500, 0), (8, 99, 0), (4, 100, 2)],
)
def test_a_night_gets_workers_by_its_cpus_and_size(
    monkeypatch: pytest.MonkeyPatch, cpus: int, tickers: int, workers: int
) -> None:
    monkeypatch.setattr(verifier_pool, "available_cpus", lambda: cpus)
    assert auto_workers(tickers) == workers

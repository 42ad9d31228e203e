"""The night reads its own records back with pydantic, whose JSON reader stops at 200 levels of
nesting; a record holding the deepest result a tool may return (`contract.tools.MAX_DEPTH`) is
far from it, in every store the night reads."""

from __future__ import annotations

import json
from pathlib import Path

from contract.tools import MAX_DEPTH, shape_problem
from contract.trace import ToolEvent, Trace
from flows.publish.records import QuestionRecord, TickerResult
from flows.run.shard_store import ShardStore
from flows.run.ticker_store import TickerStore


def deepest_result() -> dict:
    value: object = 1
    for _ in range(MAX_DEPTH - 1):
        value = [value]
    result = {"rows": value}
    assert shape_problem(result, "the result") is None
    return result


def stored_ticker() -> TickerResult:
    trace = Trace(
        question_id="AAA/move",
        question="How did AAA move?",
        events=[ToolEvent(id="c1", tool="run_sql", args={}, result=deepest_result())],
    )
    record = QuestionRecord(
        question_id="AAA/move",
        spec_id="move",
        kind="move",
        ticker="AAA",
        portfolios=["P1"],
        text="How did AAA move?",
        status="rejected",
        trace=trace,
    )
    return TickerResult(ticker="AAA", records=[record])


def test_the_deepest_result_reads_back_from_the_ticker_store(tmp_path: Path) -> None:
    store = TickerStore(tmp_path)
    store.save("k1", stored_ticker())
    loaded = store.load("k1")
    assert loaded is not None and loaded.records[0].trace == stored_ticker().records[0].trace


def test_the_deepest_result_reads_back_from_a_shard(tmp_path: Path) -> None:
    store = ShardStore(tmp_path)
    store.ticker_done(stored_ticker(), reused=False)
    (path,) = tmp_path.glob("tickers/*.json")
    assert json.loads(path.read_text())["result"]["ticker"] == "AAA"
    assert store.tickers()["AAA"].result.records[0].trace == stored_ticker().records[0].trace

"""A record keeps its trace, verdict and reasons as models; the JSON a case file or the ticker
store holds is the one the night wrote before they were models, and reads back equal."""

from __future__ import annotations

import json
from pathlib import Path

from contract.reasons import ReasonCode
from contract.trace import ToolEvent, Trace
from flows.publish.records import QuestionRecord, TickerResult, rejected_record
from flows.run.judge import judge
from flows.run.ticker_store import TickerStore


def answered(draft: str) -> Trace:
    return Trace(
        question_id="AAA/move",
        question="How did AAA close?",
        ticker="AAA",
        events=[
            ToolEvent(id="c1", tool="get_price", args={"ticker": "AAA"}, result={"close": 10.0})
        ],
        draft=draft,
        stop_reason=ReasonCode.ANSWERED,
    )


def test_a_judged_record_holds_the_trace_and_verdict_as_models() -> None:
    trace = answered("AAA closed at 99.00.")
    record = judge(trace, "move", "move", "AAA", ["P1"])
    assert record.trace is trace and record.verdict is not None and not record.verdict.accepted
    reason = json.loads(record.model_dump_json())["reasons"][0]
    assert list(reason) == ["code", "rule", "message", "span"]  # the verdict's, under `code` too
    assert reason["code"] == reason["rule"] == record.reason


def test_a_reason_without_a_rule_is_written_with_its_code_and_words_only() -> None:
    record = rejected_record(
        "AAA/move", "move", "move", "AAA", ["P1"], "q", ReasonCode.MAX_STEPS, "x"
    )
    assert json.loads(record.model_dump_json())["reasons"] == [
        {"code": "max_steps", "message": "x"}
    ]


def test_a_stored_record_reads_back_as_the_same_models(tmp_path: Path) -> None:
    records = [
        judge(answered(draft), "move", "move", "AAA", ["P1"])
        for draft in ("AAA closed at 10.00.", "AAA closed at 99.00.")
    ]
    assert [r.status for r in records] == ["accepted", "rejected"]
    store = TickerStore(tmp_path)
    store.save("k", TickerResult(ticker="AAA", records=records))
    loaded = store.load("k")
    assert loaded is not None and loaded.records == records
    assert all(isinstance(r.trace, Trace) for r in loaded.records)
    assert [r.model_dump_json() for r in loaded.records] == [r.model_dump_json() for r in records]
    assert isinstance(loaded.records[0], QuestionRecord)

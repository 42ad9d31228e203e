"""The index's walk takes shortcuts for speed (a plan per set of result keys, strings tracked
per event, spans aligned with keys once): what it files stays what a plain reading of the
results gives. Each case is a result the shortcuts could get wrong."""

from __future__ import annotations

import math
from typing import Any

from verifier.claim import BENCHMARK_SUBJECT, PORTFOLIO_SUBJECT
from verifier.index import index_trace
from verifier.reuse import forget
from verifier.trace_view import parse_trace


def _evidence(*events: dict[str, Any], question: str = "How did AXO do?") -> Any:
    forget()
    return index_trace(parse_trace({"question": question, "draft": "x", "events": list(events)}))


def _values(ev: Any, key: str) -> list[float]:
    return [f.value for f in ev.facts if f.key == key]


def test_a_string_is_filed_once_per_event_and_once_per_repeated_event_id() -> None:
    result = {"note": "as traded", "notes": ["as traded", "as traded"]}
    ev = _evidence(
        {"id": "a", "tool": "get_price", "args": {"ticker": "AXO"}, "result": result},
        {"id": "b", "tool": "get_price", "args": {"ticker": "AXO"}, "result": result},
        {"id": "a", "tool": "get_price", "args": {"ticker": "AXO"}, "result": result},
    )
    assert [pair for pair in ev.texts if pair[0] == "as traded"] == [
        ("as traded", "a"),
        ("as traded", "b"),
    ]


def test_only_finite_numbers_are_facts_and_bools_are_none() -> None:
    result = {"close": 1, "high": math.nan, "low": math.inf, "open": -math.inf, "halted": True}
    ev = _evidence({"id": "p", "tool": "get_price", "args": {"ticker": "AXO"}, "result": result})
    assert _values(ev, "close") == [1.0] and isinstance(_values(ev, "close")[0], float)
    assert not _values(ev, "high") + _values(ev, "low") + _values(ev, "open")
    assert not _values(ev, "halted")


def test_an_echoed_expression_vouches_for_nothing_whatever_its_case() -> None:
    result = {"Expression": {"a": 41.5, "name": "Echoed"}, "value": 2}
    ev = _evidence(
        {"id": "c", "tool": "calculate", "args": {"expression": "1+1"}, "result": result}
    )
    assert not [f for f in ev.facts if f.value == 41.5]
    assert _values(ev, "value") == [2.0] and "Echoed" in ev.names


def test_keys_bind_percentages_subjects_and_spans_per_call() -> None:
    move = {
        "ticker": "axo",
        "session": "2024-12-31",
        "previous_session": "2024-12-30",
        "close": 287.14,
        "change_pct": 1.31,
        "volume": 10,
        "rank": 2,
        "benchmark": {"ticker": None, "return_pct": -0.57},
        "portfolio": {"portfolio_id": "P001", "return_pct": 0.52},
    }
    ev = _evidence({"id": "m", "tool": "get_daily_move", "args": {"ticker": "AXO"}, "result": move})
    facts = {f.key: f for f in ev.facts if f.event == "m" and f.key != "count"}
    assert facts["close"].ticker == "AXO" and facts["close"].span.end.isoformat() == "2024-12-31"
    change = facts["change_pct"]
    assert change.percent and (change.span.start.isoformat(), change.span.end.isoformat()) == (
        "2024-12-30",
        "2024-12-31",
    )
    assert not facts["rank"].percent and facts["rank"].span is None
    subjects = {f.ticker for f in ev.facts if f.key == "return_pct"}
    assert subjects == {BENCHMARK_SUBJECT, PORTFOLIO_SUBJECT}
    assert [f.span for f in ev.changes["AXO"]] == [change.span]
    plain = _evidence({"id": "g", "tool": "get_price", "args": {"ticker": "AXO"}, "result": move})
    assert not [f for f in plain.facts if f.key == "change_pct" and f.percent]


def test_a_sql_result_is_read_per_row_with_its_columns() -> None:
    result = {"columns": ["ticker", "change", "weight"], "rows": [["AXO", 3.71, 0.12]]}
    ev = _evidence({"id": "s", "tool": "run_sql", "args": {"query": "select"}, "result": result})
    row = {f.key: f for f in ev.facts if f.key in ("change", "weight")}
    assert row["change"].ticker == row["weight"].ticker == "AXO"
    assert row["change"].percent and [f.value for f in ev.fractions] == [12.0]

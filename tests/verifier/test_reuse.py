"""The index of a trace is built once and reused by every draft over it: the verdicts are those
of a fresh index, and a trace whose results are other objects is indexed anew."""

from __future__ import annotations

import copy
from typing import Any

from tests.bench.bench_verify import whole_portfolio_traces
from verifier.evidence import clear_caches
from verifier.verify import verify_json as verify


def _verdicts(traces: list[dict[str, Any]], fresh: bool) -> list[dict[str, Any]]:
    out = []
    for trace in traces:
        if fresh:
            clear_caches()
        out.append(verify(trace).model_dump())
    return out


def test_reused_index_gives_the_verdicts_of_a_fresh_one() -> None:
    traces = whole_portfolio_traces()[::7]  # several drafts over each of the three traces
    assert len({id(t["events"]) for t in traces}) == 3
    assert _verdicts(traces, fresh=False) == _verdicts(traces, fresh=True)


def test_a_trace_with_other_results_is_indexed_anew() -> None:
    trace = next(t for t in whole_portfolio_traces() if verify(t).accepted)
    changed = copy.deepcopy(trace)  # same ids and tools, other result objects and figures
    for event in changed["events"]:
        result = event.get("result")
        if isinstance(result, dict):
            for key, value in result.items():
                if isinstance(value, float):
                    result[key] = value * 3 + 1
    assert verify(trace).accepted
    assert not verify(changed).accepted
    assert verify(trace).accepted


def test_a_question_added_to_the_events_index_is_the_index_of_the_whole_trace() -> None:
    """Per draft, a question without figures is added to the events' reused index: the same
    evidence, fact for fact and in the same order, as indexing the trace with its question."""
    from verifier.index import _index, index_trace
    from verifier.rules.other_portfolios import split_portfolios
    from verifier.trace_view import parse_trace

    traces = whole_portfolio_traces()
    assert len({t["question"] for t in traces}) > 10
    for trace in traces:
        view, _ = split_portfolios(parse_trace(trace))
        assert index_trace(view) == _index(view, True)


def test_the_names_the_index_gathers_are_those_a_walk_of_the_results_finds() -> None:
    """The closed world's names come from the index's own walk, not a second one: the same
    strings as a walk of every result's dicts and lists (a SQL row's columns are no keys of a
    result; a failed call's result and an echoed expression still count)."""
    from verifier.coverage import names_in
    from verifier.index import index_trace
    from verifier.rules.other_portfolios import split_portfolios
    from verifier.trace_view import parse_trace

    odd = {
        "question": "How did AXO do?",
        "draft": "AXO rose.",
        "events": [
            {"id": "s", "tool": "run_sql", "args": {"query": "select"},
             "result": {"columns": ["ticker", "name"], "rows": [["AXO", "Axo Corp"]],
                        "source": "Market Wire"}},
            {"id": "f", "tool": "get_company", "args": {"ticker": "AXO"}, "error": "timeout",
             "result": {"name": "Failed Holdings"}},
            {"id": "c", "tool": "calculate", "args": {"expression": "1+1"},
             "result": {"expression": {"name": "Echoed Name"}, "value": 2}},
            {"id": "n", "tool": "get_company", "args": {"ticker": "AXO"},
             "result": {"rows": [{"name": "Nested Name", "sector": "Energy"}]}},
        ],
    }  # fmt: skip
    for trace in [*whole_portfolio_traces()[::50], odd]:
        view, _ = split_portfolios(parse_trace(trace))
        walked: list[str] = []
        for event in view.events:
            if event.result is not None:
                names_in(event.result, walked)
        assert set(index_trace(view).names) == set(walked)
    assert {"Market Wire", "Failed Holdings", "Echoed Name", "Nested Name", "Energy"} <= set(walked)
    assert "Axo Corp" not in walked

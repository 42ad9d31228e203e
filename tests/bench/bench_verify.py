"""Verification cost per draft: typical drafts of 100-200 words against traces of 10 events.

Run: `.venv/bin/python -m tests.bench.bench_verify` (`--portfolio`: only the whole-portfolio
traces). Prints microseconds per draft (min and median
of several rounds), and p50 and p99 of each draft's verification in CPU time of its thread (what
the verifier itself costs, which a loaded machine's waits do not inflate). Every trace has its own figures, dates and headlines, so caches of repeated
strings help only within a trace, as in a real run; `--cold` also clears them before each trace.
It also prints the floor: what any verifier written in Python pays per draft before it checks
anything (parse the trace, visit each result value once, one regex pass over the draft, one
claim object per match, build the verdict). Last, p50 and p99 on traces of a whole portfolio
(about 30 events of the sample night's position calls) with the held-out corpus's faithful
drafts: warm (a trace's index reused by the next draft over it), cold (what a night pays: one
draft per trace, its index built within the draft's time) and the first trace of a process
(every cache of strings cleared as well), each with the index build alone.
"""

from __future__ import annotations

import re
import statistics
import sys
import time
from typing import Any

from verifier.claim import Claim
from verifier.evidence import clear_caches
from verifier.trace_view import parse_trace
from verifier.verdict import Verdict
from verifier.verify import verify_json as verify

TICKERS = ["ENYW", "GMJ", "LADN", "MCG", "NGZW"]


def make_trace(i: int) -> dict[str, Any]:
    """Ten events (daily moves, news, P&L, a calculation) and a ~150-word draft over them."""
    events: list[dict[str, Any]] = []
    sentences = []
    day = 2 + i % 26
    session, previous = f"2024-03-{day:02d}", f"2024-03-{day - 1:02d}"
    for k, t in enumerate(TICKERS):
        close, prev = 100 + i * 0.37 + k * 13.37, 98.5 + i * 0.11 + k * 13.1
        pct = round((close - prev) / prev * 100, 2)
        events.append(
            {
                "id": f"m{k}",
                "tool": "get_daily_move",
                "args": {"ticker": t, "date": session},
                "result": {
                    "ticker": t,
                    "session": session,
                    "previous_session": previous,
                    "close": round(close, 2),
                    "previous_close": round(prev, 2),
                    "change": round(close - prev, 2),
                    "change_pct": pct,
                },
            }
        )
        word = "rose" if pct >= 0 else "fell"
        sentences.append(
            f"{t} {word} {abs(pct):.2f}% on March {day}, 2024 to close at ${close:,.2f}, "
            f"against a previous close of {prev:.2f} on 2024-03-{day - 1:02d}"
        )
    news = [
        {
            "headline": f"Company {n} announces results for unit {i} ahead of estimates",
            "session": "before",
            "published_at": f"{session}T12:00:00Z",
            "source": "Reuters",
        }
        for n in range(3)
    ]
    for k, t in enumerate(TICKERS[:3]):
        events.append(
            {
                "id": f"n{k}",
                "tool": "search_news",
                "args": {"ticker": t},
                "result": {"ticker": t, "news": news},
            }
        )
    events.append(
        {
            "id": "p0",
            "tool": "get_position_pnl",
            "args": {"ticker": "ENYW", "portfolio_id": "P001"},
            "result": {
                "ticker": "ENYW",
                "market_value": 119473.38,
                "day_pnl": 4293.81,
                "pnl_pct": 3.73,
                "contribution_pct": 0.85,
            },
        }
    )
    events.append(
        {
            "id": "c0",
            "tool": "calculate",
            "args": {"expression": "4293.81/119473.38"},
            "result": {"value": 0.035939},
        }
    )
    draft = (
        ". ".join(sentences)
        + f'. The news search returned "Company 1 announces results for unit {i} ahead of '
        'estimates". The ENYW position gained $4,293.81 (3.73%), 85 bps of the portfolio, on a market '
        "value of $119.5K, a 3.6% return. Overall the session was one of gains for the position, "
        "which closed higher, according to the data the tools returned for the report date."
    )
    return {
        "question": f"Summarise the portfolio's day on {session}.",
        "requires": ["percentage"],
        "events": events,
        "draft": draft,
    }


_TOKEN = re.compile(r'"[^"]+"|\$?\d[\d,.]*%?|[A-Z]{2,5}|(?:January|February|March) \d+, \d{4}')


def floor(trace: dict[str, Any]) -> Verdict:
    """The plumbing of a verification, without any check: parse, walk, scan, build."""
    view = parse_trace(trace)
    leaves: list[tuple[str, Any]] = []

    def walk(node: Any, key: str) -> None:
        if node.__class__ is dict:
            for k, v in node.items():
                walk(v, k)
        elif node.__class__ is list:
            for v in node:
                walk(v, key)
        else:
            leaves.append((key, node))

    for event in view.events:
        walk(event.result, "")
    claims = [
        Claim(m.group(), m.start(), m.end(), "number") for m in _TOKEN.finditer(view.draft or "")
    ]
    out = [{"text": c.text, "span": c.span, "kind": c.kind, "supported_by": []} for c in claims]
    return Verdict.model_validate({"accepted": True, "reasons": [], "claims": out})


def best_of(
    rounds: int, traces: list[dict[str, Any]], check: Any, cold: bool = False
) -> tuple[list[float], list[float]]:
    """Wall time per draft of each round, and each draft's CPU time, in seconds."""
    per_draft, cpu = [], []
    for _ in range(rounds):
        clear_caches()
        elapsed = 0.0
        for t in traces:
            if cold:
                clear_caches()
            start, used = time.perf_counter(), time.thread_time()
            check(t)
            cpu.append(time.thread_time() - used)
            elapsed += time.perf_counter() - start
        per_draft.append(elapsed / len(traces))
    return per_draft, cpu


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))]


def whole_portfolio_traces(events_per_trace: int = 30) -> list[dict[str, Any]]:
    """Drafts over traces of a whole portfolio: every position call of one portfolio of the
    sample night (`tests/verifier/closed_world/free_form_traces.json`, real tool results),
    about `events_per_trace` events, each holding one faithful draft of the held-out corpus."""
    import json
    from pathlib import Path

    here = Path(__file__).parents[1] / "verifier" / "closed_world"
    traces = json.loads((here / "free_form_traces.json").read_text())
    rows = [json.loads(line) for line in (here / "held_out.jsonl").read_text().splitlines()]
    out: list[dict[str, Any]] = []
    for portfolio in ("P001", "P002", "P003"):
        qids = [q for q in sorted(traces) if q.endswith(f"/position/{portfolio}")]
        moves = [f"{q.split('/')[0]}/move" for q in qids]  # the holdings' own moves, trends
        events = [
            {**e, "id": f"{q}:{e['id']}"}
            for q in [*qids, *moves]
            if q in traces
            for e in traces[q]["events"]
        ][:events_per_trace]
        covered = {e["id"].split(":")[0] for e in events}
        for row in rows:
            if row["question_id"] in covered and row["label"] == "faithful":
                base = traces[row["question_id"]]
                out.append({**base, "requires": [], "events": events, "draft": row["draft"]})
    return out


def cold_per_draft(
    traces: list[dict[str, Any]], forget_strings: bool
) -> tuple[list[float], list[float]]:
    """Each draft as a night verifies it: the first and only one over its trace (a fresh copy of
    the events: no index of an earlier draft is reused), so the index is built inside the
    measured time; `forget_strings` also clears every cache of strings read before (the first
    trace of a process). CPU time of the whole verification, and of building the index alone."""
    import copy

    from verifier.index import index_trace
    from verifier.reuse import forget
    from verifier.rules.other_portfolios import split_portfolios

    cpu, index_cpu = [], []
    for t in traces:
        fresh = copy.deepcopy(t)
        (clear_caches if forget_strings else forget)()
        used = time.thread_time()
        verify(fresh)
        cpu.append(time.thread_time() - used)
        own = split_portfolios(parse_trace(copy.deepcopy(t)))[0]
        (clear_caches if forget_strings else forget)()
        used = time.thread_time()
        index_trace(own)
        index_cpu.append(time.thread_time() - used)
    return cpu, index_cpu


def bench_whole_portfolio() -> None:
    traces = whole_portfolio_traces()
    accepted = sum(verify(t).accepted for t in traces)
    _, cpu = best_of(5, traces, verify)
    cold, index_cold = cold_per_draft(traces * 2, forget_strings=False)
    first, index_first = cold_per_draft(traces, forget_strings=True)

    def p(values: list[float]) -> str:
        return (
            f"p50 {percentile(values, 50) * 1e6:.0f} us, p99 {percentile(values, 99) * 1e6:.0f} us"
        )

    print(
        f"whole-portfolio traces ({len(traces[0]['events'])} events, {len(traces)} faithful "
        f"drafts, {accepted} accepted), per draft, CPU time:\n"
        f"  warm (the trace's index reused from an earlier draft): {p(cpu)}\n"
        f"  cold (one draft per trace, as a night: its index built within it): {p(cold)}; "
        f"the index alone {p(index_cold)}\n"
        f"  first trace of a process (every cache of strings cleared too): {p(first)}; "
        f"the index alone {p(index_first)}"
    )


def main() -> None:
    cold = "--cold" in sys.argv
    if "--portfolio" in sys.argv:
        bench_whole_portfolio()
        return
    traces = [make_trace(i) for i in range(200)]
    words = sum(len(t["draft"].split()) for t in traces) / len(traces)
    assert len({t["draft"] for t in traces}) == len(traces)
    assert all(verify(t).accepted for t in traces), verify(traces[0]).reasons
    for t in traces[:20]:
        verify(t)
    rounds = 9
    per_draft, cpu = best_of(rounds, traces, verify, cold)
    plumbing, _ = best_of(rounds, traces, floor)
    print(
        f"verify{' (cold caches)' if cold else ''}: min {min(per_draft) * 1e6:.0f} us, "
        f"median {statistics.median(per_draft) * 1e6:.0f} us per draft ({rounds} rounds x "
        f"{len(traces)} distinct traces; {words:.0f} words, 10 events, "
        f"{len(verify(traces[0]).claims)} claims)"
    )
    print(
        f"per draft, CPU time: p50 {percentile(cpu, 50) * 1e6:.0f} us, "
        f"p99 {percentile(cpu, 99) * 1e6:.0f} us ({len(cpu)} verifications)"
    )
    print(
        f"floor (parse, walk, one scan, claim objects, verdict; no check): min "
        f"{min(plumbing) * 1e6:.0f} us per draft ({len(floor(traces[0]).claims)} tokens)"
    )
    bench_whole_portfolio()


if __name__ == "__main__":
    main()

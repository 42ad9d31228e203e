"""Measure token counting, request estimates and the budget meter; print the figures.

Run: .venv/bin/python tests/bench/bench_tokens.py [--questions N]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # the repository root: tests.*

from agent.budget.limits import BudgetConfig
from agent.budget.meter import RunBudget
from agent.providers.base import Message, ModelRequest, ToolResultItem, ToolSpec
from agent.providers.tokens import encoding_for, estimate_request
from contract.trace import ToolCall, Usage
from tests.agent.providers.reference_count import reference_prompt_tokens

TOOL = ToolSpec(
    name="get_daily_move",
    description="Close, previous session's close and the day change of one ticker.",
    parameters={
        "type": "object",
        "properties": {
            "ticker": {"type": "string", "description": "Ticker symbol, e.g. AAPL."},
            "date": {"type": "string", "description": "Trading date, YYYY-MM-DD."},
        },
        "required": ["ticker", "date"],
    },
)


def request_with(turns: int, tools: int) -> ModelRequest:
    messages = [Message(role="user", text="Why did MSFT move on 2024-06-28? Cite the figures.")]
    for n in range(turns):
        call = ToolCall(
            id=f"c{n}", name=TOOL.name, arguments='{"ticker":"MSFT","date":"2024-06-28"}'
        )
        result = json.dumps({"ticker": "MSFT", "close": 446.95, "prev_close": 452.85, "rows": n})
        messages += [
            Message(role="assistant", tool_calls=[call]),
            Message(
                role="tool",
                results=[ToolResultItem(call_id=call.id, name=TOOL.name, content=result)],
            ),
        ]
    named = [TOOL.model_copy(update={"name": f"{TOOL.name}_{i}"}) for i in range(tools)]
    return ModelRequest(system="You are a careful equity analyst.", tools=named, messages=messages)


def bench_counting() -> None:
    encoding = encoding_for("gpt-4o")
    assert encoding is not None
    text = Path(__file__).read_text(encoding="utf-8") * 200
    began = time.perf_counter()
    tokens = len(encoding.encode_ordinary(text))
    elapsed = time.perf_counter() - began
    print(
        f"o200k count: {tokens:,} tokens in {elapsed * 1000:.0f} ms ({tokens / elapsed / 1e6:.1f} M tokens/s)"
    )


def bench_estimates() -> None:
    encoding = encoding_for("gpt-4o")
    assert encoding is not None
    for turns, tools in [(0, 0), (0, 8), (3, 8), (10, 8)]:
        request = request_with(turns, tools)
        began = time.perf_counter()
        estimate = estimate_request(request, "openai", "gpt-4o")
        micros = (time.perf_counter() - began) * 1e6
        reference = reference_prompt_tokens(request, encoding)
        anthropic = estimate_request(request, "anthropic", "claude-sonnet-4-5")
        print(
            f"turns={turns:2d} tools={tools}: estimate {estimate:5d} / cookbook reference "
            f"{reference:5d} = {estimate / reference:.2f}; anthropic estimate {anthropic:5d}; "
            f"{micros:.0f} us"
        )


def ask(run: RunBudget, ticker: str, question: int, calls: int) -> None:
    meter = run.ticker(ticker).question(f"{ticker}:{question}", "kind")
    for _ in range(calls):
        reservation = meter.reserve(1_100, prompt_tokens=100)
        if reservation is None:
            return
        meter.settle(reservation, Usage(input_tokens=90, cached_tokens=10, output_tokens=50))


def bench_meter(questions: int) -> None:
    tickers = [f"T{i}" for i in range(max(questions // 10, 1))]
    config = BudgetConfig(run_tokens=10**9, question_tokens=50_000, max_output_tokens=1_000)
    run = RunBudget(config, tickers)
    began = time.perf_counter()
    with ThreadPoolExecutor(max_workers=8) as pool:
        for q in range(questions):
            pool.submit(ask, run, tickers[q % len(tickers)], q, 5)
    threaded = time.perf_counter() - began

    async def gather() -> None:
        async def one(q: int) -> None:
            ask(run2, tickers[q % len(tickers)], q, 5)
            await asyncio.sleep(0)

        await asyncio.gather(*(one(q) for q in range(questions)))

    run2 = RunBudget(config, tickers)
    began = time.perf_counter()
    asyncio.run(gather())
    tasks = time.perf_counter() - began
    began = time.perf_counter()
    ledger = run.ledger()
    built = time.perf_counter() - began
    pairs = questions * 5
    print(
        f"meter: {pairs:,} reserve+settle pairs: {threaded / pairs * 1e6:.1f} us each on 8 threads, "
        f"{tasks / pairs * 1e6:.1f} us each in asyncio tasks; ledger of {questions:,} questions "
        f"in {built * 1000:.1f} ms (used {ledger.used.total:,})"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--questions", type=int, default=5_000)
    args = parser.parse_args()
    bench_counting()
    bench_estimates()
    bench_meter(args.questions)


if __name__ == "__main__":
    main()

"""The budget invariant end to end: the real loop (`answer_question`) on a real catalog, with a
scripted provider that calls real tools for a random number of rounds and reports random usage
within what each request asked for."""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import Iterator
from datetime import date
from pathlib import Path

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from agent.budget.limits import BudgetConfig
from agent.budget.meter import RunBudget
from agent.loop import answer_question
from agent.providers.base import ModelRequest, ModelResponse
from agent.providers.tokens import estimate_request
from agent.questions import Question
from contract.reasons import ReasonCode
from contract.trace import ToolCall, Trace, Usage
from tools.catalog import Catalog, open_catalog

REPORT_DATE = date(2024, 12, 20)


class ScriptedProvider:
    """Asks for a real tool a few rounds, then answers; usage is random but within the request:
    prompt at most the estimate, output at most `max_output_tokens`."""

    name = "scripted"
    model = "gpt-4o"

    def __init__(self, seed: int, ticker: str) -> None:
        self.rng = random.Random(seed)
        self.ticker = ticker
        self.rounds = self.rng.randint(0, 4)

    def estimate_tokens(self, request: ModelRequest) -> int:
        return estimate_request(request, "openai", self.model)

    async def complete(self, request: ModelRequest) -> ModelResponse:
        await asyncio.sleep(0)
        estimate = self.estimate_tokens(request)
        input_tokens = self.rng.choice([estimate, self.rng.randint(0, estimate)])
        output_cap = request.max_output_tokens
        usage = Usage(
            input_tokens=input_tokens,
            cached_tokens=self.rng.randint(0, input_tokens),
            output_tokens=self.rng.choice([output_cap, self.rng.randint(1, output_cap)]),
        )
        step = sum(1 for m in request.messages if m.role == "assistant")
        if step < self.rounds:
            args = {"ticker": self.ticker, "date": f"2024-12-{10 + step:02d}"}
            call = ToolCall(id=f"c{step}", name="get_price", arguments=json.dumps(args))
            return ModelResponse(tool_calls=[call], finish_reason="tool_calls", usage=usage)
        return ModelResponse(text=f"{self.ticker} closed as the tools show.", usage=usage)


@pytest.fixture(scope="module")
def catalog(small_data: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Catalog]:
    cat = open_catalog(small_data, REPORT_DATE, workdir=tmp_path_factory.mktemp("catalog"))
    yield cat
    cat.close()


def question(ticker: str, n: int) -> Question:
    return Question(
        id=f"{ticker}:q{n}",
        spec_id="move",
        kind="move" if n % 2 else "news",
        text=f"How did {ticker} trade this week?",
        ticker=ticker,
        as_of=REPORT_DATE,
    )


@st.composite
def budgets(draw: st.DrawFn) -> BudgetConfig:
    run_tokens = draw(st.integers(500, 40_000))
    question_tokens = draw(st.integers(300, run_tokens))
    return BudgetConfig(
        run_tokens=run_tokens,
        question_tokens=question_tokens,
        max_output_tokens=draw(st.integers(1, min(question_tokens - 1, 400))),
        max_steps=draw(st.integers(1, 6)),
    )


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    config=budgets(),
    shape=st.lists(st.integers(1, 3), min_size=1, max_size=4),
    seed=st.integers(0, 2**32),
)
def test_real_loop_never_spends_past_the_budget(
    catalog: Catalog, config: BudgetConfig, shape: list[int], seed: int
) -> None:
    tickers = [listing for listing in sorted(catalog.listings)][: len(shape)]
    run = RunBudget(config, tickers, provider="scripted", model="gpt-4o")

    async def ask_ticker(ticker: str, count: int) -> list[Trace]:
        budget = run.ticker(ticker)
        traces = await asyncio.gather(
            *(
                answer_question(
                    question(ticker, n),
                    provider=ScriptedProvider(seed + n, ticker),
                    catalog=catalog,
                    mode="react",
                    meter=budget.question(f"{ticker}:q{n}", "move" if n % 2 else "news"),
                    limits=config.loop_limits(),
                )
                for n in range(count)
            )
        )
        budget.close()
        return list(traces)

    async def main() -> list[Trace]:
        per_ticker = await asyncio.gather(
            *(ask_ticker(t, c) for t, c in zip(tickers, shape, strict=False))
        )
        return [trace for traces in per_ticker for trace in traces]

    traces = asyncio.run(main())
    ledger = run.ledger()
    assert sum(t.usage.total for t in traces) == ledger.used.total <= config.run_tokens
    for trace in traces:
        assert trace.usage.total <= config.question_tokens, trace.question_id
    cut = {t.question_id: t.usage for t in traces if t.stop_reason == ReasonCode.BUDGET_EXHAUSTED}
    assert {c.question_id: c.spent for c in ledger.cuts} == cut
    assert (ledger.overruns, ledger.open_reservations) == (0, 0)
    event(f"budget cuts: {'some' if cut else 'none'}")
    event(f"tool rounds: {'some' if any(t.events for t in traces) else 'none'}")
    answered = [t for t in traces if t.stop_reason == ReasonCode.ANSWERED]
    assert all(t.events or not t.turns[:-1] for t in answered), "tool rounds ran on the catalog"

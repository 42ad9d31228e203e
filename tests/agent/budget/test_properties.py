"""Property tests: random budgets, random concurrency, callers that report random usage.

Each scripted question reserves its estimated prompt plus the output cap before every call and
then reports usage within what it asked for, as a provider that honours `max_tokens` does.
"""

from __future__ import annotations

import asyncio
import random
import threading
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agent.budget.limits import BudgetConfig
from agent.budget.meter import QuestionMeter, RunBudget
from contract.trace import Usage

PROPERTY_SETTINGS = settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)


@dataclass
class Call:
    prompt: int
    input_share: float
    cached_share: float
    output_share: float


@dataclass
class Outcome:
    """What the callers saw, kept apart from the meter's own books."""

    reported: dict[str, Usage] = field(default_factory=dict)
    cut: set[str] = field(default_factory=set)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def add(self, question_id: str, usage: Usage) -> None:
        with self.lock:
            self.reported[question_id] = self.reported.get(question_id, Usage()) + usage


@dataclass
class Scenario:
    config: BudgetConfig
    questions: dict[str, dict[str, list[Call]]]  # ticker -> question id -> calls
    seed: int


shares = st.one_of(st.just(1.0), st.just(1.0), st.floats(0, 1))  # often all of what was asked
calls = st.builds(
    Call,
    prompt=st.integers(1, 400),
    input_share=shares,
    cached_share=st.floats(0, 1),
    output_share=shares,
)


@st.composite
def scenarios(draw: st.DrawFn) -> Scenario:
    run_tokens = draw(st.integers(200, 6_000))
    question_tokens = draw(st.integers(60, run_tokens))
    max_output = draw(st.integers(1, question_tokens - 1))
    config = BudgetConfig(
        run_tokens=run_tokens, question_tokens=question_tokens, max_output_tokens=max_output
    )
    tickers = draw(st.lists(st.sampled_from("ABCDEFGH"), min_size=1, max_size=5, unique=True))
    questions = {
        ticker: {
            f"{ticker}:{n}": draw(st.lists(calls, min_size=1, max_size=5))
            for n in range(draw(st.integers(1, 3)))
        }
        for ticker in tickers
    }
    return Scenario(config, questions, draw(st.integers(0, 2**32)))


def usage_within(call: Call, max_output: int) -> Usage:
    """Usage within the reservation; a call always reads at least one prompt token (a reply
    reporting no usage at all is a provider fault, tested on its own)."""
    input_tokens = max(round(call.prompt * call.input_share), 1)
    return Usage(
        input_tokens=input_tokens,
        cached_tokens=round(input_tokens * call.cached_share),
        output_tokens=round(max_output * call.output_share),
    )


async def ask_async(
    meter: QuestionMeter, script: list[Call], max_output: int, out: Outcome, rng: random.Random
) -> None:
    for call in script:
        reservation = meter.reserve(call.prompt + max_output, prompt_tokens=call.prompt)
        if reservation is None:
            out.cut.add(meter.question_id)
            return
        for _ in range(rng.randint(0, 3)):
            await asyncio.sleep(0)
        usage = usage_within(call, max_output)
        meter.settle(reservation, usage)
        out.add(meter.question_id, usage)


def ask_sync(meter: QuestionMeter, script: list[Call], max_output: int, out: Outcome) -> None:
    for call in script:
        reservation = meter.reserve(call.prompt + max_output, prompt_tokens=call.prompt)
        if reservation is None:
            out.cut.add(meter.question_id)
            return
        usage = usage_within(call, max_output)
        meter.settle(reservation, usage)
        out.add(meter.question_id, usage)


async def run_async(scenario: Scenario, run: RunBudget, out: Outcome) -> None:
    rng = random.Random(scenario.seed)
    max_output = scenario.config.max_output_tokens

    async def ticker_task(ticker: str) -> None:
        budget = run.ticker(ticker)
        await asyncio.gather(
            *(
                ask_async(budget.question(qid, "kind"), script, max_output, out, rng)
                for qid, script in scenario.questions[ticker].items()
            )
        )
        budget.close()

    await asyncio.gather(
        *(ticker_task(t) for t in rng.sample(list(scenario.questions), k=len(scenario.questions)))
    )


def run_threads(scenario: Scenario, run: RunBudget, out: Outcome) -> None:
    max_output = scenario.config.max_output_tokens

    def ticker_job(ticker: str) -> None:
        budget = run.ticker(ticker)
        with ThreadPoolExecutor(max_workers=3) as pool:
            for qid, script in scenario.questions[ticker].items():
                pool.submit(ask_sync, budget.question(qid, "kind"), script, max_output, out)
        budget.close()

    with ThreadPoolExecutor(max_workers=4) as pool:
        list(pool.map(ticker_job, scenario.questions))


def check_invariants(scenario: Scenario, run: RunBudget, out: Outcome) -> None:
    ledger = run.ledger()
    reported_total = sum(u.total for u in out.reported.values())
    assert reported_total <= scenario.config.run_tokens
    assert ledger.used.total == reported_total == run.used.total
    for question_id, usage in out.reported.items():
        assert usage.total <= scenario.config.question_tokens, question_id
    assert {cut.question_id for cut in ledger.cuts} == out.cut
    for cut in ledger.cuts:
        assert cut.spent == out.reported.get(cut.question_id, Usage())
    assert (ledger.overruns, ledger.uncovered_tokens, ledger.open_reservations) == (0, 0, 0)
    assert run.pool + ledger.used.total == scenario.config.run_tokens, "no token lost or made"


@PROPERTY_SETTINGS
@given(scenarios())
def test_asyncio_callers_never_overspend(scenario: Scenario) -> None:
    run = RunBudget(scenario.config, list(scenario.questions))
    out = Outcome()
    asyncio.run(run_async(scenario, run, out))
    check_invariants(scenario, run, out)


@PROPERTY_SETTINGS
@given(scenarios())
def test_threaded_callers_never_overspend(scenario: Scenario) -> None:
    run = RunBudget(scenario.config, list(scenario.questions))
    out = Outcome()
    run_threads(scenario, run, out)
    check_invariants(scenario, run, out)


@settings(max_examples=40, deadline=None)
@given(scenarios(), st.floats(1.0, 3.0))
def test_underestimated_prompts_overrun_only_as_recorded(scenario: Scenario, excess: float) -> None:
    """A provider reporting more input than estimated: usage passes the run only by what the
    ledger reports as uncovered, and the estimate factor rises to cover the miss."""
    run = RunBudget(scenario.config, list(scenario.questions))
    max_output = scenario.config.max_output_tokens
    reported = Usage()
    for ticker, questions in scenario.questions.items():
        for qid, script in questions.items():
            meter = run.ticker(ticker).question(qid, "kind")
            for call in script:
                reservation = meter.reserve(call.prompt + max_output, prompt_tokens=call.prompt)
                if reservation is None:
                    break
                usage = Usage(
                    input_tokens=round(reservation.prompt_tokens * excess), output_tokens=0
                )
                meter.settle(reservation, usage)
                reported = reported + usage
        run.ticker(ticker).close()
    ledger = run.ledger()
    assert reported.total <= scenario.config.run_tokens + ledger.uncovered_tokens
    if ledger.overruns:
        assert ledger.estimate_factor >= 1.1


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.lists(st.integers(1, 300), min_size=1, max_size=4), min_size=1, max_size=6),
    st.randoms(use_true_random=False),
    st.booleans(),
)
def test_run_that_fits_every_ticker_exactly_answers_all(
    needs: list[list[int]], rng: random.Random, concurrent: bool
) -> None:
    """Each ticker asks for the same total; the run holds exactly that many times N. Whatever
    the order, and whether tickers run one after another or all at once, nobody is cut."""
    per_ticker = max(2, *(sum(calls) for calls in needs))
    scripts = {f"T{i}": [*calls, per_ticker - sum(calls)] for i, calls in enumerate(needs)}
    config = BudgetConfig(
        run_tokens=per_ticker * len(scripts), question_tokens=per_ticker, max_output_tokens=1
    )
    run = RunBudget(config, list(scripts))
    order = rng.sample(list(scripts), k=len(scripts))
    answered: list[str] = []

    async def ask(ticker: str) -> None:
        budget = run.ticker(ticker)
        meter = budget.question(f"{ticker}:q", "kind")
        for tokens in scripts[ticker]:
            reservation = meter.reserve(tokens)
            assert reservation is not None, f"{ticker} cut in order {order}"
            await asyncio.sleep(0)
            meter.settle(reservation, Usage(input_tokens=tokens))
        budget.close()
        answered.append(ticker)

    async def main() -> None:
        if concurrent:
            await asyncio.gather(*(ask(t) for t in order))
        else:
            for ticker in order:
                await ask(ticker)

    asyncio.run(main())
    assert sorted(answered) == sorted(scripts)
    assert run.ledger().used.total == config.run_tokens


def test_greedy_first_ticker_cannot_starve_later_ones() -> None:
    config = BudgetConfig(run_tokens=900, question_tokens=900, max_output_tokens=10)
    run = RunBudget(config, ["GREEDY", "B", "C"])
    greedy = run.ticker("GREEDY").question("g", "kind")
    while (reservation := greedy.reserve(50)) is not None:
        greedy.settle(reservation, Usage(input_tokens=50))
    assert greedy.spent.total == 300
    for ticker in ("B", "C"):
        meter = run.ticker(ticker).question(ticker, "kind")
        reservation = meter.reserve(300)
        assert reservation is not None
        meter.settle(reservation, Usage(input_tokens=300))

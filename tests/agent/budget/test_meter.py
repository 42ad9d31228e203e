"""The meter's rules one at a time: shares, pool, refusals, settling and overruns."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from agent.budget.ledger import merge_ledgers
from agent.budget.limits import BudgetConfig
from agent.budget.meter import RunBudget, unlimited_meter
from contract.errors import InputError
from contract.trace import Usage
from flows.cli.tables import render_budget_table


def config(
    run: int = 1_000, question: int = 400, output: int = 100, fault_factor: float = 4.0
) -> BudgetConfig:
    return BudgetConfig(
        run_tokens=run,
        question_tokens=question,
        max_output_tokens=output,
        usage_fault_factor=fault_factor,
    )


def test_defaults_are_valid_and_bounded() -> None:
    cfg = BudgetConfig()
    assert cfg.max_output_tokens < cfg.question_tokens <= cfg.run_tokens


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"run_tokens": 0}, "greater than or equal to 2"),
        ({"question_tokens": -5}, "greater than or equal to 2"),
        ({"max_steps": 0}, "greater than or equal to 1"),
    ],
)
def test_config_rejects_inconsistent_values(fields: dict[str, int], message: str) -> None:
    with pytest.raises(ValidationError, match=message.replace("(", r"\(").replace(")", r"\)")):
        BudgetConfig(**fields)


def test_shares_split_evenly_and_remainder_goes_to_pool() -> None:
    run = RunBudget(config(run=1_000), ["A", "B", "C"])
    assert run.ticker("A").share == 333
    assert run.pool == 1


def test_question_limit_refuses_and_records_spend() -> None:
    run = RunBudget(config(question=400), ["A"])
    meter = run.ticker("A").question("A:move", "move")
    first = meter.reserve(300)
    assert first is not None
    meter.settle(first, Usage(input_tokens=150, cached_tokens=20, output_tokens=50))
    assert meter.reserve(250) is None
    assert meter.refused
    assert meter.reserve(1) is None, "a refused question stays refused"
    cut = run.ledger().cuts[0]
    assert (cut.limit, cut.requested, cut.available) == ("question", 250, 200)
    assert cut.spent == Usage(input_tokens=150, cached_tokens=20, output_tokens=50)


def test_ticker_draws_on_pool_only_after_others_close() -> None:
    run = RunBudget(config(run=1_000, question=700), ["A", "B"])
    greedy = run.ticker("A").question("A:q", "q")
    assert greedy.reserve(600) is None, "A's share is 500 and the pool is empty"
    run.ticker("B").close()
    assert run.pool == 500
    again = run.ticker("A").question("A:q2", "q")
    reservation = again.reserve(600)
    assert reservation is not None
    assert run.pool == 400, "500 from its own share, 100 from the pool"


def test_closed_ticker_returns_late_settlements_to_pool() -> None:
    run = RunBudget(config(run=1_000), ["A", "B"])
    ticker = run.ticker("A")
    meter = ticker.question("A:q", "q")
    reservation = meter.reserve(300)
    assert reservation is not None
    ticker.close()
    assert run.pool == 200
    meter.settle(reservation, Usage(input_tokens=100, output_tokens=20))
    assert run.pool == 380


def test_settle_twice_is_a_bug() -> None:
    meter = RunBudget(config(), ["A"]).ticker("A").question("q", "k")
    reservation = meter.reserve(10)
    assert reservation is not None
    meter.settle(reservation, Usage())
    with pytest.raises(ValueError, match="not open"):
        meter.settle(reservation, Usage())


def test_overrun_is_charged_and_tightens_later_estimates() -> None:
    run = RunBudget(config(run=2_000, question=900), ["A", "B"])
    meter = run.ticker("A").question("q", "k")
    reservation = meter.reserve(200, prompt_tokens=100)
    assert reservation is not None
    meter.settle(reservation, Usage(input_tokens=200, output_tokens=50))
    ledger = run.ledger()
    assert (ledger.overruns, ledger.overrun_tokens, ledger.uncovered_tokens) == (1, 50, 0)
    assert ledger.estimate_factor == pytest.approx(2.2)
    tighter = meter.reserve(200, prompt_tokens=100)
    assert tighter is not None
    assert (tighter.tokens, tighter.prompt_tokens) == (320, 220)


def test_overrun_beyond_everything_is_reported_uncovered() -> None:
    run = RunBudget(config(run=500, question=500), ["A"])
    meter = run.ticker("A").question("q", "k")
    reservation = meter.reserve(500, prompt_tokens=400)
    assert reservation is not None
    meter.settle(reservation, Usage(input_tokens=480, output_tokens=100))
    ledger = run.ledger()
    assert ledger.used.total == 580
    assert ledger.uncovered_tokens == 80 == ledger.used.total - ledger.run_tokens


def test_unknown_ticker_is_a_bug() -> None:
    with pytest.raises(ValueError, match="no share"):
        RunBudget(config(), ["A"]).ticker("ZZZ")


def test_unlimited_meter_grants_and_records() -> None:
    meter = unlimited_meter("q", "k")
    reservation = meter.reserve(10**9)
    assert reservation is not None
    meter.settle(reservation, Usage(input_tokens=5, output_tokens=3))
    assert meter.spent.total == 8
    assert not meter.refused


def test_ledger_groups_by_kind_and_prices_known_models() -> None:
    run = RunBudget(config(), ["A"], provider="openai", model="gpt-4o-2024-08-06")
    for qid, kind in [("q1", "move"), ("q2", "move"), ("q3", "news")]:
        meter = run.ticker("A").question(qid, kind)
        reservation = meter.reserve(100)
        assert reservation is not None
        meter.settle(reservation, Usage(input_tokens=40, cached_tokens=10, output_tokens=20))
    ledger = run.ledger()
    move, news = ledger.lines
    assert (move.kind, move.questions, move.calls, move.reserved) == ("move", 2, 2, 200)
    assert (move.input_tokens, move.cached_tokens, move.output_tokens) == (80, 20, 40)
    # gpt-4o: 2.50 input, 1.25 cached input, 10.00 output per million tokens
    assert move.cost_usd == pytest.approx((60 * 2.5 + 20 * 1.25 + 40 * 10.0) / 1e6)
    assert news.questions == 1
    assert ledger.cost_usd == pytest.approx(1.5 * move.cost_usd)


def test_unknown_model_has_no_cost_but_a_note() -> None:
    run = RunBudget(config(), ["A"], provider="openai", model="house-model-7")
    ledger = run.ledger()
    assert ledger.cost_usd is None
    assert ledger.cost_note is not None and "house-model-7" in ledger.cost_note


def test_budget_table_shows_lines_totals_and_notes() -> None:
    from rich.console import Console

    run = RunBudget(
        config(question=300, fault_factor=10), ["A"], provider="openai", model="house-model-7"
    )
    meter = run.ticker("A").question("q1", "move")
    reservation = meter.reserve(200, prompt_tokens=100)
    assert reservation is not None
    meter.settle(reservation, Usage(input_tokens=1_234, cached_tokens=200, output_tokens=66))
    assert meter.reserve(300) is None
    console = Console(width=160, record=True)
    console.print(render_budget_table(run.ledger()))
    text = " ".join(console.export_text().split())
    assert "1,300 of 1,000 used" in text
    assert "1,234" in text and "move" in text and "n/a" in text
    assert "no price for model 'house-model-7'" in text
    assert "1 calls reported 1,100 tokens above their reservation" in text


def spend(run: RunBudget, ticker: str, kind: str, usage: Usage) -> None:
    meter = run.ticker(ticker).question(f"{ticker}:{kind}", kind)
    reservation = meter.reserve(usage.total)
    assert reservation is not None
    meter.settle(reservation, usage)


def test_shards_split_tokens_by_tickers_and_limits_evenly() -> None:
    whole = BudgetConfig(
        run_tokens=10_000,
        question_tokens=4_000,
        max_output_tokens=500,
        requests_per_minute=500,
        tokens_per_minute=400_000,
    )
    shard = whole.for_shard(tickers=3, of_tickers=10, shards=4)
    assert (shard.run_tokens, shard.question_tokens) == (3_000, 3_000)
    assert (shard.requests_per_minute, shard.tokens_per_minute) == (125, 100_000)
    learned = BudgetConfig(run_tokens=10_000).for_shard(tickers=3, of_tickers=10, shards=4)
    assert (learned.requests_per_minute, learned.tokens_per_minute) == (None, None)
    with pytest.raises(InputError, match="not enough for one call"):
        whole.for_shard(tickers=1, of_tickers=100, shards=4)


def test_shard_ledgers_merge_into_one() -> None:
    cfg = config(run=2_000, question=600)
    first = RunBudget(cfg, ["A", "B"], provider="openai", model="gpt-4o")
    second = RunBudget(cfg, ["C"], provider="openai", model="gpt-4o")
    spend(first, "A", "move", Usage(input_tokens=100, cached_tokens=10, output_tokens=20))
    spend(first, "B", "news", Usage(input_tokens=50, output_tokens=5))
    spend(second, "C", "move", Usage(input_tokens=200, cached_tokens=30, output_tokens=40))
    assert second.ticker("C").question("C:big", "move").reserve(5_000) is None
    merged = merge_ledgers([first.ledger(), second.ledger()])
    assert merged.run_tokens == 4_000
    assert merged.used == Usage(input_tokens=350, cached_tokens=40, output_tokens=65)
    move = next(line for line in merged.lines if line.kind == "move")
    assert (move.questions, move.calls, move.input_tokens, move.questions_cut) == (3, 2, 300, 1)
    assert [cut.question_id for cut in merged.cuts] == ["C:big"]
    assert merged.cost_usd == pytest.approx(first.ledger().cost_usd + second.ledger().cost_usd)


@pytest.mark.parametrize(
    ("usage", "why"),
    [
        (Usage(input_tokens=-6_569_714, output_tokens=10), "negative usage"),
        (Usage(), "no usage"),
        (Usage(input_tokens=5_000_000, output_tokens=5_000_000), "more than 4 times"),
    ],
)
def test_usage_that_cannot_be_true_is_charged_at_the_reservation(usage: Usage, why: str) -> None:
    run = RunBudget(config(), ["A"])
    meter = run.ticker("A").question("q1", "move")
    reservation = meter.reserve(150, prompt_tokens=50)
    assert reservation is not None
    charged, fault = meter.settle(reservation, usage)
    assert fault is not None and why in fault
    assert charged == Usage(input_tokens=50, output_tokens=100)
    assert run.used == meter.spent == charged
    assert run.ledger().used.total == 150


def test_an_uncovered_overrun_spends_the_run_and_stops_every_later_call() -> None:
    run = RunBudget(config(run=1_000, question=400, output=100), ["A", "B"])
    meter = run.ticker("A").question("q1", "move")
    reservation = meter.reserve(300, prompt_tokens=200)
    assert reservation is not None
    charged, fault = meter.settle(reservation, Usage(input_tokens=1_100, output_tokens=50))
    assert fault is None and charged.total == 1_150
    assert run.ledger().uncovered_tokens > 0
    other = run.ticker("B").question("q2", "news")
    assert other.reserve(10) is None
    assert other.cut is not None and other.cut.limit == "run"


def test_a_run_budget_given_alone_caps_each_question_too() -> None:
    small = BudgetConfig(run_tokens=6_000)
    assert small.question_tokens == 6_000 and small.max_output_tokens < small.question_tokens
    tiny = BudgetConfig(run_tokens=1_000)
    assert tiny.max_output_tokens == 500
    assert small.notes == tiny.notes == []  # what follows unset says nothing


@pytest.mark.parametrize(
    ("fields", "expected", "note"),
    [
        (
            {"run_tokens": 6_000, "question_tokens": 7_000},
            {"question_tokens": 6_000},
            "question_tokens (7,000) is above run_tokens (6,000): a question may spend at most "
            "6,000",
        ),
        (
            {"question_tokens": 500, "max_output_tokens": 500},
            {"max_output_tokens": 250},
            "max_output_tokens (500) leaves question_tokens (500) no room for the prompt: a "
            "call may produce at most 250",
        ),
    ],
)
def test_a_cap_set_above_the_broader_one_follows_it_with_one_note(
    fields: dict[str, int], expected: dict[str, int], note: str
) -> None:
    """The Prefect server checks a form against its schema, which cannot compare two fields:
    the CLI and the form both lower the narrower cap and say so, rather than one refusing."""
    budget = BudgetConfig(**fields)
    assert {name: getattr(budget, name) for name in expected} == expected
    assert budget.notes == [note]
    assert budget.max_output_tokens < budget.question_tokens <= budget.run_tokens

"""Prices of a batch night: batch tokens at the batch price, cached input at the cached price,
Anthropic cache writes at their own rate; what the batch saved shows in the ledger, in the
replayed journal of a killed attempt, in merged ledgers and in `nightdesk budget`'s table."""

from __future__ import annotations

from pathlib import Path

import pytest

from agent.budget.journal import SpendJournal, replay
from agent.budget.ledger import BudgetLedger, merge_ledgers
from agent.budget.limits import BudgetConfig
from agent.budget.meter import RunBudget
from agent.pricing import estimate_cost, load_prices
from contract.trace import Usage
from flows.cli.tables import render_budget_table

CONFIG = BudgetConfig(run_tokens=100_000, question_tokens=10_000)
USAGE = Usage(input_tokens=1_000, cached_tokens=200, cache_write_tokens=300, output_tokens=100)


def test_cache_writes_cost_their_own_rate_and_a_batch_half() -> None:
    prices = load_prices()
    # claude-haiku-4: 1.00 input, 0.10 cache read, 1.25 cache write, 5.00 output per million
    direct, _ = estimate_cost(prices, "anthropic", "claude-haiku-4-5", USAGE)
    assert direct == pytest.approx((500 * 1.0 + 200 * 0.1 + 300 * 1.25 + 100 * 5.0) / 1e6)
    batch, _ = estimate_cost(prices, "anthropic", "claude-haiku-4-5", USAGE, batch=True)
    assert batch == pytest.approx(direct / 2)
    # a model with no cache-write price charges them as input (OpenAI reports none)
    plain, _ = estimate_cost(prices, "openai", "gpt-4o-mini", USAGE)
    assert plain == pytest.approx((800 * 0.15 + 200 * 0.075 + 100 * 0.6) / 1e6)


def spend(budget: RunBudget, qid: str, batch: bool) -> None:
    meter = budget.ticker("AAA").question(qid, "move")
    reservation = meter.reserve(5_000, prompt_tokens=2_000)
    assert reservation is not None
    meter.settle(reservation, USAGE, batch=batch)


def test_the_ledger_prices_batch_calls_at_half_and_says_what_they_saved(tmp_path: Path) -> None:
    path = tmp_path / "a.journal"
    budget = RunBudget(
        CONFIG, ["AAA"], provider="anthropic", model="claude-haiku-4-5", journal=SpendJournal(path)
    )
    spend(budget, "AAA/move", batch=True)
    spend(budget, "AAA/news", batch=True)
    spend(budget, "AAA/events", batch=False)  # a batch failure asked again directly
    ledger = budget.ledger()
    one, _ = estimate_cost(budget.prices, "anthropic", "claude-haiku-4-5", USAGE)
    assert one is not None
    (line,) = ledger.lines
    assert (line.calls, line.batch_calls, line.cache_write_tokens) == (3, 2, 900)
    assert line.batch_cache_write_tokens == 600 and line.batch_output_tokens == 200
    assert ledger.cost_usd == pytest.approx(one + 2 * one / 2)
    assert ledger.saved_usd == pytest.approx(one)

    assert budget.journal is not None
    budget.journal.close()
    replayed = replay(path, BudgetLedger.empty(CONFIG), budget.prices).ledger
    assert replayed.lines == ledger.lines
    assert replayed.saved_usd == pytest.approx(ledger.saved_usd)
    merged = merge_ledgers([ledger, replayed])
    assert merged.saved_usd == pytest.approx(2 * one)
    assert merged.lines[0].batch_calls == 4


def test_the_budget_table_shows_batch_calls_and_the_saving() -> None:
    from rich.console import Console

    budget = RunBudget(CONFIG, ["AAA"], provider="anthropic", model="claude-haiku-4-5")
    spend(budget, "AAA/move", batch=True)
    ledger = budget.ledger()
    console = Console(width=200, record=True)
    console.print(render_budget_table(ledger))
    text = " ".join(console.export_text().split())
    assert f"${ledger.cost_usd:,.4f} in all, against ${2 * ledger.cost_usd:,.4f}" in text
    assert f"(saved ${ledger.saved_usd:,.4f})" in text


def test_a_batch_collected_after_a_kill_is_charged_once_in_the_killed_attempts_journal(
    tmp_path: Path,
) -> None:
    from agent.budget.journal import settle_open

    path = tmp_path / "killed.journal"
    budget = RunBudget(
        CONFIG, ["AAA"], provider="openai", model="gpt-4o-mini", journal=SpendJournal(path)
    )
    held = {}
    for qid in ("AAA/move", "AAA/news", "AAA/events"):  # submitted in a batch, then killed
        reservation = budget.ticker("AAA").question(qid, "move").reserve(5_000, prompt_tokens=2_000)
        assert reservation is not None
        held[qid] = reservation
    stopped = budget.ticker("AAA").question("AAA/news", "move")
    stopped.release(held["AAA/news"])  # a stop, not a kill, gave this one back
    assert budget.journal is not None
    budget.journal.close()
    with path.open("ab") as file:
        file.write(b'{"s":["AAA/mo')  # the write the kill cut short

    served = Usage(input_tokens=900, cached_tokens=100, output_tokens=50)
    spent = {qid: (served, True) for qid in held} | {"AAA/other": (served, True)}
    assert settle_open(path, spent) == 4  # two settles, one new reserved-and-settled pair
    assert settle_open(path, spent) == 0  # collected again: charged already

    ledger = replay(path, BudgetLedger.empty(CONFIG), budget.prices).ledger
    (line,) = ledger.lines
    assert ledger.in_flight_tokens == 0
    assert (line.input_tokens, line.output_tokens, line.batch_output_tokens) == (2_700, 150, 150)
    one, _ = estimate_cost(budget.prices, "openai", "gpt-4o-mini", served, batch=True)
    assert one is not None and ledger.cost_usd == pytest.approx(3 * one)

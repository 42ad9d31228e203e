"""The spend journal: a killed attempt's ledger is its journal replayed, to the last call."""

from __future__ import annotations

from pathlib import Path

from agent.budget.journal import SpendJournal, replay
from agent.budget.ledger import BudgetLedger
from agent.budget.limits import BudgetConfig
from agent.budget.meter import RunBudget
from agent.pricing import load_prices
from contract.trace import Usage

CONFIG = BudgetConfig(run_tokens=100_000, question_tokens=10_000)


def night(path: Path) -> RunBudget:
    return RunBudget(
        CONFIG, ["AAA", "BBB"], provider="openai", model="gpt-4o-mini", journal=SpendJournal(path)
    )


def test_a_replayed_journal_is_the_ledger_the_run_kept(tmp_path: Path) -> None:
    budget = night(tmp_path / "a.journal")
    for ticker, kind, used in [("AAA", "move", 700), ("AAA", "news", 900), ("BBB", "move", 650)]:
        meter = budget.ticker(ticker).question(f"{ticker}/{kind}", kind)
        for _ in range(2):
            reservation = meter.reserve(1_500, prompt_tokens=500)
            assert reservation is not None
            meter.settle(reservation, Usage(input_tokens=used, cached_tokens=100, output_tokens=50))
    never = budget.ticker("BBB").question("BBB/news", "news")
    assert never.reserve(20_000) is None  # over the question's cap: a cut, no call
    live = budget.ledger()
    assert budget.journal is not None
    budget.journal.close()

    saved = BudgetLedger.empty(CONFIG).model_copy(update={"cuts": live.cuts})
    replayed = replay(tmp_path / "a.journal", saved, load_prices(None)).ledger
    assert replayed.lines == live.lines
    assert (replayed.used, replayed.reserved, replayed.cost_usd) == (
        live.used,
        live.reserved,
        live.cost_usd,
    )
    assert replayed.in_flight_tokens == 0


def test_a_call_out_when_the_attempt_died_is_charged_at_its_reservation(tmp_path: Path) -> None:
    path = tmp_path / "killed.journal"
    budget = night(path)
    meter = budget.ticker("AAA").question("AAA/move", "move")
    first = meter.reserve(2_000, prompt_tokens=800)
    assert first is not None
    meter.settle(first, Usage(input_tokens=750, output_tokens=100))
    second = meter.reserve(2_000, prompt_tokens=900)
    assert second is not None  # sent; the process dies before the reply is settled
    with path.open("ab") as file:
        file.write(b'{"s":["AAA/mo')  # the write the kill cut short

    ledger = replay(path, BudgetLedger.empty(CONFIG), load_prices(None)).ledger
    assert ledger.in_flight_tokens == second.tokens
    assert ledger.used == Usage(input_tokens=750 + 900, output_tokens=100 + 1_100)
    assert [(line.kind, line.calls, line.questions) for line in ledger.lines] == [("move", 2, 1)]
    assert ledger.open_reservations == 0


def test_without_a_journal_the_saved_ledger_stands(tmp_path: Path) -> None:
    saved = BudgetLedger.empty(CONFIG).model_copy(update={"used": Usage(input_tokens=5)})
    assert replay(tmp_path / "none.journal", saved, load_prices(None)) == (saved, 0)


def test_finished_tickers_are_counted_once(tmp_path: Path) -> None:
    path = tmp_path / "t.journal"
    journal = SpendJournal(path)
    for ticker in ["AAA", "BBB", "AAA"]:  # a retried ticker finishes again
        journal.ticker_done(ticker)
    journal.close()
    assert replay(path, BudgetLedger.empty(CONFIG), load_prices(None)).tickers_done == 2

"""What every attempt at a night spent, also one that crashed while its shards ran."""

from __future__ import annotations

from datetime import UTC, date, datetime
from pathlib import Path

from agent.budget.ledger import BudgetLedger
from contract.trace import Usage
from flows.publish.layout import RunLayout
from flows.publish.records import TickerResult
from flows.run.attempts import Attempt, load_night, save_attempt
from flows.run.shard_store import ShardStore

DAY = date(2024, 6, 3)


def ledger(tokens: int) -> BudgetLedger:
    return BudgetLedger(
        run_tokens=100_000,
        question_tokens=10_000,
        used=Usage(input_tokens=tokens, output_tokens=tokens // 10),
    )


def test_attempts_add_up_and_a_crashed_sharded_one_counts_what_its_shards_stored(
    tmp_path: Path,
) -> None:
    layout = RunLayout(tmp_path, DAY)
    first = datetime(2024, 6, 3, 22, 0, tzinfo=UTC)
    save_attempt(layout, Attempt(run_id="sharded", started_at=first, ledger=ledger(0)))
    for index, (tickers, tokens) in enumerate([(["AAA", "BBB"], 3_000), (["CCC"], 1_000)]):
        store = ShardStore(layout.shard_dir("sharded", index))
        for ticker in tickers:
            store.ticker_done(TickerResult(ticker=ticker), False)
        store.spent(ledger(tokens))
    later = datetime(2024, 6, 3, 23, 0, tzinfo=UTC)
    save_attempt(
        layout,
        Attempt(
            run_id="rerun", started_at=later, answered=True, tickers_done=3, ledger=ledger(500)
        ),
    )

    night = load_night(layout)
    assert [(a.run_id, a.answered, a.tickers_done) for a in night.attempts] == [
        ("sharded", False, 3),
        ("rerun", True, 3),
    ]
    assert night.attempts[0].ledger.used == Usage(input_tokens=4_000, output_tokens=400)
    assert night.used.total == 4_400 + 550
    assert night.summary()["used"]["total"] == 4_950


def test_the_spend_of_unfinished_questions_is_handed_on_while_calls_settle() -> None:
    import asyncio

    from agent.budget.limits import BudgetConfig
    from agent.budget.meter import RunBudget
    from flows.night.fanout import keep_spend

    budget = RunBudget(BudgetConfig(run_tokens=100_000, question_tokens=10_000), ["AAA"])
    meter = budget.ticker("AAA").question("AAA/move", "move")
    seen: list[int] = []

    async def night() -> None:
        keeper = asyncio.create_task(keep_spend(budget, lambda s: seen.append(s.used.total), 0.01))
        await asyncio.sleep(0.05)  # nothing settled yet: nothing to hand on
        reservation = meter.reserve(1_000, prompt_tokens=600)
        assert reservation is not None
        meter.settle(reservation, Usage(input_tokens=600, output_tokens=50))
        await asyncio.sleep(0.05)  # the question is still open, its ticker unfinished
        keeper.cancel()

    asyncio.run(night())
    assert seen == [650]


def test_a_killed_attempt_counts_every_call_its_journal_holds(tmp_path: Path) -> None:
    from agent.budget.journal import SpendJournal
    from agent.budget.limits import BudgetConfig
    from agent.budget.meter import RunBudget
    from flows.run.attempts import journal_path

    layout = RunLayout(tmp_path, DAY)
    started = datetime(2024, 6, 3, 22, 0, tzinfo=UTC)
    budget = RunBudget(
        BudgetConfig(run_tokens=100_000, question_tokens=10_000),
        ["AAA"],
        journal=SpendJournal(journal_path(layout, "killed")),
    )
    save_attempt(layout, Attempt(run_id="killed", started_at=started, ledger=budget.ledger()))
    meter = budget.ticker("AAA").question("AAA/move", "move")
    done = meter.reserve(1_000, prompt_tokens=600)
    assert done is not None
    meter.settle(done, Usage(input_tokens=600, output_tokens=40))
    assert meter.reserve(1_000, prompt_tokens=600) is not None  # out when the kill came

    (attempt,) = load_night(layout).attempts
    assert not attempt.answered
    assert attempt.ledger.used.total == 640 + 1_000
    assert attempt.ledger.in_flight_tokens == 1_000
    assert load_night(layout).summary()["attempts"][0]["calls"] == 2  # type: ignore[index]

"""The run's split: equal shares for the distinct tickers, the remainder to the pool, nothing lost."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from agent.budget.limits import BudgetConfig
from agent.budget.meter import RunBudget
from agent.budget.shares import split_run


def test_a_repeated_ticker_gets_one_share_and_the_remainder_opens_the_pool() -> None:
    split = split_run(1_000, ["A", "B", "A", "C"])
    assert split.tickers == ["A", "B", "C"]
    assert (split.share, split.pool) == (333, 1)


@given(st.integers(0, 10**9), st.lists(st.sampled_from("ABCDEFG"), max_size=12))
def test_shares_and_pool_add_up_to_the_run(run_tokens: int, tickers: list[str]) -> None:
    split = split_run(run_tokens, tickers)
    assert split.share * len(split.tickers) + split.pool == run_tokens
    assert 0 <= split.pool < max(len(split.tickers), 1) or not split.tickers


def test_the_run_budget_opens_with_the_split() -> None:
    budget = RunBudget(BudgetConfig(run_tokens=1_000), ["A", "B", "C"])
    assert budget.pool == 1 and budget.ticker("B").share == 333

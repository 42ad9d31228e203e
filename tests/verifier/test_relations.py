"""Comparisons, rankings, streaks and counts, held against what the real tools computed on the
sample data: each holds where the computed figures say so and is `wrong_relation` where they do
not; without the result that settles it, it is `unverified_claim`."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date
from pathlib import Path
from typing import Any

import pytest

from tools.catalog import Catalog, open_catalog
from tools.registry import call_tool
from verifier.verify import verify_json as verify

SAMPLE = Path(__file__).parents[2] / "data" / "sample"
DAY = date(2024, 12, 31)


@pytest.fixture(scope="module")
def catalog(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Catalog]:
    cat = open_catalog(SAMPLE, DAY, workdir=tmp_path_factory.mktemp("catalog"))
    yield cat
    cat.close()


def trace(
    cat: Catalog, portfolio: str | None, *calls: tuple[str, dict[str, Any]]
) -> dict[str, Any]:
    events = [
        {"id": f"e{i}", "tool": tool, "args": args, "result": call_tool(cat, tool, args)}
        for i, (tool, args) in enumerate(calls, 1)
    ]
    return {
        "question": "q",
        "draft": "",
        "events": events,
        "as_of": DAY.isoformat(),
        "portfolio_id": portfolio,
    }


def rules(t: dict[str, Any], draft: str) -> list[str]:
    return sorted({r.rule.value for r in verify({**t, "draft": draft}).reasons})


@pytest.fixture(scope="module")
def ranked(catalog: Catalog) -> tuple[dict[str, Any], dict[str, Any]]:
    ranks = call_tool(
        catalog, "get_portfolio_ranks", {"portfolio_id": "P001", "date": "2024-12-31"}
    )
    by_weight = sorted(ranks["positions"], key=lambda r: r["weight_rank"])
    return ranks, {
        "first": by_weight[0]["ticker"],
        "second": by_weight[1]["ticker"],
        "best": min(ranks["positions"], key=lambda r: r["return_rank"])["ticker"],
    }


def test_a_ranking_is_the_place_the_ranks_give(catalog: Catalog, ranked: Any) -> None:
    ranks, who = ranked
    t = trace(
        catalog, "P001", ("get_portfolio_ranks", {"portfolio_id": "P001", "date": "2024-12-31"})
    )
    first, second = who["first"], who["second"]
    assert rules(t, f"{first} is the portfolio's largest holding.") == []
    assert rules(t, f"{second} is the second-largest holding.") == []
    assert rules(t, f"{second} is the largest holding.") == ["wrong_relation"]
    assert rules(t, f"{first} is the second-largest holding.") == ["wrong_relation"]
    assert rules(t, f"{who['best']} was the top gainer.") == []
    assert rules(t, f"{first} was the top gainer.") == (
        [] if first == who["best"] else ["wrong_relation"]
    )
    gainers, total = ranks["gainers"], ranks["positions_count"]
    assert rules(t, f"{gainers} of its {total} positions rose.") == []
    assert "wrong_relation" in rules(t, f"{gainers + 1} of its {total} positions rose.")


def test_a_ranking_without_ranks_is_unverified(catalog: Catalog, ranked: Any) -> None:
    _, who = ranked
    t = trace(
        catalog,
        "P001",
        (
            "get_position_pnl",
            {"portfolio_id": "P001", "ticker": who["first"], "date": "2024-12-31"},
        ),
    )
    assert rules(t, f"{who['first']} is the portfolio's largest holding.") == ["unverified_claim"]


def test_another_portfolios_ranks_settle_nothing(catalog: Catalog, ranked: Any) -> None:
    _, who = ranked
    t = trace(
        catalog, "P002", ("get_portfolio_ranks", {"portfolio_id": "P001", "date": "2024-12-31"})
    )
    assert "unverified_claim" in rules(t, f"{who['first']} is the portfolio's largest holding.")


def nth(n: int) -> str:
    return f"{n}{'st' if n == 1 else 'nd' if n == 2 else 'rd' if n == 3 else 'th'}"


@pytest.mark.parametrize("ticker", ["AXO", "HEX", "OEE", "KPZ"])
def test_a_streak_is_the_run_the_trend_holds(catalog: Catalog, ticker: str) -> None:
    trend = call_tool(catalog, "get_trend", {"ticker": ticker, "date": "2024-12-31"})
    run, way = trend["streak"]["sessions"], trend["streak"]["direction"]
    t = trace(catalog, None, ("get_trend", {"ticker": ticker, "date": "2024-12-31"}))
    said = {"up": "straight gain", "down": "straight decline"}[way]
    other = {"up": "straight decline", "down": "straight gain"}[way]
    assert rules(t, f"It was {ticker}'s {nth(run)} {said}.") == []
    assert rules(t, f"It was {ticker}'s {nth(run + 1)} {said}.") == ["wrong_relation"]
    assert rules(t, f"It was {ticker}'s {nth(run)} {other}.") == ["wrong_relation"]


@pytest.mark.parametrize(
    ("draft", "expected"),
    [
        ("AXO closed at 287.14, above its previous close of 283.43, up 1.31%.", []),
        ("AXO closed at 287.14, below its previous close of 283.43, up 1.31%.", ["wrong_relation"]),
        ("AXO cerró a 287,14, por encima de su cierre anterior de 283,43, un 1,31 % más.", []),
    ],
)
def test_two_figures_a_sentence_orders_are_in_that_order(
    catalog: Catalog, draft: str, expected: list[str]
) -> None:
    t = trace(catalog, None, ("get_daily_move", {"ticker": "AXO", "date": "2024-12-31"}))
    assert rules(t, draft) == expected


def test_a_comparison_of_two_tickers_is_held_against_their_moves(catalog: Catalog) -> None:
    moves = {
        t: call_tool(catalog, "get_daily_move", {"ticker": t, "date": "2024-12-31"})["change_pct"]
        for t in ("AXO", "HEX")
    }
    better, worse = sorted(moves, key=moves.get, reverse=True)  # type: ignore[arg-type]
    t = trace(
        catalog,
        None,
        ("get_daily_move", {"ticker": "AXO", "date": "2024-12-31"}),
        ("get_daily_move", {"ticker": "HEX", "date": "2024-12-31"}),
    )
    assert rules(t, f"{better} outperformed {worse} on 2024-12-31.") == []
    assert rules(t, f"{worse} outperformed {better} on 2024-12-31.") == ["wrong_relation"]
    assert rules(t, f"{worse} lagged {better} on 2024-12-31.") == []

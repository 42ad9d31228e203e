"""The scripted model's mistakes, each held against the real verifier on the draft and results
it produces from: the reason each kind must get, and no change where its data is missing."""

from __future__ import annotations

import json
from typing import Any

import pytest

from agent.providers.mistakes import (
    ask_for_holdings,
    ask_for_the_next_day,
    invented_quote,
    other_ticker,
    relayed_error,
    wrong_direction,
    wrong_field,
)
from contract.trace import ToolCall
from verifier.verify import verify_json as verify

MOVE = {"ticker": "AXO", "session": "2024-12-31", "previous_session": "2024-12-30", "close": 287.14, "previous_close": 283.43, "change": 3.71, "change_pct": 1.31}  # fmt: skip
FALL = {**MOVE, "close": 279.0, "change": -4.43, "change_pct": -1.56}
POSITION = {"portfolio_id": "P001", "ticker": "AXO", "session": "2024-12-31", "previous_session": "2024-12-30", "quantity": 781.0, "close": 287.14, "previous_close": 283.43, "market_value": 224256.34, "day_pnl": 2897.51, "pnl_pct": 1.31}  # fmt: skip
BOOK = {"portfolio_id": "P001", "holdings": [{"ticker": "AXO", "quantity": 781.0}, {"ticker": "CGL", "quantity": 2192.0}]}  # fmt: skip


def entry(tool: str, args: dict[str, Any], result: Any = None, error: str = "") -> dict[str, Any]:
    return {"tool": tool, "args": args, **({"error": error} if error else {"result": result})}


def reasons(question: str, draft: str, results: list[dict[str, Any]]) -> set[str]:
    events = [{"id": f"e{i}", "tool": r["tool"], "args": r["args"], **{k: r[k] for k in ("result", "error") if k in r}} for i, r in enumerate(results)]  # fmt: skip
    trace = {"question": question, "draft": draft, "events": events, "stop_reason": "answered"}
    return {str(r.rule) for r in verify(trace).reasons}


def move_draft(m: dict[str, Any]) -> str:
    return (
        f"AXO closed at {m['close']} on 2024-12-31, a day change of {m['change']} "
        f"({m['change_pct']}%) from the previous close of {m['previous_close']} on 2024-12-30."
    )


POSITION_DRAFT = (
    "AXO in portfolio P001: 781.0 shares closed at 287.14 on 2024-12-31, a market value of "
    "224256.34; the day P&L was 2897.51 (1.31%)."
)
SHOWN_DRAFT = (
    "AXO in portfolio P001: 781 shares closed at 287.14 on 2024-12-31, a market value of "
    "224,256.34; the day P&L was 2,897.51 (1.31%)."
)
"""The same draft with its figures as reports write them (`contract.number_format`)."""
MOVE_Q = "How did AXO close on 2024-12-31, and what was its day change?"
POSITION_Q = "What did the AXO position contribute to portfolio P001 on 2024-12-31?"


@pytest.mark.parametrize("move", [MOVE, FALL])
def test_the_day_is_told_the_wrong_way_round(move: dict[str, Any]) -> None:
    results = [entry("get_daily_move", {"ticker": "AXO", "date": "2024-12-31"}, move)]
    assert reasons(MOVE_Q, move_draft(move), results) == set()
    told = wrong_direction(move_draft(move), results)
    assert ("a fall of" in told) == (move["change"] > 0)
    assert reasons(MOVE_Q, told, results) == {"wrong_direction"}


@pytest.mark.parametrize("draft", [POSITION_DRAFT, SHOWN_DRAFT])
def test_the_day_pnl_is_stated_as_the_market_value(draft: str) -> None:
    results = [entry("get_position_pnl", {"portfolio_id": "P001", "ticker": "AXO"}, POSITION)]
    assert reasons(POSITION_Q, draft, results) == set()
    assert reasons(POSITION_Q, wrong_field(draft, results), results) == {"wrong_field"}
    assert wrong_field(draft, []) == draft


@pytest.mark.parametrize(("draft", "theirs"), [(POSITION_DRAFT, "2192.0 shares"), (SHOWN_DRAFT, "2,192 shares")])  # fmt: skip
def test_another_holdings_share_count_is_given_for_this_ticker(draft: str, theirs: str) -> None:
    planned = [ToolCall(id="c1", name="get_position_pnl", arguments=json.dumps({"portfolio_id": "P001", "ticker": "AXO"}))]  # fmt: skip
    calls = ask_for_holdings(planned)
    assert [c.name for c in calls] == ["get_position_pnl", "get_portfolio"]
    assert json.loads(calls[1].arguments) == {"portfolio_id": "P001"}
    results = [
        entry("get_position_pnl", {"portfolio_id": "P001", "ticker": "AXO"}, POSITION),
        entry("get_portfolio", {"portfolio_id": "P001"}, BOOK),
    ]
    told = other_ticker(draft + " get_portfolio for P001: portfolio_id P001.", results)
    assert theirs in told and "get_portfolio" not in told
    assert reasons(POSITION_Q, told, results) == {"wrong_subject"}


def test_an_invented_quote_is_added_to_news_answers_only() -> None:
    results = [entry("search_news", {"ticker": "AXO"}, error="no news for AXO")]
    told = invented_quote("No headlines were found for AXO.", results)
    assert reasons(MOVE_Q, told, results) == {"unknown_headline"}
    assert invented_quote(move_draft(MOVE), []) == move_draft(MOVE)


def test_an_answer_is_written_over_a_failed_call() -> None:
    planned = [ToolCall(id="c1", name="get_daily_move", arguments=json.dumps({"ticker": "AXO", "date": "2024-12-31"}))]  # fmt: skip
    (call,) = ask_for_the_next_day(planned)
    assert json.loads(call.arguments)["date"] == "2025-01-01"
    error = (
        "date 2025-01-01 is after the report date 2024-12-31; use a date on or before 2024-12-31"
    )
    results = [entry("get_daily_move", json.loads(call.arguments), error=error)]
    told = relayed_error("No data came back from get_daily_move, so that part is unavailable.", results)  # fmt: skip
    assert told == "AXO closed at 10.00, up 2.50% on the day."
    assert reasons(MOVE_Q, told, results) == {"unresolved_error"}

"""Point in time: for random as-of moments, no tool result holds a date or timestamp after it."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pandas as pd
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from data.facts import read_facts
from tools.catalog import MARKET_TZ, open_catalog
from tools.registry import call_tool

DATE_TEXT = re.compile(r"\d{4}-\d{2}-\d{2}(?:[T ][0-9:.]+(?:Z|[+-]\d{2}:\d{2})?)?")


def moments(value: Any) -> list[str]:
    """Every date or timestamp written anywhere in a JSON value, error messages included."""
    if isinstance(value, dict):
        return [m for v in value.values() for m in moments(v)]
    if isinstance(value, list):
        return [m for v in value for m in moments(v)]
    return DATE_TEXT.findall(value) if isinstance(value, str) else []


def is_after(text: str, as_of: datetime) -> bool:
    if len(text) == 10:
        return datetime.fromisoformat(text).date() > as_of.astimezone(MARKET_TZ).date()
    return pd.Timestamp(text).tz_convert(UTC) > as_of


def calls(day: str, month_ago: str, tickers: list[str]) -> list[tuple[str, dict[str, Any]]]:
    out: list[tuple[str, dict[str, Any]]] = [
        ("list_tables", {}),
        ("get_portfolio", {"portfolio_id": "P001"}),
        ("run_sql", {"sql": "SELECT * FROM news ORDER BY published_at DESC LIMIT 5"}),
        ("run_sql", {"sql": "SELECT * FROM prices ORDER BY date DESC LIMIT 5"}),
        ("run_sql", {"sql": "SELECT * FROM holdings ORDER BY as_of DESC LIMIT 5"}),
        (
            "run_sql",
            {
                "sql": "SELECT ticker, kind, announced_at FROM events ORDER BY announced_at DESC LIMIT 5"
            },
        ),
    ]
    for t in tickers:
        out += [
            ("get_price", {"ticker": t, "date": day}),
            ("get_daily_move", {"ticker": t, "date": day}),
            ("get_price_change", {"ticker": t, "start": month_ago, "end": day}),
            ("search_news", {"ticker": t, "start": month_ago, "end": day, "limit": 10}),
        ]
    return out


@settings(
    max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    as_of=st.datetimes(
        min_value=datetime(2024, 1, 20), max_value=datetime(2024, 12, 30), timezones=st.just(UTC)
    )
)
def test_no_result_is_dated_after_the_as_of_moment(
    small_data: Path, tmp_path_factory, as_of: datetime
) -> None:
    facts = read_facts(small_data)
    report_date = as_of.astimezone(MARKET_TZ).date()
    tickers = [facts.split.ticker, facts.delisted.ticker, facts.halt.ticker, "ARA"]
    workdir = tmp_path_factory.getbasetemp() / "point_in_time"
    with open_catalog(small_data, report_date, as_of=as_of, workdir=workdir) as cat:
        day, month_ago = report_date.isoformat(), (report_date - timedelta(days=30)).isoformat()
        for name, args in calls(day, month_ago, tickers):
            result = call_tool(cat, name, args)
            late = [m for m in moments(result) if is_after(m, as_of)]
            assert not late, (name, args, result)
        holding = call_tool(cat, "get_portfolio", {"portfolio_id": "P001"})["holdings"][0]["ticker"]
        pnl = call_tool(
            cat, "get_position_pnl", {"portfolio_id": "P001", "ticker": holding, "date": day}
        )
        assert not [m for m in moments(pnl) if is_after(m, as_of)], pnl
        events = call_tool(
            cat, "get_events", {"ticker": tickers[0], "start": month_ago, "end": "2025-12-31"}
        )
        for event in events["events"]:  # scheduled dates may lie ahead; their announcements may not
            assert not is_after(event["announced_at"], as_of)
            assert event["scheduled"] == (event["date"] > day)

"""Spans of a result: which session or window each of its figures is for, read from its keys.

A result names its sessions (`session`, `previous_session`, `start_session`, `end_session`, or a
row's `date`); a level is for the session its key points at (`previous_close` for the previous
session, `start_close` for the start), a change for the window between the two sessions.
"""

from __future__ import annotations

from datetime import date
from functools import lru_cache
from typing import Any

from verifier.times import Span

CHANGE_KEYS = frozenset(
    {
        "change", "change_pct", "day_pnl", "pnl_pct", "contribution_pct", "day_return_pct",
        "portfolio_day_pnl", "portfolio_return_pct", "return_pct",
    }
)  # fmt: skip
"""Keys whose figure is a change over the result's window, not a level at one session."""
LEVEL_KEYS = ("close", "open", "high", "low", "volume", "market_value", "price", "adj_close")
"""Keys whose figure is a level at the result's session; other keys are bound to no time."""


def iso_day(value: Any) -> date | None:
    """The day an ISO date or timestamp string opens with ("2024-12-27T08:45:43-05:00"), else
    None."""
    if value.__class__ is not str or len(value) < 10:
        return None
    return _parse_day(value[:10])


@lru_cache(maxsize=4096)
def _parse_day(text: str) -> date | None:
    try:
        return date.fromisoformat(text)
    except ValueError:
        return None


def asked_dates(args: Any) -> tuple[date, ...]:
    """The window a call asked for (`start`, `end`), or its one `date`."""
    if not isinstance(args, dict):
        return ()
    start, end = iso_day(args.get("start")), iso_day(args.get("end"))
    if start and end:
        return (start, end)
    one = iso_day(args.get("date"))
    return (one,) if one else ()


def spans_of(node: dict[str, Any], asked: tuple[date, ...]) -> dict[str, Span]:
    """The span of each figure key of one result dict. Empty when the dict names no session.
    Shared by every dict that names the same sessions (results repeat them): read, never
    changed."""
    get = node.get
    session, day, start = get("session"), get("date"), get("start_session")
    end, previous = get("end_session"), get("previous_session")
    return spans_named(  # `_day` reads strings alone: any other value is None
        session if session.__class__ is str else None,
        day if day.__class__ is str else None,
        start if start.__class__ is str else None,
        end if end.__class__ is str else None,
        previous if previous.__class__ is str else None,
        asked,
    )


@lru_cache(maxsize=1024)
def spans_named(
    session_text: str | None,
    date_text: str | None,
    start_text: str | None,
    end_text: str | None,
    previous_text: str | None,
    asked: tuple[date, ...],
) -> dict[str, Span]:
    session = iso_day(session_text) or iso_day(date_text)
    start, end = iso_day(start_text), iso_day(end_text)
    previous = iso_day(previous_text)
    spans: dict[str, Span] = {}
    if start and end:
        window = Span(start, end, asked if len(asked) == 2 else ())
        spans |= dict.fromkeys(LEVEL_KEYS, Span(None, end))
        spans |= {"start_close": Span(None, start)}
        spans |= {"start_close_adjusted": Span(None, start), "end_close": Span(None, end)}
        spans |= dict.fromkeys(CHANGE_KEYS, window)
        return spans
    if session is None:
        return spans
    spans |= dict.fromkeys(LEVEL_KEYS, Span(None, session))
    if previous is not None:
        spans |= dict.fromkeys(CHANGE_KEYS, Span(previous, session, ()))
        spans |= {"previous_close": Span(None, previous)}
        spans |= {"previous_close_adjusted": Span(None, previous)}
        spans |= {"portfolio_value_previous_close": Span(None, previous)}
    return spans

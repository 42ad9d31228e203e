"""Events said with their window or their noun, over the free-form night's real traces: "no
events between 2024-12-31 and 2025-01-30" denies every event of that range (one in it is
`wrong_absence`, a denial for one day without an event holds), and "a dividend event on Friday,
January 24" names the day of a dividend (`wrong_event_day` where that day's event is earnings)."""

from __future__ import annotations

from datetime import date
from typing import Any

from tests.verifier.test_unseen_prose import (
    FREE_TRACES,
    _codes,
    _result,
    _verdict,
)


def _calendars() -> list[tuple[str, dict[str, Any]]]:
    out = []
    for question in sorted(q for q in FREE_TRACES if q.endswith("/events")):
        events = _result(question, "get_events").get("events") or []
        if len(events) == 1 and events[0].get("scheduled"):
            out.append((question, events[0]))
    return out


def test_a_denial_over_a_range_holds_against_the_events_in_that_range() -> None:
    checked = 0
    for question, event in _calendars():
        ticker = question.split("/")[0]
        for end in ("2025-01-30", event["date"]):
            said = f"**{ticker}:** no events between 2024-12-31 and {end}."
            assert "wrong_absence" in _codes(question, said), (question, said)
        if event["date"] != "2024-12-31":
            day_only = f"**{ticker}:** no events on 2024-12-31."
            verdict = _verdict(question, day_only)
            assert verdict.accepted, (question, day_only, verdict.reasons)
        checked += 1
    assert checked >= 8


def test_an_event_named_with_its_noun_names_that_event_s_day() -> None:
    checked = 0
    for question, event in _calendars():
        ticker, kind = question.split("/")[0], event["kind"]
        other = "dividend" if kind == "earnings" else "earnings"
        day = date.fromisoformat(event["date"])
        said = f"{ticker} has one item on its calendar: a {{}} event on {day:%A, %B} {day.day}, {day.year}."
        verdict = _verdict(question, said.format(kind))
        assert verdict.accepted, (question, verdict.reasons)
        assert "wrong_event_day" in _codes(question, said.format(other)), question
        checked += 1
    assert checked >= 8

"""When the news came out, said of the items as a whole ("All of these headlines came out last
week"), over the free-form night's real news traces: the span the time word names, relative to
the report date, must hold every item the search returned (on New York's calendar)."""

from __future__ import annotations

from datetime import date, timedelta

from tests.verifier.test_unseen_prose import (
    FREE_TRACES,
    _closed,
    _codes,
    _kept,
    _new_york,
    _news,
    _result,
)

REPORT = date(2024, 12, 31)
MONDAY = REPORT - timedelta(days=REPORT.weekday())
SPANS = {
    "today": (REPORT, REPORT),
    "yesterday": (REPORT - timedelta(days=1), REPORT - timedelta(days=1)),
    "this week": (MONDAY, REPORT),
    "last week": (MONDAY - timedelta(days=7), MONDAY - timedelta(days=1)),
}
SPANISH = {
    "today": "hoy",
    "yesterday": "ayer",
    "this week": "esta semana",
    "last week": "la semana pasada",
}


def test_a_time_said_of_all_the_news_holds_every_item() -> None:
    kept = wrong = 0
    for question, move, news in _news():
        if not news:
            continue
        days = {_new_york(item).date() for item in news}
        for when, (lo, hi) in SPANS.items():
            holds = all(lo <= d <= hi for d in days)
            for said in (
                f"All of these headlines came out {when}.",
                f"Los titulares se publicaron {SPANISH[when]}.",
            ):
                draft = f"{_closed(move)} {said}"
                if holds:
                    _kept(question, draft)
                    kept += 1
                else:
                    assert "wrong_time" in _codes(question, draft), (question, said)
                    wrong += 1
    assert kept >= 20 and wrong >= 20


def test_a_day_said_with_its_week_or_month_falls_in_it() -> None:
    """ "earnings on Thursday, Jan 23, this week": relative to the report date, the day must be
    in the week or month said with it; "next month" holds a January day, "this week" does not
    (`wrong_time`)."""
    kept = wrong = 0
    for question in sorted(q for q in FREE_TRACES if q.endswith("/events")):
        events = _result(question, "get_events").get("events") or []
        for event in events:
            when = date.fromisoformat(str(event["date"])[:10])
            said = f"{question.split('/')[0]} has {event['kind']} on {when:%A}, {when:%b} {when.day}, {{}}."
            for period, first, last in (
                ("this week", MONDAY, MONDAY + timedelta(days=6)),
                ("next week", MONDAY + timedelta(days=7), MONDAY + timedelta(days=13)),
                ("next month", date(2025, 1, 1), date(2025, 1, 31)),
            ):
                if first <= when <= last:
                    _kept(question, said.format(period))
                    kept += 1
                else:
                    assert "wrong_time" in _codes(question, said.format(period)), (question, period)
                    wrong += 1
    assert kept >= 5 and wrong >= 10

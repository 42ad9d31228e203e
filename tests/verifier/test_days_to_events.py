"""Days to a corporate event and the event a date is named for, over the free-form night's real
event traces: each faithful wording beside a corrupted twin.

A count of days is the calendar days from the report date (or the date it is counted from) to
the date its sentence names, however the count is framed: "faltan 13 días para los resultados
(el lunes 13 de enero)", "quedan 24 días (desde el 31 de diciembre)", "a 23 días del
2024-12-31", "(17 days)", "0 days away". One day off is rejected. An event's kind said before a
comma and its day ("next event: dividend, 24 January") is that day's kind.
"""

from __future__ import annotations

from datetime import date

from tests.verifier.test_unseen_prose import FREE_TRACES, _codes, _kept, _result

_REPORT = date(2024, 12, 31)
_MES = {12: "diciembre", 1: "enero"}
_KIND_ES = {"earnings": "resultados", "dividend": "dividendo"}
_KIND_EN = {"earnings": "earnings", "dividend": "dividend"}
_OTHER = {"earnings": "dividend", "dividend": "earnings"}


def _single_events() -> list[tuple[str, str, str, date]]:
    """Event questions with one listed event: question, ticker, kind, day."""
    out = []
    for question in sorted(q for q in FREE_TRACES if q.endswith("/events")):
        events = _result(question, "get_events").get("events") or []
        if len(events) == 1 and events[0]["kind"] in _KIND_EN:
            day = date.fromisoformat(events[0]["date"])
            out.append((question, question.split("/")[0], events[0]["kind"], day))
    return out


def _wordings(ticker: str, kind: str, on: date, n: int) -> list[str]:
    es, when = _KIND_ES[kind], f"{on.day} de {_MES[on.month]}"
    return [
        f"Faltan {n} días para los {es} de {ticker} (el {when}).",
        f"Próximo evento de {ticker}: {es} el {when}. Quedan {n} días (desde el 31 de diciembre).",
        f"{ticker} tiene {es} el {on.isoformat()}, a {n} días del 2024-12-31.",
        f"{ticker}: {es} el {when}. Faltan {n} días naturales desde el 31 de diciembre.",
        f"{ticker} has {_KIND_EN[kind]} on {on:%B} {on.day}, {on.year} ({n} days).",
    ]


def test_days_to_an_event_are_counted_from_the_report_date_however_framed() -> None:
    checked = 0
    for question, ticker, kind, on in _single_events():
        gap = (on - _REPORT).days
        if gap < 2:
            continue
        for right, wrong in zip(
            _wordings(ticker, kind, on, gap), _wordings(ticker, kind, on, gap + 1), strict=True
        ):
            _kept(question, right)
            assert "unsupported_figure" in _codes(question, wrong), (question, wrong)
        checked += 1
    assert checked >= 8, checked


def test_an_event_on_the_report_date_is_zero_days_away() -> None:
    checked = 0
    for question, ticker, kind, on in _single_events():
        if on != _REPORT:
            continue
        said = f"{ticker} has {_KIND_EN[kind]} on {on.isoformat()} ({{}} days away)."
        _kept(question, said.format(0))
        assert _codes(question, said.format(1)), question  # "1 days": the count is not the gap
        checked += 1
    assert checked >= 1, checked


def test_an_events_kind_before_a_comma_and_its_day_is_that_days_kind() -> None:
    checked = 0
    for question, ticker, kind, on in _single_events():
        said = f"{ticker} — next event: {{}}, {on.day} {on:%B}."
        _kept(question, said.format(_KIND_EN[kind]))
        wrong = said.format(_OTHER[kind])
        assert "wrong_event_day" in _codes(question, wrong), (question, wrong)
        checked += 1
    assert checked >= 8, checked


_PHRASES = {
    "this week": (date(2024, 12, 30), date(2024, 12, 31)),
    "last week": (date(2024, 12, 23), date(2024, 12, 29)),
    "this month": (date(2024, 12, 1), date(2024, 12, 31)),
    "last month": (date(2024, 11, 1), date(2024, 11, 30)),
}


def test_an_announcement_said_in_a_week_or_month_was_made_in_it() -> None:
    """ "announced last week", "announced this month": the week or month, relative to the
    report date, must hold the day an events result says the event was announced."""
    checked = 0
    for question, ticker, kind, on in _single_events():
        events = _result(question, "get_events")["events"]
        announced = date.fromisoformat(events[0]["announced_at"][:10])
        lead = f"{ticker} has {_KIND_EN[kind]} on {on.isoformat()}, announced {{}}."
        for phrase, (first, last) in _PHRASES.items():
            said = lead.format(phrase)
            if first <= announced <= last:
                _kept(question, said)
            else:
                assert "wrong_time" in _codes(question, said), (question, said)
        checked += 1
    assert checked >= 8, checked

"""Calendar words around an event's day and a session's weekday, over the free-form night's
real traces: a calendar window said of an event ("on January 24, 2025 (next month)", "later
this month", "a principios del mes que viene"), a weekday written in markdown beside its date
("**Friday, January 24, 2025** — earnings"), the report day's own weekday said bare ("for
Tuesday"), and "Nothing else" after a list of events. Each faithful sentence is drafted from
the trace's results beside its corrupted twin, and each test fails with its rule taken out."""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

from tests.verifier.test_unseen_prose import (
    FREE_TRACES,
    _codes,
    _judged,
    _kept,
    _result,
)

_MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August",
           "September", "October", "November", "December")  # fmt: skip


def _events() -> list[tuple[str, str, list[dict[str, Any]]]]:
    """The events questions whose calendar holds events: question, ticker, events."""
    out = []
    for question in sorted(q for q in FREE_TRACES if q.endswith("/events")):
        result = _result(question, "get_events")
        if result.get("events"):
            out.append((question, result["ticker"], result["events"]))
    return out


def _written(day: date) -> str:
    return f"{_MONTHS[day.month - 1]} {day.day}, {day.year}"


def _report(question: str) -> date:
    return date.fromisoformat(FREE_TRACES[question]["as_of"][:10])


def test_a_calendar_window_said_of_an_event_holds_its_day() -> None:
    """ "earnings on January 24, 2025 (later this month)" on December 31 is `wrong_time`; "next
    month", "el mes que viene" hold a day of January; "early next month" and "at the end of
    next month" its first or last days; "this month" with no day needs an event in December."""
    checked = {True: 0, False: 0}
    for question, t, events in _events():
        report = _report(question)
        for event in events:
            day = date.fromisoformat(event["date"][:10])
            lead = f"{t}: {event['kind']} on {_written(day)}"
            month_ahead = (day.year, day.month) == (
                report.year + (report.month == 12),
                report.month % 12 + 1,
            )
            this_month = (day.year, day.month) == (report.year, report.month)
            said = {
                "(next month)": month_ahead,
                "(later this month)": this_month and day > report,
                "(this month)": this_month,
                "(early next month)": month_ahead and day.day <= 11,
                "(at the end of next month)": month_ahead and day.day >= 25,
                "(el mes que viene)": month_ahead,
            }
            for words, holds in said.items():
                draft = f"{lead} {words}."
                _judged(question, draft, holds, "wrong_time")
                checked[holds] += 1
        kinds = {e["kind"] for e in events}
        verb = {"earnings": "reports earnings", "dividend": "pays a dividend"}
        for kind in kinds & verb.keys():
            days = [date.fromisoformat(e["date"][:10]) for e in events if e["kind"] == kind]
            draft = f"{t} {verb[kind]} this month."
            _judged(
                question,
                draft,
                any((d.year, d.month) == (report.year, report.month) for d in days),
                "wrong_time",
            )
    assert min(checked.values()) >= 10, checked


def test_a_weekday_in_markdown_beside_its_date_is_that_dates() -> None:
    """ "- **Friday, January 24, 2025** — earnings" is a row headed by its day: the weekday is
    the date's, and the event after it is the day's kind (`wrong_weekday`, `wrong_event_day`
    for the wrong one). The bold marks used to hide the weekday from its date."""
    checked = 0
    for question, _t, events in _events():
        for event in events:
            day = date.fromisoformat(event["date"][:10])
            weekday, other = day.strftime("%A"), (day + timedelta(days=1)).strftime("%A")
            wrong_kind = "dividend" if event["kind"] != "dividend" else "earnings"
            row = f"- **{weekday}, {_written(day)}** — {event['kind']}"
            _kept(question, row)
            _kept(question, f"Next: **{_written(day)}** (**{weekday}**) — {event['kind']}")
            assert "wrong_weekday" in _codes(question, row.replace(weekday, other))
            wrong = f"- **{weekday}, {_written(day)}** — {wrong_kind}"
            if not any(e["kind"] == wrong_kind and e["date"] == event["date"] for e in events):
                assert "wrong_event_day" in _codes(question, wrong), (question, wrong)
            checked += 1
    assert checked >= 5, checked


def test_the_report_days_weekday_said_bare_is_the_report_day() -> None:
    """ "Here's ILLR for Tuesday:" on Tuesday, December 31 names that day, not the Tuesday a week
    on: the change after it is measured from the previous close, whatever the heading."""
    checked = 0
    for question in sorted(q for q in FREE_TRACES if q.endswith("/move")):
        move = _result(question, "get_daily_move")
        if "close" not in move:
            continue
        weekday = _report(question).strftime("%A")
        draft = (
            f"{move['ticker']} for {weekday}:\n\nClose: {move['close']:.2f}. Change: "
            f"{move['change']:+.2f} ({move['change_pct']:+.2f}%) from {move['previous_close']:.2f}"
        )
        _kept(question, draft)
        checked += 1
    assert checked >= 10, checked


def test_nothing_else_after_a_list_of_events_is_other_than_every_day_named() -> None:
    """ "- **Earnings — Friday, Jan 24, 2025** (scheduled; announced ...) / Nothing else is on
    the calendar": "nothing else" is other than every day the answer named before it, not only
    the sentence before; a status line between ("Status: scheduled") neither denies the event
    nor leaves the denial without an object."""
    checked = 0
    for question, t, events in _events():
        rows = "\n".join(
            f"- **{e['kind'].capitalize()} — {date.fromisoformat(e['date'][:10]):%A, %b %d, %Y}** "
            "(scheduled; announced earlier)"
            for e in events
        )
        _kept(question, f"{t} on the calendar:\n\n{rows}\n\nNothing else is on the calendar.")
        _kept(question, f"{t}:\n\n{rows}\n- Status: scheduled\n\nNothing else through Jan 30.")
        if len(events) > 1:
            first = rows.splitlines()[0]
            draft = f"{t} on the calendar:\n\n{first}\n\nNothing else is on the calendar."
            assert "wrong_absence" in _codes(question, draft), (question, draft)
        checked += 1
    assert checked >= 5, checked


_MESES = ("enero", "febrero", "marzo", "abril", "mayo", "junio", "julio", "agosto",
          "septiembre", "octubre", "noviembre", "diciembre")  # fmt: skip


def test_the_day_holdings_are_said_to_be_as_of_is_their_own() -> None:
    """ "Holdings as of 2024-12-31" on a night whose holdings are five weeks old is `wrong_time`:
    the day after those words is the result's `holdings_as_of`, not any day of the trace (the
    report date is one). The right day is kept, in each wording and in Spanish."""
    checked = 0
    for question in sorted(q for q in FREE_TRACES if "/position/" in q):
        pnl = _result(question, "get_position_pnl")
        if not pnl.get("holdings_as_of"):
            continue
        held, report = date.fromisoformat(pnl["holdings_as_of"]), _report(question)
        lead = f"{pnl['ticker']} contributed {pnl['contribution_pct']:+.2f}%."
        right = (
            f"Holdings as of {held.isoformat()}.",
            f"**Holdings as of:** {held:%b} {held.day}",
            f"Posiciones a {held.day} de {_MESES[held.month - 1]}.",
        )
        for said in right:
            _kept(question, f"{lead} {said}")
        if held != report:
            for said in (
                f"Holdings as of {report.isoformat()}.",
                "Holdings as of the report date.",
                f"Posiciones a {report.day} de {_MESES[report.month - 1]}.",
            ):
                assert "wrong_time" in _codes(question, f"{lead} {said}"), (question, said)
            checked += 1
    assert checked >= 10, checked


def _moves() -> list[tuple[str, dict[str, Any], dict[str, float]]]:
    out = []
    for question in sorted(q for q in FREE_TRACES if q.endswith("/move")):
        move, trend = _result(question, "get_daily_move"), _result(question, "get_trend")
        changes = {c["window"]: c["change_pct"] for c in trend.get("changes") or ()}
        if "close" in move and {"week", "month", "quarter", "year_to_date"} <= changes.keys():
            out.append((question, move, changes))
    return out


def test_a_calendar_period_that_labels_a_figure_is_its_window() -> None:
    """ "2024: +31.14%", "Q4: +86.03%", "December: +1.76%": a year, quarter or month at the
    head of its line, labelling the figure after it, is the figure's own window, as "in 2024"
    is; another window's change there is rejected. "Since September" opens as September opens
    (or as it closes, for the quarter), not a year before nor in late December."""
    checked = 0
    for question, move, c in _moves():
        report = _report(question)
        quarter = (report.month - 1) // 3 + 1
        eve = _MONTHS[(3 * (quarter - 1) - 1) % 12]  # the month the quarter opens after
        lead = f"{move['ticker']} closed at {move['close']:.2f} ({move['change_pct']:+.2f}%)."
        labels = {
            str(report.year): "year_to_date",
            f"Q{quarter}": "quarter",
            _MONTHS[report.month - 1]: "month",
            f"Since {eve}": "quarter",
        }
        for label, window in labels.items():
            _kept(question, f"{lead}\n- {label}: {c[window]:+.2f}%")
            for other in ("week", "month", "quarter", "year_to_date"):
                if other != window and abs(c[other] - c[window]) >= 0.01:
                    said = f"{lead}\n- {label}: {c[other]:+.2f}%"
                    codes = _codes(question, said)
                    assert codes & {"wrong_time", "unsupported_figure"}, (question, said)
        checked += 1
    assert checked >= 10, checked


_DIAS = ("lunes", "martes", "miércoles", "jueves", "viernes", "sábado", "domingo")


def test_a_weekday_said_relative_to_the_report_date_names_its_own_days() -> None:
    """ "next Monday (2025-01-13)" on Tuesday, December 31 names January 6 (or the Monday of
    next week, the same day): the date beside it is another (`wrong_time`). "This Friday" is
    this week's; "last Monday" the latest before the report day or last week's. The weekday
    bare beside its date ("Monday, 2025-01-13") says nothing of the report date."""
    checked = {True: 0, False: 0}
    for question, t, events in _events():
        report = _report(question)
        monday = report - timedelta(days=report.weekday())
        for event in events:
            day = date.fromisoformat(event["date"][:10])
            name, dia = day.strftime("%A"), _DIAS[day.weekday()]
            ahead = (day.weekday() - report.weekday()) % 7 or 7
            nexts = {report + timedelta(days=ahead), monday + timedelta(days=7 + day.weekday())}
            _kept(question, f"{t}: {event['kind']} on {name}, {day.isoformat()}.")
            for said, holds in (
                (f"{t}: {event['kind']} next {name} ({day.isoformat()}).", day in nexts),
                (
                    f"{t}: {event['kind']} this {name}, {day.isoformat()}.",
                    day - monday < timedelta(7),
                ),
                (f"{t}: {event['kind']} el próximo {dia} ({day.isoformat()}).", day in nexts),
            ):
                _judged(question, said, holds, "wrong_time")
                checked[holds] += 1
    for question in sorted(q for q in FREE_TRACES if "/position/" in q):
        pnl = _result(question, "get_position_pnl")
        if not pnl.get("holdings_as_of"):
            continue
        held, report = date.fromisoformat(pnl["holdings_as_of"]), _report(question)
        back = (report.weekday() - held.weekday()) % 7 or 7
        monday = report - timedelta(days=report.weekday())
        last = {report - timedelta(days=back), monday - timedelta(days=7 - held.weekday())}
        said = f"{pnl['ticker']} contributed {pnl['contribution_pct']:+.2f}%. Holdings as of "
        said += f"last {held:%A}, {held.isoformat()}."
        _judged(question, said, held in last, "wrong_time")
        checked[held in last] += 1
    assert checked[False] >= 10, checked


def test_holdings_said_to_be_of_a_session_or_a_window_are_held_to_their_day() -> None:
    """ "Holdings as of the previous session", "from earlier this week", "del mes pasado": the
    words name days against the report date; `holdings_as_of` must be among them."""
    checked = {True: 0, False: 0}
    for question in sorted(q for q in FREE_TRACES if "/position/" in q):
        pnl = _result(question, "get_position_pnl")
        if not pnl.get("holdings_as_of"):
            continue
        held, report = date.fromisoformat(pnl["holdings_as_of"]), _report(question)
        previous = date.fromisoformat(pnl["previous_session"])
        monday = report - timedelta(days=report.weekday())
        last_month_end = report.replace(day=1) - timedelta(days=1)
        lead = f"{pnl['ticker']} contributed {pnl['contribution_pct']:+.2f}%."
        for said, holds in (
            ("Holdings as of the previous session.", held == previous),
            ("Holdings are from earlier this week.", monday <= held <= report),
            ("Holdings are from earlier this month.", held.month == report.month),
            ("Posiciones del mes pasado.", last_month_end.replace(day=1) <= held <= last_month_end),
        ):
            _judged(question, f"{lead} {said}", holds, "wrong_time")
            checked[holds] += 1
    assert min(checked.values()) >= 5, checked

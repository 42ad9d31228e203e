"""Numeric dates without a year, items of one line parted by bars, and a table's "measured
from" column, over the free-form night's real traces: each faithful wording beside a corrupted
twin.

- A bare `12/31` is a date where the trace names that day ("Benzinga 12/31 09:49"), and a draft
  writes its numeric dates one way: where one can only be day first (`31/12`), an ambiguous one
  (`6/12`) is day first too, so `12/6` there is June 12, not December 6.
- A bar between two items of a line ("cls 17.38 | AP 31/12 16:07: «...» | Reuters 12/30: ...")
  parts them: a date or a wire speaks of its own item's quote, and a close is not stated for the
  next item's date.
- A table column headed by a since word ("Measured from", "Desde el cierre del") holds where
  each row's change is measured from.
"""

from __future__ import annotations

from datetime import date
from typing import Any

from tests.verifier.test_unseen_prose import (
    FREE_TRACES,
    _codes,
    _es,
    _kept,
    _moves,
    _new_york,
    _news,
    _result,
)


def _events() -> list[tuple[str, dict[str, Any], date]]:
    """Event questions with one listed event: question, the event, the day it was announced."""
    out = []
    for question in sorted(q for q in FREE_TRACES if q.endswith("/events")):
        events = _result(question, "get_events").get("events") or []
        if events:
            announced = date.fromisoformat(events[0]["announced_at"][:10])
            out.append((question, events[0], announced))
    return out


def test_a_draft_writes_its_numeric_dates_one_way() -> None:
    """ "31/12–30/01: earnings on Friday 10/01 (announced 6/12)": day first throughout; the same
    announcement written month first in that draft ("12/6": June 12) is no day of the trace,
    and likewise "6/12" in a draft written month first."""
    checked = 0
    for question, event, announced in _events():
        on = date.fromisoformat(event["date"])
        if announced.day > 12 or announced.day == announced.month:
            continue  # only an ambiguous pair tells the two orders apart
        t, weekday = question.split("/")[0], f"{on:%A}"
        day_first = f"{t}, 31/12–30/01: {event['kind']} on {weekday} {on:%d/%m} ({{}})."
        month_first = f"{t}, 12/31–1/30: {event['kind']} on {weekday} {on.month}/{on.day} ({{}})."
        _kept(question, day_first.format(f"announced {announced.day}/{announced.month}"))
        _kept(question, month_first.format(f"announced {announced.month}/{announced.day}"))
        _kept(question, month_first.format(f"{announced.month}/{announced.day}"))
        for wrong in (
            day_first.format(f"announced {announced.month}/{announced.day}"),
            month_first.format(f"announced {announced.day}/{announced.month}"),
            month_first.format(f"{announced.day}/{announced.month}"),
        ):
            assert "unsupported_date" in _codes(question, wrong), (question, wrong)
        checked += 1
    assert checked >= 3, checked


def _by_day(news: list[dict[str, Any]]) -> list[tuple[str, str, date, str]]:
    """Each item's headline, wire, New York day and clock time."""
    return [
        (n["headline"], n["source"], _new_york(n).date(), f"{_new_york(n):%H:%M}") for n in news
    ]


def _line(head: str, pair: tuple, w_1: str, day_1: date, w_2: str, day_2: date) -> str:
    """The head, then the pair's two items, each with the wire and day given."""
    (h_1, _, _, c_1), (h_2, _, _, c_2) = pair
    first = f'{w_1} {day_1.month}/{day_1.day} {c_1}: "{h_1}"'
    return f'{head} | {first} | {w_2} {day_2.month}/{day_2.day} {c_2}: "{h_2}"'


def test_a_bar_parts_the_items_of_one_line() -> None:
    """ "T -0.17% d/d, cls 58.45 | Benzinga 12/31 09:49: "..." | MarketWatch 12/30 07:19: "..."":
    each wire and day is its own item's, kept; the two items' wires or days swapped are
    `wrong_relation` and `wrong_time`; the close before a bar is not stated for the next item's
    day."""
    checked = 0
    for question, move, news in _news():
        items = _by_day(news)
        pair = next(((a, b) for a in items for b in items if a[1] != b[1] and a[2] != b[2]), None)
        if pair is None:
            continue
        (_, w1, d1, _), (_, w2, d2, _) = pair
        head = f"{move['ticker']} {move['change_pct']:+.2f}% d/d, close {move['close']:.2f}"
        head += f" (previous close {move['previous_close']:.2f})"

        _kept(question, _line(head, pair, w1, d1, w2, d2))
        assert "wrong_relation" in _codes(question, _line(head, pair, w2, d1, w1, d2)), (
            question,
            w1,
            w2,
        )
        assert "wrong_time" in _codes(question, _line(head, pair, w1, d2, w2, d1)), (
            question,
            d1,
            d2,
        )
        checked += 1
    assert checked >= 3, checked


def test_a_close_before_a_bar_is_not_stated_for_the_next_items_day() -> None:
    """ "cierre 16,75 (cierre previo 17,38) | Associated Press 31/12 16:07: «...»": the previous
    close is the previous session's, whatever day the next item names; said as the day's close
    it is still `wrong_field` or `wrong_time`."""
    checked = 0
    for question, move, news in _news():
        if not news:
            continue
        headline, wire, day, clock = _by_day(news)[0]
        item = f"{wire} {day.day}/{day.month} {clock}: «{headline}»"
        t, close, before = move["ticker"], _es(move["close"]), _es(move["previous_close"])
        _kept(
            question,
            f"{t} {_es(move['change_pct'], True)}%, cierre {close} (cierre previo {before}) | {item}",
        )
        wrong = f"{t} {_es(move['change_pct'], True)}%, cierre {before} | {item}"
        assert _codes(question, wrong) & {"wrong_field", "wrong_time"}, (question, wrong)
        checked += 1
    assert checked >= 5, checked


_ROWS = {"week": ("Week", "Semana"), "month": ("Month", "Mes"), "quarter": ("Quarter", "Trimestre")}


def _table_en(
    move: dict[str, Any], rows: list[tuple[str, dict[str, Any]]], days: list[date]
) -> str:
    day = date.fromisoformat(move["previous_session"])
    lines = ["| Window | % change | Measured from |", "|---|---|---|"]
    lines.append(f"| Day | {move['change_pct']:+.2f}% | {day:%b} {day.day} |")
    for (k, w), d in zip(rows, days, strict=True):
        lines.append(f"| {_ROWS[k][0]} | {w['change_pct']:+.2f}% | {d:%b} {d.day} |")
    return f"{move['ticker']} closed at {move['close']:.2f}.\n\n" + "\n".join(lines)


def _table_es(
    move: dict[str, Any], rows: list[tuple[str, dict[str, Any]]], days: list[date]
) -> str:
    day = date.fromisoformat(move["previous_session"])
    lines = ["| Periodo | Desde el cierre del | Variación |", "|---|---|---|"]
    lines.append(f"| Día | {day.day}/{day.month} | {_es(move['change_pct'], True)}% |")
    for (k, w), d in zip(rows, days, strict=True):
        lines.append(f"| {_ROWS[k][1]} | {d.day}/{d.month} | {_es(w['change_pct'], True)}% |")
    return f"{move['ticker']} cerró en {_es(move['close'])}.\n\n" + "\n".join(lines)


def test_a_column_headed_by_a_since_word_holds_where_each_row_is_measured_from() -> None:
    """ "| Window | % change | Measured from |", "| Periodo | Desde el cierre del | Variación |":
    each row's date is where its change is measured from, kept; two rows' dates swapped are
    `wrong_time`."""
    checked = 0
    for question, move, windows in _moves():
        rows = [(k, windows[k]) for k in _ROWS if k in windows]
        if len(rows) < 3:
            continue
        starts = [date.fromisoformat(w["start_session"]) for _, w in rows]
        swapped = [starts[1], starts[0], starts[2]]
        for table in (_table_en, _table_es):
            _kept(question, table(move, rows, starts))
            wrong = table(move, rows, swapped)
            assert "wrong_time" in _codes(question, wrong), (question, wrong)
        checked += 1
    assert checked >= 8, checked

"""A level or a change said for a period, over the free-form night's real move traces: "closed
November at 370.90" is the close of November's last session, "ended 2023 at", "closed the
third quarter at", "cerró noviembre en" alike; another window's start close said so is
`wrong_time`. A change "across the last few sessions" or "en los últimos días" is more than one
session's: the day's move said so is `wrong_time`."""

from __future__ import annotations

from datetime import date

from tests.verifier.test_unseen_prose import _codes, _es, _kept, _moves

_MESES = ("enero", "febrero", "marzo", "abril", "mayo", "junio", "julio", "agosto", "septiembre",
          "octubre", "noviembre", "diciembre")  # fmt: skip
_QUARTERS = ("first", "second", "third", "fourth")


def _period(session: date) -> tuple[str, str] | None:
    """How a window's start session is named as a period's end, in English and Spanish (none
    for a session of the report's own month, which has not ended)."""
    if (session.year, session.month) == (2024, 12):
        return None
    if session.month == 12 and session.day >= 24 and session.year < 2024:
        return f"{session.year}", f"{session.year}"
    if session.day >= 24 and session.month in (3, 6, 9):
        return f"the {_QUARTERS[session.month // 3 - 1]} quarter", ""
    if session.day >= 24:
        return f"{session:%B}", _MESES[session.month - 1]
    return None


def test_a_level_said_for_a_period_is_the_close_of_its_last_session() -> None:
    checked = 0
    for question, move, changes in _moves():
        t, pct, close = move["ticker"], move["change_pct"], move["close"]
        lead = f"{t} closed at {close:.2f} ({pct:+.2f}%)"
        starts = {c["start_session"]: c["start_close"] for c in changes.values()}
        for session, level in starts.items():
            named = _period(date.fromisoformat(session))
            if named is None:
                continue
            english, spanish = named
            _kept(question, f"{lead}; it closed {english} at {level:.2f}.")
            others = [v for s, v in starts.items() if s != session and v != level]
            for other in others:
                said = f"{lead}; it closed {english} at {other:.2f}."
                assert "wrong_time" in _codes(question, said), (question, said)
            if spanish and others:
                lead_es = f"{t} cerró en {_es(close)} ({_es(pct, True)} %)"
                _kept(question, f"{lead_es}; cerró {spanish} en {_es(level)}.")
                said = f"{lead_es}; cerró {spanish} en {_es(others[0])}."
                assert "wrong_time" in _codes(question, said), (question, said)
            checked += 1
    assert checked >= 40, checked


def test_the_days_move_is_not_the_last_few_sessions() -> None:
    checked = 0
    for question, move, _ in _moves():
        t, pct, close = move["ticker"], abs(move["change_pct"]), move["close"]
        down = move["change_pct"] < 0
        for said in (
            f"{t} closed at {close:.2f}, {'a drop' if down else 'a gain'} of {pct:.2f}% across "
            "the last few sessions.",
            f"{t} cerró en {_es(close)}, un {_es(pct)} % {'menos' if down else 'más'} en los "
            "últimos días.",
        ):
            assert "wrong_time" in _codes(question, said), (question, said)
        checked += 1
    assert checked >= 20, checked


def test_a_level_said_at_a_periods_start_or_a_while_ago() -> None:
    """ "started the year at" the last close of the year before; "31.63 at the end of
    November", "up from 370.90 a month ago" alike: another window's start close is
    `wrong_time`."""
    checked = 0
    for question, move, changes in _moves():
        year, month = changes.get("year_to_date"), changes.get("month")
        if not year or not month or year["start_close"] == month["start_close"]:
            continue
        lead = f"{move['ticker']} closed at {move['close']:.2f} ({move['change_pct']:+.2f}%)"
        _kept(question, f"{lead}; it started the year at {year['start_close']:.2f}.")
        said = f"{lead}; it started the year at {month['start_close']:.2f}."
        assert "wrong_time" in _codes(question, said), (question, said)
        said = f"{lead}; it stood at {year['start_close']:.2f} a month ago."  # or: no close
        assert _codes(question, said) & {"wrong_time", "wrong_field"}, (question, said)
        checked += 1
    assert checked >= 20, checked


def test_a_change_said_for_a_quarter_named_by_its_number_is_the_report_s_quarter() -> None:
    """ "ends the fourth quarter up 37.29%", "Q4: +37.29%", "en el cuarto trimestre sube un
    37,29 %" on a report of December 31: the quarter's change is the fourth quarter's to date;
    the same figure said for the third quarter is `wrong_time`, and so is a quarter of another
    year. A quarter in a quoted headline or before "earnings" is no window of prices."""
    checked = 0
    for question, move, changes in _moves():
        quarter = changes.get("quarter")
        if not quarter:
            continue
        t, pct, q = move["ticker"], move["change_pct"], quarter["change_pct"]
        lead = f"{t} closed at {move['close']:.2f} ({pct:+.2f}%)"
        word = "up" if q > 0 else "down"
        es = f"{t} cerró en {_es(move['close'])} ({_es(pct, True)} %)"
        for right, wrong in (
            (f"{lead} and ends the fourth quarter {word} {abs(q):.2f}%.", "fourth"),
            (f"{lead}; Q4: {q:+.2f}%.", "Q4"),
            (f"{es}; en el cuarto trimestre va {_es(q, True)} %.", "cuarto"),
        ):
            _kept(question, right)
            for other in {"fourth": ("third", "fourth quarter of 2023"), "Q4": ("Q3",),
                          "cuarto": ("tercer",)}[wrong]:  # fmt: skip
                said = (
                    right.replace(f"{wrong} quarter", other)
                    if "2023" in other
                    else right.replace(wrong, other)
                )
                assert "wrong_time" in _codes(question, said), (question, said)
        checked += 1
    assert checked >= 30

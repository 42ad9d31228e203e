"""A count is not a change: the number of holdings that rose or fell ("Suben: 7", "bajaron 12",
"7 up, 18 down (25 positions)") and of lower closes ("two lower closes in a row") carries no
sign of the day; such counts are held against the portfolio's tallies. Also "has given up
7.18%" is a fall and a clock time written "13:07 h NY" is New York time. Over the free-form
night's real traces, each faithful draft beside a twin with one thing wrong."""

from __future__ import annotations

from typing import Any

from tests.verifier.test_unseen_prose import (
    _closed,
    _codes,
    _es,
    _kept,
    _moves,
    _new_york,
    _news_days,
    _positions,
    _result,
)


def _tallied() -> list[tuple[str, dict[str, Any], dict[str, Any]]]:
    out = []
    for question, pos in _positions():
        ranks = _result(question, "get_portfolio_ranks")
        if all(isinstance(ranks.get(k), int) for k in ("gainers", "decliners", "positions_count")):
            out.append((question, pos, ranks))
    return out


def _opening(pos: dict[str, Any]) -> str:
    return f"{pos['ticker']} contributed {pos['contribution_pct']:+.2f}% to {pos['portfolio_id']}."


def test_counts_of_holdings_that_rose_or_fell_are_tallies_not_changes() -> None:
    """ "Suben: 7 / Bajan: 18", "Subieron 7 valores, bajaron 12", "7 up, 18 down (25
    positions)": counts held against the ranks (a wrong one is `wrong_relation`), never read as
    the ticker's or the portfolio's direction."""
    checked = 0
    for question, pos, ranks in _tallied():
        up, down, n = ranks["gainers"], ranks["decliners"], ranks["positions_count"]
        if up == down:
            continue
        said = (
            "{} Suben: {} / Bajan: {}.",
            "{} Subieron {} valores y bajaron {}.",
            "{} Breadth: {} up, {} down (" + str(n) + " positions).",
        )
        for wording in said:
            _kept(question, wording.format(_opening(pos), up, down))
        assert "wrong_relation" in _codes(question, said[0].format(_opening(pos), down, up))
        assert "wrong_relation" in _codes(question, said[1].format(_opening(pos), down, up))
        checked += 1
    assert checked >= 20


def test_a_count_of_lower_closes_is_a_streak_not_a_fall() -> None:
    """ "That makes two lower closes in a row": the streak's count; a streak the trace does not
    hold is `wrong_relation`."""
    held = other = 0
    for question, move, _ in _moves():
        streak = _result(question, "get_trend").get("streak") or {}
        sessions, direction = streak.get("sessions"), streak.get("direction")
        if sessions not in (2, 3) or direction not in ("up", "down"):
            continue
        word = "higher" if direction == "up" else "lower"
        count = {2: "two", 3: "three"}[sessions]
        _kept(question, f"{_closed(move)} That makes {count} {word} closes in a row.")
        wrong = {2: "three", 3: "two"}[sessions]
        said = f"{_closed(move)} That makes {wrong} {word} closes in a row."
        assert "wrong_relation" in _codes(question, said), question
        held += 1
    for question, move, windows in _moves():
        week = windows.get("week")
        if week and week["change_pct"] < 0:
            said = f"{_closed(move)} It has now given up {abs(week['change_pct']):.2f}% over the past week."
            _kept(question, said)
            other += 1
        elif week and week["change_pct"] > 0:
            said = (
                f"{_closed(move)} It has now given up {week['change_pct']:.2f}% over the past week."
            )
            assert "wrong_direction" in _codes(question, said), question
            other += 1
    assert held >= 5 and other >= 30


def test_a_clock_time_with_h_and_ny_is_new_york_time() -> None:
    """ "(Dow Jones Newswires, 31 de diciembre, 13:07 h NY)": the headline's own time; another
    minute is `unsupported_date`."""
    checked = 0
    for question, move, news in _news_days():
        if not news:
            continue
        item = news[0]
        when = _new_york(item)
        opening = (
            f"{move['ticker']} cerró en {_es(move['close'])} $ ({_es(move['change_pct'], True)} %)."
        )
        said = f"{opening} Titular: «{item['headline']}» ({item['source']}, {when.day} de diciembre, {{}} h NY)."
        if when.month != 12:
            continue
        _kept(question, said.format(f"{when.hour:02d}:{when.minute:02d}"))
        later = f"{when.hour:02d}:{(when.minute + 7) % 60:02d}"
        assert "unsupported_date" in _codes(question, said.format(later)), question
        checked += 1
    assert checked >= 10

"""Words that set the day's move against the sessions before it, over the free-form night's real
move traces: a rebound ("rebounded", "rebotó", "un respiro") is a rise after a fall, an
extension ("extended its losses", "amplió sus ganancias", "sigue al alza") a second session or
more the same way. Each is held against the ticker's streak: kept where it holds,
`wrong_relation` where it does not.
"""

from __future__ import annotations

from tests.verifier.test_unseen_prose import FREE_TRACES, _codes, _es, _kept, _moves, _result


def test_a_rebound_or_an_extension_is_the_streak_it_says() -> None:
    checked = 0
    for question, move, _ in _moves():
        streak = _result(question, "get_trend").get("streak") or {}
        way, sessions = streak.get("direction"), streak.get("sessions")
        if way not in ("up", "down") or not isinstance(sessions, int):
            continue
        t, pct = move["ticker"], abs(move["change_pct"])
        up = way == "up"
        verb, verbo = ("rose", "subió") if up else ("fell", "cayó")
        said = {
            f"{t} rebounded {pct:.2f}% to {move['close']:.2f}.": up and sessions == 1,
            f"{t} {verbo} un {_es(pct)} % hasta {_es(move['close'])}, un respiro.": up
            and sessions == 1,
            f"{t} extended its {'gains' if up else 'losses'}: it {verb} {pct:.2f}%.": sessions >= 2,
            f"{t} amplió sus {'ganancias' if up else 'pérdidas'}: {verbo} un {_es(pct)} %.": sessions
            >= 2,
        }
        for draft, holds in said.items():
            if holds:
                _kept(question, draft)
            else:
                assert "wrong_relation" in _codes(question, draft), (question, draft, streak)
        checked += 1
    assert checked >= 15, checked


def test_apenas_sizes_the_days_move_as_small() -> None:
    """ "apenas se movió", "subió apenas un 0,02 %": a move under 1% (`wrong_relation` above)."""
    checked = 0
    for question, move, _ in _moves():
        t, pct = move["ticker"], move["change_pct"]
        if not pct or 0.8 <= abs(pct) <= 1.2:
            continue  # near the band's edge: either reading is fair
        verbo = "subió" if pct > 0 else "bajó"
        for said in (
            f"{t} apenas se movió: {verbo} un {_es(abs(pct))} % hasta {_es(move['close'])}.",
            f"{t} {verbo} apenas un {_es(abs(pct))} % hasta {_es(move['close'])}.",
        ):
            if abs(pct) < 1:
                _kept(question, said)
            else:
                assert "wrong_relation" in _codes(question, said), (question, said)
        checked += 1
    assert checked >= 15, checked


def test_a_streak_counted_after_its_name_and_one_no_result_holds() -> None:
    """ "una racha bajista de 3 sesiones", "a losing streak of 3 sessions": the count after the
    streak's name is its length (another is `wrong_relation`); a run said in a trace that
    holds no streak ("lleva 3 sesiones a la baja" over a position's calls) is not taken for the
    day's direction: it stays unchecked."""
    checked = 0
    for question, move, _ in _moves():
        streak = _result(question, "get_trend").get("streak") or {}
        way, sessions = streak.get("direction"), streak.get("sessions")
        if way not in ("up", "down") or not isinstance(sessions, int) or sessions < 2:
            continue
        t = move["ticker"]
        lead = f"{t} closed at {move['close']:.2f} ({move['change_pct']:+.2f}%)."
        es, en = ("alcista", "winning") if way == "up" else ("bajista", "losing")
        for said in (
            f" Lleva una racha {es} de {{}} sesiones.",
            f" It is on a {en} streak of {{}} sessions.",
            f" La racha {es} de {t} es de {{}} sesiones.",
        ):
            _kept(question, lead + said.format(sessions))
            assert "wrong_relation" in _codes(question, lead + said.format(sessions + 1)), question
        position = next((q for q in FREE_TRACES if q.startswith(f"{t}/position/")), None)
        if position is not None:
            contribution = _result(position, "get_position_pnl")["contribution_pct"]
            run = "al alza" if way == "up" else "a la baja"
            said = f"{t} aportó {_es(contribution, True)} %. {t} lleva {sessions} sesiones {run}."
            assert "unverified_claim" in _codes(position, said), position
        checked += 1
    assert checked >= 10


def test_every_session_since_a_day_is_the_streak_since_that_day() -> None:
    """ "has declined every session since December 27", "ha cerrado a la baja en cada sesión
    desde el 27 de diciembre": the streak's direction, two sessions or more, and its first
    session; a day of the trace that is no streak's start (a window's) is `wrong_relation`."""
    checked = 0
    for question, move, changes in _moves():
        streak = _result(question, "get_trend").get("streak") or {}
        way, sessions, since = (
            streak.get("direction"),
            streak.get("sessions"),
            streak.get("since_session"),
        )
        week = (changes.get("week") or {}).get("start_session")
        if (
            way not in ("up", "down")
            or not isinstance(sessions, int)
            or sessions < 2
            or week == since
        ):
            continue
        en, es = ("gained", "cerrado al alza") if way == "up" else ("declined", "cerrado a la baja")
        for said in (
            f"{_closed_en(move)} It has {en} every session since {{}}.",
            f"{_closed_en(move)} {move['ticker']} ha {es} en cada sesión desde el {{}}.",
        ):
            _kept(question, said.format(since))
            assert "wrong_relation" in _codes(question, said.format(week)), (question, said)
        checked += 1
    assert checked >= 5, checked


def _closed_en(move: dict[str, object]) -> str:
    return f"{move['ticker']} closed at {move['close']:.2f} ({move['change_pct']:+.2f}%)."

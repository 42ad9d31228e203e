"""Words that set the day's move against the sessions before it, over the free-form night's real
move traces: a rebound ("rebounded", "rebotó", "un respiro") is a rise after a fall, an
extension ("extended its losses", "amplió sus ganancias", "sigue al alza") a second session or
more the same way. Each is held against the ticker's streak: kept where it holds,
`wrong_relation` where it does not.
"""

from __future__ import annotations

from tests.verifier.test_unseen_prose import _codes, _es, _kept, _moves, _result


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

"""Denials, a day's change named as such, a holding's line headed by its portfolio and the level
a move goes to or from: wordings an outside attack got through, bound by principle over the
free-form night's real traces. Each test writes the faithful sentence and its wrong twin from
the trace's own results and fails with its rule taken out."""

from __future__ import annotations

from tests.verifier.test_places_fractions_columns import _ranked
from tests.verifier.test_unseen_prose import _codes, _kept, _moves, _result

ORDINALS = ["", "first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth"]
ORDINALES = ["", "primera", "segunda", "tercera", "cuarta", "quinta", "sexta", "séptima", "octava"]


def _es(value: float) -> str:
    return f"{value:,.2f}".replace(",", "_").replace(".", ",").replace("_", ".")


def test_a_move_denied_with_the_figure_the_trace_holds_contradicts_it() -> None:
    """ "CGL did not fall 2.30%" of a fall of 2.30% is `wrong_direction`; denying the other
    way ("did not rise 2.30%; it fell 2.30%") is true and kept."""
    checked = 0
    for question, move, _ in _moves():
        ticker, pct, close = move["ticker"], abs(move["change_pct"]), move["close"]
        if not pct:
            continue
        way, other = ("fall", "rise") if move["change_pct"] < 0 else ("rise", "fall")
        went = "fell" if way == "fall" else "rose"
        denied = f"{ticker} did not {way} {pct:.2f}% on 2024-12-31; it closed at {close:.2f}."
        assert "wrong_direction" in _codes(question, denied), question
        assert "wrong_direction" in _codes(question, denied.replace("did not", "never"))
        true = f"{ticker} did not {other} {pct:.2f}% on 2024-12-31; it {went} {pct:.2f}% to {close:.2f}."
        _kept(question, true)
        verb = "perdió" if way == "fall" else "ganó"
        dicho = f"{ticker} cerró en {_es(close)} el 31 de diciembre de 2024 y no {verb} un {_es(pct)} % en la sesión."
        assert "wrong_direction" in _codes(question, dicho), question
        checked += 1
    assert checked >= 20, checked


def test_a_figure_said_not_to_be_what_the_trace_holds_is_a_contradiction() -> None:
    """ "the day P&L was not -898.72" of a P&L of -898.72; another figure after "was not" is
    no figure of the trace at all."""
    checked = 0
    for question, pnl, _, _ in _ranked():
        ticker, portfolio = pnl["ticker"], pnl["portfolio_id"]
        said = f"{ticker} in {portfolio}: the day P&L was not {pnl['day_pnl']:+,.2f} on 2024-12-31."
        assert "wrong_direction" in _codes(question, said), question
        _kept(
            question,
            f"{ticker} in {portfolio}: the day P&L was {pnl['day_pnl']:+,.2f} ({pnl['pnl_pct']:+.2f}%) on 2024-12-31.",
        )
        checked += 1
    assert checked >= 20, checked


def test_a_streak_denied_holds_only_where_the_run_is_not_so() -> None:
    """ "not its third straight decline" of a third decline is `wrong_relation`; of a second it
    is true and kept."""
    checked = 0
    for question, move, _ in _moves():
        streak = _result(question, "get_trend").get("streak") or {}
        sessions, way = streak.get("sessions"), streak.get("direction")
        if not isinstance(sessions, int) or not 2 <= sessions < 7 or way not in ("up", "down"):
            continue
        ticker, pct, close = move["ticker"], abs(move["change_pct"]), move["close"]
        went, run = ("fell", "decline") if way == "down" else ("rose", "gain")
        head = f"{ticker} {went} {pct:.2f}% to {close:.2f}"
        assert "wrong_relation" in _codes(
            question, f"{head}, not its {ORDINALS[sessions]} straight {run}."
        )
        _kept(question, f"{head}, not its {ORDINALS[sessions + 1]} straight {run}.")
        verbo, caida = ("cayó", "caída") if way == "down" else ("subió", "subida")
        cabeza = f"{ticker} {verbo} un {_es(pct)} % hasta {_es(close)}"
        dicho = f"{cabeza}, sin que sea su {ORDINALES[sessions]} {caida} consecutiva."
        assert "wrong_relation" in _codes(question, dicho), question
        checked += 1
    assert checked >= 10, checked


def test_a_change_named_for_the_day_is_one_session_s() -> None:
    """ "a day change of +0.08 (+0.12%)", "- Day change: -1.33%": a week's or a quarter's change
    under the day's name is `wrong_time`; the day's is kept."""
    checked = 0
    for question, move, windows in _moves():
        week = windows.get("week")
        if week is None or abs(week["change_pct"] - move["change_pct"]) < 0.05:
            continue
        ticker, close = move["ticker"], move["close"]
        head = f"{ticker} closed at {close:.2f} on 2024-12-31, a day change of"
        _kept(question, f"{head} {move['change']:+.2f} ({move['change_pct']:+.2f}%).")
        wrong = f"{head} {week['change']:+.2f} ({week['change_pct']:+.2f}%)."
        assert "wrong_time" in _codes(question, wrong), question
        listed = f"- Close: {close:.2f} (2024-12-31)\n- Previous close: {move['previous_close']:.2f}\n- Day change: {{}}%"
        _kept(question, listed.format(f"{move['change_pct']:+.2f}"))
        assert "wrong_time" in _codes(question, listed.format(f"{week['change_pct']:+.2f}"))
        checked += 1
    assert checked >= 20, checked


def test_a_holding_s_line_headed_by_its_portfolio_speaks_of_the_holding() -> None:
    """ "WED in P002: market value 2,382,660.53": the figures of a line headed by the holding in
    its portfolio are the holding's, so the portfolio's value there is `wrong_subject`, and the
    book's value before the session called the position's value is `wrong_field`."""
    checked = 0
    for question, pnl, ranks, _ in _ranked():
        ticker, portfolio = pnl["ticker"], pnl["portfolio_id"]
        tail = f"day P&L {pnl['day_pnl']:+,.2f} ({pnl['pnl_pct']:+.2f}%)."
        _kept(question, f"{ticker} in {portfolio}: market value {pnl['market_value']:,.2f}, {tail}")
        wrong = f"{ticker} in {portfolio}: market value {ranks['market_value']:,.2f}, {tail}"
        assert "wrong_subject" in _codes(question, wrong), question
        book = pnl["portfolio_value_previous_close"]
        said = f"{ticker} in {portfolio}: position value {book:,.2f}; {tail}"
        assert "wrong_field" in _codes(question, said), question
        return_wrong = f"{ticker} in {portfolio}: day return {ranks['portfolio_return_pct']:+.2f}%."
        if abs(ranks["portfolio_return_pct"] - pnl["pnl_pct"]) > 0.01:
            assert "wrong_subject" in _codes(question, return_wrong), question
        checked += 1
    assert checked >= 20, checked


def test_a_level_after_a_move_s_to_or_from_is_its_close_or_the_close_before() -> None:
    """ "fell 2.03% on 2024-12-31 to 361.76" where 361.76 is the close before, "rose 0.56% on
    2024-12-31 from 34.40" where it is the close: `wrong_field`; "to" the close and "from" the
    close before are kept, and a "to" that starts another clause ("a contribution that rounds
    to zero") names no level."""
    checked = 0
    for question, move, windows in _moves():
        ticker, close, before = move["ticker"], move["close"], move["previous_close"]
        pct = abs(move["change_pct"])
        if not pct or abs(close - before) < 0.01:
            continue
        went, fue = ("fell", "cayó") if move["change_pct"] < 0 else ("rose", "subió")
        head = f"{ticker} {went} {pct:.2f}% on 2024-12-31"
        _kept(question, f"{head} to {close:.2f}.")
        _kept(question, f"{head} from {before:.2f}.")
        assert "wrong_field" in _codes(question, f"{head} to {before:.2f}."), question
        starts = {w["start_close"] for w in windows.values()}
        if close not in starts:  # a window that opened at today's close: "from" it holds
            assert "wrong_field" in _codes(question, f"{head} from {close:.2f}."), question
        cabeza = f"{ticker} {fue} un {_es(pct)} % el 31 de diciembre de 2024"
        _kept(question, f"{cabeza}, hasta {_es(close)}.")
        assert "wrong_field" in _codes(question, f"{cabeza}, hasta {_es(before)}."), question
        checked += 1
    assert checked >= 20, checked
    for question, pnl, _, row in _ranked():
        if row["contribution_pct"] == 0 and pnl["day_pnl"] < 0:
            said = (
                f"{pnl['portfolio_id']}'s {pnl['ticker']} shares lost ${-pnl['day_pnl']:,.2f} on "
                f"the day ({pnl['pnl_pct']:+.2f}%), a contribution that rounds to zero."
            )
            _kept(question, said)


def test_a_week_to_date_opens_at_the_last_close_of_the_week_before() -> None:
    """ "down 1.10% week to date" on a Tuesday, of the last five sessions' change (from the
    Tuesday before): `wrong_time`; the same change said over the past week, or "week to date
    (from 24 Dec)" with its start, is kept."""
    checked = 0
    for question, move, windows in _moves():
        week = windows.get("week")
        if week is None or week["start_session"] != "2024-12-24":
            continue
        went = "fell" if move["change_pct"] < 0 else "rose"
        way = "down" if week["change_pct"] < 0 else "up"
        head = f"{move['ticker']} {went} {abs(move['change_pct']):.2f}% to {move['close']:.2f} on 2024-12-31"
        size = f"{abs(week['change_pct']):.2f}%"
        assert "wrong_time" in _codes(question, f"{head} and is {way} {size} week to date."), (
            question
        )
        _kept(question, f"{head} and is {way} {size} over the past week.")
        _kept(question, f"{head}.\n- Week to date (from 24 Dec): {week['change_pct']:+.2f}%")
        checked += 1
    assert checked >= 20, checked


def test_a_price_of_the_hours_outside_the_session_is_no_price_the_trace_holds() -> None:
    """ "ending at an after-hours price of 60.97" of the session's close is `wrong_time`: no
    tool returns a price outside the session. The close said plainly is kept, and so is a
    sentence that only says the data has no after-hours price."""
    checked = 0
    for question, move, _ in _moves():
        ticker, close, pct = move["ticker"], move["close"], abs(move["change_pct"])
        went = "fell" if move["change_pct"] < 0 else "rose"
        head = f"{ticker} {went} {pct:.2f}% on 2024-12-31"
        said = f"{head}, ending at an after-hours price of {close:.2f}."
        assert "wrong_time" in _codes(question, said), question
        _kept(question, f"{head}, ending at {close:.2f}.")
        dicho = f"{ticker} cerró en {_es(close)} el 31 de diciembre de 2024, con un precio after-hours de {_es(close)}."
        assert "wrong_time" in _codes(question, dicho), question
        checked += 1
    assert checked >= 20, checked


def test_a_session_named_by_its_place_in_a_year_is_that_session() -> None:
    """ "closed at 28.98 on the last trading day of 2023" of the 2024-12-31 close is
    `wrong_time`; of 2024 it is the report date and kept, in either language."""
    checked = 0
    for question, move, _ in _moves():
        ticker, close, pct = move["ticker"], move["close"], move["change_pct"]
        way = "down" if pct < 0 else "up"
        for year, holds in ((2024, True), (2023, False)):
            said = f"{ticker} closed at {close:.2f} on the last trading day of {year}, {way} {abs(pct):.2f}%."
            dicho = f"{ticker} cerró en {_es(close)} el último día de cotización de {year}, con un movimiento del {_es(pct)} %."
            for draft in (said, dicho):
                if holds:
                    _kept(question, draft)
                else:
                    assert "wrong_time" in _codes(question, draft), (question, draft)
        checked += 1
    assert checked >= 20, checked


def test_a_move_said_to_have_gone_on_for_some_sessions_is_the_streak() -> None:
    """ "has been falling for 4 days", "has now risen for 3 sessions", "lleva 3 sesiones
    bajando": the streak's length, held to the trace's streak, not to any value of the trace
    that equals the count."""
    checked = 0
    for question, move, _ in _moves():
        streak = _result(question, "get_trend").get("streak") or {}
        sessions, way = streak.get("sessions"), streak.get("direction")
        if not isinstance(sessions, int) or sessions < 2 or way not in ("up", "down"):
            continue
        ticker, pct, close = move["ticker"], abs(move["change_pct"]), move["close"]
        went, going = ("fell", "falling") if way == "down" else ("rose", "rising")
        head = f"{ticker} {went} {pct:.2f}% to {close:.2f}"
        _kept(question, f"{head} and has been {going} for {sessions} sessions.")
        wrong = f"{head} and has been {going} for {sessions + 1} sessions."
        assert "wrong_relation" in _codes(question, wrong), question
        verbo, yendo = ("cayó", "bajando") if way == "down" else ("subió", "subiendo")
        cabeza = f"{ticker} {verbo} un {_es(pct)} % hasta {_es(close)}"
        _kept(question, f"{cabeza} y lleva {sessions} sesiones {yendo}.")
        assert "wrong_relation" in _codes(
            question, f"{cabeza} y lleva {sessions + 1} sesiones {yendo}."
        )
        checked += 1
    assert checked >= 10, checked

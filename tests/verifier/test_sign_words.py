"""Words that say a change's sign without governing a figure ("negative for the year", "in the red
for the month", "en el mes va en verde", "the portfolio ended with a loss", "prácticamente
nula", "0 unchanged") and comparisons of the size of two falls ("cayó más de lo que cayó la
cartera"), over the free-form night's real traces. Each is held against the figure it
qualifies, the window it names or its subject's day: kept where it holds, `wrong_direction` (or
`wrong_relation`) where it does not, and never free only because its sentence holds a figure.
"""

from __future__ import annotations

from tests.verifier.test_unseen_prose import _codes, _es, _kept, _moves, _positions, _result

_WINDOWS = {"week": "week", "month": "month", "quarter": "quarter", "year_to_date": "year"}
_VENTANAS = {
    "week": "la semana",
    "month": "el mes",
    "quarter": "el trimestre",
    "year_to_date": "el año",
}
_WORDS = (("positive", "negative"), ("in the green", "in the red"), ("still up", "still down"))
_PALABRAS = (("en verde", "en rojo"), ("en positivo", "en negativo"))


def test_a_sign_said_for_a_window_is_that_windows_change() -> None:
    checked = 0
    for question, move, changes in _moves():
        t, pct, close = move["ticker"], move["change_pct"], move["close"]
        verb, verbo = ("rose", "subió") if pct > 0 else ("fell", "cayó")
        for window, change in changes.items():
            value = change.get("change_pct")
            if window not in _WINDOWS or not value:
                continue
            up = value > 0
            for pair in _WORDS:
                right, wrong = (pair[0], pair[1]) if up else (pair[1], pair[0])
                for word, holds in ((right, True), (wrong, False)):
                    draft = (
                        f"{t} {verb} {abs(pct):.2f}% to {close:.2f}, but it is {word} "
                        f"for the {_WINDOWS[window]}."
                    )
                    if holds:
                        _kept(question, draft)
                    else:
                        assert "wrong_direction" in _codes(question, draft), (question, draft)
            for pair in _PALABRAS:
                right, wrong = (pair[0], pair[1]) if up else (pair[1], pair[0])
                lead = f"{t} {verbo} un {_es(abs(pct))} % hasta {_es(close)} $"
                _kept(question, f"{lead}; en {_VENTANAS[window]} va {right}.")
                said = f"{lead}; en {_VENTANAS[window]} va {wrong}."
                assert "wrong_direction" in _codes(question, said), (question, said)
            checked += 1
    assert checked >= 60, checked


def test_the_portfolios_day_said_in_words_is_its_sign() -> None:
    checked = 0
    for question, pnl in _positions():
        ranks = _result(question, "get_portfolio_ranks")
        day = ranks.get("portfolio_day_pnl")
        if not isinstance(day, int | float) or not day or "day_pnl" not in pnl:
            continue
        t, pid, amount = pnl["ticker"], pnl["portfolio_id"], abs(pnl["day_pnl"])
        verb = "made" if pnl["day_pnl"] > 0 else "cost"
        gain, loss = ("a gain", "a loss") if day > 0 else ("a loss", "a gain")
        ganancia, perdida = ("ganancias", "pérdidas") if day > 0 else ("pérdidas", "ganancias")
        lead = f"{t} {verb} {pid} ${amount:,.2f} ({pnl['pnl_pct']:+.2f}%)"
        _kept(question, f"{lead}; the portfolio ended the day with {gain}.")
        said = f"{lead}; the portfolio ended the day with {loss}."
        assert "wrong_direction" in _codes(question, said), (question, said)
        lead_es = (
            f"La posición en {t} {'sumó' if pnl['day_pnl'] > 0 else 'restó'} {_es(amount)} $ "
            f"({_es(pnl['pnl_pct'], signed=True)} %)"
        )
        _kept(question, f"{lead_es}; la cartera {pid} terminó el día en {ganancia}.")
        said = f"{lead_es}; la cartera {pid} terminó el día en {perdida}."
        assert "wrong_direction" in _codes(question, said), (question, said)
        checked += 1
    assert checked >= 20, checked


def test_a_tally_said_with_a_sign_word_is_the_portfolios_count() -> None:
    """ "0 unchanged", "12 de las 19 posiciones cerraron en negativo": the count of the answer's
    own portfolio; one more is `wrong_relation`."""
    checked = 0
    for question, pnl in _positions():
        ranks = _result(question, "get_portfolio_ranks")
        if not all(isinstance(ranks.get(k), int) for k in ("decliners", "unchanged")):
            continue
        lead = f"{pnl['ticker']} closed at {pnl['close']:.2f} ({pnl['pnl_pct']:+.2f}%)."
        n, down, total = ranks["unchanged"], ranks["decliners"], ranks["positions_count"]
        _kept(question, f"{lead} In the portfolio, {n} unchanged.")
        said = f"{lead} In the portfolio, {n + 1} unchanged."
        assert "wrong_relation" in _codes(question, said), (question, said)
        spanish = "En la cartera, {} de las {} posiciones cerraron en negativo."
        _kept(question, f"{lead} {spanish.format(down, total)}")
        said = f"{lead} {spanish.format(down + 1, total)}"
        assert "wrong_relation" in _codes(question, said), (question, said)
        checked += 1
    assert checked >= 20, checked


def test_more_or_less_of_two_falls_orders_their_sizes() -> None:
    """ "cayó un 3,99 %, más de lo que cayó la cartera": the larger fall, not the higher
    return."""
    checked = 0
    for question, pnl in _positions():
        ranks = _result(question, "get_portfolio_ranks")
        mine, book = pnl.get("pnl_pct"), ranks.get("portfolio_return_pct")
        if not (isinstance(mine, float) and isinstance(book, float)) or not mine < book < 0:
            continue
        t = pnl["ticker"]
        for draft, holds in (
            (f"{t} cayó un {_es(-mine)} %, más de lo que cayó la cartera.", True),
            (f"{t} cayó un {_es(-mine)} %, menos de lo que cayó la cartera.", False),
        ):
            if holds:
                _kept(question, draft)
            else:
                assert "wrong_relation" in _codes(question, draft), (question, draft)
        checked += 1
    assert checked >= 5, checked


def test_respectively_pairs_nothing_a_rule_reads() -> None:
    """No rule reads which figure "respectively" gives to which subject: a swapped pair stands
    unbound (`unverified_claim`) however its figures match."""
    checked = 0
    for question, pnl in _positions():
        ranks = _result(question, "get_portfolio_ranks")
        book = ranks.get("portfolio_return_pct")
        if not isinstance(book, float) or book == pnl["pnl_pct"]:
            continue
        draft = (
            f"{pnl['ticker']} and portfolio {pnl['portfolio_id']} moved {book:+.2f}% and "
            f"{pnl['pnl_pct']:+.2f}%, respectively."
        )
        assert "unverified_claim" in _codes(question, draft), (question, draft)
        checked += 1
    assert checked >= 20, checked


def test_a_sign_nothing_settles_is_a_claim_no_rule_checked() -> None:
    """A sign said for a window no result gives (the past twelve months) binds nothing: it
    rejects the draft, though its sentence holds a checked figure."""
    checked = 0
    for question, move, _ in _moves():
        t, pct, close = move["ticker"], move["change_pct"], move["close"]
        for word in ("negative", "positive", "in the red", "flat"):
            draft = f"{t} closed at {close:.2f} ({pct:+.2f}%), {word} over the past 12 months."
            assert "unverified_claim" in _codes(question, draft), (question, draft)
        checked += 1
    assert checked >= 20, checked


def test_a_negated_move_on_the_day_is_the_other_direction() -> None:
    """ "It did not fall on the day": a rise (or no move); "falls on" a date is an event's."""
    checked = 0
    for question, move, _ in _moves():
        pct = move["change_pct"]
        if not pct:
            continue
        lead = f"{move['ticker']} closed at {move['close']:.2f} ({pct:+.2f}%)."
        right, wrong = ("fall", "rise") if pct > 0 else ("rise", "fall")
        _kept(question, f"{lead} It did not {right} on the day.")
        said = f"{lead} It did not {wrong} on the day."
        assert "wrong_direction" in _codes(question, said), (question, said)
        checked += 1
    assert checked >= 20, checked


def test_a_move_said_for_no_time_is_the_days() -> None:
    """ "## ABXQ rallies" over a day it fell: a heading's move is the report day's, not that of
    whichever window went its way."""
    checked = 0
    for question, move, _ in _moves():
        pct, t = move["change_pct"], move["ticker"]
        if not pct:
            continue
        right, wrong = ("rallies", "slumps") if pct > 0 else ("slumps", "rallies")
        body = f"{t} closed at {move['close']:.2f} ({pct:+.2f}%)."
        _kept(question, f"## {t} {right}\n{body}")
        said = f"## {t} {wrong}\n{body}"
        assert "wrong_direction" in _codes(question, said), (question, said)
        checked += 1
    assert checked >= 20, checked

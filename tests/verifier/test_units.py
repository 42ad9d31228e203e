"""What an amount is said in, over the free-form night's real position and move traces: its
currency ("€1,304.79" in a dollar book), what it counts ("2,897.51 shares" for a P&L), how its
digits are grouped ("781,000 shares" beside "$224,256.34" is seven hundred thousand, not 781),
and a bound with an article ("más de un 4 %" for 3.99%)."""

from __future__ import annotations

import math

from tests.verifier.test_unseen_prose import _codes, _es, _kept, _moves, _positions, _result


def test_an_amount_in_another_currency_is_another_field() -> None:
    checked = 0
    for question, pnl in _positions():
        if "day_pnl" not in pnl or pnl.get("base_currency") not in (None, "USD"):
            continue
        t, pid, amount = pnl["ticker"], pnl["portfolio_id"], abs(pnl["day_pnl"])
        verb = "made" if pnl["day_pnl"] > 0 else "cost"
        lead = f"{t} closed at {pnl['close']:.2f} ({pnl['pnl_pct']:+.2f}%) and {verb} {pid}"
        _kept(question, f"{lead} ${amount:,.2f}.")
        _kept(question, f"{lead} USD {amount:,.2f}.")
        for said in (f"€{amount:,.2f}", f"£{amount:,.2f}", f"{amount:,.2f} euros"):
            assert "wrong_field" in _codes(question, f"{lead} {said}."), (question, said)
        verbo = "sumó" if pnl["day_pnl"] > 0 else "restó"
        lead_es = f"{t} cerró en {_es(pnl['close'])} ({_es(pnl['pnl_pct'], True)} %) y {verbo}"
        _kept(question, f"{lead_es} {_es(amount)} dólares a {pid}.")
        said = f"{lead_es} {_es(amount)} euros a {pid}."
        assert "wrong_field" in _codes(question, said), (question, said)
        checked += 1
    assert checked >= 20, checked


def test_a_count_of_shares_is_a_quantity() -> None:
    checked = 0
    for question, pnl in _positions():
        qty = pnl.get("quantity")
        if not isinstance(qty, float) or not qty.is_integer() or "day_pnl" not in pnl:
            continue
        t, pid = pnl["ticker"], pnl["portfolio_id"]
        lead = f"{t} closed at {pnl['close']:.2f} ({pnl['pnl_pct']:+.2f}%)."
        _kept(question, f"{lead} {pid} holds {int(qty):,} shares.")
        said = f"{lead} The position earned {pid} {abs(pnl['day_pnl']):,.2f} shares."
        assert "wrong_field" in _codes(question, said), (question, said)
        if qty < 1000:  # "781,000 shares" beside "287.14": grouped thousands, not 781
            said = f"{lead} {pid} holds {int(qty) * 1000:,} shares."
            assert not _codes(question, said) <= {"unverified_claim"}, (question, said)
        checked += 1
    assert checked >= 20, checked


def test_a_bound_with_an_article_is_a_bound() -> None:
    """ "más de un 4 %", "al menos un 4 %": a lower bound the change must reach."""
    checked = 0
    for question, move, _ in _moves():
        pct, close = abs(move["change_pct"]), move["close"]
        if pct < 1 or pct == math.floor(pct):
            continue
        verbo = "subió" if move["change_pct"] > 0 else "cayó"
        lead = f"{move['ticker']} {verbo}"
        _kept(question, f"{lead} más de un {math.floor(pct)} % y cerró a {_es(close)} $.")
        for said in (f"más de un {math.ceil(pct)} %", f"al menos un {math.ceil(pct)} %"):
            draft = f"{lead} {said} y cerró a {_es(close)} $."
            codes = _codes(question, draft)  # no change of the day reaches it
            assert codes - {"unverified_claim"}, (question, draft, codes)
        checked += 1
    assert checked >= 20, checked


def test_a_percentage_is_no_place_and_no_count() -> None:
    """ "19% of the portfolio" where 19 is the holding's rank: a share no result holds."""
    checked = 0
    for question, _ in _positions():
        ranks = _result(question, "get_portfolio_ranks")
        position = (ranks.get("positions") or [{}])[0]
        rank, weight = position.get("return_rank"), position.get("weight_pct")
        shares = {round(v) for v in position.values() if isinstance(v, float)}
        if (
            not isinstance(rank, int)
            or not isinstance(weight, float)
            or rank in shares
            or rank < 10
        ):
            continue  # a 2% that rounds a 1.75% move is another question (the field's)
        lead = f"{position['ticker']} moved {position['day_return_pct']:+.2f}%"
        _kept(question, f"{lead}; it is {weight:.2f}% of the portfolio.")
        said = f"{lead}; it is {rank}% of the portfolio."
        assert _codes(question, said) - {"unverified_claim"}, (question, said)
        checked += 1
    assert checked >= 20, checked

"""A negated place or comparison, over the free-form night's real position traces: "it was not
the top contributor" is false of the top contributor (`wrong_relation`) and true of the rest;
"it did not outperform the benchmark", "no se quedó por debajo del índice" say the other order."""

from __future__ import annotations

from tests.verifier.test_unseen_prose import _codes, _kept, _positions, _result


def test_a_negated_place_is_every_other_place() -> None:
    checked = 0
    for question, pnl in _positions():
        ranks = _result(question, "get_portfolio_ranks")
        top = ranks.get("top_contributors") or []
        if not top or "pnl_pct" not in pnl:
            continue
        t = pnl["ticker"]
        lead = (
            f"{t} moved {pnl['pnl_pct']:+.2f}%, a contribution of {pnl['contribution_pct']:+.2f}%."
        )
        said = f"{lead} It was not the top contributor."
        if top[0] == t:
            assert "wrong_relation" in _codes(question, said), (question, said)
        else:
            _kept(question, said)
        checked += 1
    assert checked >= 20, checked


def test_a_negated_comparison_is_the_other_order() -> None:
    checked = 0
    for question, pnl in _positions():
        bench = (_result(question, "get_portfolio_ranks").get("benchmark") or {}).get("return_pct")
        mine = pnl.get("pnl_pct")
        if not isinstance(bench, float) or not isinstance(mine, float) or mine == bench:
            continue
        lead = f"{pnl['ticker']} moved {mine:+.2f}%, a contribution of {pnl['contribution_pct']:+.2f}%."
        right, wrong = (
            ("underperform", "outperform") if mine > bench else ("outperform", "underperform")
        )
        _kept(question, f"{lead} It did not {right} the benchmark.")
        said = f"{lead} It did not {wrong} the benchmark."
        assert "wrong_relation" in _codes(question, said), (question, said)
        checked += 1
    assert checked >= 20, checked

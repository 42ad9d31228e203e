"""A figure in a table's cell is what its column's header names, over the free-form night's
real position traces: "| Ticker | Weight | Contribution |" over the holding's weight and
contribution is kept; the two swapped are `wrong_field`."""

from __future__ import annotations

from tests.verifier.test_unseen_prose import _codes, _kept, _positions, _result


def test_a_cell_is_its_columns_field() -> None:
    checked = 0
    for question, pnl in _positions():
        rows = _result(question, "get_portfolio_ranks").get("positions") or []
        weight, contribution = (
            (rows[0].get("weight_pct"), pnl.get("contribution_pct")) if rows else (None, None)
        )
        if not isinstance(weight, float) or not isinstance(contribution, float):
            continue
        if round(weight, 2) == round(contribution, 2):
            continue
        t = pnl["ticker"]
        head = "| Ticker | Weight | Contribution |\n|---|---|---|\n"
        tail = f"\n\n{t} moved {pnl['pnl_pct']:+.2f}%."
        _kept(question, f"{head}| {t} | {weight:.2f}% | {contribution:+.2f}% |{tail}")
        said = f"{head}| {t} | {contribution:+.2f}% | {weight:.2f}% |{tail}"
        assert "wrong_field" in _codes(question, said), (question, said)
        checked += 1
    assert checked >= 20, checked

"""Gaps said after the sentence that names their figures, and levels said against the previous
close, over the free-form night's real traces: each faithful wording beside a corrupted twin.

- "P002 returned -0.90% against the benchmark's -0.57%. So P002 was behind the benchmark by
  0.33 points", "...; over the quarter, -7.30% — a gap of 5.36 percentage points": a sentence
  that points back ("So", "Es decir", "Por lo tanto") or follows a semicolon may compute from the
  one before, and the side it gives ("por encima", "behind") must be the figures' order.
- "closed ... above the previous close", "1,08 por debajo del cierre previo de 114,72": said of
  the day's move, its direction must be the day's sign.
- "above", "por encima" with no figure after them and no comparison a rule reads are not free
  words: "P002 quedó por encima." asserts an order nothing checks.
"""

from __future__ import annotations

from typing import Any

from tests.verifier.test_unseen_prose import FREE_TRACES, _codes, _es, _kept, _moves, _result


def _against_benchmark() -> list[tuple[str, str, float, float]]:
    """Position questions whose ranks give the portfolio's and the benchmark's returns, apart by
    a gap clear of rounding: question, portfolio, its return, the benchmark's."""
    out = []
    for question in sorted(q for q in FREE_TRACES if "/position/" in q):
        ranks = _result(question, "get_portfolio_ranks")
        mine, bench = (
            ranks.get("portfolio_return_pct"),
            (ranks.get("benchmark") or {}).get("return_pct"),
        )
        if mine is None or bench is None or abs(mine - bench) < 0.05:
            continue
        out.append((question, ranks["portfolio_id"], mine, bench))
    return out


def test_a_gap_said_after_a_pointing_sentence_is_the_difference_of_the_one_before() -> None:
    checked = 0
    for question, pid, mine, bench in _against_benchmark():
        gap = abs(mine - bench)
        side_en, other_en = ("ahead of", "behind") if mine > bench else ("behind", "ahead of")
        side_es, other_es = ("encima", "debajo") if mine > bench else ("debajo", "encima")
        en = f"{pid} returned {mine:.2f}% against the benchmark's {bench:.2f}%. So {pid} was {{}} the benchmark by {{:.2f}} points."
        es = (
            f"{pid} rindió un {_es(mine)} % frente al {_es(bench)} % del índice de referencia. "
            f"Por lo tanto, {pid} quedó {{}} puntos por {{}}."
        )
        _kept(question, en.format(side_en, gap))
        _kept(question, es.format(_es(gap), side_es))
        assert "wrong_relation" in _codes(question, en.format(other_en, gap)), question
        assert "wrong_relation" in _codes(question, es.format(_es(gap), other_es)), question
        assert _codes(question, en.format(side_en, gap + 0.1)), question
        assert _codes(question, es.format(_es(gap + 0.1), side_es)), question
        for side in (side_es, other_es):  # no figure, no comparison: nothing checks the order
            bare = f"{pid} rindió un {_es(mine)} %. {pid} quedó por {side}."
            assert "unverified_claim" in _codes(question, bare), (question, bare)
        checked += 1
    assert checked >= 20, checked


def test_a_gap_after_a_semicolon_is_the_difference_of_the_clause_before() -> None:
    checked = 0
    for question, move, windows in _moves():
        if "week" not in windows or "quarter" not in windows:
            continue
        week, quarter = windows["week"]["change_pct"], windows["quarter"]["change_pct"]
        if not week or not quarter:
            continue  # a gap equal to one of its figures is that figure too
        said = (
            f"{move['ticker']} closed at {move['close']:.2f}. Over the week the stock is {week:+.2f}%; "
            f"over the quarter, {quarter:+.2f}% — a gap of {{:.2f}} percentage points."
        )
        _kept(question, said.format(abs(week - quarter)))
        assert "wrong_relation" in _codes(question, said.format(abs(week - quarter) + 0.5))
        checked += 1
    assert checked >= 10, checked


def _changed(move: dict[str, Any]) -> bool:
    return bool(move.get("change")) and "previous_close" in move


def test_a_level_against_the_previous_close_carries_the_days_direction() -> None:
    checked = 0
    for question, move, _ in _moves():
        if not _changed(move):
            continue
        t, chg, prev = move["ticker"], move["change"], move["previous_close"]
        up = chg > 0
        en = f"{t} closed at {move['close']:.2f} ({move['change_pct']:+.2f}%), {abs(chg):.2f} {{}} the previous close of {prev:.2f}."
        es = f"{t} cerró en {_es(move['close'])} ({_es(move['change_pct'], True)} %), {_es(abs(chg))} por {{}} del cierre previo de {_es(prev)}."
        bare = f"{t} closed at {move['close']:.2f} ({move['change_pct']:+.2f}%), {{}} the previous close."
        right, wrong = ("above", "below") if up else ("below", "above")
        _kept(question, en.format(right))
        _kept(question, bare.format(right))
        _kept(question, es.format("encima" if up else "debajo"))
        assert "wrong_direction" in _codes(question, en.format(wrong)), question
        assert "wrong_direction" in _codes(question, bare.format(wrong)), question
        assert "wrong_direction" in _codes(question, es.format("debajo" if up else "encima"))
        checked += 1
    assert checked >= 10, checked


def _positions() -> list[tuple[str, dict[str, Any]]]:
    out = []
    for question in sorted(q for q in FREE_TRACES if "/position/" in q):
        pos = _result(question, "get_position_pnl")
        if pos.get("day_pnl") and pos.get("pnl_pct"):
            out.append((question, pos))
    return out


def test_words_that_order_or_equate_assert_unless_a_figure_follows() -> None:
    """ "It lifted the portfolio" is the position's direction: `wrong_direction` on a losing
    day. "the least of its holdings", "which equals its weight", "that matches the benchmark"
    order or equate what no rule reads: `unverified_claim`. "equal to -0.14% of the
    portfolio" is a figure, checked as one."""
    checked = 0
    for question, pos in _positions():
        t, pid, pnl = pos["ticker"], pos["portfolio_id"], pos["day_pnl"]
        lead = f"{t} {'made' if pnl > 0 else 'lost'} ${abs(pnl):,.2f} ({pos['pnl_pct']:+.2f}%) in {pid}"
        right, wrong = ("lifted", "weighed on") if pnl > 0 else ("weighed on", "lifted")
        _kept(question, f"{lead}. It {right} the portfolio.")
        assert "wrong_direction" in _codes(question, f"{lead}. It {wrong} the portfolio.")
        _kept(question, f"{lead}, equal to {pos['contribution_pct']:+.2f}% of the portfolio.")
        for said in (
            ", the least of its holdings.",
            ", which equals its weight.",
            ". That matches the benchmark.",
        ):
            assert "unverified_claim" in _codes(question, lead + said), (question, said)
        checked += 1
    assert checked >= 20, checked


def test_words_that_equate_in_spanish_need_a_figure_after_them() -> None:
    """ "equivale a una contribución de -0,14 %", "lo que supuso una contribución de": a figure
    follows and is checked; "que equivale a su contribución" equates two fields no rule reads
    (`unverified_claim`)."""
    checked = 0
    for question, pos in _positions():
        t, pid, pnl = pos["ticker"], pos["portfolio_id"], pos["day_pnl"]
        lead = f"{t} {'ganó' if pnl > 0 else 'perdió'} {_es(abs(pnl))} $ ({_es(pos['pnl_pct'], True)} %) en {pid}"
        contribution = _es(pos["contribution_pct"], True)
        for verb in ("equivale a", "supuso", "representa"):
            _kept(question, f"{lead}, lo que {verb} una contribución de {contribution} %.")
        for bare in (", que equivale a su contribución.", ", lo que equivale a su peso."):
            assert "unverified_claim" in _codes(question, lead + bare), (question, bare)
        checked += 1
    assert checked >= 20, checked

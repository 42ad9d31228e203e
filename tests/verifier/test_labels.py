"""Labels name a value and state none: a table's header row and first cells, the key of a
"key: value" line and a heading with no figure may hold words no rule binds ("| Metric |
Reading |", "**ABXQ snapshot — quick glance**", "- Quick glance: ..."); the same words in a
sentence stay `unverified_claim`, and a label that makes a claim ("**ABXQ upgraded to Buy:**")
stays one too. Over the free-form night's real traces."""

from __future__ import annotations

from tests.verifier.test_unseen_prose import _closed, _moves, _positions, _result, _verdict


def _unbound(question: str, draft: str) -> list[str]:
    verdict = _verdict(question, draft)
    return [
        draft[r.span[0] : r.span[1]]
        for r in verdict.reasons
        if r.span and r.rule == "unverified_claim"
    ]


def test_words_in_label_positions_are_free_and_the_same_words_in_a_sentence_are_not() -> None:
    checked = 0
    for question, move, _ in _moves():
        t, close, pct = move["ticker"], move["close"], move["change_pct"]
        labelled = (
            f"**{t} snapshot — quick glance**\n{_closed(move)}",
            f"- Quick glance: {_closed(move)}",
            f"| Metric | Reading |\n|---|---|\n| Close | {close:.2f} |\n| Day change | {pct:+.2f}% |",
        )
        for draft in labelled:
            verdict = _verdict(question, draft)
            assert verdict.accepted, (question, draft, verdict.reasons)
        assert _unbound(question, f"{_closed(move)} A quick glance at the snapshot."), question
        assert _unbound(question, f"{_closed(move)} The reading is the metric."), question
        for glued in (
            f"Glance tidy. {t} snapshot: {_closed(move)}",
            f"Glance tidy. **{t} snapshot**",
        ):
            assert "tidy" in " ".join(_unbound(question, glued)), (question, glued)
        claimed = _unbound(question, f"**{t} upgraded to Buy:**\n{_closed(move)}")
        assert {"upgraded", "Buy"} <= set(claimed), (question, claimed)
        checked += 1
    assert checked >= 30


def test_a_rank_under_its_label_is_held_against_the_ranks() -> None:
    """ "- Contribution rank: 17 of 25", "| Return rank | 8 of 19 |", "Puesto por contribución:
    19 de 19": the holding's place by that measure; another place is `wrong_relation`."""
    checked = 0
    for question, pos in _positions():
        ranks = _result(question, "get_portfolio_ranks")
        row = next(
            (r for r in ranks.get("positions") or () if r.get("ticker") == pos["ticker"]), None
        )
        n = ranks.get("positions_count")
        if row is None or not isinstance(n, int) or n < 3:
            continue
        opening = (
            f"{pos['ticker']} contributed {pos['contribution_pct']:+.2f}% to {pos['portfolio_id']}."
        )
        by_pnl = {row["contribution_rank"], row["pnl_rank"]}  # what it added, in % or in $
        for label, held in (
            ("- Contribution rank: {} of {}", by_pnl),
            ("| Return rank | {} of {} |", {row["return_rank"]}),
            ("- Puesto por contribución: {} de {}", by_pnl),
        ):
            said = f"{opening}\n{label}"
            verdict = _verdict(question, said.format(min(held), n))
            assert verdict.accepted, (question, said, verdict.reasons)
            other = next(p for p in range(1, n + 1) if p not in held)
            codes = {str(r.rule) for r in _verdict(question, said.format(other, n)).reasons}
            assert "wrong_relation" in codes, (question, said.format(other, n))
        checked += 1
    assert checked >= 20

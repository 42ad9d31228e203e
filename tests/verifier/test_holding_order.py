"""One holding compared with another, over the free-form night's real position traces: each
faithful wording beside a corrupted twin.

"AXO contributed more than FBB", "rose less than OEE", "more than any other holding": the two
holdings' places by the measure the verb names (contribution, the day's return, weight), from
the position's own ranks and the ranks' lists of the top and bottom five. The wrong order is
`wrong_relation`; a comparison no result can place is `unverified_claim`, never taken on trust.
"""

from __future__ import annotations

from typing import Any

from tests.verifier.test_unseen_prose import FREE_TRACES, _codes, _kept, _result


def _positions() -> list[tuple[str, dict[str, Any], dict[str, Any]]]:
    out = []
    for question in sorted(q for q in FREE_TRACES if "/position/" in q):
        ranks, pos = _result(question, "get_portfolio_ranks"), _result(question, "get_position_pnl")
        if ranks.get("positions") and pos.get("day_pnl"):
            out.append((question, pos, ranks))
    return out


def _lead(pos: dict[str, Any]) -> str:
    pnl = pos["day_pnl"]
    return (
        f"{pos['ticker']} {'made' if pnl > 0 else 'lost'} ${abs(pnl):,.2f} ({pos['pnl_pct']:+.2f}%) "
        f"in {pos['portfolio_id']}, a contribution of {pos['contribution_pct']:+.2f}%."
    )


def test_a_holding_compared_with_another_by_contribution_or_return() -> None:
    checked = 0
    for question, pos, ranks in _positions():
        own = ranks["positions"][0]
        t = own["ticker"]
        for measure, verb, listed, rank in (
            ("contribution", "contributed", ranks["top_contributors"], own["contribution_rank"]),
            ("return", "performed", ranks["top_movers"], own["return_rank"]),
        ):
            other = next((u for u in listed if u != t), None)
            if other is None:
                continue
            theirs = listed.index(other) + 1
            right, wrong = ("more", "less") if rank < theirs else ("less", "more")
            if measure == "return":
                right, wrong = ("better", "worse") if rank < theirs else ("worse", "better")
            _kept(question, f"{_lead(pos)} {t} {verb} {right} than {other}.")
            said = f"{_lead(pos)} {t} {verb} {wrong} than {other}."
            assert "wrong_relation" in _codes(question, said), (question, measure, said)
        count = ranks["positions_count"]
        best = own["contribution_rank"] == 1
        every = f"{_lead(pos)} {t} contributed more than any other holding."
        if best:
            _kept(question, every)
        else:
            assert "wrong_relation" in _codes(question, every), (question, every)
        worst = own["contribution_rank"] == count
        least = f"{_lead(pos)} {t} contributed less than any other holding."
        if not worst:
            assert "wrong_relation" in _codes(question, least), (question, least)
        checked += 1
    assert checked >= 20, checked


def test_a_comparison_no_result_places_is_unchecked() -> None:
    """A holding listed in none of the ranks' lists has no place to compare by weight."""
    checked = 0
    for question, pos, ranks in _positions():
        t = ranks["positions"][0]["ticker"]
        listed = {*ranks["top_contributors"], *ranks["detractors"], *ranks["top_movers"]}
        other = next((u for u in sorted(listed) if u != t), None)
        if other is None:
            continue
        said = f"{_lead(pos)} {t} weighs more than {other}."
        assert "unverified_claim" in _codes(question, said), (question, said)
        checked += 1
    assert checked >= 20, checked


def test_a_second_comparison_of_a_sentence_is_its_subjects() -> None:
    """ "AXO contributed more than FBB but less than OEE": both comparisons are AXO's."""
    checked = 0
    for question, pos, ranks in _positions():
        own = ranks["positions"][0]
        t, rank, listed = own["ticker"], own["contribution_rank"], ranks["top_contributors"]
        above = [u for u in listed[: rank - 1] if u != t]
        below = [u for u in listed[rank:] if u != t]
        if not above or not below:
            continue
        _kept(
            question, f"{_lead(pos)} {t} contributed more than {below[0]} but less than {above[0]}."
        )
        wrong = f"{_lead(pos)} {t} contributed more than {below[0]} but less than {below[-1]}."
        assert "wrong_relation" in _codes(question, wrong), (question, wrong)
        checked += 1
    assert checked >= 3, checked


def test_a_direction_said_of_a_holding_whose_change_no_result_holds_is_unchecked() -> None:
    """ "MPSE rose.", "mientras OEE cayó": a holding named only in the ranks' lists has no day
    change in the trace, so its direction is `unverified_claim` either way; the position's own
    direction is checked as before."""
    checked = 0
    for question, pos, ranks in _positions():
        t = ranks["positions"][0]["ticker"]
        other = next((u for u in ranks["top_contributors"] if u != t), None)
        if other is None:
            continue
        for said in (f"{other} rose.", f"{other} fell.", f"{t} rose, while {other} fell."):
            assert "unverified_claim" in _codes(question, f"{_lead(pos)} {said}"), (question, said)
        es = f"{_lead(pos)} {t} {'subió' if pos['day_pnl'] > 0 else 'cayó'}, mientras {other} cayó."
        assert "unverified_claim" in _codes(question, es), (question, es)
        _kept(question, f"{_lead(pos)} {t} {'rose' if pos['day_pnl'] > 0 else 'fell'}.")
        checked += 1
    assert checked >= 20, checked


def test_the_only_holding_that_rose_or_fell_is_its_portfolios_one_gainer_or_decliner() -> None:
    """ "the only holding in the red", "el único valor de la cartera en verde": its portfolio's
    ranks count one decliner (or gainer), and the holding moved that way; the real books here
    have several of each, so the claim is `wrong_relation`; the same trace with one gainer and
    one decliner keeps it, said the holding's own way only."""
    import copy

    from verifier.verify import verify_json

    checked = 0
    for question, pos, _ in _positions():
        up = pos["day_pnl"] > 0
        en = f"{_lead(pos)} It was the only holding in the {'green' if up else 'red'}."
        es = f"{_lead(pos)} Fue el único valor de la cartera en {'verde' if up else 'rojo'}."
        for said in (en, es):
            assert "wrong_relation" in _codes(question, said), (question, said)
        trace = copy.deepcopy(FREE_TRACES[question])
        for event in trace["events"]:
            if event["tool"] == "get_portfolio_ranks":
                event["result"]["gainers"] = event["result"]["decliners"] = 1
        for said in (en, es):
            verdict = verify_json({**trace, "draft": said})
            assert verdict.accepted, (question, said, verdict.reasons)
        wrong_way = en.replace("green", "red") if up else en.replace("red", "green")
        assert not verify_json({**trace, "draft": wrong_way}).accepted, (question, wrong_way)
        checked += 1
    assert checked >= 20, checked


def test_a_day_said_to_go_the_benchmarks_or_another_holdings_way() -> None:
    """ "AXO ganó un 1,31 %, como el índice", "like the benchmark", "and so did the benchmark":
    the benchmark's return has the holding's sign (`wrong_direction` otherwise); "como MPSE",
    "as did MPSE", "tanto como OEE" compare with a holding whose day no result holds
    (`unverified_claim`)."""
    checked = 0
    for question, pos, ranks in _positions():
        bench = (ranks.get("benchmark") or {}).get("return_pct")
        if not bench:
            continue
        same = (bench > 0) == (pos["day_pnl"] > 0)
        t = pos["ticker"]
        other = next((u for u in ranks["top_contributors"] if u != t), None)
        for said in (
            f"{_lead(pos)[:-1]}, like the benchmark.",
            f"{_lead(pos)[:-1]}, como el índice.",
            f"{_lead(pos)[:-1]}, and so did the benchmark.",
        ):
            if same:
                _kept(question, said)
            else:
                assert "wrong_direction" in _codes(question, said), (question, said)
        if other is not None:
            for said in (
                f"{_lead(pos)[:-1]}, as did {other}.",
                f"{_lead(pos)[:-1]}, tanto como {other}.",
            ):
                assert "unverified_claim" in _codes(question, said), (question, said)
        checked += 1
    assert checked >= 20, checked

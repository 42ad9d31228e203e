"""Where a figure belongs when the sentence says it around the figure, over the free-form
night's real position traces: a holding placed in its portfolio by the portfolio's name, a
figure said "for the benchmark" right after it, a ranking's label that names its measure
("Rank by weight: 3 of 19"). Each faithful wording is kept and its twin with one thing wrong
is rejected."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tests.verifier.test_unseen_prose import _es, _positions, _result, _verdict


def _question_of(position: dict[str, Any]) -> str:
    return f"{position['ticker']}/position/{position['portfolio_id']}"


def _held() -> list[tuple[str, dict[str, Any], dict[str, Any], dict[str, Any]]]:
    """Each position with its portfolio's ranks and its own row among them."""
    out = []
    for question, position in _positions():
        ranks = _result(question, "get_portfolio_ranks")
        rows = [r for r in ranks.get("positions", []) if r["ticker"] == position.get("ticker")]
        if position.get("day_pnl") and ranks.get("portfolio_day_pnl") and rows:
            out.append((question, position, ranks, rows[0]))
    return out


def test_a_holding_placed_in_its_named_portfolio_is_the_subject_of_the_verb() -> None:
    """ "the YRAN holding in the Dividend Income portfolio lost 4,073.13": the holding's loss;
    the portfolio's own day P&L said so is `wrong_subject`."""
    checked = 0
    for question, position, ranks, _ in _held():
        if abs(abs(position["day_pnl"]) - abs(ranks["portfolio_day_pnl"])) < 1:
            continue
        t, name = position["ticker"], position["name"]
        said = f"On Tuesday, the {t} holding in the {name} portfolio {{verb}} {{amount:,.2f}} ({{pct:+.2f}}%)."
        verb = "gained" if position["day_pnl"] > 0 else "lost"
        kept = _verdict(
            question,
            said.format(verb=verb, amount=abs(position["day_pnl"]), pct=position["pnl_pct"]),
        )
        assert kept.accepted, (question, kept.reasons)
        wrong = _verdict(
            question,
            said.format(
                verb="gained" if ranks["portfolio_day_pnl"] > 0 else "lost",
                amount=abs(ranks["portfolio_day_pnl"]),
                pct=position["pnl_pct"],
            ),
        )
        assert "wrong_subject" in {r.rule.value for r in wrong.reasons}, (question, wrong.reasons)
        checked += 1
    assert checked >= 20


def test_a_figure_said_for_the_benchmark_right_after_it_is_the_benchmark_s_alone() -> None:
    """ "+1.45% versus -0.57% for the equal-weight universe": the second figure is the
    benchmark's, words before its name or not; the holding's own return said there is
    `wrong_subject`, though the sentence names the holding."""
    checked = 0
    for question, position, ranks, row in _held():
        bench = ranks["benchmark"]["return_pct"]
        own = row["day_return_pct"]
        if abs(own - bench) < 0.05:
            continue
        t = position["ticker"]
        for name in ("equal-weight universe", "benchmark", "59-stock universe"):
            said = f"{t} returned {own:+.2f}% versus {{:+.2f}}% for the {name}."
            kept = _verdict(question, said.format(bench))
            assert kept.accepted, (question, name, kept.reasons)
            wrong = _verdict(question, said.format(own))
            assert "wrong_subject" in {r.rule.value for r in wrong.reasons}, (question, name)
        checked += 1
    assert checked >= 20


def test_a_rank_label_that_names_its_measure_is_held_against_that_ranking() -> None:
    """ "Rank by weight: 15 of 25" is the weight ranking's place, and "Rank by P&L: 24 of 25"
    the P&L's; the number is no figure of the measure it names ("24" is no day P&L)."""
    checked = 0
    for question, position, ranks, row in _held():
        t, count = position["ticker"], ranks["positions_count"]
        lead = f"{t} contributed {position['contribution_pct']:+.2f}%."
        for measure, key in (("weight", "weight_rank"), ("P&L", "pnl_rank")):
            place = row[key]
            kept = _verdict(question, f"{lead}\n- Rank by {measure}: {place} of {count}")
            assert kept.accepted, (question, measure, kept.reasons)
            if measure == "weight":  # P&L and contribution share their order but for ties
                other = place + 3 if place + 3 <= count else place - 3
                wrong = _verdict(question, f"{lead}\n- Rank by {measure}: {other} of {count}")
                assert "wrong_relation" in {r.rule.value for r in wrong.reasons}, question
        checked += 1
    assert checked >= 20


def _against_benchmark(said: Callable[[dict[str, Any], str], str], above: str, below: str) -> int:
    """Over each portfolio whose day differs from its benchmark's: `said(position, word)` with
    the word of its side kept, with the other side's `wrong_relation`; how many were held."""
    checked = 0
    for question, position, ranks, _ in _held():
        own, bench = ranks["portfolio_return_pct"], ranks["benchmark"]["return_pct"]
        if abs(own - bench) < 0.05:
            continue
        right, wrong = (above, below) if own > bench else (below, above)
        kept = _verdict(question, said(position, right))
        assert kept.accepted, (question, kept.reasons)
        rejected = _verdict(question, said(position, wrong))
        assert "wrong_relation" in {r.rule.value for r in rejected.reasons}, question
        checked += 1
    return checked


def test_the_equal_weighted_reference_index_is_the_benchmark_in_spanish() -> None:
    """ "inferior al índice de referencia equiponderado (-0,57 %)": the benchmark's figure, the
    relation held against it; the other side is `wrong_relation`."""

    def said(position: dict[str, Any], side: str) -> str:
        ranks = _result(_question_of(position), "get_portfolio_ranks")
        own, bench = ranks["portfolio_return_pct"], ranks["benchmark"]["return_pct"]
        return (
            f"La cartera {position['portfolio_id']} rindió {_es(own, True)} %, {side} al índice "
            f"de referencia equiponderado ({_es(bench, True)} %)."
        )

    assert _against_benchmark(said, "superior", "inferior") >= 20


def test_a_holding_denied_both_lists_with_ni_is_held_against_both() -> None:
    """ "No aparece ni entre los cinco mayores contribuyentes ni entre los cinco mayores
    detractores": kept for a holding on neither list, `wrong_relation` for one on either."""
    kept = wrong = 0
    for question, position, ranks, _ in _held():
        t = position["ticker"]
        lists = ("contributors", "top_contributors", "detractors", "top_detractors")
        listed = any(t in ranks.get(key, []) for key in lists)
        said = (
            f"{t} contribuyó {_es(position['contribution_pct'], True)} %. No aparece ni entre "
            "los cinco mayores contribuyentes ni entre los cinco mayores detractores."
        )
        verdict = _verdict(question, said)
        if listed:
            assert "wrong_relation" in {r.rule.value for r in verdict.reasons}, question
            wrong += 1
        else:
            assert verdict.accepted, (question, verdict.reasons)
            kept += 1
    assert kept >= 10 and wrong >= 10


def test_the_portfolio_named_right_before_a_comparison_is_its_subject_after_a_ticker() -> None:
    """ "PCDM in P002 (Dec 31). Overall the portfolio beat its benchmark" read as one sentence
    (a heading without a full stop): the portfolio is what beat or lagged, not the ticker."""

    def said(position: dict[str, Any], side: str) -> str:
        t = position["ticker"]
        return (
            f"**{t} in {position['portfolio_id']}** (December 31, 2024) Overall, the portfolio "
            f"{side} its benchmark that day. {t} contributed {position['contribution_pct']:+.2f}%."
        )

    assert _against_benchmark(said, "beat", "lagged") >= 20


def test_what_a_figure_comes_to_stands_beside_a_checked_figure_only() -> None:
    """ "That translates into a contribution of -0.17%", "eso supuso una pérdida de 202,80":
    words of what a figure comes to, free beside a figure a rule checked; the wrong figure is
    still rejected, and the words alone ("That translates into a gain.") are a claim."""
    checked = 0
    for question, position, _, _ in _held():
        t, contrib, pnl = position["ticker"], position["contribution_pct"], position["day_pnl"]
        lead = f"{t} made {pnl:+,.2f} on the day."
        said = f"{lead} That translates into a contribution of {{:+.2f}}% to the portfolio."
        kept = _verdict(question, said.format(contrib))
        assert kept.accepted, (question, kept.reasons)
        assert not _verdict(question, said.format(contrib + 0.37)).accepted, question
        es = f"{t}: eso supuso un resultado de {_es(pnl, True)} y una contribución de {_es(contrib, True)} %."
        kept = _verdict(question, es)
        assert kept.accepted, (question, kept.reasons)
        assert not _verdict(question, f"{lead} That translates into a gain.").accepted, question
        checked += 1
    assert checked >= 20


def test_a_portfolio_placed_by_its_noun_and_id_in_an_earlier_sentence_is_no_later_subject() -> None:
    """ "... a la rentabilidad diaria de la cartera P002. El resultado del día fue de 865,92
    (+1,61 %)": the holding's; the portfolio's -0,90 % said there is `wrong_subject`."""
    checked = 0
    for question, position, ranks, _ in _held():
        own, book = position["pnl_pct"], ranks["portfolio_return_pct"]
        if abs(own - book) < 0.05:
            continue
        said = (
            f"La posición en {position['ticker']} aportó {_es(position['contribution_pct'], True)} % "
            f"a la rentabilidad diaria de la cartera {position['portfolio_id']} el 2024-12-31. "
            f"El resultado del día fue de {_es(position['day_pnl'])} ({{}} %)."
        )
        kept = _verdict(question, said.format(_es(own, True)))
        assert kept.accepted, (question, kept.reasons)
        wrong = _verdict(question, said.format(_es(book, True)))
        assert "wrong_subject" in {r.rule.value for r in wrong.reasons}, question
        checked += 1
    assert checked >= 20


def _ordinal(n: int) -> str:
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


def test_a_rank_said_by_its_measure_without_a_count_is_held_against_that_ranking() -> None:
    """ "Weight: 3.09% (rank 15 by weight)", "It ranked 25th of 25 by day return": the place
    in the ranking the measure names; another place is `wrong_relation`."""
    checked = 0
    for question, position, ranks, row in _held():
        t, count = position["ticker"], ranks["positions_count"]
        lead = f"{t} contributed {position['contribution_pct']:+.2f}%."
        weight, ret = row["weight_rank"], row["return_rank"]
        other_w = weight + 2 if weight + 2 <= count else weight - 2
        other_r = ret + 2 if ret + 2 <= count else ret - 2
        said = f"{lead} Weight: {row['weight_pct']:.2f}% (rank {{}} by weight)"
        kept = _verdict(question, said.format(weight))
        assert kept.accepted, (question, kept.reasons)
        assert "wrong_relation" in {
            r.rule.value for r in _verdict(question, said.format(other_w)).reasons
        }
        by_return = f"{lead} It ranked {{}} of {count} by day return."
        kept = _verdict(question, by_return.format(_ordinal(ret)))
        assert kept.accepted, (question, kept.reasons)
        wrong = _verdict(question, by_return.format(_ordinal(other_r)))
        assert "wrong_relation" in {r.rule.value for r in wrong.reasons}, question
        checked += 1
    assert checked >= 20


def _ranks_of(row: dict[str, Any]) -> tuple[int, int, int, int]:
    """A holding's places by contribution, dollar P&L, day return and weight."""
    c, p, r, w = (row[k] for k in ("contribution_rank", "pnl_rank", "return_rank", "weight_rank"))
    return c, p, r, w


def _off(place: int, count: int, *taken: int) -> int:
    """A place of the portfolio that is none of the places taken."""
    return next(n for n in range(1, count + 1) if n not in {place, *taken})


def test_a_place_said_with_its_count_is_the_place_of_the_measure_its_words_name() -> None:
    """Places out of the positions said the many ways reports say them: the measure on the
    bullet's line ("• Contribution: -0.08%; rank 19 of 25"), a label over several ("Ranks —
    contribution 8/19, return 8/19, weight 12/19"), "number 3 of 10 holdings by P&L", "ocupa
    el lugar 18 de 25 por P&L", "by daily return it ranked", "ranked 15." after the measure's
    figure. Each is the place the
    named ranking gives; one off, or the dollar P&L's place said as the contribution's where the
    two differ, is `wrong_relation`."""
    checked = split = 0
    for question, position, ranks, row in _held():
        t, n = position["ticker"], ranks["positions_count"]
        c, p, r, w = _ranks_of(row)
        opening = (
            f"{t} contributed {position['contribution_pct']:+.2f}% to {position['portfolio_id']}. "
        )
        head = f"{position['portfolio_id']} — {t}\n"
        said = {
            "bullet": (
                head + f"• Contribution: {position['contribution_pct']:+.2f}%; rank {{c}} of {n}\n",
                {"c": c},
                {"c": _off(c, n, p)},
            ),
            "label": (
                head
                + opening
                + f"Ranks — contribution {{c}}/{n}, return {{r}}/{n}, weight {{w}}/{n}.",
                {"c": c, "r": r, "w": w},
                {"c": c, "r": r, "w": _off(w, n)},
            ),
            "by": (
                opening + f"It ranks number {{p}} of {n} holdings by P&L.",
                {"p": p},
                {"p": _off(p, n, c)},
            ),
            "es": (
                opening + f"Ocupa el lugar {{p}} de {n} por P&L.",
                {"p": p},
                {"p": _off(p, n, c)},
            ),
            "lead": (
                opening + f"By daily return it ranked number {{r}} out of {n} positions.",
                {"r": r},
                {"r": _off(r, n)},
            ),
            "after": (
                opening + f"Its day return of {row['day_return_pct']:+.2f}% ranked {{r}}.",
                {"r": r},
                {"r": _off(r, n)},
            ),
        }
        for form, (text, right, wrong) in said.items():
            kept = _verdict(question, text.format(**right))
            assert kept.accepted, (question, form, kept.reasons)
            codes = {x.rule.value for x in _verdict(question, text.format(**wrong)).reasons}
            assert "wrong_relation" in codes, (question, form, codes)
        if c != p:  # the dollars' place said as the contribution's
            text, right, _ = said["label"]
            codes = {
                x.rule.value for x in _verdict(question, text.format(**{**right, "c": p})).reasons
            }
            assert "wrong_relation" in codes, (question, codes)
            split += 1
        checked += 1
    assert checked >= 30 and split >= 3, (checked, split)


def test_a_place_in_brackets_after_a_figure_is_that_figure_s_place() -> None:
    """A card's lines "- Day return: +4.85% (1st of 25)", "- Contribution: +0.10% (3rd)", "-
    Weight: 2.1% (18th by weight)", "(puesto 3.º)": the bracket places the holding by the
    measure of the figure before it (or the one it names); one off is `wrong_relation`. A place
    in digits that no rule reads ("the 3rd name") is no figure and no free word: it is
    `unverified_claim`, not taken as any 3 of the trace."""
    checked = 0
    for question, position, ranks, row in _held():
        t, n = position["ticker"], ranks["positions_count"]
        c, p, r, w = _ranks_of(row)
        card = (
            f"**{t} in {position['portfolio_id']}**\n"
            f"- Day return: {row['day_return_pct']:+.2f}% ({{r}} of {n})\n"
            f"- P&L: {position['day_pnl']:+,.2f} ({{p}} by P&L)\n"
            f"- Contribution: {position['contribution_pct']:+.2f}% ({{c}})\n"
            f"- Weight: {row['weight_pct']:.2f}% ({{w}} by weight)"
        )
        right = {"r": r, "p": p, "c": c, "w": w}
        kept = _verdict(question, card.format(**{k: _ordinal(v) for k, v in right.items()}))
        assert kept.accepted, (question, kept.reasons)
        for key in right:
            off = {**right, key: _off(right[key], n, p if key == "c" else c if key == "p" else 0)}
            wrong = _verdict(question, card.format(**{k: _ordinal(v) for k, v in off.items()}))
            assert "wrong_relation" in {x.rule.value for x in wrong.reasons}, (question, key)
        es = f"{t} aportó {_es(position['contribution_pct'], True)} % (puesto {{}}.º de {n})."
        assert _verdict(question, es.format(c)).accepted, (question, es)
        assert not _verdict(question, es.format(_off(c, n, p))).accepted, (question, es)
        loose = f"{t} contributed {position['contribution_pct']:+.2f}%, the {_ordinal(c)} name."
        codes = {x.rule.value for x in _verdict(question, loose).reasons}
        assert "unverified_claim" in codes, (question, loose)
        checked += 1
    assert checked >= 30


def test_a_place_in_brackets_after_a_ranking_restates_it_from_the_top() -> None:
    """ "the smallest position in P003 (0.38%, 19th of 19)", "the worst performer (25th of
    25)": the bracket counts from the top whatever end the ranking names; a place one off, or
    out of another count, is `wrong_relation` even where the ranking itself holds."""
    checked = 0
    for question, position, ranks, row in _held():
        t, n, pid = position["ticker"], ranks["positions_count"], position["portfolio_id"]
        opening = f"{t} contributed {position['contribution_pct']:+.2f}% to {pid}. "
        for key, end, phrase in (
            ("weight_rank", n, "the smallest position"),
            ("weight_rank", 1, "the largest position"),
            ("return_rank", n, "the worst performer"),
            ("return_rank", 1, "the best performer"),
        ):
            if row[key] != end:
                continue
            said = opening + f"It is {phrase} in {pid} ({{}} of {{}})."
            kept = _verdict(question, said.format(_ordinal(end), n))
            assert kept.accepted, (question, phrase, kept.reasons)
            for wrong in (
                said.format(_ordinal(_off(end, n)), n),
                said.format(_ordinal(end), n + 1),
            ):
                codes = {x.rule.value for x in _verdict(question, wrong).reasons}
                assert "wrong_relation" in codes, (question, wrong, codes)
            checked += 1
    assert checked >= 8, checked


def test_a_share_of_assets_is_the_weight_and_a_title_before_a_dash_is_a_heading() -> None:
    """ "The position, 7.74% of assets, ...", "el 7,74 % de los activos": the weight; the
    holding's return said so is `wrong_field`. "Flash — AXO." over the note, on its own line or
    opening it, is a title whose words assert nothing; "Upgrade — AXO." still says what no tool
    returns, and a sector in brackets beside a title is a fact to check."""
    checked = 0
    for question, position, _, row in _held():
        t, weight, pct = position["ticker"], row["weight_pct"], position["pnl_pct"]
        if abs(abs(pct) - weight) < 0.05:
            continue
        opening = (
            f"{t} contributed {position['contribution_pct']:+.2f}% to {position['portfolio_id']}."
        )
        english = f"Flash — {t}.\n{opening} The position is {{:.2f}}% of assets."
        spanish = f"Panel | {t}\n{opening} La posición supone el {{}} % de los activos."
        for right, wrong in (
            (english.format(weight), english.format(abs(pct))),
            (spanish.format(_es(weight)), spanish.format(_es(abs(pct)))),
        ):
            kept = _verdict(question, right)
            assert kept.accepted, (question, right, kept.reasons)
            assert not _verdict(question, wrong).accepted, (question, wrong)
        for title in (f"Flash — {t}. ", f"Comentario de gestión — {position['name']}. "):
            kept = _verdict(question, title + opening)
            assert kept.accepted, (question, title, kept.reasons)
        other = "salud" if row.get("sector") != "Health Care" else "energía"
        for title in (f"Upgrade — {t}.\n", f"Upgrade — {t}. ", f"Panel | {t} (sector {other})\n"):
            upgrade = _verdict(question, title + opening)
            assert "unverified_claim" in {x.rule.value for x in upgrade.reasons}, question
        checked += 1
    assert checked >= 20


def test_a_boost_or_a_drag_on_the_portfolio_is_the_sign_of_the_holding_s_day() -> None:
    """ "VYV was a boost to P003's return on Tuesday, Dec. 31", "It took away $979.11": the
    holding's day figures must have that sign (a date without its year that is the report's
    is the day); the other word is `wrong_direction`."""
    checked = 0
    for question, position, _, _ in _held():
        t, pid, pnl = position["ticker"], position["portfolio_id"], position["day_pnl"]
        if not position["contribution_pct"] or (pnl > 0) != (position["contribution_pct"] > 0):
            continue
        right, wrong = ("a boost to", "a drag on") if pnl > 0 else ("a drag on", "a boost to")
        said = f"{t} was {{}} {pid}'s return on Tuesday, Dec. 31, at {position['contribution_pct']:+.2f} percentage points."
        kept = _verdict(question, said.format(right))
        assert kept.accepted, (question, kept.reasons)
        codes = {x.rule.value for x in _verdict(question, said.format(wrong)).reasons}
        assert "wrong_direction" in codes, (question, codes)
        if pnl < 0:
            took = f"{t} contributed {position['contribution_pct']:+.2f}%. It took away ${abs(pnl):,.2f}."
            kept = _verdict(question, took)
            assert kept.accepted, (question, kept.reasons)
        checked += 1
    assert checked >= 20


def test_the_portfolio_as_a_label_as_a_comparison_s_subject_and_as_a_heading_s_place() -> None:
    """ "Cartera completa: -0,90 %" and "The portfolio outpaced the equal-weight universe,
    finishing up 0.52% against down 0.57%" state the portfolio's return (the holding's said
    there is `wrong_subject`); under "**ILLR / P002**" the lines are the holding's, so the
    portfolio's market value there is `wrong_subject`."""
    checked = 0
    for question, position, ranks, row in _held():
        t, pid = position["ticker"], position["portfolio_id"]
        mine, whole = row["day_return_pct"], ranks.get("portfolio_return_pct")
        bench = (ranks.get("benchmark") or {}).get("return_pct")
        if whole is None or bench is None or abs(abs(mine) - abs(whole)) < 0.05 or whole <= bench:
            continue
        opening = f"{t} contributed {position['contribution_pct']:+.2f}% to {pid}.\n"
        label = opening + "- Cartera completa: {} %"
        assert _verdict(question, label.format(_es(whole, True))).accepted, question
        codes = {x.rule.value for x in _verdict(question, label.format(_es(mine, True))).reasons}
        assert "wrong_subject" in codes, (question, codes)

        def way(v: float) -> str:
            return f"{'up' if v >= 0 else 'down'} {abs(v):.2f}%"

        said = (
            opening + "The portfolio outpaced the equal-weight universe, finishing {} against {}."
        )
        kept = _verdict(question, said.format(way(whole), way(bench)))
        assert kept.accepted, (question, kept.reasons)
        codes = {
            x.rule.value for x in _verdict(question, said.format(way(mine), way(bench))).reasons
        }
        assert "wrong_subject" in codes, (question, codes)

        card = f"**{t} / {pid}**\n- Contribution: {position['contribution_pct']:+.2f} pp\n- Market value: ${{:,.2f}}"
        assert _verdict(question, card.format(position["market_value"])).accepted, question
        codes = {
            x.rule.value for x in _verdict(question, card.format(ranks["market_value"])).reasons
        }
        assert "wrong_subject" in codes, (question, codes)
        checked += 1
    assert checked >= 10, checked


def test_percentage_points_as_p_p_a_letter_s_set_phrases_and_the_stock_by_its_noun() -> None:
    """ "Contribución: -0,01 p.p." is a figure in points (one off is rejected); a letter's
    closing ("Please do not hesitate to contact us", "Quedamos a su disposición") asserts
    nothing; "El valor quedó por encima del universo equiponderado" compares the holding named
    before, not the portfolio (the wrong side is `wrong_relation`)."""
    checked = 0
    for question, position, ranks, row in _held():
        t, c = position["ticker"], position["contribution_pct"]
        bench = (ranks.get("benchmark") or {}).get("return_pct")
        mine = row["day_return_pct"]
        if bench is None or abs(mine - bench) < 0.05 or not c:
            continue
        head = f"{t} en {position['portfolio_id']}: {_es(mine, True)} % en la sesión.\n"
        points = head + "Contribución: {} p.p."
        assert _verdict(question, points.format(_es(c, True))).accepted, question
        assert not _verdict(question, points.format(_es(c + 0.01, True))).accepted, question
        letter = (
            f"{t} contributed {c:+.2f}% to {position['portfolio_id']}. Please do not hesitate "
            "to contact us; we remain at your disposal for any further information.\n"
            "Quedamos a su disposición para cualquier consulta."
        )
        kept = _verdict(question, letter)
        assert kept.accepted, (question, kept.reasons)
        side, other = ("encima", "debajo") if mine > bench else ("debajo", "encima")
        said = head + "El valor quedó por {} del universo equiponderado ({} %)."
        kept = _verdict(question, said.format(side, _es(bench, True)))
        assert kept.accepted, (question, kept.reasons)
        codes = {
            x.rule.value for x in _verdict(question, said.format(other, _es(bench, True))).reasons
        }
        assert "wrong_relation" in codes, (question, codes)
        checked += 1
    assert checked >= 20, checked


def test_places_and_the_portfolio_as_the_press_writes_them() -> None:
    """ "HEX fue el 3.º de 25 por contribución", "Weight: 3.76%, 12th largest of 25" (one off is
    `wrong_relation`); "The portfolio as a whole finished the day down 2.30%", "La cartera
    terminó con un alza del 1,40 %" are the portfolio's (the holding's there is
    `wrong_subject`)."""
    checked = 0
    for question, position, ranks, row in _held():
        t, n, c, w = (
            position["ticker"],
            ranks["positions_count"],
            row["contribution_rank"],
            row["weight_rank"],
        )
        whole, mine = ranks.get("portfolio_return_pct"), row["day_return_pct"]
        if whole is None or abs(abs(whole) - abs(mine)) < 0.05 or not whole or not mine:
            continue
        opening = (
            f"{t} contributed {position['contribution_pct']:+.2f}% to {position['portfolio_id']}. "
        )
        es = (
            opening
            + f"{t} fue el {{}}.º de {n} por contribución en la cartera {position['portfolio_id']}."
        )
        assert _verdict(question, es.format(c)).accepted, question
        codes = {
            x.rule.value for x in _verdict(question, es.format(_off(c, n, row["pnl_rank"]))).reasons
        }
        assert "wrong_relation" in codes, (question, codes)
        largest = opening + f"Weight: {row['weight_pct']:.2f}%, {{}} largest of {n}."
        assert _verdict(question, largest.format(_ordinal(w))).accepted, question
        codes = {
            x.rule.value for x in _verdict(question, largest.format(_ordinal(_off(w, n)))).reasons
        }
        assert "wrong_relation" in codes, (question, codes)
        for said in (
            opening + "The portfolio as a whole finished the day {} {:.2f}%.",
            opening + "La cartera terminó con {} del {} %.",
        ):

            def fill(v: float, text: str = said) -> str:
                if "cartera" in text:
                    return text.format("un alza" if v > 0 else "una caída", _es(abs(v)))
                return text.format("up" if v > 0 else "down", abs(v))

            kept = _verdict(question, fill(whole))
            assert kept.accepted, (question, kept.reasons)
            codes = {x.rule.value for x in _verdict(question, fill(mine)).reasons}
            assert "wrong_subject" in codes, (question, codes)
        checked += 1
    assert checked >= 15, checked


def test_a_place_after_a_figure_and_a_comma_and_a_close_said_previously() -> None:
    """ "Contribution: +0.12%, 3rd of 10." is the contribution's place (one off is
    `wrong_relation`); "closed at $287.14 against $283.43 previously" names the previous close."""
    checked = 0
    for question, position, ranks, row in _held():
        n, c = ranks["positions_count"], row["contribution_rank"]
        said = f"{position['ticker']} in {position['portfolio_id']}\nContribution: {position['contribution_pct']:+.2f}%, {{}} of {n}."
        assert _verdict(question, said.format(_ordinal(c))).accepted, question
        codes = {
            x.rule.value
            for x in _verdict(question, said.format(_ordinal(_off(c, n, row["pnl_rank"])))).reasons
        }
        assert "wrong_relation" in codes, (question, codes)
        prev = f"{position['ticker']} contributed {position['contribution_pct']:+.2f}%; it closed at ${{:.2f}} against ${{:.2f}} previously."
        assert _verdict(
            question, prev.format(position["close"], position["previous_close"])
        ).accepted
        checked += 1
    assert checked >= 30

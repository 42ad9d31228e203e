"""The day's rank lists said as lists of tickers, a heading's day over the lines under it, a
bound said of a move, and a figure said of the portfolio in a draft that names no ticker, over
the free-form night's real traces: each faithful draft is made from the trace's own results
beside a twin with one thing wrong, so the test fails if the binding is removed (the twin
passes) or drawn too wide (the faithful one fails)."""

from __future__ import annotations

from datetime import date
from typing import Any

from tests.verifier.test_unseen_prose import (
    _closed,
    _es,
    _kept,
    _moves,
    _positions,
    _result,
    _verdict,
)
from verifier.verify import verify_json as verify

_LABELS = {
    "top_contributors": ("Top contributors were {}.", "Los principales contribuidores fueron {}."),
    "detractors": ("The biggest detractors: {}.", "Los mayores lastres, {}."),
    "top_movers": ("Best movers: {}.", "Los mejores valores: {}."),
    "bottom_movers": ("Worst performers were {}.", "Los peores valores fueron {}."),
}


def _ranked() -> list[tuple[str, dict[str, Any]]]:
    out = []
    for question, _ in _positions():
        ranks = _result(question, "get_portfolio_ranks")
        if all(len(ranks.get(key) or []) >= 3 for key in _LABELS):
            out.append((question, ranks))
    return out


def _answer(question: str) -> str:
    """The answer's opening: the holding's contribution, which the question asks for."""
    p = _result(question, "get_position_pnl")
    return f"{p['ticker']} contributed {p['contribution_pct']:+.2f}% to {p['portfolio_id']}. "


def _joined(symbols: list[str], spanish: bool) -> str:
    return f"{', '.join(symbols[:-1])} {'y' if spanish else 'and'} {symbols[-1]}"


def test_a_rank_list_said_as_tickers_holds_only_the_list_s_tickers() -> None:
    """ "Top contributors were A, B and C": each must be in the ranks' list; one from the other
    end of the day is `wrong_relation`, in either language."""
    checked = 0
    for question, ranks in _ranked():
        opposite = {
            "top_contributors": "detractors",
            "detractors": "top_contributors",
            "top_movers": "bottom_movers",
            "bottom_movers": "top_movers",
        }
        for key, wordings in _LABELS.items():
            right = list(ranks[key][:3])
            stray = next(t for t in ranks[opposite[key]] if t not in ranks[key])
            for spanish, wording in enumerate(wordings):
                said = _answer(question) + wording.format(_joined(right, bool(spanish)))
                kept = _verdict(question, said)
                assert kept.accepted, (question, said, kept.reasons)
                wrong = _answer(question) + wording.format(
                    _joined([*right[:2], stray], bool(spanish))
                )
                codes = {r.rule for r in _verdict(question, wrong).reasons}
                assert "wrong_relation" in codes, (question, wrong)
        checked += 1
    assert checked >= 30


def test_the_head_of_a_rank_list_is_its_first_ticker() -> None:
    """ "FSA leading the contributor list", "OEE fue el mayor contribuidor", "XMQ heading the
    detractors": the ticker must be the list's first; its second is `wrong_relation`."""
    for question, ranks in _ranked():
        first, second = ranks["top_contributors"][:2]
        worst, next_worst = ranks["detractors"][:2]
        for said, ok in (
            (f"{first} was leading the contributor list.", True),
            (f"{second} was leading the contributor list.", False),
            (f"{first} fue el mayor contribuidor.", True),
            (f"{second} fue el mayor contribuidor.", False),
            (f"With {worst} heading the detractors.", True),
            (f"With {next_worst} heading the detractors.", False),
        ):
            verdict = _verdict(question, _answer(question) + said)
            assert verdict.accepted == ok, (question, said, verdict.reasons)
            if not ok:
                assert {r.rule for r in verdict.reasons} == {"wrong_relation"}, said


def test_a_heading_s_day_is_the_day_of_the_lines_under_it() -> None:
    """ "Cartera P003 — 30 de diciembre:" over bullets of the report day's figures states them
    for the 30th: `wrong_time`; the heading with the report day keeps them."""
    checked = 0
    for question, ranks in _ranked():
        pid, pnl = ranks["portfolio_id"], ranks["portfolio_day_pnl"]
        body = f"\n• Resultado: {_es(pnl)} $\n• Índice: {_es(ranks['benchmark']['return_pct'])} %"
        lead = _answer(question) + "\n\n"
        kept = _verdict(question, f"{lead}Cartera {pid} — 31 de diciembre:{body}")
        assert kept.accepted, (question, kept.reasons)
        wrong = _verdict(question, f"{lead}Cartera {pid} — 30 de diciembre:{body}")
        assert "wrong_time" in {r.rule for r in wrong.reasons}, question
        checked += 1
    assert checked >= 30


def test_a_portfolio_figure_in_a_draft_without_tickers_is_the_portfolio_s() -> None:
    """ "The portfolio gained $X on the day" with the holding's P&L for X is `wrong_subject`,
    in a draft that names no ticker as in one that does; the portfolio's own P&L is kept."""
    checked = 0
    for question, ranks in _ranked():
        position = _result(question, "get_position_pnl")
        own, theirs = ranks["portfolio_day_pnl"], position["day_pnl"]
        if own * theirs <= 0 or abs(own) == abs(theirs):
            continue
        verb = "gained" if own > 0 else "lost"
        share = f"Its contribution was {position['contribution_pct']:+.2f}%. "
        kept = _verdict(question, f"The portfolio {verb} ${abs(own):,.2f} on the day. {share}")
        assert kept.accepted, (question, kept.reasons)
        wrong = _verdict(question, f"The portfolio {verb} ${abs(theirs):,.2f} on the day. {share}")
        assert "wrong_subject" in {r.rule for r in wrong.reasons}, question
        checked += 1
    assert checked >= 10


def test_a_bound_said_of_a_move_holds_for_the_move_s_window() -> None:
    """ "Over the quarter, X is up more than N%": the bound is the quarter's move's, so a
    bound the quarter's change is on the wrong side of is rejected; "algo más del N %" too."""
    checked = 0
    for question, move, windows in _moves():
        quarter = windows.get("quarter", {}).get("change_pct")
        t, pct = move["ticker"], move["change_pct"]
        if not quarter or abs(quarter) < 1 or not pct or abs(pct) < 0.2:
            continue
        up = "up" if quarter > 0 else "down"
        below, above = int(abs(quarter)), int(abs(quarter)) + 1
        kept = _verdict(question, f"Over the quarter, {t} is {up} more than {below}%.")
        assert kept.accepted, (question, kept.reasons)
        assert not _verdict(question, f"Over the quarter, {t} is {up} more than {above}%.").accepted
        verb = "subió" if pct > 0 else "cayó"
        low, high = f"{abs(pct) * 0.9:.1f}".replace(".", ","), f"{abs(pct) * 1.1:.1f}"
        kept = _verdict(question, f"{t} {verb} algo más del {low} % en la sesión de hoy.")
        assert kept.accepted, (question, kept.reasons)
        wrong = f"{t} {verb} algo más del {high.replace('.', ',')} % en la sesión de hoy."
        assert not _verdict(question, wrong).accepted, (question, wrong)
        checked += 1
    assert checked >= 10


def _ordinal(n: int) -> str:
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


def test_a_place_whose_measure_opens_its_clause_is_held_by_that_measure() -> None:
    """ "On contribution it ranked 1st out of 19", "por tamaño ocupa el puesto 2.º entre las 19
    posiciones", "by size it ranks 2nd of 19": the place is the one the named ranking gives;
    one off is `wrong_relation`."""
    checked = 0
    for question, ranks in _ranked():
        ticker = _result(question, "get_position_pnl")["ticker"]
        row = next(p for p in ranks["positions"] if p["ticker"] == ticker)
        count = ranks["positions_count"]
        for rank, taken, said in (
            (
                row["contribution_rank"],
                {row["pnl_rank"]},
                "On contribution it ranked {} out of {}.",
            ),
            (row["weight_rank"], set(), "By size it ranks {} of {}."),
        ):  # by what it added, its P&L's place and its contribution's are both that place
            other = next(n for n in range(1, count + 1) if n not in {rank, *taken})
            kept = _verdict(question, _answer(question) + said.format(_ordinal(rank), count))
            assert kept.accepted, (question, said, kept.reasons)
            wrong = _verdict(question, _answer(question) + said.format(_ordinal(other), count))
            assert "wrong_relation" in {r.rule for r in wrong.reasons}, (question, said)
        es = "Por tamaño ocupa el puesto {}.º entre las {} posiciones."
        kept = _verdict(question, _answer(question) + es.format(row["weight_rank"], count))
        assert kept.accepted, (question, kept.reasons)
        other = row["weight_rank"] + 1 if row["weight_rank"] < count else row["weight_rank"] - 1
        assert not _verdict(question, _answer(question) + es.format(other, count)).accepted
        checked += 1
    assert checked >= 30


def test_a_streak_counted_by_the_day_that_extends_it_or_started_by_a_run() -> None:
    """ "Today makes it three in a row", "encadena tres sesiones bajistas seguidas", "declined
    for three straight sessions, a run that started on Friday, Dec. 27": the count, the
    direction and the first day are the trend's streak; a count one off is `wrong_relation`."""
    checked = 0
    for question, move, _ in _moves():
        streak = _result(question, "get_trend").get("streak") or {}
        n, since = streak.get("sessions"), str(streak.get("since_session") or "")
        if not isinstance(n, int) or not 2 <= n <= 5 or not since:
            continue
        words = {2: "two", 3: "three", 4: "four", 5: "five", 6: "six"}
        es = {2: "dos", 3: "tres", 4: "cuatro", 5: "cinco", 6: "seis"}
        down = streak["direction"] == "down"
        verb, es_dir = ("closed lower", "bajistas") if down else ("closed higher", "alcistas")
        fell = "declined" if down else "advanced"
        day = date.fromisoformat(since)
        lead = _closed(move) + " "
        for right, wrong in (
            (f"It {verb}, and today makes it {words[n]} in a row.",
             f"It {verb}, and today makes it {words[n + 1]} in a row."),
            (f"Encadena {es[n]} sesiones {es_dir} seguidas.",
             f"Encadena {es[n + 1]} sesiones {es_dir} seguidas."),
            (f"It has {fell} for {words[n]} straight sessions, a run that started on "
             f"{day:%A}, {day:%b}. {day.day}.",
             f"It has {fell} for {words[n + 1]} straight sessions, a run that started on "
             f"{day:%A}, {day:%b}. {day.day}."),
        ):  # fmt: skip
            kept = _verdict(question, lead + right)
            assert kept.accepted, (question, right, kept.reasons)
            codes = {r.rule for r in _verdict(question, lead + wrong).reasons}
            assert "wrong_relation" in codes, (question, wrong, codes)
        checked += 1
    assert checked >= 10


def test_a_streak_under_its_label_or_read_off_its_record() -> None:
    """ "Streak: 1 losing session (today only)", "The streak record shows a single winning
    session, today's": the count and the direction are the trend's streak; the other
    direction, or one session more, is `wrong_relation`."""
    checked = 0
    for question, move, _ in _moves():
        streak = _result(question, "get_trend").get("streak") or {}
        n = streak.get("sessions")
        if not isinstance(n, int) or not 1 <= n <= 4:
            continue
        way, other = (
            ("losing", "winning") if streak["direction"] == "down" else ("winning", "losing")
        )
        plural = {1: "session", 2: "sessions", 3: "sessions", 4: "sessions", 5: "sessions"}
        single = {1: "a single", 2: "two", 3: "three", 4: "four", 5: "five"}
        lead = _closed(move) + "\n"
        for said in (
            "- Streak: {n} {way} {noun}.",
            "The streak record shows {single} {way} {noun}.",
        ):
            right = said.format(n=n, single=single[n], way=way, noun=plural[n])
            kept = _verdict(question, lead + right)
            assert kept.accepted, (question, right, kept.reasons)
            for wrong in (
                said.format(n=n, single=single[n], way=other, noun=plural[n]),
                said.format(n=n + 1, single=single[n + 1], way=way, noun=plural[n + 1]),
            ):
                codes = {r.rule for r in _verdict(question, lead + wrong).reasons}
                assert "wrong_relation" in codes, (question, wrong, codes)
        checked += 1
    assert checked >= 10


def test_a_desk_note_s_abbreviations_and_spanish_level_verbs_name_their_fields() -> None:
    """ "cl. 142.11" is the close, "bmk" and "EW univ." the benchmark, "se situó en" and
    "cotizaba a" a close in Spanish: each binds its figure like the word it stands for, so the
    previous close said with it is `wrong_field` and the right one is kept."""
    checked = 0
    for question, move, _ in _moves():
        t, close, prev, pct = (move[k] for k in ("ticker", "close", "previous_close", "change_pct"))
        for said, wrong in (
            (f"• {t}: cl. {close:.2f}, {pct:+.2f}% d/d", f"• {t}: cl. {prev:.2f}, {pct:+.2f}% d/d"),
            (
                f"La cotización de {t} se situó en {_es(close)} USD ({_es(pct, True)} %).",
                f"La cotización de {t} se situó en {_es(prev)} USD ({_es(pct, True)} %).",
            ),
        ):
            kept = _verdict(question, said)
            assert kept.accepted, (question, said, kept.reasons)
            assert "wrong_field" in {r.rule for r in _verdict(question, wrong).reasons}, wrong
        checked += 1
    assert checked >= 30
    for question, ranks in _ranked():
        p, b = ranks["portfolio_return_pct"], ranks["benchmark"]["return_pct"]
        lead = _answer(question)
        assert _verdict(question, f"{lead}Port. {p:+.2f}% vs bmk {b:+.2f}%.").accepted, question
        wrong = _verdict(question, f"{lead}Port. {p:+.2f}% vs EW univ. {p + 0.5:+.2f}%.")
        assert not wrong.accepted, question


def test_a_day_in_brackets_belongs_to_the_figure_inside_them() -> None:
    """ "cerró hoy en 78,75 $ (ayer estaba en 79,09 $), un -0,43 %": "ayer" is the bracket's
    own figure's day, neither the close's before it nor the change's after it; the two closes
    swapped are both `wrong_time`."""
    checked = 0
    for question, move, _ in _moves():
        if move["previous_session"] != "2024-12-30":
            continue
        t, c, p, pct = (move[k] for k in ("ticker", "close", "previous_close", "change_pct"))
        said = "{t} cerró hoy en {a} $ (ayer estaba en {b} $), un {pct} %."
        right = said.format(t=t, a=_es(c), b=_es(p), pct=_es(pct, True))
        kept = _verdict(question, right)
        assert kept.accepted, (question, right, kept.reasons)
        swapped = said.format(t=t, a=_es(p), b=_es(c), pct=_es(pct, True))
        assert "wrong_time" in {r.rule for r in _verdict(question, swapped).reasons}, swapped
        checked += 1
    assert checked >= 30


def test_a_day_in_brackets_that_labels_a_figure_is_that_figure_s() -> None:
    """ "Previous close (Dec 30, 2024): 351.30": a bracket with no figure of its own labels the
    figure after it, so the previous close is kept and the close said so is `wrong_time`."""
    for question, move, _ in _moves():
        if move["previous_session"] != "2024-12-30":
            continue
        head = f"Here's {move['ticker']} for December 31, 2024:\n- Close: {move['close']:.2f}\n"
        kept = _verdict(
            question, f"{head}- Previous close (Dec 30, 2024): {move['previous_close']:.2f}"
        )
        assert "wrong_time" not in {r.rule for r in kept.reasons}, (question, kept.reasons)
        wrong = _verdict(question, f"{head}- Previous close (Dec 30, 2024): {move['close']:.2f}")
        assert not wrong.accepted, question


def test_a_gap_between_two_named_figures_or_said_by_a_side_is_their_difference() -> None:
    """ "The gap between X's quarterly performance (a%) and its year-to-date figure (b%) is
    N pp", "P001 returned a% against b% for the benchmark, N pp ahead of it": N is recomputed
    from the two figures, and the side ("ahead", "behind") must be the first figure's."""
    checked = 0
    for question, move, windows in _moves():
        q, y = (
            windows.get("quarter", {}).get("change_pct"),
            windows.get("year_to_date", {}).get("change_pct"),
        )
        if not q or not y or q == y:  # a gap from 0 is the other figure itself
            continue
        t = move["ticker"]
        said = (
            f"The gap between {t}'s quarterly performance ({q:.2f}%) and its year-to-date "
            "figure ({y:.2f}%) is {n:.2f} pp."
        )
        kept = _verdict(question, _closed(move) + " " + said.format(y=y, n=abs(y - q)))
        assert kept.accepted, (question, kept.reasons)
        wrong = _verdict(question, _closed(move) + " " + said.format(y=y, n=abs(y - q) + 1))
        assert "wrong_relation" in {r.rule for r in wrong.reasons}, question
        checked += 1
    assert checked >= 20
    for question, ranks in _ranked():
        p, b = ranks["portfolio_return_pct"], ranks["benchmark"]["return_pct"]
        if not p or not b or p == b:  # a gap from 0 is the other figure itself
            continue
        side, other = ("ahead of", "behind") if p > b else ("behind", "ahead of")
        lead = _answer(question) + f"{ranks['portfolio_id']} returned {p:.2f}% against {b:.2f}%"
        kept = _verdict(question, f"{lead} for the benchmark, {abs(p - b):.2f} pp {side} it.")
        assert kept.accepted, (question, kept.reasons)
        wrong = _verdict(question, f"{lead} for the benchmark, {abs(p - b):.2f} pp {other} it.")
        assert "wrong_relation" in {r.rule for r in wrong.reasons}, question


def test_the_portfolio_s_value_at_the_previous_close_is_its_own_field() -> None:
    """ "con un valor de cartera al cierre anterior de X $" names the portfolio's value, not a
    previous close: the right value is kept, the holding's market value there is `wrong_field`."""
    for question, _ in _positions():
        p = _result(question, "get_position_pnl")
        said = "{t} aportó {c} % a {pid}, con un valor de cartera al cierre anterior de {v} $."
        words = {"t": p["ticker"], "c": _es(p["contribution_pct"], True), "pid": p["portfolio_id"]}
        kept = _verdict(question, said.format(v=_es(p["portfolio_value_previous_close"]), **words))
        assert kept.accepted, (question, kept.reasons)
        wrong = _verdict(question, said.format(v=_es(p["market_value"]), **words))
        assert "wrong_field" in {r.rule for r in wrong.reasons}, question


def test_spanish_rank_lists_said_by_what_the_holdings_did() -> None:
    """ "Los que más restaron fueron A, B y C", "el que más sumó hoy fue X": the ranks' lists,
    held like their labels in English."""
    for question, ranks in _ranked():
        worst, best = ranks["detractors"], ranks["top_contributors"]
        stray = next(t for t in best if t not in worst)
        lead = _answer(question)
        said = "Los que más restaron fueron {}."
        assert _verdict(question, lead + said.format(_joined(worst[:3], True))).accepted, question
        wrong = _verdict(question, lead + said.format(_joined([*worst[:2], stray], True)))
        assert "wrong_relation" in {r.rule for r in wrong.reasons}, question
        kept = _verdict(question, f"{lead}El que más sumó hoy fue {best[0]}.")
        assert kept.accepted, (question, kept.reasons)
        assert not _verdict(question, f"{lead}El que más sumó hoy fue {best[1]}.").accepted


def test_a_gap_to_the_benchmark_and_a_gap_in_your_favour_are_recomputed() -> None:
    """ "Its gap to the benchmark was N percentage points (p% vs b%)", "N puntos de diferencia
    a tu favor": the size from the two figures, the side from their order."""
    for question, ranks in _ranked():
        p, b = ranks["portfolio_return_pct"], ranks["benchmark"]["return_pct"]
        if not p or not b or p == b:
            continue
        n, lead = abs(p - b), _answer(question)
        said = "The portfolio's gap to the benchmark was {:.2f} percentage points ({:.2f}% vs {:.2f}%)."
        assert _verdict(question, lead + said.format(n, p, b)).accepted, question
        codes = {r.rule for r in _verdict(question, lead + said.format(n + 1, p, b)).reasons}
        assert "wrong_relation" in codes, question
        side, other = ("a tu favor", "en contra") if p > b else ("en contra", "a tu favor")
        es = f"{lead}Tu cartera hizo {_es(p)} % y el índice {_es(b)} %: {_es(n)} puntos de diferencia "
        kept = _verdict(question, f"{es}{side}.")
        assert kept.accepted, (question, kept.reasons)
        assert "wrong_relation" in {r.rule for r in _verdict(question, f"{es}{other}.").reasons}


def test_a_margin_or_an_amount_above_a_reference_is_no_gap_of_the_sentence() -> None:
    """A metric called a margin ("the net interest margin was 67 basis points higher") and an
    amount above a reference the sentence does not state ("$125 million above prior guidance")
    are not gaps between the sentence's figures: no `wrong_relation` is made of them."""
    doc = (
        "The CET1 ratio was 13.8 percent, down 70 basis points. The net interest margin was 67 "
        "basis points higher. Revenue of $11,100 million to $11,250 million, up $125 million "
        "from prior guidance."
    )
    event = {"id": "e1", "tool": "run_sql", "args": {"sql": "select doc"}, "result": doc}
    for said in (
        "The ratio was 13.8 percent, down 70 basis points, but the net interest margin was 67 "
        "basis points higher than Q2.",
        "Revenue should land between $11,100 million and $11,250 million, an increase of $125 "
        "million above prior guidance.",
    ):
        verdict = verify({"question": "Summarise the call.", "draft": said, "events": [event]})
        assert "wrong_relation" not in {r.rule for r in verdict.reasons}, (said, verdict.reasons)


def test_a_list_said_in_order_and_a_membership_said_as_the_ones_that_added_most() -> None:
    """ "The day's top contributors, in order: A, B, C" must hold the ranks' order (two swapped
    is `wrong_relation`); "quedó entre los cinco valores que más aportaron" puts the holding in
    the top contributors, one outside them is rejected."""
    checked = 0
    for question, ranks in _ranked():
        top = ranks["top_contributors"]
        said = "The day's top contributors, in order: {}."
        kept = _verdict(question, _answer(question) + said.format(_joined(top[:3], False)))
        assert kept.accepted, (question, kept.reasons)
        swapped = [top[1], top[0], top[2]]
        codes = {
            r.rule
            for r in _verdict(
                question, _answer(question) + said.format(_joined(swapped, False))
            ).reasons
        }
        assert "wrong_relation" in codes, question
        ticker = _result(question, "get_position_pnl")["ticker"]
        member = f"{ticker} quedó entre los cinco valores que más aportaron a la cartera."
        verdict = _verdict(question, _answer(question) + member)
        assert verdict.accepted is (ticker in top), (question, verdict.reasons)
        checked += 1
    assert checked >= 30


def test_places_listed_by_measure_after_a_label() -> None:
    """ "Clasificación de HEXS en P003: puesto 13 de 19 por rentabilidad, 12 por resultado, 11
    por contribución y 15 por peso": each place by the measure after it; one off is
    `wrong_relation`, and the label's rank word is bound with them."""
    checked = 0
    for question, ranks in _ranked():
        ticker = _result(question, "get_position_pnl")["ticker"]
        row = next(p for p in ranks["positions"] if p["ticker"] == ticker)
        n = ranks["positions_count"]
        r, p, c, w = (
            row[k] for k in ("return_rank", "pnl_rank", "contribution_rank", "weight_rank")
        )
        said = (
            f"Clasificación de {ticker} en {ranks['portfolio_id']}: puesto {{}} de {n} por "
            "rentabilidad, {} por resultado, {} por contribución y {} por peso."
        )
        kept = _verdict(question, _answer(question) + said.format(r, p, c, w))
        assert kept.accepted, (question, kept.reasons)
        for wrong in ((r, p, c, w + 1 if w < n else w - 1), (r, p + 1 if p < n else p - 1, c, w)):
            if wrong[1] == c and wrong[1] != p:
                continue  # by result, the contribution's place where the two differ
            codes = {
                x.rule for x in _verdict(question, _answer(question) + said.format(*wrong)).reasons
            }
            assert "wrong_relation" in codes, (question, wrong)
        checked += 1
    assert checked >= 30


def test_a_place_whose_measure_comes_between_its_noun_and_its_number() -> None:
    """ "puesto por peso 23 de 25", "puesto por contribución 5 de 25": the place by the measure
    named between the noun and the number; the place by another measure is `wrong_relation`."""
    checked = 0
    for question, ranks in _ranked():
        ticker = _result(question, "get_position_pnl")["ticker"]
        row = next(p for p in ranks["positions"] if p["ticker"] == ticker)
        n = ranks["positions_count"]
        w, c = row["weight_rank"], row["contribution_rank"]
        if w == c:
            continue
        said = "{} en {}: puesto por {} {} de {}."
        english = f"{ticker} in {ranks['portfolio_id']}: it is number {{}} of {n} by weight."
        _kept(question, _answer(question) + english.format(w))
        wrong = _verdict(question, _answer(question) + english.format(c))
        assert "wrong_relation" in {x.rule for x in wrong.reasons}, question
        for measure, right, other in (
            ("peso", w, c),
            ("valor de mercado", w, c),
            ("contribución", c, w),
        ):
            lead = _answer(question)
            kept = _verdict(
                question, lead + said.format(ticker, ranks["portfolio_id"], measure, right, n)
            )
            assert kept.accepted, (question, measure, kept.reasons)
            wrong = _verdict(
                question, lead + said.format(ticker, ranks["portfolio_id"], measure, other, n)
            )
            assert "wrong_relation" in {x.rule for x in wrong.reasons}, (question, measure)
        checked += 1
    assert checked >= 30


def test_a_list_of_the_portfolio_on_its_day_is_its_ranked_list() -> None:
    """ "Principales contribuidores de la cartera P002 el 31 de diciembre: FSA, WED, HEX": the
    portfolio the ranks are of and the day may stand between the label and the list; a ticker
    not in the list is `wrong_relation`, and another portfolio's list is no list of these ranks."""
    checked = 0
    for question, ranks in _ranked():
        own, top = ranks["portfolio_id"], ranks["top_contributors"]
        outsider = next(t for t in ranks["detractors"] if t not in top)
        for label in (
            "Principales contribuidores de la cartera {p} el 31 de diciembre: {}.",
            "Top contributors of {p} on Dec 31: {}.",
        ):
            right = _verdict(question, _answer(question) + label.format(", ".join(top[:3]), p=own))
            assert right.accepted, (question, label, right.reasons)
            wrong = _verdict(
                question, _answer(question) + label.format(", ".join([*top[:2], outsider]), p=own)
            )
            assert "wrong_relation" in {x.rule for x in wrong.reasons}, (question, label)
            other = "P009" if own != "P009" else "P008"
            said = _answer(question) + label.format(", ".join(top[:3]), p=other)
            assert not _verdict(question, said).accepted, (question, label)
        checked += 1
    assert checked >= 20


def test_a_thread_s_numbered_lines_place_by_contribution_and_name_the_portfolio() -> None:
    """ "3/ Contribución al rendimiento de la cartera: -0,10%. Puesto 8 de 10.": the place is
    by contribution (the return is the portfolio's, what the contribution is to); "5/ La
    cartera entera: -0,90%" is the portfolio's return, the holding's said there is
    `wrong_subject`."""
    checked = 0
    for question, ranks in _ranked():
        p = _result(question, "get_position_pnl")
        c, n = p["contribution_pct"], ranks["positions_count"]
        row = next(r for r in ranks["positions"] if r["ticker"] == p["ticker"])
        place, other = row["contribution_rank"], row["return_rank"]
        mine, book = p["pnl_pct"], ranks["portfolio_return_pct"]
        if place == other or mine == book:
            continue
        line = f"1/ {p['ticker']} en {p['portfolio_id']}.\n2/ Contribución al rendimiento de la cartera: {c:+.2f}%. Puesto {{}} de {n}.\n"
        _kept(question, line.format(place) + f"3/ La cartera entera: {book:+.2f}%.")
        wrong = _verdict(question, line.format(other) + f"3/ La cartera entera: {book:+.2f}%.")
        assert "wrong_relation" in {x.rule for x in wrong.reasons}, question
        said = _verdict(question, line.format(place) + f"3/ La cartera entera: {mine:+.2f}%.")
        assert "wrong_subject" in {x.rule for x in said.reasons}, question
        checked += 1
    assert checked >= 20

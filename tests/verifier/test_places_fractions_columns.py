"""A place said as an ordinal out of a count, a place behind a list of leaders, a ticker named
only as what a holding is placed against, a fraction that sizes a move, a table's column headed
by the holding or the portfolio, a JSON record's keys, a comparison said with its gap, and the
address and sign-off of a message: over the free-form night's real traces, each faithful
sentence is drafted from the trace's own results beside its corrupted twin, and each test fails
with the rule that binds it removed."""

from __future__ import annotations

from typing import Any

from tests.verifier.test_paths_and_per_share import _lead
from tests.verifier.test_unseen_prose import _codes, _es, _kept, _moves, _positions, _result


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def _ranked() -> list[tuple[str, dict[str, Any], dict[str, Any], dict[str, Any]]]:
    """The position questions whose ranks place the holding: question, P&L, ranks, its row."""
    out = []
    for question, pnl in _positions():
        ranks = _result(question, "get_portfolio_ranks")
        rows = [r for r in ranks.get("positions") or [] if r.get("ticker") == pnl.get("ticker")]
        if rows and "weight_rank" in rows[0] and "day_pnl" in pnl:
            out.append((question, pnl, ranks, rows[0]))
    return out


def _twins(question: str, right: str, wrong: str, code: str = "wrong_relation") -> None:
    """A faithful sentence kept, and its wrong twin rejected with `code`."""
    _kept(question, right)
    assert code in _codes(question, wrong), (question, wrong)


def _other(place: int, count: int) -> int:
    return place + 1 if place < count else place - 1


def test_an_ordinal_out_of_a_count_is_a_place_by_the_measure_its_words_name() -> None:
    """ "By return it ranked **6th of 19**", "placed it 2nd of 10", "18th of 25 on P&L", "la
    19.ª posición de 25 por peso", "el 7.º de 25 posiciones por tamaño": each is the holding's
    place by the measure its words (or its line) name, held against the ranks."""
    checked = 0
    for question, pnl, ranks, row in _ranked():
        n, t = ranks["positions_count"], pnl["ticker"]
        lead = _lead(pnl)
        es = f"{t} cerró en {_es(pnl['close'])} ({_es(pnl['pnl_pct'], True)} %)."
        for place, said in (
            (row["return_rank"], "By return it ranked **{} of {n}**."),
            (row["contribution_rank"], "Its contribution placed it {} of {n}."),
            (row["weight_rank"], "It sits {} of {n} by weight."),
            (row["pnl_rank"], "Day P&L: {} of {n} on P&L."),
        ):
            _kept(question, f"{lead} {said.format(_ordinal(place), n=n)}")
            wrong = said.format(_ordinal(_other(place, n)), n=n)
            assert "wrong_relation" in _codes(question, f"{lead} {wrong}"), (question, wrong)
        w = row["weight_rank"]
        _kept(question, f"{es} Es la {w}.ª posición de {n} por peso.")
        _kept(question, f"{es} Es el {w}.º de {n} posiciones por tamaño.")
        _twins(
            question,
            f"{es} Es la {w}.ª posición por peso.",
            f"{es} Es la {_other(w, n)}.ª posición de {n} por peso.",
        )
        checked += 1
    assert checked >= 20, checked


def test_a_line_without_a_ticker_speaks_of_the_holding_not_of_the_one_it_was_placed_behind() -> (
    None
):
    """ "the second-largest contributor behind FSA" above "- Weight: 7.74%": the weight is the
    holding's, not FSA's; a sentence that names no ticker after one that named FSA only as a
    leader ranks the holding ("By return it ranked 7th of 25")."""
    checked = 0
    words = {2: "second", 3: "third", 4: "fourth", 5: "fifth"}
    for question, pnl, ranks, row in _ranked():
        t, n, place = pnl["ticker"], ranks["positions_count"], row["pnl_rank"]
        listed = ranks.get("top_contributors") or []
        if place not in words or len(listed) < place - 1 or pnl["day_pnl"] <= 0:
            continue
        lead = (
            f"**{t}** returned {pnl['pnl_pct']:+.2f}% on the day, the {words[place]}-largest "
            f"contributor behind {listed[place - 2]}."
        )
        _kept(question, f"{lead}\n- Weight: {row['weight_pct']:.2f}%")
        at = row["return_rank"]
        _twins(
            question,
            f"{lead} By return it ranked {_ordinal(at)} of {n}.",
            f"{lead} By return it ranked {_ordinal(_other(at, n))} of {n}.",
        )
        checked += 1
    assert checked >= 5, checked


def test_a_place_behind_a_list_of_leaders_has_exactly_those_ahead_of_it() -> None:
    """ "the third-largest contributor behind OEE and AXO": third, with those two ahead in
    either order; a leader that is not ahead of it is `wrong_relation`."""
    checked = 0
    words = {2: "second", 3: "third", 4: "fourth"}
    for question, pnl, ranks, row in _ranked():
        place, listed = row["pnl_rank"], ranks.get("top_contributors") or []
        if place not in (3, 4) or len(listed) < 5 or pnl["day_pnl"] <= 0:
            continue
        ahead = listed[: place - 1]
        lead = _lead(pnl)
        said = f"{pnl['ticker']} was the {words[place]}-largest contributor behind"
        _kept(question, f"{lead} {said} {' and '.join(ahead)}.")
        _kept(question, f"{lead} {said} {' and '.join(reversed(ahead))}.")
        wrong = [*ahead[:-1], listed[place]]  # one leader swapped for one behind it
        codes = _codes(question, f"{lead} {said} {' and '.join(wrong)}.")
        assert "wrong_relation" in codes, (question, wrong)
        checked += 1
    assert checked >= 2, checked


_FRACTIONS = {"half": 50.0, "third": 100 / 3, "quarter": 25.0, "fifth": 20.0, "tenth": 10.0}
_FRACTIONS_ES = {"half": "la mitad", "third": "una tercera parte", "quarter": "una cuarta parte",
                 "fifth": "una quinta parte", "tenth": "una décima parte"}  # fmt: skip


def test_a_fraction_after_a_move_is_its_size_over_the_window_it_is_said_for() -> None:
    """ "up about a third on the year", "sube aproximadamente una cuarta parte": the fraction is
    the window's change in percent, held at a tenth of it like any fraction, with its
    direction and its window; the wrong direction or window is rejected."""
    checked = 0
    for question, move, windows in _moves():
        year = windows.get("year_to_date")
        if not year:
            continue
        pct = year["change_pct"]
        near = [f for f, v in _FRACTIONS.items() if abs(abs(pct) - v) <= 0.08 * v]
        if not near:
            continue
        word = near[0]
        lead = f"{move['ticker']} closed at {move['close']:.2f} ({move['change_pct']:+.2f}%)."
        up, down = ("up", "down") if pct > 0 else ("down", "up")
        _kept(question, f"{lead} It is {up} about a {word} on the year.")
        verb = "sube" if pct > 0 else "cae"
        lead_es = (
            f"{move['ticker']} cerró en {_es(move['close'])} ({_es(move['change_pct'], True)} %)."
        )
        _kept(question, f"{lead_es} En el año {verb} aproximadamente {_FRACTIONS_ES[word]}.")
        codes = _codes(question, f"{lead} It is {down} about a {word} on the year.")
        assert "wrong_direction" in codes, (question, codes)
        far = next(f for f, v in _FRACTIONS.items() if abs(abs(pct) - v) > 0.3 * v)
        codes = _codes(question, f"{lead} It is {up} about a {far} on the year.")
        assert codes & {"unsupported_figure", "wrong_time", "uncomputed_percentage"}, (far, codes)
        checked += 1
    assert checked >= 3, checked


def test_a_table_column_headed_by_the_holding_or_the_portfolio_says_whose_figure_it_is() -> None:
    """Under "| Metric | Holding | Portfolio |", the second cell of a row is the holding's and
    the third the portfolio's, whatever the heading over the table names."""
    checked = 0
    for question, pnl, ranks, _ in _ranked():
        mine, theirs = pnl["day_pnl"], ranks["portfolio_day_pnl"]
        if abs(abs(mine) - abs(theirs)) < 1:
            continue
        head = (
            f"{pnl['ticker']} in {ranks['portfolio_id']}, Tuesday Dec. 31\n\n"
            "| Metric | Holding | Portfolio |\n|---|---|---|\n"
            f"| Day return | {pnl['pnl_pct']:+.2f}% | {ranks['portfolio_return_pct']:+.2f}% |\n"
        )
        _kept(question, head + f"| Day P&L | {mine:+,.2f} | {theirs:+,.2f} |")
        codes = _codes(question, head + f"| Day P&L | {theirs:+,.2f} | {theirs:+,.2f} |")
        assert "wrong_subject" in codes, (question, codes)
        codes = _codes(question, head + f"| Day P&L | {mine:+,.2f} | {mine:+,.2f} |")
        assert "wrong_subject" in codes, (question, codes)
        checked += 1
    assert checked >= 20, checked


def test_a_json_record_keys_its_figures_and_its_portfolio_key_only_places_the_holding() -> None:
    """'"day_pnl": 46.59' in a record with '"ticker": "KGC"' and '"portfolio": "P003"' is
    KGC's day P&L: the portfolio's figure there is `wrong_subject`."""
    checked = 0
    for question, pnl, ranks, _ in _ranked():
        mine, theirs = pnl["day_pnl"], ranks["portfolio_day_pnl"]
        if abs(abs(mine) - abs(theirs)) < 1:
            continue
        record = (
            "Recap:\n```json\n{\n"
            f' "ticker": "{pnl["ticker"]}",\n "portfolio": "{ranks["portfolio_id"]}",\n'
            f' "pnl_pct": {pnl["pnl_pct"]},\n "day_pnl": '
        )
        plain = f"\n}}\n```\nIn plain words, {_lead(pnl)}"
        _kept(question, f"{record}{mine}{plain}")
        assert "wrong_subject" in _codes(question, f"{record}{theirs}{plain}"), question
        if abs(abs(pnl["pnl_pct"]) - abs(mine)) > 1:  # the return keyed as the day P&L
            codes = _codes(question, f"{record}{pnl['pnl_pct']}{plain}")
            assert "wrong_field" in codes, (question, codes)
        checked += 1
    assert checked >= 20, checked


def test_a_comparison_said_with_its_gap_puts_the_first_figure_on_its_side() -> None:
    """ "returned -0.90% against -0.57% for the benchmark, beating it by 0.33 points": the gap
    is right and the side wrong, `wrong_relation`; "trailing it by", "quedó por debajo del
    índice por" with the same figures are kept."""
    checked = 0
    for question, pnl, ranks, _ in _ranked():
        mine, bench = ranks["portfolio_return_pct"], ranks["benchmark"]["return_pct"]
        gap = round(abs(mine - bench), 2)
        if gap < 0.05:
            continue
        lead = _lead(pnl)
        right, wrong = ("beating", "trailing") if mine > bench else ("trailing", "beating")
        said = f"The portfolio returned {mine:+.2f}% against {bench:+.2f}% for the benchmark"
        _kept(question, f"{lead} {said}, {right} it by {gap:.2f} points.")
        codes = _codes(question, f"{lead} {said}, {wrong} it by {gap:.2f} points.")
        assert "wrong_relation" in codes, (question, codes)
        es = f"La cartera registró un {_es(mine, True)} % frente al {_es(bench, True)} % del índice"
        side = "por encima" if mine > bench else "por debajo"
        other = "por debajo" if mine > bench else "por encima"
        lead_es = f"{pnl['ticker']} cerró en {_es(pnl['close'])} ({_es(pnl['pnl_pct'], True)} %)."
        _kept(question, f"{lead_es} {es}; quedó {side} del índice por {_es(gap)} puntos.")
        codes = _codes(question, f"{lead_es} {es}; quedó {other} del índice por {_es(gap)} puntos.")
        assert "wrong_relation" in codes, (question, codes)
        checked += 1
    assert checked >= 20, checked


def test_a_message_s_address_and_sign_off_assert_nothing() -> None:
    """ "Hi team," and "Anything else you'd like?" frame a faithful answer and are kept;
    the answer inside them is still checked."""
    checked = 0
    for question, pnl in _positions()[:10]:
        body = _lead(pnl)
        _kept(question, f"Hi team, {body} Anything else you'd like?")
        _kept(question, f"Hola Carlos:\n\n{body}\n\nCualquier duda me escribe. Atentamente.")
        wrong = body.replace(f"{pnl['pnl_pct']:+.2f}%", f"{pnl['pnl_pct'] + 1:+.2f}%")
        codes = _codes(question, f"Hi team, {wrong} Let me know if you'd like more.")
        assert codes and "unverified_claim" not in codes, (question, codes)
        checked += 1
    assert checked == 10


def test_a_window_named_before_its_figure_is_that_figure_s_window() -> None:
    """ "Week **-0.57%**", "the week change was -0.57%", "its quarter change was +6.12%", "la
    semana deja un -0,57 % y el mes, un -0,20 %": the window's name is the figure's window, so
    the figures of two windows swapped are `wrong_time`; a bare figure in brackets after it
    ("week change (1.76%)", an accounting negative or an aside) stays unbound."""
    checked = 0
    for question, move, windows in _moves():
        week, month = windows["week"]["change_pct"], windows["month"]["change_pct"]
        if abs(week - month) < 0.05:
            continue
        lead = f"{move['ticker']} closed at {move['close']:.2f} ({move['change_pct']:+.2f}%)."
        lead_es = (
            f"{move['ticker']} cerró en {_es(move['close'])} ({_es(move['change_pct'], True)} %)."
        )
        for said in (
            "{lead} Week **{w:+.2f}%**, month **{m:+.2f}%**.",
            "{lead} The week change was {w:+.2f}% and the month change was {m:+.2f}%.",
            "{lead} Its week change was {w:+.2f}%; its month change was {m:+.2f}%.",
        ):
            _kept(question, said.format(lead=lead, w=week, m=month))
            codes = _codes(question, said.format(lead=lead, w=month, m=week))
            assert "wrong_time" in codes, (question, said, codes)
        said = "{lead} La semana deja un {w} % y el mes, un {m} %."
        _kept(question, said.format(lead=lead_es, w=_es(week, True), m=_es(month, True)))
        codes = _codes(question, said.format(lead=lead_es, w=_es(month, True), m=_es(week, True)))
        assert "wrong_time" in codes, (question, codes)
        codes = _codes(question, f"{lead} Its week change was ({abs(week):.2f}%).")
        assert "unverified_claim" in codes, (question, codes)
        record = f'{lead}\nRecap: {{{{"ticker": "{move["ticker"]}", {{}}"change_pct": {{}}}}}}'
        _kept(question, record.format("", move["change_pct"]))
        if abs(week - move["change_pct"]) > 0.05:  # a record that names no window: the day's
            assert "wrong_field" in _codes(question, record.format("", week)), question
        checked += 1
    assert checked >= 20, checked


def test_a_record_key_of_the_results_names_its_field_and_its_subject() -> None:
    """'"portfolio_day_pnl": 46.59', '"weight_pct": 14.96', '"benchmark": {"return_pct":
    -0.57}', '"session": "2024-12-31"': a key the results use is that field of the subject its
    prefix or object names; another value there is `wrong_field` (or the date `wrong_time`),
    whatever other value of the trace it equals."""
    checked = 0
    for question, pnl, ranks, row in _ranked():
        mine, theirs = pnl["day_pnl"], ranks["portfolio_day_pnl"]
        if (
            abs(abs(mine) - abs(theirs)) < 1
            or abs(row["weight_pct"] - row["contribution_pct"]) < 0.1
        ):
            continue
        bench = ranks["benchmark"]["return_pct"]
        body = (
            f'"ticker": "{pnl["ticker"]}",\n "pnl_pct": {pnl["pnl_pct"]},\n'
            f' "weight_pct": {{w}},\n "portfolio_day_pnl": {{p}},\n'
            f' "benchmark": {{{{"return_pct": {{b}}}}}},\n "session": "{{s}}"'
        )
        plain = f"\n}}\n```\nIn plain words, {_lead(pnl)}"

        def record(w: float, p: float, b: float, s: str, body: str = body, end: str = plain) -> str:
            return "Recap:\n```json\n{\n " + body.format(w=w, p=p, b=b, s=s) + end

        session, before = pnl["session"], pnl["previous_session"]
        _kept(question, record(row["weight_pct"], theirs, bench, session))
        wrong = record(row["contribution_pct"], theirs, bench, session)
        assert "wrong_field" in _codes(question, wrong), (question, "weight")
        assert "wrong_field" in _codes(question, record(row["weight_pct"], mine, bench, session))
        other = ranks["portfolio_return_pct"]
        if abs(other - bench) > 0.01:
            wrong = record(row["weight_pct"], theirs, other, session)
            assert "wrong_field" in _codes(question, wrong), (question, "benchmark")
        wrong = record(row["weight_pct"], theirs, bench, before)
        assert "wrong_time" in _codes(question, wrong), (question, "session")
        w, c = row["weight_pct"], row["contribution_pct"]
        for said in (  # a quoted value, a YAML line, a key of other words, a second record
            f'Recap: {{"ticker": "{pnl["ticker"]}", "weight_pct": "{c}"}}',
            f"Recap:\nticker: {pnl['ticker']}\nweight_pct: {c}",
            f'Recap: {{"ticker": "{pnl["ticker"]}", "weight": {c}}}',
            f'Recap: {{"ticker": "{pnl["ticker"]}", "previous_session": "{session}"}}',
        ):
            codes = _codes(question, f"{_lead(pnl)}\n{said}")
            assert codes & {"wrong_field", "wrong_time"}, (question, said, codes)
        _kept(question, f'{_lead(pnl)}\nRecap: {{"ticker": "{pnl["ticker"]}", "weight": {w}}}')
        others = [t for t in ranks.get("top_contributors") or [] if t != pnl["ticker"]]
        said = f'[{{"ticker": "{pnl["ticker"]}", "weight_pct": {w}}}, {{"ticker": "{others[0]}", "weight_pct": {w}}}]'
        assert "wrong_field" in _codes(question, f"{_lead(pnl)}\n{said}"), (question, said)
        checked += 1
    assert checked >= 20, checked


def test_a_place_by_the_measure_its_sentence_names_not_the_one_its_noun_suggests() -> None:
    """ "the 10th-largest position by contribution", "By contribution, it is the tenth-largest
    holding", "Weight 8.31% (4th largest)" after the weight: each is held by the measure named
    (by contribution, by weight), not by the weight a "largest position" alone would mean."""
    checked = 0
    words = {1: "first", 2: "second", 3: "third", 4: "fourth", 5: "fifth", 6: "sixth",
             7: "seventh", 8: "eighth", 9: "ninth", 10: "tenth"}  # fmt: skip
    for question, pnl, _, row in _ranked():
        c, w = row["contribution_rank"], row["weight_rank"]
        if c == w or pnl["day_pnl"] <= 0 or c not in words or w not in words:
            continue
        lead = _lead(pnl)
        _twins(
            question,
            f"{lead} It was the {_ordinal(c)}-largest position by contribution.",
            f"{lead} It was the {_ordinal(w)}-largest position by contribution.",
        )
        _twins(
            question,
            f"{lead} By contribution, it is the {words[c]}-largest holding.",
            f"{lead} By contribution, it is the {words[w]}-largest holding.",
        )
        _twins(
            question,
            f"{lead} Weight {row['weight_pct']:.2f}% ({_ordinal(w)} largest).",
            f"{lead} Weight {row['weight_pct']:.2f}% ({_ordinal(c)} largest).",
        )
        checked += 1
    assert checked >= 3, checked


def test_a_gap_said_with_its_comparison_alone_is_the_gap_of_the_two_day_returns() -> None:
    """ "It beat the benchmark by 2.47 points", "It lagged the portfolio by 24 basis points",
    "by almost 2.5 points": with no figures of its own to take it from, the gap is the
    difference of the two subjects' day returns the results hold, on the side the verb says
    (short of a size said with "almost"); the holding's own return said as that gap (or any
    other value of the trace) is `wrong_relation`, and after "The portfolio returned ...; it"
    the gap is the portfolio's."""
    checked = 0
    for question, pnl, ranks, row in _ranked():
        mine = row["day_return_pct"]
        for name, theirs in (
            ("benchmark", ranks["benchmark"]["return_pct"]),
            ("portfolio", ranks["portfolio_return_pct"]),
        ):
            gap = round(mine - theirs, 2)
            if abs(gap) < 0.05 or abs(abs(gap) - abs(mine)) < 0.02:
                continue
            lead = _lead(pnl)
            right, wrong = ("beat", "lagged") if gap > 0 else ("lagged", "beat")
            _kept(question, f"{lead} It {right} the {name} by {abs(gap):.2f} points.")
            _kept(question, f"{lead} It {right} the {name} by {abs(gap) * 100:.0f} basis points.")
            codes = _codes(question, f"{lead} It {wrong} the {name} by {abs(gap):.2f} points.")
            assert "wrong_relation" in codes, (question, name, codes)
            codes = _codes(question, f"{lead} It {right} the {name} by {abs(mine):.2f} points.")
            assert "wrong_relation" in codes, (question, name, codes)
            if abs(gap) > 0.5:  # "almost N points": short of N, not beyond it
                _kept(
                    question,
                    f"{lead} It {right} the {name} by almost {abs(gap) + 0.05:.2f} points.",
                )
                codes = _codes(
                    question, f"{lead} It {right} the {name} by almost {abs(gap) - 0.1:.2f} points."
                )
                assert "wrong_relation" in codes, (question, name, codes)
            checked += 1
        p, b = ranks["portfolio_return_pct"], ranks["benchmark"]["return_pct"]
        if mine > b and abs(abs(mine - b) - abs(p - b)) > 0.05:  # "it" is the portfolio
            said = f"{_lead(pnl)} The portfolio returned {p:+.2f}% on the day; it beat the benchmark by"
            codes = _codes(question, f"{said} {mine - b:.2f} points.")
            assert "wrong_relation" in codes, (question, codes)
    assert checked >= 30, checked


def test_a_place_said_for_another_time_than_the_ranks_session_is_the_wrong_time() -> None:
    """ "Over the past week it ranked 5th of 19", "On December 30 it ranked", "Yesterday it
    ranked", "En la semana fue la 2.ª de 19": the ranks place the holdings by one session, so
    a place said for another time in its own clause is `wrong_time`; said for the session
    ("On December 31 it ranked") it is kept."""
    checked = 0
    for question, pnl, ranks, row in _ranked():
        n, place = ranks["positions_count"], row["return_rank"]
        lead = _lead(pnl)
        said = f"it ranked {_ordinal(place)} of {n} by return."
        _kept(question, f"{lead} On December 31 {said}")
        for when in (
            "Over the past week",
            "On December 30",
            "Yesterday",
            "Year to date",
            "The day before,",
            "In the prior session",
            "Over the quarter,",
        ):
            codes = _codes(question, f"{lead} {when} {said}")
            assert "wrong_time" in codes, (question, when, codes)
        codes = _codes(question, f"{lead} It {said[3:-1]}, as it did the day before.")
        assert "wrong_time" in codes, (question, codes)
        for change in ("climbed to", "slipped to", "remained"):
            codes = _codes(question, f"{lead} It {change} {_ordinal(place)} of {n} by return.")
            assert "unverified_claim" in codes, (question, change, codes)
        best = f"it was the {_ordinal(place)}-best performer of {n}."
        _kept(question, f"{lead} On the day {best}")
        codes = _codes(question, f"{lead} This month {best}")
        assert "wrong_time" in codes, (question, codes)
        es = f"{pnl['ticker']} cerró en {_es(pnl['close'])} ({_es(pnl['pnl_pct'], True)} %)."
        codes = _codes(question, f"{es} En la semana fue la {place}.ª de {n} por rentabilidad.")
        assert "wrong_time" in codes, (question, codes)
        checked += 1
    assert checked >= 20, checked


def test_a_place_said_by_two_measures_holds_by_both() -> None:
    """ "ranked 17th of 25 by contribution and return": the place must be the holding's by
    each measure; where the two places differ, it is `wrong_relation`."""
    checked = 0
    for question, pnl, ranks, row in _ranked():
        n, c, r = ranks["positions_count"], row["contribution_rank"], row["return_rank"]
        lead = _lead(pnl)
        for place in (c, r):
            said = f"{lead} It ranked {_ordinal(place)} of {n} by contribution and return."
            if c == r:
                _kept(question, said)
            else:
                assert "wrong_relation" in _codes(question, said), (question, said)
        p = row["pnl_rank"]
        if c != p:  # "by contribution and P&L": by each of the two
            for place in (c, p):
                said = f"{lead} It ranked {_ordinal(place)} of {n} by contribution and P&L."
                assert "wrong_relation" in _codes(question, said), (question, said)
            said = f"{lead} By P&L it ranked {_ordinal(c)}."
            assert "wrong_relation" in _codes(question, said), (question, said)
            es = f"{pnl['ticker']} cerró en {_es(pnl['close'])} ({_es(pnl['pnl_pct'], True)} %)."
            said = f"{es} Puesto {c} de {n} por contribución y por resultado."
            assert "wrong_relation" in _codes(question, said), (question, said)
            said = f"{lead} Contribution and P&L: ranked {_ordinal(c)} of {n}."
            assert "wrong_relation" in _codes(question, said), (question, said)
            _kept(question, f"{lead} By P&L it ranked {_ordinal(p)}.")
        checked += c != r
    assert checked >= 20, checked


def test_a_fraction_hedged_short_of_itself_is_no_more_than_it() -> None:
    """ "nearly a tenth", "just under a third", "casi una cuarta parte": the size is short of
    the fraction, to the tenth of a percent (10.33% is not "nearly a tenth"; 9.77% is)."""
    checked = 0
    for question, move, windows in _moves():
        lead = f"{move['ticker']} closed at {move['close']:.2f} ({move['change_pct']:+.2f}%)."
        for window, said in (("month", "over the month"), ("year_to_date", "on the year")):
            pct = windows[window]["change_pct"]
            up = "up" if pct > 0 else "down"
            for word, value in _FRACTIONS.items():
                draft = f"{lead} It is {up} nearly a {word} {said}."
                if 0.91 * value < abs(pct) < value - 0.05:
                    _kept(question, draft)
                    checked += 1
                elif value + 0.05 < abs(pct) < 1.09 * value:
                    assert _codes(question, draft), (question, draft)
                    checked += 1
    assert checked >= 8, checked


def test_a_table_without_outer_bars_has_its_columns() -> None:
    """ "Metric | Holding | Portfolio" over "--- | --- | ---": a table written without the
    outer bars keeps its columns, so the portfolio's figure under Holding is `wrong_subject`."""
    checked = 0
    for question, pnl, ranks, _ in _ranked():
        mine, theirs = pnl["day_pnl"], ranks["portfolio_day_pnl"]
        if abs(abs(mine) - abs(theirs)) < 1:
            continue
        head = f"{_lead(pnl)}\n\nMetric | Holding | Portfolio\n--- | --- | ---\n"
        _kept(question, head + f"Day P&L | {mine:+,.2f} | {theirs:+,.2f}")
        codes = _codes(question, head + f"Day P&L | {theirs:+,.2f} | {mine:+,.2f}")
        assert "wrong_subject" in codes, (question, codes)
        checked += 1
    assert checked >= 20, checked


def test_a_record_s_percent_key_gives_the_percentage_the_question_requires() -> None:
    """'{"ticker": "DMFH", "close": 121.16, "change_pct": 1.61}' answers "what was its day
    change?" with a percentage: its key says percent as the sign would. A record without a
    percent key still gives none, and a wrong value under the key is still `wrong_field`."""
    checked = 0
    for question, move, _ in _moves():
        ticker, close, pct = question.split("/")[0], move["close"], move["change_pct"]
        if abs(move["change"] - pct) < 0.02:
            continue
        head = f'Quick recap: {{"ticker": "{ticker}", "close": {close}'
        _kept(question, f'{head}, "change_pct": {pct}}}')
        _kept(question, f'{head}, "day_change_percent": {pct}}}')
        assert _codes(question, f"{head}}}") == {"missing_answer"}, question
        said = f'{head}, "change": {move["change"]}}}'
        assert _codes(question, said) == {"missing_answer"}, question
        assert "wrong_field" in _codes(question, f'{head}, "change_pct": {move["change"]}}}')
        checked += 1
    assert checked >= 20, checked

"""A direction said of the portfolio or its benchmark, and a headline's day said on a line of
its own record or joined by words about the news item, over the free-form night's real traces:
each faithful sentence is drafted from the trace's own results beside a twin with one thing
wrong, so the test fails if the binding is removed (the twin would pass) or too wide (the
faithful one would fail)."""

from __future__ import annotations

from datetime import date
from typing import Any

from tests.verifier.test_closed_world import FREE_TRACES
from tests.verifier.test_unseen_prose import (
    _codes,
    _kept,
    _moves,
    _new_york,
    _news,
    _positions,
    _result,
    _verdict,
)
from verifier.lexicon import LANGUAGES

_SPANISH = next(lexicon for lexicon in LANGUAGES if lexicon.name == "es")

_SAID_OF = (
    ("{p} finished the day {up}.", "{p} finished the day {down}."),
    ("The portfolio closed {up}.", "The portfolio closed {down}."),
    ("By the close, {p} was {a}.", "By the close, {p} was {b}."),
    ("La cartera {p} cerró {es_up}.", "La cartera {p} cerró {es_down}."),
)


def _holders() -> list[tuple[str, dict[str, Any], float]]:
    out = []
    for question, position in _positions():
        ranks = _result(question, "get_portfolio_ranks")
        pnl = ranks.get("portfolio_day_pnl")
        if position.get("day_pnl") and pnl:
            out.append((question, position, pnl))
    return out


def test_a_direction_said_of_the_portfolio_is_held_against_the_portfolio_s_day() -> None:
    """ "P003 finished the day lower" after a sentence about a holding is said of the
    portfolio: its day P&L's sign settles it, not the holding's, which may have the other."""
    checked = opposite = 0
    for question, position, pnl in _holders():
        t, p = position["ticker"], position["portfolio_id"]
        lead = f"{t} made {position['day_pnl']:,.2f} on the day ({position['pnl_pct']:+.2f}%). "
        up, down = ("higher", "lower") if pnl > 0 else ("lower", "higher")
        es_up, es_down = ("al alza", "a la baja") if pnl > 0 else ("a la baja", "al alza")
        a, b = ("up", "down") if pnl > 0 else ("down", "up")
        words = {"p": p, "t": t, "up": up, "down": down, "es_up": es_up, "es_down": es_down}
        for right, wrong in _SAID_OF:
            kept = _verdict(question, lead + right.format(a=a, b=b, **words))
            assert kept.accepted, (question, right, kept.reasons)
            rejected = _verdict(question, lead + wrong.format(a=a, b=b, **words))
            assert any(r.rule == "wrong_direction" for r in rejected.reasons), (question, wrong)
        opposite += (pnl > 0) != (position["day_pnl"] > 0)
        checked += 1
    assert checked >= 30 and opposite >= 5


def test_a_holding_of_the_portfolio_or_another_portfolio_is_no_portfolio_direction() -> None:
    """ "ZWW, P003's largest holding, slipped": the holding moved; a direction said of a
    portfolio the report is not for is no fact of this trace."""
    for question, position, _ in _holders():
        t, p, pct = position["ticker"], position["portfolio_id"], position["pnl_pct"]
        moved = "gained ground" if pct > 0 else "lost ground"
        kept = _verdict(question, f"{t}, a holding of {p}'s, {moved} on the day ({pct:+.2f}%).")
        assert kept.accepted, (question, kept.reasons)
        other = "P009" if p != "P009" else "P008"
        said = _verdict(question, f"{t} moved {pct:+.2f}% on the day. {other} finished higher.")
        assert not said.accepted, question


def _day(item: dict[str, Any]) -> date:
    return _new_york(item).date()


def test_a_headline_s_day_on_a_labelled_line_of_its_record_is_its_publication_day() -> None:
    """A record of lines ("- Headline: ...", "- Source: ...", "- Published: ...") gives the
    item's day on a line of its own: the day the item came is kept, the day before is
    `wrong_time` (a day the trace holds, the report day or the session before, so only the
    binding tells it)."""
    checked = 0
    for question, _, news in _news():
        for item in news[:1]:
            head = f'- **Headline:** "{item["headline"]}"\n- **Source:** {item["source"]}\n'
            other = date(2024, 12, 31) if _day(item) != date(2024, 12, 31) else date(2024, 12, 30)
            for day, ok in ((_day(item), True), (other, False)):
                verdict = _verdict(question, f"{head}- **Published:** {day.isoformat()}")
                codes = {r.rule for r in verdict.reasons}
                assert ("wrong_time" not in codes) == ok, (question, day, verdict.reasons)
            checked += 1
    assert checked >= 15


def test_a_relative_day_joined_to_a_headline_by_words_about_the_item_is_its_day() -> None:
    """ "Monday's report that \"...\"", "\"...\" came out during yesterday's session": the
    weekday or relative day is the item's, held against when it came (New York time)."""
    checked = 0
    for question, _, news in _news():
        for item in news[:1]:
            came = _day(item)
            if came not in (date(2024, 12, 30), date(2024, 12, 31)):
                continue
            right, wrong = ("Monday", "Tuesday") if came.day == 30 else ("Tuesday", "Monday")
            rel, other = ("yesterday", "today") if came.day == 30 else ("today", "yesterday")
            quoted = f'"{item["headline"]}"'
            for said, ok in (
                (f"The only news was {right}'s report that {quoted}.", True),
                (f"The only news was {wrong}'s report that {quoted}.", False),
                (f"{quoted} came out during {rel}'s session.", True),
                (f"{quoted} came out during {other}'s session.", False),
            ):
                codes = {r.rule for r in _verdict(question, said).reasons}
                assert ("wrong_time" not in codes) == ok, (question, said, codes)
            checked += 1
    assert checked >= 10


def _events() -> list[tuple[str, list[dict[str, Any]]]]:
    out = []
    for question in sorted(FREE_TRACES):
        if question.endswith("/events"):
            listed = _result(question, "get_events").get("events") or []
            if listed:
                out.append((question, listed))
    return out


_EVENT_WORDS = {"earnings": ("earnings", "resultados"), "dividend": ("dividend", "dividendo")}


def _first_events() -> list[tuple[str, dict[str, Any], tuple[tuple[tuple[str, str], bool], ...]]]:
    """Each calendar whose first event is earnings or a dividend: the event, and the words of its
    kind (English, Spanish) and of the other kind, with whether each is that day's."""
    out = []
    for question, listed in _events():
        item = listed[0]
        if item["kind"] in _EVENT_WORDS:
            other = "dividend" if item["kind"] != "dividend" else "earnings"
            out.append(
                (question, item, ((_EVENT_WORDS[item["kind"]], True), (_EVENT_WORDS[other], False)))
            )
    return out


def test_a_day_that_heads_a_row_is_the_day_of_the_event_the_row_names() -> None:
    """ "- 2025-01-24: earnings", "| 2025-01-24 | dividend |": the row's event must be the one
    the trace lists that day; another kind is `wrong_event_day`. A window's end before a colon
    ("in the 30 days after Dec 31: earnings on ...") heads no row."""
    checked = 0
    for question, listed in _events():
        item = listed[0]
        other = "dividend" if item["kind"] != "dividend" else "earnings"
        for row, ok in (
            (f"- {item['date']}: {item['kind']}", True),
            (f"- {item['date']}: {other}", False),
            (f"| {item['date']} | {other} |", False),
        ):
            codes = {r.rule for r in _verdict(question, f"Upcoming:\n{row}").reasons}
            assert ("wrong_event_day" not in codes) == ok, (question, row, codes)
        window = f"In the 30 days after Dec 31: {item['kind']} on {item['date']}."
        assert "wrong_event_day" not in {r.rule for r in _verdict(question, window).reasons}
        checked += 1
    assert checked >= 10


def test_up_or_down_right_after_a_change_is_its_direction() -> None:
    """ "(2.03% up)", "2.03 pct down on the day": the word after the change says its sign; the
    wrong one is `wrong_direction`. A count before "down" ("eighteen down") is no change."""
    checked = 0
    for question, move, _ in _moves():
        pct = move["change_pct"]
        if not pct:
            continue
        right, wrong = ("up", "down") if pct > 0 else ("down", "up")
        for unit in ("%", " pct"):
            lead = f"{move['ticker']} closed at {move['close']:.2f} ({abs(pct):.2f}{unit}"
            assert _verdict(question, f"{lead} {right}).").accepted, (question, unit)
            codes = {r.rule for r in _verdict(question, f"{lead} {wrong}).").reasons}
            assert "wrong_direction" in codes, (question, unit, wrong)
        checked += 1
    assert checked >= 30


def test_a_comparison_said_of_the_portfolio_with_the_benchmark_named_before_it() -> None:
    """ "The benchmark did -0.57%, so the book lagged", "... The portfolio beat it.": the
    object is the benchmark named before; the portfolio's return against it settles the word,
    the other word is `wrong_relation`."""
    checked = 0
    for question, position, _ in _holders():
        ranks = _result(question, "get_portfolio_ranks")
        mine, theirs = ranks["portfolio_return_pct"], ranks["benchmark"]["return_pct"]
        if mine == theirs:
            continue
        better, worse = ("outperformed", "lagged") if mine > theirs else ("lagged", "outperformed")
        lead = (
            f"{position['ticker']} contributed {position['contribution_pct']:+.2f}% to "
            f"{position['portfolio_id']}. The benchmark returned {theirs:+.2f}%"
        )
        for tail, ok in (
            (f", so the book {better}.", True),
            (f", so the book {worse}.", False),
            (f". The portfolio {better} it.", True),
            (f". The portfolio {worse} it.", False),
        ):
            verdict = _verdict(question, lead + tail)
            assert verdict.accepted == ok, (question, tail, verdict.reasons)
            if not ok:
                assert "wrong_relation" in {r.rule for r in verdict.reasons}, tail
        checked += 1
    assert checked >= 30


def test_an_event_named_with_its_adjective_is_still_the_day_s_event() -> None:
    """ "presentará su dividendo trimestral el 13 de enero", "its quarterly earnings on
    2025-01-13": an adjective between the event and its day keeps them together, so another
    kind than the trace lists that day is `wrong_event_day`."""
    checked = 0
    for question, item, kinds in _first_events():
        day = date.fromisoformat(item["date"])
        for (en, es), ok in kinds:
            for said in (
                f"It reports its quarterly {en} on {item['date']}.",
                f"La compañía presentará su {es} trimestral el {day.day} de {_SPANISH.months[day.month - 1]}.",
            ):
                codes = {r.rule for r in _verdict(question, said).reasons}
                assert ("wrong_event_day" not in codes) == ok, (question, said, codes)
        checked += 1
    assert checked >= 10


def test_a_count_of_the_book_said_with_a_bare_direction_is_its_gainers_or_decliners() -> None:
    """ "con 7 valores al alza y 18 a la baja", "7 en verde y 18 en rojo": a count before a
    bare direction counts the portfolio's positions that went that way, held against its ranks;
    the counts swapped are `wrong_relation`."""
    checked = 0
    for question, position, _ in _holders():
        ranks = _result(question, "get_portfolio_ranks")
        up, down = ranks.get("gainers"), ranks.get("decliners")
        if not isinstance(up, int) or not isinstance(down, int) or up == down:
            continue
        t, pct = position["ticker"], f"{position['pnl_pct']:+.2f}".replace(".", ",")
        for words in ("{u} valores al alza y {d} a la baja", "{u} en verde y {d} en rojo"):
            lead = f"{t} se movió un {pct} % en la sesión; en la cartera hubo "
            kept = _verdict(question, lead + words.format(u=up, d=down) + ".")
            assert kept.accepted, (question, words, kept.reasons)
            swapped = _verdict(question, lead + words.format(u=down, d=up) + ".")
            assert any(r.rule == "wrong_relation" for r in swapped.reasons), (question, words)
        checked += 1
    assert checked >= 20


def test_a_record_line_that_names_the_portfolio_does_not_make_the_lines_under_it_its() -> None:
    """ "- ticker: CJVL / - cartera: P002 / - pnl_dia: ...": the portfolio line says where the
    holding sits, and the day P&L under it is the holding's; the portfolio's P&L there is
    `wrong_subject`."""
    checked = 0
    for question, position, pnl in _holders():
        t, p, own = position["ticker"], position["portfolio_id"], position["day_pnl"]
        if round(own, 2) == round(pnl, 2):
            continue
        for label in ("- cartera:", "**Portfolio:**", "- Portfolio ="):
            head = f"Resumen:\n- ticker: {t}\n{label} {p}\n- pnl_pct: {position['pnl_pct']:+.2f}%\n"
            kept = _verdict(question, head + f"- pnl_dia: {own:,.2f}\n")
            assert kept.accepted, (question, label, kept.reasons)
            other = _verdict(question, head + f"- pnl_dia: {pnl:,.2f}\n")
            assert any(r.rule == "wrong_subject" for r in other.reasons), (question, label)
        checked += 1
    assert checked >= 20


def test_an_event_named_for_its_ticker_before_its_day_is_that_day_s_event() -> None:
    """ "un evento de dividendo para ODUO el 2025-01-13", "a dividend event for ODUO on ...":
    whose event it is stands between its name and its day; another kind that day is
    `wrong_event_day`. A clause about what the tool leaves out ("eventos que aún no se hubieran
    anunciado") asserts nothing."""
    checked = 0
    for question, item, kinds in _first_events():
        ticker = question.split("/")[0]
        for (en, es), ok in kinds:
            for said in (
                f"Los datos muestran un evento de {es} para {ticker} el {item['date']}.",
                f"The data shows a {en} event for {ticker} on {item['date']}.",
                f"There is a {en} event scheduled for {ticker} on {item['date']}.",
                f"Hay un evento de {es} programado para {ticker} el {item['date']}.",
            ):
                codes = {r.rule for r in _verdict(question, said).reasons}
                assert ("wrong_event_day" not in codes) == ok, (question, said, codes)
        limit = (
            f"Los datos muestran un evento de {kinds[0][0][1]} para {ticker} el "
            f"{item['date']}. Lo que no muestran: eventos que aún no se hubieran anunciado."
        )
        assert _verdict(question, limit).accepted, question
        checked += 1
    assert checked >= 10


def test_events_said_to_be_none_are_checked_with_the_words_that_qualify_them() -> None:
    """ "TDU no tiene eventos previstos", "no upcoming events scheduled": the whole denial is
    held against the calendar, so "previstos" is no unchecked word where it is empty and the
    denial is `wrong_absence` where it lists one."""
    empty = listed = 0
    for question in sorted(q for q in FREE_TRACES if q.endswith("/events")):
        ticker = question.split("/")[0]
        has = bool(_result(question, "get_events").get("events"))
        for said in (
            f"{ticker} no tiene eventos previstos en los próximos 30 días.",
            f"{ticker} has no upcoming events scheduled in the next 30 days.",
        ):
            verdict = _verdict(question, said)
            if has:
                assert "wrong_absence" in {r.rule for r in verdict.reasons}, (question, said)
            else:
                assert verdict.accepted, (question, said, verdict.reasons)
        empty += not has
        listed += has
    assert empty >= 10 and listed >= 10


def test_words_of_where_figures_come_from_and_of_windows_looked_back_over() -> None:
    """ "Se registraron dos titulares", "Trailing windows: 1W -2.71%", "News flow": free words
    beside checked figures; "trailing" said of a benchmark is a comparison no rule checked here."""
    checked = 0
    for question, move, windows in _moves():
        week, month = (
            windows.get("1w") or windows.get("week"),
            windows.get("1m") or windows.get("month"),
        )
        if not week or not month:
            continue
        t = move["ticker"]
        lead = f"{t} closed at {move['close']:.2f} ({move['change_pct']:+.2f}%)."
        trailing = (
            f" Trailing windows: 1W {week['change_pct']:+.2f}%, 1M {month['change_pct']:+.2f}%."
        )
        kept = _verdict(question, lead + trailing)
        assert kept.accepted, (question, kept.reasons)
        assert not _verdict(question, lead + trailing.replace("1W", "1M", 1)).accepted, question
        assert not _verdict(question, lead + f" {t} is trailing the benchmark.").accepted
        checked += 1
    assert checked >= 20


def test_a_record_s_portfolio_line_holds_the_portfolio_s_figures_and_its_keys_are_fields() -> None:
    """ "**Portfolio:** P002 (-0.90%)", "| cartera | P002 |", "- acciones: 56", "- posiciones:
    25", "valor_mercado": a figure on the portfolio's label line is the portfolio's (the
    holding's there is `wrong_subject`); a table row labelled by the portfolio does not make the
    rows under it the portfolio's; a line labelled by shares or positions counts them, and a
    snake_case key names its field."""
    checked = 0
    for question, position, pnl in _holders():
        ranks = _result(question, "get_portfolio_ranks")
        t, p, own = position["ticker"], position["portfolio_id"], position["day_pnl"]
        ret, mine = ranks["portfolio_return_pct"], position["pnl_pct"]
        count, shares = ranks["positions_count"], int(position["quantity"])
        if ret == mine or count == shares or round(own, 2) == round(pnl, 2):
            continue
        tail = f"\n**Position:** {t}, day P&L {own:,.2f} ({mine:+.2f}%)"
        _kept(question, f"**Portfolio:** {p} ({ret:+.2f}%){tail}")
        assert "wrong_subject" in _codes(question, f"**Portfolio:** {p} ({mine:+.2f}%){tail}")
        table = f"| Campo | Valor |\n|---|---|\n| ticker | {t} |\n| cartera | {p} |\n| P&L del día | {{}} |\n| rentabilidad | {mine:+.2f} % |"
        _kept(question, table.format(f"{own:,.2f}"))
        assert not _verdict(question, table.format(f"{pnl:,.2f}")).accepted, question
        record = f"Resumen:\n- ticker: {t}\n- cartera: {p}\n- rentabilidad: {mine:+.2f} %\n"
        _kept(question, record + f"- acciones: {shares}\n- posiciones: {count}")
        assert "wrong_field" in _codes(question, record + f"- acciones: {count}"), question
        assert "wrong_field" in _codes(question, record + f"- posiciones: {shares}"), question
        tally = (
            f"{t}: {mine:+.2f} %. Hubo {ranks['gainers']} al alza y {ranks['decliners']} a la baja"
        )
        _kept(question, f"{tally}, sobre un total de {count}.")
        assert "wrong_field" in _codes(question, f"{tally}, sobre un total de {shares}.")
        value = position["portfolio_value_previous_close"]
        assert "wrong_field" in _codes(question, record + f"- valor_mercado: {value:,.2f}"), (
            question
        )
        checked += 1
    assert checked >= 20


def test_a_bracketed_percentage_after_a_label_or_in_a_cell_is_negative() -> None:
    """ "- Day return: (1.31%)", "| AXO | (1.31%) |", "P001 returned (0.52%)": accounting
    style, the figure is negative; said so of a rise it is wrong, of a fall it holds."""
    checked = 0
    for question, position, _ in _holders():
        t, pct = position["ticker"], position["pnl_pct"]
        if not pct:
            continue
        for said in (
            f"{t}\n- Day return: ({abs(pct):.2f}%)",
            f"| Ticker | Return |\n|---|---|\n| {t} | ({abs(pct):.2f}%) |",
        ):
            verdict = _verdict(question, said)
            assert verdict.accepted is (pct < 0), (question, said, verdict.reasons)
        checked += 1
    assert checked >= 30


def test_a_count_of_the_benchmark_s_members_is_its_constituents() -> None:
    """ "-0.57% for the 59-stock equal-weight universe", "del universo equiponderado de 59
    valores": the count is the benchmark's constituents; the portfolio's position count said
    there is no count of the benchmark."""
    checked = 0
    for question, position, _ in _holders():
        ranks = _result(question, "get_portfolio_ranks")
        bench, count = ranks["benchmark"], ranks["positions_count"]
        members, ret = bench["constituents"], bench["return_pct"]
        if members == count:
            continue
        t, c = position["ticker"], position["contribution_pct"]
        for said in (
            f"{t} contributed {c:+.2f}%, against {ret:+.2f}% for the {{}}-stock equal-weight universe.",
            f"{t} aportó {c:+.2f} %, frente al {ret:+.2f} % del universo equiponderado de {{}} valores.",
        ):
            _kept(question, said.format(members))
            assert not _verdict(question, said.format(count)).accepted, (question, said)
        checked += 1
    assert checked >= 20


def test_a_close_said_with_a_participle_is_the_close() -> None:
    """ "ABXQ ha cerrado en 337,27", "habría cerrado en ...": the participle names the close;
    the previous close said so is `wrong_field`, as after "cerró"."""
    checked = 0
    for question, move, _ in _moves():
        t, pct = move["ticker"], move["change_pct"]
        lead = f"{t} se movió un {pct:+.2f} %. {t} ha cerrado en {{:.2f}} USD."
        _kept(question, lead.format(move["close"]))
        assert "wrong_field" in _codes(question, lead.format(move["previous_close"])), question
        checked += 1
    assert checked >= 30


def test_a_table_s_quantity_and_price_columns_are_fields() -> None:
    """ "| Holding | Qty | Price |" over "| TDU | 2,967 | 43.19 |": the cells are the quantity
    and the close; swapped, they are `wrong_field`."""
    checked = 0
    for question, position, _ in _holders():
        t, qty, close = position["ticker"], int(position["quantity"]), position["close"]
        if qty == round(close):
            continue
        for head in ("| Holding | Qty | Price |", "| Valor | Acciones | Precio |"):
            table = f"{head}\n|---|---|---|\n| {t} | {{}} | {{}} |\nP&L: {position['day_pnl']:,.2f} ({position['pnl_pct']:+.2f}%)"
            _kept(question, table.format(f"{qty:,}", f"{close:,.2f}"))
            assert "wrong_field" in _codes(question, table.format(f"{close:,.2f}", f"{qty:,}")), (
                question
            )
        checked += 1
    assert checked >= 30

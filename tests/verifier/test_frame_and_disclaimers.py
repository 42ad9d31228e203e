"""A message's frame, the data's disclaimers, gaps and ranked windows, over the free-form
night's real traces: each test drafts faithful sentences from the trace's own results, in
wordings of its own (greetings, names, sign-offs and disclaimers no voice wrote), beside
corrupted twins with one thing wrong, and fails if the mechanism that binds them is removed."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.verifier.test_closed_world import FREE_TRACES
from tests.verifier.test_unseen_prose import _es, _moves, _news, _positions, _result, _verdict

_FRAMES_EN = (
    ("Good morning Sarah,\n\n", "\n\nWarm regards,\nTom Baker"),
    ("Hello team!\n", "\nThanks,\nPriya"),
    ("Dear Mr. Okafor,\n\n", "\n\nYours sincerely,\nThe Private Banking Desk"),
    ("Hey all, ", " Hope this helps!"),
    ("", " Let me know if you need anything else."),
    ("Just wanted to let you know that ", "\n\nCheers,\nSam"),
    ("Dear valued client,\n\n", "\n\nCordially,\nPortfolio Team"),
    ("Hi Daniel — ", "\n\n— Claire (Research)"),
    ("Dear Sir or Madam,\n\n", "\n\nYours faithfully,\nClient Services"),
    ("Team,\n\n", "\n\nThanks,\nAlex\nSenior Analyst"),
)
_FRAMES_ES = (
    ("Buenos días, Marta:\n\n", "\n\nUn saludo,\nJavier Ruiz"),
    ("Estimada clienta:\n\n", "\n\nReciba un cordial saludo,\nEquipo de Banca Privada"),
    ("Hola, te resumo: ", " Si necesitas algo más, avísame."),
    ("", "\n\nQuedo a tu disposición.\nLucía"),
    ("Querido Pablo:\n", "\n\nAtte.,\nJuan"),
    ("Hola Ana, ¿qué tal? ", " Espero que estés bien."),
)


def _lines(move: dict[str, Any]) -> tuple[str, str, str, str]:
    t, close, pct, prev = (move[k] for k in ("ticker", "close", "change_pct", "previous_close"))
    en = f"{t} closed at {close:.2f} ({pct:+.2f}%), from a previous close of {prev:.2f}."
    es = f"{t} cerró en {_es(close)} ({_es(pct, True)} %), desde un cierre anterior de {_es(prev)}."
    wrong_en = en.replace(f"at {close:.2f}", f"at {close + 1:.2f}")
    wrong_es = es.replace(f"en {_es(close)}", f"en {_es(close + 1)}")
    return en, es, wrong_en, wrong_es


def test_a_frame_around_a_faithful_answer_is_kept_and_one_around_a_wrong_one_is_not() -> None:
    """A greeting that opens the draft, a closing line and its signature, a chat's closer: the
    frame asserts nothing, so a faithful answer framed is kept and a wrong close framed is
    still rejected."""
    checked = 0
    for question, move, _ in _moves():
        en, es, wrong_en, wrong_es = _lines(move)
        for (head, tail), body, wrong in [
            *((f, en, wrong_en) for f in _FRAMES_EN),
            *((f, es, wrong_es) for f in _FRAMES_ES),
        ]:
            kept = _verdict(question, f"{head}{body}{tail}")
            assert kept.accepted, (question, head, tail, kept.reasons)
            assert not _verdict(question, f"{head}{wrong}{tail}").accepted, (question, head)
        checked += 1
    assert checked >= 30


@pytest.mark.parametrize(
    "frame",
    [
        ("Dear analysts expect a rebound,\n\n", ""),  # no name slot: lower-case words
        ("Hi Daniel, analysts rate it a buy.\n\n", ""),  # after the salutation: a claim
        ("", "\n\nBest regards,\nThe stock will rally"),  # a signature line that asserts
        ("", "\n\nBest regards,\nAXO Research"),  # a ticker in the signature
        ("", "\nThanks to strong demand"),  # "thanks to" is a cause, not a closing
        ("Good morning zorbat quux,\n", ""),  # unknown words where a name would stand
        ("", " Cualquier cosa, el valor rebotará."),  # a closer's opening, then a claim
        ("", " It is the stock to watch."),  # "to watch" frames a headline, not a stock
    ],
)
def test_words_in_the_frame_s_place_that_are_no_frame_are_rejected(
    frame: tuple[str, str],
) -> None:
    question, move, _ = _moves()[0]
    en = _lines(move)[0]
    verdict = _verdict(question, f"{frame[0]}{en}{frame[1]}")
    assert not verdict.accepted
    assert "unverified_claim" in {r.rule.value for r in verdict.reasons}


_CAUSE_DISCLAIMERS = (
    "Nothing in the results I retrieved ties the move to a catalyst.",
    "The data does not explain the move.",
    "It could be related, but the tools do not confirm any link.",
    "I have no information on what drove the stock, so any reason would be speculation.",
    "Podría estar relacionado, pero los datos no lo confirman.",
    "Las herramientas no identifican ningún motivo del movimiento.",
    "I can't tell from the data why it moved.",
    "Puede que esté relacionado, aunque los datos no lo confirman.",
    "Los datos no aclaran qué impulsó el movimiento.",
    "The data does not say whether that headline moved the stock.",
    "There is no evidence in the data linking it to the {drop}.",
    "No hay datos que vinculen esa noticia con la {caida}.",
    "Los datos no permiten saber si influyó en la {caida}.",
    "No podemos confirmar que esté relacionada con la {caida}.",
    "No está confirmado como causa.",
    "That headline is not confirmed as the cause of the {drop}.",
    "Ninguno está confirmado como causa de la {caida}.",
    "It may be related to the {drop}. None of them is confirmed as the cause.",
)
_ASSERTED = (
    "The headline drove the move, though the data shows no link.",
    "The news explains the move; the data holds no valuation.",
    "It may be related to the move.",
    "Analysts rate it a buy, but the data has no valuation.",
    "La noticia explica la caída, aunque los datos no lo confirman.",
    "Why it moved is the headline; the data holds no link.",
    "The headline, not confirmed elsewhere, was the cause of the move.",
    "The headline, not the data, caused the move.",
    "The headline, and not the data, caused the move.",
    "El titular, y no los datos, está confirmado como causa.",
    "It may be related to the move. The data holds no analyst ratings.",
    "Está confirmado como causa, no como rumor.",
)


def test_a_disclaimer_of_a_cause_stands_and_a_cause_asserted_beside_it_does_not() -> None:
    """No result holds a cause, so the data's disclaimer of one is true whatever the search
    found; a hedge is kept only where its sentence denies the data confirms it; a cause stated
    before the negation, or without one, is rejected."""
    checked = 0
    for question, move, news in _news():
        lead = f"{move['ticker']} closed at {move['close']:.2f} ({move['change_pct']:+.2f}%)."
        down = move["change_pct"] < 0  # the move's own noun
        nouns = {"drop": "drop" if down else "rise", "caida": "caída" if down else "subida"}
        for said in _CAUSE_DISCLAIMERS:
            kept = _verdict(question, f"{lead} {said.format(**nouns)}")
            assert kept.accepted, (question, said, kept.reasons)
        for said in _ASSERTED:
            assert not _verdict(question, f"{lead} {said}").accepted, (question, said)
        if news:  # a named item is no denial of news, but a denial still is one
            for denial in (
                "There were no headlines in the window.",
                f"There was nothing in the news about {move['ticker']}.",
                "No hubo nada en las noticias.",
            ):
                wrong = _verdict(question, f"{lead} {denial}")
                assert "wrong_absence" in {r.rule.value for r in wrong.reasons}, (question, denial)
        checked += 1
    assert checked >= 20


_EXTERNAL = (
    "The data I pulled holds no analyst ratings or price targets.",
    "Los resultados consultados no incluyen recomendaciones de analistas.",
)


def test_a_disclaimer_of_analyst_views_is_wrong_where_a_headline_reports_one() -> None:
    """ "No analyst ratings in the data" is true where no result reports one and
    `wrong_absence` where a headline the search returned does ("analysts reiterate neutral
    rating"); valuation, which no result holds, is always disclaimable."""
    held = kept = 0
    for question, move, news in _news():
        lead = f"{move['ticker']} closed at {move['close']:.2f} ({move['change_pct']:+.2f}%)."
        rated = any(
            "analyst" in n["headline"].casefold() or "rating" in n["headline"].casefold()
            for n in news
        )
        for said in _EXTERNAL:
            verdict = _verdict(question, f"{lead} {said}")
            if rated:
                assert "wrong_absence" in {r.rule.value for r in verdict.reasons}, question
                held += 1
            else:
                assert verdict.accepted, (question, said, verdict.reasons)
                kept += 1
        assert _verdict(question, f"{lead} I don't have valuation multiples here.").accepted
    assert held >= 2 and kept >= 20


def _ranks(question: str) -> dict[str, Any]:
    return _result(question, "get_portfolio_ranks")


def test_a_gap_is_the_difference_of_the_figures_its_sentence_names() -> None:
    """ "A gap of -0.33 percentage points", "una diferencia de 0,33 puntos", "a spread of
    3.71": recomputed from the two figures of the sentence; a value found elsewhere in the
    trace (another position's return) is rejected."""
    checked = 0
    for question, _pos in _positions():
        ranks = _ranks(question)
        if not ranks:
            continue
        a, b = ranks["portfolio_return_pct"], ranks["benchmark"]["return_pct"]
        pid = ranks["portfolio_id"]
        others = [p["day_return_pct"] for p in ranks["positions"] if p["day_return_pct"]]
        decoy = next((o for o in others if abs(abs(o) - abs(a - b)) > 0.02), 9.99)
        for gap in (f"{a - b:+.2f}", f"{abs(a - b):.2f}"):
            said = (
                f"{pid} returned {a:.2f}% versus {b:.2f}% for the benchmark, a gap of {gap} points."
            )
            assert _verdict(question, said).accepted, (question, said)
        wrong = f"{pid} returned {a:.2f}% versus {b:.2f}% for the benchmark, a gap of {decoy:.2f} points."
        assert not _verdict(question, wrong).accepted, (question, wrong)
        es = (
            f"{pid} rindió un {_es(a)} % frente al {_es(b)} % del índice de referencia, una "
            f"diferencia de {_es(abs(a - b))} puntos."
        )
        assert _verdict(question, es).accepted, (question, es)
        checked += 1
    assert checked >= 20


_WINDOW_EN = {"week": "past week", "month": "past month", "quarter": "quarter"}
_WINDOW_ES = {"week": "la última semana", "month": "el último mes", "quarter": "el trimestre"}
_NAME_EN = {"week": "week's", "month": "month's", "quarter": "quarter's"}
_NAME_ES = {"week": "de la semana", "month": "del mes", "quarter": "del trimestre"}


def test_a_window_said_larger_of_those_stated_must_be() -> None:
    """ "The month's move is the larger of the two", "el movimiento del trimestre es el de
    mayor magnitud de los dos": the window named must be the largest in size (or the smallest)
    of those the draft states, and their count right; the other window is rejected."""
    checked = 0
    for question, move, windows in _moves():
        t = move["ticker"]
        pair = [w for w in ("week", "month", "quarter") if w in windows]
        if len(pair) < 3:
            continue
        for one, two in ((pair[0], pair[1]), (pair[1], pair[2])):
            x, y = windows[one]["change_pct"], windows[two]["change_pct"]
            if abs(abs(x) - abs(y)) < 0.01:
                continue
            big, small = (one, two) if abs(x) > abs(y) else (two, one)
            lead = f"{t} moved {x:+.2f}% over the {_WINDOW_EN[one]} and {y:+.2f}% over the {_WINDOW_EN[two]}."
            for named, size, ok in (
                (big, "larger", True),
                (small, "smaller", True),
                (small, "larger", False),
            ):
                said = f"{lead} The {_NAME_EN[named]} move is the {size} of the two."
                assert _verdict(question, said).accepted is ok, (question, said)
            es = (
                f"{t} se movió un {_es(x, True)} % en {_WINDOW_ES[one]} y un {_es(y, True)} % en "
                f"{_WINDOW_ES[two]}."
            )
            for named, ok in ((big, True), (small, False)):
                said = f"{es} El movimiento {_NAME_ES[named]} es el de mayor magnitud de los dos."
                assert _verdict(question, said).accepted is ok, (question, said)
            assert not _verdict(
                question, f"{lead} The {_NAME_EN[big]} move is the larger of the three."
            ).accepted
            checked += 1
    assert checked >= 20


def _each_portfolio() -> Iterator[tuple[str, dict[str, Any]]]:
    """A position question and its portfolio's ranks, once per portfolio of the traces."""
    seen: set[str] = set()
    for question, _ in _positions():
        ranks = _ranks(question)
        if ranks and ranks.get("portfolio_id") not in seen:
            seen.add(ranks["portfolio_id"])
            yield question, ranks


def test_a_day_better_or_worse_than_the_benchmark_is_the_portfolio_s() -> None:
    """In a draft naming a portfolio and no ticker, "a day better than the benchmark's", "una
    jornada peor que la de la referencia" compare the portfolio's return with the benchmark's."""
    portfolios = list(_each_portfolio())
    for question, ranks in portfolios:
        pid = ranks["portfolio_id"]
        a, b = ranks["portfolio_return_pct"], ranks["benchmark"]["return_pct"]
        if a == b:
            continue
        right_en, wrong_en = ("better", "worse") if a > b else ("worse", "better")
        right_es, wrong_es = ("mejor", "peor") if a > b else ("peor", "mejor")
        lead = f"Portfolio {pid} returned {a:.2f}% on the day."
        assert _verdict(question, f"{lead} A day {right_en} than the benchmark.").accepted
        assert not _verdict(question, f"{lead} A day {wrong_en} than the benchmark.").accepted
        es = f"La cartera {pid} rindió un {_es(a)} % en el día."
        kept = _verdict(question, f"{es} Una jornada {right_es} que la de la referencia.")
        assert kept.accepted, (question, kept.reasons)
        assert not _verdict(
            question, f"{es} Una jornada {wrong_es} que la de la referencia."
        ).accepted
    assert len(portfolios) >= 3


def test_a_position_line_abbreviates_its_fields() -> None:
    """ "MV 29,001.14 | wt 1.22% | ctr +0.02%": the abbreviations name the market value, the
    weight and the contribution; the contribution written as the weight is `wrong_field`."""
    checked = 0
    for question, pos in _positions():
        row = next(
            (p for p in _ranks(question).get("positions", []) if p["ticker"] == pos["ticker"]),
            None,
        )
        if row is None or abs(row["weight_pct"] - abs(pos["contribution_pct"])) < 0.05:
            continue
        line = (
            f"{pos['ticker']} @ {pos['portfolio_id']}: {int(pos['quantity']):,} sh | MV "
            f"{pos['market_value']:,.2f} | wt {row['weight_pct']:.2f}% | ctr "
            f"{pos['contribution_pct']:+.2f}%"
        )
        assert _verdict(question, line).accepted, (question, line)
        swapped = line.replace(
            f"wt {row['weight_pct']:.2f}%", f"wt {abs(pos['contribution_pct']):.2f}%"
        )
        assert not _verdict(question, swapped).accepted, (question, swapped)
        checked += 1
    assert checked >= 20
    assert len(FREE_TRACES) > 100


_WEEKDAY = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
_DIA = ("lunes", "martes", "miércoles", "jueves", "viernes", "sábado", "domingo")
_NUM_EN = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six"}
_NUM_ES = {1: "una", 2: "dos", 3: "tres", 4: "cuatro", 5: "cinco", 6: "seis"}


def test_a_streak_is_dated_by_the_session_it_began_and_counted_where_it_is_said() -> None:
    """ "A losing run that began on Monday, December 30", "two consecutive sessions down (since
    Dec 30)", "una racha bajista que arrancó el lunes 30 de diciembre", "la racha es de una
    sola sesión": the streak's first session and length from the trend; another day or count
    is rejected."""
    from datetime import date, timedelta

    checked = 0
    for question, move, _ in _moves():
        streak = _result(question, "get_trend").get("streak") or {}
        n, since = streak.get("sessions"), streak.get("since_session")
        if not isinstance(n, int) or not since or n > 6:
            continue
        t, pct = move["ticker"], move["change_pct"]
        day = date.fromisoformat(since)
        other = day - timedelta(days=1 if day.weekday() else 3)
        down = streak["direction"] == "down"
        run_en = "a losing run" if down else "a winning run"
        run_es = "una racha bajista" if down else "una racha alcista"
        way = "down" if down else "up"
        lead = f"{t} moved {pct:+.2f}% today."
        for when, ok in ((day, True), (other, False)) if n >= 2 else ():  # a run is 2+
            said_en = (
                f"{lead} It is {run_en} that began on {_WEEKDAY[when.weekday()]}, "
                f"{when:%B} {when.day}."
            )
            assert _verdict(question, said_en).accepted is ok, (question, said_en)
            said_es = (
                f"{t} se movió un {_es(pct, True)} % hoy, en {run_es} que arrancó el "
                f"{_DIA[when.weekday()]} {when.day} de diciembre."
            )
            if when.month == 12:
                assert _verdict(question, said_es).accepted is ok, (question, said_es)
        for count, ok in ((n, True), (n + 1, False)):
            if count > 1:
                said = f"{lead} Streak: {_NUM_EN[count]} consecutive sessions {way} (since {day:%b} {day.day})."
                assert _verdict(question, said).accepted is ok, (question, said)
            sola = "una sola sesión" if count == 1 else f"{_NUM_ES[count]} sesiones"
            racha = "racha bajista" if down else "racha alcista"
            said = f"{t} se movió un {_es(pct, True)} % hoy. La {racha} es de {sola}."
            assert _verdict(question, said).accepted is ok, (question, said)
        checked += 1
    assert checked >= 25


def test_a_tally_pair_is_the_portfolio_s_gainers_and_decliners_in_the_order_written() -> None:
    """ "Gainers / decliners: 7 / 12 of 19", "Down/up: 12/7", "Suben / bajan: 7 / 12 de 19":
    the ranks' counts in the order of the labels; swapped or off by one is rejected."""
    seen: set[str] = set()
    for question, _ in _positions():
        ranks = _ranks(question)
        pid = ranks.get("portfolio_id")
        if not ranks or pid in seen or ranks["gainers"] == ranks["decliners"]:
            continue
        seen.add(pid)
        g, d, n = ranks["gainers"], ranks["decliners"], ranks["positions_count"]
        lead = f"{pid} returned {ranks['portfolio_return_pct']:.2f}% on the day."
        for said, ok in (
            (f"Gainers / decliners: {g} / {d} of {n}", True),
            (f"Down/up: {d}/{g}", True),
            (f"Gainers / decliners: {d} / {g} of {n}", False),
            (f"Advancers / decliners: {g} / {d} of {n + 1}", False),
        ):
            assert _verdict(question, f"{lead}\n- {said}").accepted is ok, (question, said)
        es = f"La cartera {pid} rindió un {_es(ranks['portfolio_return_pct'])} % en el día."
        assert _verdict(question, f"{es} Suben / bajan: {g} / {d} de {n}.").accepted
        assert not _verdict(question, f"{es} Suben / bajan: {d} / {g} de {n}.").accepted
    assert len(seen) >= 2


_SECTOR_ES = {
    "Energy": "energía",
    "Materials": "materiales",
    "Utilities": "servicios públicos",
    "Consumer Staples": "consumo básico",
    "Information Technology": "tecnología",
    "Real Estate": "inmobiliario",
    "Health Care": "salud",
}


def test_a_sector_is_named_in_spanish_only_where_the_trace_names_it() -> None:
    """ "del sector consumo básico" for a company the trace files under Consumer Staples; the
    Spanish name of a sector no result names stays unbound."""
    checked = 0
    for question in sorted(q for q in FREE_TRACES if q.endswith("/move")):
        company, move = _result(question, "get_company"), _result(question, "get_daily_move")
        sector = company.get("sector")
        if sector not in _SECTOR_ES or "close" not in move:
            continue
        lead = f"{move['ticker']} cerró en {_es(move['close'])} ({_es(move['change_pct'], True)} %)"
        kept = _verdict(question, f"{lead}; es una empresa del sector {_SECTOR_ES[sector]}.")
        assert kept.accepted, (question, kept.reasons)
        other = next(
            s
            for s in _SECTOR_ES
            if s != sector and s.casefold() not in str(FREE_TRACES[question]).casefold()
        )
        assert not _verdict(
            question, f"{lead}; es una empresa del sector {_SECTOR_ES[other]}."
        ).accepted
        checked += 1
    assert checked >= 10


def _part_of(hour: int) -> tuple[str, str, str] | None:
    """An English and a Spanish part of the day that hold for a New York hour, and one that
    does not."""
    if 5 <= hour < 11:
        return "in the morning", "por la mañana", "in the evening"
    if 13 <= hour < 17:
        return "in the afternoon", "por la tarde", "in the morning"
    if 20 <= hour < 24:
        return "late in the evening", "por la noche", "in the morning"
    return None


def test_a_part_of_the_day_is_the_hour_its_headline_was_published() -> None:
    """ "Reuters ran \"...\" in the afternoon", "por la tarde", "late in the evening": New
    York hours of the quoted item's `published_at`; another part, or a day word beside it
    that is not the item's day ("yesterday morning" for an item of today), is `wrong_time`."""
    from datetime import datetime
    from zoneinfo import ZoneInfo

    checked = 0
    for question, move, news in _news():
        for item in news:
            when = datetime.fromisoformat(item["published_at"]).astimezone(
                ZoneInfo("America/New_York")
            )
            parts = _part_of(when.hour)
            if parts is None:
                continue
            en, es, wrong = parts
            quote = f'"{item["headline"]}"'
            lead = f"{move['ticker']} closed at {move['close']:.2f} ({move['change_pct']:+.2f}%)."
            kept = _verdict(question, f"{lead} {item['source']} ran {quote} {en}.")
            assert kept.accepted, (question, en, kept.reasons)
            es_lead = f"{move['ticker']} cerró en {_es(move['close'])} ({_es(move['change_pct'], True)} %)."
            said = f"{es_lead} {item['source']} publicó «{item['headline']}» {es}."
            assert _verdict(question, said).accepted, (question, said)
            bad = _verdict(question, f"{lead} {item['source']} ran {quote} {wrong}.")
            assert "wrong_time" in {r.rule.value for r in bad.reasons}, (question, wrong)
            if when.day == 31:
                bad = _verdict(
                    question, f"{lead} {item['source']} ran {quote} yesterday {en.split()[-1]}."
                )
                assert not bad.accepted, question
            checked += 1
    assert checked >= 15


def _made_today(pos: dict[str, Any]) -> str:
    """A faithful line about the first position: its day P&L and return in its portfolio."""
    return (
        f"{pos['ticker']} made {pos['day_pnl']:,.2f} ({pos['pnl_pct']:+.2f}%) in "
        f"{pos['portfolio_id']} today."
    )


@pytest.mark.parametrize(
    "opening",
    [
        "Sure! ",
        "Of course, ",
        "Great question! ",
        "Here you go: ",
        "Bottom line: ",
        "Claro, aquí lo tienes: ",
        "¡Hola! ",
    ],
)
def test_an_answer_s_opening_acknowledgement_is_frame(opening: str) -> None:
    question, pos = _positions()[0]
    body = _made_today(pos)
    kept = _verdict(question, f"{opening}{body} Have a great evening!")
    assert kept.accepted, kept.reasons
    wrong = body.replace(f"{pos['pnl_pct']:+.2f}%", f"{pos['pnl_pct'] + 0.5:+.2f}%")
    assert not _verdict(question, f"{opening}{wrong}").accepted
    assert not _verdict(
        question, f"{opening.replace('!', ',')}analysts see upside. {body}"
    ).accepted


def test_abbreviated_position_labels_are_their_fields() -> None:
    """ "PX", "QTY", "Mkt val", "Ctb": the close, a share count, the market value and the
    contribution; a value put under the wrong label is rejected."""
    checked = 0
    for question, pos in _positions():
        line = (
            f"{pos['ticker']} | PX {pos['close']:.2f} | QTY {int(pos['quantity']):,} | Mkt val "
            f"{pos['market_value']:,.2f} | Ctb {pos['contribution_pct']:+.2f}%"
        )
        assert _verdict(question, line).accepted, (question, line)
        wrong = line.replace(f"PX {pos['close']:.2f}", f"PX {pos['previous_close']:.2f}")
        if pos["close"] != pos["previous_close"]:
            assert not _verdict(question, wrong).accepted, (question, wrong)
            checked += 1
    assert checked >= 20


def test_no_relevant_news_holds_only_of_an_empty_search() -> None:
    """ "No relevant news", "no se encontraron noticias relevantes": where the search found
    nothing the qualifier narrows nothing; where it found items, whether one is relevant is a
    judgement, and the draft is rejected."""
    empty = found = 0
    for question, move, news in _news():
        lead = f"{move['ticker']} closed at {move['close']:.2f} ({move['change_pct']:+.2f}%)."
        for said in (
            "The search found no relevant news.",
            "No se encontraron noticias relevantes.",
            "There were no significant headlines.",
        ):
            verdict = _verdict(question, f"{lead} {said}")
            assert verdict.accepted is (not news), (question, said, verdict.reasons)
        empty += not news
        found += bool(news)
    assert empty >= 3 and found >= 20


def test_the_portfolio_s_day_p_and_l_is_the_day_p_and_l_field() -> None:
    """ "The portfolio's total day P&L of +$4,854.66" names the ranks' portfolio_day_pnl (it
    was `wrong_field`: the field's keys held only a position's `day_pnl`); the position's own
    P&L said so is `wrong_subject` (it passed: a sentence naming the portfolio and no ticker
    left its figure unscoped)."""
    checked = 0
    for question, pos in _positions():
        ranks = _ranks(question)
        if not ranks or abs(ranks["portfolio_day_pnl"] - pos["day_pnl"]) < 1:
            continue
        lead = f"{pos['ticker']} made ${pos['day_pnl']:,.2f} ({pos['pnl_pct']:+.2f}%)"
        said = f"{lead}; the portfolio's total day P&L was ${ranks['portfolio_day_pnl']:,.2f}."
        assert _verdict(question, said).accepted, (question, said)
        for wrong in (  # the position's own P&L said as the portfolio's: it was accepted
            f"{lead}; the portfolio's total day P&L was ${pos['day_pnl']:,.2f}.",
            f"{lead}. {pos['portfolio_id']}'s day P&L was ${pos['day_pnl']:,.2f}.",
        ):
            verdict = _verdict(question, wrong)
            assert "wrong_subject" in {r.rule.value for r in verdict.reasons}, (question, wrong)
        checked += 1
    assert checked >= 20


def test_breadth_said_of_the_holdings_is_the_count_not_the_ticker_s_move() -> None:
    """ "7 of 19 positions rose, 12 fell", "7 de las 19 posiciones subieron y 12 bajaron": the
    direction words are said of the counted holdings (their counts in the ranks), not of the
    ticker the trace was called for; a wrong count is rejected."""
    portfolios = list(_each_portfolio())
    for question, ranks in portfolios:
        pid = ranks["portfolio_id"]
        g, d, n, r = (
            ranks[k] for k in ("gainers", "decliners", "positions_count", "portfolio_return_pct")
        )
        lead = f"{pid} returned {r:.2f}% on the day:"
        kept = _verdict(question, f"{lead} {g} of {n} positions rose, {d} fell.")
        assert kept.accepted, (question, kept.reasons)
        es = f"{pid} rindió un {_es(r)} % en el día: {g} de las {n} posiciones subieron y {d} bajaron."
        assert _verdict(question, es).accepted, (question, es)
        wrong = _verdict(question, f"{lead} {g + 1} of {n} positions rose, {d - 1} fell.")
        assert not wrong.accepted, question
    assert len(portfolios) >= 3


def test_the_day_s_move_ranked_against_a_window_and_a_beaten_benchmark() -> None:
    """ "Today's move is the bigger of the two" (the day's change against a window's), "el
    1,76 % de la semana" (a window after its figure), "beating the benchmark by 1.09
    percentage points" (a comparison with its gap)."""
    checked = 0
    for question, move, windows in _moves():
        t, day, week = move["ticker"], move["change_pct"], windows["week"]["change_pct"]
        if abs(abs(day) - abs(week)) < 0.01:
            continue
        lead = f"{t} moved {day:+.2f}% today and {week:+.2f}% over the past week."
        big, small = (
            ("Today's", "The week's") if abs(day) > abs(week) else ("The week's", "Today's")
        )
        assert _verdict(question, f"{lead} {big} move is the bigger of the two.").accepted, question
        assert not _verdict(question, f"{lead} {small} move is the bigger of the two.").accepted
        es = f"{t} se movió un {_es(day, True)} % hoy, frente al {_es(week, True)} % de la semana."
        assert _verdict(question, es).accepted, (question, es)
        checked += 1
    assert checked >= 25
    for question, _ in _positions()[:10]:
        ranks = _ranks(question)
        a, b = ranks["portfolio_return_pct"], ranks["benchmark"]["return_pct"]
        if a <= b or not a:
            continue
        said = f"{ranks['portfolio_id']} returned {a:+.2f}%, beating the benchmark ({b:+.2f}%) by {a - b:.2f} percentage points."
        assert _verdict(question, said).accepted, said
        wrong = said.replace("beating", "trailing")
        assert not _verdict(question, wrong).accepted, wrong


def test_a_range_of_days_in_brackets_is_days_not_a_negative_figure() -> None:
    """ "One headline (Dec 28–31):" is the search's window: the far end is a day, as it is
    outside brackets; a figure in brackets after a dash is still a figure."""
    for question, move, news in _news():
        if len(news) != 1:
            continue
        lead = f"{move['ticker']} closed at {move['close']:.2f} ({move['change_pct']:+.2f}%)."
        for window in ("(Dec 28–31)", "(December 28-31)"):
            said = f'{lead} One headline {window}: "{news[0]["headline"]}".'
            assert _verdict(question, said).accepted, (question, said)
        assert not _verdict(question, f"{lead} One headline (–31).").accepted


_LABEL = {"week": "1W", "month": "1M", "quarter": "QTD", "year_to_date": "YTD"}


def test_windows_split_by_a_bar_each_take_their_own_label() -> None:
    """ "WHZZ 1M +13.69% (vs 2024-11-29) | QTD +33.14% (vs 2024-09-30)": a bar (or a bullet)
    ends a window's clause, so each figure takes the label before it, not the next one's;
    two windows' figures swapped are rejected."""
    checked = 0
    for question, move, windows in _moves():
        pair = [w for w in ("month", "quarter", "year_to_date") if w in windows]
        if len(pair) < 2:
            continue
        one, two = windows[pair[0]], windows[pair[1]]
        if one["change_pct"] == two["change_pct"]:
            continue

        def cell(label: str, row: dict[str, Any]) -> str:
            return f"{label} {row['change_pct']:+.2f}% (vs {row['start_session']})"

        line = f"{move['ticker']} {cell(_LABEL[pair[0]], one)} | {cell(_LABEL[pair[1]], two)}"
        assert _verdict(question, line).accepted, (question, line)
        swapped = (
            f"{move['ticker']} {_LABEL[pair[0]]} {two['change_pct']:+.2f}% | "
            f"{_LABEL[pair[1]]} {one['change_pct']:+.2f}%"
        )
        assert not _verdict(question, swapped).accepted, (question, swapped)
        checked += 1
    assert checked >= 25


def test_the_year_s_change_is_the_year_to_date_never_the_day_s() -> None:
    """ "Finishes the year down 14.09%", "termina el año con una caída del 14,09 %", "this
    year": the year to date, which opens in the year before; the day's move said so (its window
    opens the day before, in the same year) is `wrong_time`. It was accepted: a year to date
    was any window opening in the year's last weeks."""
    checked = 0
    for question, move, windows in _moves():
        ytd, day = windows.get("year_to_date"), move["change_pct"]
        if ytd is None or abs(abs(ytd["change_pct"]) - abs(day)) < 0.01 or not day:
            continue
        t, y = move["ticker"], ytd["change_pct"]
        way = "up" if y > 0 else "down"
        kept = _verdict(
            question, f"{t} moved {day:+.2f}% today and finishes the year {way} {abs(y):.2f}%."
        )
        assert kept.accepted, (question, kept.reasons)
        es_way = "una subida" if y > 0 else "una caída"
        es = f"{t} se movió un {_es(day, True)} % hoy y termina el año con {es_way} del {_es(abs(y))} %."
        assert _verdict(question, es).accepted, (question, es)
        for wrong in (
            f"{t} finishes the year {'up' if day > 0 else 'down'} {abs(day):.2f}%.",
            f"{t} is {'up' if day > 0 else 'down'} {abs(day):.2f}% this year.",
        ):
            assert "wrong_time" in {r.rule.value for r in _verdict(question, wrong).reasons}, wrong
        checked += 1
    assert checked >= 25


def test_a_place_out_of_the_positions_and_a_bound_s_hedge() -> None:
    """ "The 15th-largest of 25 positions" is the weight rank (another place is
    `wrong_relation`); "a little over 5%" is a bound whose hedge says nothing more."""
    checked = 0
    for question, pos in _positions():
        row = next(
            (p for p in _ranks(question).get("positions", []) if p["ticker"] == pos["ticker"]),
            None,
        )
        if row is None or row["weight_rank"] < 2:
            continue
        n, place = _ranks(question)["positions_count"], row["weight_rank"]
        suffix = {1: "st", 2: "nd", 3: "rd"}.get(place if place < 20 else place % 10, "th")
        lead = f"{pos['ticker']} moved {pos['pnl_pct']:+.2f}% today."
        said = (
            f"{lead} It is the {place}{suffix}-largest of {n} positions in {pos['portfolio_id']}."
        )
        assert _verdict(question, said).accepted, (question, said)
        other = place + 1 if place < n else place - 1
        wrong = said.replace(f"{place}{suffix}-", f"{other}th-")
        assert not _verdict(question, wrong).accepted, (question, wrong)
        checked += 1
    assert checked >= 20
    for question, move, _ in _moves()[:20]:
        pct = abs(move["change_pct"])
        way = "up" if move["change_pct"] > 0 else "down"
        under = f"{pct:.1f}"  # a bound the value rounds to, below it: "a little over 1.3%"
        if not 0 < float(under) < pct:
            continue
        said = f"{move['ticker']} closed {way} a little over {under}% today."
        assert _verdict(question, said).accepted, (question, said)
        assert not _verdict(question, said.replace("a little over", "a little under")).accepted


@pytest.mark.parametrize(
    "label",
    ["Subject: daily update\n\n", "FYI: ", "Heads up: ", "As requested, ", "Short answer: ",
     "Market close recap: ", "Puntos clave:\n- ", "Como pediste, ", "En respuesta a tu pregunta: "],
)  # fmt: skip
def test_a_note_s_labels_and_answers_to_a_request_are_frame(label: str) -> None:
    question, pos = _positions()[0]
    body = _made_today(pos)
    kept = _verdict(question, f"{label}{body} That's all for today.")
    assert kept.accepted, kept.reasons
    wrong = body.replace(f"{pos['pnl_pct']:+.2f}%", f"{pos['pnl_pct'] + 0.5:+.2f}%")
    assert not _verdict(question, f"{label}{wrong}").accepted
    assert not _verdict(question, f"{label}a rebound is likely. {body}").accepted


def test_what_the_new_bindings_must_not_loosen() -> None:
    """Guards on this round's own changes: a window after 'and' is still a figure's where no day
    is said with it ('rose 1.31% and that was over the past week' is the day's move said for
    the week); a denial of news with words between is still a denial ('nothing in the news',
    'no data on headlines') where the search found items."""
    for question, move, _ in _moves()[:20]:
        said = f"{move['ticker']} moved {move['change_pct']:+.2f}% and that was over the past week."
        verdict = _verdict(question, said)
        assert "wrong_time" in {r.rule.value for r in verdict.reasons}, (question, said)
    for question, move, news in _news():
        if not news:
            continue
        lead = f"{move['ticker']} closed at {move['close']:.2f} ({move['change_pct']:+.2f}%)."
        for denial in ("No data on headlines came back.", "Nothing turned up in the headlines."):
            verdict = _verdict(question, f"{lead} {denial}")
            assert "wrong_absence" in {r.rule.value for r in verdict.reasons}, (question, denial)


def test_a_quiet_session_is_a_small_move() -> None:
    """ "A quiet session", "muted", "una sesión tranquila", "a minor drag": a small move (under
    1% for a day), held like "slight"; said of a large move it is `wrong_relation`."""
    small = large = 0
    for question, move, _ in _moves():
        pct = move["change_pct"]
        if 0.8 <= abs(pct) <= 1.2:
            continue
        lead = f"{move['ticker']} moved {pct:+.2f}% to {move['close']:.2f}"
        for said in (f"{lead} in a quiet session.", f"{lead}, a muted day."):
            verdict = _verdict(question, said)
            if abs(pct) < 0.8:
                assert verdict.accepted, (question, said, verdict.reasons)
            else:
                assert "wrong_relation" in {r.rule.value for r in verdict.reasons}, said
        es = f"{move['ticker']} se movió un {_es(pct, True)} % en una sesión tranquila."
        assert _verdict(question, es).accepted is (abs(pct) < 0.8), (question, es)
        small += abs(pct) < 0.8
        large += abs(pct) > 1.2
    assert small >= 10 and large >= 10


def test_a_place_in_brackets_takes_the_measure_named_before_it() -> None:
    """ "Among its biggest contributors (rank 4 of 10)", "entre los mayores contribuidores
    (puesto 4 de 10)": the place is by contribution, the measure the noun before the bracket
    names (it was read by return)."""
    checked = 0
    for question, pos in _positions():
        ranks = _ranks(question)
        row = next((p for p in ranks.get("positions", []) if p["ticker"] == pos["ticker"]), None)
        if row is None or row["return_rank"] in (row["pnl_rank"], row["contribution_rank"]):
            continue  # by P&L a place holds where either of its two ranks is it
        n, place = ranks["positions_count"], row["contribution_rank"]  # the measure named
        lead = f"{pos['ticker']} ganó {_es(pos['day_pnl'])} $ ({_es(pos['pnl_pct'], True)} %)"
        said = f"{lead}; por contribuciones (puesto {place} de {n})."
        kept = _verdict(question, said)
        assert kept.accepted, (question, said, kept.reasons)
        wrong = said.replace(f"puesto {place} ", f"puesto {row['return_rank']} ")
        verdict = _verdict(question, wrong)  # the place by return: another measure's
        assert "wrong_relation" in {r.rule.value for r in verdict.reasons}, (question, wrong)
        checked += 1
    assert checked >= 10

"""Short forms a writer uses for what a result holds, over the free-form night's real traces:
a search said to have come back empty ("Nothing turned up", "Search results: none"), a calendar
written as a label ("Calendar: nil"), a place inside its portfolio ("3rd of 25 positions in
P002 by contribution"), a window written as a bare label ("Year: +0.56%"), the benchmark's
constituents, and a holding's figure after the portfolio it went to ("contributed +0.01% to
P002, with a day P&L of"). Each faithful sentence is drafted from the trace's own results beside
its corrupted twin, and each test fails with the rule that binds it removed."""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

from tests.verifier.test_unseen_prose import (
    FREE_TRACES,
    _closed,
    _codes,
    _es,
    _judged,
    _kept,
    _moves,
    _new_york,
    _news,
    _positions,
    _result,
    _verdict,
)

_EMPTY_NEWS = (
    "The search returned nothing.",
    "Nothing turned up.",
    "Search results: none.",
    "The news search came back empty.",
    "La búsqueda no devolvió nada.",
    "Nothing in the feed.",
    "No encontré nada.",
    "The wires were empty.",
    "Feed: empty.",
)
_EMPTY_CALENDAR = (
    "Calendar: none.",
    "Calendar: nil.",
    "Calendar: clear.",
    "Nothing turned up.",
    "The lookup came back empty.",
    "Calendario: vacío.",
)


def test_a_search_said_to_have_found_nothing_is_held_against_what_it_found() -> None:
    """A denial with no object after a search ("the search returned nothing", "Calendar: nil")
    denies what that search looks for: `wrong_absence` where it found items, kept where it
    found none. Every one of these words was free, so each of them used to pass unchecked."""
    found = empty = 0
    for question, move, news in _news():
        lead = _closed(move)
        for said in _EMPTY_NEWS:
            if news:
                assert "wrong_absence" in _codes(question, f"{lead} {said}"), (question, said)
            else:
                _kept(question, f"{lead} {said}")
        found, empty = found + bool(news), empty + (not news)
    events_found = events_empty = 0
    for question in sorted(q for q in FREE_TRACES if q.endswith("/events")):
        result = _result(question, "get_events")
        if "events" not in result:
            continue
        t = result["ticker"]
        for said in (
            *_EMPTY_CALENDAR,
            f"Nothing is on the calendar for {t}.",
            f"Agenda de {t}: nada.",
        ):
            if result["events"]:
                assert "wrong_absence" in _codes(question, said), (question, said)
            else:
                _kept(question, said)
        events_found += bool(result["events"])
        events_empty += not result["events"]
    assert min(found, empty, events_found, events_empty) >= 5, (found, empty, events_found)


def test_a_place_in_its_portfolio_and_the_benchmarks_constituents() -> None:
    """ "3rd of 25 positions in P002 by contribution" is a place like "3rd of 25 by
    contribution" (another place is `wrong_relation`, another portfolio `wrong_subject`);
    "(59 constituents)" after the benchmark counts its members."""
    checked = 0
    for question in sorted(q for q in FREE_TRACES if "/position/" in q):
        ranks = _result(question, "get_portfolio_ranks")
        pos = _result(question, "get_position_pnl")
        rows = [r for r in ranks.get("positions") or [] if r.get("ticker") == pos.get("ticker")]
        if not rows or "contribution_rank" not in rows[0] or "benchmark" not in ranks:
            continue
        row, n, pid = rows[0], ranks["positions_count"], ranks["portfolio_id"]
        t, place = pos["ticker"], row["contribution_rank"]
        other_pid = "P003" if pid != "P003" else "P001"
        head = f"{t} contributed {pos['contribution_pct']:+.2f}%."
        said = "{} ranks {} of {} positions in {} by contribution, {:+.2f}%."
        contribution = pos["contribution_pct"]
        _kept(question, said.format(t, _ordinal(place), n, pid, contribution))
        other = place + 1 if place < n else place - 1
        wrong = _codes(question, said.format(t, _ordinal(other), n, pid, contribution))
        assert "wrong_relation" in wrong, (question, wrong)
        assert "wrong_subject" in _codes(
            question, said.format(t, _ordinal(place), n, other_pid, contribution)
        )
        bench = ranks["benchmark"]
        versus = (
            f"{pid} returned {ranks['portfolio_return_pct']:+.2f}% vs {bench['return_pct']:+.2f}%"
        )
        _kept(
            question,
            f"{head} {versus} (equal-weight universe, {bench['constituents']} constituents).",
        )
        wrong = (
            f"{head} {versus} (equal-weight universe, {bench['constituents'] + 1} constituents)."
        )
        assert "unsupported_figure" in _codes(question, wrong)
        es = f"{t} aportó {_es(pos['contribution_pct'], True)} %. El universo equiponderado"
        _kept(
            question,
            f"{es} ({bench['constituents']} componentes) rindió {_es(bench['return_pct'], True)} %.",
        )
        checked += 1
    assert checked >= 20


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def test_a_bare_year_label_is_the_year_to_date() -> None:
    """ "Month: -6.31% | Quarter: -14.00% | Year: +0.56%", "Año hasta la fecha: +21,61 %": the
    year's label holds the year-to-date change; the quarter's change under it is `wrong_time`."""
    checked = 0
    for question, move, windows in _moves():
        month, quarter, ytd = (
            windows.get("month"),
            windows.get("quarter"),
            windows.get("year_to_date"),
        )
        if not (month and quarter and ytd):
            continue
        if round(quarter["change_pct"], 2) == round(ytd["change_pct"], 2):
            continue
        lead = f"{_closed(move)}\n- Month: {month['change_pct']:+.2f}% | Quarter: {quarter['change_pct']:+.2f}%"
        _kept(question, f"{lead} | Year: {ytd['change_pct']:+.2f}%")
        wrong = _codes(question, f"{lead} | Year: {quarter['change_pct']:+.2f}%")
        assert wrong & {"wrong_time", "unsupported_figure"}, (question, wrong)
        es = f"{_closed(move)}\n- Año hasta la fecha: {{}} %."
        _kept(question, es.format(_es(ytd["change_pct"], True)))
        assert not _codes(question, es.format(_es(ytd["change_pct"], True)))
        wrong_es = _codes(question, es.format(_es(quarter["change_pct"], True)))
        assert wrong_es & {"wrong_time", "unsupported_figure"}, (question, wrong_es)
        checked += 1
    assert checked >= 20


def test_a_figure_after_the_portfolio_a_holding_went_to_is_the_holdings() -> None:
    """ "FBB contributed +0.01% to P002, with a day P&L of -21,660.18": the portfolio is where
    the contribution went, the P&L after it is still the holding's, so the portfolio's P&L
    there is `wrong_subject`; a relative clause ("to P002, which lost ...") makes it the
    portfolio's."""
    checked = 0
    for question in sorted(q for q in FREE_TRACES if "/position/" in q):
        ranks = _result(question, "get_portfolio_ranks")
        pos = _result(question, "get_position_pnl")
        book = ranks.get("portfolio_day_pnl")
        if book is None or "day_pnl" not in pos or round(book) == round(pos["day_pnl"]):
            continue
        t, pid, name = pos["ticker"], pos["portfolio_id"], pos.get("name") or ""
        went = f"{t} contributed {pos['contribution_pct']:+.2f}% to {name} ({pid}) on 2024-12-31"
        _kept(question, f"{went}, with a day P&L of {pos['day_pnl']:+,.2f}.")
        assert "wrong_subject" in _codes(question, f"{went}, with a day P&L of {book:+,.2f}.")
        assert "wrong_subject" in _codes(question, f"{went}, a day P&L of {book:+,.2f}.")
        es = f"La posición en {t} contribuyó {pos['contribution_pct']:+.2f}% a {pid}"
        _kept(question, f"{es}, con un P&L diario de {pos['day_pnl']:,.2f}.")
        assert "wrong_subject" in _codes(question, f"{es}, con un P&L diario de {book:,.2f}.")
        verb = "lost" if book < 0 else "made"
        _kept(question, f"{went}, which {verb} {abs(book):,.2f} on the day.")
        checked += 1
    assert checked >= 20


def test_a_cause_said_impossible_holds_only_where_the_trace_makes_it_so() -> None:
    """ "It ran after the close, so it cannot explain the day's move", "el movimiento no puede
    explicarse con las noticias disponibles" where the search found none: the impossibility
    follows from the trace. Said of an item that came before the close (the close of the day
    before included: it came ahead of the day's session), or of news the search did find, it is
    a judgement no result holds: `unverified_claim`."""
    after = empty = came = earlier = 0
    for question, move, news in _news():
        lead = _closed(move)
        day = FREE_TRACES[question]["as_of"][:10]
        if not news:
            _kept(question, f"{lead} No headlines were found, so the move cannot be explained.")
            _kept(
                question, f"{lead} El movimiento no puede explicarse con las noticias disponibles."
            )
            empty += 1
            continue
        said = f"{lead} So the news cannot explain the move."
        if all(n["published_at"][:10] == day and n["session"] == "after" for n in news):
            _kept(question, said)  # every item came after the close: none can explain it
        else:
            assert "unverified_claim" in _codes(question, said), (question, said)
        for item in news:
            quote = f'"{item["headline"]}"'
            if item["published_at"][:10] == day and item["session"] == "after":
                _kept(
                    question,
                    f"{lead} {quote} ran after the close, so it cannot explain the day's move.",
                )
                after += 1
                wire = item["source"]
                if all(n["source"] != wire or n is item for n in news):
                    _kept(question, f"{lead} The {wire} item cannot explain the day's move.")
            elif item["session"] in ("before", "during"):
                said = f"{lead} {quote} came out, so it cannot explain the day's move."
                assert "unverified_claim" in _codes(question, said), (question, said)
                came += 1
            else:  # after the close of a day before: it came ahead of the day's session
                said = (
                    f"{lead} {quote} came after the close on {item['published_at'][:10]}, "
                    "so it cannot explain the move."
                )
                assert "unverified_claim" in _codes(question, said), (question, said)
                earlier += 1
    assert min(after, empty, came, earlier) >= 3, (after, empty, came, earlier)


_KIND_ES = {"earnings": "publicación de resultados", "dividend": "dividendo", "split": "split"}


def test_an_events_status_in_its_row_or_brackets_is_held_against_its_record() -> None:
    """ "| 2025-01-10 | publicación de resultados | ya publicada |", "earnings on 2025-01-10
    (scheduled)": the status word after an event's day says whether it has come; the wrong one
    is `wrong_time`."""
    checked = {True: 0, False: 0}
    for question in sorted(q for q in FREE_TRACES if q.endswith("/events")):
        for event in _result(question, "get_events").get("events") or []:
            day, kind, to_come = event["date"], event["kind"], event["scheduled"]
            row = "| Fecha | Evento | Estado |\n|---|---|---|\n| {} | {} | {} |"
            right, wrong = (
                ("programada", "ya publicada") if to_come else ("ya publicada", "programada")
            )
            _kept(question, row.format(day, _KIND_ES[kind], right))
            assert "wrong_time" in _codes(question, row.format(day, _KIND_ES[kind], wrong)), (
                question
            )
            right, wrong = ("scheduled", "reported") if to_come else ("reported", "scheduled")
            _kept(question, f"{kind.capitalize()} on {day} ({right}).")
            assert "wrong_time" in _codes(question, f"{kind.capitalize()} on {day} ({wrong})."), (
                question
            )
            checked[to_come] += 1
    assert checked[True] >= 10 and checked[False] >= 1, checked


def test_a_streak_named_by_its_noun_and_a_sign_verb_of_the_portfolio() -> None:
    """ "La racha actual es de 4 sesiones a la baja", "Ya son 4 sesiones a la baja" name the
    streak (another length is `wrong_relation`); "helped P002" and "hurt P002" carry the sign of
    the holding's contribution (the other sign is `wrong_direction`)."""
    streaks = 0
    for question, move, _ in _moves():
        streak = _result(question, "get_trend").get("streak") or {}
        if not streak.get("sessions") or streak["sessions"] < 2:
            continue
        n, way = streak["sessions"], "a la baja" if streak["direction"] == "down" else "al alza"
        lead = (
            f"{move['ticker']} cerró en {_es(move['close'])} ({_es(move['change_pct'], True)} %)."
        )
        for said in ("La racha actual es de {} sesiones {}.", "Ya son {} sesiones {}."):
            _kept(question, f"{lead} {said.format(n, way)}")
            assert "wrong_relation" in _codes(question, f"{lead} {said.format(n + 1, way)}")
        streaks += 1
    signs = 0
    for question, pos in _positions():
        if not pos.get("contribution_pct"):
            continue
        t, pid, c = pos["ticker"], pos["portfolio_id"], pos["contribution_pct"]
        right, wrong = ("helped", "hurt") if c > 0 else ("hurt", "helped")
        _kept(question, f"{t} {right} {pid} today, contributing {c:+.2f}%.")
        assert "wrong_direction" in _codes(
            question, f"{t} {wrong} {pid} today, contributing {c:+.2f}%."
        )
        signs += 1
    assert streaks >= 10 and signs >= 20, (streaks, signs)


def test_the_holding_and_the_portfolio_compared_in_other_words() -> None:
    """ "the position returned -2.30% and lagged the portfolio", "The stock's return was
    stronger than the portfolio's", "El rendimiento de la acción fue mejor que el de la
    cartera", "La cartera, con 19 posiciones, batió al universo": each comparison is held
    against the two returns (the wrong order is `wrong_relation`). "contributed +0.39% to the
    day's portfolio return of X": X is the portfolio's (a holding's figure there is
    `wrong_subject`), while "contribution to the portfolio's return was +0.39%" is the holding's."""
    checked = 0
    for question, pos in _positions():
        ranks = _result(question, "get_portfolio_ranks")
        book, bench = (
            ranks.get("portfolio_return_pct"),
            (ranks.get("benchmark") or {}).get("return_pct"),
        )
        mine, n = pos.get("pnl_pct"), ranks.get("positions_count")
        if None in (book, bench, mine, n) or round(mine, 2) == round(book, 2) or book == bench:
            continue
        t, c = pos["ticker"], pos["contribution_pct"]
        up, down = ("lagged", "beat") if mine < book else ("beat", "lagged")
        lead = f"{t} contributed {c:+.2f}%; the position returned {mine:+.2f}% and"
        _kept(question, f"{lead} {up} the portfolio.")
        assert "wrong_relation" in _codes(question, f"{lead} {down} the portfolio.")
        better, worse = ("weaker", "stronger") if mine < book else ("stronger", "weaker")
        said = f"{t} returned {mine:+.2f}%. The stock's return was {{}} than the portfolio's."
        _kept(question, said.format(better))
        assert "wrong_relation" in _codes(question, said.format(worse))
        mejor, peor = ("peor", "mejor") if mine < book else ("mejor", "peor")
        es = f"{t} rindió {_es(mine, True)} %. El rendimiento de la acción fue {{}} que el de la cartera."
        _kept(question, es.format(mejor))
        assert "wrong_relation" in _codes(question, es.format(peor))
        beat, lag = (
            ("batió al", "quedó por debajo del")
            if book > bench
            else ("quedó por debajo del", "batió al")
        )
        aside = f"{t} aportó {_es(c, True)} %. La cartera, con {n} posiciones, {{}} universo equiponderado."
        _kept(question, aside.format(beat))
        assert "wrong_relation" in _codes(question, aside.format(lag))
        went = f"{t} contributed {c:+.2f}% to the day's portfolio return of"
        _kept(question, f"{went} {book:+.2f}%.")
        assert "wrong_subject" in _codes(question, f"{went} {mine:+.2f}%.")
        _kept(question, f"{t}'s contribution to the portfolio's return was {c:+.2f}%.")
        _kept(question, f"{t}'s contribution to the day's portfolio return was {c:+.2f}%.")
        checked += 1
    assert checked >= 20, checked


def test_the_news_given_a_cause_or_a_tone_is_unchecked() -> None:
    """ "fell 3.99% on the news", "cayó por la noticia", "Earnings lifted FSA", "the headlines
    were positive", a quoted headline as the cause ("on the back of "…"", "por «…»") or set
    against the move ("even after "…"", "aunque «…»"): no result holds why a stock moved or how
    the news read, so each is `unverified_claim`, though every word of it may stand alone; the
    same draft without it is kept, the headline said beside the move is kept, and a cause asked
    about ("whether that story drove the move") is no cause said."""
    checked = 0
    for question, move, news in _news():
        if not news:
            continue
        lead = _closed(move)
        t, pct = move["ticker"], move["change_pct"]
        verb, verbo = ("rose", "subió") if pct > 0 else ("fell", "cayó")
        pushed, empujado = ("lifted", "impulsado") if pct > 0 else ("weighed down", "lastrado")
        head, source = news[0]["headline"], news[0]["source"]
        _kept(question, lead)
        _kept(question, f'{lead} {source} ran "{head}".')
        _kept(question, f'{lead} On {_new_york(news[0]):%A} {source} ran "{head}".')
        for said in (
            f"{t} {verb} {abs(pct):.2f}% on the news.",
            f"{t} {verb} {abs(pct):.2f}% on strong earnings.",
            f"{lead} The headlines were positive.",
            f"{t} {verbo} un {_es(abs(pct))} % por la noticia.",
            f"{t} {verbo} un {_es(abs(pct))} % con noticias negativas.",
            f"News lifted {t} {abs(pct):.2f}%.",
            f'{lead} The move came on "{news[0]["headline"]}".',
            f'{lead} That headline moved the stock: "{news[0]["headline"]}".',
            f'{lead} "{news[0]["headline"]}" ({news[0]["source"]}) was positive.',
            f'{lead} El titular fue positivo: "{news[0]["headline"]}".',
            f'{t} {verb} {abs(pct):.2f}% despite "{news[0]["headline"]}".',
            f'{t} {verb} {abs(pct):.2f}% on the back of "{head}" ({source}).',
            f'{t} {verb} {abs(pct):.2f}% on "{head}".',
            f'{t} {verb} {abs(pct):.2f}%, {pushed} by "{head}" ({source}).',
            f"{t} {verbo} un {_es(abs(pct))} % por «{head}».",
            f"{t} {verbo} un {_es(abs(pct))} %, {empujado} por la noticia de {source} «{head}».",
            f'{t} {verb} {abs(pct):.2f}%, even after "{head}" ({source}).',
            f'{t} {verb} {abs(pct):.2f}% although {source} reported "{head}".',
            f"{t} {verbo} un {_es(abs(pct))} %, aunque «{head}».",
            f"{t} {verbo} un {_es(abs(pct))} % mientras «{head}» ({source}).",
        ):
            reasons = _verdict(question, said).reasons
            assert any("gives the news" in r.message for r in reasons), (question, said)
        asked = f"{lead} Whether the news drove the move is not something the data shows."
        assert not any("gives the news" in r.message for r in _verdict(question, asked).reasons)
        checked += 1
    assert checked >= 10


def test_news_said_to_be_found_and_counted_by_a_verb() -> None:
    """ "News was found", "The search returned results", "Hubo noticias" say the search found
    some (`wrong_absence` where it found none); "The search found one headline", "Encontré un
    titular" count one (`wrong_relation` where it found another number)."""
    some = none = 0
    for question, move, news in _news():
        lead = _closed(move)
        for said in (
            "News was found.",
            "The search returned results.",
            "Hubo noticias.",
            "Search results: some.",
            "I found news.",
            "Hay noticias.",
            "News: found.",
            "A news item turned up.",
            "The feed had news for the stock.",
            "There is news for the stock.",
            "Hay una noticia.",
            "The news feed returned headlines.",
            "La búsqueda de noticias devolvió titulares.",
        ):
            if news:
                _kept(question, f"{lead} {said}")
            else:
                assert "wrong_absence" in _codes(question, f"{lead} {said}"), (question, said)
        for said in (
            "The search found one headline.",
            "Encontré un titular.",
            "Stories: one.",
            "Solo hubo un titular.",
        ):
            if len(news) == 1:
                _kept(question, f"{lead} {said}")
            else:
                assert "wrong_relation" in _codes(question, f"{lead} {said}"), (question, said)
        some, none = some + bool(news), none + (not news)
    assert some >= 5 and none >= 5


_EVENT_WORDS = {"earnings": "reports earnings", "dividend": "pays a dividend"}


def test_an_event_said_to_come_with_no_day_must_be_in_the_calendar() -> None:
    """ "ABXQ pays a dividend in the next 30 days", "also reports earnings", "has an event
    scheduled", "a dividend is also scheduled", "Dividend: yes", "plus a dividend", "a dividend
    in the window": an event of that kind must be in the events result (`wrong_absence` where
    none is); the calendar's scope ("only includes events announced as of the report date") names
    none."""
    checked = 0
    for question in sorted(q for q in FREE_TRACES if q.endswith("/events")):
        result = _result(question, "get_events")
        if "events" not in result:
            continue
        t = result["ticker"]
        kinds = {e["kind"] for e in result["events"]}
        for kind, said in _EVENT_WORDS.items():
            for draft in (f"{t} {said} in the next 30 days.", f"{t} also {said}."):
                _judged(question, draft, kind in kinds, "wrong_absence")
        for kind, noun in (("dividend", "a dividend"), ("earnings", "earnings")):
            for draft in (
                f"{t}: {noun} is also scheduled.",
                f"{t} calendar. {noun.split()[-1].capitalize()}: yes.",
                f"{t} has an entry, plus {noun}.",
                f"{t} has {noun} in the window.",
            ):
                _judged(question, draft, kind in kinds, "wrong_absence")
        if not kinds:
            _kept(question, f"{t}. Eventos en la ventana: ninguno.")
            assert "wrong_absence" in _codes(question, f"{t} has an event scheduled.")
            _kept(
                question,
                f"{t}: none. The calendar only includes events announced as of the report date.",
            )
            _kept(
                question, f"{t}: none. The calendar includes events announced by the report date."
            )
        checked += 1
    assert checked >= 20


_SESSION_EN = {
    "before": "before the open",
    "during": "during the session",
    "after": "after the close",
}
_SESSION_ES = {
    "before": "antes de la apertura",
    "during": "durante la sesión",
    "after": "tras el cierre",
}


def test_an_item_named_by_its_wire_or_as_the_only_one_came_when_it_came() -> None:
    """ "The Reuters item ran before the open", "La noticia de Reuters salió tras el cierre",
    "News: 1 (Reuters, before the open)", "The only headline came on Monday": the item the
    wire (or the search's only result) names came then, or it is `wrong_time`."""
    wires = only = 0
    for question, move, news in _news():
        if not news:
            continue
        lead = _closed(move)
        report = date.fromisoformat(FREE_TRACES[question]["as_of"][:10])
        by_wire: dict[str, list[dict[str, Any]]] = {}
        for item in news:
            by_wire.setdefault(item["source"], []).append(item)
        for wire, items in by_wire.items():
            if len(items) != 1 or items[0]["session"] not in _SESSION_EN:
                continue
            came = items[0]["session"]
            other = next(s for s in _SESSION_EN if s != came)
            for right, wrong in (
                (
                    f"The {wire} item ran {_SESSION_EN[came]}.",
                    f"The {wire} item ran {_SESSION_EN[other]}.",
                ),
                (
                    f"La noticia de {wire} salió {_SESSION_ES[came]}.",
                    f"La noticia de {wire} salió {_SESSION_ES[other]}.",
                ),
                (
                    f"News: {len(news)} ({wire}, {_SESSION_EN[came]})",
                    f"News: {len(news)} ({wire}, {_SESSION_EN[other]})",
                ),
            ):
                _kept(question, f"{lead} {right}")
                assert "wrong_time" in _codes(question, f"{lead} {wrong}"), (question, wrong)
            wires += 1
        if len(news) == 1:
            when = _new_york(news[0]).date()
            wire = news[0]["source"]
            other_day = when - timedelta(days=1)
            _kept(question, f"{lead} The {wire} item is dated {when.isoformat()}.")
            assert "wrong_time" in _codes(
                question, f"{lead} The {wire} item is dated {other_day.isoformat()}."
            )
            said = f"{lead} The only headline came yesterday."
            _judged(question, said, when == report - timedelta(days=1), "wrong_time")
            if 0 <= (report - when).days < 7:
                _kept(question, f"{lead} The only headline came on {when:%A}.")
                wrong_day = when - timedelta(days=1 if when.weekday() else -1)
                said = f"{lead} The only headline came on {wrong_day:%A}."
                assert "wrong_time" in _codes(question, said), (question, said)
                only += 1
    assert wires >= 10 and only >= 3, (wires, only)


_FRACTIONS = {
    "an eighth": 12.5,
    "a sixth": 100 / 6,
    "a fifth": 20.0,
    "a quarter": 25.0,
    "a third": 100 / 3,
}


def test_a_bound_on_a_fraction_in_words_is_the_fraction_itself() -> None:
    """ "more than a quarter of P001" for a 23.88% weight is false though 23.88% is "about a
    quarter": the bound is held against the fraction, not its tolerance; "less than a quarter
    of P001" is that bound, no comparison with the portfolio."""
    checked = 0
    for question, pos in _positions():
        ranks = _result(question, "get_portfolio_ranks")
        rows = [r for r in ranks.get("positions") or [] if r.get("ticker") == pos["ticker"]]
        if not rows or "weight_pct" not in rows[0]:
            continue
        weight, t, pid = rows[0]["weight_pct"], pos["ticker"], pos["portfolio_id"]
        for words, share in _FRACTIONS.items():
            if share < weight < share * 1.05:
                _kept(question, f"{t} makes up a little more than {words} of {pid}.")
                checked += 1
            if not share * 0.85 < weight < share:
                continue
            _kept(question, f"{t} makes up about {words} of {pid}.")
            _kept(question, f"{t} makes up less than {words} of {pid}.")
            said = f"{t} makes up more than {words} of {pid}."
            assert any("lower bound" in r.message for r in _verdict(question, said).reasons), said
            checked += 1
    assert checked >= 3, checked


def test_a_denial_for_all_time_or_up_to_a_day_is_held_by_the_window() -> None:
    """ "ABXQ never pays a dividend", "does not pay dividends", "no paga dividendos", "no events
    scheduled at all": a 30-day calendar cannot hold a denial for all time (`unverified_claim`);
    "no events before January 30" denies every event up to that day, and "one item on the
    calendar" counts them."""
    empty = full = 0
    for question in sorted(q for q in FREE_TRACES if q.endswith("/events")):
        result = _result(question, "get_events")
        if "events" not in result:
            continue
        t, events = result["ticker"], result["events"]
        for said in (
            f"{t} never pays a dividend.",
            f"{t} does not pay dividends.",
            f"{t} no paga dividendos.",
            f"{t} has no events scheduled at all.",
        ):
            assert "unverified_claim" in _codes(question, said), (question, said)
        if not events:
            _kept(question, f"{t} has no events scheduled in the window.")
            _kept(question, f"{t} does not pay a dividend in the window.")  # for the window only
            _kept(question, f"{t} no presenta resultados en la ventana.")
            assert "wrong_relation" in _codes(question, f"There is one item on {t}'s calendar.")
            empty += 1
            continue
        end = date.fromisoformat(result["end"])
        if min(e["date"] for e in events) >= result["end"]:
            continue
        said = f"{t} has no events before {end:%B} {end.day}, {end.year}."
        assert "wrong_absence" in _codes(question, said), (question, said)
        full += 1
    assert empty >= 5 and full >= 5, (empty, full)


def test_an_events_status_said_after_its_day_and_a_forecast() -> None:
    """ "FSA's earnings on December 31 are still to come" of a reported event, "were already
    reported" of a scheduled one: `wrong_time`; "its only event is a dividend" and "Dividend:
    also scheduled" need a dividend; "which will move the shares" forecasts (`unverified_claim`)."""
    checked = {True: 0, False: 0}
    for question in sorted(q for q in FREE_TRACES if q.endswith("/events")):
        result = _result(question, "get_events")
        t = result.get("ticker")
        for event in result.get("events") or []:
            day = date.fromisoformat(event["date"])
            said = f"{t}'s {event['kind']} on {day:%B} {day.day}, {day.year}"
            right, wrong = (
                ("are still to come", "were already reported")
                if event["scheduled"]
                else ("were already reported", "are still to come")
            )
            _kept(question, f"{said} {right}.")
            assert "wrong_time" in _codes(question, f"{said} {wrong}."), question
            forecast = f"{said} {right}, which will move the shares."
            assert any("forecast" in r.message for r in _verdict(question, forecast).reasons)
            checked[event["scheduled"]] += 1
        kinds = {e["kind"] for e in result.get("events") or []}
        if "events" in result and "dividend" not in kinds:
            for said in (f"{t}'s only event is a dividend.", f"{t}: dividend: also scheduled."):
                assert "wrong_absence" in _codes(question, said), (question, said)
    assert checked[True] >= 10 and checked[False] >= 1, checked


def test_a_search_said_to_cover_more_than_it_did_found_nothing_there() -> None:
    """ "I searched the past month of news and found nothing", "A search of December's news
    found nothing": the days before the search opened are days no call looked at
    (`unverified_claim`); the search's own days hold."""
    checked = 0
    for question, move, news in _news():
        events = FREE_TRACES[question]["events"]
        starts = [e["args"]["start"] for e in events if e["tool"] == "search_news"]
        if news or not starts or min(starts) <= "2024-12-01":
            continue
        lead = _closed(move)
        for said in (
            "I searched the past month of news and found nothing.",
            "A search of December's news found nothing.",
            "The search covered the whole of December and came back empty.",
        ):
            reasons = _verdict(question, f"{lead} {said}").reasons
            assert any("searches looked from" in r.message for r in reasons), (question, said)
        _kept(question, f"{lead} The search found nothing.")
        checked += 1
    assert checked >= 5


def test_a_share_said_in_words_is_recomputed_from_the_figures_around_it() -> None:
    """ "added 0.31%, nearly all of P001's 0.52%" (60%) is `wrong_relation`; "the bulk of" it
    holds, "more than all of" a smaller figure holds; the benchmark's "universe of 10 names"
    where it has 59 is the portfolio's count (`wrong_subject`)."""
    checked = 0
    for question, pos in _positions():
        ranks = _result(question, "get_portfolio_ranks")
        book, c = ranks.get("portfolio_return_pct"), pos.get("contribution_pct")
        bench = ranks.get("benchmark") or {}
        if not book or not c or (c > 0) != (book > 0) or "constituents" not in bench:
            continue
        t, pid, share = pos["ticker"], pos["portfolio_id"], abs(c / book)
        said = f"{t} added {c:+.2f}%, {{}} {pid}'s {book:+.2f}%."
        for words, low, high in (("nearly all of", 0.8, 1.0), ("the bulk of", 0.5, 1.0)):
            verdict = _verdict(question, said.format(words))
            if low + 0.05 < share < high - 0.02:
                assert verdict.accepted, (question, words, verdict.reasons)
            elif share < low - 0.05 or share > high + 0.05:
                assert "wrong_relation" in {r.rule.value for r in verdict.reasons}, (
                    question,
                    words,
                )
        n, wrong = bench["constituents"], ranks["positions_count"]
        versus = f"{pid} returned {book:+.2f}% against {bench['return_pct']:+.2f}% for the equal-weight universe of"
        _kept(question, f"{versus} {n} names.")
        if wrong != n:
            assert "wrong_subject" in _codes(question, f"{versus} {wrong} names.")
        checked += 1
    assert checked >= 20, checked


_DIAS = ("lunes", "martes", "miércoles", "jueves", "viernes", "sábado", "domingo")


def test_a_session_said_beside_a_wire_or_denied_is_held_against_the_items() -> None:
    """ "Reuters published before the open", "| Reuters | before the open |", "Benzinga's item
    was after-hours" (a clause that names one wire and quotes nothing), "The only headline hit
    intraday", "Nothing came before the open" / "Nada antes de la apertura" (a session denied)
    and "No news on Monday" (the Monday before the report) are held against when the items
    came: `wrong_time` or `wrong_absence`."""
    wires = denials = 0
    for question, move, news in _news():
        if not news:
            continue
        lead = _closed(move)
        came = {item["session"] for item in news}
        report = date.fromisoformat(FREE_TRACES[question]["as_of"][:10])
        for item in news:
            when = _new_york(item).date()
            if 0 < (report - when).days < 7:
                for said in (
                    f"No news on {when:%A}.",
                    f"Ninguna noticia el {_DIAS[when.weekday()]}.",
                ):
                    assert "wrong_absence" in _codes(question, f"{lead} {said}"), (question, said)
        for session, words in _SESSION_EN.items():
            said = f"{lead} Nothing came {words}."
            if session in came:
                assert "wrong_absence" in _codes(question, said), (question, said)
            else:
                _kept(question, said)
        denials += 1
        by_wire: dict[str, set[str]] = {}
        for item in news:
            by_wire.setdefault(item["source"], set()).add(item["session"])
        for wire, sessions in by_wire.items():
            other = next(s for s in _SESSION_EN if s not in sessions)
            right = next(iter(sessions))
            for shape in ("{w} published {s}.", "\n| Wire | Session |\n|---|---|\n| {w} | {s} |"):
                _kept(question, lead + " " + shape.format(w=wire, s=_SESSION_EN[right]))
                wrong = lead + " " + shape.format(w=wire, s=_SESSION_EN[other])
                assert "wrong_time" in _codes(question, wrong), (question, wrong)
            wires += 1
    assert wires >= 20 and denials >= 10, (wires, denials)


def test_news_and_events_said_in_labels_and_short_forms() -> None:
    """ "Headlines: one", "The feed was empty" (and "Search results: some", "I found news",
    "Hay noticias" beside "News was found" above); "ABXQ has never paid a dividend", "pays no dividend"; "earnings on 2025-01-24
    [reported]", "— reported", "(publicados)", "not yet reported": each is held against the
    search or the calendar like its longer wording."""
    checked = 0
    for question, move, news in _news():
        lead = _closed(move)
        said = f"{lead} The feed was empty."
        if news:
            assert "wrong_absence" in _codes(question, said), (question, said)
        else:
            _kept(question, said)
        if len(news) != 1:
            assert "wrong_relation" in _codes(question, f"{lead} Headlines: one."), question
        checked += 1
    for question in sorted(q for q in FREE_TRACES if q.endswith("/events")):
        result = _result(question, "get_events")
        t = result.get("ticker")
        for said in (f"{t} has never paid a dividend.", f"{t} pays no dividend."):
            assert "unverified_claim" in _codes(question, said), (question, said)
        for event in result.get("events") or []:
            day = event["date"]
            right, wrong = (
                ("scheduled", "reported") if event["scheduled"] else ("reported", "scheduled")
            )
            for shape in ("{k} on {d} [{s}].", "{k} on {d} — {s}."):
                _kept(question, f"{t}: " + shape.format(k=event["kind"], d=day, s=right))
                wrong_said = f"{t}: " + shape.format(k=event["kind"], d=day, s=wrong)
                assert "wrong_time" in _codes(question, wrong_said), (question, wrong_said)
            if event["scheduled"]:
                _kept(question, f"{t}: {event['kind']} on {day}, not yet reported.")
            else:
                assert "wrong_time" in _codes(
                    question, f"{t}: {event['kind']} on {day}, not yet reported."
                )
            checked += 1
    assert checked >= 30, checked


def test_a_figure_in_the_portfolios_own_clause_is_the_portfolios() -> None:
    """ "contributing 0.39% to P001, which returned 1.90%", "a una cartera que subió un 1,90 %",
    "a la rentabilidad de la cartera del 1,90 %": the figure is the portfolio's, so the holding's
    own return there is `wrong_subject`; the portfolio's return there is kept."""
    checked = 0
    for question, pos in _positions():
        ranks = _result(question, "get_portfolio_ranks")
        book, mine = ranks.get("portfolio_return_pct"), pos.get("pnl_pct")
        if book is None or mine is None or round(abs(book), 2) == round(abs(mine), 2):
            continue
        if (book > 0) != (mine > 0) or not book:
            continue
        t, pid, c = pos["ticker"], pos["portfolio_id"], pos["contribution_pct"]
        up = "returned"
        for value, keep in ((book, True), (mine, False)):
            for said in (
                f"{t} contributed {c:+.2f}% to {pid}, which {up} {value:+.2f}%.",
                f"{t} aportó un {_es(c, True)} % a la rentabilidad de la cartera del {_es(value, True)} %.",
            ):
                _judged(question, said, keep, "wrong_subject")
        checked += 1
    assert checked >= 10, checked


def test_a_streak_label_with_a_bare_count_and_abbreviated_window_labels() -> None:
    """ "Streak: 4 down", "Racha: 4 a la baja" count the streak (another count or direction is
    `wrong_relation`); "Mo: +11.50%", "Qtr: +31.14%" label the month's and the quarter's change
    (the week's change under them is `wrong_time`)."""
    streaks = labels = 0
    for question, move, windows in _moves():
        streak = _result(question, "get_trend").get("streak") or {}
        lead = _closed(move)
        if streak.get("sessions", 0) >= 2:
            n, way = streak["sessions"], streak["direction"]
            other = "up" if way == "down" else "down"
            _kept(question, f"{lead} Streak: {n} {way}.")
            assert "wrong_relation" in _codes(question, f"{lead} Streak: {n + 1} {way}.")
            assert "wrong_relation" in _codes(question, f"{lead} Streak: {n} {other}.")
            es = {"down": "a la baja", "up": "al alza"}[way]
            _kept(question, f"{lead} Racha: {n} {es}.")
            assert "wrong_relation" in _codes(question, f"{lead} Racha: {n + 1} {es}.")
            streaks += 1
        week, month, quarter = windows.get("week"), windows.get("month"), windows.get("quarter")
        if not (week and month and quarter):
            continue
        if len({round(w["change_pct"], 2) for w in (week, month, quarter)}) < 3:
            continue
        for label, right in (("Mo", month), ("Qtr", quarter)):
            _kept(question, f"{lead}\n- {label}: {right['change_pct']:+.2f}%")
            wrong = _codes(question, f"{lead}\n- {label}: {week['change_pct']:+.2f}%")
            assert wrong & {"wrong_time", "unsupported_figure"}, (question, label, wrong)
        labels += 1
    assert streaks >= 10 and labels >= 20, (streaks, labels)


def test_a_percentage_said_of_a_figure_is_that_figures_share() -> None:
    """ "-4,727.52, roughly 22% of P002's -21,660.18 day loss", "a contribution of 0.31%,
    about 60% of the portfolio's 0.52% return": the words name the operation, a figure of the
    sentence over the one the percentage is said of. Any other operation that happens to give
    the percentage ("287.14 x 0.31 = 89") is no support: a wrong share is rejected."""
    checked = 0
    for question, pnl in _positions():
        summary = _result(question, "get_portfolio_ranks")
        loss, whole = pnl.get("day_pnl"), summary.get("portfolio_day_pnl")
        if not loss or not whole or pnl["ticker"] in summary.get("bottom_movers", ()):
            continue
        t, p, share = pnl["ticker"], pnl["portfolio_id"], abs(loss / whole * 100)
        if share < 2:
            continue
        lead = f"{t} in {p}: a day P&L of {loss:,.2f},"
        _kept(question, f"{lead} roughly {share:.0f}% of {p}'s {whole:,.2f} day P&L.")
        _kept(question, f"{lead} cerca del {share:.0f} % de los {whole:,.2f} de {p}.")
        for wrong in (share + 9, share * 2 + 7):
            said = f"{lead} roughly {wrong:.0f}% of {p}'s {whole:,.2f} day P&L."
            assert "unsupported_figure" in _codes(question, said), (question, said)
        checked += 1
    assert checked >= 10, checked


def test_a_window_said_searched_is_one_the_searches_covered() -> None:
    """ "I searched the past month", "The search covered December", "Two headlines in the past
    month", "Busqué noticias del último mes": the window said is held against the searches'
    own start; one that opens before it speaks of days no call looked at."""
    wider = within = 0
    for question, move, news in _news():
        search = next(e for e in FREE_TRACES[question]["events"] if e["tool"] == "search_news")
        start = date.fromisoformat(search["args"]["start"])
        report = date.fromisoformat(FREE_TRACES[question]["as_of"][:10])
        lead = _closed(move)
        month = (
            "I searched the past month.",
            "The search covered the last 30 days.",
            "Search window: the past month.",
            "Busqué noticias del último mes.",
        )
        for said in month if start > report - timedelta(days=30) else ():
            assert "unverified_claim" in _codes(question, f"{lead} {said}"), (question, said)
            wider += 1
        if len(news) == 2 and start > report - timedelta(days=30):
            said = f"{lead} Two headlines in the past month."
            assert "unverified_claim" in _codes(question, said), (question, said)
        if start <= report - timedelta(days=report.weekday()):
            _kept(question, f"{lead} The search covered this week.")
            within += 1
    assert min(wider, within) >= 5, (wider, within)


def test_one_direction_word_governs_a_list_of_windows() -> None:
    """ "down 1.56% on the week, 5.48% on the month and 2.96% on the quarter": the word says the
    sign of every unsigned percentage of the list, so a window that rose is `wrong_direction`;
    a list whose windows all fell (or all rose) is kept, in English and Spanish."""
    kept = wrong = 0
    for question, move, changes in _moves():
        windows = [w for w in ("week", "month", "quarter") if w in changes]
        if len(windows) < 3:
            continue
        values = [changes[w]["change_pct"] for w in windows]
        if not values[0]:
            continue
        word, palabra = ("up", "sube un") if values[0] > 0 else ("down", "cae un")
        listed = ", ".join(
            f"{abs(v):.2f}% on the {w}" for v, w in zip(values, windows, strict=True)
        )
        listed = listed.replace(f", {abs(values[2]):.2f}%", f" and {abs(values[2]):.2f}%")
        draft = f"{_closed(move)} It is {word} {listed}."
        es = {"week": "la semana", "month": "el mes", "quarter": "el trimestre"}
        lista = f"{palabra} {_es(abs(values[0]))} % en {es[windows[0]]} y un "
        lista += f"{_es(abs(values[1]))} % en {es[windows[1]]}"
        borrador = f"{_closed(move)} {lista.capitalize()}."
        if all(v * values[0] > 0 for v in values):
            _kept(question, draft)
            kept += 1
        elif any(v * values[0] < 0 for v in values):
            assert "wrong_direction" in _codes(question, draft), (question, draft)
            wrong += 1
        if values[1] * values[0] > 0:
            _kept(question, borrador)
        elif values[1] * values[0] < 0:
            assert "wrong_direction" in _codes(question, borrador), (question, borrador)
    assert min(kept, wrong) >= 5, (kept, wrong)


def test_a_percentage_qualifying_a_weight_noun_is_the_weight() -> None:
    """ "a 2.62% position", "a 2.62% weight", "un 2,62 % de peso": the noun after the figure
    names its field, so the day's return written there is `wrong_field`; a label on the next
    line ("+0.10%" over "Weight: 7.73%") names the figure after it, not this one."""
    checked = 0
    for question, pnl in _positions():
        row = _result(question, "get_portfolio_ranks").get("positions") or [{}]
        weight, day = row[0].get("weight_pct"), pnl.get("pnl_pct")
        if weight is None or day is None or abs(abs(day) - weight) < 0.01:
            continue
        t, p, contribution = pnl["ticker"], pnl["portfolio_id"], pnl["contribution_pct"]
        lead = f"{t} in {p} contributed {contribution:+.2f}%."
        for noun in ("position", "weight"):
            _kept(question, f"{lead} It is a {weight:.2f}% {noun}.")
            said = f"{lead} It is a {abs(day):.2f}% {noun}."
            assert "wrong_field" in _codes(question, said), (question, said)
        _kept(question, f"{lead} Es un {_es(weight)} % de peso.")
        _kept(question, f"Contribution: {contribution:+.2f}%\nWeight: {weight:.2f}%")
        checked += 1
    assert checked >= 10, checked


def test_a_place_among_the_holdings_of_a_sector_needs_the_whole_portfolio() -> None:
    """ "the portfolio's only Materials holding", "its largest Energy name", "el único valor de
    materiales": a place among every holding of a sector, which no result of these traces lists
    (the ranks hold the asked position alone): `unverified_claim`. The sector said plainly ("a
    Materials holding") is the result's own word and stays."""
    checked = 0
    for question, pnl in _positions():
        row = (_result(question, "get_portfolio_ranks").get("positions") or [{}])[0]
        sector = row.get("sector")
        if not sector:
            continue
        t, contribution = pnl["ticker"], pnl["contribution_pct"]
        lead = f"{t} contributed {contribution:+.2f}% to {pnl['portfolio_id']}."
        _kept(question, f"{lead} {t} is a {sector} holding.")
        for said in (
            f"{t} is the portfolio's only {sector} holding.",
            f"{t} is the largest {sector} name in the book.",
        ):
            assert "unverified_claim" in _codes(question, f"{lead} {said}"), (question, said)
        checked += 1
    assert checked >= 10, checked


def test_the_only_holding_that_moved_one_way_is_counted() -> None:
    """ "the only holding that fell", "the only stock in P002 that rose": its portfolio's
    decliners (gainers) must be one, and the holding must have moved that way."""
    checked = 0
    for question, pnl in _positions():
        ranks = _result(question, "get_portfolio_ranks")
        if not isinstance(ranks.get("decliners"), int) or not pnl.get("pnl_pct"):
            continue
        t, p = pnl["ticker"], pnl["portfolio_id"]
        lead = f"{t} contributed {pnl['contribution_pct']:+.2f}% to {p}."
        key, verb = ("decliners", "fell") if pnl["pnl_pct"] < 0 else ("gainers", "rose")
        said = f"{lead} {t} was the only holding that {verb}."
        _judged(question, said, ranks[key] == 1, "wrong_relation")
        checked += 1
    assert checked >= 10, checked


def _streaks() -> list[tuple[str, dict[str, Any], dict[str, Any]]]:
    """The move questions whose trace has the day's close and a streak."""
    out = []
    for question in sorted(q for q in FREE_TRACES if q.endswith("/move")):
        streak = _result(question, "get_trend").get("streak")
        move = _result(question, "get_daily_move")
        if isinstance(streak, dict) and "close" in move:
            out.append((question, move, streak))
    return out


def test_a_streak_said_to_have_ended_is_one_the_report_day_ended() -> None:
    """ "snapping a losing streak", "the losing streak ended", "rompió su racha bajista": the
    run that way ended on the report day, so the trace's current streak is the other way and one
    session long; a run still going is `wrong_relation`, and a length given to the ended run
    ("a three-day losing streak") is in no result."""
    ended = going = 0
    for question, move, streak in _streaks():
        lead = _closed(move)
        now = streak["direction"]
        other = {"up": ("losing", "bajista"), "down": ("winning", "alcista")}[now]
        same = {"up": ("winning", "alcista"), "down": ("losing", "bajista")}[now]
        if streak["sessions"] == 1:
            _kept(question, f"{lead} It snapped a {other[0]} streak.")
            _kept(question, f"{lead} Its {other[0]} streak ended.")
            said = f"{lead} It snapped a three-day {other[0]} streak."
            assert "wrong_relation" in _codes(question, said), (question, said)
            ended += 1
        else:
            for said in (
                f"{lead} The {same[0]} streak ended.",
                f"{lead} Rompió su racha {same[1]}.",
            ):
                assert "wrong_relation" in _codes(question, said), (question, said)
            going += 1
    assert min(ended, going) >= 5, (ended, going)


def test_a_move_said_of_the_session_before_is_held_against_the_streak() -> None:
    """ "It also rose on 2024-12-30": a direction said of the session before the report day is
    not the report day's. The current streak tells it: a streak of two or more ran through that
    session; one that began on the report day means it did not go that way
    (`wrong_direction`). A run said to go back to a day ("falling since Friday") is the streak's."""
    ran = began = 0
    for question, move, streak in _streaks():
        lead, before = _closed(move), move["previous_session"]
        verb = {"up": "rose", "down": "fell"}[streak["direction"]]
        other = {"up": "fell", "down": "rose"}[streak["direction"]]
        said = f"{lead} It also {verb} on {before}."
        if streak["sessions"] >= 2:
            _kept(question, said)
            wrong = f"{lead} It {other} on {before}."
            assert "wrong_direction" in _codes(question, wrong), (question, wrong)
            ran += 1
        else:
            assert "wrong_direction" in _codes(question, said), (question, said)
            began += 1
    assert min(ran, began) >= 5, (ran, began)


_TIMES_WORDS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine")


def test_a_multiple_of_a_figure_is_the_ratio_of_the_two() -> None:
    """ "about five times the portfolio's -0.90%", "more than three times P001's 0.52%", "2.3x
    P002's -0.90%": the number is a ratio of the figure before it to the one after, at its
    precision (a bound on its side), not whatever fact it happens to equal; "7x the benchmark"
    is a multiple of no figure."""
    checked = 0
    for question, pnl in _positions():
        ranks = _result(question, "get_portfolio_ranks")
        whole, part = ranks.get("portfolio_return_pct"), pnl.get("pnl_pct")
        if not whole or not part:
            continue
        ratio = abs(part / whole)
        near = round(ratio)
        if not 2 <= near <= 7 or abs(ratio - near) > 0.4:
            continue
        t, p = pnl["ticker"], pnl["portfolio_id"]
        lead = f"{t} returned {part:+.2f}%,"
        tail = f"times {p}'s {whole:+.2f}%."
        _kept(question, f"{lead} about {_TIMES_WORDS[near]} {tail}")
        _kept(question, f"{lead} {ratio:.1f}x {p}'s {whole:+.2f}%.")
        _kept(question, f"{lead} about {int(ratio * 10) / 10:.1f}x {p}'s {whole:+.2f}%.")
        wrong = [
            f"{lead} about {_TIMES_WORDS[near + 2]} {tail}",
            f"{lead} {ratio + 1.5:.1f}x {p}'s {whole:+.2f}%.",
            f"{lead} {near + 2}x the benchmark.",
        ]
        if int(ratio) >= 2:
            _kept(question, f"{lead} more than {_TIMES_WORDS[int(ratio)]} {tail}")
            wrong.append(f"{lead} more than {_TIMES_WORDS[int(ratio) + 1]} {tail}")
        for said in wrong:
            assert _codes(question, said) & {"unsupported_figure", "wrong_relation"}, said
        checked += 1
    assert checked >= 5, checked


def test_the_best_or_worst_return_is_by_return_alone() -> None:
    """ "XMQ had the worst return in P002": with the measure named, the place is by the day's
    return, not by what the holding added (XMQ lost the most dollars but fell less than six
    others)."""
    checked = {True: 0, False: 0}
    for question, pnl in _positions():
        ranks = _result(question, "get_portfolio_ranks")
        row = (ranks.get("positions") or [{}])[0]
        rank, count = row.get("return_rank"), ranks.get("positions_count")
        if not isinstance(rank, int) or not isinstance(count, int):
            continue
        t, p = pnl["ticker"], pnl["portfolio_id"]
        lead = f"{t} contributed {pnl['contribution_pct']:+.2f}% to {p}."
        for word, holds in (("worst", rank == count), ("best", rank == 1)):
            said = f"{lead} {t} had the {word} return in {p}."
            _judged(question, said, holds, "wrong_relation")
            checked[holds] += 1
    assert checked[True] >= 3 and checked[False] >= 10, checked


def test_what_is_said_of_a_searchs_items_together_is_held_against_their_times() -> None:
    """ "Both headlines are from 2024-12-31", "Both came on the same day", "The earlier of the
    two headlines was ...", "De los dos titulares, el anterior fue ...", "came over the
    weekend": every word is free and the day is one of the trace's, so each is held against
    the items' New York times (`wrong_time` where they disagree)."""
    checked = {True: 0, False: 0}
    for question, move, news in _news():
        lead = _closed(move)
        days = {_new_york(n).date() for n in news}
        if len(news) == 2:
            first = news[0]["published_at"][:10]
            for said, holds in (
                (f"Both headlines are from {first}.", days == {date.fromisoformat(first)}),
                ("Both headlines came on the same day.", len(days) == 1),
            ):
                _judged(question, f"{lead} {said}", holds, "wrong_time")
                checked[holds] += 1
            earliest = min(news, key=_new_york)
            for item in news:
                quote = f'"{item["headline"]}"'
                holds = item is earliest
                for said in (
                    f"The earlier of the two headlines was {quote}.",
                    f"De los dos titulares, el anterior fue {quote}.",
                ):
                    _judged(question, f"{lead} {said}", holds, "wrong_time")
                    checked[holds] += 1
        if len(news) == 1:
            item = news[0]
            said = f'{lead} The only headline, "{item["headline"]}", came over the weekend.'
            _judged(question, said, _new_york(item).weekday() >= 5, "wrong_time")
    assert min(checked.values()) >= 10, checked


def test_one_item_in_each_session_is_counted() -> None:
    """ "One headline came before the open and one after the close", "una salió antes de la
    apertura y otra durante la sesión", "Only one of the two headlines came during the session":
    the sessions said are the items' own, as many as there are."""
    words = {"before": ("before the open", "antes de la apertura"),
             "during": ("during the session", "durante la sesión"),
             "after": ("after the close", "tras el cierre")}  # fmt: skip
    checked = {True: 0, False: 0}
    for question, move, news in _news():
        if len(news) != 2:
            continue
        lead, had = _closed(move), sorted(n["session"] for n in news)
        for a in words:
            for b in words:
                if a > b:
                    continue
                holds = sorted((a, b)) == had
                said = f"{lead} One headline came {words[a][0]} and one {words[b][0]}."
                _judged(question, said, holds, "wrong_time")
                dicho = f"{lead} Una salió {words[a][1]} y otra {words[b][1]}."
                _judged(question, dicho, holds, "wrong_time")
                checked[holds] += 1
            said = f"{lead} Only one of the two headlines came {words[a][0]}."
            _judged(question, said, had.count(a) == 1, "wrong_time")
    assert min(checked.values()) >= 5, checked

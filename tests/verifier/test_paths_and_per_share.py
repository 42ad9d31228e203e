"""A path between two levels, an amount per share, a figure said to equal a field, a count of
the sessions a sentence dates, an event said to stand as a scheduled one, and a day said of the
close after a figure: over the free-form night's real traces, each faithful sentence is drafted
from the trace's own results beside its corrupted twin, and each test fails with the rule that
binds it removed."""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

from tests.verifier.test_closed_world import TRACES
from tests.verifier.test_unseen_prose import (
    FREE_TRACES,
    _closed,
    _codes,
    _es,
    _kept,
    _moves,
    _positions,
    _result,
)
from verifier.verify import verify_json as verify

_KIND_ES = {"earnings": "anuncio de resultados", "dividend": "dividendo", "split": "split"}


def _numbers(value: object) -> set[float]:
    """Every number a trace's events hold, at any depth, and the length of every list."""
    if isinstance(value, bool):
        return set()
    if isinstance(value, int | float):
        return {float(value)}
    if isinstance(value, dict):
        return set().union(*(_numbers(v) for v in value.values()))
    if isinstance(value, list):  # a list's length is a count the verifier reads too
        return {float(len(value))}.union(*(_numbers(v) for v in value))
    return set()


_WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")


def _lead(pnl: dict[str, object]) -> str:
    """What a position's answer must give: its return on the day."""
    return f"{pnl['ticker']} returned {pnl['pnl_pct']:+.2f}% on the day."


def _weekday(iso: str) -> str:
    return _WEEKDAYS[date.fromisoformat(iso).weekday()]


def test_a_spanish_path_from_one_level_to_another_is_no_move_of_that_size() -> None:
    """ "bajó de 405,00 a 399,54" and "una caída de 5,46 (405,00 → 399,54)": the levels the
    move ran between, not a fall of 405; said with the wrong verb it is `wrong_direction`."""
    checked = 0
    for question, move, _ in _moves():
        t, p, c, change = move["ticker"], move["previous_close"], move["close"], move["change"]
        if not change:
            continue
        right, wrong = ("subió", "bajó") if change > 0 else ("bajó", "subió")
        lead = _closed(move)
        noun = "una subida" if change > 0 else "una caída"
        _kept(question, f"{lead} {t} {right} de {_es(p)} a {_es(c)}.")
        _kept(question, f"{lead} {t} {right} de {_es(p)} el lunes a {_es(c)} el martes.")
        _kept(question, f"{lead} {t} registró {noun} de {_es(abs(change))} ({_es(p)} → {_es(c)}).")
        assert "wrong_direction" in _codes(question, f"{lead} {t} {wrong} de {_es(p)} a {_es(c)}.")
        checked += 1
    assert checked >= 10, checked


def test_a_difference_said_with_a_direction_runs_from_the_previous_close() -> None:
    """ "HEXS rose 5.46 (405.00 → 399.54)" over a position's closes: a difference of the two is
    derived only in the direction the path runs, from the previous close to the close."""
    checked = 0
    for question, pnl in _positions():
        lead = _lead(pnl)
        t, p, c = pnl["ticker"], pnl["previous_close"], pnl["close"]
        gap = round(abs(c - p), 2)
        if gap < 0.1:
            continue
        right, wrong = ("rose", "fell") if c > p else ("fell", "rose")
        _kept(question, f"{lead} {t} {right} {gap:.2f} ({p:.2f} → {c:.2f}).")
        assert _codes(question, f"{lead} {t} {wrong} {gap:.2f} ({p:.2f} → {c:.2f}).") & {
            "unsupported_figure",
            "wrong_direction",
        }, question
        checked += 1
    assert checked >= 10, checked


def test_an_amount_per_share_is_the_amount_over_the_shares_named() -> None:
    """ "-29.76 over 992 shares works out to -0.03 per share": the one operation the words name,
    held at the precision shown even with one significant digit; another amount, or the sign
    against the amount's, is `unsupported_figure`."""
    checked = 0
    for question, pnl in _positions():
        lead = _lead(pnl)
        t, pnl_day, qty = pnl["ticker"], pnl["day_pnl"], int(pnl["quantity"])
        each = pnl_day / qty
        if abs(each) < 0.01 or abs(abs(each) * 100 % 1 - 0.5) < 0.05:
            continue  # rounds to nothing, or too near a half cent to round one way
        _kept(
            question, f"{lead} {t}: {pnl_day:+,.2f} over {qty:,} shares is {each:+.2f} per share."
        )
        _kept(
            question,
            f"{lead} {t} made {pnl_day:+,.2f} on {qty:,} shares, or {abs(each):.2f} a share.",
        )
        _kept(
            question,
            f"{lead} Un resultado de {_es(pnl_day, True)} sobre {_es(qty)[:-3]} acciones "
            f"equivale a {_es(each, True)} por acción.",
        )
        for said in (
            f"{lead} {t}: {pnl_day:+,.2f} over {qty:,} shares is {each * 3:+.2f} per share.",
            f"{lead} {t}: {pnl_day:+,.2f} over {qty:,} shares is {-each:+.2f} per share.",
        ):
            assert "unsupported_figure" in _codes(question, said), said
        checked += 1
    assert checked >= 10, checked


def test_a_figure_said_to_match_a_field_is_that_fields() -> None:
    """ "comes to -283.92, matching the day P&L", "igual al resultado del día": the figure is
    held to the field named after it; another field is `wrong_field`."""
    checked = 0
    for question, pnl in _positions():
        lead = _lead(pnl)
        t, day = pnl["ticker"], pnl["day_pnl"]
        verb, verbo = ("gained", "ganó") if day > 0 else ("lost", "perdió")
        _kept(question, f"{lead} {t} {verb} {abs(day):,.2f}, matching the day P&L.")
        _kept(question, f"{lead} {t} {verbo} {_es(abs(day))}, igual al resultado del día.")
        assert "wrong_field" in _codes(
            question, f"{t} {verb} {abs(day):,.2f}, matching the market value."
        )
        assert "wrong_field" in _codes(
            question, f"{lead} {t} {verbo} {_es(abs(day))}, igual al valor de mercado."
        )
        checked += 1
    assert checked >= 10, checked


def test_two_sessions_are_two_the_sentence_dates_one_after_the_other() -> None:
    """ "Across the two sessions in the data, HEXS eased from 405.00 on 2024-12-30 to 399.54 on
    2024-12-31": "two" is derived from the two dates its sentence gives, where a result states
    them as a session and the one before it; a day that is not the one before derives nothing.
    Read over the traces where no figure that rounds to 2 could support it by itself."""
    checked = 0
    for question in sorted(q for q in TRACES if q.endswith("/move")):
        events = TRACES[question]["events"]
        move = next((e["result"] for e in events if e["tool"] == "get_daily_move"), None)
        if not move or "close" not in move or any(1.5 <= abs(v) < 2.5 for v in _numbers(events)):
            continue
        t, p, c = move["ticker"], move["previous_close"], move["close"]
        said = (
            f"{t} closed at {c:.2f} ({move['change_pct']:+.2f}%). Across the two sessions in the "
            f"data, {t} went from {p:.2f} on {{}} to {c:.2f} on {move['session']}."
        )
        faithful = said.format(move["previous_session"])
        verdict = verify({**TRACES[question], "draft": faithful})
        assert verdict.accepted, (question, verdict.reasons)
        assert "derived" in _count_support(verdict)
        before = (date.fromisoformat(move["previous_session"]) - timedelta(days=7)).isoformat()
        dated = {  # a result that states the earlier day too, so that both dates are supported
            "id": "move-0",
            "tool": "get_daily_move",
            "args": {"ticker": t, "date": before},
            "result": {"ticker": t, "session": before, "close": p},
        }
        trace = {**TRACES[question], "events": [*events, dated]}
        apart = verify({**trace, "draft": said.format(before)})
        assert not apart.accepted and "derived" not in _count_support(apart), question
        checked += 1
    assert checked >= 3, checked


def _count_support(verdict: Any) -> list[str]:
    """What supports the count "two" in a verdict."""
    return next(c.supported_by for c in verdict.claims if c.text == "two")


def test_an_event_said_to_stand_as_a_scheduled_one_is_held_against_its_record() -> None:
    """ "listed with a value of 0.80, not as a scheduled event", "como evento programado": the
    status the sentence gives the event is its record's, not a denial that it exists; the wrong
    one is `wrong_time`."""
    checked = {True: 0, False: 0}
    for question in sorted(q for q in FREE_TRACES if q.endswith("/events")):
        for event in _result(question, "get_events").get("events") or []:
            day, kind, to_come = event["date"], event["kind"], event["scheduled"]
            said = f"The {kind} of {day} is listed"
            right, wrong = ("as", "not as") if to_come else ("not as", "as")
            _kept(question, f"{said} {right} a scheduled event.")
            assert "wrong_time" in _codes(question, f"{said} {wrong} a scheduled event."), question
            dicho = f"El {_KIND_ES[kind]} del {day} figura"
            right, wrong = ("como", "no como") if to_come else ("no como", "como")
            _kept(question, f"{dicho} {right} evento programado.")
            assert "wrong_time" in _codes(question, f"{dicho} {wrong} evento programado."), question
            checked[to_come] += 1
        events = _result(question, "get_events").get("events") or []
        for kind in {e["kind"] for e in events}:  # no day said: every event of the kind holds it
            statuses = {e["scheduled"] for e in events if e["kind"] == kind}
            if len(statuses) != 1:
                continue
            said = f"The {kind} is listed {{}} a scheduled event."
            right, wrong = ("as", "not as") if statuses.pop() else ("not as", "as")
            _kept(question, said.format(right))
            assert "wrong_time" in _codes(question, said.format(wrong)), question
    assert checked[True] >= 5 and checked[False] >= 1, checked


def test_a_day_said_of_the_close_after_a_figure_is_the_closes_not_the_figures() -> None:
    """ "On Tuesday the position lost 898.72, after Monday's close of 17.80": Monday is the
    close's day; the loss is Tuesday's. Said of the wrong day, the loss is `wrong_time`."""
    checked = 0
    for question, pnl in _positions():
        lead = _lead(pnl)
        t, p, day = pnl["ticker"], pnl["portfolio_id"], pnl["day_pnl"]
        session, before = _weekday(pnl["session"]), _weekday(pnl["previous_session"])
        verb = "gained" if day > 0 else "lost"
        tail = f"{verb} {abs(day):,.2f}, after {before}'s close of {pnl['previous_close']:.2f}."
        _kept(question, f"{lead} On {session} the {t} position in {p} {tail}")
        assert "wrong_time" in _codes(
            question, f"{lead} On {before} the {t} position in {p} {tail}"
        )
        checked += 1
    assert checked >= 10, checked


_SESSIONS = {
    "before": "before the open",
    "during": "during the session",
    "after": "after the close",
}


def test_a_headline_named_by_a_compound_of_its_words_came_when_it_came() -> None:
    """ "The senior-notes item came out during the session (Benzinga)": the compound retells its
    headline (both words, though another rule covers one of them), so the session said is held
    against the item's; the wrong session is `wrong_time`."""
    checked = 0
    for question in sorted(q for q in FREE_TRACES if q.endswith("/news")):
        items = _result(question, "search_news").get("news") or []
        for item in items:
            words = [w for w in item["headline"].split() if w.isalpha() and len(w) > 3]
            others = [i for i in items if i is not item]
            if len(words) < 2 or item.get("session") not in _SESSIONS or others:
                continue
            move = _result(question, "get_daily_move")
            if "close" not in move:
                continue
            compound = "-".join(words[-2:]).lower()
            said = (
                f"{_closed(move)} The {move['ticker']} {compound} item came out {{}} "
                f"({item['source']})."
            )
            _kept(question, said.format(_SESSIONS[item["session"]]))
            wrong = next(s for k, s in _SESSIONS.items() if k != item["session"])
            assert "wrong_time" in _codes(question, said.format(wrong)), (question, compound)
            checked += 1
    assert checked >= 5, checked


def test_a_retold_item_said_to_come_before_or_after_another_wires_is_held_to_their_times() -> None:
    """ "Bloomberg's notes-offering story came after MarketWatch's CFO announcement", "PR
    Newswire's story came before Benzinga's report": the order of the two wires' items is held
    against their times, whether or not the words retell a headline; the wrong one is
    rejected."""
    checked = 0
    for question in sorted(q for q in FREE_TRACES if q.endswith("/news")):
        items = _result(question, "search_news").get("news") or []
        move = _result(question, "get_daily_move")
        if len(items) != 2 or items[0]["source"] == items[1]["source"] or "close" not in move:
            continue
        one, other = items
        words = [w for w in one["headline"].split() if w.isalpha() and len(w) > 3]
        if len(words) < 2 or one["published_at"] == other["published_at"]:
            continue
        later = one["published_at"] > other["published_at"]
        compound = "-".join(words[-2:]).lower()
        for said in (
            f"{_closed(move)} {_of(one['source'])} {compound} story came {{}} "
            f"{_of(other['source'])} report.",
            f"{_closed(move)} The {compound} story came {{}} {_of(other['source'])} report.",
        ):
            _kept(question, said.format("after" if later else "before"))
            wrong = _codes(question, said.format("before" if later else "after"))
            assert wrong & {"wrong_relation", "wrong_time"}, (question, said, wrong)
        checked += 1
    assert checked >= 3, checked


def _of(wire: str) -> str:
    """A wire's possessive: "Reuters'", "Barron's", "Bloomberg's"."""
    return wire if wire.endswith("'s") else f"{wire}'" if wire.endswith("s") else f"{wire}'s"


def test_a_close_compared_with_a_field_then_the_pair_of_levels() -> None:
    """ "closed below its previous close: 60.97 versus 61.65", "cerró por encima del cierre
    anterior: 65,38 frente a 64,76": the first of the pair is the close, the second the field it
    is compared with (no longer the field's because its name stands before a colon); the pair
    swapped is `wrong_field`."""
    checked = 0
    for question, move, _ in _moves():
        t, p, c, pct = move["ticker"], move["previous_close"], move["close"], move["change_pct"]
        if not pct:
            continue
        where, donde = ("above", "por encima") if pct > 0 else ("below", "por debajo")
        said = f"{t} closed {where} its previous close: {{:.2f}} versus {{:.2f}} ({pct:+.2f}%)."
        dicho = f"{t} cerró {donde} del cierre anterior: {{}} frente a {{}} ({_es(pct, True)} %)."
        _kept(question, said.format(c, p))
        _kept(question, dicho.format(_es(c), _es(p)))
        assert "wrong_field" in _codes(question, said.format(p, c)), question
        assert "wrong_field" in _codes(question, dicho.format(_es(p), _es(c))), question
        checked += 1
    assert checked >= 10, checked

"""What a draft says of a scheduled event beyond its kind and day, over the free-form night's
real events traces: a session ("after the close"), a period ("fourth-quarter", "trimestral") or
a change of plan ("was postponed") no record holds is `unverified_claim`; a tense against the
record ("reported" for a day still scheduled, "presentará" for one that came) is `wrong_time`."""

from __future__ import annotations

from datetime import date
from typing import Any

from tests.verifier.test_unseen_prose import FREE_TRACES, _codes, _kept, _result

_MESES = ("enero", "febrero", "marzo", "abril", "mayo", "junio", "julio", "agosto", "septiembre",
          "octubre", "noviembre", "diciembre")  # fmt: skip
_NOUN = {"earnings": ("earnings", "resultados"), "dividend": ("a dividend", "un dividendo")}
_VERBS = {  # (to come, come) in English and Spanish
    "earnings": (("will report", "reported"), ("presentará", "presentó")),
    "dividend": (("will pay", "paid"), ("pagará", "pagó")),
}


def _events() -> list[tuple[str, str, dict[str, Any]]]:
    out = []
    for question in sorted(q for q in FREE_TRACES if q.endswith("/events")):
        result = _result(question, "get_events")
        for record in result.get("events") or []:
            if record.get("kind") in _NOUN and isinstance(record.get("scheduled"), bool):
                out.append((question, str(result.get("ticker")), record))
                break
    return out


def _day(record: dict[str, Any]) -> tuple[str, str]:
    """The event's day as an English and a Spanish draft write it."""
    day = date.fromisoformat(record["date"])
    return f"{day:%B} {day.day}, {day.year}", f"{day.day} de {_MESES[day.month - 1]} de {day.year}"


def test_a_tense_is_the_events_record() -> None:
    checked = 0
    for question, ticker, record in _events():
        en, es = _day(record)
        (to_come, came), (vendra, vino) = _VERBS[record["kind"]]
        noun, nombre = _NOUN[record["kind"]]
        right, wrong = (to_come, came) if record["scheduled"] else (came, to_come)
        bien, mal = (vendra, vino) if record["scheduled"] else (vino, vendra)
        _kept(question, f"{ticker} {right} {noun} on {en}.")
        _kept(question, f"{ticker} {bien} {nombre} el {es}.")
        for said in (f"{ticker} {wrong} {noun} on {en}.", f"{ticker} {mal} {nombre} el {es}."):
            assert "wrong_time" in _codes(question, said), (question, said)
        checked += 1
    assert checked >= 10, checked


def test_an_attribute_no_record_holds_is_unverified() -> None:
    checked = 0
    for question, ticker, record in _events():
        en, es = _day(record)
        (to_come, came), (vendra, vino) = _VERBS[record["kind"]]
        verb, verbo = (to_come, vendra) if record["scheduled"] else (came, vino)
        noun, nombre = _NOUN[record["kind"]]
        for said in (
            f"{ticker} {verb} {noun} on {en}, after the close.",
            f"{ticker} {verb} fourth-quarter {noun.removeprefix('a ')} on {en}.",
            f"{ticker} {verb} {noun} on {en}; the date was postponed.",
            f"{ticker} {verbo} {nombre} el {es}, antes de la apertura.",
            f"{ticker} {verbo} {nombre} del cuarto trimestre el {es}.",
        ):
            assert "unverified_claim" in _codes(question, said), (question, said)
        checked += 1
    assert checked >= 10, checked


def test_a_status_said_around_the_day_is_the_events_record() -> None:
    """A status said before the day ("a scheduled earnings event on …", "resultados programados
    para el …") or after a bracket that follows it ("earnings on … (value 0.80), still
    upcoming") is held against the record's `scheduled` like a verb."""
    checked = 0
    for question, ticker, record in _events():
        en, es = _day(record)
        noun, nombre = _NOUN[record["kind"]]
        to_come = (
            f"{ticker} has a scheduled {noun.removeprefix('a ')} event on {en}.",
            f"{ticker} tiene {nombre.removeprefix('un ')} programado para el {es}."
            if record["kind"] == "dividend"
            else f"{ticker} tiene {nombre} programados para el {es}.",
            f"{ticker}'s {noun.removeprefix('a ')} on {en} (per the events result), still upcoming.",
        )
        for said in to_come:
            if record["scheduled"]:
                _kept(question, said)
            else:
                assert "wrong_time" in _codes(question, said), (question, said)
        checked += 1
    assert checked >= 10, checked
    assert any(not r["scheduled"] for _, _, r in _events())


def test_a_month_denied_beyond_the_window_searched_is_unverified() -> None:
    """ "Nothing is scheduled in January 2025" of a search from December 31 to January 30
    denies January 31, which no result covers: `unverified_claim`. The window's own ends
    ("from December 31 to January 30") are kept."""
    checked = 0
    for question in sorted(q for q in FREE_TRACES if q.endswith("/events")):
        result = _result(question, "get_events")
        if result.get("events") or not result.get("start"):
            continue
        ticker = result["ticker"]
        start, end = date.fromisoformat(result["start"]), date.fromisoformat(result["end"])
        _kept(question, f"Nothing is scheduled for {ticker} from {start} to {end}.")
        _kept(
            question,
            f"No events have been announced for {start:%B} {start.day} through {end:%B} {end.day}.",
        )
        month = end.replace(day=1)
        said = f"Nothing is scheduled for {ticker} in {month:%B %Y}."
        assert "unverified_claim" in _codes(question, said), (question, said)
        dicho = f"No hay nada programado para {ticker} en {_MESES[month.month - 1]}."
        assert "unverified_claim" in _codes(question, dicho), (question, dicho)
        checked += 1
    assert checked >= 5, checked


def test_a_numeric_date_is_read_as_its_language_writes_it() -> None:
    """ "announced on 12/09/2024" is December 9 in English and September 12 in Spanish
    ("anunciado el 09/12/2024"): where no date of the draft fixes the order, an ambiguous one
    is read as its language writes dates, so the other order is no date of the trace."""
    checked = 0
    every = [
        (question, str(result.get("ticker")), record)
        for question in sorted(q for q in FREE_TRACES if q.endswith("/events"))
        if (result := _result(question, "get_events"))
        for record in result.get("events") or []
        if record.get("kind") in _NOUN and record.get("announced_at")
    ]
    for question, ticker, record in every:
        day = date.fromisoformat(record["announced_at"][:10])
        if day.day > 12 or day.day == day.month:
            continue
        noun, nombre = _NOUN[record["kind"]]
        us, eu = f"{day:%m/%d/%Y}", f"{day:%d/%m/%Y}"
        en, es = (
            f"{ticker}: {noun} on {record['date']}, announced on",
            f"{ticker}: {nombre} el {record['date']}, anunciado el",
        )
        _kept(question, f"{en} {us}.")
        _kept(question, f"{es} {eu}.")
        assert "unsupported_date" in _codes(question, f"{en} {eu}."), (question, en)
        assert "unsupported_date" in _codes(question, f"{es} {us}."), (question, es)
        checked += 1
    assert checked >= 3, checked

"""When a quoted headline came, said in words, over the free-form night's real news traces:
"late in the session", "shortly after the open", "a media sesión" are parts of the session in
New York time; "the same day", "ese mismo día" the day the draft named before (else the report
date). A headline quoted with another part or another day is `wrong_time`."""

from __future__ import annotations

from datetime import date, datetime, time
from zoneinfo import ZoneInfo

from tests.verifier.test_unseen_prose import FREE_TRACES, _closed, _codes, _kept, _news

_NEW_YORK = ZoneInfo("America/New_York")
_PARTS = {  # words, from, to
    "Early in the session": (time(9, 30), time(11, 30)),
    "Late in the session": (time(14, 0), time(16, 0)),
    "A media sesión": (time(11, 0), time(14, 0)),
}


def test_a_part_of_the_session_is_the_headlines_time() -> None:
    checked = 0
    for question, move, news in _news():
        for item in news:
            when = datetime.fromisoformat(str(item["published_at"])).astimezone(_NEW_YORK)
            for words, (first, last) in _PARTS.items():
                said = f'{_closed(move)} {words}, {item["source"]} ran "{item["headline"]}".'
                if first <= when.time() <= last:
                    continue  # kept or not, by the other rules of the sentence
                assert "wrong_time" in _codes(question, said), (question, said, when)
            checked += 1
    assert checked >= 20, checked


def test_the_same_day_is_the_day_named_before() -> None:
    checked = 0
    for question, move, news in _news():
        report = date.fromisoformat(FREE_TRACES[question]["as_of"][:10])
        for item in news:
            day = datetime.fromisoformat(str(item["published_at"])).astimezone(_NEW_YORK).date()
            for words in ("The same day", "Ese mismo día"):
                said = f'{_closed(move)} {words}, {item["source"]} ran "{item["headline"]}".'
                if day == report:
                    _kept(question, said)
                else:
                    assert "wrong_time" in _codes(question, said), (question, said)
            checked += 1
    assert checked >= 20, checked


def test_two_headlines_ordered_by_a_word_between_them() -> None:
    """ "X, and later Y", "Y after X": the order of their times."""
    checked = 0
    for question, move, news in _news():
        if len(news) != 2:
            continue
        a, b = news
        ta, tb = (datetime.fromisoformat(str(i["published_at"])) for i in (a, b))
        if ta == tb:
            continue
        first, second = (a, b) if ta < tb else (b, a)
        lead = _closed(move)
        right = f'{lead} {first["source"]} ran "{first["headline"]}", and later {second["source"]} ran "{second["headline"]}".'
        wrong = f'{lead} {second["source"]} ran "{second["headline"]}", and later {first["source"]} ran "{first["headline"]}".'
        _kept(question, right)
        assert "wrong_relation" in _codes(question, wrong), (question, wrong)
        checked += 1
    assert checked >= 5, checked


_SESSIONS = {
    "before": ("before the open", "antes de la apertura"),
    "during": ("during the session", "durante la sesión"),
    "after": ("after the close", "después del cierre"),
}


def _session(when: datetime) -> str:
    minutes = when.hour * 60 + when.minute
    return "before" if minutes < 570 else "during" if minutes < 960 else "after"


def test_an_item_said_to_have_come_in_the_sentence_after_its_quote() -> None:
    """ "... "<headline>" (AP). It came out after the close.", "Se publicó durante la sesión.",
    "La noticia se publicó el 30 de diciembre.": the item quoted before, held against its own
    session and New York day; another session or day is `wrong_time`."""
    checked = 0
    for question, move, news in _news():
        if not news:
            continue
        item = news[-1]
        when = datetime.fromisoformat(str(item["published_at"])).astimezone(_NEW_YORK)
        session = item.get("session") or _session(when)
        lead = f'{_closed(move)} One headline is "{item["headline"]}" ({item["source"]}).'
        for name, (en, es) in _SESSIONS.items():
            for said in (f" It came out {en}.", f" Se publicó {es}."):
                if name == session:
                    _kept(question, lead + said)
                else:
                    assert "wrong_time" in _codes(question, lead + said), (question, said)
        other = when.date().replace(day=when.day - 1 if when.day > 1 else 2)
        for day, ok in ((when.date(), True), (other, False)):
            said = f"{lead} La noticia se publicó el {day.isoformat()}."
            assert ("wrong_time" not in _codes(question, said)) == ok, (question, said)
        checked += 1
    assert checked >= 20, checked


def test_a_wire_said_in_the_sentence_after_a_quote_is_its_source() -> None:
    """ "... "<headline>". It came from <wire>.", "- "<headline>"\\n  Source: <wire>": the wire
    pointed back at the item quoted before must be the one that ran it (another wire of the
    trace is `wrong_relation`)."""
    checked = 0
    for question, move, news in _news():
        wires = {str(i["source"]) for i in news}
        if len(wires) < 2:
            continue
        item = news[0]
        other = next(w for w in sorted(wires) if w != item["source"])
        for said in (
            f'{_closed(move)} One headline is "{item["headline"]}". It came from {{}}.',
            f'{_closed(move)}\n- "{item["headline"]}"\n  Source: {{}}',
        ):
            _kept(question, said.format(item["source"]))
            assert "wrong_relation" in _codes(question, said.format(other)), (question, said)
        checked += 1
    assert checked >= 8, checked

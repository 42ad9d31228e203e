"""The news items said together, over the free-form night's real news traces: "Both of its
headlines came from Reuters", "the search returned two headlines, both on December 31", "sus
dos titulares se publicaron durante la sesión" give every item one wire, day or part of the
session. Where every item has it the sentence is kept; where one has another it is
`wrong_relation`."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

from tests.verifier.test_unseen_prose import _closed, _codes, _kept, _news

_NEW_YORK = ZoneInfo("America/New_York")
_SESIONES = {
    "before": "antes de la apertura",
    "during": "durante la sesión",
    "after": "tras el cierre",
}


def _session(item: dict[str, object]) -> str:
    when = datetime.fromisoformat(str(item["published_at"])).astimezone(_NEW_YORK)
    minutes = when.hour * 60 + when.minute
    return "before" if minutes < 570 else "during" if minutes < 960 else "after"


def test_items_said_together_share_what_the_sentence_gives_them() -> None:
    checked = 0
    for question, move, news in _news():
        if len(news) < 2:
            continue
        lead, n = _closed(move), len(news)
        wires = {str(i["source"]) for i in news}
        days = {
            datetime.fromisoformat(str(i["published_at"])).astimezone(_NEW_YORK).date()
            for i in news
        }
        sessions = {_session(i) for i in news}
        for wire in wires:
            said = f"{lead} The search returned {n} headlines, all from {wire}."
            if len(wires) == 1:
                _kept(question, said)
            else:
                assert "wrong_relation" in _codes(question, said), (question, said)
        for day in days:
            said = f"{lead} Both of its headlines ran on {day:%B} {day.day}."
            if n == 2 and len(days) > 1:
                assert "wrong_relation" in _codes(question, said), (question, said)
        for session in ("before", "during", "after"):
            said = f"{lead} Sus {n} titulares se publicaron {_SESIONES[session]}."
            if sessions != {session}:
                assert _codes(question, said) & {"wrong_relation", "wrong_time"}, (question, said)
        checked += 1
    assert checked >= 8, checked

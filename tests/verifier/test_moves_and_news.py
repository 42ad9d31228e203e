"""A day's move said beside the news, over the free-form night's real news traces: each
faithful wording beside a corrupted twin.

"rallied on the partnership news", "jumped 4.85% on the earnings report", "the move came on
the news" say the news moved the stock: no result holds a cause (`unverified_claim`); "rose
1.9% on Tuesday" is a day. "fell 0.34% following \\"...\\"", "subió tras «...»": the move is
close to close, so a headline published after the report day's close came after it
(`wrong_time`); one published before the close may precede it.
"""

from __future__ import annotations

from datetime import datetime, time

from tests.verifier.test_unseen_prose import _codes, _kept, _new_york, _news


def _moved(move: dict[str, object]) -> tuple[str, str, str]:
    up = float(str(move["change_pct"])) > 0
    return ("rose", "subió", "rallied") if up else ("fell", "cayó", "slid")


def test_a_move_said_to_come_on_the_news_states_a_cause() -> None:
    checked = 0
    for question, move, news in _news():
        if not news:
            continue
        t, pct = move["ticker"], abs(move["change_pct"])
        verb, _, loose = _moved(move)
        _kept(question, f"{t} {verb} {pct:.2f}% on Tuesday to close at {move['close']:.2f}.")
        for said in (
            f"{t} {verb} {pct:.2f}% on the news.",
            f"{t} {loose} on the company's latest news, closing at {move['close']:.2f} ({move['change_pct']:+.2f}%).",
            f"{t} closed at {move['close']:.2f} ({move['change_pct']:+.2f}%). The move came on the news.",
        ):
            assert "unverified_claim" in _codes(question, said), (question, said)
        checked += 1
    assert checked >= 10, checked


def test_a_move_follows_only_a_headline_that_came_before_the_close() -> None:
    late = early = 0
    for question, move, news in _news():
        t, pct = move["ticker"], abs(move["change_pct"])
        verb, verbo, _ = _moved(move)
        for item in news:
            when = _new_york(item)
            after_close = when > datetime.combine(when.date(), time(16, 0), when.tzinfo)
            if when.date().isoformat() != "2024-12-31" and after_close:
                continue  # the day before's evening: before the report day's move
            en = f'{t} {verb} {pct:.2f}% following "{item["headline"]}".'
            es = f"{t} {verbo} un {pct:.2f} % tras «{item['headline']}»".replace(".", ",", 1)
            if when.date().isoformat() == "2024-12-31" and after_close:
                assert "wrong_time" in _codes(question, en), (question, en)
                assert "wrong_time" in _codes(question, es + "."), (question, es)
                late += 1
            else:
                _kept(question, en)
                early += 1
    assert late >= 3 and early >= 5, (late, early)


_SESSIONS = {
    "before": "before the open",
    "during": "during the session",
    "after": "after the close",
}
_WORDS = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five"}


def _session(when: datetime) -> str:
    minutes = when.hour * 60 + when.minute
    return "before" if minutes < 570 else "during" if minutes < 960 else "after"


def test_the_items_said_to_come_in_a_session_or_on_a_day_did() -> None:
    """ "Two of the three headlines came before the open", "Both headlines came on Monday": the
    count must be the items' that came then, of all the search returned (`wrong_time`)."""
    checked = 0
    for question, move, news in _news():
        if not 2 <= len(news) <= 5:
            continue
        lead = f"{move['ticker']} closed at {move['close']:.2f} ({move['change_pct']:+.2f}%)."
        whens = [_new_york(n) for n in news]
        sessions = [n.get("session") or _session(w) for n, w in zip(news, whens, strict=True)]
        total = _WORDS[len(news)]
        for key, phrase in _SESSIONS.items():
            hits = sessions.count(key)
            if hits:
                _kept(
                    question,
                    f"{lead} {_WORDS[hits].capitalize()} of the {total} headlines came {phrase}.",
                )
            wrong = (
                f"{lead} {_WORDS[hits + 1].capitalize()} of the {total} headlines came {phrase}."
            )
            assert "wrong_time" in _codes(question, wrong), (question, wrong)
        days = {f"{w:%A}" for w in whens}
        for day in ("Monday", "Tuesday"):
            said = f"{lead} {'Both' if len(news) == 2 else 'All'} headlines came on {day}."
            if days == {day}:
                _kept(question, said)
            else:
                assert "wrong_time" in _codes(question, said), (question, said)
        checked += 1
    assert checked >= 8, checked


def test_a_days_move_is_not_placed_before_the_open_or_after_the_close() -> None:
    """ "rose 1.31% after the close", "jumped 4.85% before the open": the results hold changes
    from close to close (`unverified_claim`); "rose 1.31% during the session" is the day's."""
    checked = 0
    for question, move, _ in _news():
        t, pct = move["ticker"], abs(move["change_pct"])
        verb, verbo, _ = _moved(move)
        _kept(
            question, f"{t} {verb} {pct:.2f}% during the session, closing at {move['close']:.2f}."
        )
        for said in (
            f"{t} {verb} {pct:.2f}% after the close.",
            f"{t} {verb} {pct:.2f}% to {move['close']:.2f} before the open.",
            f"{t} {verbo} un {pct:.2f} % antes de la apertura.".replace(".", ",", 1),
        ):
            assert "unverified_claim" in _codes(question, said), (question, said)
        checked += 1
    assert checked >= 10, checked


def test_this_morning_is_the_report_days_morning() -> None:
    """ "Esta mañana Reuters publicó «...»", "This morning CNBC ran “...”": the item came
    on the report day, in that part of it (`wrong_time` otherwise)."""
    checked = 0
    for question, move, news in _news():
        for item in news:
            when = _new_york(item)
            if when.date().isoformat() != "2024-12-31":
                said = f"{move['ticker']} closed at {move['close']:.2f}. This morning {item['source']} ran “{item['headline']}”."
                assert "wrong_time" in _codes(question, said), (question, said)
                continue
            right = "mañana" if when.hour < 12 else "tarde" if when.hour < 20 else "noche"
            wrong = "tarde" if right == "mañana" else "mañana"
            lead = f"{move['ticker']} cerró en {move['close']:.2f} ({move['change_pct']:+.2f} %)."
            said = (
                lead.replace(".", ",", 2)
                + f" Esta {{}} {item['source']} publicó «{item['headline']}»."
            )
            _kept(question, said.format(right))
            assert "wrong_time" in _codes(question, said.format(wrong)), (question, said)
            checked += 1
    assert checked >= 5, checked

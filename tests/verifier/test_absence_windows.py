"""News denied over a window, over the free-form night's real news traces: "no headlines over
the past month", "no news in December", "no hubo noticias en el último mes" deny news on days
no search looked at when the searches opened later; they are rejected. The searched window
itself, or a part of it ("this week" when the search opened before Monday), holds."""

from __future__ import annotations

from datetime import date, timedelta

from tests.verifier.test_unseen_prose import FREE_TRACES, _closed, _codes, _kept, _news


def _searched_from(question: str) -> date | None:
    starts = [
        e["args"].get("start")
        for e in FREE_TRACES[question]["events"]
        if e["tool"] == "search_news" and e.get("args", {}).get("start")
    ]
    return date.fromisoformat(min(starts)) if starts else None


def test_news_denied_beyond_the_searched_window_is_rejected() -> None:
    checked = 0
    for question, move, news in _news():
        opened = _searched_from(question)
        report = date.fromisoformat(FREE_TRACES[question]["as_of"][:10])
        if news or opened is None:
            continue
        lead = _closed(move)
        for wider in (
            "No headlines were found over the past month.",
            "There was no news in the past week.",
            f"There was no news in {report:%B}.",
            "No hubo noticias en el último mes.",
        ):
            assert "unverified_claim" in _codes(question, f"{lead} {wider}"), (question, wider)
        monday = report - timedelta(days=report.weekday())
        if opened <= monday:
            _kept(question, f"{lead} No headlines were found this week.")
        checked += 1
    assert checked >= 10, checked

"""Who ran a quoted headline and how many the search found, over the free-form night's real
news traces: a wire the trace names, said beside a quote, must be the wire that ran it; a wire
said of an item the draft only paraphrases speaks of that item, not of the quote further on; a
wire the trace does not name is no name of the trace; a count under its label is the search's."""

from __future__ import annotations

from datetime import date

from tests.verifier.test_unseen_prose import FREE_TRACES, _closed, _codes, _kept, _new_york, _news


def _two_wires() -> list[tuple[str, str, list[tuple[str, str, str]]]]:
    """News traces whose items came from at least two wires: question, opening line, and each
    item's headline, wire and day (Mon, Tue...) on New York's calendar."""
    out = []
    for question, move, news in _news():
        items = [(n["headline"], n["source"], f"{_new_york(n):%a}") for n in news]
        if len({wire for _, wire, _ in items}) >= 2:
            out.append((question, _closed(move), items))
    return out


def test_a_wire_said_beside_a_quote_is_the_wire_that_ran_it() -> None:
    """ "- Bloomberg, Mon: “...”", "“...” (Reuters)", "Reuters ran “...”": kept with each
    item's own wire; the same lines with the wires of two items swapped are `wrong_relation`."""
    checked = 0
    for question, opening, items in _two_wires():
        (h1, w1, d1), (h2, w2, d2) = next((a, b) for a in items for b in items if a[1] != b[1])
        for line in (
            "- {w}, {d}: “{h}”",
            "“{h}” ({w}, {d})",
            "{w} ran “{h}” on {d}.",
        ):
            said = [line.format(h=h1, w=w1, d=d1), line.format(h=h2, w=w2, d=d2)]
            _kept(question, "\n".join([opening, *said]))
            swapped = [line.format(h=h1, w=w2, d=d1), line.format(h=h2, w=w1, d=d2)]
            codes = _codes(question, "\n".join([opening, *swapped]))
            assert "wrong_relation" in codes, (question, swapped, codes)
        checked += 1
    assert checked >= 5, checked


def test_a_wire_said_of_a_paraphrased_item_is_not_the_quote_s() -> None:
    """ "Reuters reported the filing after Monday's close, and Bloomberg ran “...”": Reuters
    speaks of what the sentence says it reported, a clause away from the quote."""
    checked = 0
    for question, opening, items in _two_wires():
        (_, w1, _), (h2, w2, _) = next((a, b) for a in items for b in items if a[1] != b[1])
        draft = f"{opening} {w1} reported another item earlier in the week, and {w2} ran “{h2}”."
        assert "wrong_relation" not in _codes(question, draft), (question, draft)
        checked += 1
    assert checked >= 5


def test_a_wire_the_trace_does_not_name_is_no_label_before_a_clock_time() -> None:
    """ "- Zebra Wire, Tue 1:07 p.m.: “...”": the colon of a clock time makes no "key: value"
    line, so the unknown wire's words are `unverified_claim`."""
    for question, opening, items in _two_wires():
        headline, _, day = items[0]
        draft = f"{opening}\n- Zebra Wire, {day} 1:07 p.m.: “{headline}”"
        assert "unverified_claim" in _codes(question, draft), (question, draft)


def test_a_count_under_its_label_is_the_number_of_items_the_search_found() -> None:
    """ "Headlines found in the window: 2", "Titulares encontrados: 1": the count of the
    subject's news items (not any 2 of the trace, such as a 1.92 change rounded); one off is
    `wrong_relation`."""
    checked = 0
    for question, move, news in _news():
        n = len(news)
        if not n:
            continue  # a search that failed: its zero is the failure's (`unresolved_error`)
        listed = "\n\n".join(f"{i}. “{item['headline']}”" for i, item in enumerate(news, 1))
        _kept(question, f"{_closed(move)}\nNoticias:\n\n{listed}")  # a list's numbers count nothing
        for label in ("Headlines found in the window: {}.", "Titulares encontrados: {}."):
            _kept(question, f"{_closed(move)}\n- {label.format(n)}")
            codes = _codes(question, f"{_closed(move)}\n- {label.format(n + 1)}")
            assert "wrong_relation" in codes, (question, label, codes)
        checked += 1
    assert checked >= 20


def test_a_day_heading_a_list_line_is_the_item_s_day() -> None:
    """ "- 31/12, MarketWatch: “...”" and "- 12/31, PR Newswire: “...” (in pre-market hours)":
    a day and month at the head of a list's line is a date like "on 12/31"; another day is
    rejected, and "antes del inicio de la sesión" / "in pre-market hours" say the item came
    before the open."""
    checked = 0
    for question, move, news in _news():
        for item in news:
            when = _new_york(item)
            if item.get("session") != "before":
                continue
            es = f"{_closed(move)}\n- {{d}}/{when.month}, {item['source']}: «{item['headline']}» (antes del inicio de la sesión)"
            en = f"{_closed(move)}\n- {when.month}/{{d}}, {item['source']}: “{item['headline']}” (in pre-market hours)"
            for line in (es, en):
                _kept(question, line.format(d=when.day))
                other = when.day - 1 if when.day > 1 else when.day + 1
                assert _codes(question, line.format(d=other)), (question, line)
            checked += 1
    assert checked >= 5, checked


def test_a_window_said_before_an_empty_search_is_the_window_it_covered() -> None:
    """ "Entre el 28 de diciembre y el 31 de diciembre no encontramos ninguna noticia": an
    empty search reports on its own days; the same sentence ending a day early is
    `wrong_time`, though each date is one the trace holds."""
    months = {12: "diciembre", 1: "enero"}
    checked = 0
    for question, move, news in _news():
        if news:
            continue
        args = next(
            e["args"] for e in FREE_TRACES[question]["events"] if e["tool"] == "search_news"
        )
        start, end = (date.fromisoformat(args[k][:10]) for k in ("start", "end"))
        said = f"{_closed(move)} Entre el {{}} de {months[start.month]} y el {{}} de {months[end.month]} no encontramos ninguna noticia de {move['ticker']}."
        _kept(question, said.format(start.day, end.day))
        assert "wrong_time" in _codes(question, said.format(start.day, end.day - 1)), question
        checked += 1
    assert checked >= 5, checked


def test_a_retold_item_is_the_wires_that_ran_it() -> None:
    """ "PR Newswire reported the share buyback program": a headline retold in other words
    names the wire that ran it; another item's wire named instead is `wrong_relation`."""
    from tests.verifier.test_unseen_prose import _verdict

    checked = 0
    for question, opening, items in _two_wires():
        for headline, wire, _ in items:
            other = next(w for _, w, _ in items if w != wire)
            retold = " ".join(headline.split()[-3:])
            if any(ch.isdigit() for ch in retold):
                continue  # a figure of the headline: checked as a figure, not retold
            right = f"{opening} {wire} reported the {retold}."
            if not _verdict(question, right).accepted:
                continue  # three words that retell no item alone
            wrong = f"{opening} {other} reported the {retold}."
            assert "wrong_relation" in _codes(question, wrong), (question, wrong)
            checked += 1
    assert checked >= 5, checked

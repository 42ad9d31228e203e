"""How desk notes and wires set a line, over the free-form night's real traces: a headline in
capitals ("**YQZ EDGES DOWN 0.02% ON TUESDAY**") read in ordinary case, a list's number "(1)"
that is no figure, a day after "Close", a company named with its suffix as the trace names it,
and a percentage said with a sign that no ratio of the sentence's figures gives with that sign.
Each faithful line is kept and its twin with one thing wrong is rejected."""

from __future__ import annotations

from tests.verifier.test_unseen_prose import (
    FREE_TRACES,
    _closed,
    _codes,
    _kept,
    _moves,
    _new_york,
    _news,
    _result,
)


def test_a_headline_in_capitals_is_read_in_ordinary_case() -> None:
    """ "**YQZ EDGES DOWN 0.02% ON TUESDAY**": the words are words, not tickers, the weekday
    is the report's; the other direction is `wrong_direction`."""
    checked = 0
    for question, move, _ in _moves():
        t, pct = move["ticker"], move["change_pct"]
        if not pct:
            continue
        small = abs(pct) < 2.5  # "edges" says a modest move (`verifier.rules.qualities`)
        up, down = ("EDGES UP", "EDGES DOWN") if small else ("CLIMBS", "SLIDES")
        right, wrong = (up, down) if pct > 0 else (down, up)
        said = f"**{t} {{}} {abs(pct):.2f}% ON TUESDAY**\n{_closed(move)}"
        _kept(question, said.format(right))
        assert "wrong_direction" in _codes(question, said.format(wrong)), question
        checked += 1
    assert checked >= 30


def test_a_list_number_and_a_day_after_close_are_no_figures() -> None:
    """ "(1) 12/31, 10:28 a.m., Benzinga: “...”" numbers an item; "Close 12/31: $78.75" dates
    the close. Another day there is rejected, and "+0.43%" for a fall of 0.43% stays wrong
    even though 0.34 / 78.75 is 0.43%: a ratio keeps the signs of what it divides."""
    checked = 0
    for question, move, news in _news():
        if not news or not move["change_pct"] or not move["change"]:
            continue
        item = news[0]
        when = _new_york(item)
        clock = f"{when.hour % 12 or 12}:{when:%M} {'a.m.' if when.hour < 12 else 'p.m.'}"
        line = f"(1) {when.month}/{{}}, {clock}, {item['source']}: “{item['headline']}”"
        close = (
            f"Close {{}}: ${move['close']:.2f} ({move['change_pct']:+.2f}%, {move['change']:+.2f})"
        )
        _kept(question, close.format("12/31") + "\n" + line.format(when.day))
        assert _codes(question, close.format("12/30") + "\n" + line.format(when.day)), question
        flipped = f"Close 12/31: ${move['close']:.2f} ({-move['change_pct']:+.2f}%, {move['change']:+.2f})"
        assert _codes(question, flipped), (question, flipped)
        checked += 1
    assert checked >= 20


def test_a_company_named_with_its_suffix_is_named_as_the_trace_names_it() -> None:
    """ "Beacon Data Corp. (PCDM) closed at ...", "The Beacon Data Corp. ...": the trace's
    name; "Beacon Corp." (a word left out) is `wrong_subject`, though each of its words is a
    word of the trace's name."""
    checked = 0
    for question, move, _ in _moves():
        name = _result(question, "get_company").get("name") or ""
        words = name.split()
        if len(words) < 3 or words[-1] not in ("Corp.", "Inc.", "Co.", "Holdings", "Group"):
            continue
        said = f"{{}} ({move['ticker']}) {_closed(move)[len(move['ticker']) + 1 :]}"
        _kept(question, said.format(name))
        _kept(question, said.format(f"The {name}"))
        short = " ".join([words[0], words[-1]])
        assert "wrong_subject" in _codes(question, said.format(short)), (question, short)
        checked += 1
    assert checked >= 20


def test_a_desk_line_s_abbreviations_a_bracketed_window_label_and_a_disclaimed_cause() -> None:
    """ "FSA cls 75.01 chg +3.47 (+4.85%) d/d; prev cls 71.54": cls is the close (the previous
    close there is `wrong_field`, as it is after "var", the Spanish desk's change); "- Semana (desde el 24 de diciembre): +1,67 %" is the week's
    change (the month's there is `wrong_time`); "Driver unconfirmed; no causal attribution
    made" and "Sin atribución causal" disclaim a cause, "the merger drove it" still states one."""
    from tests.verifier.test_unseen_prose import _es

    checked = 0
    for question, move, windows in _moves():
        week, month = windows.get("week"), windows.get("month")
        if not week or not month or abs(week["change_pct"] - month["change_pct"]) < 0.05:
            continue
        t = move["ticker"]
        line = f"{t} cls {{:.2f}} chg {move['change']:+.2f} ({move['change_pct']:+.2f}%) d/d; prev cls {{:.2f}}"
        _kept(question, line.format(move["close"], move["previous_close"]))
        assert "wrong_field" in _codes(question, line.format(move["previous_close"], move["close"]))
        es = f"{t} cierre {_es(move['close'])} var {{}} ({_es(move['change_pct'], True)} %) d/d"
        _kept(question, es.format(_es(move["change"], True)))
        assert "wrong_field" in _codes(question, es.format(_es(move["previous_close"], True)))
        label = f"{_closed(move)}\n- Semana (desde el 24 de diciembre): {{}} %"
        _kept(question, label.format(_es(week["change_pct"], True)))
        assert "wrong_time" in _codes(question, label.format(_es(month["change_pct"], True)))
        _kept(question, f"{_closed(move)} Driver unconfirmed; no causal attribution made.")
        _kept(question, f"{_closed(move)} Sin atribución causal.")
        assert _codes(question, f"{_closed(move)} The merger drove it; no causal attribution made.")
        checked += 1
    assert checked >= 20


def test_a_check_s_words_frame_and_a_status_stays_a_claim() -> None:
    """ "📰 **AXO news check**", "Dato clave: ...", "Headlines and timing only; no cause is
    established by this data", "only events already announced are listed" frame an answer;
    "(already reported)" beside a scheduled event says it happened, which no result holds."""
    checked = 0
    for question, move, _ in _news():
        t = move["ticker"]
        framed = (
            f"📰 **{t} news check**\nDato clave: {_closed(move)}\n"
            "⚠️ Headlines and timing only; no cause is established by this data."
        )
        _kept(question, framed)
        checked += 1
    assert checked >= 20
    for question in sorted(q for q in FREE_TRACES if q.endswith("/events")):
        listed = _result(question, "get_events").get("events") or []
        scheduled = [e for e in listed if e.get("scheduled")]
        if not scheduled:
            continue
        day = scheduled[0]["date"]
        t = question.split("/")[0]
        said = f"{t}: an earnings release on {day}{{}}. Only events already announced are listed."
        if scheduled[0]["kind"] == "earnings":
            _kept(question, said.format(""))
            assert _codes(question, said.format(" (already reported)")), question


def test_a_speaker_s_tag_and_a_thread_s_number_are_no_ticker_and_no_figure() -> None:
    """ "[HOST] Alright, AXO next." names who speaks, not a ticker; "1/ ..." and "2/ ..." number
    a thread's posts, not figures; a figure said after the tag is still checked."""
    checked = 0
    for question, move, _ in _moves():
        t, pct = move["ticker"], move["change_pct"]
        said = f"[HOST] Alright, {t} next.\n[HOST] It closed at ${{:.2f}} ({pct:+.2f}%)."
        _kept(question, said.format(move["close"]))
        assert _codes(question, said.format(move["close"] + 1)), question
        thread = f"1/ {_closed(move)}\n2/ That is all for {t} today."
        _kept(question, thread)
        checked += 1
    assert checked >= 30

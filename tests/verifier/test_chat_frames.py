"""How chat models frame an answer, over the free-form night's real traces: the frame asserts
nothing and the claims inside it are still checked. "Based on the provided data", "In
conclusion", "Let's break this down step by step", "Según los datos proporcionados" open or
close a faithful answer; a round figure said with a hedge ("roughly 60%") is said to its tens;
"last Tuesday" is the week before a Tuesday report; "measured from" opens a window; a window
that opens its own clause keeps an earlier clause's date out; a previous close named after its
figure ("62,37 dólares del cierre anterior") is the session before's; a cause inside a denied
clause ("no permiten afirmar que esa noticia explique el movimiento") is denied. Each faithful
draft beside a twin with one thing wrong."""

from __future__ import annotations

from tests.verifier.test_unseen_prose import (
    FREE_TRACES,
    _closed,
    _codes,
    _es,
    _kept,
    _moves,
    _new_york,
    _news_days,
    _positions,
    _result,
    _verdict,
)

_WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")


def test_a_chat_model_s_frame_asserts_nothing_and_its_figures_are_still_checked() -> None:
    frames = (
        "Based on the provided data, {} In conclusion, that was the session.",
        "Let's break this down step by step. {}",
        "Según los datos proporcionados: {} En conclusión, esa fue la sesión.",
        "Basado en la información proporcionada por la herramienta, {}",
        "Es importante notar que {} Conviene recordar que esa fue la sesión.",
        "It's important to note that {}",
    )
    for question, move, _ in _moves():
        wrong = dict(move, close=move["close"] + 1.37)
        for frame in frames:
            _kept(question, frame.format(_closed(move)))
            codes = _codes(question, frame.format(_closed(wrong)))
            assert codes & {"unsupported_figure", "wrong_field", "wrong_subject"}, question


def _up(value: float) -> str:
    return "up" if value > 0 else "down"


def test_a_round_figure_said_with_a_hedge_is_said_to_its_tens() -> None:
    """ "up roughly 60% on the year" for 60.73%: the tens hold it; 20 points off does not."""
    checked = 0
    for question, move, windows in _moves():
        ytd = windows.get("year_to_date")
        if not ytd or abs(ytd["change_pct"]) < 15:
            continue
        tens = round(abs(ytd["change_pct"]), -1)
        if abs(tens - abs(ytd["change_pct"])) < 0.5:
            continue  # a figure its own units hold proves nothing about the tens
        said = f"{_closed(move)} On the year it is {_up(ytd['change_pct'])} roughly {{:.0f}}%."
        _kept(question, said.format(tens))
        assert _codes(question, said.format(tens + 20)), question
        checked += 1
    assert checked >= 20


def test_a_round_amount_said_with_a_hedge_keeps_two_significant_digits() -> None:
    """ "gained about $1,400", "ganó unos US$1.400" for 1,352.34: rounded to its hundreds it
    holds; the next hundred does not, and neither does the amount said without the hedge."""
    checked = 0
    for question, position in _positions():
        pnl = abs(position.get("day_pnl") or 0)
        if not 1_000 <= pnl < 10_000 or abs(pnl - round(pnl, -2)) < 1:
            continue
        verb = "gained" if position["day_pnl"] > 0 else "lost"
        said = f"{position['ticker']} contributed {position['contribution_pct']:+.2f}%. It {verb} {{}}${{:,.0f}}."
        _kept(question, said.format("about ", round(pnl, -2)))
        es = f"{position['ticker']} aportó {_es(position['contribution_pct'], True)} %; {{}} unos US${{}}."
        hundreds = f"{round(pnl, -2):,.0f}".replace(",", ".")
        _kept(question, es.format("ganó" if position["day_pnl"] > 0 else "perdió", hundreds))
        assert not _verdict(question, said.format("about ", round(pnl, -2) + 100)).accepted
        assert not _verdict(question, said.format("", round(pnl, -2))).accepted, question
        checked += 1
    assert checked >= 10, checked


def test_last_weekday_measured_from_and_a_window_that_opens_its_own_clause() -> None:
    """ "This week — measured from last Tuesday's close of $17.13 — the shares are up 1.52%,
    and for the quarter they are down 1.02%": the week runs from the Tuesday before the report
    day, and the quarter's figure is the quarter's; "next Tuesday" is no day of the results
    (`unsupported_date`), and the quarter's figure said for the week is `wrong_time`."""
    checked = 0
    for question, move, windows in _moves():
        week, quarter = windows.get("week"), windows.get("quarter")
        if not week or not quarter or abs(week["change_pct"] - quarter["change_pct"]) < 0.5:
            continue
        start = FREE_TRACES[question]["as_of"]
        day = _WEEKDAYS[__import__("datetime").date.fromisoformat(week["start_session"]).weekday()]
        if start[:10] == week["start_session"] or day != "Tuesday":
            continue
        said = (
            f"{_closed(move)} This week — measured from {{}} {day}'s close of "
            f"${week['start_close']:.2f} — the shares are {{}}, and for the quarter they are "
            f"{_up(quarter['change_pct'])} {abs(quarter['change_pct']):.2f}%."
        )
        w = f"{_up(week['change_pct'])} {abs(week['change_pct']):.2f}%"
        q = f"{_up(quarter['change_pct'])} {abs(quarter['change_pct']):.2f}%"
        _kept(question, said.format("last", w))
        assert "unsupported_date" in _codes(question, said.format("next", w)), question
        assert "wrong_time" in _codes(question, said.format("last", q)), question
        checked += 1
    assert checked >= 20


def test_a_previous_close_named_after_its_figure_is_the_session_before_s() -> None:
    """ "cerró el 31 de diciembre en 62,90 dólares, frente a los 62,37 dólares del cierre
    anterior": the previous session's level; the same figure with nothing after it is said
    for the report day (`wrong_time`)."""
    for question, move, _ in _moves():
        said = (
            f"{move['ticker']} cerró el 31 de diciembre de 2024 en {_es(move['close'])} dólares "
            f"({_es(move['change_pct'], True)} %), frente a los {_es(move['previous_close'])} dólares{{}}."
        )
        _kept(question, said.format(" del cierre anterior"))
        assert "wrong_time" in _codes(question, said.format("")), question


def test_a_cause_inside_a_denied_clause_is_denied() -> None:
    """ "No obstante, los datos no permiten afirmar que esa noticia explique el movimiento",
    "The data does not show that the headline caused the move": nothing is asserted; the
    same clause affirmed asserts the cause (`unverified_claim`)."""
    checked = 0
    for question, move, news in _news_days():
        if not news:
            continue
        opening = f'{_closed(move)} One headline: "{news[0]["headline"]}" ({news[0]["source"]}).'
        for denied, affirmed in (
            (
                " No obstante, los datos no permiten afirmar que esa noticia explique el movimiento.",
                " Los datos permiten afirmar que esa noticia explica el movimiento.",
            ),
            (
                " The data does not show that the headline caused the move.",
                " The data shows that the headline caused the move.",
            ),
        ):
            _kept(question, opening + denied)
            assert "unverified_claim" in _codes(question, opening + affirmed), question
        checked += 1
    assert checked >= 10


def test_a_restated_question_in_its_own_words_asserts_nothing() -> None:
    """ "The question asks how did COD close on 2024-12-31, and what was its day change": the
    question's words; "The question asks why the analyst downgrade hit COD" holds words the
    question does not (`unverified_claim`)."""
    checked = 0
    for question, move, _ in _moves():
        asked = FREE_TRACES[question]["question"].rstrip("?")
        restated = f"The question asks {asked[0].lower()}{asked[1:]}. {_closed(move)}"
        _kept(question, restated)
        invented = (
            f"The question asks why the analyst downgrade hit {move['ticker']}. {_closed(move)}"
        )
        assert "unverified_claim" in _codes(question, invented), question
        checked += 1
    assert checked >= 30


def test_list_numbers_steps_a_formula_s_hundred_and_a_count_in_brackets_are_no_changes() -> None:
    """ "11) Close: ...", "Step 12 – ...", "-5.46 ÷ 405.00 × 100 ≈ -1.35%", "Headlines found
    (1)": an item's number, a step's, the hundred of a percentage and a count beside its noun;
    the formula's result off by a point is still rejected."""
    checked = 0
    for question, move, _ in _moves():
        pct, prev, change = move["change_pct"], move["previous_close"], move["change"]
        listed = (
            f"Step 12 – the move of {move['ticker']}:\n"
            f"11) Close: {move['close']:.2f}\n"
            f"12) Previous close: {prev:.2f}\n"
            f"13) Percentage change = {change:+.2f} ÷ {prev:.2f} × 100 ≈ {{:+.2f}}%"
        )
        _kept(question, listed.format(pct))
        assert _codes(question, listed.format(pct + 13.57)), question
        checked += 1
    assert checked >= 30
    for question, move, news in _news_days():
        if len(news) != 1:
            continue
        said = f'{_closed(move)} Headlines found ({{}}): "{news[0]["headline"]}".'
        _kept(question, said.format(1))


def test_a_session_phrase_joins_its_headline_across_the_days_said_with_it() -> None:
    """ "(Reuters), came out yesterday (Monday) after the close": the headline's session,
    whatever days stand between; another session is `wrong_session`."""
    other = {
        "before": "after the close",
        "during": "after the close",
        "after": "during the session",
    }
    right = {
        "before": "before the open",
        "during": "during the session",
        "after": "after the close",
    }
    checked = 0
    for question, move, news in _news_days():
        items = [n for n in news if n["published_at"][:10] == move.get("previous_session")]
        if not items or items[0].get("session") not in right:
            continue
        item = items[0]
        said = (
            f'{_closed(move)} One headline, "{item["headline"]}" ({item["source"]}), came '
            "out yesterday (Monday) {}."
        )
        _kept(question, said.format(right[item["session"]]))
        assert "wrong_session" in _codes(question, said.format(other[item["session"]])), question
        checked += 1
    assert checked >= 5


def test_an_agent_s_steps_a_utc_offset_and_spanish_without_accents() -> None:
    """ "First, I called get_daily_move ...", "(Reuters, 13:25 UTC-05:00)", "variacion del
    dia" for "variación del día", "portafolio": what an agent writes around its figures; the
    same time at another offset is `unsupported_date`."""
    checked = 0
    for question, move, news in _news_days():
        if not news:
            continue
        item = news[0]
        when = _new_york(item)
        stamp = f"{when.hour:02d}:{when.minute:02d} UTC-05:00"
        said = (
            f"First, I called get_daily_move for {move['ticker']}: it closed at "
            f"{move['close']:.2f} ({move['change_pct']:+.2f}%). Then, search_news found "
            f'"{item["headline"]}" ({item["source"]}, {{}}).'
        )
        _kept(question, said.format(stamp))
        assert "unsupported_date" in _codes(question, said.format(stamp.replace("-05", "+01")))
        plain = f"La variacion del dia de {move['ticker']} en el portafolio fue de {_es(move['change_pct'], True)} %."
        _kept(question, plain)
        checked += 1
    assert checked >= 10


def test_a_figure_after_a_sentence_that_placed_the_holding_in_its_portfolio_is_the_holding_s() -> (
    None
):
    """ "I called get_position_pnl for PQN in P003 (Balanced Allocation): ... The day P&L was
    +46.59": a figure of a sentence that names no subject is the holding's, so the portfolio's
    day P&L said there is `wrong_subject`; the holding's own holds."""
    checked = 0
    for question, pos in _positions():
        ranks = _result(question, "get_portfolio_ranks")
        whole = ranks.get("portfolio_day_pnl")
        if whole is None or abs(whole - pos["day_pnl"]) < 0.01:
            continue
        said = (
            f"I called get_position_pnl for {pos['ticker']} in {pos['portfolio_id']} "
            f"({pos['name']}): {pos['quantity']:g} shares. The day P&L was {{:+,.2f}} "
            f"({pos['pnl_pct']:+.2f}%), a contribution of {pos['contribution_pct']:+.2f}%."
        )
        _kept(question, said.format(pos["day_pnl"]))
        assert "wrong_subject" in _codes(question, said.format(whole)), question
        checked += 1
    assert checked >= 20


def test_where_the_writer_looks_frames_the_answer_and_a_heading_s_day_reaches_its_table() -> None:
    """ "Looking at the numbers for AXO:", "Mirando los números de AXO:", "Here's the picture
    for AXO today.", "In other words, ..." frame a faithful answer; a wrong direction inside the
    frame is still rejected. A heading's day reaches the table under it across one blank line:
    "Here's what the data shows for AXO yesterday:" over the report day's figures is
    `wrong_time`, "... today:" is kept."""
    checked = 0
    for question, move, _ in _moves():
        t, pct = move["ticker"], move["change_pct"]
        if abs(pct) < 0.05:
            continue
        went, wrong = ("gained", "lost") if pct > 0 else ("lost", "gained")
        for opener in (
            f"Looking at the numbers for {t}: ",
            f"Mirando los números de {t}: ",
            f"Here's the picture for {t} today. ",
            "A bit of context from the data: ",
        ):
            _kept(question, f"{opener}{_closed(move)}")
        _kept(question, f"{_closed(move)} In other words, the shares {went} {abs(pct):.2f}%.")
        said = f"{_closed(move)} In other words, the shares {wrong} {abs(pct):.2f}%."
        assert not _verdict(question, said).accepted, question
        table = (
            f"Here's what the data shows for {t} {{}}:\n\n| Metric | Value |\n|---|---|\n"
            f"| Close | {move['close']:.2f} |\n| Day change | {move['change']:+.2f} ({pct:+.2f}%) |"
        )
        _kept(question, table.format("today"))
        assert "wrong_time" in _codes(question, table.format("yesterday")), question
        checked += 1
    assert checked >= 30


_SET_LINES = (
    "Esto no constituye asesoramiento financiero.",
    "(Recuerda que esto no es una recomendación de inversión.)",
    "Please remember this is not financial advice and past performance does not guarantee "
    "future results.",
    "(Note: this is informational only and not investment advice.)",
    "Note: correlation is not causation.",
    "Okay, let me break this down.",
    "Usted tiene una posición en este valor.",
)


def test_a_small_model_s_set_lines_and_a_restated_question_frame_a_faithful_answer() -> None:
    """A regulator's line, a chat's set phrase, the reader addressed formally, and the question
    restated ("Pregunta: ¿cómo cerró AXO ...?", "So, you asked how AXO closed") frame a faithful
    answer; a question that holds what was not asked ("¿subió AXO tras la fusión?"), and a set
    phrase beside a wrong move, are still rejected."""
    checked = 0
    for question, move, _ in _moves():
        t, pct = move["ticker"], move["change_pct"]
        if abs(pct) < 0.05:
            continue
        for line in _SET_LINES:
            _kept(question, f"{_closed(move)} {line}")
        _kept(
            question,
            f"Pregunta: ¿cómo cerró {t} el 2024-12-31 y cuál fue su variación? {_closed(move)}",
        )
        _kept(question, f"So, you asked how {t} closed on 2024-12-31. {_closed(move)}")
        _kept(question, f"You're asking how {t} closed on 2024-12-31. {_closed(move)}")
        asking = f"You're asking why analysts downgraded {t}. {_closed(move)}"
        assert not _verdict(question, asking).accepted, question
        before = move["previous_close"]
        _kept(question, f"{_closed(move)} For comparison, the previous close was {before:.2f}.")
        asked = f"Pregunta: ¿subió {t} tras la fusión anunciada? {_closed(move)}"
        assert not _verdict(question, asked).accepted, question
        wrong = "fell" if pct > 0 else "rose"
        said = f"{_closed(move)} In dollar terms, the shares {wrong} on the day."
        assert not _verdict(question, said).accepted, question
        checked += 1
    assert checked >= 30


def test_a_signature_line_of_marks_alone_is_read_without_error() -> None:
    """A closing whose last line holds only a bracket or a dash ("Best regards,\\n(") is a
    verdict like any other draft, never an exception."""
    question, move, _ = _moves()[0]
    for tail in ("(", "( )", "—", "(—)"):
        _verdict(question, f"{_closed(move)}\n\nBest regards,\n{tail}")


def test_a_caveat_about_what_the_calendar_includes_asserts_nothing() -> None:
    """ "Please note that only events announced by the as-of date are included", "(Solo se
    consideran los eventos anunciados hasta la fecha del informe.)", "anything not yet
    announced wouldn't show up here": the tool's scope, said beside a checked answer; "up" is no
    direction there, but still one with a figure after it."""
    checked = 0
    for question in sorted(q for q in FREE_TRACES if q.endswith("/events")):
        listed = _result(question, "get_events").get("events") or []
        if listed:
            continue
        t = question.split("/")[0]
        lead = f"There are no scheduled events for {t} in the next 30 days."
        for caveat in (
            " Please note that only events announced by the as-of date are included.",
            " Anything not yet announced wouldn't show up here.",
            " (Solo se consideran los eventos anunciados hasta la fecha del informe.)",
            " Solo se incluyen eventos anunciados hasta la fecha del informe.",
        ):
            _kept(question, lead + caveat)
        assert _codes(question, lead + " It would show up 12% here.")
        checked += 1
    assert checked >= 10


def test_a_hedge_never_stretches_a_round_figure_by_more_than_a_quarter() -> None:
    """ "a slide of about 10% this week" for a week of -6.39%: half of the tens would be half of
    the figure, so "about 10%" stands for 10% as written; "roughly 20%" may stand for 15% to
    25%."""
    checked = 0
    for question, move, windows in _moves():
        week = (windows.get("week") or {}).get("change_pct")
        if week is None or not 3 <= abs(week) <= 7.4:
            continue
        way = "up" if week > 0 else "down"
        said = f"{_closed(move)} On the week it is {way} about 10%."
        assert not _verdict(question, said).accepted, (question, week)
        _kept(question, f"{_closed(move)} On the week it is {way} about {abs(week):.0f}%.")
        checked += 1
    assert checked >= 10, checked

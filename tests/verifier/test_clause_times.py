"""Which clause a date or a window belongs to, and relations that depend on it, over the
free-form night's real traces: a bracketed date annotates the clause before it, a label window
("quarter 1.45%") is the figure's after it, the holdings date is when the holdings were taken, a
window that opens the next clause is that clause's, "the next day" is not the date before it, a
date after a news item is the item's; a streak of one session, a membership denied, a move
compared by its size, a judging word after a window and a denial "on the day itself". Each
faithful draft beside a twin with one thing wrong: the test fails if the reading is removed
(the faithful one is rejected) or drawn too wide (the twin passes)."""

from __future__ import annotations

from tests.verifier.test_unseen_prose import (
    FREE_TRACES,
    _closed,
    _codes,
    _es,
    _kept,
    _moves,
    _positions,
    _result,
    _verdict,
)

_ONES = {2: "two", 3: "three", 4: "four", 5: "five", 6: "six"}


def _us(day: str) -> str:
    """2024-09-30 as 9/30/2024."""
    year, month, dom = day.split("-")
    return f"{int(month)}/{int(dom)}/{year}"


def test_a_bracketed_date_is_the_clause_before_it_and_not_the_next_figure_s() -> None:
    """ "versus 17.38 in the previous session (2024-12-30), a move of -0.63 per share": the
    date is the previous close's; the change after the comma is the day's. The previous close
    bracketed with the report day is `wrong_time`."""
    for question, move, _ in _moves():
        t, prev = move["ticker"], move["previous_session"]
        said = (
            f"{t} fell {abs(move['change_pct']):.2f}% on {move['session']}."
            if move["change_pct"] < 0
            else f"{t} rose {move['change_pct']:.2f}% on {move['session']}."
        ) + (
            f" The stock settled at {move['close']:.2f} versus {move['previous_close']:.2f} in "
            f"the previous session ({{}}), a move of {move['change']:+.2f} per share."
        )
        _kept(question, said.format(prev))
        assert "wrong_time" in _codes(question, said.format(move["session"])), question


def test_a_window_labelling_a_figure_and_its_bracketed_start_stay_with_it() -> None:
    """ "quarter 1.45% (from $60.10 on 9/30/2024), year to date -14.09% (from $70.97)": each
    label is its own figure's window and the bracket's day stays in the bracket; the two
    windows' figures swapped are `wrong_time`."""
    checked = 0
    for question, move, windows in _moves():
        quarter, ytd = windows.get("quarter"), windows.get("year_to_date")
        if not quarter or not ytd or abs(quarter["change_pct"] - ytd["change_pct"]) < 0.5:
            continue
        said = _closed(move) + (
            " Quarter {:+.2f}% (from ${:.2f} on {}), year to date {:+.2f}% (from ${:.2f})."
        )
        starts = (quarter["start_close"], _us(quarter["start_session"]))
        _kept(
            question,
            said.format(quarter["change_pct"], *starts, ytd["change_pct"], ytd["start_close"]),
        )
        swapped = said.format(ytd["change_pct"], *starts, quarter["change_pct"], ytd["start_close"])
        assert "wrong_time" in _codes(question, swapped), question
        checked += 1
    assert checked >= 20


def test_the_holdings_date_is_when_the_holdings_were_taken() -> None:
    """ "quantity 101 as of the holdings date 2024-12-19, market value 29,001.14": the value is
    the session's; "as of 2024-12-19, market value ..." states it for that day (`wrong_time`)."""
    checked = 0
    for question, pos in _positions():
        held = pos.get("holdings_as_of")
        if not held or held == pos.get("session") or not pos.get("market_value"):
            continue
        opening = (
            f"{pos['ticker']} contributed {pos['contribution_pct']:+.2f}% to {pos['portfolio_id']}."
        )
        tail = f", market value {pos['market_value']:,.2f}."
        _kept(
            question, f"{opening} Quantity {pos['quantity']} as of the holdings date {held}{tail}"
        )
        _kept(
            question, f"{opening} Cantidad {pos['quantity']}; fecha de las posiciones: {held}{tail}"
        )
        wrong = f"{opening} As of {held}{tail}"
        assert "wrong_time" in _codes(question, wrong), question
        checked += 1
    assert checked >= 10


def test_a_window_that_opens_the_next_clause_is_that_clause_s() -> None:
    """ "En el trimestre, X acumula un 31 %, y en la semana, casi un 2 %": the quarter's
    figure does not take the week; the two figures swapped are `wrong_time`."""
    checked = 0
    for question, move, windows in _moves():
        quarter, week = windows.get("quarter"), windows.get("week")
        if not quarter or not week or abs(quarter["change_pct"] - week["change_pct"]) < 0.5:
            continue
        t = move["ticker"]
        said = "En el trimestre, {} acumula un movimiento de un {} %, y en la semana, un {} %."
        q, w = _es(quarter["change_pct"], True), _es(week["change_pct"], True)
        _kept(question, said.format(t, q, w))
        assert "wrong_time" in _codes(question, said.format(t, w, q)), question
        checked += 1
    assert checked >= 20


def test_a_figure_restated_in_brackets_takes_the_window_after_the_bracket() -> None:
    """ "it fell on the week, although it is up about 136% (136.43%) on the year":
    the rounded figure and its bracket are one quantity, the year's; the quarter's said so is
    `wrong_time`."""
    checked = 0
    for question, move, windows in _moves():
        week, quarter, ytd = (windows.get(k) for k in ("week", "quarter", "year_to_date"))
        if not week or not quarter or not ytd or abs(ytd["change_pct"]) < 5:
            continue
        if abs(quarter["change_pct"] - ytd["change_pct"]) < 2 or not week["change_pct"]:
            continue
        fell = "rose" if week["change_pct"] > 0 else "fell"
        said = _closed(move) + (
            f" {move['ticker']} {fell} on the week, although it is {{}} about {{:.0f}}% ({{:.2f}}%) on the year."
        )
        for change, kept in ((ytd["change_pct"], True), (quarter["change_pct"], False)):
            draft = said.format("up" if change > 0 else "down", abs(change), abs(change))
            if kept:
                _kept(question, draft)
            else:
                assert "wrong_time" in _codes(question, draft), (question, draft)
        checked += 1
    assert checked >= 20


def test_a_date_that_ends_one_clause_is_not_the_next_clause_s() -> None:
    """ "extends a losing run to four sessions, dating back to December 26, and the stock is
    off 5.37% for the week": the week's figure is the week's to the report day, not a week to
    December 26; the month's figure said so is `wrong_time`."""
    checked = 0
    for question, move, windows in _moves():
        streak = _result(question, "get_trend").get("streak") or {}
        sessions, week, month = streak.get("sessions"), windows.get("week"), windows.get("month")
        if (
            sessions not in _ONES
            or not week
            or not month
            or streak.get("direction") not in ("up", "down")
        ):
            continue
        if abs(week["change_pct"] - month["change_pct"]) < 0.5:
            continue
        run = "winning" if streak["direction"] == "up" else "losing"
        said = _closed(move) + (
            f" That extends a {run} run to {_ONES[sessions]} sessions, dating back to "
            f"{streak['since_session']}, and the stock is {{:+.2f}}% for the week."
        )
        _kept(question, said.format(week["change_pct"]))
        assert "wrong_time" in _codes(question, said.format(month["change_pct"])), question
        checked += 1
    assert checked >= 5


def test_the_next_day_is_not_the_date_before_it_and_a_news_item_owns_its_date() -> None:
    """ "hit FBB on December 30 ..., and the stock closed 1.87% higher the next day": the change
    is the next session's, not December 30's; "closed at 12.53, with a report on 2024-12-30":
    the day is the report's. The same figures said "on" the earlier day are `wrong_time`."""
    checked = 0
    for question in sorted(q for q in FREE_TRACES if q.endswith("/news")):
        move = _result(question, "get_daily_move")
        news = _result(question, "search_news").get("news") or []
        earlier = [i for i in news if i["published_at"][:10] < move.get("session", "")]
        if "close" not in move or not earlier:
            continue
        t, prev, close = move["ticker"], move["previous_session"], move["close"]
        up = "higher" if move["change_pct"] >= 0 else "lower"
        pct = abs(move["change_pct"])
        said = f"{t} traded on {prev}, and the stock closed {pct:.2f}% {up} {{}} at {close:.2f}."
        _kept(question, said.format("the next day"))
        assert "wrong_time" in _codes(question, said.format("that day")), question
        item, day = earlier[0], earlier[0]["published_at"][:10]
        opening = f"{t} closed at {close:.2f} ({move['change_pct']:+.2f}%)"
        _kept(question, f'{opening}, with a report on {day}: "{item["headline"]}".')
        assert "wrong_time" in _codes(question, f'{opening} on {day}: "{item["headline"]}".')
        checked += 1
    assert checked >= 5


def test_a_larger_move_is_compared_by_its_size() -> None:
    """ "its 3.70% drop on December 31 is larger than its gain over the past week (1.92%)": the
    date right after the first figure is its time (the window after is the second one's), and
    sizes are compared whatever the signs; "smaller than" is `wrong_relation`."""
    checked = 0
    for question, move, windows in _moves():
        week = windows.get("week")
        if not week or move["change_pct"] * week["change_pct"] >= 0:
            continue
        day, wk = abs(move["change_pct"]), abs(week["change_pct"])
        if abs(day - wk) < 0.2:
            continue
        big, small = ("larger", "smaller") if day > wk else ("smaller", "larger")
        moved = "drop" if move["change_pct"] < 0 else "gain"
        went = "gain" if moved == "drop" else "drop"
        said = (
            f"{move['ticker']}'s {day:.2f}% {moved} on {move['session']} is {{}} than its "
            f"{went} over the past week ({wk:.2f}%)."
        )
        _kept(question, said.format(big))
        assert "wrong_relation" in _codes(question, said.format(small)), question
        checked += 1
    assert checked >= 5


def test_a_streak_of_one_session_is_said_as_one() -> None:
    """ "Only one session in its current winning streak", "the winning streak is just today's
    session": a run of one holds where the trace's streak is one session; where it is longer,
    `wrong_relation`."""
    ones = longer = 0
    for question, move, _ in _moves():
        streak = _result(question, "get_trend").get("streak") or {}
        sessions, direction = streak.get("sessions"), streak.get("direction")
        if not isinstance(sessions, int) or direction not in ("up", "down"):
            continue
        run = "winning" if direction == "up" else "losing"
        racha = "alcista" if direction == "up" else "bajista"
        t = move["ticker"]
        day = f"{_es(move['change_pct'], True)} %"
        way, other = ("up", "down") if direction == "up" else ("down", "up")
        drafts = (
            f"{_closed(move)} Only one session in its current {run} streak.",
            f"{_closed(move)} The current {run} streak is just today's session.",
            f"{t} cerró en {_es(move['close'])} $ ({day}) y la racha {racha} es solo de hoy.",
            f"{_closed(move)} Its current streak is just one session ({way} on {move['session']}).",
            f"{_closed(move)} The streak counter shows a single {way} session.",
        )
        for draft in drafts:
            if sessions == 1:
                _kept(question, draft)
            else:
                assert "wrong_relation" in _codes(question, draft), (question, draft)
        if sessions == 1:
            turned = f"{_closed(move)} The streak counter shows a single {other} session."
            assert "wrong_relation" in _codes(question, turned), (question, turned)
        ones += sessions == 1
        longer += sessions > 1
    assert ones >= 10 and longer >= 10


def test_a_denied_membership_holds_outside_the_list() -> None:
    """ "No está entre los cinco principales contribuidores ni detractores", "is not among the
    five biggest detractors": the holding must be in neither list; one that is is
    `wrong_relation`."""
    outside = inside = 0
    for question, pos in _positions():
        ranks = _result(question, "get_portfolio_ranks")
        tops, bottoms = ranks.get("top_contributors") or [], ranks.get("detractors") or []
        if not tops or not bottoms:
            continue
        t = pos["ticker"]
        opening = f"{t} contributed {pos['contribution_pct']:+.2f}% to {pos['portfolio_id']}. "
        for said in (
            "No está entre los cinco principales contribuidores ni detractores.",
            "It is not among the five biggest detractors.",
        ):
            listed = t in bottoms or (t in tops and "contribuidores" in said)
            if listed:
                assert "wrong_relation" in _codes(question, opening + said), (question, said)
                inside += 1
            else:
                _kept(question, opening + said)
                outside += 1
    assert outside >= 20 and inside >= 5


def test_a_judging_word_after_a_window_judges_that_window() -> None:
    """ "y en el año más que duplica su precio", "over the year it more than doubled": the
    year's own change must be at least 100%, even where the sentence states no figure."""
    held = refused = 0
    for question, move, windows in _moves():
        ytd = windows.get("year_to_date")
        if not ytd:
            continue
        t = move["ticker"]
        day = f"{_es(move['change_pct'], True)} %"
        for said in (
            f"{t} cerró en {_es(move['close'])} $ ({day}), y en el año más que duplica su precio.",
            f"{_closed(move)} Over the year it more than doubled.",
        ):
            if ytd["change_pct"] >= 100:
                _kept(question, said)
                held += 1
            else:
                assert "wrong_relation" in _codes(question, said), (question, said)
                refused += 1
    assert held >= 2 and refused >= 20


def _news_days(question: str) -> set[str]:
    news = _result(question, "search_news").get("news") or []
    return {item["published_at"][:10] for item in news if isinstance(item, dict)}


def test_no_news_on_the_day_itself_is_held_against_that_day() -> None:
    """ "there was no news on the day itself": true where the trace's items all came on other
    days; where one came on the report day, `wrong_absence`."""
    quiet = busy = 0
    for question in sorted(q for q in FREE_TRACES if q.endswith("/news")):
        move = _result(question, "get_daily_move")
        days = _news_days(question)
        if "close" not in move or not days:
            continue
        said = f"{_closed(move)} There was no news on the day itself."
        if move["session"] in days:
            assert "wrong_absence" in _codes(question, said), question
            busy += 1
        else:
            _kept(question, said)
            quiet += 1
    assert quiet >= 3 and busy >= 3


def _names(question: str) -> tuple[str, str]:
    """The portfolio's name in the position result and the name of another portfolio."""
    own = _result(question, "get_position_pnl")
    others = {
        _result(q, "get_position_pnl").get("name")
        for q, _ in _positions()
        if _result(q, "get_position_pnl").get("portfolio_id") != own.get("portfolio_id")
    }
    return own["name"], sorted(n for n in others if n)[0]


def test_a_portfolio_named_by_its_name_is_the_portfolio() -> None:
    """ "about 12.5% of Dividend Income's total day loss of 21,660.18", "Core Growth returned
    0.52%": the name is the portfolio's, like its id; the figure said of another portfolio's
    name is `wrong_subject`, and the holding's own return said of the portfolio is too."""
    checked = 0
    for question, pos in _positions():
        ranks = _result(question, "get_portfolio_ranks")
        whole, pnl = ranks.get("portfolio_day_pnl"), pos["day_pnl"]
        if (
            not whole
            or not pnl
            or abs(pnl / whole) * 100 < 1
            or pos["pnl_pct"] == ranks.get("portfolio_return_pct")
        ):
            continue
        name, other = _names(question)
        t, share = pos["ticker"], abs(pnl / whole) * 100
        said = (
            f"{t} contributed {pos['contribution_pct']:+.2f}% to {pos['portfolio_id']}. "
            f"The {t} stake made {pnl:,.2f}, about {share:.1f}% of {{}}'s total day P&L of {whole:,.2f}."
        )
        _kept(question, said.format(name))
        assert "wrong_subject" in _codes(question, said.format(other)), question
        opening = f"{t} contributed {pos['contribution_pct']:+.2f}% to {pos['portfolio_id']}, and "
        _kept(
            question, f"{opening}{name} returned {ranks['portfolio_return_pct']:+.2f}% on the day."
        )
        wrong = f"{opening}{name} returned {pos['pnl_pct']:+.2f}% on the day."
        assert "wrong_subject" in _codes(question, wrong), question
        checked += 1
    assert checked >= 20


def test_a_count_of_members_before_the_benchmark_is_the_benchmark_s() -> None:
    """ "IBS (-0.34%) outperformed the 59-stock equal-weight universe (-0.57%)": 59 is the
    benchmark's count; another count is rejected (`unsupported_figure`, or `wrong_subject` where
    another value of the trace happens to be that number)."""
    checked = 0
    for question, pos in _positions():
        bench = _result(question, "get_portfolio_ranks").get("benchmark") or {}
        n, ret = bench.get("constituents"), bench.get("return_pct")
        if not isinstance(n, int) or ret is None or pos["pnl_pct"] == ret:
            continue
        verb = "outperformed" if pos["pnl_pct"] > ret else "underperformed"
        said = (
            f"{pos['ticker']} contributed {pos['contribution_pct']:+.2f}% to {pos['portfolio_id']}. "
            f"{pos['ticker']} ({pos['pnl_pct']:+.2f}%) {verb} the {{}}-stock equal-weight universe "
            f"({ret:+.2f}%)."
        )
        _kept(question, said.format(n))
        assert {"unsupported_figure", "wrong_subject"} & _codes(question, said.format(n + 3))
        checked += 1
    assert checked >= 20


_WINDOW_WORDS = {"week": "week", "month": "month", "quarter": "quarter", "year_to_date": "year"}


def test_a_change_after_the_figure_it_is_measured_from_takes_that_figure_s_day_and_window() -> None:
    """ "against a previous close of 114.72 on 2024-12-30, a change of -1.08 (-0.94%)", "over
    the quarter, from 245.66 on 2024-09-30, the shares are +37.29%": the date is the base's, the
    change is measured from it (the day's move, the quarter's); the window word said of the base
    still binds the change ("over the month, from 245.66 on 2024-09-30, +37.29%" is
    `wrong_time`), and a date that no base owns stays the change's own day."""
    checked = 0
    for question, move, trend in _moves():
        t = move["ticker"]
        day = (
            f"{t} closed at {move['close']:.2f} against a previous close of "
            f"{move['previous_close']:.2f} on {move['previous_session']}, a change of "
            f"{move['change']:+.2f} ({move['change_pct']:+.2f}%)."
        )
        _kept(question, day)
        moved = f"On {move['previous_session']}, {t} moved {move['change_pct']:+.2f}%."
        assert "wrong_time" in _codes(question, moved), question  # no base owns that date
        for window, row in trend.items():
            others = [
                w
                for w in trend
                if w != window and trend[w]["start_session"] != row["start_session"]
            ]
            if not others or abs(row["change_pct"]) < 0.1:
                continue
            said = (
                f"Over the {{}}, from {row['start_close']:.2f} on {row['start_session']}, "
                f"{t} is {row['change_pct']:+.2f}%, a change of {row['change']:+.2f}."
            )
            _kept(question, said.format(_WINDOW_WORDS[window]))
            since = f"From {row['start_close']:.2f} on {row['start_session']}, {t} is {row['change_pct']:+.2f}%."
            _kept(question, since)
            other = trend[others[0]]["change_pct"]
            if abs(other - row["change_pct"]) >= 0.1:  # another window's change, said since it
                moved_since = since.replace(f"{row['change_pct']:+.2f}%", f"{other:+.2f}%")
                assert "wrong_time" in _codes(question, moved_since), (question, moved_since)
            wrong = said.format(_WINDOW_WORDS[others[0]])
            assert "wrong_time" in _codes(question, wrong), (question, wrong)
        checked += 1
    assert checked >= 30


def test_the_close_a_change_is_measured_from_is_the_previous_session_s() -> None:
    """A base after "respecto a", a `prev_close=` field and a day named as the base close ("the
    day change computed against the 2024-12-30 close") are the previous session's: said so they
    are kept; the close and the base swapped, or the session named as the base, are rejected
    (`wrong_time` for the day)."""
    checked = 0
    for question, move, _ in _moves():
        t, close, prev, pct = (
            move["ticker"],
            move["close"],
            move["previous_close"],
            move["change_pct"],
        )
        session, before = move["session"], move["previous_session"]
        if abs(close - prev) < 0.02:
            continue
        bracket = f"{t} cerró el {session} en {{:.2f}} ({pct:+.2f} % respecto a {{:.2f}})."
        _kept(question, bracket.format(close, prev))
        assert not _verdict(question, bracket.format(prev, close)).accepted, question
        fields = f"ticker={t} session={session} close={{:.2f}} prev_close={{:.2f}} change_pct={pct:+.2f}%"
        _kept(question, fields.format(close, prev))
        assert not _verdict(question, fields.format(prev, close)).accepted, question
        based = f"{_closed(move)} The day change is computed against the {{}} close."
        _kept(question, based.format(before))
        assert "wrong_time" in _codes(question, based.format(session)), question
        checked += 1
    assert checked >= 30


def test_a_window_said_as_the_subject_or_so_far_is_the_window_of_its_figure() -> None:
    """ "The month is down 9.07%", "Month to date the shares are -9.07%", "**Quarter so far:**
    +37.29%": the window is the figure's; another window's change said so is `wrong_time`."""
    checked = 0
    for question, move, trend in _moves():
        for word in ("week", "month", "quarter"):
            row = trend.get(word)
            other = next((trend[w] for w in trend if w != word), None)
            if row is None or other is None or abs(other["change_pct"] - row["change_pct"]) < 0.1:
                continue
            forms = [
                lambda pct, w=word: f"The {w} is {'up' if pct > 0 else 'down'} {abs(pct):.2f}%.",
                lambda pct, w=word: f"{w.capitalize()} to date the shares are {pct:+.2f}%.",
                lambda pct, w=word: f"**{w.capitalize()} so far:** {pct:+.2f}%.",
            ]
            if word == "week":  # the week to date opens at last Friday's close, not at the
                forms = forms[:1]  # last five sessions' start (`test_denials_and_levels.py`)
            for said in forms:
                _kept(question, f"{_closed(move)} {said(row['change_pct'])}")
                wrong = f"{_closed(move)} {said(other['change_pct'])}"
                assert "wrong_time" in _codes(question, wrong), (question, wrong)
        checked += 1
    assert checked >= 30

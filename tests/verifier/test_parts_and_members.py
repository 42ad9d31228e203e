"""Parts, members and sizes: a remainder of a whole split in two, a holding said to be one of its
portfolio's gainers, a verb of change said with a level, a change per share the program
computes, a gap in points that equals a return. Wordings a blind outside attack got past the
verifier (or that it rejected when faithful), bound over the free-form night's real traces:
each test writes the faithful sentence and its wrong twin from the trace's own results and
fails with its mechanism taken out."""

from __future__ import annotations

import re
from datetime import date, timedelta
from typing import Any

from tests.verifier.test_places_fractions_columns import _ranked
from tests.verifier.test_unseen_prose import (
    FREE_TRACES,
    _codes,
    _kept,
    _moves,
    _new_york,
    _news_days,
    _positions,
    _result,
    _verdict,
)

REPORT = date(2024, 12, 31)


def _es(value: float) -> str:
    return f"{value:,.2f}".replace(",", "_").replace(".", ",").replace("_", ".")


def test_the_rest_of_a_split_whole_is_the_whole_less_its_part() -> None:
    """ "Since 2024-12-24 it has moved W; of that, D came on the day and R before": R is W - D,
    and the sum W + D (a chance match of another operation) is rejected as the figure it is
    not (`unsupported_figure`, or `wrong_time` where the trace has it for another day)."""
    checked = 0
    for question, move, windows in _moves():
        week = windows.get("week") or windows.get("1w")
        if week is None or "change" not in week:
            continue
        whole, day = week["change"], move["change"]
        rest, wrong = whole - day, whole + day
        if not round(whole, 2) or abs(round(wrong, 2)) < 0.02:
            continue  # a flat week: the rest is the day's change again
        head = (
            f"{move['ticker']} closed at {move['close']:.2f} on 2024-12-31 ({move['change_pct']:+.2f}%). "
            f"Since {week['start_session']} it has moved {whole:+.2f}; of that, {day:+.2f} came on "
            "2024-12-31 and"
        )
        _kept(question, f"{head} {rest:+.2f} in the sessions before.")
        codes = _codes(question, f"{head} {wrong:+.2f} in the sessions before.")
        assert codes & {"unsupported_figure", "wrong_time", "wrong_field"}, (question, codes)
        checked += 1
    assert checked >= 10, checked


def test_a_holding_said_among_the_gainers_or_decliners_moved_that_way() -> None:
    """ "X was one of the N decliners": X fell on the day and N is the portfolio's count; the
    other group, or a count off by one, is `wrong_relation`; "one of N positions" is the
    portfolio's count of positions."""
    checked = 0
    for question, pnl, ranks, row in _ranked():
        moved = row.get("day_return_pct")
        if not moved:
            continue
        ticker, portfolio = pnl["ticker"], pnl["portfolio_id"]
        own, other = ("gainers", "decliners") if moved > 0 else ("decliners", "gainers")
        lead = f"{ticker} returned {moved:+.2f}% on 2024-12-31 in {portfolio}."
        _kept(question, f"{lead} {ticker} was one of the {ranks[own]} {own}.")
        assert "wrong_relation" in _codes(
            question, f"{lead} {ticker} was one of the {ranks[other]} {other}."
        )
        assert "wrong_relation" in _codes(
            question, f"{lead} {ticker} was one of the {ranks[own] + 1} {own}."
        )
        count = ranks["positions_count"]
        _kept(question, f"{lead} {ticker} is one of {count} positions in {portfolio}.")
        assert "wrong_relation" in _codes(
            question, f"{lead} {ticker} is one of {count - 1} positions in {portfolio}."
        )
        checked += 1
    assert checked >= 20, checked


def test_a_figure_said_with_a_verb_of_change_is_no_level() -> None:
    """ "X rose 75.01" (the close) and "the position added 49,431.59" (its market value) state a
    level as the size of a change: `wrong_field`; the change itself is kept."""
    checked = 0
    for question, move, _ in _moves():
        if not move["change"] or round(abs(move["change"]), 2) == round(move["close"], 2):
            continue
        went = "rose" if move["change"] > 0 else "fell"
        _kept(
            question,
            f"{move['ticker']} {went} {abs(move['change']):.2f} ({move['change_pct']:+.2f}%) on 2024-12-31.",
        )
        wrong = f"{move['ticker']} {went} {move['close']:.2f} ({move['change_pct']:+.2f}%) on 2024-12-31."
        assert "wrong_field" in _codes(question, wrong), question
        checked += 1
    for question, pnl in _positions():
        if not pnl.get("day_pnl") or pnl["day_pnl"] < 0:
            continue
        tail = f"to {pnl['portfolio_id']} on 2024-12-31 ({pnl['pnl_pct']:+.2f}%)."
        _kept(question, f"The {pnl['ticker']} position added {pnl['day_pnl']:,.2f} {tail}")
        assert "wrong_field" in _codes(
            question, f"The {pnl['ticker']} position added {pnl['market_value']:,.2f} {tail}"
        )
        checked += 1
    assert checked >= 40, checked


def test_verbs_of_profit_bind_the_days_pnl() -> None:
    """ "earned X on its N shares", "ganó X para la cartera": X is the day's P&L, and the market
    value said so is `wrong_field`."""
    checked = 0
    for question, pnl in _positions():
        if not pnl.get("day_pnl") or pnl["day_pnl"] < 0 or not pnl.get("market_value"):
            continue
        ticker, portfolio, shares = pnl["ticker"], pnl["portfolio_id"], int(pnl["quantity"])
        tail = f"on its {shares} {ticker} shares on 2024-12-31, a {pnl['pnl_pct']:.2f}% move."
        _kept(question, f"Portfolio {portfolio} earned {pnl['day_pnl']:,.2f} {tail}")
        assert "wrong_field" in _codes(
            question, f"Portfolio {portfolio} earned {pnl['market_value']:,.2f} {tail}"
        )
        cola = (
            f"para la cartera {portfolio} el 31 de diciembre de 2024, un {_es(pnl['pnl_pct'])} %."
        )
        _kept(question, f"{ticker} ganó {_es(pnl['day_pnl'])} {cola}")
        assert "wrong_field" in _codes(question, f"{ticker} ganó {_es(pnl['market_value'])} {cola}")
        checked += 1
    assert checked >= 10, checked


def test_the_change_per_share_of_a_position_is_computed_from_its_closes() -> None:
    """A position's result gives its close and previous close: "per share the move was X" is
    their difference, computed by the program; another figure is `unsupported_figure`."""
    checked = 0
    for question, pnl in _positions():
        if "previous_close" not in pnl or not pnl.get("day_pnl"):
            continue
        change = pnl["close"] - pnl["previous_close"]
        if abs(change) < 0.1:
            continue  # "-0.01" may stand for other figures of the trace
        head = f"{pnl['ticker']} in {pnl['portfolio_id']} returned {pnl['pnl_pct']:+.2f}% on 2024-12-31; per share the move was"
        _kept(question, f"{head} {change:+.2f}.")
        assert "unsupported_figure" in _codes(question, f"{head} {change * 1.5:+.2f}."), question
        checked += 1
    assert checked >= 20, checked


def test_a_percentage_in_brackets_after_a_ticker_is_its_figure() -> None:
    """ "La rentabilidad de OEE (1,90 %)": the ticker's figure beside its name, not a loss in
    accounting style; "un resultado de (1,90 %)" after a verb's preposition still is one."""
    checked = 0
    for question, pnl in _positions():
        pct = pnl.get("pnl_pct")
        if not pct or pct < 0 or "portfolio_id" not in pnl:
            continue
        ranks = _result(question, "get_portfolio_ranks")
        if "portfolio_return_pct" not in ranks:
            continue
        ticker = pnl["ticker"]
        _kept(question, f"La rentabilidad de {ticker} ({_es(pct)} %) el 31 de diciembre de 2024.")
        assert "unsupported_figure" in _codes(
            question, f"{ticker} rindió ({_es(pct)} %) el 31 de diciembre de 2024."
        )
        checked += 1
    assert checked >= 10, checked


def test_a_gap_in_points_that_equals_a_return_is_the_gap() -> None:
    """ "Its -2.04% return was 2.04 percentage points below the portfolio's 0.00%": a gap of two
    figures the sentence names, kept though a return of the same size stands in the trace; the
    wrong side is `wrong_relation`."""
    checked = 0
    for question, _pnl, ranks, row in _ranked():
        mine, theirs = row.get("day_return_pct"), ranks.get("portfolio_return_pct")
        if mine is None or theirs is None or round(mine, 2) == round(theirs, 2):
            continue
        gap = abs(mine - theirs)
        side, other = ("above", "below") if mine > theirs else ("below", "above")
        head = f"Its {mine:+.2f}% return was {gap:.2f} percentage points"
        _kept(question, f"{head} {side} the portfolio's {theirs:.2f}%.")
        assert "wrong_relation" in _codes(
            question, f"{head} {other} the portfolio's {theirs:.2f}%."
        )
        checked += 1
    assert checked >= 20, checked


def test_days_before_a_named_date_run_from_the_date_the_sentence_gives() -> None:
    """ "announced on A, N days before D": N is D - A; the days from the report date to A (a
    chance match of another span) are rejected."""
    checked = 0
    for question in sorted(q for q in FREE_TRACES if q.endswith("/events")):
        for event in _result(question, "get_events").get("events") or []:
            day, announced = (
                date.fromisoformat(event["date"]),
                date.fromisoformat(event["announced_at"][:10]),
            )
            lead, report_gap = (day - announced).days, abs((REPORT - announced).days)
            if lead == report_gap or day <= REPORT or report_gap < 2:
                continue
            ticker = question.split("/")[0]
            head = f"{ticker} has {event['kind']} on {day}. The date was announced on {announced},"
            _kept(question, f"{head} {lead} days before {day}.")
            assert not _verdict(question, f"{head} {report_gap} days before {day}.").accepted
            checked += 1
    assert checked >= 5, checked


def test_hold_said_of_a_count_is_a_holding_and_otherwise_advice() -> None:
    """ "You hold 781 shares of AXO": a holding and its checked count; "I would hold the position"
    advises, which no tool returns."""
    checked = 0
    for question, pnl in _positions():
        if "quantity" not in pnl or not pnl.get("market_value"):
            continue
        ticker = pnl["ticker"]
        held = f"In {pnl['portfolio_id']} you hold {pnl['quantity']:g} shares of {ticker}, worth {pnl['market_value']:,.2f}, a {pnl['pnl_pct']:+.2f}% day."
        _kept(question, held)
        assert "unverified_claim" in _codes(question, f"{held} I would hold the position for now.")
        checked += 1
    assert checked >= 20, checked


def test_a_percentage_named_a_contribution_after_it_is_the_contribution() -> None:
    """ "translated into a +0.14% contribution": the figure is the contribution; the weight said
    so is `wrong_field`."""
    checked = 0
    for question, pnl, _, row in _ranked():
        weight, contribution = row.get("weight_pct"), pnl.get("contribution_pct")
        if weight is None or contribution is None or round(weight, 2) == round(contribution, 2):
            continue
        head = f"The {pnl['day_pnl']:+,.2f} day P&L of {pnl['ticker']} translated into a"
        _kept(question, f"{head} {contribution:+.2f}% contribution to the portfolio's return.")
        assert "wrong_field" in _codes(
            question, f"{head} {weight:+.2f}% contribution to the portfolio's return."
        )
        checked += 1
    assert checked >= 20, checked


def test_points_of_a_move_are_its_change_in_price() -> None:
    """ "climbed 3.71 points": the change of the price; the change in percent said in points is
    `wrong_field`."""
    checked = 0
    for question, move, _ in _moves():
        change, pct = move["change"], move["change_pct"]
        if not change or round(abs(change), 2) == round(abs(pct), 2):
            continue
        went = "climbed" if change > 0 else "slid"
        tail = f"points on 2024-12-31 to close at {move['close']:.2f} ({pct:+.2f}%)."
        _kept(question, f"{move['ticker']} {went} {abs(change):.2f} {tail}")
        assert "wrong_field" in _codes(question, f"{move['ticker']} {went} {abs(pct):.2f} {tail}")
        checked += 1
    assert checked >= 20, checked


def test_the_portfolio_said_to_post_a_figure_is_its_subject() -> None:
    """ "Portfolio P002 as a whole posted a day P&L of X": the portfolio's, and the holding's own
    P&L said so is `wrong_subject`."""
    checked = 0
    for question, pnl, ranks, _ in _ranked():
        own, whole = pnl.get("day_pnl"), ranks.get("portfolio_day_pnl")
        if own is None or whole is None or round(own, 2) == round(whole, 2):
            continue
        head = f"{pnl['ticker']} returned {pnl['pnl_pct']:+.2f}%. Portfolio {pnl['portfolio_id']} as a whole posted a day P&L of"
        _kept(question, f"{head} {whole:+,.2f}.")
        assert "wrong_subject" in _codes(question, f"{head} {own:+,.2f}.")
        checked += 1
    assert checked >= 20, checked


def test_an_events_day_has_no_session() -> None:
    """An events result gives an event's day, never its hour: "after the market close" said of
    it is `unverified_claim`."""
    checked = 0
    for question in sorted(q for q in FREE_TRACES if q.endswith("/events")):
        for event in _result(question, "get_events").get("events") or []:
            ticker = question.split("/")[0]
            said = f"{ticker} has {event['kind']} on {event['date']}"
            _kept(question, f"{said}.")
            for session in ("after the market close", "before the market opens", "after the bell"):
                assert "unverified_claim" in _codes(question, f"{said}, {session}."), session
            checked += 1
    assert checked >= 5, checked


def _listed(lead: str, items: list[dict[str, Any]], words: str) -> str:
    lines = "\n".join(f'{i}. "{n["headline"]}" ({n["source"]})' for i, n in enumerate(items, 1))
    return f"{lead}\n\nHeadlines, {words}:\n{lines}"


def test_a_list_said_newest_first_runs_so() -> None:
    """ "Headlines, newest first:" then the quotes: their times must run that way; the reverse
    order is `wrong_relation`, and "oldest first" holds of the reverse."""
    checked = 0
    for question, move, news in _news_days():
        if len(news) < 2:
            continue
        ordered = sorted(news, key=_new_york, reverse=True)
        if _new_york(ordered[0]) == _new_york(ordered[-1]):
            continue
        lead = f"{move['ticker']} closed at {move['close']:.2f} ({move['change_pct']:+.2f}%)."

        _kept(question, _listed(lead, ordered, "newest first"))
        _kept(question, _listed(lead, ordered[::-1], "oldest first"))
        assert "wrong_relation" in _codes(question, _listed(lead, ordered[::-1], "newest first"))
        assert "wrong_relation" in _codes(
            question, _listed(lead, ordered, "in chronological order")
        )
        checked += 1
    assert checked >= 5, checked


def test_a_session_of_a_named_day_is_the_items() -> None:
    """ "published before Tuesday's open": the session of that day the item came before, after
    or during, New York time; a day whose session it did not come in is `wrong_time`."""
    checked = 0
    for question, move, news in _news_days():
        for item in news:
            when = _new_york(item)
            if when.weekday() > 4 or item.get("session") not in ("before", "during", "after"):
                continue
            before = when - timedelta(days=1)
            while before.weekday() > 4:
                before -= timedelta(days=1)
            day, other = when.strftime("%A"), before.strftime("%A")
            said = {
                "before": "before {}'s open",
                "during": "during {}'s session",
                "after": "after {}'s close",
            }
            phrase = said[item["session"]]
            head = f'{move["ticker"]} closed at {move["close"]:.2f} ({move["change_pct"]:+.2f}%). "{item["headline"]}" ({item["source"]}) came'
            _kept(question, f"{head} {phrase.format(day)}.")
            for session, wrong in said.items():  # another session of the same day
                if session != item["session"]:
                    codes = _codes(question, f"{head} {wrong.format(day)}.")
                    assert codes & {"wrong_time", "wrong_session"}, (question, wrong, codes)
            if item["session"] == "after" and when.weekday() < 4 and when.date() < REPORT:
                after = (when + timedelta(days=1)).strftime("%A")  # before Tuesday's open
                _kept(question, f"{head} before {after}'s open.")
                codes = _codes(question, f"{head} before {day}'s open.")
                assert codes & {"wrong_time", "wrong_session"}, (question, codes)
            codes = _codes(question, f"{head} {phrase.format(other)}.")
            assert codes & {"wrong_time", "unsupported_date"}, (question, phrase, codes)
            checked += 1
    assert checked >= 10, checked


def test_among_the_top_five_is_the_ranks_list() -> None:
    """ "It was among the top 5 contributors": the holding is in the ranks' list of five."""
    checked = 0
    for question, pnl, ranks, _ in _ranked():
        listed = ranks.get("top_contributors") or []
        lead = f"{pnl['ticker']} contributed {pnl['contribution_pct']:+.2f}% to {pnl['portfolio_id']} ({pnl['pnl_pct']:+.2f}%)."
        draft = f"{lead} It was among the top {len(listed)} contributors."
        if pnl["ticker"] in listed:
            _kept(question, draft)
        else:
            assert "wrong_relation" in _codes(question, draft), question
        checked += 1
    assert checked >= 20, checked


def test_an_arrow_runs_from_the_previous_close_to_the_close() -> None:
    """ "Price: 703.72 → 702.61" under a dated heading: the first is the previous close, the
    second the close; the two swapped is `wrong_field`."""
    checked = 0
    for question, pnl in _positions():
        before, close = pnl.get("previous_close"), pnl.get("close")
        if before is None or close is None or round(before, 2) == round(close, 2):
            continue
        head = (
            f"Attribution for {pnl['ticker']} in {pnl['portfolio_id']} on 2024-12-31:\n\n- Price:"
        )
        tail = f"({pnl['pnl_pct']:+.2f}%)"
        _kept(question, f"{head} {before:.2f} → {close:.2f} {tail}")
        assert "wrong_field" in _codes(question, f"{head} {close:.2f} → {before:.2f} {tail}")
        checked += 1
    assert checked >= 20, checked


def test_a_previous_level_and_a_divisor_under_a_dated_heading_keep_their_own_day() -> None:
    """Under "... on 2024-12-31:", "Portfolio value at previous close: X" and "P&L / X ≈ c" state
    the value of the close before; another figure there is still `unsupported_figure`."""
    checked = 0
    for question, pnl in _positions():
        value = pnl.get("portfolio_value_previous_close")
        if not value or "day_pnl" not in pnl:
            continue
        lines = [
            f"Attribution for {pnl['ticker']} in {pnl['portfolio_id']} on 2024-12-31:",
            "",
            f"- Day P&L: {pnl['day_pnl']:+,.2f}",
            f"- Portfolio value at previous close: {value:,.2f}",
            f"- Contribution: {pnl['day_pnl']:+,.2f} / {value:,.2f} ≈ {pnl['contribution_pct']:.2f}%",
        ]
        _kept(question, "\n".join(lines))
        lines[3] = f"- Portfolio value at previous close: {value * 1.01:,.2f}"
        assert "unsupported_figure" in _codes(question, "\n".join(lines))
        checked += 1
    assert checked >= 20, checked


def test_a_disclaimer_of_what_ties_news_to_the_move_denies_no_news() -> None:
    """ "Nothing in the data ties a headline to the move" and "they don't say what drove it" say
    what the data does not do; "there was no headline" where the search found some is still
    `wrong_absence`."""
    checked = 0
    for question, move, news in _news_days():
        if not news:
            continue
        lead = f"{move['ticker']} closed at {move['close']:.2f} ({move['change_pct']:+.2f}%)."
        _kept(question, f"{lead} Nothing in the data ties a headline to the move.")
        _kept(question, f"{lead} The data show the price move only; they don't say what drove it.")
        assert "wrong_absence" in _codes(question, f"{lead} There was no headline in the window.")
        checked += 1
    assert checked >= 10, checked


def test_an_event_not_marked_as_scheduled_is_its_status() -> None:
    """ "not marked as scheduled" of an event the results list unscheduled is kept, and says no
    event is missing; said of a scheduled one it is rejected."""
    checked = 0
    for question in sorted(q for q in FREE_TRACES if q.endswith("/events")):
        for event in _result(question, "get_events").get("events") or []:
            ticker = question.split("/")[0]
            draft = f"{ticker} has {event['kind']} on {event['date']}, not marked as scheduled."
            if event.get("scheduled"):
                assert not _verdict(question, draft).accepted, question
            else:
                _kept(question, draft)
            checked += 1
    assert checked >= 5, checked


def test_a_label_on_the_next_line_is_no_part_of_a_name() -> None:
    """ "Ticker: COD\\nCompany: Atlas Gas Group": "COD Company" is no company name."""
    checked = 0
    for question, pnl, _, row in _ranked():
        name = row.get("name")
        if not name:
            continue
        _kept(
            question,
            f"Ticker: {pnl['ticker']}\nCompany: {name}\nReturn: {pnl['pnl_pct']:+.2f}%",
        )
        checked += 1
    assert checked >= 20, checked


def test_a_time_said_to_predate_the_window_comes_before_it() -> None:
    """ "the most recent story predates the search window" holds where the latest item on file
    is older than the search's first day; a date said so that falls inside the window is
    `wrong_relation`; "the holdings snapshot predates the report date" is held to the holdings
    date."""
    checked = 0
    for question in sorted(q for q in FREE_TRACES if q.endswith("/news")):
        search = next(e for e in FREE_TRACES[question]["events"] if e["tool"] == "search_news")
        if "error" not in search or "runs from" not in search["error"]:
            continue
        first, last = re.findall(r"\d{4}-\d\d-\d\d", search["error"])[-2:]
        ticker = question.split("/")[0]
        move = _result(question, "get_daily_move")
        head = (
            f"{ticker} closed at {move['close']:.2f} ({move['change_pct']:+.2f}%). No headlines were "
            f"found for {ticker} between {search['args']['start']} and {search['args']['end']}."
        )
        _kept(
            question,
            f"{head} Its news runs from {first} to {last}, so the most recent story predates the search window.",
        )
        codes = _codes(
            question, f"{head} The item of {search['args']['end']} predates the search window."
        )
        assert "wrong_relation" in codes, (question, codes)
        checked += 1
    for question, pnl in _positions():
        held = pnl.get("holdings_as_of")
        if held and held < "2024-12-31":
            _kept(
                question,
                f"{pnl['ticker']} returned {pnl['pnl_pct']:+.2f}% on 2024-12-31; the holdings snapshot predates the report date.",
            )
            checked += 1
    assert checked >= 20, checked


def test_a_one_week_row_and_a_level_dated_in_brackets() -> None:
    """ "| 1 week | ..." names the week window, not a figure 1; "the previous close (Monday) was
    X, so the day change was Y": Monday is the close's day, not the change's."""
    checked = 0
    for question, move, windows in _moves():
        week = windows.get("week")
        if week is None or move.get("previous_close") is None:
            continue
        table = (
            f"{move['ticker']} closed at {move['close']:.2f} on 2024-12-31.\n\n"
            "| Window | Start session | Change % |\n|---|---|---|\n"
            f"| 1 week | {week['start_session']} | {week['change_pct']:+.2f}% |"
        )
        _kept(question, table)
        said = f"{move['ticker']} closed at {move['close']:.2f} ({move['change_pct']:+.2f}%) on Tuesday. The previous close (Monday) was {move['previous_close']:.2f}, so the day change was"
        _kept(question, f"{said} {move['change']:+.2f}.")
        if round(week["change"], 2) != round(move["change"], 2):
            assert "wrong_time" in _codes(question, f"{said} {week['change']:+.2f}.")
        checked += 1
    assert checked >= 20, checked


def test_a_letter_with_a_header_and_a_signed_desk_keeps_its_frame() -> None:
    """ "Subject: …" then "Dear client," opens the message; "Un cordial saludo,\\nSu equipo de
    carteras de Nightdesk" signs it; a claim slipped into the signature is still rejected."""
    checked = 0
    for question, pnl in _positions():
        if "day_pnl" not in pnl:
            continue
        body = f"{pnl['ticker']} returned {pnl['pnl_pct']:+.2f}% on 2024-12-31, a day P&L of {pnl['day_pnl']:+,.2f}."
        en = f"Subject: {pnl['ticker']} in {pnl['portfolio_id']}\n\nDear client,\n\n{body}\n\nWith kind regards,\nThe Nightdesk portfolio team"
        _kept(question, en)
        es = f"{body}\n\nUn cordial saludo,\nSu equipo de carteras de Nightdesk"
        _kept(question, es)
        assert "unverified_claim" in _codes(question, es + " que recomienda comprar")
        checked += 1
    assert checked >= 20, checked


def test_spanish_returns_and_disclaimers() -> None:
    """ "P002 rentó un -0,90 %" is the portfolio's own return (the benchmark's said so is
    `wrong_subject`); "los datos no explican a qué se debe" and "Ten en cuenta que" assert
    nothing."""
    checked = 0
    for question, pnl, ranks, _ in _ranked():
        mine, bench = (
            ranks.get("portfolio_return_pct"),
            (ranks.get("benchmark") or {}).get("return_pct"),
        )
        if mine is None or bench is None or round(mine, 2) == round(bench, 2):
            continue
        head = f"{pnl['ticker']} rindió un {_es(pnl['pnl_pct'])} % el 31 de diciembre de 2024."
        tail = " Ten en cuenta que los datos no explican a qué se debe."
        _kept(question, f"{head} {pnl['portfolio_id']} rentó un {_es(mine)} % en el día.{tail}")
        assert "wrong_subject" in _codes(
            question, f"{head} {pnl['portfolio_id']} rentó un {_es(bench)} % en el día."
        )
        checked += 1
    assert checked >= 20, checked


def test_a_count_of_shares_is_the_quantity_and_a_level_is_never_derived() -> None:
    """ "a 231-share holding" is the quantity (its market value said so is `wrong_field`); a
    previous close no result holds is not a sum of the close and the change."""
    checked = 0
    for question, pnl in _positions():
        if not pnl.get("market_value") or int(pnl["quantity"]) == round(pnl["market_value"]):
            continue
        head = f"{pnl['ticker']} is a"
        tail = f"holding in {pnl['portfolio_id']} ({pnl['pnl_pct']:+.2f}% on the day)."
        _kept(question, f"{head} {int(pnl['quantity']):,}-share {tail}")
        assert "wrong_field" in _codes(
            question, f"{head} {round(pnl['market_value']):,}-share {tail}"
        )
        checked += 1
    for question, move, _ in _moves():
        wrong = move["close"] + move["change"]
        if not move["change"] or round(wrong, 2) == round(move["previous_close"], 2):
            continue
        codes = _codes(
            question,
            f"{move['ticker']} closed at {move['close']:.2f}, {move['change']:+.2f} ({move['change_pct']:+.2f}%) from the previous close of {wrong:.2f}.",
        )
        assert codes, question
        checked += 1
    assert checked >= 30, checked


FRAMES = (
    "The reports themselves do not state that they moved the share price, so we would treat any link as unconfirmed.",
    "No causal link stated.",
    "Las noticias no afirman que hayan movido la cotización, por lo que cualquier relación debe tomarse como no confirmada.",
    "Sin vínculo causal confirmado.",
    "Los datos solo muestran cuándo se publicó cada noticia; no dicen si alguna de ellas movió el precio.",
    "Las cifras se basan en los resultados de las herramientas.",
    "Dicho esto, los titulares no demuestran por sí solos una relación de causa; los datos solo muestran qué se publicó y cuándo.",
    "El titular no demuestra por sí solo una relación de causa, de modo que nada puede vincularse al movimiento.",
)


def test_sentences_that_disclaim_a_cause_assert_nothing() -> None:
    """Each disclaimer of a cause (English and Spanish) may close a faithful news answer; the
    same sentence turned into a cause ("… so the report moved the share price") is rejected."""
    checked = 0
    for question, move, news in _news_days():
        if not news:
            continue
        item = news[0]
        lead = f'{move["ticker"]} closed at {move["close"]:.2f} ({move["change_pct"]:+.2f}%). "{item["headline"]}" ({item["source"]}).'
        for frame in FRAMES:
            _kept(question, f"{lead} {frame}")
        assert not _verdict(question, f"{lead} The report moved the share price.").accepted
        assert not _verdict(question, f"{lead} La noticia movió la cotización.").accepted
        checked += 1
    assert checked >= 10, checked


def test_a_spanish_latest_item_before_the_searched_period() -> None:
    """ "La noticia más reciente del archivo es del D, anterior al periodo consultado": D before
    the search's first day; a day inside the window said so is `wrong_relation`."""
    checked = 0
    for question in sorted(q for q in FREE_TRACES if q.endswith("/news")):
        search = next(e for e in FREE_TRACES[question]["events"] if e["tool"] == "search_news")
        if "error" not in search or "runs from" not in search["error"]:
            continue
        last = re.findall(r"\d{4}-\d\d-\d\d", search["error"])[-1]
        move = _result(question, "get_daily_move")
        lead = f"{move['ticker']} cerró en {_es(move['close'])} ({_es(move['change_pct'])} %). No hay titulares entre el {search['args']['start']} y el {search['args']['end']}."
        _kept(
            question,
            f"{lead} La noticia más reciente del archivo es del {last}, anterior al periodo consultado.",
        )
        codes = _codes(
            question,
            f"{lead} La noticia del {search['args']['end']} es anterior al periodo consultado.",
        )
        assert codes & {"wrong_relation", "unsupported_date"}, (question, codes)
        checked += 1
    assert checked >= 5, checked


def test_a_weekday_with_its_day_in_brackets_is_a_date() -> None:
    """ "publicado hoy (martes 31)": the day of the month of a weekday in brackets is no figure;
    "(anterior: 64,76)" names the previous close, so the close said so is `wrong_field`."""
    checked = 0
    for question, move, news in _news_days():
        for item in news:
            when = _new_york(item)
            if when.date() != REPORT:
                continue
            lead = f"{move['ticker']} cerró en {_es(move['close'])} ({_es(move['change_pct'])} %)."
            _kept(question, f"{lead} “{item['headline']}”, publicado hoy (martes 31).")
            checked += 1
    for question, move, windows in _moves():
        starts = {round(w.get("start_close", 0), 2) for w in windows.values()}
        if round(move["close"], 2) in starts | {round(move["previous_close"], 2)}:
            continue  # a window that opened at the close: that close is a start close too
        head = f"{move['ticker']}: cierre {_es(move['close'])} ({_es(move['change_pct'])} %)"
        _kept(question, f"{head} (anterior: {_es(move['previous_close'])}).")
        assert "wrong_field" in _codes(question, f"{head} (anterior: {_es(move['close'])}).")
        checked += 1
    assert checked >= 20, checked


def test_a_spanish_close_and_a_letter_signed_with_a_cordial_greeting() -> None:
    """ "hasta cerrar en X" names the close (the previous close said so is `wrong_field`); "Un
    saludo cordial,\nNightdesk Research" signs the message."""
    checked = 0
    for question, move, _ in _moves():
        if round(move["close"], 2) == round(move["previous_close"], 2):
            continue
        head = f"{move['ticker']} varió un {_es(move['change_pct'])} % el 31 de diciembre hasta cerrar en"
        sign = "\n\nUn saludo cordial,\nNightdesk Research"
        _kept(question, f"{head} {_es(move['close'])}.{sign}")
        assert "wrong_field" in _codes(question, f"{head} {_es(move['previous_close'])}.{sign}")
        checked += 1
    assert checked >= 20, checked


def test_a_question_labelled_q_and_basis_points() -> None:
    """ "**Q:** <the question>" restates it (a word the question does not hold is still
    `unverified_claim`); "ctb -7 bp" is a contribution of -0.07%, and -8 bp is unsupported."""
    checked = 0
    for question, pnl in _positions():
        contribution = pnl.get("contribution_pct")
        if not contribution or abs(contribution) < 0.03:
            continue
        asked = FREE_TRACES[question]["question"]
        answer = f"**A:** {pnl['ticker']} returned {pnl['pnl_pct']:+.2f}%, ctb {contribution * 100:+.0f} bp."
        _kept(question, f"**Q:** {asked}\n\n{answer}")
        assert "unverified_claim" in _codes(
            question, f"**Q:** Which analyst downgrade hit it?\n\n{answer}"
        )
        wrong = answer.replace(f"{contribution * 100:+.0f} bp", f"{contribution * 100 + 1:+.0f} bp")
        assert not _verdict(question, f"**Q:** {asked}\n\n{wrong}").accepted
        checked += 1
    assert checked >= 10, checked


def test_a_question_labelled_q_restates_a_news_question() -> None:
    """ "**Q:** Which recent headlines could explain the move of X on D?" restates the question
    (its words are the question's); another question's words are `unverified_claim`."""
    checked = 0
    for question, move, _ in _news_days():
        asked = FREE_TRACES[question]["question"]
        answer = (
            f"**A:** {move['ticker']} closed at {move['close']:.2f} ({move['change_pct']:+.2f}%)."
        )
        _kept(question, f"**Q:** {asked}\n\n{answer}")
        assert "unverified_claim" in _codes(
            question, f"**Q:** Which analyst downgrade hit it?\n\n{answer}"
        )
        checked += 1
    assert checked >= 10, checked

"""Kinds of wording no voice was fitted for, bound by principle, over the free-form night's
real traces: each test drafts its faithful sentences and their corrupted twins from the trace's
own results (never from a voice's text), and fails if the rule that binds them is removed."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from tests.verifier.test_closed_world import FREE_TRACES
from verifier.verify import verify_json as verify


def _verdict(question: str, draft: str) -> Any:
    return verify({**FREE_TRACES[question], "draft": draft})


def _codes(question: str, draft: str) -> set[str]:
    """The reason codes of a draft's verdict over the question's trace."""
    return {str(r.rule) for r in _verdict(question, draft).reasons}


def _kept(question: str, draft: str) -> None:
    verdict = _verdict(question, draft)
    assert verdict.accepted, (question, draft, verdict.reasons)


def _judged(question: str, draft: str, holds: bool, code: str) -> None:
    """Kept where what it says holds, else rejected with `code` among its reasons."""
    if holds:
        _kept(question, draft)
    else:
        assert code in _codes(question, draft), (question, draft)


def _news_days() -> list[tuple[str, dict[str, Any], list[dict[str, Any]]]]:
    """The news questions whose trace has the day's move: question, move, the items found."""
    out = []
    for question in sorted(q for q in FREE_TRACES if q.endswith("/news")):
        move = _result(question, "get_daily_move")
        if "close" in move:
            out.append((question, move, _result(question, "search_news").get("news") or []))
    return out


def _result(question: str, tool: str) -> dict[str, Any]:
    events = FREE_TRACES[question]["events"]
    return next((e.get("result") or {} for e in events if e["tool"] == tool), {})


def _positions() -> list[tuple[str, dict[str, Any]]]:
    return [(q, _result(q, "get_position_pnl")) for q in sorted(FREE_TRACES) if "/position/" in q]


def _closed(move: dict[str, Any]) -> str:
    """A faithful opening line: the ticker's close and day change."""
    return f"{move['ticker']} closed at {move['close']:.2f} ({move['change_pct']:+.2f}%)."


def _new_york(item: dict[str, Any]) -> datetime:
    """When a news item was published, on New York's clock."""
    return datetime.fromisoformat(item["published_at"]).astimezone(ZoneInfo("America/New_York"))


def test_a_count_joined_to_its_noun_by_a_hyphen_is_a_figure() -> None:
    """ "the 264-share position" states a share count like "264 shares": another portfolio's
    count (or any other) is rejected; a code ("10-K") stays a name."""
    for question, pos in _positions():
        ticker, qty = pos["ticker"], int(pos["quantity"])
        kept = _verdict(
            question,
            f"{ticker} closed at {pos['close']:.2f}; the {qty:,}-share "
            f"position returned {pos['pnl_pct']:.2f}% on the day.",
        )
        assert kept.accepted, (question, kept.reasons)
        others = [
            int(p["quantity"])
            for q, p in _positions()
            if p["ticker"] == ticker and q != question and int(p["quantity"]) != qty
        ] or [qty + 7]
        wrong = _verdict(
            question,
            f"{ticker} closed at {pos['close']:.2f}; the {others[0]:,}"
            f"-share position returned {pos['pnl_pct']:.2f}% on the day.",
        )
        assert not wrong.accepted, question


def _news() -> list[tuple[str, dict[str, Any], list[dict[str, Any]]]]:
    out = []
    for question in sorted(FREE_TRACES):
        if question.endswith("/news"):
            news = _result(question, "search_news").get("news") or []
            if "close" in _result(question, "get_daily_move"):
                out.append((question, _result(question, "get_daily_move"), news))
    return out


def _clock(when: datetime, style: str) -> str:
    if style == "en":
        half = "a.m." if when.hour < 12 else "p.m."
        return f"{when.strftime('%B')} {when.day} at {(when.hour - 1) % 12 + 1}:{when:%M} {half} ET"
    return f"el {when.day} de diciembre a las {when:%H:%M}, hora de Nueva York"


def test_a_time_of_day_is_one_a_result_gives() -> None:
    """A headline's time written as a clock time ("December 30 at 4:27 p.m. ET", "a las 16:47,
    hora de Nueva York", "13:45 UTC") must be its `published_at`; another minute, another
    item's time or a time no result gives ("a call at 8:30am ET") is rejected."""
    checked = 0
    for question, move, news in _news():
        lead = _closed(move)
        times = [datetime.fromisoformat(n["published_at"]) for n in news]
        for item, when in zip(news, times, strict=True):
            if when.month != 12:
                continue
            said = f'{lead} {item["source"]} ran "{item["headline"]}" on {_clock(when, "en")}.'
            assert _verdict(question, said).accepted, (question, said)
            utc = when.astimezone(UTC)
            said = f'{lead} {item["source"]} ran "{item["headline"]}" at {utc:%H:%M} UTC.'
            assert _verdict(question, said).accepted, (question, said)
            es = (
                f"{move['ticker']} cerró en {move['close']:.2f} $ ({move['change_pct']:+.2f} %). "
                f"{item['source']} publicó «{item['headline']}» {_clock(when, 'es')}."
            )
            es = es.replace(f"{move['close']:.2f}", f"{move['close']:.2f}".replace(".", ","))
            assert _verdict(question, es).accepted, (question, es)
            for other in [when + timedelta(minutes=7), *(t for t in times if t != when)]:
                wrong = (
                    f'{lead} {item["source"]} ran "{item["headline"]}" on {_clock(other, "en")}.'
                )
                assert not _verdict(question, wrong).accepted, (question, wrong)
            checked += 1
        assert not _verdict(question, f"{lead} The call is at 8:30am ET.").accepted
    assert checked >= 30


_KIND = {"earnings": "earnings", "dividend": "a dividend"}


def test_an_announcement_is_dated_by_the_day_its_item_was_announced() -> None:
    """ "announced today", "(announced December 17)", "anunciado el 17 de diciembre": the day an
    events result announced the item (or a news result published it), not any day the trace
    holds; "today" for an item announced two weeks before is rejected."""
    checked = 0
    for question in sorted(q for q in FREE_TRACES if q.endswith("/events")):
        result = _result(question, "get_events")
        ticker, events = result.get("ticker"), result.get("events") or []
        if len(events) != 1 or not events[0].get("announced_at"):
            continue
        event = events[0]
        on = date.fromisoformat(event["date"])
        said = datetime.fromisoformat(event["announced_at"]).astimezone(
            ZoneInfo("America/New_York")
        )
        lead = f"{ticker} has {_KIND[event['kind']]} on {on:%B} {on.day}, {on.year}"
        kept = _verdict(question, f"{lead} (announced {said:%B} {said.day}).")
        assert kept.accepted, (question, kept.reasons)
        es = f"{ticker} tiene un evento el {on.isoformat()} (anunciado el {said.date().isoformat()})."
        assert _verdict(question, es).accepted, es
        if said.date() != date(2024, 12, 31):
            wrong = _verdict(question, f"{lead}, announced today.")
            assert "wrong_time" in {r.rule.value for r in wrong.reasons}, question
            checked += 1
        wrong = _verdict(question, f"{lead} (announced {on:%B} {on.day}).")
        assert not wrong.accepted, question
    assert checked >= 10


def test_nothing_else_denies_more_of_what_the_sentence_named() -> None:
    """ "... and nothing else" after quoted headlines says the search found no others: it holds
    where every item is quoted (or named by its wire), and is `wrong_absence` where the search
    returned more; with nothing named before it, it is an unbound claim."""
    checked = 0
    for question, move, news in _news():
        lead = _closed(move)
        quoted = [f'"{n["headline"]}"' for n in news]
        if not news:
            continue
        kept = _verdict(question, f"{lead} The search found {', '.join(quoted)}; nothing else.")
        assert kept.accepted, (question, kept.reasons)
        if len(news) > 1:
            wrong = _verdict(question, f"{lead} The search found {quoted[0]} and nothing else.")
            assert "wrong_absence" in {r.rule.value for r in wrong.reasons}, question
            checked += 1
        assert not _verdict(question, f"{lead} Nothing else moved.").accepted
    assert checked >= 8


_WEEKS = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five"}


def test_a_span_of_days_or_weeks_is_counted_between_the_dates_it_joins() -> None:
    """ "17 days after the report date", "13 days from 12/31", "just under two weeks away":
    the calendar days between the report date (or the date named after the count) and the
    date of its sentence or the one before; weeks are rounded only where a hedge says so,
    and "under"/"over" must hold. One day off, or the wrong side, is rejected."""
    checked = 0
    for question in sorted(q for q in FREE_TRACES if q.endswith("/events")):
        result = _result(question, "get_events")
        events = result.get("events") or []
        if len(events) != 1:
            continue
        ticker, on = result["ticker"], date.fromisoformat(events[0]["date"])
        gap = (on - date(2024, 12, 31)).days
        if gap < 8:
            continue
        lead = f"{ticker} has {_KIND[events[0]['kind']]} on {on.isoformat()}"
        weeks, rest = divmod(gap, 7)
        near = weeks + (rest > 3)
        hedge = "just under" if rest > 3 else "a little over" if rest else ""
        wrong_hedge = "a little over" if rest > 3 else "just under"
        pairs = [
            (f"{lead}. That is {gap} days after the report date.", f"{gap + 1} days after"),
            (f"{lead}, {gap} days from 12/31.", f"{gap - 1} days from"),
            (f"{lead}, in {gap} days.", f"in {gap + 2} days"),
        ]
        if near >= 2:  # "one" is no number word of the grammar
            weeks_said = f"{lead}, {hedge} {_WEEKS[near]} weeks away."
            pairs.append((weeks_said, f"{wrong_hedge} {_WEEKS[near]} weeks"))
        for said, wrong in pairs:
            kept = _verdict(question, said.replace("  ", " "))
            assert kept.accepted, (said, kept.reasons)
            right = said.split(lead)[1].split(" the report")[0].split(" weeks")[0]
            right = right.replace("That is ", "").strip(" ,.").replace("  ", " ")
            corrupted = said.replace(right, wrong.strip()).replace("  ", " ")
            assert corrupted != said
            assert not _verdict(question, corrupted).accepted, corrupted
        checked += 1
    assert checked >= 8


def _moves() -> list[tuple[str, dict[str, Any], dict[str, Any]]]:
    out = []
    for question in sorted(q for q in FREE_TRACES if q.endswith("/move")):
        move, trend = _result(question, "get_daily_move"), _result(question, "get_trend")
        if "close" in move and trend.get("changes"):
            out.append((question, move, {c["window"]: c for c in trend["changes"]}))
    return out


def _es(value: float, signed: bool = False) -> str:
    return (f"{value:+,.2f}" if signed else f"{value:,.2f}").translate(str.maketrans(",.", ".,"))


def test_a_close_said_as_a_mark_or_a_finish_is_the_close() -> None:
    """ "marked at", "to finish at" name the close like "closed at": the previous close said
    so is `wrong_field`."""
    for question, move, _ in _moves():
        t, pct = move["ticker"], move["change_pct"]
        for said in ("to finish at", "marked at"):
            kept = _verdict(
                question, f"{t} moved {pct:+.2f}% on the day, {said} ${move['close']:.2f}."
            )
            assert kept.accepted, (question, kept.reasons)
            wrong = _verdict(
                question, f"{t} moved {pct:+.2f}% on the day, {said} ${move['previous_close']:.2f}."
            )
            assert "wrong_field" in {r.rule.value for r in wrong.reasons}, (question, said)


def test_a_bound_with_a_direction_is_the_days_move() -> None:
    """ "climbed more than 1%", "fell over one percent": the direction governs the figure
    across the bound, the figure is the day's where the sentence names no other window, and
    the day's percentage (not a count of 1) must lie beyond the bound."""
    checked = 0
    for question, move, _ in _moves():
        t, pct = move["ticker"], move["change_pct"]
        verb = "climbed" if pct > 0 else "fell"
        low, high = int(abs(pct)), int(abs(pct)) + 1
        if abs(pct) - low < 0.1 or high - abs(pct) < 0.1 or low == 0:
            continue
        assert _verdict(question, f"{t} {verb} more than {low}% on the day.").accepted, question
        assert _verdict(question, f"{t} {verb} less than {high}% today.").accepted, question
        assert not _verdict(question, f"{t} {verb} more than {high}% today.").accepted, question
        assert not _verdict(question, f"{t} {verb} more than {high}%.").accepted, question
        if high == 1:
            assert not _verdict(question, f"{t} {verb} more than one percent.").accepted
        checked += 1
    assert checked >= 10


def test_spanish_money_framing_and_year_to_date() -> None:
    """ "US$ 82,93" is money (so "cerró en US$ ..." binds the close), "en el acumulado del año"
    is the year to date, and framing that states nothing ("cabe destacar que", "respecto al",
    "dentro de la cartera", "rindió") stands unbound; the wrong window or close is rejected."""
    for question, move, windows in _moves():
        t, ytd = move["ticker"], windows.get("ytd")
        if ytd is None:
            continue
        close, prev = _es(move["close"]), _es(move["previous_close"])
        pct = _es(move["change_pct"], signed=True)
        kept = (
            f"Cabe destacar que {t} cerró en US$ {close} ({pct} % respecto al cierre anterior "
            f"de US$ {prev}); en el acumulado del año rindió un {_es(ytd['change_pct'])} %."
        )
        assert _verdict(question, kept).accepted, (question, _verdict(question, kept).reasons)
        week = windows["week"]["change_pct"]
        if round(abs(week), 2) != round(abs(ytd["change_pct"]), 2):
            wrong = kept.replace(_es(ytd["change_pct"]), _es(week))
            assert not _verdict(question, wrong).accepted, wrong
        wrong = kept.replace(f"cerró en US$ {close}", f"cerró en US$ {prev}")
        assert not _verdict(question, wrong).accepted, wrong


def test_an_event_day_said_as_its_date_is_the_event_day() -> None:
    """ "a dividend dated January 13", "con fecha 13/01/2025", "tiene agendada la publicación
    de resultados para el ...": the day is the event's; another day of the window (written
    with or without its year) is `wrong_event_day`."""
    checked = 0
    for question in sorted(q for q in FREE_TRACES if q.endswith("/events")):
        result = _result(question, "get_events")
        events = result.get("events") or []
        if len(events) != 1 or events[0]["kind"] not in _KIND:
            continue
        ticker, on = result["ticker"], date.fromisoformat(events[0]["date"])
        other = date(2024, 12, 31) if on != date(2024, 12, 31) else date(2025, 1, 2)
        noun = "dividend" if events[0]["kind"] == "dividend" else "earnings"
        for day in (on, other):
            en = f"The one item for {ticker} is its {noun} dated {day:%B} {day.day}."
            es = f"{ticker} tiene un evento agendados para el {day:%d/%m/%Y}."
            es = es.replace("un evento", "dividendos" if noun == "dividend" else "resultados")
            for said in (en, es):
                verdict = _verdict(question, said)
                assert verdict.accepted == (day == on), (said, verdict.reasons)
        checked += 1
    assert checked >= 10


def test_a_place_names_its_measure_and_a_draft_without_a_ticker_speaks_of_the_one_asked() -> None:
    """ "contribution rank 8 of 25", "rank 3 of 10 by weight": the place is held against the
    ranks by the measure the words name (not only by the figure before it), also in a draft
    that names no ticker, whose subject is the one ticker the trace's calls are about."""
    checked = 0
    for question in sorted(q for q in FREE_TRACES if "/position/" in q):
        ranks = _result(question, "get_portfolio_ranks")
        pos = _result(question, "get_position_pnl")
        rows = [r for r in ranks.get("positions") or [] if r.get("ticker") == pos.get("ticker")]
        if not rows or "contribution_rank" not in rows[0]:
            continue
        row, n, pid = rows[0], ranks["positions_count"], ranks["portfolio_id"]
        head = f"Answer: P&L {pos['day_pnl']:,.2f} USD ({pos['pnl_pct']:+.2f}%) in {pid}."
        for measure, place in (
            ("contribution", row["contribution_rank"]),
            ("weight", row["weight_rank"]),
        ):
            kept = _verdict(question, f"{head} Key points: {measure} rank {place} of {n}.")
            assert kept.accepted, (question, measure, kept.reasons)
            after = _verdict(question, f"{head} Key points: rank {place} of {n} by {measure}.")
            assert after.accepted, (question, measure, after.reasons)
            other = place + 1 if place < n else place - 1
            wrong = _verdict(question, f"{head} Key points: {measure} rank {other} of {n}.")
            assert "wrong_relation" in {r.rule.value for r in wrong.reasons}, (question, measure)
        checked += 1
    assert checked >= 20


_LABEL = {"week": "Week", "month": "Month", "quarter": "Quarter", "ytd": "YTD"}


def test_window_labels_and_the_strongest_or_weakest_window() -> None:
    """ "Week: +0.20%; month: +7.10%", "the weakest is the week (-2.33%)": a window named as a
    label binds its figure to that window (another window's change is `wrong_time`); the
    strongest or weakest window must be the trend's largest or smallest change."""
    checked = 0
    for question, move, windows in _moves():
        t = move["ticker"]
        rows = {k: v["change_pct"] for k, v in windows.items() if k in ("week", "month", "quarter")}
        if len(rows) < 3 or len({round(v, 2) for v in rows.values()}) < 3:
            continue
        lead = f"{t} closed at ${move['close']:.2f} ({move['change_pct']:+.2f}%)."
        labels = "; ".join(f"{_LABEL[k]}: {v:+.2f}%" for k, v in rows.items())
        assert _verdict(question, f"{lead} {labels}.").accepted, (question, labels)
        swapped = f"{lead} Week: {rows['month']:+.2f}%; month: {rows['week']:+.2f}%."
        assert not _verdict(question, swapped).accepted, swapped
        every = {k: v["change_pct"] for k, v in windows.items()}
        top = max(every, key=every.__getitem__)
        low = min(every, key=every.__getitem__)
        if top not in _LABEL or low not in _LABEL:
            continue
        name = {"ytd": "year-to-date"}
        said = (
            f"{lead} Of the trend windows, the strongest is the {name.get(top, top)} "
            f"({every[top]:+.2f}%) and the weakest is the {name.get(low, low)} ({every[low]:+.2f}%)."
        )
        assert _verdict(question, said).accepted, (question, said, _verdict(question, said).reasons)
        mid = next(k for k in rows if k not in (top, low))
        wrong = f"{lead} Of the trend windows, the strongest is the {mid} ({every[mid]:+.2f}%)."
        assert "wrong_relation" in {r.rule.value for r in _verdict(question, wrong).reasons}
        checked += 1
    assert checked >= 8


def test_the_session_before_is_the_previous_session() -> None:
    """ "had closed at $83.51 the session before" / "la sesión anterior": the close of the
    previous session is the previous close; the day's close said for it is `wrong_time`."""
    for question, move, _ in _moves():
        t, pct = move["ticker"], move["change_pct"]
        lead = f"{t} moved {pct:+.2f}% on December 31, 2024 to finish at ${move['close']:.2f}."
        kept = f"{lead} The stock had closed at ${move['previous_close']:.2f} the session before."
        assert _verdict(question, kept).accepted, (question, _verdict(question, kept).reasons)
        if move["close"] != move["previous_close"]:
            wrong = f"{lead} The stock had closed at ${move['close']:.2f} the session before."
            assert not _verdict(question, wrong).accepted, wrong


def test_a_disclaimer_that_the_tools_hold_no_cause_stands_but_a_cause_does_not() -> None:
    """ "The tools don't link any of these to the move", "None of them is tied to the move by
    the tools": always true (no result holds a cause); "is tied to the move" is a cause."""
    for question, move, _ in _news():
        lead = f"{move['ticker']} moved {'higher' if move['change_pct'] > 0 else 'lower'} "
        lead += f"{abs(move['change_pct']):.2f}% on the session to ${move['close']:.2f}."
        for said in (
            "The tools don't link any of these to the move.",
            "None of them is tied to the move by the tools.",
            "The data doesn't show whether any item is what moved the stock.",
        ):
            assert _verdict(question, f"{lead} {said}").accepted, (question, said)
        for said in ("The headline is tied to the move by the tools.", "The tools link it."):
            assert not _verdict(question, f"{lead} {said}").accepted, (question, said)
        flipped = (
            lead.replace("higher", "lower") if "higher" in lead else lead.replace("lower", "higher")
        )
        assert not _verdict(question, flipped).accepted, flipped


def test_a_comparative_split_by_its_figures_orders_them() -> None:
    """ "did worse over the past week (-2.82%) than over the past month (+1.41%)": each figure
    is its bracketed window's, "over the past month" is a window (not "over" as "above"), and
    the first figure must be below (above, for "better") the second."""
    checked = 0
    for question, move, windows in _moves():
        week, month = windows["week"]["change_pct"], windows["month"]["change_pct"]
        if round(week, 2) == round(month, 2):
            continue
        right, wrong = ("better", "worse") if week > month else ("worse", "better")
        said = (
            f"The stock did {right} over the past week ({week:+.2f}%) than over the past month "
            f"({month:+.2f}%). {move['ticker']} closed at {move['close']:.2f} on 2024-12-31."
        )
        assert _verdict(question, said).accepted, (question, _verdict(question, said).reasons)
        flipped = _verdict(question, said.replace(right, wrong, 1))
        assert "wrong_relation" in {r.rule.value for r in flipped.reasons}, question
        checked += 1
    assert checked >= 20


def test_a_sentence_pointing_at_the_one_before_may_compute_from_its_figures() -> None:
    """ "AXO made $2,897.51 today. That is 59.7% of P001's $4,854.66 day P&L." / "Eso
    equivale a ...": a share computed from a figure of the sentence it points back at is
    derived; a wrong share is not, nor a right one in a sentence that points at nothing."""
    checked = 0
    for question in sorted(q for q in FREE_TRACES if "/position/" in q):
        ranks, pos = _result(question, "get_portfolio_ranks"), _result(question, "get_position_pnl")
        total, pnl = ranks.get("portfolio_day_pnl"), pos.get("day_pnl")
        if not total or not pnl or abs(total) < 100:
            continue
        share = abs(pnl / total * 100)
        if not 1 < share < 99 or abs(share * 10 - round(share * 10)) > 0.4:
            continue  # not clearly rounded at one decimal: a boundary case
        lead = f"{pos['ticker']} made ${pnl:,.2f} in {ranks['portfolio_id']} today ({pos['pnl_pct']:+.2f}%)."
        said = f"That is {share:.1f}% of the portfolio's ${total:,.2f} day P&L."
        assert _verdict(question, f"{lead} {said}").accepted, (question, said)
        wrong = said.replace(f"{share:.1f}%", f"{share + 1.3:.1f}%")
        assert not _verdict(question, f"{lead} {wrong}").accepted, (question, wrong)
        elsewhere = said.replace("That is", "Separately, the desk noted")
        assert not _verdict(question, f"{lead} {elsewhere}").accepted, (question, elsewhere)
        checked += 1
    assert checked >= 10


def test_the_portfolio_compared_with_its_benchmark() -> None:
    """ "The portfolio did worse than the benchmark": the answer's portfolio return against
    its benchmark's, from its ranks; the other way round is `wrong_relation`."""
    checked = 0
    for question in sorted(q for q in FREE_TRACES if "/position/" in q):
        ranks, pos = _result(question, "get_portfolio_ranks"), _result(question, "get_position_pnl")
        mine, bench = (
            ranks.get("portfolio_return_pct"),
            (ranks.get("benchmark") or {}).get("return_pct"),
        )
        if mine is None or bench is None or mine == bench:
            continue
        right, wrong = ("better", "worse") if mine > bench else ("worse", "better")
        lead = f"The position moved {pos['pnl_pct']:+.2f}%. The portfolio {ranks['portfolio_id']} moved {mine:+.2f}%."
        said = f"{lead} The portfolio did {right} than the benchmark."
        assert _verdict(question, said).accepted, (question, _verdict(question, said).reasons)
        flipped = _verdict(question, said.replace(right, wrong))
        assert "wrong_relation" in {r.rule.value for r in flipped.reasons}, question
        checked += 1
    assert checked >= 20


_SESSION = {"before": "before the open", "during": "during the session", "after": "after the close"}
_SESION = {
    "before": "antes de la apertura",
    "during": "durante la sesión",
    "after": "tras el cierre",
}


def test_a_session_phrase_between_a_day_and_its_quote_keeps_them_joined() -> None:
    """ "On December 30, during the session, PR Newswire ran \\"...\\"": the day is the quote's
    even with the session phrase between; another day is `wrong_time`."""
    checked = 0
    for question, move, news in _news():
        lead = _closed(move)
        for item in news:
            when = _new_york(item)
            if item.get("session") not in _SESSION or when.month != 12:
                continue
            other = when.day + 1 if when.day < 31 else when.day - 1
            for day in (when.day, other):
                en = f'{lead} On December {day}, {_SESSION[item["session"]]}, {item["source"]} ran "{item["headline"]}".'
                es = f'{lead} El {day} de diciembre, {_SESION[item["session"]]}, {item["source"]} publicó "{item["headline"]}".'
                for said in (en, es):
                    verdict = _verdict(question, said)
                    assert verdict.accepted == (day == when.day), (said, verdict.reasons)
            checked += 1
    assert checked >= 30


def test_sumo_carries_a_sign_like_added() -> None:
    """ "sumó un 0,06 % al rendimiento de la cartera" governs its figure like "added" (it was a
    free word): a contribution that took from the portfolio said with "sumó" is
    `wrong_direction`, and "restó" is kept for it."""
    checked = 0
    for question in sorted(q for q in FREE_TRACES if "/position/" in q):
        pos = _result(question, "get_position_pnl")
        c = pos.get("contribution_pct")
        if not c:
            continue
        right, wrong = ("sumó", "restó") if c > 0 else ("restó", "sumó")
        said = f"La posición en {pos['ticker']} {right} un {_es(abs(c))} % al rendimiento de la cartera {pos['portfolio_id']}."
        assert _verdict(question, said).accepted, (question, said)
        flipped = _verdict(question, said.replace(right, wrong))
        assert "wrong_direction" in {r.rule.value for r in flipped.reasons}, question
        checked += 1
    assert checked >= 20


def test_this_morning_is_today() -> None:
    """ "ran \\"...\\" this morning" is the report day's morning: an item of the day before, or
    one of the report day's afternoon, said so is `wrong_time`."""
    checked = 0
    for question, move, news in _news():
        lead = _closed(move)
        for item in news:
            when = _new_york(item)
            said = f'{lead} {item["source"]} ran "{item["headline"]}" this morning.'
            verdict = _verdict(question, said)
            morning = when.date() == date(2024, 12, 31) and 4 <= when.hour < 12
            assert verdict.accepted == morning, (said, verdict.reasons)
            checked += 1
    assert checked >= 30


def test_a_window_labels_a_table_row_with_its_start_and_año_is_the_year_to_date() -> None:
    """ "| Week | Dec. 24 | +0.20% |" (the window's start between its name and its change),
    "Semana: -4,2% | Año: -11,2%": each change is its window's; the month's change in the week's
    row, or the quarter's under "Año", is `wrong_time`."""
    checked = 0
    for question, move, windows in _moves():
        week, month = windows.get("week"), windows.get("month")
        quarter, ytd = windows.get("quarter"), windows.get("year_to_date")
        if not (week and month and quarter and ytd):
            continue
        if len({round(w["change_pct"], 1) for w in (week, month, quarter, ytd)}) < 4:
            continue
        lead = f"{_closed(move)}\n\n| Window | Since | Change |\n|---|---|---|\n"
        start = date.fromisoformat(week["start_session"])
        row = "| Week | {:%b} {} | {:+.2f}% |"
        _kept(question, lead + row.format(start, start.day, week["change_pct"]))
        assert "wrong_time" in _codes(
            question, lead + row.format(start, start.day, month["change_pct"])
        )
        es = f"{_closed(move)}\nSemana: {_es(week['change_pct'], True)} % | Año: {{}} %"
        _kept(question, es.format(_es(ytd["change_pct"], True)))
        assert "wrong_time" in _codes(question, es.format(_es(quarter["change_pct"], True)))
        checked += 1
    assert checked >= 20

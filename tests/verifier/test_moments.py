"""The moment a level or a headline is said for: "before the drop it traded at", "worth … at the
previous close", "from … at last week's close", "Last week, Reuters reported «…»". Wordings an
outside attack got through, bound by principle over the free-form night's real traces: each
test writes the faithful sentence and its wrong twin from the trace's own results and fails with
its rule taken out."""

from __future__ import annotations

from datetime import date, timedelta

from tests.verifier.test_unseen_prose import (
    _codes,
    _judged,
    _kept,
    _moves,
    _new_york,
    _news,
    _positions,
    _result,
)

REPORT = date(2024, 12, 31)
MONDAY = REPORT - timedelta(days=REPORT.weekday())


def _es(value: float) -> str:
    return f"{value:,.2f}".replace(",", "_").replace(".", ",").replace("_", ".")


def test_a_level_before_the_move_is_the_close_before_it() -> None:
    """ "before the drop it traded at X", "antes de la caída cotizaba a X": X is the previous
    close; the day's own close said so is `wrong_time`."""
    checked = 0
    for question, move, _ in _moves():
        pct, close, before = abs(move["change_pct"]), move["close"], move.get("previous_close")
        if not pct or before is None or round(before, 2) == round(close, 2):
            continue
        ticker = move["ticker"]
        went, move_noun = ("fell", "drop") if move["change_pct"] < 0 else ("rose", "gain")
        head = f"{ticker} {went} {pct:.2f}% on 2024-12-31; before the {move_noun} it traded at"
        _kept(question, f"{head} {before:.2f}.")
        assert "wrong_time" in _codes(question, f"{head} {close:.2f}."), question
        verbo, caida = ("cayó", "caída") if move["change_pct"] < 0 else ("subió", "subida")
        cabeza = f"{ticker} {verbo} un {_es(pct)} % el 31 de diciembre de 2024; antes de la {caida} cotizaba a"
        _kept(question, f"{cabeza} {_es(before)}.")
        assert "wrong_time" in _codes(question, f"{cabeza} {_es(close)}."), question
        checked += 1
    assert checked >= 20, checked


def test_a_value_said_at_the_previous_close_is_that_sessions() -> None:
    """ "were worth X at the previous close" of the market value at the report date's close is
    `wrong_time`; "at the close" is kept."""
    checked = 0
    for question, pos in _positions():
        if not pos.get("market_value") or not pos.get("day_pnl"):
            continue
        ticker, portfolio = pos["ticker"], pos["portfolio_id"]
        held = f"The {pos['quantity']:g} {ticker} shares in {portfolio} were worth {pos['market_value']:,.2f}"
        pnl = f"the position's day P&L was {pos['day_pnl']:+,.2f} ({pos['pnl_pct']:+.2f}%) on 2024-12-31."
        _kept(question, f"{held} at the close; {pnl}")
        assert "wrong_time" in _codes(question, f"{held} at the previous close; {pnl}"), question
        checked += 1
    assert checked >= 20, checked


def test_last_weeks_close_is_the_close_of_the_week_before() -> None:
    """The report date (a Tuesday) moved from Monday's close: "from X at last week's close",
    "from last week's X", "started the week at X", "desde X al cierre de la semana pasada" give
    X to the week before and are `wrong_time`; "at the previous close" is kept."""
    checked = 0
    for question, move, _ in _moves():
        before, session = move.get("previous_close"), move.get("previous_session")
        if before is None or session is None or date.fromisoformat(session) < MONDAY:
            continue
        ticker, pct, close = move["ticker"], abs(move["change_pct"]), move["close"]
        went = "fell" if move["change_pct"] < 0 else "rose"
        head = f"{ticker} {went} {pct:.2f}% to {close:.2f}"
        _kept(question, f"{head} from {before:.2f} at the previous close.")
        for said in (
            f"{head} from {before:.2f} at last week's close.",
            f"{head} from last week's {before:.2f}.",
            f"{head}; it started the week at {before:.2f}.",
            f"{ticker} cerró en {_es(close)} desde {_es(before)} al cierre de la semana pasada.",
        ):
            assert "wrong_time" in _codes(question, said), (question, said)
        checked += 1
    assert checked >= 20, checked


_OPENERS = {
    "Last week,": (MONDAY - timedelta(days=7), MONDAY - timedelta(days=1)),
    "Over the weekend,": (MONDAY - timedelta(days=2), MONDAY - timedelta(days=1)),
    "This week,": (MONDAY, REPORT),
    "Yesterday,": (REPORT - timedelta(days=1), REPORT - timedelta(days=1)),
    "On the day of the move,": (REPORT, REPORT),
    "La semana pasada,": (MONDAY - timedelta(days=7), MONDAY - timedelta(days=1)),
    "Hoy": (REPORT, REPORT),
}


def test_a_sentence_opened_by_a_time_places_its_headline() -> None:
    """ "Last week, Reuters reported «…»", "Over the weekend, …", "On the day of the move, …",
    "La semana pasada, …": the headline was published in that span (New York's calendar), else
    `wrong_time`; a second time in the sentence takes what follows it ("Hoy …, y ayer
    MarketWatch publicó «…»")."""
    kept = wrong = pairs = 0
    for question, move, news in _news():
        lead = f"{move['ticker']} closed at {move['close']:.2f} ({move['change_pct']:+.2f}%)."
        for item in news:
            day = _new_york(item).date()
            head, source = item["headline"], item["source"]
            for opener, (lo, hi) in _OPENERS.items():
                verb = "publicó" if opener in ("La semana pasada,", "Hoy") else "reported"
                said = f'{lead} {opener} {source} {verb} "{head}".'
                _judged(question, said, lo <= day <= hi, "wrong_time")
                kept, wrong = kept + (lo <= day <= hi), wrong + (not lo <= day <= hi)
        today = [n for n in news if _new_york(n).date() == REPORT]
        before = [n for n in news if _new_york(n).date() == REPORT - timedelta(days=1)]
        for first, second in zip(today, before, strict=False):
            _kept(
                question,
                f'{lead} Hoy {first["source"]} publicó "{first["headline"]}", y ayer salió '
                f'"{second["headline"]}" ({second["source"]}).',
            )
            pairs += 1
    assert kept >= 10 and wrong >= 30 and pairs >= 3, (kept, wrong, pairs)


def test_a_side_of_an_earlier_level_is_the_close_against_it() -> None:
    """ "it remains below its 2024-11-29 level of 106.51", "it is below its close on
    2024-11-29" hold where the report day's close is below that level; "3.14 below its close on
    2024-11-29", "3,14 por debajo de su cierre del
    2024-11-29" where the change since then is -3.14. The other side is `wrong_relation`."""
    checked = 0
    for question, move, _ in _moves():
        changes = _result(question, "get_trend").get("changes") or []
        ticker, close = move["ticker"], move["close"]
        lead = f"{ticker} closed at {close:.2f} ({move['change_pct']:+.2f}%)"
        if move["change_pct"]:  # the level after the side is the day's own close: no side said
            day_side = "above" if move["change_pct"] > 0 else "below"
            _kept(
                question,
                f"{ticker} finished {day_side} its previous close at {close:.2f} "
                f"({move['change_pct']:+.2f}%).",
            )
        for change in changes:
            start, level, gap = change["start_session"], change["start_close"], change["change"]
            if not gap or round(level, 2) == round(close, 2) or (gap > 0) != (close > level):
                continue  # a split between: the change is economic, the levels as traded
            side, other = ("above", "below") if close > level else ("below", "above")
            lado, otro = ("encima", "debajo") if close > level else ("debajo", "encima")
            _kept(question, f"{lead}; it remains {side} its {start} level of {level:.2f}.")
            _kept(question, f"{lead}, {abs(gap):.2f} {side} its close on {start}.")
            _kept(question, f"{lead}. It is {side} its close on {start}.")
            for said in (
                f"{lead}. It is {other} its close on {start}.",
                f"{lead}; it remains {other} its {start} level of {level:.2f}.",
                f"{lead}, {abs(gap):.2f} {other} its close on {start}.",
                f"{ticker} cerró en {_es(close)} ({_es(move['change_pct'])} %), {_es(abs(gap))} "
                f"por {otro} de su cierre del {start}.",
            ):
                assert "wrong_relation" in _codes(question, said), (question, said)
            _kept(
                question,
                f"{ticker} cerró en {_es(close)} ({_es(move['change_pct'])} %), {_es(abs(gap))} "
                f"por {lado} de su cierre del {start}.",
            )
            checked += 1
    assert checked >= 30, checked


def test_a_count_of_lots_is_no_count_of_shares() -> None:
    """ "a 1184-lot position", "1,184 lots" of a position of 1,184 shares: a lot is a block of
    shares no result counts, so the word is `unverified_claim`; "shares" is kept."""
    checked = 0
    for question, pos in _positions():
        if not pos.get("quantity") or not pos.get("day_pnl"):
            continue
        ticker, portfolio, qty = pos["ticker"], pos["portfolio_id"], int(pos["quantity"])
        tail = f"day P&L {pos['day_pnl']:+,.2f} ({pos['pnl_pct']:+.2f}%) on 2024-12-31."
        _kept(question, f"{portfolio} holds {qty:,} {ticker} shares; {tail}")
        for said in (
            f"{portfolio} holds a {qty}-lot {ticker} position; {tail}",
            f"{portfolio} holds {qty:,} lots of {ticker}; {tail}",
        ):
            assert "unverified_claim" in _codes(question, said), (question, said)
        checked += 1
    assert checked >= 20, checked


def _weekday_before(day: date) -> date:
    day -= timedelta(days=1)
    while day.weekday() >= 5 or (day.month, day.day) == (12, 25):
        day -= timedelta(days=1)
    return day


def test_a_run_since_a_date_starts_no_later_than_the_streak() -> None:
    """ "down in each session since 2024-12-24", "it has not risen since …", "no sube desde el
    …": every session after the date went the run's way, so the date is no earlier than the
    session before the streak's first; an earlier date or the other way is `wrong_relation`."""
    checked = from_before = 0
    for question, move, _ in _moves():
        streak = _result(question, "get_trend").get("streak") or {}
        way, since = streak.get("direction"), streak.get("since_session")
        if way not in ("up", "down") or not since:
            continue
        first = date.fromisoformat(since)
        ticker, pct, close = move["ticker"], abs(move["change_pct"]), move["close"]
        went, verbo = ("fell", "cayó") if move["change_pct"] < 0 else ("rose", "subió")
        head = f"{ticker} {went} {pct:.2f}% to {close:.2f}"
        cabeza = f"{ticker} {verbo} un {_es(pct)} % hasta {_es(close)}"
        against, contra = ("risen", "sube") if way == "down" else ("fallen", "baja")
        before = _weekday_before(first)
        earlier = _weekday_before(before)
        _kept(question, f"{head}, {way} in each session since {first}.")
        _kept(question, f"{head}; it has not {against} since {first}.")
        if str(before) == move.get("previous_session"):  # a one-day run, from the close before
            _kept(question, f"{head}; it has not {against} since {before}.")
            from_before += 1
        for said in (
            f"{head}, {way} in each session since {earlier}.",
            f"{head}; it has not {against} since {earlier}.",
            f"{cabeza} y no {contra} desde el {earlier.day} de diciembre de {earlier.year}.",
        ):
            if earlier.month == 12:
                assert "wrong_relation" in _codes(question, said), (question, said)
        other = "up" if way == "down" else "down"
        assert "wrong_relation" in _codes(
            question, f"{head}, {other} in each session since {first}."
        )
        checked += 1
    assert checked >= 20, checked


def test_a_count_of_recent_sessions_holds_only_as_the_streak() -> None:
    """ "has declined in 4 of the past 5 sessions": the results hold the current streak, not
    each session, so the count is `unverified_claim`; "in 3 of the last 3 sessions" of a streak
    of three or more that way is kept."""
    checked = 0
    for question, move, _ in _moves():
        streak = _result(question, "get_trend").get("streak") or {}
        way, sessions = streak.get("direction"), streak.get("sessions")
        if way not in ("up", "down") or not isinstance(sessions, int) or not move["change_pct"]:
            continue
        ticker, pct, close = move["ticker"], abs(move["change_pct"]), move["close"]
        went, run = ("fell", "declined") if way == "down" else ("rose", "risen")
        if (move["change_pct"] < 0) != (way == "down"):
            continue
        head = f"{ticker} {went} {pct:.2f}% to {close:.2f} and has {run}"
        _kept(question, f"{head} in {sessions} of the last {sessions} sessions.")
        said = f"{head} in {sessions} of the past {sessions + 1} sessions."
        assert "unverified_claim" in _codes(question, said), (question, said)
        dicho = f"{ticker} {'cayó' if way == 'down' else 'subió'} en {sessions} de las últimas {sessions + 2} sesiones."
        assert "unverified_claim" in _codes(question, dicho), (question, dicho)
        checked += 1
    assert checked >= 20, checked

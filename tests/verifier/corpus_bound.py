"""Bound claims for the golden corpus: each corruption moves a supported figure, quote, date or
direction to another subject, time or field, and comes paired with its faithful twin, in English
and in Spanish. Built by `build_corpus.py` from the real tools."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date
from typing import Any

from tests.verifier.build_corpus import DAYS, Recorder, case, en_date, es_date, es_num
from tools.catalog import Catalog

WEEKDAYS_EN = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
WEEKDAYS_ES = ["lunes", "martes", "miércoles", "jueves", "viernes", "sábado", "domingo"]
MONTH_START = "2024-02-27"
"""The start of the month-long window each ticker's change is asked for."""
SATURDAY = "2024-03-23"


def _weekday(iso: str, names: list[str], shift: int = 0) -> str:
    return names[(date.fromisoformat(iso).weekday() + shift) % 7]


def bound_cases(cat: Catalog, tickers: list[str]) -> Iterator[dict[str, Any]]:
    """Per ticker: pairs (faithful, corrupted) for each way a claim can lose its binding."""
    for i, ticker in enumerate(tickers[:4]):
        other = tickers[(i + 1) % len(tickers)]
        day = DAYS[i % 3]
        yield from _move_pairs(cat, ticker, other, day)
        yield from _news_pairs(cat, ticker, other, day)
        yield from _position_pairs(cat, ticker)
        yield from _failure_pairs(cat, ticker)
        yield from _event_pairs(cat, ticker)


def _pair(
    name: str, q: str, events: list[dict[str, Any]], good: str, bad: str, rules: list[str]
) -> Iterator[dict[str, Any]]:
    yield case("bound", f"{name}", q, events, good, [])
    yield case("bound", f"{name}-bad", q, events, bad, rules)


def _move_pairs(cat: Catalog, ticker: str, other: str, day: str) -> Iterator[dict[str, Any]]:
    rec = Recorder(cat)
    m = rec("get_daily_move", ticker=ticker, date=day)
    w = rec("get_price_change", ticker=ticker, start=MONTH_START, end=day)
    o = rec("get_daily_move", ticker=other, date=day)
    q = f"How did {ticker} do on {day}, and over the month?"
    ev = rec.events
    d, c, p, prev = m["change_pct"], m["close"], m["previous_close"], m["previous_session"]
    mo = w["change_pct"]
    up, mup = d >= 0, mo >= 0
    en_w, es_w = ("rose", "subió") if up else ("fell", "cayó")
    en_bad, es_bad = ("fell", "cayó") if up else ("rose", "subió")
    en_mw, es_mw = ("gained", "ganó") if mup else ("lost", "perdió")
    n = f"{ticker}-{day}"
    if round(abs(mo), 2) != round(abs(d), 2):
        yield from _pair(
            f"{n}-month-as-day-en", q, ev,
            f"Over the past month, {ticker} {en_mw} {abs(mo):.2f}%.",
            f"{ticker} {en_mw} {abs(mo):.2f}% on {en_date(day)}.",
            ["wrong_time"],
        )  # fmt: skip
        yield from _pair(
            f"{n}-month-as-day-es", q, ev,
            f"En el último mes, {ticker} {es_mw} un {es_num(abs(mo))} %.",
            f"{ticker} {es_mw} un {es_num(abs(mo))} % el {es_date(day)}.",
            ["wrong_time"],
        )  # fmt: skip
        yield from _pair(
            f"{n}-day-as-week-en", q, ev,
            f"**{ticker}** {en_w} {abs(d):.2f}% on the day, to ${c:,.2f}.",
            f"**{ticker}** {en_w} {abs(d):.2f}% over the past week, to ${c:,.2f}.",
            ["wrong_time"],
        )  # fmt: skip
        yield from _pair(
            f"{n}-day-as-week-es", q, ev,
            f"{ticker} {es_w} un {es_num(abs(d))} % en la sesión.",
            f"{ticker} {es_w} un {es_num(abs(d))} % en la última semana.",
            ["wrong_time"],
        )  # fmt: skip
    yield from _pair(
        f"{n}-close-on-previous-en", q, ev,
        f"{ticker} closed at {c:.2f} on {day}, after {p:.2f} on {prev}.",
        f"{ticker} closed at {c:.2f} on {prev}.",
        ["wrong_time"],
    )  # fmt: skip
    yield from _pair(
        f"{n}-close-on-previous-es", q, ev,
        f"{ticker} cerró a {es_num(c)} $ el {es_date(day)}.",
        f"{ticker} cerró a {es_num(c)} $ el {es_date(prev)}.",
        ["wrong_time"],
    )  # fmt: skip
    if round(o["close"], 2) != round(c, 2):
        yield from _pair(
            f"{n}-other-subject-en", q, ev,
            f"{ticker} closed at ${c:.2f}; {other} at ${o['close']:.2f}.",
            f"{other} closed at ${c:.2f}.",
            ["wrong_subject"],
        )  # fmt: skip
        yield from _pair(
            f"{n}-other-subject-es", q, ev,
            f"{ticker} cerró a {es_num(c)} $ y {other} a {es_num(o['close'])} $.",
            f"{other} cerró a {es_num(c)} $.",
            ["wrong_subject"],
        )  # fmt: skip
    yield from _pair(
        f"{n}-points-en", q, ev,
        f"{ticker} moved {d:+.2f}% on the day.",
        f"{ticker} moved {d:+.2f} percentage points on the day.",
        ["wrong_field"],
    )  # fmt: skip
    yield from _pair(
        f"{n}-points-es", q, ev,
        f"{ticker} varió un {es_num(d)} % en la sesión.",
        f"{ticker} varió {es_num(d)} puntos porcentuales en la sesión.",
        ["wrong_field"],
    )  # fmt: skip
    yield from _pair(
        f"{n}-last-traded-en", q, ev,
        f"{ticker} last traded at {c:.2f}.",
        f"{ticker} last traded at {p:.2f}.",
        ["wrong_field"],
    )  # fmt: skip
    yield from _pair(
        f"{n}-direction-bare-en", q, ev,
        f"{ticker} {en_w} on {en_date(day)}.",
        f"{ticker} {en_bad} on {en_date(day)}.",
        ["wrong_direction"],
    )  # fmt: skip
    yield from _pair(
        f"{n}-direction-bare-es", q, ev,
        f"Las acciones de {ticker} {es_w} el {es_date(day)}.",
        f"Las acciones de {ticker} {es_bad} el {es_date(day)}.",
        ["wrong_direction"],
    )  # fmt: skip
    yield from _pair(
        f"{n}-direction-close-en", q, ev,
        f"{ticker} closed {'higher' if up else 'lower'} at {c:.2f}.",
        f"{ticker} closed {'lower' if up else 'higher'} at {c:.2f}.",
        ["wrong_direction"],
    )  # fmt: skip
    yield from _pair(
        f"{n}-weekday-en", q, ev,
        f"{_weekday(day, WEEKDAYS_EN)} ({day}): {ticker} closed at {c:.2f}.",
        f"{_weekday(day, WEEKDAYS_EN, 1)} ({day}): {ticker} closed at {c:.2f}.",
        ["wrong_weekday"],
    )  # fmt: skip
    yield from _pair(
        f"{n}-weekday-es", q, ev,
        f"El {_weekday(day, WEEKDAYS_ES)} {es_date(day)}, {ticker} cerró a {es_num(c)} $.",
        f"El {_weekday(day, WEEKDAYS_ES, 1)} {es_date(day)}, {ticker} cerró a {es_num(c)} $.",
        ["wrong_weekday"],
    )  # fmt: skip


def _news_pairs(cat: Catalog, ticker: str, other: str, day: str) -> Iterator[dict[str, Any]]:
    rec = Recorder(cat)
    mine = rec("search_news", ticker=ticker, start="2024-03-01", end=day, limit=3)
    theirs = rec("search_news", ticker=other, start="2024-03-01", end=day, limit=3)
    own = {x["headline"] for x in mine.get("news", [])}
    heads = [x["headline"] for x in theirs.get("news", []) if x["headline"] not in own]
    if not own or not heads:
        return
    head, foreign = sorted(own)[0], heads[0]
    q = f"Which headlines explain {ticker} on {day}?"
    ev, n = rec.events, f"{ticker}-{day}"
    yield from _pair(
        f"{n}-quote-subject-en", q, ev,
        f'{ticker}: "{head}". {other}: "{foreign}".',
        f'{ticker}: "{foreign}".',
        ["wrong_subject"],
    )  # fmt: skip
    yield from _pair(
        f"{n}-quote-subject-es", q, ev,
        f"Titular de {ticker}: «{head}».",
        f"Titular de {ticker}: «{foreign}».",
        ["wrong_subject"],
    )  # fmt: skip
    session = next(x["session"] for x in mine["news"] if x["headline"] == head)
    said = {"before": "before the open", "during": "during the session", "after": "after the close"}
    dicho = {
        "before": "antes de la apertura",
        "during": "durante la sesión",
        "after": "tras el cierre",
    }
    if session in said:
        wrong = "before" if session != "before" else "after"
        yield from _pair(
            f"{n}-quote-session-en", q, ev,
            f'{ticker}: "{head}" came {said[session]}.',
            f'{ticker}: "{head}" came {said[wrong]}.',
            ["wrong_session"],
        )  # fmt: skip
        yield from _pair(
            f"{n}-quote-session-es", q, ev,
            f"{ticker}: «{head}» salió {dicho[session]}.",
            f"{ticker}: «{head}» salió {dicho[wrong]}.",
            ["wrong_session"],
        )  # fmt: skip
    words = head.split()
    if len(words) >= 6:
        cut = " ".join(words[:4])
        yield from _pair(
            f"{n}-quote-fragment-en", q, ev,
            f'{ticker} headline: "{cut}…"',
            f'{ticker} headline: "{cut}"',
            ["unknown_headline"],
        )  # fmt: skip
        yield from _pair(
            f"{n}-quote-fragment-es", q, ev,
            f"{ticker}: «… {' '.join(words[2:])}»",
            f"{ticker}: «{' '.join(words[2:])}»",
            ["unknown_headline"],
        )  # fmt: skip


def _position_pairs(cat: Catalog, ticker: str) -> Iterator[dict[str, Any]]:
    rec = Recorder(cat)
    r = rec("get_position_pnl", portfolio_id="P001", ticker=ticker, date=DAYS[0])
    if "error" in r:
        return
    contribution, own = r["contribution_pct"], r["pnl_pct"]
    if round(contribution, 2) == round(own, 2):
        return
    q = f"What did {ticker} contribute to P001 on {DAYS[0]}?"
    ev, n = rec.events, f"{ticker}-contribution"
    yield from _pair(
        f"{n}-en", q, ev,
        f"{ticker} returned {own:+.2f}% and added {contribution:+.2f} pp to the portfolio's return.",
        f"{ticker} added {own:+.2f} pp to the portfolio's return.",
        ["wrong_field"],
    )  # fmt: skip
    yield from _pair(
        f"{n}-es", q, ev,
        f"{ticker} aportó {es_num(contribution)} pp a la rentabilidad de la cartera.",
        f"{ticker} aportó {es_num(own)} pp a la rentabilidad de la cartera.",
        ["wrong_field"],
    )  # fmt: skip


def _failure_pairs(cat: Catalog, ticker: str) -> Iterator[dict[str, Any]]:
    rec = Recorder(cat)
    rec("get_daily_move", ticker=ticker, date=SATURDAY)
    q = f"How did {ticker} move on {SATURDAY}?"
    ev, n = rec.events, f"{ticker}-saturday"
    yield from _pair(
        f"{n}-en", q, ev,
        f"{en_date(SATURDAY)} was a Saturday, so there is no {ticker} session to report.",
        f"{ticker} rose 1.20% on {en_date(SATURDAY)}.",
        ["unresolved_error"],
    )  # fmt: skip
    yield from _pair(
        f"{n}-es", q, ev,
        f"El {es_date(SATURDAY)} fue sábado: no hubo sesión de {ticker}.",
        f"El {es_date(SATURDAY)} fue viernes: no hubo sesión de {ticker}.",
        ["wrong_weekday"],
    )  # fmt: skip


def _event_pairs(cat: Catalog, ticker: str) -> Iterator[dict[str, Any]]:
    rec = Recorder(cat)
    m = rec("get_daily_move", ticker=ticker, date=DAYS[0])
    e = rec("get_events", ticker=ticker, start="2024-01-01", end="2024-03-28")
    earnings = [x["date"] for x in e.get("events", []) if x["kind"] == "earnings"]
    if not earnings or m["previous_session"] in earnings:
        return
    q = f"When did {ticker} report earnings?"
    ev, n = rec.events, f"{ticker}-earnings-day"
    yield from _pair(
        f"{n}-en", q, ev,
        f"{ticker} reported earnings on {earnings[0]}.",
        f"{ticker} reported earnings on {m['previous_session']}.",
        ["wrong_event_day"],
    )  # fmt: skip
    yield from _pair(
        f"{n}-es", q, ev,
        f"{ticker} presentó resultados el {es_date(earnings[0])}.",
        f"{ticker} presentó resultados el {es_date(m['previous_session'])}.",
        ["wrong_event_day"],
    )  # fmt: skip

"""Properties of bound claims: a faithful draft is accepted, and moving one of its supported
figures to another subject, time or field rejects it with the code that names that part."""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from verifier.verify import verify_json as verify

SYMBOLS = ("AXO", "BRQ", "CVLT", "DMFH", "ENYW")
MONTHS_ES = (
    "enero febrero marzo abril mayo junio julio agosto septiembre octubre noviembre diciembre"
)


def _price(cents: int) -> float:
    return round(cents / 100, 2)


@st.composite
def nights(draw: st.DrawFn) -> dict[str, Any]:
    """Two tickers' day moves and one's month change on a random session."""
    a, b = draw(st.permutations(SYMBOLS))[:2]
    day = date(2024, 1, 2) + timedelta(days=draw(st.integers(0, 300)))
    assume(day.weekday() in (1, 2, 3, 4))  # a weekday whose previous session is the day before
    prev = day - timedelta(days=1)
    closes = [draw(st.integers(1_000, 90_000)) for _ in range(4)]
    assume(
        len({c for c in closes}) == 4
        and all(abs(x - y) > 10 for x in closes for y in closes if x != y)
    )
    close, before, other, start = (_price(c) for c in closes)
    pct = round((close - before) / before * 100, 2)
    month = round((close - start) / start * 100, 2)
    assume(abs(pct) >= 0.1 and abs(month) >= 0.1 and abs(abs(pct) - abs(month)) > 0.05)
    # no figure of the trace that happens to equal another: the day's change in dollars of
    # 98.32 would support "fell 98.32%" as a figure given the wrong unit, not the wrong time
    moved = abs(round(close - before, 2))
    assume(all(abs(moved - abs(x)) > 0.05 for x in (pct, month)))
    assume(abs(round(other * 0.99, 2) - close) > 0.05)  # nor the other ticker's previous close
    levels = (close, before, other, start, round(other * 0.99, 2))
    assume(all(abs(abs(x) - level) > 0.05 for x in (pct, month) for level in levels))
    return {
        "a": a, "b": b, "day": day, "prev": prev, "close": close, "before": before,
        "other": other, "pct": pct, "month": month, "start": day - timedelta(days=30),
        "spanish": draw(st.booleans()),
    }  # fmt: skip


def trace(n: dict[str, Any], draft: str) -> dict[str, Any]:
    day, prev = n["day"].isoformat(), n["prev"].isoformat()

    def move(ticker: str, close: float, before: float) -> dict[str, Any]:
        return {
            "id": f"m-{ticker}",
            "tool": "get_daily_move",
            "args": {"ticker": ticker, "date": day},
            "result": {
                "ticker": ticker, "session": day, "previous_session": prev, "close": close,
                "previous_close": before, "change": round(close - before, 2),
                "change_pct": round((close - before) / before * 100, 2),
            },
        }  # fmt: skip

    window = {
        "id": "w",
        "tool": "get_price_change",
        "args": {"ticker": n["a"], "start": n["start"].isoformat(), "end": day},
        "result": {
            "ticker": n["a"], "start_session": n["start"].isoformat(), "end_session": day,
            "end_close": n["close"], "start_close": _price(int(n["close"] * 100 / (1 + n["month"] / 100))),
            "change": 0.0, "change_pct": n["month"],
        },
    }  # fmt: skip
    b_before = round(n["other"] * 0.99, 2)
    events = [move(n["a"], n["close"], n["before"]), move(n["b"], n["other"], b_before), window]
    return {"question": f"How did {n['a']} do?", "draft": draft, "events": events}


def when(n: dict[str, Any], d: date) -> str:
    if n["spanish"]:
        return f"el {d.day} de {MONTHS_ES.split()[d.month - 1]} de {d.year}"
    return f"on {d:%B} {d.day}, {d.year}"


def num(n: dict[str, Any], x: float) -> str:
    return f"{x:.2f}".replace(".", ",") if n["spanish"] else f"{x:.2f}"


def sentence(n: dict[str, Any], ticker: str, value: float, at: date | None = None) -> str:
    said = f" {when(n, at)}" if at else ""
    if n["spanish"]:
        return f"{ticker} cerró a {num(n, value)} ${said}."
    return f"{ticker} closed at ${num(n, value)}{said}."


def change(n: dict[str, Any], value: float, window: str, unit: str = "%") -> str:
    up = value >= 0
    if n["spanish"]:
        verb = "subió" if up else "cayó"
        span = {"day": "en la sesión", "month": "en el último mes", "week": "en la última semana"}
        unit = " puntos porcentuales" if unit == "pp" else " %"
        return f"{n['a']} {verb} un {num(n, abs(value))}{unit} {span[window]}."
    verb = "rose" if up else "fell"
    span = {"day": "on the day", "month": "over the past month", "week": "over the past week"}
    unit = " percentage points" if unit == "pp" else "%"
    return f"{n['a']} {verb} {num(n, abs(value))}{unit} {span[window]}."


def rules(n: dict[str, Any], draft: str) -> list[str]:
    return sorted({r.rule.value for r in verify(trace(n, draft)).reasons})


@settings(max_examples=60, deadline=None)
@given(nights())
def test_a_faithful_draft_is_accepted(n: dict[str, Any]) -> None:
    draft = " ".join(
        (
            sentence(n, n["a"], n["close"], n["day"]),
            change(n, n["pct"], "day"),
            change(n, n["month"], "month"),
            sentence(n, n["b"], n["other"]),
        )
    )
    assert rules(n, draft) == []


@settings(max_examples=60, deadline=None)
@given(nights())
def test_a_figure_moved_to_another_subject_is_the_wrong_subject(n: dict[str, Any]) -> None:
    assert rules(n, sentence(n, n["b"], n["close"], n["day"])) == ["wrong_subject"]


@settings(max_examples=60, deadline=None)
@given(nights(), st.booleans())
def test_a_figure_moved_to_another_time_is_the_wrong_time(n: dict[str, Any], level: bool) -> None:
    # the close on the previous session; the day's change over a week
    draft = sentence(n, n["a"], n["close"], n["prev"]) if level else change(n, n["pct"], "week")
    assert rules(n, draft) == ["wrong_time"]
    assert rules(n, change(n, n["month"], "day")) == ["wrong_time"]  # the month's, as the day's


@settings(max_examples=60, deadline=None)
@given(nights())
def test_a_figure_moved_to_another_field_is_the_wrong_field(n: dict[str, Any]) -> None:
    assert rules(n, sentence(n, n["a"], n["before"])) == ["wrong_field"]  # the previous close
    assert rules(n, change(n, n["pct"], "day", unit="pp")) == ["wrong_field"]  # % is not pp


@settings(max_examples=60, deadline=None)
@given(nights())
def test_a_direction_turned_around_is_the_wrong_direction(n: dict[str, Any]) -> None:
    up = n["pct"] >= 0
    if n["spanish"]:
        draft = f"Las acciones de {n['a']} {'cayeron' if up else 'subieron'} {when(n, n['day'])}."
    else:
        draft = f"{n['a']} {'fell' if up else 'rose'} {when(n, n['day'])}."
    assert rules(n, draft) == ["wrong_direction"]

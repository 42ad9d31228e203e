"""Evidence: everything a trace can vouch for, indexed once per trace.

Facts are the numbers found in successful tool results (JSON numbers, and numbers written inside
result strings) and in the question, each with the event that holds it, the JSON key it sits
under, the ticker it is about and whether it is a percentage some calculating tool produced.
Dates, tickers and news headlines are indexed the same way. Failed calls are kept too, with
whether a later call of the same tool for the same ticker succeeded.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import date, timedelta
from typing import Any

from verifier.claims import QUARTER_BASE, Claim, DateReading, extract_claims, normalise_headline
from verifier.numbers import tolerance
from verifier.trace_view import TraceView

CALCULATING_TOOLS = frozenset(
    {"get_daily_move", "get_price_change", "get_position_pnl", "calculate", "run_sql"}
)
"""Tools whose results are computed figures: the only source a percentage may come from."""
NEWS_TOOLS = frozenset({"search_news", "run_sql"})
QUESTION = "question"
"""The pseudo event id of facts the question itself states."""

_PERCENT_KEY = re.compile(
    r"pct|percent|return|ratio|yield|weight|contribution|^value$|(?:^|_)rate$"
)
_CHANGE_KEY = re.compile(r"change|chg|pct|pnl|p_l|return|diff|delta|move|gain|loss|contribution")
_ISO_DATE = re.compile(
    r"(\d{4})-(\d\d)-(\d\d)(?:[T ](\d\d):\d\d(?::\d\d(?:\.\d+)?)?(Z|[+-]\d\d:?\d\d)?)?"
)
_TOKEN = re.compile(r"(?<![\w$&.])\$?([A-Z]{1,5}(?:[.-][A-Z]{1,2})?)(?![\w&-])")


@dataclass(slots=True, frozen=True)
class Fact:
    """One number the trace vouches for."""

    value: float
    event: str
    tool: str
    key: str
    ticker: str | None
    percent: bool
    signed: bool
    decimals: int = -1
    """Decimals as written, for numbers found in text; -1 for JSON numbers."""

    @property
    def change(self) -> bool:
        """Whether the key names a change (its sign is a direction), not a level."""
        return self.tool == "calculate" or bool(_CHANGE_KEY.search(self.key))

    def describe(self) -> str:
        where = "the question" if self.event == QUESTION else f"{self.tool} {self.event}"
        about = f" for {self.ticker}" if self.ticker else ""
        key = f"{self.key} " if self.key else ""
        return f"{key}{self.value:g}{about} in {where}"


@dataclass(slots=True, frozen=True)
class Failure:
    """A call that failed, and whether a later call of the same tool for the same ticker succeeded."""

    event: str
    tool: str
    ticker: str | None
    message: str
    resolved: bool


@dataclass(slots=True)
class Evidence:
    """The index of one trace."""

    facts: list[Fact] = field(default_factory=list)
    magnitudes: list[float] = field(default_factory=list)
    fractions: list[Fact] = field(default_factory=list)
    fraction_magnitudes: list[float] = field(default_factory=list)
    dates: dict[DateReading, set[str]] = field(default_factory=dict)
    tickers: dict[str, set[str]] = field(default_factory=dict)
    headlines: list[tuple[str, str]] = field(default_factory=list)
    failures: list[Failure] = field(default_factory=list)

    def match_figure(self, claim: Claim) -> list[Fact]:
        """Facts that round to the claim at the precision it displays (any ticker)."""
        found: list[Fact] = []
        for reading in claim.readings:
            value, decimals = reading
            hits: list[Fact] = []
            if claim.unit == "bps":
                hits += self._near(value, tolerance(decimals), claim.scale)
                value, decimals = value / 100, decimals + 2
            half = tolerance(decimals)
            lo, hi = (value - half) * claim.scale, (value + half) * claim.scale
            hits += _between(self.facts, self.magnitudes, lo, hi)
            if claim.unit:
                hits += _between(self.fractions, self.fraction_magnitudes, lo, hi)
            found += [f for f in hits if reading.decimals >= f.decimals - 1]
        if claim.sign:
            found = [f for f in found if f.signed and (f.value < 0) == (claim.sign < 0)]
        return found

    def _near(self, value: float, half: float, scale: float) -> list[Fact]:
        return _between(self.facts, self.magnitudes, (value - half) * scale, (value + half) * scale)

    def match_date(self, claim: Claim) -> list[str]:
        """Event ids whose results (or the question) hold the date, at the detail it gives."""
        events: list[str] = []
        for reading in claim.dates:
            events += self.dates.get(reading, ())
        return sorted(set(events))

    def match_headline(self, claim: Claim) -> list[str]:
        """Event ids of news results that contain the quoted text literally."""
        quote = normalise_headline(claim.text)
        return sorted({event for text, event in self.headlines if quote and quote in text})

    def near(self, claim: Claim) -> Fact | None:
        """The fact closest to the claim's first reading, to show an analyst what was there."""
        if not claim.readings or not self.facts:
            return None
        target = abs(claim.readings[0].value * claim.scale)
        i = bisect_left(self.magnitudes, target)
        candidates = self.facts[max(i - 1, 0) : i + 1]
        return min(candidates, key=lambda f: abs(abs(f.value) - target))


def _between(facts: list[Fact], magnitudes: list[float], lo: float, hi: float) -> list[Fact]:
    return facts[bisect_left(magnitudes, lo) : bisect_right(magnitudes, hi)]


def index_trace(trace: TraceView) -> Evidence:
    """Index every successful result, every failure and the question of one trace."""
    ev = Evidence()
    facts: list[Fact] = []
    for event in trace.events:
        ticker = event.ticker
        if ticker:
            ev.tickers.setdefault(ticker, set()).add(event.id)
        if event.failure is not None:
            continue
        _index_dates_in(event.args, event.id, ev)
        calc = event.tool in CALCULATING_TOOLS
        for fact in _walk(event.result, event.id, event.tool, "", ticker, calc, ev):
            facts.append(fact)
    _index_text(trace.question, QUESTION, "", "", None, True, ev, facts)
    ev.failures = _failures(trace)
    for (year, month, day), events in ev.dates.items():
        if year is not None and month == 0 and day is None:
            facts += [Fact(float(year), e, "", "year", None, False, False) for e in events]
    facts.sort(key=lambda f: abs(f.value))
    ev.facts = facts
    ev.magnitudes = [abs(f.value) for f in facts]
    fractions = [
        Fact(f.value * 100, f.event, f.tool, f.key, f.ticker, True, f.signed)
        for f in facts
        if f.percent and f.signed and f.key and abs(f.value) <= 10
    ]
    fractions.sort(key=lambda f: abs(f.value))
    ev.fractions = fractions
    ev.fraction_magnitudes = [abs(f.value) for f in fractions]
    return ev


def _walk(
    node: Any, event: str, tool: str, key: str, ticker: str | None, calc: bool, ev: Evidence
) -> Iterator[Fact]:
    if node is None or isinstance(node, bool):
        return
    if isinstance(node, int | float):
        if node == node and abs(node) != float("inf"):
            percent = calc and (tool in {"calculate", "run_sql"} or bool(_PERCENT_KEY.search(key)))
            yield Fact(float(node), event, tool, key, ticker, percent, True)
    elif isinstance(node, str):
        facts: list[Fact] = []
        _index_text(node, event, tool, key, ticker, calc, ev, facts)
        yield from facts
    elif isinstance(node, dict):
        node = _rows_as_dicts(node)
        own = node.get("ticker")
        if isinstance(own, str) and own:
            ticker = own.upper()
            ev.tickers.setdefault(ticker, set()).add(event)
        for k, value in node.items():
            yield from _walk(value, event, tool, str(k).lower(), ticker, calc, ev)
    elif isinstance(node, list | tuple):
        yield Fact(float(len(node)), event, tool, "count", None, False, False)
        for item in node:
            yield from _walk(item, event, tool, key, ticker, calc, ev)


def _rows_as_dicts(node: dict[str, Any]) -> dict[str, Any]:
    """SQL results (`columns` + `rows` of lists) keyed by column, so each row keeps its ticker."""
    columns, rows = node.get("columns"), node.get("rows")
    if not (isinstance(columns, list) and isinstance(rows, list)):
        return node
    if not all(isinstance(r, list) and len(r) == len(columns) for r in rows):
        return node
    names = [str(c) for c in columns]
    rest = {k: v for k, v in node.items() if k not in ("columns", "rows")}
    return {**rest, "rows": [dict(zip(names, r, strict=True)) for r in rows]}


def _index_text(
    text: str,
    event: str,
    tool: str,
    key: str,
    ticker: str | None,
    calc: bool,
    ev: Evidence,
    facts: list[Fact],
) -> None:
    if tool in NEWS_TOOLS or event == QUESTION:
        ev.headlines.append((normalise_headline(text), event))
    iso = _ISO_DATE.fullmatch(text)
    if iso:
        _add_iso(iso, event, ev)
        return
    for symbol in _TOKEN.findall(text):
        ev.tickers.setdefault(symbol, set()).add(event)
    if not any(ch.isdigit() for ch in text):
        return
    for claim in extract_claims(text):
        if claim.kind == "date":
            for reading in claim.dates:
                _add_date(reading, event, ev)
        elif claim.readings:
            percent = bool(claim.unit) and (calc or event == QUESTION)
            signed = claim.sign != 0
            for value, decimals in claim.readings:
                scaled = value * claim.scale * (claim.sign or 1)
                facts.append(Fact(scaled, event, tool, key, ticker, percent, signed, decimals))
                if claim.scale != 1.0:
                    facts.append(Fact(value, event, tool, key, ticker, percent, False, decimals))


def _index_dates_in(args: Any, event: str, ev: Evidence) -> None:
    if isinstance(args, dict):
        for value in args.values():
            if isinstance(value, str):
                iso = _ISO_DATE.fullmatch(value)
                if iso:
                    _add_iso(iso, event, ev)


def _add_iso(m: re.Match[str], event: str, ev: Evidence) -> None:
    try:
        day = date(int(m.group(1)), int(m.group(2)), int(m.group(3)))
    except ValueError:
        return
    _add_day(day, event, ev)
    hour, zone = m.group(4), m.group(5)
    if hour is not None and zone in ("Z", "+00:00", "+0000") and int(hour) < 5:
        _add_day(day - timedelta(days=1), event, ev)


def _add_day(day: date, event: str, ev: Evidence) -> None:
    _add_date((day.year, day.month, day.day), event, ev)


def _add_date(reading: DateReading, event: str, ev: Evidence) -> None:
    """File a date under every detail a claim may give: day, month, quarter, year."""
    year, month, day = reading
    keys: set[DateReading] = {(year, month, day), (None, month, day), (year, month, None)}
    if month <= QUARTER_BASE:
        quarter = QUARTER_BASE + (month - 1) // 3 + 1
        keys |= {(year, quarter, None), (None, quarter, None)}
    if year is not None:
        keys.add((year, 0, None))
    for key in keys:
        if key[0] is None and key[2] is None and key[1] <= QUARTER_BASE:
            continue
        ev.dates.setdefault(key, set()).add(event)


def _failures(trace: TraceView) -> list[Failure]:
    failures = []
    for i, event in enumerate(trace.events):
        message = event.failure
        if message is None:
            continue
        later = trace.events[i + 1 :]
        resolved = any(
            e.failure is None and e.tool == event.tool and e.ticker == event.ticker for e in later
        )
        failures.append(Failure(event.id, event.tool, event.ticker, message, resolved))
    return failures

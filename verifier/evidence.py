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
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import date, timedelta
from functools import lru_cache
from typing import Any, NamedTuple

from contract.tools import TRAITS, traits_of
from verifier.claims import (
    EVENT_KINDS,
    QUARTER_BASE,
    Claim,
    DateReading,
    extract_facts,
    normalise_headline,
)
from verifier.claims import clear_caches as clear_claim_caches
from verifier.numbers import tolerance
from verifier.periods import Period
from verifier.spans import asked_dates, spans_of
from verifier.times import Span
from verifier.trace_view import TraceView

CALCULATING_TOOLS = frozenset(name for name, t in TRAITS.items() if t.computes or t.sql)
"""Tools whose results are computed figures: the only source a percentage may come from."""
NEWS_TOOLS = frozenset(name for name, t in TRAITS.items() if t.news or t.sql)
QUESTION = "question"
"""The pseudo event id of facts the question itself states."""

_PERCENT_KEY = re.compile(
    r"pct|percent|return|ratio|yield|weight|contribution|^value$|(?:^|_)rate$"
)
_YEAR = re.compile(r"(?:19|20)\d\d")
_MONEY = re.compile(r"(?i)[$€£]|\b(?:usd|eur|gbp|dollars?|d[oó]lar(?:es)?|euros?)\b")
_PERCENT_UNIT_KEY = re.compile(r"pct|percent")
"""Keys whose numbers are already in percent (`change_pct: -1.35` is -1.35%, never -135%)."""
_CHANGE_KEY = re.compile(r"change|chg|pct|pnl|p_l|return|diff|delta|move|gain|loss|contribution")
_ISO_DATE = re.compile(
    r"(\d{4})-(\d\d)-(\d\d)(?:[T ](\d\d):\d\d(?::\d\d(?:\.\d+)?)?(Z|[+-]\d\d:?\d\d)?)?"
)
_TOKEN = re.compile(r"(?<![\w$&.])\$?([A-Z]{1,5}(?:[.-][A-Z]{1,2})?)(?![\w&-])")


class Fact(NamedTuple):
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
    period: Period | None = None
    """The period the text states the number for (see `verifier.periods`); None for JSON."""
    bound: int = 0
    """Whether the text writes the number as a lower (+1) or upper (-1) bound ("over 100")."""
    span: Span | None = None
    """The session (a level) or window (a change) the result's structure holds it for."""
    origin: int = 0
    """JSON (0), written in a result string (1) or in a news string (2): text vouches for no
    market figure, news text for no figure at all."""

    @property
    def change(self) -> bool:
        """Whether the key names a change (its sign is a direction), not a level."""
        return traits_of(self.tool).arithmetic or bool(_CHANGE_KEY.search(self.key))

    def describe(self) -> str:
        where = "the question" if self.event == QUESTION else f"{self.tool} {self.event}"
        about = f" for {self.ticker}" if self.ticker else ""
        key = f"{self.key} " if self.key else ""
        when = f" for {self.span.describe()}" if self.span else ""
        return f"{key}{self.value:g}{about}{when} in {where}"


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
    headlines: dict[tuple[str, str], None] = field(default_factory=dict)
    """(text, event) of every string a news result or the question holds; normalised on demand."""
    texts: list[tuple[str, str]] = field(default_factory=list)
    """(text, event) of every string a successful result or the question holds."""
    sessions: dict[str, set[str]] = field(default_factory=dict)
    """The sessions ("before", "during", "after") each news headline came in, where its results
    say so."""
    published: dict[str, set[str]] = field(default_factory=dict)
    """The times (`published_at`, as written) each news headline came at, where its result
    says so."""
    event_days: dict[DateReading, set[tuple[str | None, str]]] = field(default_factory=dict)
    """The (ticker, kind) of the corporate events a result lists on each day (filed with and
    without the year), for "earnings on 2025-01-13" where the trace's event that day is a
    dividend."""
    announced_days: dict[DateReading, set[tuple[str | None, str]]] = field(default_factory=dict)
    """The same for the days the events were announced: "declared a dividend on 2024-12-02" is
    faithful on the announcement day, also where earnings fall that day."""
    question_money: bool = False
    """Whether the question writes an amount of money at all: if not, its numbers ("the next 30
    days") support no money figure of the draft."""
    called: set[str] = field(default_factory=set)
    """Tickers that calls were made for (arguments and `ticker` fields), not merely mentioned."""
    failures: list[Failure] = field(default_factory=list)
    free_dates: dict[DateReading, set[str]] = field(default_factory=dict)
    """`dates` less the quarters a source names only as a comparison base."""
    event_windows: list[tuple[str | None, date, date]] = field(default_factory=list)
    """The windows an events result covers, per ticker: in them, a day not listed for an event
    kind is not that kind's day."""
    event_dates: dict[tuple[str | None, str], list[date]] = field(default_factory=dict)
    """The days each (ticker, kind) of event is listed on."""
    news_tickers: dict[str, set[str | None]] = field(default_factory=dict)
    """The ticker each news string was returned for (its row's, or the call's)."""
    changes: dict[str, list[Fact]] = field(default_factory=dict)
    """Each ticker's price changes that a result's structure holds, with their windows: what a
    direction word said of the ticker is held against."""

    def match_figure(self, claim: Claim) -> list[Fact]:
        """Facts that round to the claim at the precision it displays (any ticker).

        A number in text may be rounded by one decimal more than the claim shows, except that a
        bare whole number (a count: "12 aircraft") stands only for a whole number.
        """
        found: list[Fact] = []
        scale, unit = claim.scale, claim.unit
        count = claim.kind == "number" and scale == 1.0 and not unit
        shift = 2 if scale == 0.01 else 0  # "87 cents" is written to the cent: 0.87
        for value, decimals in claim.readings:
            places = 0 if count and not decimals else decimals + 1 + shift
            if unit == "bps":  # as written (a bps field), not where a key says percent
                written: list[Fact] = []
                self._near(written, value, decimals, scale, places)
                found += [f for f in written if not _in_percent(f.key)]
                value, decimals = value / 100, decimals + 2
            self._near(found, value, decimals, scale, places)
            if unit:
                half = tolerance(decimals)
                lo, hi = (value - half) * scale, (value + half) * scale
                magnitudes = self.fraction_magnitudes
                for f in self.fractions[bisect_left(magnitudes, lo) : bisect_right(magnitudes, hi)]:
                    if f.decimals <= places:
                        found.append(f)
        if claim.sign:
            negative = claim.sign < 0
            found = [f for f in found if f.signed and (f.value < 0) == negative]
        if (
            found
            and any(1899 < r.value * scale < 2101 for r in claim.readings)
            and not (claim.kind == "number" and _YEAR.fullmatch(claim.text))
        ):
            found = [f for f in found if f.key != "year"]  # "2,024 shares" is not the year 2024
        return found

    def _near(
        self, found: list[Fact], value: float, decimals: int, scale: float, places: int
    ) -> None:
        """Add the facts within half a unit of the claim's last decimal, written with at most
        `places` decimals.

        A number written in text rounds half up (1.65 is not "1.6"); a JSON number is compared
        by its binary value, as formatting it would round it.
        """
        half = tolerance(decimals)
        lo, hi = (value - half) * scale, (value + half) * scale
        top = (value + 0.5 * 10.0**-decimals * (1 - 1e-9)) * scale
        magnitudes = self.magnitudes
        for f in self.facts[bisect_left(magnitudes, lo) : bisect_right(magnitudes, hi)]:
            if f.decimals < 0 or (f.decimals <= places and abs(f.value) < top):
                found.append(f)

    def match_date(self, claim: Claim, free: bool = False) -> list[str]:
        """Event ids whose results (or the question) hold the date, at the detail it gives.

        With `free`, a quarter counts only where a source names it for what it says, not only as
        a comparison base ("from Q3 2019", "down from $2.39 in Q3 2019").
        """
        index = self.free_dates if free else self.dates
        events: list[str] = []
        for reading in claim.dates:
            events += index.get(reading, ())
        return sorted(set(events))

    def match_name(self, claim: Claim) -> list[Fact]:
        """The designation a number is part of ("MAX 10"), where a result or the question writes
        it (case and spacing ignored, as for headlines)."""
        name = normalise_headline(claim.name)
        events = dict.fromkeys(event for text, event in self.texts if name in _normalised(text))
        value = claim.readings[0].value if claim.readings else 0.0
        return [_fact(value, e, "", "name", None, False, False, -1, None) for e in events]

    def match_headline(self, claim: Claim) -> list[str]:
        """Event ids of the news results (or the question) that hold the quote (`quoted_by`)."""
        whole, part = quoted_by(claim.text), quoted_by(claim.text, whole=False)
        return sorted(
            {
                event
                for text, event in self.headlines
                if (part(text) if event == QUESTION else whole(text))
            }
        )

    def quote_tickers(self, claim: Claim) -> set[str | None]:
        """The tickers whose news results hold the quote (None: a result about no ticker)."""
        whole = quoted_by(claim.text)
        return {t for text, tickers in self.news_tickers.items() if whole(text) for t in tickers}

    def headline_sessions(self, claim: Claim) -> set[str]:
        """The sessions of the news headlines the quote matches (those whose result gives one)."""
        holds = quoted_by(claim.text)
        return {
            when for text, sessions in self.sessions.items() if holds(text) for when in sessions
        }

    def headline_times(self, quote: str) -> set[str]:
        """The publication times of the news headlines the quote matches (where given)."""
        holds = quoted_by(quote)
        return {when for text, times in self.published.items() if holds(text) for when in times}

    def near(self, claim: Claim) -> Fact | None:
        """The fact closest to the claim's first reading, to show an analyst what was there."""
        if not claim.readings or not self.facts:
            return None
        target = abs(claim.readings[0].value * claim.scale)
        i = bisect_left(self.magnitudes, target)
        candidates = self.facts[max(i - 1, 0) : i + 1]
        return min(candidates, key=lambda f: abs(abs(f.value) - target))


def index_trace(trace: TraceView) -> Evidence:
    """Index every successful result, every failure and the question of one trace."""
    ev = Evidence()
    walker = _Walker(ev)
    for event in trace.events:
        ticker = event.ticker
        if ticker:
            ev.tickers.setdefault(ticker, set()).add(event.id)
            ev.called.add(ticker)
        args = event.args
        if event.failure is not None:
            walker.start(event.id, event.tool)
            _file_absence(walker, args, event.failure)
            continue
        walker.start(event.id, event.tool, asked_dates(args))
        if isinstance(args, dict):
            for value in args.values():
                if isinstance(value, str) and _ISO_DATE.fullmatch(value):
                    for when, _ in read_text(value).dates:
                        walker.add_date(when, False)
        walker.walk(event.result, "", ticker)
    walker.start(QUESTION, "")
    walker.calc = True
    walker.text(trace.question, "", None)
    ev.question_money = _MONEY.search(trace.question) is not None
    ev.failures = _failures(trace)
    _file_dates(ev, walker.dates)
    facts = walker.facts
    for (year, month, day), events in ev.dates.items():
        if year is not None and month == 0 and day is None:
            facts += [
                _fact(float(year), e, "", "year", None, False, False, -1, None) for e in events
            ]
    facts.sort(key=_magnitude)
    ev.facts = facts
    for f in facts:
        if f.ticker and f.key in _PRICE_CHANGES and f.span and f.span.start and not f.origin:
            ev.changes.setdefault(f.ticker, []).append(f)
    ev.magnitudes = [abs(f.value) for f in facts]
    fractions = [
        _fact(
            f.value * 100,
            f.event,
            f.tool,
            f.key,
            f.ticker,
            True,
            f.signed,
            -1,
            f.period,
            f.bound,
            f.span,
            f.origin,
        )
        for f in facts
        if f.percent
        and f.signed
        and f.key
        and abs(f.value) <= 10
        and not _in_percent(f.key)
        and (not traits_of(f.tool).sql or _percent_key(f.key))  # a SQL `change` of 3.71 != 371%
    ]
    fractions.sort(key=_magnitude)
    ev.fractions = fractions
    ev.fraction_magnitudes = [abs(f.value) for f in fractions]
    return ev


def _fact(
    value: float,
    event: str,
    tool: str,
    key: str,
    ticker: str | None,
    percent: bool,
    signed: bool,
    decimals: int,
    period: Period | None,
    bound: int = 0,
    span: Span | None = None,
    origin: int = 0,
) -> Fact:
    """A `Fact` without the generated constructor's keyword handling (it is built per number)."""
    return tuple.__new__(
        Fact,
        (value, event, tool, key, ticker, percent, signed, decimals, period, bound, span, origin),
    )


def _magnitude(fact: Fact) -> float:
    return abs(fact.value)


class _Walker:
    """One pass over the results of a trace: JSON numbers are taken as they are, strings are read
    once per distinct string (`read_text`) and filed once per event."""

    __slots__ = (
        "arithmetic",
        "asked",
        "calc",
        "dates",
        "ev",
        "event",
        "facts",
        "news",
        "percent_all",
        "read",
        "span",
        "spans",
        "tool",
    )

    def __init__(self, ev: Evidence) -> None:
        self.ev = ev
        self.facts: list[Fact] = []
        self.dates: dict[DateReading, dict[str, bool]] = {}
        """Per date, the events that hold it and whether each names it only as a base quarter."""
        self.read: set[tuple[str, str]] = set()
        self.spans: dict[str, Span] = {}
        """The span of each key of the dict being walked (`spans_of`)."""
        self.span: Span | None = None
        self.event = self.tool = ""
        self.calc = self.news = self.percent_all = self.arithmetic = False
        self.asked: tuple[date, ...] = ()

    def start(self, event: str, tool: str, asked: tuple[date, ...] = ()) -> None:
        self.event, self.tool, self.asked = event, tool, asked
        self.spans, self.span = {}, None
        self.calc = tool in CALCULATING_TOOLS
        traits = traits_of(tool)
        self.arithmetic = traits.arithmetic
        self.percent_all = self.calc and (traits.arithmetic or traits.sql)
        self.news = tool in NEWS_TOOLS or event == QUESTION

    def add_date(self, when: DateReading, tied: bool) -> None:
        events = self.dates.get(when)
        if events is None:
            self.dates[when] = {self.event: tied}
        else:
            events[self.event] = tied and events.get(self.event, True)

    def walk(self, node: Any, key: str, ticker: str | None) -> None:
        kind = node.__class__
        if kind is dict:
            self.walk_dict(node, ticker)
        elif kind is str:
            self.text(node, key, ticker)
        elif kind is float or kind is int:
            self.number(node, key, ticker)
        elif kind is list or kind is tuple:
            self.facts.append(
                _fact(
                    float(len(node)), self.event, self.tool, "count", None, False, False, -1, None
                )
            )
            for item in node:
                self.walk(item, key, ticker)
        elif node is None or kind is bool:
            return
        elif isinstance(node, dict):
            self.walk_dict(node, ticker)
        elif isinstance(node, str):
            self.text(str(node), key, ticker)
        elif isinstance(node, int | float):
            self.number(node, key, ticker)
        elif isinstance(node, list | tuple):
            self.walk(list(node), key, ticker)

    def walk_dict(self, node: dict[Any, Any], ticker: str | None) -> None:
        node = _rows_as_dicts(node)
        own = node.get("ticker")
        if own.__class__ is str and own:
            ticker = own.upper()
            self.ev.tickers.setdefault(ticker, set()).add(self.event)
            self.ev.called.add(ticker)
        headline = node.get("headline")
        if headline.__class__ is str:
            session, published = node.get("session"), node.get("published_at")
            if session.__class__ is str:
                self.ev.sessions.setdefault(headline, set()).add(session.lower())
            if published.__class__ is str:
                self.ev.published.setdefault(headline, set()).add(published)
        outer_spans, outer_span = self.spans, self.span
        self.spans = spans_of(node, self.asked) or outer_spans
        kind = node.get("kind")
        named = kind.lower() if kind.__class__ is str and kind.lower() in EVENT_KINDS else ""
        if node.get("events").__class__ is list:
            start, end = _day_of(node.get("start")), _day_of(node.get("end"))
            if start and end:
                self.ev.event_windows.append((ticker, start, end))
        if named:
            if (day := _day_of(node.get("date"))) is not None:
                self.ev.event_dates.setdefault((ticker, named), []).append(day)
            self.event_day(node.get("date"), (ticker, named), self.ev.event_days, first=True)
            self.event_day(node.get("announced_at"), (ticker, named), self.ev.announced_days)
        for k, value in node.items():
            name = k.lower() if k.__class__ is str else str(k).lower()
            if name == "expression" and self.arithmetic:
                continue  # the model's own input, echoed: its numbers vouch for nothing
            if named and name == "value":
                name = named  # an event's value is its dividend, earnings or split figure
            self.span = self.spans.get(name, outer_span if self.spans is outer_spans else None)
            kind = value.__class__
            if kind is float or kind is int:  # the common leaves, without a further call
                self.number(value, name, ticker)
            elif kind is str:
                self.text(value, name, ticker)
            elif value is not None:
                self.walk(value, name, ticker)
        self.spans, self.span = outer_spans, outer_span

    @staticmethod
    def event_day(
        when: Any,
        event: tuple[str | None, str],
        index: dict[DateReading, set[tuple[str | None, str]]],
        first: bool = False,
    ) -> None:
        """File an event under its day, with and without the year (an announcement time before
        05:00 UTC also under the US day before; an event's date only under itself)."""
        if when.__class__ is not str or (iso := _ISO_DATE.fullmatch(when)) is None:
            return
        days = _iso_days(iso)
        for (year, month, day), _ in days[:1] if first else days:
            for key in ((year, month, day), (None, month, day)):
                index.setdefault(key, set()).add(event)

    def number(self, value: float, key: str, ticker: str | None) -> None:
        if value == value and abs(value) != _INF:
            percent = self.percent_all or (self.calc and _percent_key(key))
            self.facts.append(
                _fact(
                    float(value),
                    self.event,
                    self.tool,
                    key,
                    ticker,
                    percent,
                    True,
                    -1,
                    None,
                    0,
                    self.span,
                )
            )

    def text(self, text: str, key: str, ticker: str | None) -> None:
        event = self.event
        self.ev.texts.append((text, event))
        if self.news:
            self.ev.headlines[(text, event)] = None
            if event != QUESTION:
                self.ev.news_tickers.setdefault(text, set()).add(ticker)
        reading = read_text(text)
        if reading.numbers:
            percent_ok = self.calc or event == QUESTION
            tool, facts = self.tool, self.facts
            origin = 2 if self.news and not traits_of(tool).sql and event != QUESTION else 1
            for value, decimals, signed, unit, period, bound in reading.numbers:
                facts.append(
                    _fact(
                        value,
                        event,
                        tool,
                        key,
                        ticker,
                        unit and percent_ok,
                        signed,
                        decimals,
                        period,
                        bound,
                        None,
                        origin,
                    )
                )
        if reading.empty:
            return
        pair = (text, event)
        if pair in self.read:
            return
        self.read.add(pair)
        for symbol in reading.tickers:
            self.ev.tickers.setdefault(symbol, set()).add(event)
        for when, tied in reading.dates:
            self.add_date(when, tied)


def _day_of(value: Any) -> date | None:
    if value.__class__ is not str or _ISO_DATE.fullmatch(value) is None:
        return None
    try:
        return date.fromisoformat(value[:10])
    except ValueError:
        return None


def _file_absence(walker: _Walker, args: Any, message: str) -> None:
    """A failed call vouches for what the draft may say about the failure: the dates of its
    arguments and of its error ("2024-12-28 is not a session; the last one is 2024-12-27"),
    never for the data it was meant to bring."""
    if isinstance(args, dict):
        for value in args.values():
            if isinstance(value, str) and _ISO_DATE.fullmatch(value):
                for when, _ in read_text(value).dates:
                    walker.add_date(when, False)
    for when, _ in read_text(message).dates:
        walker.add_date(when, False)
    walker.ev.texts.append((message, walker.event))


def _file_dates(ev: Evidence, dates: dict[DateReading, dict[str, bool]]) -> None:
    """File each date under every detail a claim may give of it (day, month, quarter, year);
    `free_dates` leaves out the events that name a quarter only as a comparison base."""
    for when, events in dates.items():
        keys = _date_keys(when)
        _file(ev.dates, keys, events)
        untied = [e for e, tied in events.items() if not tied]
        if untied:
            _file(ev.free_dates, keys, untied)


def _file(
    index: dict[DateReading, set[str]], keys: Iterable[DateReading], events: Iterable[str]
) -> None:
    for key in keys:
        held = index.get(key)
        if held is None:
            index[key] = set(events)
        else:
            held.update(events)


_INF = float("inf")
_PRICE_CHANGES = frozenset({"change", "change_pct"})


@lru_cache(maxsize=1024)
def _percent_key(key: str) -> bool:
    return bool(_PERCENT_KEY.search(key))


@lru_cache(maxsize=1024)
def _in_percent(key: str) -> bool:
    return bool(_PERCENT_UNIT_KEY.search(key))


def clear_caches() -> None:
    """Forget the strings read so far (memory, or a cold-start measurement)."""
    for cached in (read_text, _normalised, _date_keys, _percent_key, _in_percent):
        cached.cache_clear()
    clear_claim_caches()


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


class TextReading(NamedTuple):
    """What one result string vouches for, independent of the event that holds it."""

    tickers: tuple[str, ...]
    dates: tuple[tuple[DateReading, bool], ...]
    """Each date named, and whether the string names it only as a comparison base (a quarter)."""
    numbers: tuple[tuple[float, int, bool, bool, Period | None, int], ...]
    """(value, decimals written, signed, has a percent-like unit, period, bound)."""
    empty: bool
    """Whether the string vouches for no date and no ticker."""


_NOTHING = TextReading((), (), (), True)


@lru_cache(maxsize=8192)
def read_text(text: str) -> TextReading:
    """Dates, tickers and numbers written in a string; cached, since results repeat strings."""
    iso = _ISO_DATE.fullmatch(text)
    if iso:
        days = _iso_days(iso)
        return TextReading((), days, (), not days)
    tickers = tuple(_TOKEN.findall(text))
    if not any(ch.isdigit() for ch in text):
        return TextReading(tickers, (), (), not tickers) if tickers else _NOTHING
    dates: list[DateReading] = []
    tied: set[DateReading] = set()
    free: set[DateReading] = set()
    numbers: list[tuple[float, int, bool, bool, Period | None, int]] = []
    claims = extract_facts(text)
    years = _quarter_years(claims)
    for claim in claims:
        if claim.kind == "date":
            dates += claim.dates
            (tied if claim.tied else free).update(claim.dates)
        elif claim.readings:
            unit, signed = bool(claim.unit), claim.sign != 0
            period = claim.period
            if period is not None and period.year is None and period.quarter in years:
                period = period._replace(year=years[period.quarter].year)
            for value, decimals in claim.readings:
                scaled = value * claim.scale * (claim.sign or 1)
                numbers.append((scaled, decimals, signed, unit, period, claim.bound))
                if claim.scale != 1.0:
                    numbers.append((value, decimals, False, unit, period, claim.bound))
    only_base = tied - free
    named = tuple((when, when in only_base) for when in dates)
    return TextReading(tickers, named, tuple(numbers), not (tickers or named))


def _quarter_years(claims: list[Claim]) -> dict[int, Period]:
    """The periods a source means by the quarters it names without a year ("Third quarter
    adjusted EPS was $0.34"): the one year it names that quarter with for its own figures (not as
    a base), where there is exactly one."""
    years: dict[int, set[int]] = {}
    for claim in claims:
        if claim.kind != "date" or claim.tied:
            continue
        for year, month, day in claim.dates:
            if year is not None and month > QUARTER_BASE and day is None:
                years.setdefault(month - QUARTER_BASE, set()).add(year)
    return {q: Period(next(iter(ys)), q) for q, ys in years.items() if len(ys) == 1}


def _iso_days(m: re.Match[str]) -> tuple[tuple[DateReading, bool], ...]:
    """The calendar day of an ISO date or timestamp (and the US day before, before 05:00 UTC)."""
    try:
        day = date(int(m.group(1)), int(m.group(2)), int(m.group(3)))
    except ValueError:
        return ()
    hour, zone = m.group(4), m.group(5)
    if hour is not None and zone in ("Z", "+00:00", "+0000") and int(hour) < 5:
        before = day - timedelta(days=1)
        return (
            ((day.year, day.month, day.day), False),
            ((before.year, before.month, before.day), False),
        )
    return (((day.year, day.month, day.day), False),)


@lru_cache(maxsize=4096)
def _date_keys(reading: DateReading) -> tuple[DateReading, ...]:
    """Every detail a claim may give of a date: day, month, quarter, year."""
    year, month, day = reading
    keys: set[DateReading] = {(year, month, day), (None, month, day), (year, month, None)}
    if month <= QUARTER_BASE:
        quarter = QUARTER_BASE + (month - 1) // 3 + 1
        keys |= {(year, quarter, None), (None, quarter, None)}
    if year is not None:
        keys.add((year, 0, None))
    return tuple(k for k in keys if not (k[0] is None and k[2] is None and k[1] <= QUARTER_BASE))


@lru_cache(maxsize=8192)
def _normalised(text: str) -> str:
    return normalise_headline(text)


_ELLIPSIS = re.compile(r"\s*(?:\.\.\.|…|\[\s*(?:\.\.\.|…)\s*\]|\(\s*(?:\.\.\.|…)\s*\))\s*")
"""A marked cut in a quote: "...", "…", "[...]", "(…)"."""


def quoted_by(quote: str, whole: bool = True) -> Callable[[str], bool]:
    """Whether a string is the one a draft quotes: the quote is all of it (case, quote marks,
    spacing and end punctuation aside), or its pieces between marked cuts ("Acme beats Q3…",
    "…beats Q3 estimates", "Acme … estimates") come in it in order, each cut at a word's end.
    With `whole` False (the question, not a source), any piece of the string will do."""
    pieces = [normalise_headline(p) for p in _ELLIPSIS.split(quote.strip())]
    if len(pieces) == 1:
        text = pieces[0]
        if not whole:
            return lambda headline: bool(text) and text in _normalised(headline)
        return lambda headline: bool(text) and text == _normalised(headline)
    if sum(len(p.split()) for p in pieces) < 3:
        return lambda headline: False  # too little to name a headline
    return lambda headline: _pieces_in(_normalised(headline), pieces, whole)


def _pieces_in(headline: str, pieces: list[str], whole: bool) -> bool:
    """The pieces of a quote cut with ellipses come in the headline in order; an empty first
    or last piece is a cut at the start or end, otherwise the headline starts or ends there."""
    at = 0
    last = len(pieces) - 1
    for i, piece in enumerate(pieces):
        if not piece:
            continue
        found = headline.find(piece, at)
        while found >= 0 and not _word_cut(headline, found, found + len(piece)):
            found = headline.find(piece, found + 1)
        if found < 0 or (whole and i == 0 and found != 0):
            return False
        at = found + len(piece)
        if whole and i == last and at != len(headline):
            return False
    return True


def _word_cut(headline: str, start: int, end: int) -> bool:
    """A piece starts and ends at word boundaries: "EPS of $0.3…" is not in "EPS of $0.38"."""
    before = start == 0 or not headline[start - 1].isalnum()
    return before and (end == len(headline) or not headline[end].isalnum())


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

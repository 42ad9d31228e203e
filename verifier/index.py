"""The index of one trace: one walk over its results, filing every fact, date, ticker, headline and
failure into its `Evidence`."""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterable
from dataclasses import replace
from datetime import date
from typing import Any

from contract.tools import traits_of
from verifier.claim import BENCHMARK_SUBJECT, PORTFOLIO_SUBJECT, DateReading
from verifier.evidence import Evidence
from verifier.grammar.events import EVENT_KINDS
from verifier.readings import TextReading, date_keys, iso_days, read_text
from verifier.reuse import per_trace
from verifier.spans import asked_dates, spans_of
from verifier.times import Span
from verifier.trace_facts import (
    CALCULATING_TOOLS,
    FROM_FAILURE,
    FROM_NEWS,
    FROM_TEXT,
    ISO_DATE,
    MONEY,
    NEWS_TOOLS,
    QUESTION,
    Fact,
    Failure,
    in_percent,
    magnitude,
    make_fact,
    percent_key,
)
from verifier.trace_view import TraceView


def index_trace(trace: TraceView) -> Evidence:
    """Index every successful result, every failure and the question of one trace. The events'
    index is built once per trace and reused by every draft verified over it (the evidence is
    read, never changed); a question without figures is added to it per draft."""
    key = tuple((e.id, e.tool) for e in trace.events)
    objects = [part for e in trace.events for part in (e.args, e.result, e.error)]
    reading = read_text(trace.question)
    if reading.numbers:  # its figures sort among the events' own: index it with them
        return _with_question_figures((trace.question, key), objects, trace)
    return _add_question(_events_only(key, objects, trace), trace.question, reading)


@per_trace
def _with_question_figures(trace: TraceView) -> Evidence:
    return _index(trace, True)


@per_trace
def _events_only(trace: TraceView) -> Evidence:
    return _index(trace, False)


def _add_question(base: Evidence, question: str, reading: TextReading) -> Evidence:
    """The events' index with a question that states no figure: what `_index` files for it
    (its text, tickers and dates, a fact per year it names), in new containers."""
    pair = (question, QUESTION)
    headlines = dict(base.headlines)
    headlines[pair] = None
    ev = replace(
        base,
        texts=[*base.texts, pair],
        headlines=headlines,
        question_money=MONEY.search(question) is not None,
    )
    if reading.empty:
        return ev
    if reading.tickers:
        ev.tickers = dict(base.tickers)
        for symbol in reading.tickers:
            ev.tickers[symbol] = ev.tickers.get(symbol, set()) | {QUESTION}
    if not reading.dates:
        return ev
    whens: dict[DateReading, bool] = {}
    for when, tied in reading.dates:
        whens[when] = tied and whens.get(when, True)
    ev.dates, ev.free_dates = dict(base.dates), dict(base.free_dates)
    years: set[int] = set()
    for when, tied in whens.items():
        for key in date_keys(when):
            ev.dates[key] = ev.dates.get(key, set()) | {QUESTION}
            if not tied:
                ev.free_dates[key] = ev.free_dates.get(key, set()) | {QUESTION}
            year, month, day = key
            if year is not None and month == 0 and day is None:
                years.add(year)
    if years:  # a year's facts close its run of equal magnitudes, one per event in order
        ev.facts, ev.magnitudes = list(base.facts), list(base.magnitudes)
        for year in sorted(years):
            end = bisect_right(ev.magnitudes, abs(float(year)))
            held = base.dates.get((year, 0, None), set())
            ev.facts[end - len(held) : end] = _year_facts(year, held | {QUESTION})
            ev.magnitudes.insert(end, abs(float(year)))
    return ev


def _year_facts(year: int, events: Iterable[str]) -> list[Fact]:
    """A year the trace names vouches for the year as a figure ("in 2024")."""
    return [
        make_fact(float(year), e, "", "year", None, False, False, -1, None) for e in sorted(events)
    ]


def _index(trace: TraceView, question: bool) -> Evidence:
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
                if isinstance(value, str) and ISO_DATE.fullmatch(value):
                    for when, _ in read_text(value).dates:
                        walker.add_date(when, False)
        walker.walk(event.result, "", ticker)
    if question:
        walker.start(QUESTION, "")
        walker.calc = True
        walker.text(trace.question, "", None)
        ev.question_money = MONEY.search(trace.question) is not None
    ev.failures = _failures(trace)
    _file_dates(ev, walker.dates)
    facts = walker.facts
    for (year, month, day), events in ev.dates.items():
        if year is not None and month == 0 and day is None:
            facts += _year_facts(year, events)  # in event order: whatever the seed of str hashes
    facts.sort(key=magnitude)
    ev.facts = facts
    for f in facts:
        if f.ticker and f.key in _PRICE_CHANGES and f.span and f.span.start and not f.origin:
            ev.changes.setdefault(f.ticker, []).append(f)
    ev.magnitudes = [abs(f.value) for f in facts]
    fractions = [
        make_fact(
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
        and not in_percent(f.key)
        and (not traits_of(f.tool).sql or percent_key(f.key))  # a SQL `change` of 3.71 != 371%
    ]
    fractions.sort(key=magnitude)
    ev.fractions = fractions
    ev.fraction_magnitudes = [abs(f.value) for f in fractions]
    return ev


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
        "rows",
        "span",
        "tool",
    )

    def __init__(self, ev: Evidence) -> None:
        self.ev = ev
        self.facts: list[Fact] = []
        self.dates: dict[DateReading, dict[str, bool]] = {}
        """Per date, the events that hold it and whether each names it only as a base quarter."""
        self.read: set[tuple[str, str]] = set()
        self.span: Span | None = None
        self.rows: dict[str, Span] | None = None
        """The spans a result names for the rows under it that name no session of their own
        (`get_portfolio_ranks`' positions: each row's day return is for the result's session)."""
        self.event = self.tool = ""
        self.calc = self.news = self.percent_all = self.arithmetic = False
        self.asked: tuple[date, ...] = ()

    def start(self, event: str, tool: str, asked: tuple[date, ...] = ()) -> None:
        self.event, self.tool, self.asked = event, tool, asked
        self.span = self.rows = None
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
                make_fact(
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
        elif "ticker" in node:  # a subject that is no ticker: the benchmark's universe
            ticker = BENCHMARK_SUBJECT
        elif "portfolio_id" in node:  # the portfolio's own figures, whatever the call's ticker
            ticker = PORTFOLIO_SUBJECT
        headline = node.get("headline")
        if headline.__class__ is str:
            session, published = node.get("session"), node.get("published_at")
            if session.__class__ is str:
                self.ev.sessions.setdefault(headline, set()).add(session.lower())
            if published.__class__ is str:
                self.ev.published.setdefault(headline, set()).add(published)
        outer_span, outer_rows = self.span, self.rows
        named_session = "session" in node or "date" in node or "start_session" in node
        spans = spans_of(node, self.asked) if named_session else self.rows
        self.rows = spans
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
            if spans:
                self.span = spans.get(name)
            kind = value.__class__
            if kind is float or kind is int:  # the common leaves, without a further call
                self.number(value, name, ticker)
            elif kind is str:
                self.text(value, name, ticker)
            elif value is not None:
                self.walk(value, name, ticker)
        self.span, self.rows = outer_span, outer_rows

    @staticmethod
    def event_day(
        when: Any,
        event: tuple[str | None, str],
        index: dict[DateReading, set[tuple[str | None, str]]],
        first: bool = False,
    ) -> None:
        """File an event under its day, with and without the year (an announcement time before
        05:00 UTC also under the US day before; an event's date only under itself)."""
        if when.__class__ is not str or (iso := ISO_DATE.fullmatch(when)) is None:
            return
        days = iso_days(iso)
        for (year, month, day), _ in days[:1] if first else days:
            for key in ((year, month, day), (None, month, day)):
                index.setdefault(key, set()).add(event)

    def number(self, value: float, key: str, ticker: str | None) -> None:
        if value == value and abs(value) != _INF:
            percent = self.percent_all or (self.calc and percent_key(key))
            self.facts.append(
                make_fact(
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
            news = self.news and not traits_of(tool).sql and event != QUESTION
            origin = FROM_NEWS if news else FROM_TEXT
            for value, decimals, signed, unit, period, bound in reading.numbers:
                facts.append(
                    make_fact(
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
    if value.__class__ is not str or ISO_DATE.fullmatch(value) is None:
        return None
    try:
        return date.fromisoformat(value[:10])
    except ValueError:
        return None


def _file_absence(walker: _Walker, args: Any, message: str) -> None:
    """A failed call vouches for what the draft may say about the failure: the dates of its
    arguments and of its error ("2024-12-28 is not a session; the last one is 2024-12-27") and
    the counts its error gives, never for the data it was meant to bring."""
    if isinstance(args, dict):
        for value in args.values():
            if isinstance(value, str) and ISO_DATE.fullmatch(value):
                for when, _ in read_text(value).dates:
                    walker.add_date(when, False)
    reading = read_text(message)
    for when, _ in reading.dates:
        walker.add_date(when, False)
    for value, decimals, signed, _, _, _ in reading.numbers:  # "12 tickers are in the table"
        walker.facts.append(
            make_fact(value, walker.event, walker.tool, "error", None, False, signed, decimals,
                      None, 0, None, FROM_FAILURE)
        )  # fmt: skip
    walker.ev.texts.append((message, walker.event))


def _file_dates(ev: Evidence, dates: dict[DateReading, dict[str, bool]]) -> None:
    """File each date under every detail a claim may give of it (day, month, quarter, year);
    `free_dates` leaves out the events that name a quarter only as a comparison base."""
    for when, events in dates.items():
        keys = date_keys(when)
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

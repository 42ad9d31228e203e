"""The index of one trace: one walk over its results, filing every fact, date, ticker, headline and
failure into its `Evidence`."""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Iterable
from dataclasses import fields
from datetime import date
from itertools import compress, repeat
from operator import attrgetter, itemgetter
from typing import Any, NamedTuple

from contract.tools import traits_of
from verifier.claim import BENCHMARK_SUBJECT, PORTFOLIO_SUBJECT, DateReading
from verifier.coverage import NAME_KEYS, names_in
from verifier.evidence import Evidence
from verifier.grammar.events import EVENT_KINDS
from verifier.readings import TextReading, arg_dates, date_keys, iso_days, read_text
from verifier.reuse import per_trace
from verifier.spans import asked_dates, spans_of
from verifier.times import Span
from verifier.trace_facts import (
    CALCULATING_TOOLS,
    FROM_FAILURE,
    FROM_NEWS,
    FROM_TEXT,
    ISO_DATE,
    NEWS_TOOLS,
    QUESTION,
    Fact,
    Failure,
    fraction_key,
    magnitude,
    make_fact,
    percent_key,
    writes_money,
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
    ev = _copy(base)  # as `dataclasses.replace`, without its per-field checks
    ev.runs, ev.headlines = [*base.runs, (QUESTION, [question])], headlines
    ev.question_money = writes_money(question)
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
            start = end - len(base.dates.get((year, 0, None), ()))
            at = bisect_left([f.event for f in ev.facts[start:end]], QUESTION)
            ev.facts.insert(start + at, _year_facts(year, (QUESTION,))[0])
            ev.magnitudes.insert(end, abs(float(year)))
    return ev


_FIELDS = attrgetter(*(f.name for f in fields(Evidence)))
"""Every field of an `Evidence`, in the order its constructor takes them."""


def _copy(base: Evidence) -> Evidence:
    return Evidence(*_FIELDS(base))


def _year_facts(year: int, events: Iterable[str]) -> list[Fact]:
    """A year the trace names vouches for the year as a figure ("in 2024")."""
    value = float(year)
    return [
        _new(Fact, (value, e, "", "year", None, False, False, -1, None, 0, None, 0))
        for e in sorted(events)
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
            if event.result is not None:  # a failed call's result still names what it names
                names_in(event.result, ev.names)
            walker.start(event.id, event.tool)
            _file_absence(walker, args, event.failure)
            continue
        walker.start(event.id, event.tool, asked_dates(args))
        if isinstance(args, dict):
            for value in args.values():
                if isinstance(value, str):
                    for when in arg_dates(value):
                        walker.add_date(when, False)
        walker.walk(event.result, "", ticker)
    if question:
        walker.start(QUESTION, "")
        walker.calc = True
        walker.text(trace.question, "", None)
        ev.question_money = writes_money(trace.question)
    ev.failures = _failures(trace)
    years = _file_dates(ev, walker.dates)
    facts = walker.facts
    for year in years:  # in event order: whatever the seed of str hashes
        facts += _year_facts(year, ev.dates[(year, 0, None)])
    _file_facts(ev, facts)
    return ev


def _file_facts(ev: Evidence, facts: list[Fact]) -> None:
    """Sort the facts by magnitude (ties in walk order) and file the price changes and the
    fractions (a signed ratio, also as a percentage) they hold."""
    unsorted = list(map(abs, map(_VALUE, facts)))
    order = sorted(range(len(facts)), key=unsorted.__getitem__)  # stable, as facts.sort
    ev.facts = facts = list(map(facts.__getitem__, order))
    ev.magnitudes = sorted(unsorted)
    changes = ev.changes
    keyed = compress(facts, map(_PRICE_CHANGES.__contains__, map(_KEY, facts)))
    for f in keyed:  # a change's span has a start; 4: ticker, 10: span, 11: origin
        if f[4] and f[10] and f[10][0] and not f[11]:
            held = changes.get(f[4])
            if held is None:
                changes[f[4]] = [f]
            else:
                held.append(f)
    fractions = [
        _new(Fact, (f[0] * 100, *f[1:5], True, f[6], -1, *f[8:]))
        for f in compress(facts, map(_PERCENT, facts))  # 6: signed
        if f[6] and f[3] and -10 <= f[0] <= 10 and fraction_key(f[3], f[2])
    ]
    fractions.sort(key=magnitude)  # already in order of the facts' magnitudes: one pass
    ev.fractions = fractions
    ev.fraction_magnitudes = [abs(f[0]) for f in fractions]


class _Walker:
    """One pass over the results of a trace: JSON numbers are taken as they are, strings are read
    once per distinct string (`read_text`) and filed once per event. It also gathers the names
    the results give (`NAME_KEYS`), so the closed world's check needs no second walk."""

    __slots__ = (
        "arithmetic",
        "asked",
        "calc",
        "dates",
        "ev",
        "event",
        "facts",
        "hidden",
        "idle",
        "news",
        "per_event",
        "percent_all",
        "rows",
        "run",
        "seen",
        "span",
        "tool",
    )

    def __init__(self, ev: Evidence) -> None:
        self.ev = ev
        self.facts: list[Fact] = []
        self.dates: dict[DateReading, dict[str, bool]] = {}
        """Per date, the events that hold it and whether each names it only as a base quarter."""
        self.seen: set[str] = set()
        """The strings of the current event filed so far that are filed again when repeated
        (news, numbers)."""
        self.idle: set[str] = set()
        """The strings of the current event whose repetition files nothing more (no news, no
        number)."""
        self.run: list[str] = []
        """The strings of the current event, in the order first met (`Evidence.runs`)."""
        self.per_event: dict[str, tuple[set[str], set[str]]] = {}
        """`seen` and `idle` of each event id (ids may repeat: they share theirs)."""
        self.span: Span | None = None
        self.rows: dict[str, Span] | None = None
        """The spans a result names for the rows under it that name no session of their own
        (`get_portfolio_ranks`' positions: each row's day return is for the result's session)."""
        self.event = self.tool = ""
        self.calc = self.news = self.percent_all = self.arithmetic = False
        self.asked: tuple[date, ...] = ()
        self.hidden = 0
        """How deep the walk is inside a tuple: names there are not the results' (see
        `verifier.coverage.names_in`, which reads dicts and lists only)."""

    def start(self, event: str, tool: str, asked: tuple[date, ...] = ()) -> None:
        self.event, self.tool, self.asked = event, tool, asked
        held = self.per_event.get(event)
        if held is None:
            held = self.per_event[event] = (set(), set())
        self.seen, self.idle = held
        self.run = []
        self.ev.runs.append((event, self.run))
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
                _new(Fact, (float(len(node)), self.event, self.tool, "count", None, False, False,
                            -1, None, 0, None, 0))
            )  # fmt: skip
            self.hidden += kind is tuple
            idle, plain, event = self.idle, not self.news, self.event
            run, tickers = self.run, self.ev.tickers
            for item in node:  # the common items without a further dispatch
                item_kind = item.__class__
                if item_kind is str:
                    if item in idle:
                        continue
                    reading = read_text(item)
                    if plain and not reading.numbers:  # as `text`, inline
                        idle.add(item)
                        run.append(item)
                        for symbol in reading.tickers:  # as `file_names`
                            held = tickers.get(symbol)
                            if held is None:
                                tickers[symbol] = {event}
                            else:
                                held.add(event)
                        if reading.dates:
                            self.file_dates(reading)
                    else:
                        self.text(item, key, ticker)
                elif item_kind is dict:
                    self.walk_dict(item, ticker)
                else:
                    self.walk(item, key, ticker)
            self.hidden -= kind is tuple
        elif node is None or kind is bool:
            return
        elif isinstance(node, dict):
            self.walk_dict(node, ticker)
        elif isinstance(node, str):
            self.text(str(node), key, ticker)
        elif isinstance(node, int | float):
            self.number(node, key, ticker)
        elif isinstance(node, list | tuple):
            self.hidden += isinstance(node, tuple)
            self.walk(list(node), key, ticker)
            self.hidden -= isinstance(node, tuple)

    def walk_dict(self, node: dict[Any, Any], ticker: str | None) -> None:
        ev = self.ev
        names = ev.names if node.__class__ is not _Row and not self.hidden else None
        shape = _SHAPES.get(keys := tuple(node))
        if shape is None:
            shape = _shape(keys)
        if shape.sql and (keyed := _rows_as_dicts(node)) is not node:
            node = keyed
            shape = _SHAPES.get(keys := tuple(node)) or _shape(keys)
        if shape.ticker:
            own = node["ticker"]
            if own.__class__ is str and own:
                ticker = own.upper()
                ev.tickers.setdefault(ticker, set()).add(self.event)
                ev.called.add(ticker)
            else:  # a subject that is no ticker: the benchmark's universe
                ticker = BENCHMARK_SUBJECT
        elif shape.portfolio:  # the portfolio's own figures, whatever the call's ticker
            ticker = PORTFOLIO_SUBJECT
        named = self.special(node, shape, ticker) if shape.special else ""
        outer_span = span = self.span
        outer_rows = self.rows
        spans = spans_of(node, self.asked) if shape.session else outer_rows
        self.rows = spans
        add_fact = self.facts.append
        event, tool, calc, percent_all = self.event, self.tool, self.calc, self.percent_all
        idle, plain, run, tickers = self.idle, not self.news, self.run, ev.tickers
        if named or (shape.expression and self.arithmetic):
            self.walk_items(node, shape.plan, names, ticker, named, spans)
            self.span, self.rows = outer_span, outer_rows
            return
        plan = shape.plans[2 if percent_all else 1 if calc else 0]
        aligned = _aligned(shape, spans) if spans else repeat(span)
        values = node.values()  # as many as the plan's keys; `repeat` has no end
        for (name, percent, is_name), value, span in zip(plan, values, aligned, strict=False):
            kind = value.__class__
            if kind is float or kind is int:  # the common leaves, filed here (as `number`)
                if _NEG_INF < value < _INF:  # not NaN
                    add_fact(
                        _new(Fact, (value if kind is float else float(value), event, tool, name,
                                    ticker, percent, True, -1, None, 0, span, 0))
                    )  # fmt: skip
            elif kind is str:
                if is_name and names is not None:
                    names.append(value)
                if value in idle:
                    continue
                reading = read_text(value)
                if plain and not reading.numbers:  # as `text`, inline
                    idle.add(value)
                    run.append(value)
                    for symbol in reading.tickers:  # as `file_names`
                        held = tickers.get(symbol)
                        if held is None:
                            tickers[symbol] = {event}
                        else:
                            held.add(event)
                    if reading.dates:
                        self.file_dates(reading)
                else:
                    self.text(value, name, ticker)
            elif value is not None and kind is not bool:
                if is_name and names is not None and isinstance(value, str):
                    names.append(value)  # a subclass of str
                self.span = span
                self.walk(value, name, ticker)
        self.span, self.rows = outer_span, outer_rows

    def special(self, node: dict[Any, Any], shape: _Shape, ticker: str | None) -> str:
        """File what a headline, an event or an events window says beyond its figures; the
        event kind the dict is (its `value` is that kind's figure), or ""."""
        ev = self.ev
        headline = node.get("headline")
        if headline.__class__ is str:
            session, published = node.get("session"), node.get("published_at")
            if session.__class__ is str:
                ev.sessions.setdefault(headline, set()).add(session.lower())
            if published.__class__ is str:
                ev.published.setdefault(headline, set()).add(published)
        kind = node.get("kind")
        named = kind.lower() if kind.__class__ is str and kind.lower() in EVENT_KINDS else ""
        if node.get("events").__class__ is list:
            start, end = _day_of(node.get("start")), _day_of(node.get("end"))
            if start and end:
                ev.event_windows.append((ticker, start, end))
        if named:
            if (day := _day_of(node.get("date"))) is not None:
                ev.event_dates.setdefault((ticker, named), []).append(day)
            self.event_day(node.get("date"), (ticker, named), ev.event_days, first=True)
            self.event_day(node.get("announced_at"), (ticker, named), ev.announced_days)
        return named

    def walk_items(
        self,
        node: dict[Any, Any],
        plan: tuple[tuple[str, bool, bool], ...],
        names: list[str] | None,
        ticker: str | None,
        named: str,
        spans: dict[str, Span] | None,
    ) -> None:
        """The values of a dict that is an event (its `value` is its kind's figure) or holds an
        arithmetic call's echoed `expression`: `walk_dict`'s loop with those two cases."""
        ev = self.ev
        span = self.span
        add_fact = self.facts.append
        event, tool, calc, percent_all = self.event, self.tool, self.calc, self.percent_all
        skip_expression, idle = self.arithmetic, self.idle
        for (name, percent, is_name), value in zip(plan, node.values(), strict=True):
            if is_name and names is not None and isinstance(value, str):
                names.append(value)
            if skip_expression and name == "expression":
                if value.__class__ is not str and not self.hidden:
                    names_in(value, ev.names)
                continue  # the model's own input, echoed: its numbers vouch for nothing
            if named and name == "value":
                name = named  # an event's value is its dividend, earnings or split figure
                percent = percent_key(name)
            if spans:
                span = spans.get(name)
            kind = value.__class__
            if kind is float or kind is int:
                if value == value and value != _INF and value != _NEG_INF:
                    add_fact(
                        _new(Fact, (float(value), event, tool, name, ticker,
                                    percent_all or (calc and percent), True, -1, None, 0, span,
                                    0))
                    )  # fmt: skip
            elif kind is str:
                if value not in idle:
                    self.text(value, name, ticker)
            elif value is not None:
                self.span = span
                self.walk(value, name, ticker)

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
        reading = read_text(text)
        if self.news or reading.numbers:  # filed again when repeated
            first = text not in self.seen
            if first:
                self.seen.add(text)
                self.run.append(text)
        elif text in self.idle:  # walked as a whole result, past the walk's own check
            return
        else:  # its repetitions file nothing: the walk skips them
            first = True
            self.idle.add(text)
            self.run.append(text)
        if self.news:
            self.ev.headlines[(text, event)] = None
            if event != QUESTION:
                self.ev.news_tickers.setdefault(text, set()).add(ticker)
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
        if not reading.empty and first:
            self.file_names(reading)

    def file_names(self, reading: TextReading) -> None:
        """File the tickers and dates a string of the current event names."""
        event = self.event
        tickers = self.ev.tickers
        for symbol in reading.tickers:
            held = tickers.get(symbol)
            if held is None:
                tickers[symbol] = {event}
            else:
                held.add(event)
        if reading.dates:
            self.file_dates(reading)

    def file_dates(self, reading: TextReading) -> None:
        """File the dates a string of the current event names."""
        event, dates = self.event, self.dates
        for when, tied in reading.dates:  # as `add_date`
            named = dates.get(when)
            if named is None:
                dates[when] = {event: tied}
            else:
                named[event] = tied and named.get(event, True)


_new = tuple.__new__
_VALUE, _KEY, _PERCENT = itemgetter(0), itemgetter(3), itemgetter(5)


class _Shape(NamedTuple):
    """What a set of result keys asks of the walk (results of one tool share theirs)."""

    plan: tuple[tuple[str, bool, bool], ...]
    """Each key as a fact's key (case-folded), whether it holds a percentage (`percent_key`)
    and whether it holds a name (`NAME_KEYS`)."""
    sql: bool
    """`columns` and `rows`: a SQL result, keyed per row (`_rows_as_dicts`)."""
    ticker: bool
    portfolio: bool
    session: bool
    """A key that names a session: the dict's figures have spans (`spans_of`)."""
    special: bool
    """A key that a headline, an event or an events window has (`_Walker.special`)."""
    expression: bool
    plans: tuple[tuple[tuple[str, bool, bool], ...], ...]
    """`plan` with whether each key's number is a percentage for a call that computes nothing,
    one that computes, and an arithmetic or SQL call (every number)."""


_SHAPES: dict[tuple[Any, ...], _Shape] = {}
_SPECIAL = frozenset({"headline", "kind", "events"})
_SESSION = frozenset({"session", "date", "start_session"})


def _shape(keys: tuple[Any, ...]) -> _Shape:
    plan = []
    for key in keys:
        name = key.lower() if key.__class__ is str else str(key).lower()
        plan.append((name, percent_key(name), key in NAME_KEYS))
    if len(_SHAPES) >= 2048:
        _SHAPES.clear()
    _SHAPES[keys] = found = _Shape(
        tuple(plan),
        "columns" in keys and "rows" in keys,
        "ticker" in keys,
        "portfolio_id" in keys,
        not _SESSION.isdisjoint(keys),
        not _SPECIAL.isdisjoint(keys),
        any(name == "expression" for name, _, _ in plan),
        (
            tuple((name, False, is_name) for name, _, is_name in plan),
            tuple(plan),
            tuple((name, True, is_name) for name, _, is_name in plan),
        ),
    )
    return found


_ALIGNED: dict[tuple[int, int], tuple[_Shape, dict[str, Span], tuple[Span | None, ...]]] = {}
"""Per shape and spans of a dict (both shared, held here so their ids stay theirs), the span of
each of its keys in order."""


def _aligned(shape: _Shape, spans: dict[str, Span]) -> tuple[Span | None, ...]:
    held = _ALIGNED.get((id(shape), id(spans)))
    if held is not None and held[0] is shape and held[1] is spans:
        return held[2]
    if len(_ALIGNED) >= 4096:
        _ALIGNED.clear()
    found = tuple(spans.get(name) for name, _, _ in shape.plan)
    _ALIGNED[(id(shape), id(spans))] = (shape, spans, found)
    return found


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
    walker.run.append(message)


def _file_dates(ev: Evidence, dates: dict[DateReading, dict[str, bool]]) -> list[int]:
    """File each date under every detail a claim may give of it (day, month, quarter, year);
    `free_dates` leaves out the events that name a quarter only as a comparison base. Returns
    the years filed, in the order the index first holds them."""
    years: dict[int, None] = {}
    for when, events in dates.items():
        keys = date_keys(when)
        _file(ev.dates, keys, events)
        untied = [e for e, tied in events.items() if not tied]
        if untied:
            _file(ev.free_dates, keys, untied)
        for year, month, day in keys:
            if month == 0 and day is None and year is not None:
                years[year] = None
    return list(years)  # the order of their keys in `ev.dates`: first filed, first


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
_NEG_INF = -_INF

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
    return {**rest, "rows": [_Row(zip(names, r, strict=True)) for r in rows]}


class _Row(dict[str, Any]):
    """A SQL row keyed by column: the walk's own, not a dict of the result (no names there)."""


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

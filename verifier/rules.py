"""The rules: one function per reason code, each holding the draft's claims against the trace.

Every rule reads the same `Case` (claims already matched against the evidence once) and yields
the reasons it finds. The figure rules are exclusive for one claim: an unsupported figure is blamed
on a failed call when one explains it, and only a supported figure can be an uncomputed percentage
or go the wrong direction.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import date

from contract.reasons import ReasonCode
from verifier.claims import FIELDS, FIGURE_KINDS, QUARTER_BASE, Claim
from verifier.evidence import QUESTION, Evidence, Fact, Failure
from verifier.periods import periods_agree
from verifier.times import times_agree
from verifier.trace_view import TraceView
from verifier.verdict import Reason


@dataclass(slots=True)
class Finding:
    """A claim with what the evidence says about it."""

    claim: Claim
    facts: list[Fact]
    in_scope: list[Fact]
    supported_by: list[str]
    off_period: list[Fact] = dataclasses.field(default_factory=list)
    """Facts that match the figure but that the source states for another period."""
    misnamed: list[Fact] = dataclasses.field(default_factory=list)
    """Facts that match the figure but are another field than the draft calls it ("closed at"
    where the value is the previous close)."""
    turned: list[Fact] = dataclasses.field(default_factory=list)
    """Facts that match the figure but that the source writes as the other bound ("over 100"
    where the draft says "fewer than 100")."""
    wrong: str = ""
    """The part of the claim that no matching fact agrees with: "subject", "time" or "field"."""
    held: list[Fact] = dataclasses.field(default_factory=list)
    """The facts that match the figure but for another subject, time or field (see `wrong`)."""
    about: str = ""
    """What the trace holds instead, where no fact says it (a quote's news result)."""


@dataclass(slots=True)
class Case:
    """What every rule reads: the trace, its evidence, the draft's claims with their findings."""

    trace: TraceView
    evidence: Evidence
    findings: list[Finding]
    figures: list[Finding] = dataclasses.field(init=False)
    """The findings about figures, which four rules read."""

    def __post_init__(self) -> None:
        self.figures = [f for f in self.findings if f.claim.kind in FIGURE_KINDS]


def assess_claim(claim: Claim, evidence: Evidence) -> Finding:
    """Match one claim against the evidence, keeping the facts about the tickers it speaks of."""
    kind = claim.kind
    if kind in FIGURE_KINDS:
        return _assess_figure(claim, evidence)
    if kind == "date":
        return Finding(claim, [], [], evidence.match_date(claim, free=claim.bare_quarter))
    if kind == "ticker":
        return Finding(claim, [], [], sorted(_ticker_events(claim.symbol, evidence)))
    if kind == "move":
        return Finding(claim, [], [], [])
    return _assess_quote(claim, evidence)


def _assess_quote(claim: Claim, evidence: Evidence) -> Finding:
    """A quote is held by the news results that hold it whole (or with marked cuts) for a ticker
    its sentence names; one held only for other tickers is the wrong subject."""
    events = evidence.match_headline(claim)
    if not events or not claim.scope or any(e == QUESTION for e in events):
        return Finding(claim, [], [], events)
    tickers = evidence.quote_tickers(claim)
    if None in tickers or tickers & claim.scope:
        return Finding(claim, [], [], events)
    others = ", ".join(sorted(t for t in tickers if t))
    return Finding(claim, [], [], [], wrong="subject", about=f"a news result for {others}")


MARKET_FIELDS = frozenset(
    {"close", "previous_close", "market_value", "day_pnl", "day_change", "contribution"}
)
"""Fields about a price, a change or a position: only a result's structure vouches for them."""
ANNOUNCED_FIELDS = frozenset({"dividend", "earnings"})
"""Fields a news headline may vouch for ("declares quarterly dividend of $0.24"); a number in a
headline supports no other figure."""


def _assess_figure(claim: Claim, evidence: Evidence) -> Finding:
    """Bind the figure: value at its precision, then subject, period, time, bound and field; the
    first part no matching fact agrees with is what is wrong with it."""
    if claim.name and claim.name.split()[0] not in evidence.called:
        named = evidence.match_name(claim)
        return Finding(claim, named, named, [f.event for f in named])
    market = claim.field in MARKET_FIELDS
    announced = claim.field in ANNOUNCED_FIELDS
    facts = [
        f
        for f in evidence.match_figure(claim)
        if f.origin == 0 or (f.origin == 1 and not market) or announced or f.event == QUESTION
    ]
    if claim.kind == "money" and facts and not evidence.question_money:
        facts = [f for f in facts if f.event != QUESTION]  # "$30" is not "30 days"
    off_period: list[Fact] = []
    period = claim.period
    if period is not None and facts:
        agreeing = [f for f in facts if periods_agree(period, f.period)]
        if len(agreeing) != len(facts):
            off_period = [f for f in facts if not periods_agree(period, f.period)]
            facts = agreeing
    scope = claim.scope
    in_scope = [f for f in facts if f.ticker is None or f.ticker in scope] if scope else facts
    if facts and not in_scope and not off_period:
        return Finding(claim, facts, [], [], wrong="subject", held=facts)
    timed = [f for f in in_scope if times_agree(claim.time, f.span)]
    if in_scope and not timed and _known(claim, evidence):
        return Finding(claim, facts, [], [], off_period, wrong="time", held=in_scope)
    in_scope = timed or in_scope
    if claim.bound and in_scope:
        against = [f for f in in_scope if f.bound == -claim.bound or _beyond(claim, f)]
        if len(against) == len(in_scope):
            return Finding(claim, facts, [], [], off_period, turned=against)
    if claim.field and in_scope and _misnamed(claim, in_scope):
        return Finding(claim, facts, [], [], off_period, wrong="field", held=in_scope)
    if claim.points and in_scope:
        differences = [f for f in in_scope if not _RATE_KEY.search(f.key) or f.origin]
        if not differences:
            return Finding(claim, facts, [], [], off_period, wrong="field", held=in_scope)
        in_scope = differences
    preferred = [f for f in in_scope if f.percent] if claim.unit else in_scope
    supported_by = list(dict.fromkeys([f.event for f in preferred or in_scope]))
    return Finding(claim, facts, in_scope, supported_by, off_period)


def _known(claim: Claim, evidence: Evidence) -> bool:
    """Whether the time the figure is stated for is one the trace knows: a date no result holds
    is the date rule's to report, not a figure's wrong time."""
    said = claim.time
    if said is None:
        return False
    if said.kind and not said.days:
        return True
    return any(day in evidence.dates for day in said.days)


_RATE_KEY = re.compile(r"change_pct|pnl_pct|return|yield")
"""Keys of a rate of change in percent: percentage points (a difference of two percentages) are
another unit than it."""


_KNOWN_FIELDS = frozenset().union(*FIELDS.values()) | {
    "open", "high", "low", "change", "change_pct", "pnl_pct", "contribution_pct", "quantity",
    "volume", "portfolio_value_previous_close", "split",
}  # fmt: skip
"""Result keys whose meaning is known: a figure they alone hold is that field, nothing else."""


def _misnamed(claim: Claim, facts: list[Fact]) -> bool:
    """Every fact is a known field other than the one the draft names ("closed at 283.43" where
    283.43 is only the previous close). A previous close is the close of its own session, where
    the draft names that session ("closed at 287.14 on December 30")."""
    wanted = FIELDS[claim.field]
    dated = claim.field == "close" and claim.time is not None and bool(claim.time.days)
    return all(
        f.key in _KNOWN_FIELDS and f.key not in wanted and not (dated and f.key in _EARLIER_CLOSES)
        for f in facts
    )


_EARLIER_CLOSES = frozenset({"previous_close", "start_close", "previous_close_adjusted"})


def _beyond(claim: Claim, fact: Fact) -> bool:
    """An exact (JSON) value on the wrong side of the bound the draft states: "up less than 1%"
    where the trace has 1.31, "closed below 287" where it has 287.14."""
    if fact.decimals != -1 or claim.unit == "bps" or not claim.readings:
        return False
    value = abs(fact.value)
    limit = min((r.value * claim.scale for r in claim.readings), key=lambda x: abs(x - value))
    return value < limit if claim.bound > 0 else value > limit


def _ticker_events(symbol: str, evidence: Evidence) -> set[str]:
    found: set[str] = set()
    for variant in {symbol, symbol.replace(".", "-"), symbol.replace("-", ".")}:
        found |= evidence.tickers.get(variant, set())
    return found


def _blocking_failure(claim: Claim, evidence: Evidence) -> Failure | None:
    for failure in evidence.failures:
        if failure.resolved:
            continue
        if failure.ticker is None or not claim.scope or failure.ticker in claim.scope:
            return failure
    return None


def _scope_words(claim: Claim) -> str:
    return f" ({', '.join(sorted(claim.scope))})" if claim.scope else ""


def check_unresolved_error(case: Case) -> Iterator[Reason]:
    """A figure no result supports, about data that a failed call was meant to bring."""
    for f in case.figures:
        failure = None if f.in_scope else _blocking_failure(f.claim, case.evidence)
        if failure is not None:
            about = f" for {failure.ticker}" if failure.ticker else ""
            yield Reason(
                rule=ReasonCode.UNRESOLVED_ERROR,
                message=(
                    f'"{f.claim.text}"{_scope_words(f.claim)} states data that the failed call '
                    f"{failure.tool} {failure.event}{about} was meant to bring "
                    f'("{failure.message}"), and no later call brought it'
                ),
                span=f.claim.span,
            )


def check_unsupported_figure(case: Case) -> Iterator[Reason]:
    """A figure that no successful result and no question contains at the precision shown."""
    for f in case.figures:
        if f.in_scope or f.wrong or _blocking_failure(f.claim, case.evidence) is not None:
            continue
        yield Reason(
            rule=ReasonCode.UNSUPPORTED_FIGURE,
            message=_unsupported_message(f, case.evidence),
            span=f.claim.span,
        )


def _unsupported_message(f: Finding, evidence: Evidence) -> str:
    claim = f.claim
    if claim.name:
        return (
            f'"{claim.text}" is part of the name "{claim.name}", which no successful tool result '
            "and not the question contains"
        )
    head = f'"{claim.text}"{_scope_words(claim)}'
    if f.misnamed:
        named = claim.field.replace("_", " ").replace("day pnl", "day P&L")
        return f"{head} is written as the {named}, but the trace has {f.misnamed[0].describe()}"
    if f.turned:
        said, written = ("a lower", "an upper") if claim.bound > 0 else ("an upper", "a lower")
        fact = f.turned[0]
        if fact.bound:
            return f"{head} states {said} bound, but the source writes {fact.describe()} as {written} bound"
        side = "below" if claim.bound > 0 else "above"
        return f"{head} states {said} bound, but the trace has {fact.describe()}, {side} it"
    if f.facts:
        return f"{head} matches {f.facts[0].describe()}, not a result about {', '.join(sorted(claim.scope))}"
    if f.off_period and claim.period is not None:
        other = f.off_period[0]
        stated = other.period.describe() if other.period else "another period"
        return (
            f"{head} is stated for {claim.period.describe()}, but the source gives "
            f"{other.describe()} for {stated}"
        )
    if claim.sign:
        unsigned = evidence.match_figure(dataclasses.replace(claim, sign=0))
        if unsigned:
            return f"{head} has the wrong sign: the trace has {unsigned[0].describe()}"
    near = evidence.near(claim)
    nearest = f"; the nearest value is {near.describe()}" if near else ""
    if near and near.event == QUESTION and claim.kind == "money" and not evidence.question_money:
        nearest = f"; the question's {near.value:g} is not an amount of money"
    return (
        f"{head} is in no successful tool result and not in the question, "
        f"compared at the precision shown{nearest}"
    )


_WRONG = {
    "subject": ReasonCode.WRONG_SUBJECT,
    "time": ReasonCode.WRONG_TIME,
    "field": ReasonCode.WRONG_FIELD,
}


def _said(claim: Claim, wrong: str) -> str:
    """The part of the claim that is wrong, as the draft states it."""
    if wrong == "subject":
        quoted = "quoted " if claim.kind == "headline" else ""
        return f"{quoted}about {', '.join(sorted(claim.scope))}"
    if wrong == "time":
        return f"for {claim.time.describe() if claim.time else 'an unstated time'}"
    if claim.points:
        return "in percentage points"
    return f"as the {claim.field.replace('_', ' ').replace('day pnl', 'day P&L')}"


def _wrong_part(wrong: str) -> Callable[[Case], Iterator[Reason]]:
    code = _WRONG[wrong]

    def check(case: Case) -> Iterator[Reason]:
        for f in case.findings:
            if f.wrong != wrong:
                continue
            if f.claim.kind in FIGURE_KINDS and _blocking_failure(f.claim, case.evidence):
                continue
            held = f.about or "; ".join(x.describe() for x in f.held[:2])
            yield Reason(
                rule=code,
                message=f'"{f.claim.text}" is stated {_said(f.claim, wrong)}, but the trace has {held}',
                span=f.claim.span,
            )

    check.__name__ = f"check_wrong_{wrong}"
    check.__doc__ = f"A figure the trace holds, but for another {wrong} than the draft states."
    return check


check_wrong_subject = _wrong_part("subject")
check_wrong_time = _wrong_part("time")
check_wrong_field = _wrong_part("field")


def check_uncomputed_percentage(case: Case) -> Iterator[Reason]:
    """A percentage whose only support is a figure that no calculating tool returned as one."""
    for f in case.figures:
        if f.claim.unit and f.in_scope and not any(x.percent for x in f.in_scope):
            yield Reason(
                rule=ReasonCode.UNCOMPUTED_PERCENTAGE,
                message=(
                    f'"{f.claim.text}" is given as a percentage, but no calculating tool returned it: '
                    f"{f.in_scope[0].describe()} is not a percentage"
                ),
                span=f.claim.span,
            )


def check_wrong_direction(case: Case) -> Iterator[Reason]:
    """A direction word ("rose", "cayó") next to a figure whose value has the other sign, or said
    of a ticker whose change for the time stated has the other sign ("AXO fell on 2024-12-31")."""
    yield from _wrong_moves(case)
    for f in case.figures:
        claim = f.claim
        if not claim.direction or claim.sign or not f.in_scope:
            continue
        facts = [x for x in f.in_scope if x.percent] if claim.unit else f.in_scope
        signed = [x for x in facts if x.signed and x.value]
        signed = [x for x in signed if x.change] or signed
        if signed and all((x.value > 0) != (claim.direction > 0) for x in signed):
            said = "a rise" if claim.direction > 0 else "a fall"
            yield Reason(
                rule=ReasonCode.WRONG_DIRECTION,
                message=(
                    f'"{claim.direction_word} {claim.text}" says {said}, but the trace has '
                    f"{signed[0].describe()}"
                ),
                span=(min(claim.start, _word_start(case, claim)), claim.end),
            )


def _wrong_moves(case: Case) -> Iterator[Reason]:
    for f in case.findings:
        claim = f.claim
        if claim.kind != "move":
            continue
        (subject,) = claim.scope
        held = [
            x
            for x in case.evidence.changes.get(subject, ())
            if x.value and times_agree(claim.time, x.span)
        ]
        if held and all((x.value > 0) != (claim.direction > 0) for x in held):
            said = "a rise" if claim.direction > 0 else "a fall"
            when = f" for {claim.time.describe()}" if claim.time else ""
            yield Reason(
                rule=ReasonCode.WRONG_DIRECTION,
                message=(
                    f'"{claim.text}" says {said} of {subject}{when}, but the trace has '
                    f"{held[0].describe()}"
                ),
                span=claim.span,
            )


_TIMESTAMP = re.compile(r"(\d{4}-\d\d-\d\d)[T ](\d\d:\d\d)")
"""A date written with its time: the time (to the minute) must be one a result holds."""
_DAY_NAMES = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")


def _wrong_weekday(claim: Claim, evidence: Evidence) -> str | None:
    """Why the weekday written with a date is not its day, if no reading of it agrees. A date
    without its year ("Tuesday, January 13") takes the years the trace gives that day."""
    days: list[tuple[date, int]] = []
    for year, month, day in claim.dates:
        if day is None or month > QUARTER_BASE:
            return None
        years = (
            [year]
            if year is not None
            else sorted({y for y, m, d in evidence.dates if m == month and d == day and y})
        )
        for each in years:
            try:
                when = date(each, month, day)
            except ValueError:
                continue
            days.append((when, when.weekday()))
    if not days or any(weekday == claim.weekday for _, weekday in days):
        return None
    when, weekday = days[0]
    return (
        f'"{claim.text}" ({when.isoformat()}) is a {_DAY_NAMES[weekday]}, not a '
        f"{_DAY_NAMES[claim.weekday]} as the draft writes"
    )


def _wrong_time(claim: Claim, stamp: re.Match[str], evidence: Evidence) -> str | None:
    """Why a date written with its time is unsupported: no result holds that minute of that day,
    or the quoted headline it is written with came at another time."""
    day, minute = stamp.groups()
    written = (f"{day}T{minute}", f"{day} {minute}")
    if not any(w in text for text, _ in evidence.texts for w in written):
        return f'"{claim.text}": no tool result has this time on that day'
    if not claim.headline:
        return None
    times = evidence.headline_times(claim.headline)
    if not times or any(when.startswith(written) for when in times):
        return None
    return (
        f'"{claim.text}" is given as the time of "{claim.headline}", but the source has that '
        f"headline at {' or '.join(sorted(times))}"
    )


def _wrong_event(claim: Claim, evidence: Evidence) -> str | None:
    """Why a date named as the day of an event kind ("earnings on 2025-01-13") is not one, where
    the trace lists events on that day and none of them is of that kind."""
    listed: set[str] = set()
    for reading in claim.dates:
        held = evidence.event_days.get(reading, set())
        for ticker, kind in held | evidence.announced_days.get(reading, set()):
            if claim.scope and ticker is not None and ticker not in claim.scope:
                continue  # another ticker's event that day
            if kind == claim.event:
                return None  # its day, or the day it was announced ("declared a dividend on")
            if (ticker, kind) in held:
                listed.add(kind)
    if not listed:
        return _outside_listing(claim, evidence)
    return (
        f'"{claim.text}" is named as the day of {_EVENT_SAID[claim.event]}, but the trace lists '
        f"{' and '.join(_EVENT_SAID[k] for k in sorted(listed))} on that day"
    )


def _outside_listing(claim: Claim, evidence: Evidence) -> str | None:
    """Why a date named as an event's day is not one, where an events result covers that day for
    the ticker and lists that kind on other days only (or not at all)."""
    for year, month, day in claim.dates:
        if day is None or month > QUARTER_BASE:
            return None
        for ticker, start, end in evidence.event_windows:
            if claim.scope and ticker is not None and ticker not in claim.scope:
                continue
            try:
                when = date(year or end.year, month, day)
            except ValueError:
                continue
            if not start <= when <= end:
                continue
            days = evidence.event_dates.get((ticker, claim.event), [])
            if when in days:
                return None
            listed = ", ".join(d.isoformat() for d in sorted(days)) or "no day in its window"
            who = f" for {ticker}" if ticker else ""
            return (
                f'"{claim.text}" is named as the day of {_EVENT_SAID[claim.event]}, but the events '
                f"result{who} ({start.isoformat()} to {end.isoformat()}) lists it on {listed}"
            )
    return None


_EVENT_SAID = {"dividend": "a dividend", "earnings": "earnings", "split": "a split"}


def _word_start(case: Case, claim: Claim) -> int:
    draft = case.trace.draft or ""
    found = draft.rfind(claim.direction_word, 0, claim.start)
    return found if found >= 0 else claim.start


def check_wrong_weekday(case: Case) -> Iterator[Reason]:
    """A date written with a day of the week it does not fall on ("Monday, December 31, 2024":
    a Tuesday)."""
    for f in case.findings:
        claim = f.claim
        wrong = _wrong_weekday(claim, case.evidence) if claim.weekday >= 0 else None
        if claim.kind == "date" and wrong:
            yield Reason(rule=ReasonCode.WRONG_WEEKDAY, message=wrong, span=claim.span)


def _timestamp(f: Finding) -> re.Match[str] | None:
    claim = f.claim
    return _TIMESTAMP.match(claim.text) if claim.kind == "date" and f.supported_by else None


def check_wrong_event_day(case: Case) -> Iterator[Reason]:
    """A date named as the day of an event kind where the trace lists other kinds that day."""
    for f in case.findings:
        claim = f.claim
        if not claim.event or _weekday_wrong(f, case) or _timestamp(f) is not None:
            continue
        if f.supported_by and (wrong := _wrong_event(claim, case.evidence)):
            yield Reason(rule=ReasonCode.WRONG_EVENT_DAY, message=wrong, span=claim.span)


def _weekday_wrong(f: Finding, case: Case) -> bool:
    return f.claim.weekday >= 0 and _wrong_weekday(f.claim, case.evidence) is not None


def check_unsupported_date(case: Case) -> Iterator[Reason]:
    """A date (or a date with its time) that neither a result, a failed call's arguments and
    error, nor the question contains; a headline's time where the source has another."""
    for f in case.findings:
        claim = f.claim
        if claim.kind != "date" or _weekday_wrong(f, case):
            continue
        if (stamp := _timestamp(f)) is not None:
            if message := _wrong_time(claim, stamp, case.evidence):
                code = ReasonCode.WRONG_TIME if claim.headline else ReasonCode.UNSUPPORTED_DATE
                if "no tool result has this time" in message:
                    code = ReasonCode.UNSUPPORTED_DATE
                yield Reason(rule=code, message=message, span=claim.span)
            continue
        if not f.supported_by:
            message = f'"{claim.text}" is a date that no tool result and not the question contains'
            if case.evidence.match_date(claim):
                message = (
                    f'"{claim.text}" is named as the period of what the draft says, but the '
                    "sources name it only as a comparison base"
                )
            yield Reason(rule=ReasonCode.UNSUPPORTED_DATE, message=message, span=claim.span)


_SESSION_SAID = {
    "before": "before the open",
    "during": "during the session",
    "after": "after the close",
}


def check_wrong_session(case: Case) -> Iterator[Reason]:
    """A quoted headline said to come before the open, during the session or after the close,
    where every news result that holds it says otherwise."""
    for f in case.findings:
        claim = f.claim
        if claim.kind != "headline" or not claim.session or not f.supported_by:
            continue
        sessions = case.evidence.headline_sessions(claim)
        if sessions and claim.session not in sessions:
            said = _SESSION_SAID.get(claim.session, claim.session)
            source = " or ".join(_SESSION_SAID.get(x, x) for x in sorted(sessions))
            yield Reason(
                rule=ReasonCode.WRONG_SESSION,
                message=f'"{claim.text}" is said to come {said}, but the source has it {source}',
                span=claim.span,
            )


def check_unknown_ticker(case: Case) -> Iterator[Reason]:
    """A ticker symbol that no call, result or the question mentions."""
    for f in case.findings:
        if f.claim.kind == "ticker" and not f.supported_by:
            yield Reason(
                rule=ReasonCode.UNKNOWN_TICKER,
                message=(
                    f'"{f.claim.text}" looks like a ticker, but no tool call, result or the '
                    "question mentions it"
                ),
                span=f.claim.span,
            )


def check_unknown_headline(case: Case) -> Iterator[Reason]:
    """A quoted headline that no news result contains literally."""
    for f in case.findings:
        if f.claim.kind == "headline" and not f.supported_by and not f.wrong:
            yield Reason(
                rule=ReasonCode.UNKNOWN_HEADLINE,
                message=f'the quoted headline "{f.claim.text}" is in no search_news result',
                span=f.claim.span,
            )


REQUIREMENTS: dict[str, frozenset[str]] = {
    "percentage": frozenset({"percent"}),
    "percent": frozenset({"percent"}),
    "figure": FIGURE_KINDS,
    "number": FIGURE_KINDS,
    "price": frozenset({"money", "number"}),
    "amount": frozenset({"money", "number"}),
    "date": frozenset({"date"}),
    "headline": frozenset({"headline"}),
    "ticker": frozenset({"ticker"}),
}
"""What each `requires` word of a question asks the draft to contain."""


def check_missing_answer(case: Case) -> Iterator[Reason]:
    """The question requires a kind of claim (a percentage, a date...) that the draft lacks."""
    kinds = {f.claim.kind for f in case.findings}
    for need in case.trace.requires:
        wanted = REQUIREMENTS.get(need.lower())
        if wanted is None:
            known = ", ".join(REQUIREMENTS)
            yield Reason(
                rule=ReasonCode.MISSING_ANSWER,
                message=f"the question requires {need!r}, which the verifier cannot check (known: {known})",
            )
        elif not wanted & kinds:
            yield Reason(
                rule=ReasonCode.MISSING_ANSWER,
                message=f"the question requires a {need}, and the draft gives none",
            )


def no_draft_reason(trace: TraceView) -> Reason:
    """Why there is nothing to verify: the stop reason the run recorded."""
    stop = trace.stop_reason or "unknown"
    detail = f": {trace.stop_detail}" if trace.stop_detail else ""
    return Reason(
        rule=ReasonCode.NO_DRAFT,
        message=f"the run ended without a draft (stop reason {stop}{detail})",
    )


RULES: tuple[Callable[[Case], Iterator[Reason]], ...] = (
    check_unresolved_error,
    check_unsupported_figure,
    check_wrong_subject,
    check_wrong_time,
    check_wrong_field,
    check_uncomputed_percentage,
    check_wrong_direction,
    check_unsupported_date,
    check_wrong_weekday,
    check_wrong_event_day,
    check_wrong_session,
    check_unknown_ticker,
    check_unknown_headline,
    check_missing_answer,
)

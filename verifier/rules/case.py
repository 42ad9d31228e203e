"""The case every rule reads: each claim matched once against the evidence, bound to its subject,
time and field; a figure that matches only for another one carries which part is wrong."""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass
from datetime import date

from verifier.claim import BENCHMARK_SUBJECT, FIGURE_KINDS, PORTFOLIO_SUBJECT, Claim, subject_words
from verifier.evidence import QUESTION, Evidence, Fact, Failure
from verifier.grammar.field_words import FIELDS
from verifier.periods import Period, periods_agree
from verifier.times import calendar_window, period_bounds, times_agree
from verifier.trace_facts import FROM_FAILURE, FROM_JSON, FROM_TEXT
from verifier.trace_view import TraceView


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
    foreign: tuple[Evidence, dict[str, str]] | None = None
    """The evidence of the results about other portfolios than the answer's, and the portfolio
    of each of their events: no support, only the reason a figure is the wrong subject."""
    portfolios: set[str] = dataclasses.field(default_factory=set)
    """Every portfolio id the trace's calls and results name."""
    bound: list[tuple[int, int]] = dataclasses.field(default_factory=list)
    """Spans of words a rule held against the trace beyond the claims (a comparison, a ranking,
    a streak that holds): the closed-world rule counts them as checked."""
    folded: str | None = None
    """The draft case-folded, hyphens between words read as spaces (`verifier.rules.draft_scan`)."""
    scan: object = None
    """What the relation and quality rules read of the draft, built once
    (`verifier.rules.draft_scan.scan_of`)."""

    def __post_init__(self) -> None:
        self.figures = [f for f in self.findings if f.claim.kind in FIGURE_KINDS]

    @property
    def report_day(self) -> date | None:
        """The report date, against which the draft's relative time words are read; None where
        the trace gives none it can read (then no such word is checked, so none is bound)."""
        try:
            return date.fromisoformat((self.trace.as_of or "")[:10])
        except ValueError:
            return None

    @property
    def previous_session(self) -> date | None:
        """The session before the report day, as the first result that states one gives it."""
        for event in self.trace.events:
            if isinstance(event.result, dict) and event.result.get("previous_session"):
                try:
                    return date.fromisoformat(str(event.result["previous_session"])[:10])
                except ValueError:
                    return None
        return None


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


_IN_PERCENT = re.compile(r"pct|percent|ratio|weight|return")
"""Keys of a figure in percent: an amount of money is never one of them."""


_COUNTED = re.compile(r"(?:^|_)(?:rank|count|gainers|decliners|unchanged|constituents|found)$")
"""Keys whose values are places or counts, never amounts of money or percentages."""


_SPLIT_KEY = re.compile(r"(?:^|_)(?:split|split_factor|ratio|splits)$")
"""Keys of a split's terms (`split_factor: 2.0`, a split's `ratio`): a multiple, never a
percentage."""
_BENCHMARK_ONLY = frozenset({BENCHMARK_SUBJECT})


def _assess_figure(claim: Claim, evidence: Evidence) -> Finding:
    """Bind the figure: value at its precision, then subject, period, time, bound and field; the
    first part no matching fact agrees with is what is wrong with it."""
    if claim.name and claim.name.split()[0] not in evidence.called:
        named = evidence.match_name(claim)
        return Finding(claim, named, named, [f.event for f in named])
    market = claim.field in MARKET_FIELDS
    announced = claim.field in ANNOUNCED_FIELDS
    count = (
        claim.kind == "number"
        and not (claim.direction or claim.field or claim.sign)
        and any(float(r.value * claim.scale).is_integer() for r in claim.readings)
    )  # a count of positions is a whole number: "46.59" is no count of the portfolio's
    matched = evidence.match_figure(claim)
    if claim.kind == "money" or claim.unit == "%":  # an amount or a share is no place and no
        matched = [f for f in matched if not _COUNTED.search(f.key)]  # count ("19%": no rank 19)
    if claim.unit == "%":  # "fell less than 2%" is no split of 2 for 1
        matched = [f for f in matched if not _SPLIT_KEY.search(f.key)]
    if claim.bound and claim.unit == "%" and claim.direction and claim.readings:
        matched = matched + _beyond_bound(claim, evidence, matched)
    facts = [
        f
        for f in matched
        if f.origin == FROM_JSON
        or (f.origin == FROM_TEXT and not market)
        or (f.origin == FROM_FAILURE and count)
        or (announced and f.origin != FROM_FAILURE)
        or f.event == QUESTION
    ]
    if claim.kind == "money" and facts and not evidence.question_money:
        facts = [f for f in facts if f.event != QUESTION]  # "$30" is not "30 days"
    if claim.kind == "money" and facts:
        facts = [f for f in facts if not _IN_PERCENT.search(f.key)]  # "$0.43" is no -0.43%
    off_period: list[Fact] = []
    period = claim.period
    if period is not None and facts:
        agreeing = [f for f in facts if _in_period(claim, period, f)]
        if len(agreeing) != len(facts):
            off_period = [f for f in facts if not _in_period(claim, period, f)]
            facts = agreeing
    scope = claim.scope
    in_scope = (
        [
            f
            for f in facts
            if f.ticker is None
            or f.ticker in scope
            or (count and f.ticker == PORTFOLIO_SUBJECT and scope != _BENCHMARK_ONLY)
        ]
        if scope
        else facts
    )  # a count of positions is said of the portfolio whichever ticker the sentence names; a
    # count said of the benchmark ("the 59-stock universe") is its own
    if facts and not in_scope and not off_period:
        return Finding(claim, facts, [], [], wrong="subject", held=facts)
    said = claim.time
    timed = in_scope if said is None else [f for f in in_scope if times_agree(said, f.span)]
    if in_scope and not timed and _known(claim, evidence):
        return Finding(claim, facts, [], [], off_period, wrong="time", held=in_scope)
    in_scope = timed or in_scope
    if claim.bound and in_scope:
        # a percentage's bound is held by the percentages ("up more than 1%": not a count of 1)
        held = [f for f in in_scope if f.percent] if claim.unit == "%" else []
        against = [f for f in held or in_scope if f.bound == -claim.bound or _beyond(claim, f)]
        if len(against) == len(held or in_scope):
            return Finding(claim, facts, [], [], off_period, turned=against)
    if claim.field and in_scope and _misnamed(claim, in_scope):
        return Finding(claim, facts, [], [], off_period, wrong="field", held=in_scope)
    if claim.level and not claim.field and any(f.key in _PRICE_LEVELS for f in in_scope):
        claim.field = claim.level  # "fell 2.03% to 361.76": a price level, the close
        if _misnamed(claim, in_scope):
            return Finding(claim, facts, [], [], off_period, wrong="field", held=in_scope)
    if (
        claim.direction
        and not claim.field
        and claim.unit != "%"
        and in_scope
        and all(f.key in _LEVELS for f in in_scope)
    ):
        claim.field = "day_change"  # "FSA rose 75.01", "added 49,431.59 to P002": a close or a
        return Finding(claim, facts, [], [], off_period, wrong="field", held=in_scope)  # value
    if claim.points and in_scope:
        differences = [f for f in in_scope if not _RATE_KEY.search(f.key) or f.origin]
        if not differences:
            return Finding(claim, facts, [], [], off_period, wrong="field", held=in_scope)
        in_scope = differences
    preferred = [f for f in in_scope if f.percent] if claim.unit else in_scope
    supported_by = list(dict.fromkeys([f.event for f in preferred or in_scope]))
    return Finding(claim, facts, in_scope, supported_by, off_period)


def _in_period(claim: Claim, period: Period, fact: Fact) -> bool:
    """A fact of the period a figure names: a result's own period where it states one (a
    headline's "Q3 2020 EPS"), else a change over that calendar period ("rose 31.14% in Q4": the
    window from the quarter's eve to its end, not any that overlaps it)."""
    if (
        fact.period is not None
        or period.back
        or not (period.year or period.quarter)
        or not claim.period_own
    ):
        return periods_agree(period, fact.period)
    span = fact.span
    if span is None or span.start is None:
        return True
    first, last = period_bounds(period.year, period.quarter, None, span.end)
    return calendar_window(first, last, span)


def _beyond_bound(claim: Claim, evidence: Evidence, matched: list[Fact]) -> list[Fact]:
    """The percentages of the claim's subject that a move's bound says ("rose more than 1%"
    for 1.75%): on its side of the bound, at most twice it (or half of it, for an upper
    bound), for the time stated; a bound is not a figure to round."""
    limit = claim.readings[0].value * claim.scale
    if limit <= 0:
        return []
    low, high = (limit, 2 * limit) if claim.bound > 0 else (limit / 2, limit)
    return [
        f
        for f in evidence.facts
        if f.percent
        and f.origin == FROM_JSON
        and low < abs(f.value) < high
        and (not claim.scope or f.ticker in claim.scope)
        and times_agree(claim.time, f.span)
        and f not in matched
    ]


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
    "volume", "portfolio_value_previous_close", "split", "day_return_pct", "return_pct",
    "portfolio_return_pct", "portfolio_day_pnl", "gainers", "decliners", "unchanged",
    "positions_count", "weight_rank", "return_rank", "pnl_rank", "contribution_rank",
    "constituents", "sessions",
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
_PRICE_LEVELS = _EARLIER_CLOSES | {"close", "end_close"}
_LEVELS = _PRICE_LEVELS | {"open", "high", "low", "price", "adj_close", "market_value", "quantity"}
"""Keys of a level or a holding's size: a figure a verb of change is said with ("rose 75.01",
"added 49,431.59 to P002") is the size of a change, never one of them."""
"""Keys of a price level: a figure a move went to or came from is one where the trace has it
so ("EPS rose 5% to $3.69" is no price's)."""


def _beyond(claim: Claim, fact: Fact) -> bool:
    """An exact (JSON) value on the wrong side of the bound the draft states: "up less than 1%"
    where the trace has 1.31, "closed below 287" where it has 287.14."""
    if fact.decimals != -1 or claim.unit == "bps" or not claim.readings:
        return False
    value = abs(fact.value)
    if len(claim.readings) > 1 and not any(c.isdigit() for c in claim.text):
        # a fraction in words ("more than a quarter", "poco más de una quinta parte"): its
        # bound is the fraction itself, the middle of the span its tolerance reads
        said = [r.value for r in claim.readings]
        limit = (min(said) + max(said)) / 2 * claim.scale
    else:
        limit = min((r.value * claim.scale for r in claim.readings), key=lambda x: abs(x - value))
    return value < limit if claim.bound > 0 else value > limit


def _ticker_events(symbol: str, evidence: Evidence) -> set[str]:
    found: set[str] = set()
    for variant in {symbol, symbol.replace(".", "-"), symbol.replace("-", ".")}:
        found |= evidence.tickers.get(variant, set())
    return found


def blocking_failure(claim: Claim, evidence: Evidence) -> Failure | None:
    for failure in evidence.failures:
        if failure.resolved:
            continue
        if failure.ticker is None or not claim.scope or failure.ticker in claim.scope:
            return failure
    return None


def scope_words(claim: Claim) -> str:
    return f" ({subject_words(claim.scope)})" if claim.scope else ""

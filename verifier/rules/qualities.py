"""Qualities: the words that judge a move ("a rough week", "a modest gain", "more than
doubled", "prácticamente plano", "a small holding") are claims of a direction and a size, bound to
the figure they qualify and held against the value the trace computed for it.

A word of judgement is never free: "a strong quarter" over a quarter that fell is as wrong as a
wrong sign. So each is read as a direction (`up`, `down`, `either`) and a band of size, measured
on the change the trace holds for the figure it qualifies, not on the figure as written: the
nearest checked percentage of its sentence (of the window it names, where it names one: "rough
week"), else, for a word of the day ("snapping back", "un respiro") or a named day, the
subject's move of the day in the trace. Bands scale with the window, as a price's swings do
with the square root of time: "sharp" is at least 1.5% for a day, 3% for a week, 6% for a
month, 12% for a quarter, 22.5% for a year. A holding's size ("a small holding") is its weight
against an equal weight of its portfolio. One the trace holds covers its words; one it
contradicts is `wrong_relation`; one with nothing to bind to stays uncovered (`unverified_claim`).
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Iterator
from functools import cache
from typing import Any

from contract.reasons import ReasonCode
from verifier.claim import Claim
from verifier.lexicon import grouped
from verifier.rules.case import Case, Finding
from verifier.rules.draft_scan import DraftScan, folded_of, scan_of
from verifier.scanner import PhraseScan
from verifier.trace_facts import Fact
from verifier.verdict import Reason

FLAT, SMALL, MODEST, LARGE = 0.25, 1.0, 2.5, 1.5
"""Bands of a day's move in percent: flat at most 0.25, small under 1, modest (or moderate)
under 2.5, large at least 1.5."""
SCALE = {"day": 1.0, "week": 2.0, "month": 4.0, "quarter": 8.0, "year": 15.0}
"""How a band widens with the window (about the square root of its sessions)."""
_WINDOW_NOUNS = {
    "day": "day", "session": "day", "jornada": "day", "sesión": "day",
    "week": "week", "semana": "week",
    "month": "month", "mes": "month",
    "quarter": "quarter", "trimestre": "quarter",
    "year": "year", "año": "year",
}  # fmt: skip
_NOUN = "|".join(_WINDOW_NOUNS)
_WINDOW_IN = re.compile(rf"(?<!\w)({_NOUN})(?!\w)")
_WINDOW_BEFORE = re.compile(
    rf"(?<!\w)(?:the|this|its|el|la|este|esta|su)\s+({_NOUN})\s+(?:has\s+been|had\s+been|was|"
    r"is|ha\s+sido|fue|es|was\s+a|has\s+been\s+a|fue\s+una?)\s+(?:(?:a|an|un|una|more|even|"
    r"quite|very|still|muy|más)\s+)?$"
)
"""A window named before the word that judges it ("the quarter has been strong")."""
_WINDOW_LEAD = re.compile(
    rf"(?<!\w)(?:in|over|for|on|during|en|durante)\s+(?:the|this|its|el|la|este|esta|su)\s+"
    rf"(?:(?:past|last|pasad[oa]|últim[oa])\s+)?({_NOUN})\s+(?:(?:it|the\s+stock|la\s+acción)\s+)?$"
)
"""A window said right before the word that judges it, as the clause's opening ("y en el año
más que duplica su precio", "over the quarter it more than doubled")."""


@cache
def quality_scan() -> PhraseScan:
    return PhraseScan(grouped("qualities"))


@cache
def _relation_after() -> re.Pattern[str]:
    """A comparison right after a word ("sharply below"): the word is the comparison's degree."""
    words = "|".join(f"(?:{f})" for parts in grouped("relations").values() for f in parts)
    return re.compile(rf"\s+(?:{words})(?!\w)")


def check_qualities(case: Case) -> Iterator[Reason]:
    """Each word of judgement held against the change it qualifies; those that hold are added
    to `case.bound` for the closed-world rule."""
    folded = folded_of(case)
    hits = quality_scan().finditer(folded)
    if not hits:
        return
    scan = scan_of(case)
    for m in hits:
        if _relation_after().match(folded, m.end()):
            continue  # "sharply below": the degree of a comparison (`verifier.rules.relations`)
        reason = _judge(scan, m)
        if reason is not None:
            yield reason


def _judge(s: DraftScan, m: re.Match[str]) -> Reason | None:
    case, text, folded, starts, tickers, results = s.parts()
    group = m.lastgroup or ""
    i = bisect_right(starts, m.start()) - 1
    lo, hi = starts[i], starts[i + 1] if i + 1 < len(starts) else len(text)
    span = (m.start(), m.end())
    lead = _WINDOW_BEFORE.search(folded, lo, m.start()) or _WINDOW_LEAD.search(
        folded, lo, m.start()
    )
    named = _WINDOW_IN.search(folded, m.start(), m.end())
    said = named or lead
    window = _WINDOW_NOUNS[said.group(1)] if said is not None else ""
    if lead is not None:
        span = (lead.start(), m.end())
    subject = _subject(tickers, lo, m.start(), hi)
    if group.startswith("size_"):
        return _size(case, text, m, span, group, subject, results)
    value, kind = _anchor(case, m, lo, hi, window, group.startswith("day_"), subject, results)
    whose = _WHOSE.match(folded, m.end())
    noun = whose.group(1) if whose else _named_for(case, folded, m.end(), results)
    if noun:  # "behind the flat portfolio", "a weak day for Dividend Income": the portfolio's
        value, kind = _whole(case, results, noun), "day"
        subject = None
    if value is None:
        return None
    direction, _, band = group.partition("_")
    if direction == "day":
        direction, band = band, "any"
    scale = SCALE.get(kind, 1.0)
    holds = {
        "up": value > 0,
        "down": value < 0,
        "either": True,
    }[direction] and {
        "any": value != 0 or direction == "either",
        "small": abs(value) < SMALL * scale,
        "modest": abs(value) < MODEST * scale,
        "large": abs(value) >= LARGE * scale,
        "flat": abs(value) <= FLAT * scale,
        "double": 90 <= value < 110,
        "over": value >= 100,
    }[band.split("_")[0]]
    return _checked(
        case,
        span,
        holds,
        f'"{text[span[0] : span[1]]}" says {_said(direction, band, scale)} of '
        f"{subject.symbol if subject else 'the move'}, but the trace has {value:+.2f}% "
        f"for the {kind or 'day'}",
    )


def _checked(case: Case, span: tuple[int, int], holds: bool, message: str) -> Reason | None:
    """A judging word bound (it is covered): None where it holds, else its `wrong_relation`."""
    case.bound.append(span)
    return None if holds else Reason(rule=ReasonCode.WRONG_RELATION, message=message, span=span)


_WHOSE = re.compile(
    r"\s+(portfolio|book|fund|cartera|benchmark|index|universe|índice|universo)(?:'s)?(?!\w)"
)
"""The portfolio or benchmark named right after a word of judgement ("the flat portfolio")."""


_FOR = re.compile(r"\s+for\s+(?:the\s+)?")


def _named_for(case: Case, folded: str, end: int, results: list[dict[str, Any]]) -> str:
    """ "portfolio" where a word of judgement is said for the answer's portfolio by its id or
    name ("a weak day for Dividend Income", "for P002"); "" otherwise."""
    lead = _FOR.match(folded, end)
    if lead is None:
        return ""
    own = case.trace.portfolio_id
    names = {own.casefold()} if own else set()
    names |= {
        str(r["name"]).casefold()
        for r in results
        if own and r.get("portfolio_id") == own and isinstance(r.get("name"), str)
    }
    rest = folded[lead.end() : lead.end() + 60]
    return "portfolio" if any(n and rest.startswith(n) for n in names) else ""


def _whole(case: Case, results: list[dict[str, Any]], noun: str) -> float | None:
    """The day return of the answer's portfolio, or of its benchmark, from its ranks."""
    own = case.trace.portfolio_id
    for result in results:
        if "portfolio_return_pct" not in result or (own and result.get("portfolio_id") != own):
            continue
        if noun in ("portfolio", "book", "fund", "cartera"):
            value = result.get("portfolio_return_pct")
        else:
            bench = result.get("benchmark")
            value = bench.get("return_pct") if isinstance(bench, dict) else None
        return float(value) if isinstance(value, int | float) else None
    return None


def _said(direction: str, band: str, scale: float) -> str:
    size = {
        "any": "",
        "small": f" under {SMALL * scale:g}%",
        "modest": f" under {MODEST * scale:g}%",
        "large": f" of at least {LARGE * scale:g}%",
        "flat": f" within {FLAT * scale:g}% of flat",
        "double": " of about 100%",
        "over_double": " of at least 100%",
    }.get(band, "")
    way = {"up": "a rise", "down": "a fall", "either": "a move"}[direction]
    return f"{way}{size}"


def _subject(tickers: list[Claim], lo: int, at: int, hi: int) -> Claim | None:
    """The ticker a judgement is said of: the last named before it in its sentence, else the
    first after it there, else the last one before its sentence."""
    before = [t for t in tickers if lo <= t.start < at]
    after = [t for t in tickers if at <= t.start < hi]
    earlier = [t for t in tickers if t.start < lo]
    found = before or after[:1] or earlier
    return found[-1] if found else None


def _window_of(fact: Fact) -> str:
    span = fact.span
    if span is None:
        return "day"  # a day's ranks: the portfolio's and each row's return of the session
    if span.start is None:
        return ""
    days = (span.end - span.start).days
    if days <= 4:
        return "day"
    if days <= 10:
        return "week"
    if days <= 40:
        return "month"
    return "quarter" if days <= 120 else "year"


def _change(finding: Finding) -> Fact | None:
    """The change in percent the trace holds for a checked figure (its signed value)."""
    if finding.claim.unit != "%" or finding.claim.points:
        return None
    for fact in finding.in_scope:
        if fact.change and fact.percent and (fact.span is None or fact.span.start):
            return fact
    return None


def _anchor(
    case: Case,
    m: re.Match[str],
    lo: int,
    hi: int,
    window: str,
    of_day: bool,
    subject: Claim | None,
    results: list[dict[str, Any]],
) -> tuple[float | None, str]:
    """The change a judgement qualifies: the nearest checked percentage of its sentence (of its
    window, where it names one), else the subject's move of the day where the word or its window
    is the day's; (None, "") where there is none."""
    if not of_day:
        best: tuple[int, float, str] | None = None
        for f in case.figures:
            c = f.claim
            if not lo <= c.start < hi:
                continue
            fact = _change(f)
            if fact is None:
                continue
            kind = _window_of(fact)
            if window and kind != window:
                continue
            gap = c.start - m.end() if c.start >= m.end() else m.start() - c.end + 1
            if best is None or gap < best[0]:
                best = (gap, fact.value, kind)
        if best is not None:
            return best[1], best[2]
    if (of_day or window == "day") and subject is not None:
        return _day_move(results, subject.symbol), "day"
    if window and subject is not None:  # "y en el año más que duplica": the year's own change
        return _window_move(results, subject.symbol, window), window
    return None, ""


_TREND_WINDOWS = {"week": "week", "month": "month", "quarter": "quarter", "year_to_date": "year"}
"""A trend result's window names, as the judging words name them."""


def _window_move(results: list[dict[str, Any]], symbol: str, window: str) -> float | None:
    """The subject's change in percent over a named window, from its trend result."""
    for result in results:
        if result.get("ticker") != symbol:
            continue
        for row in result.get("changes") or ():
            if isinstance(row, dict) and _TREND_WINDOWS.get(row.get("window", "")) == window:
                value = row.get("change_pct")
                if isinstance(value, int | float):
                    return float(value)
    return None


def _day_move(results: list[dict[str, Any]], symbol: str) -> float | None:
    """The subject's move of the day in percent: a daily move's change, a position's return, or
    its row in the ranks."""
    for result in results:
        if result.get("ticker") == symbol and "previous_close" in result:
            for key in ("change_pct", "pnl_pct"):
                if isinstance(result.get(key), int | float):
                    return float(result[key])
    for result in results:
        for row in result.get("positions") or ():
            if isinstance(row, dict) and row.get("ticker") == symbol:
                value = row.get("day_return_pct")
                if isinstance(value, int | float):
                    return float(value)
    return None


def _size(
    case: Case,
    text: str,
    m: re.Match[str],
    span: tuple[int, int],
    group: str,
    subject: Claim | None,
    results: list[dict[str, Any]],
) -> Reason | None:
    """A holding's size, against an equal weight of its portfolio: small under 0.6 of it,
    large over 1.5 times it."""
    if subject is None:
        return None
    for result in results:
        count = result.get("positions_count")
        own = case.trace.portfolio_id
        if not isinstance(count, int) or count < 1 or (own and result.get("portfolio_id") != own):
            continue
        for row in result.get("positions") or ():
            if isinstance(row, dict) and row.get("ticker") == subject.symbol:
                weight = row.get("weight_pct")
                if not isinstance(weight, int | float):
                    return None
                equal = 100 / count
                small = group == "size_small"
                holds = weight < 0.6 * equal if small else weight > 1.5 * equal
                return _checked(
                    case,
                    span,
                    holds,
                    f'"{text[span[0] : span[1]]}" says {subject.symbol} is a '
                    f"{'small' if small else 'large'} holding, but it weighs {weight:g}% "
                    f"of {count} positions (an equal weight is {equal:.2f}%)",
                )
    return None

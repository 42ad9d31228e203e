"""Derived figures: a figure computed from figures its own sentence names is supported when the
program, computing it again, gets it at the precision shown.

"From 283.43 to 287.14, a gain of 3.71", "224,256.34 of a 934,156.74 book, about 24%": the
writer did arithmetic, and the verifier redoes it. Only the operands the sentence states and
the trace supports may be used, and only one operation on two of them: a sum, a difference, a
product, a ratio, a share of a total in percent, a change in percent. A figure whose operands
the sentence does not name stays unsupported: a chance match among the hundreds of values a
trace holds is no evidence (verifier/README.md gives the rate of chance matches on random
figures, which `tests/verifier/test_derived.py` measures).

A count of days to a date the sentence names ("el lunes 13 de enero, dentro de 13 días", "on
2025-01-24, in 24 days") is the calendar days from the report date (`as_of`) to that date.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Iterator
from datetime import date

from verifier.claim import Claim
from verifier.periods import sentence_starts
from verifier.rules.case import Case
from verifier.trace_facts import make_fact

DERIVED = "derived"
"""The event id a derived figure is supported by."""


def derive_figures(case: Case) -> None:
    """Support each unsupported figure that one operation on two supported figures of its
    sentence gives at the precision it shows."""
    loose = [f for f in case.figures if not f.in_scope and not f.wrong and not f.facts]
    if not loose:
        return
    starts = sentence_starts(case.trace.draft or "")
    supported = [f for f in case.figures if f.in_scope]
    text = case.trace.draft or ""
    for f in loose:
        sentence = bisect_right(starts, f.claim.start) - 1
        if _days_until(case, text, f.claim, starts, sentence):
            f.in_scope = [
                make_fact(_amount(f.claim), DERIVED, "", "days", None, False, False, -1, None)
            ]
            f.supported_by = [DERIVED]
            continue
        operands = [
            g.claim
            for g in supported
            if bisect_right(starts, g.claim.start) - 1 == sentence and g.claim.readings
        ]
        how = _derivation(f.claim, operands)
        if how:
            f.in_scope = [
                make_fact(_amount(f.claim), DERIVED, "", how, None, True, False, -1, None)
            ]
            f.supported_by = [DERIVED]


def _amount(claim: Claim) -> float:
    return claim.readings[0].value * claim.scale


def _candidates(claim: Claim, a: Claim, b: Claim) -> Iterator[tuple[str, float]]:
    x, y = _amount(a), _amount(b)
    if claim.unit:
        if a.unit and b.unit:
            yield f"{a.text} - {b.text}", abs(x - y)
            yield f"{a.text} + {b.text}", abs(x + y)
            if x and y:  # "0.39% of a 0.52% return: three quarters of it"
                yield f"{a.text} / {b.text} x 100", abs(x / y * 100)
                yield f"{b.text} / {a.text} x 100", abs(y / x * 100)
        elif not a.unit and not b.unit and x and y:
            yield f"{a.text} / {b.text} x 100", abs(x / y * 100)
            yield f"{b.text} / {a.text} x 100", abs(y / x * 100)
            yield f"({a.text} - {b.text}) / {b.text} x 100", abs((x - y) / y * 100)
            yield f"({b.text} - {a.text}) / {a.text} x 100", abs((y - x) / x * 100)
        return
    if a.unit or b.unit:
        return
    yield f"{a.text} - {b.text}", abs(x - y)
    yield f"{a.text} + {b.text}", abs(x + y)
    yield f"{a.text} x {b.text}", abs(x * y)
    if x and y:
        yield f"{a.text} / {b.text}", abs(x / y)
        yield f"{b.text} / {a.text}", abs(y / x)


def _significant(claim: Claim) -> int:
    """The significant digits a figure shows ("3.71": 3, "$2 billion": 1, "0.30": 2)."""
    digits = "".join(ch for ch in claim.text if ch.isdigit()).lstrip("0")
    return len(digits)


def _derivation(claim: Claim, operands: list[Claim]) -> str:
    """How the claim is computed from two of the operands, or "" where no one operation
    gives it at the precision it shows. A figure of one significant digit ("$2 billion", "1%")
    is too coarse to tell a derivation from a chance match; one in words ("a twentieth") has
    the tolerance its wording carries (`verifier.grammar.number_words`)."""
    written = any(ch.isdigit() for ch in claim.text)
    if written and _significant(claim) < 2:
        return ""
    for i, a in enumerate(operands):
        for b in operands[i + 1 :]:
            for how, value in _candidates(claim, a, b):
                if any(_rounds_to(value, r.value, r.decimals, claim.scale) for r in claim.readings):
                    return how
    return ""


def _rounds_to(value: float, shown: float, decimals: int, scale: float) -> bool:
    half = 0.5 * 10.0**-decimals * scale
    return abs(value - abs(shown) * scale) <= half * (1 + 1e-9)


_DAYS_BEFORE = re.compile(r"(?i)(?:dentro\s+de|en|in|within)\s+$")
_DAYS_AFTER = re.compile(r"(?i)\s+(?:días|dias|days)(?:\s+(?:from\s+now|away|desde\s+hoy))?(?!\w)")


def _days_until(case: Case, text: str, claim: Claim, starts: list[int], sentence: int) -> bool:
    """Whether a whole number of days ("dentro de 13 días") is the distance from the report
    date to a date its sentence names; its words are then bound with it."""
    after = _DAYS_AFTER.match(text, claim.end)
    before = _DAYS_BEFORE.search(text, max(claim.start - 12, 0), claim.start)
    as_of = case.trace.as_of
    if after is None or before is None or not as_of or not claim.readings:
        return False
    try:
        report = date.fromisoformat(as_of[:10])
    except ValueError:
        return False
    days = {
        d
        for f in case.findings
        if f.claim.kind == "date" and bisect_right(starts, f.claim.start) - 1 == sentence
        for d in f.claim.dates
        if f.supported_by and d[1] and d[2]
    }
    for year, month, dom in days:
        if dom is None:
            continue
        for y in (year,) if year else (report.year, report.year + 1):
            try:
                gap = (date(y, month, dom) - report).days
            except ValueError:
                continue
            if gap > 0 and any(abs(r.value - gap) < 1e-9 for r in claim.readings):
                case.bound.append((before.start(), after.end()))
                return True
    return False

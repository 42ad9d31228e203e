"""The day a portfolio's holdings are as of: "Holdings as of 2024-12-05", "holdings dated Dec
5", "posiciones a 5 de diciembre", "holdings as of the report date". A position result states
its `holdings_as_of`; the date said after those words is that field, not any day of the trace
(the report date is one, and would otherwise pass). Another day is `wrong_time`; where no
result states the field, `unverified_claim`.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import date

from contract.reasons import ReasonCode
from verifier.rules.case import Case
from verifier.scanner import fold_aligned
from verifier.verdict import Reason

_HOLDINGS_ON = re.compile(
    r"(?<!\w)(?:holdings?|positions?|posiciones|tenencias|composición\s+de\s+la\s+cartera)"
    r"(?:\s+(?:data|file|snapshot|list|records?))?[*_]*\s*(?:(?:are|is|were|was|están|son)\s+)?"
    r"(?:[:(]\s*)?(?:as\s+of|dated|taken\s+on|a\s+fecha\s+de|al|a|con\s+fecha(?:\s+del?)?)[*_:]*\s+"
    r"(?:(?:the\s+|la\s+)?(?P<report>report\s+date|fecha\s+del\s+informe|today|hoy)(?!\w))?"
)
_REACH = 4


def check_holdings_date(case: Case) -> Iterator[Reason]:
    """Each day said to be the one the holdings are as of, held against `holdings_as_of`."""
    text = case.trace.draft or ""
    folded = fold_aligned(text)
    if not any(w in folded for w in ("holding", "position", "posicion", "tenencia")):
        return
    stated = _stated(case)
    dates = [f.claim for f in case.findings if f.claim.kind == "date" and f.claim.dates]
    for m in _HOLDINGS_ON.finditer(folded):
        report = case.report_day
        said: list[tuple[int | None, int | None, int | None]]
        if m["report"]:
            if report is None:
                continue
            said, span = [(report.year, report.month, report.day)], m.span()
        else:
            day = next((d for d in dates if 0 <= d.start - m.end() <= _REACH), None)
            if day is None:
                continue
            said, span = list(day.dates), (m.start(), day.end)
        if not said:
            continue
        if not stated:
            yield Reason(
                rule=ReasonCode.UNVERIFIED_CLAIM,
                message=f'"{text[span[0] : span[1]]}" dates the holdings, but no result of the '
                "trace states the day they are as of",
                span=span,
            )
            continue
        if any(_same(reading, when) for reading in said for when in stated):
            case.bound.append(span)
            continue
        yield Reason(
            rule=ReasonCode.WRONG_TIME,
            message=(
                f'"{text[span[0] : span[1]]}" dates the holdings, but the trace has them as of '
                + ", ".join(sorted({w.isoformat() for w in stated}))
            ),
            span=span,
        )


def _same(reading: tuple[int | None, int | None, int | None], when: date) -> bool:
    year, month, day = reading
    return (month, day) == (when.month, when.day) and year in (None, when.year)


def _stated(case: Case) -> set[date]:
    out: set[date] = set()
    for event in case.trace.events:
        if isinstance(event.result, dict) and (value := event.result.get("holdings_as_of")):
            try:
                out.add(date.fromisoformat(str(value)[:10]))
            except ValueError:
                continue
    return out

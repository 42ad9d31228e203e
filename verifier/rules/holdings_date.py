"""The day a portfolio's holdings are as of: "Holdings as of 2024-12-05", "holdings dated Dec
5", "posiciones a 5 de diciembre", "holdings as of the report date". A position result states
its `holdings_as_of`; the date said after those words is that field, not any day of the trace
(the report date is one, and would otherwise pass). Another day is `wrong_time`; where no
result states the field, `unverified_claim`.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import date, timedelta

from contract.reasons import ReasonCode
from verifier.rules.case import Case
from verifier.scanner import fold_aligned
from verifier.verdict import Reason

_HOLDINGS_ON = re.compile(
    r"(?<!\w)(?:holdings?|positions?|posiciones|tenencias|composición\s+de\s+la\s+cartera)"
    r"(?:\s+(?:data|file|snapshot|list|records?))?[*_]*\s*(?:(?:are|is|were|was|están|son)\s+)?"
    r"(?:[:(]\s*)?(?:as\s+of|dated|taken\s+on|from|a\s+fecha\s+de|al|a|del|de|con\s+fecha(?:\s+del?)?)"
    r"[*_:]*\s+(?:(?:the\s+|la\s+)?(?P<report>report\s+date|fecha\s+del\s+informe|today|hoy)(?!\w)"
    r"|(?:the\s+|la\s+)?(?P<previous>(?:previous|prior|last)\s+session|yesterday|the\s+day\s+before|"
    r"sesión\s+anterior|ayer)(?!\w)"
    r"|(?P<window>(?:earlier\s+)?this\s+(?:week|month)|last\s+(?:week|month)|(?:esta|la)\s+semana"
    r"(?:\s+pasada)?|(?:este|el)\s+mes(?:\s+pasado)?|(?<=del\s)mes(?:\s+pasado)?)(?!\w))?"
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
        if (m["previous"] or m["window"]) and report is not None:
            first, last = _span(case, report, m["previous"] or m["window"])
            if first is None:
                continue
            held = stated and all(first <= when <= last for when in stated)
            if held:
                case.bound.append(m.span())
            else:
                yield Reason(
                    rule=ReasonCode.WRONG_TIME if stated else ReasonCode.UNVERIFIED_CLAIM,
                    message=f'"{text[m.start() : m.end()]}" dates the holdings from {first} to '
                    f"{last}, but the trace has them as of "
                    + (", ".join(sorted(w.isoformat() for w in stated)) or "no day"),
                    span=m.span(),
                )
            continue
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


def _span(case: Case, report: date, said: str) -> tuple[date | None, date]:
    """The days the words name against the report date: the previous session (a result's
    `previous_session`), this or last week (Monday to Sunday) or month."""
    said = said.casefold()
    if "session" in said or "sesión" in said or said in ("yesterday", "ayer", "the day before"):
        day = case.previous_session
        return (day, day) if day is not None else (None, report)
    monday = report - timedelta(days=report.weekday())
    if "week" in said or "semana" in said:
        if "last" in said or "pasada" in said:
            return monday - timedelta(days=7), monday - timedelta(days=1)
        return monday, report
    first = report.replace(day=1)
    if "last" in said or "pasado" in said:
        end = first - timedelta(days=1)
        return end.replace(day=1), end
    return first, report


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

"""A level said for a period: "closed November at 370.90", "ended 2023 at 341.91", "closed the
third quarter at 245.66", "cerró noviembre en 40,65", "a month ago it stood at 370.90". The
figure is the close of the period's last session (or of the session a week, month, quarter or
year before the report date): held against the session of every level the trace matches it to,
one of another session is `wrong_time` (the close of December 24 said to be November's).
"""

from __future__ import annotations

import calendar
import re
from collections.abc import Iterator
from datetime import date, timedelta
from functools import cache

from contract.reasons import ReasonCode
from verifier.lexicon import LANGUAGES
from verifier.rules.case import Case
from verifier.scanner import fold_aligned
from verifier.verdict import Reason

_ORDINALS = {
    "first": 1, "1st": 1, "second": 2, "2nd": 2, "third": 3, "3rd": 3, "fourth": 4, "4th": 4,
    "primer": 1, "segundo": 2, "tercer": 3, "cuarto": 4,
}  # fmt: skip
_AGO = {"week": 7, "month": 30, "quarter": 91, "year": 365, "semana": 7, "mes": 30,
        "trimestre": 91, "año": 365}  # fmt: skip
_SLACK = 7
"""Days a period's last session may fall before its last calendar day (weekends, holidays)."""


@cache
def _months() -> dict[str, int]:
    return {m.casefold(): i + 1 for lexicon in LANGUAGES for i, m in enumerate(lexicon.months)}


@cache
def _said() -> re.Pattern[str]:
    months = "|".join(sorted(_months(), key=len, reverse=True))
    ordinal = "|".join(_ORDINALS)
    period = (
        rf"(?:the\s+|el\s+)?(?P<q>{ordinal})[-\s](?:quarter|trimestre)(?:\s+(?:of\s+|de\s+)?(?P<qy>(?:19|20)\d\d))?"
        rf"|q(?P<qn>[1-4])(?:\s+(?P<qny>(?:19|20)\d\d))?"
        rf"|(?P<m>{months})(?:\s+(?:de\s+)?(?P<my>(?:19|20)\d\d))?"
        rf"|(?:el\s+(?:año\s+)?)?(?P<y>(?:19|20)\d\d)"
    )
    ago = r"(?:a|one|un|una)\s+(?P<ago>week|month|quarter|year)\s+ago|hace\s+(?:una?\s+)(?P<hace>semana|mes|trimestre|año)"
    began = (
        r"(?:began|started|opened|entered|empezó|comenzó|arrancó|inició)\s+(?:the\s+|el\s+|la\s+)?"
        r"(?P<began>year|quarter|month|week|año|trimestre|mes|semana)"
    )
    last_week = (
        r"(?:(?:from|at|to|of|vs\.?|versus|against)\s+)?(?P<lw>last\s+week'?s(?:\s+close)?|the\s+"
        r"(?:previous|prior)\s+week'?s\s+close|(?:el\s+)?cierre\s+de\s+la\s+semana\s+"
        r"(?:pasada|anterior))(?:\s+(?:of|was|at|de|en|fue|era))?:?"
    )
    return re.compile(
        rf"(?<!\w)(?:(?:closed|ended|finished|cerró|terminó|acabó|finalizó)\s+(?:out\s+)?(?:{period})"
        rf"\s+(?:at|on|en|a)|{began}\s+(?:at|en|a)|{last_week}|(?:{ago})(?:,?\s+(?:it|the\s+stock|the\s+shares)?\s*"
        r"(?:closed|stood|traded|was|cerró|estaba|cotizaba|valía)?\s*(?:at|en|a)?)?)"
        r"\s*(?:us\$|\$)?\s*(?=\d)"
    )


@cache
def _said_after() -> re.Pattern[str]:
    """A period named right after its level ("31.63 at the end of November", "370.90 a month
    ago", "40,65 a finales de noviembre")."""
    months = "|".join(sorted(_months(), key=len, reverse=True))
    return re.compile(
        r"\s*(?:(?:at|by)\s+the\s+end\s+of|a\s+finales\s+de|al\s+cierre\s+de)\s+"
        rf"(?P<m>{months})(?:\s+(?:de\s+)?(?P<my>(?:19|20)\d\d))?(?!\w)"
        r"|\s*(?:(?:a|one)\s+(?P<ago>week|month|quarter|year)\s+ago|hace\s+(?:una?\s+)"
        r"(?P<hace>semana|mes|trimestre|año))(?!\w)"
        r"|\s*(?:at|from|as\s+of|al|del|en\s+el)\s+(?P<lw>(?:last|the\s+(?:previous|prior))\s+"
        r"week'?s\s+close|cierre\s+de\s+la\s+semana\s+(?:pasada|anterior))(?!\w)"
    )


def check_period_levels(case: Case) -> Iterator[Reason]:
    """Each level said for a period, held against the sessions of the levels it matches."""
    text = case.trace.draft or ""
    folded = fold_aligned(text)
    if not any(w in folded for w in ("closed", "ended", "finished", "cerró", "terminó", "acabó",
                                      "finalizó", "ago", "hace", "week", "semana")):  # fmt: skip
        return
    report = case.report_day
    if report is None:
        return
    by_start = {f.claim.start: f for f in case.figures}
    said = [(m, by_start.get(m.end())) for m in _said().finditer(folded)]
    said += [
        (m, f) for f in case.figures if (m := _said_after().match(folded, f.claim.end)) is not None
    ]
    for m, figure in said:
        if figure is None or not figure.in_scope:
            continue
        window = _window(m, report)
        if window is None:
            continue
        first, last = window
        sessions = [
            x.span.end for x in figure.in_scope if x.span is not None and x.span.start is None
        ]
        if not sessions or any(first <= s <= last for s in sessions):
            continue
        yield Reason(
            rule=ReasonCode.WRONG_TIME,
            message=(
                f'"{text[min(m.start(), figure.claim.start) : max(m.end(), figure.claim.end)]}" gives '
                f"{figure.claim.text} as the close of {first} to {last}, but the trace has it for "
                "the session of "
                f"{', '.join(sorted({s.isoformat() for s in sessions}))}"
            ),
            span=(min(m.start(), figure.claim.start), max(m.end(), figure.claim.end)),
        )


_QUARTER = re.compile(
    rf"(?<!\w)(?:(?P<q>{'|'.join(_ORDINALS)})[-\s](?:quarter|trimestre)|q(?P<qn>[1-4])|(?P<tn>[1-4])t)"
    r"(?:\s+(?:of\s+|de\s+|del\s+)?(?P<y>(?:19|20)\d\d))?(?!\w)"
)
_REPORTED = re.compile(
    r"\s*(?:fiscal\s+)?(?:earnings|results|report|eps|revenue|sales|resultados|beneficios|ingresos|"
    r"ventas|informe)(?!\w)"
)
"""A quarter named for what a company reports ("fourth-quarter earnings"): an event's attribute
(`verifier.rules.event_attributes`), not a window of prices."""


def check_named_quarters(case: Case) -> Iterator[Reason]:
    """A quarter named by its number ("ends the third quarter up 37.29%", "en el tercer
    trimestre", "Q4"): the only quarter the results compute is the report date's, to date, so a
    change or a move said for another one is `wrong_time`; a level said for one is held by
    `check_period_levels`, and a quoted headline's words are the headline's."""
    text = case.trace.draft or ""
    folded = fold_aligned(text)
    if (
        "quarter" not in folded
        and "trimestre" not in folded
        and not re.search(r"q[1-4]|[1-4]t", folded)
    ):
        return
    report = case.report_day
    if report is None:
        return
    current = (report.month - 1) // 3 + 1
    quotes = [f.claim for f in case.findings if f.claim.kind == "quote"]
    levels = [m.span() for m in _said().finditer(folded)]
    for m in _QUARTER.finditer(folded):
        if (
            _REPORTED.match(folded, m.end())
            or any(q.start <= m.start() < q.end for q in quotes)
            or any(a <= m.start() < b for a, b in levels)
        ):
            continue
        named = _ORDINALS[m["q"]] if m["q"] else int(m["qn"] or m["tn"])
        year = int(m["y"]) if m["y"] else report.year
        if (named, year) == (current, report.year):
            case.bound.append(m.span())  # the report's quarter: the window the results hold
            continue
        yield Reason(
            rule=ReasonCode.WRONG_TIME,
            message=(
                f'"{text[m.start() : m.end()]}" names a quarter the results do not hold: they '
                f"compute the quarter of the report date {report} (Q{current} {report.year}) to date"
            ),
            span=m.span(),
        )


def _window(m: re.Match[str], report: date) -> tuple[date, date] | None:
    """The days the period's last session falls in: its last week, or the days around the
    session a week, month, quarter or year before the report date."""
    g = {k: v for k, v in m.groupdict().items() if v}
    began = g.get("began")
    if g.get("lw") or began in ("week", "semana"):  # the last session of the week before
        monday = report - timedelta(days=report.weekday())
        return monday - timedelta(days=7), monday - timedelta(days=1)
    if began:  # "began the quarter at": the close before its first session
        word = {"año": "year", "trimestre": "quarter", "mes": "month"}.get(began, began)
        if word == "year":
            return _last_week(report.year - 1, 12)
        if word == "quarter":
            end = 3 * ((report.month - 1) // 3)
            return _last_week(report.year, end) if end else _last_week(report.year - 1, 12)
        return _last_week(
            *((report.year, report.month - 1) if report.month > 1 else (report.year - 1, 12))
        )
    if g.get("ago") or g.get("hace"):
        back = report - timedelta(days=_AGO[g.get("ago") or g["hace"]])
        return back - timedelta(days=4), back + timedelta(days=4)
    if g.get("q") or g.get("qn"):
        quarter = _ORDINALS[g["q"]] if g.get("q") else int(g["qn"])
        year = int(g.get("qy") or g.get("qny") or 0) or _latest(report, 3 * quarter)
        return _last_week(year, 3 * quarter)
    if g.get("m"):
        month = _months()[g["m"]]
        return _last_week(int(g.get("my") or 0) or _latest(report, month), month)
    if not g.get("y"):
        return None
    year = int(g["y"])
    return _last_week(year, 12) if year < report.year else None


def _latest(report: date, month: int) -> int:
    """The year of the latest such month that has ended by the report date."""
    return report.year if month < report.month else report.year - 1


def _last_week(year: int, month: int) -> tuple[date, date]:
    end = date(year, month, calendar.monthrange(year, month)[1])
    return end - timedelta(days=_SLACK), end

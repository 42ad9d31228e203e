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
    return re.compile(
        rf"(?<!\w)(?:(?:closed|ended|finished|cerró|terminó|acabó|finalizó)\s+(?:out\s+)?(?:{period})"
        rf"\s+(?:at|on|en|a)|(?:{ago})(?:,?\s+(?:it|the\s+stock|the\s+shares)?\s*"
        r"(?:closed|stood|traded|was|cerró|estaba|cotizaba|valía)?\s*(?:at|en|a)?)?)"
        r"\s*(?:us\$|\$)?\s*(?=\d)"
    )


def check_period_levels(case: Case) -> Iterator[Reason]:
    """Each level said for a period, held against the sessions of the levels it matches."""
    text = case.trace.draft or ""
    folded = fold_aligned(text)
    if not any(w in folded for w in ("closed", "ended", "finished", "cerró", "terminó", "acabó",
                                      "finalizó", "ago", "hace")):  # fmt: skip
        return
    try:
        report = date.fromisoformat((case.trace.as_of or "")[:10])
    except ValueError:
        return
    by_start = {f.claim.start: f for f in case.figures}
    for m in _said().finditer(folded):
        figure = by_start.get(m.end())
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
                f'"{text[m.start() : figure.claim.end]}" gives {figure.claim.text} as the close of '
                f"{first} to {last}, but the trace has it for the session of "
                f"{', '.join(sorted({s.isoformat() for s in sessions}))}"
            ),
            span=(m.start(), figure.claim.end),
        )


def _window(m: re.Match[str], report: date) -> tuple[date, date] | None:
    """The days the period's last session falls in: its last week, or the days around the
    session a week, month, quarter or year before the report date."""
    if m["ago"] or m["hace"]:
        back = report - timedelta(days=_AGO[m["ago"] or m["hace"]])
        return back - timedelta(days=4), back + timedelta(days=4)
    if m["q"] or m["qn"]:
        quarter = _ORDINALS[m["q"]] if m["q"] else int(m["qn"])
        year = int(m["qy"] or m["qny"] or 0) or _latest(report, 3 * quarter)
        return _last_week(year, 3 * quarter)
    if m["m"]:
        month = _months()[m["m"]]
        return _last_week(int(m["my"] or 0) or _latest(report, month), month)
    year = int(m["y"])
    return _last_week(year, 12) if year < report.year else None


def _latest(report: date, month: int) -> int:
    """The year of the latest such month that has ended by the report date."""
    return report.year if month < report.month else report.year - 1


def _last_week(year: int, month: int) -> tuple[date, date]:
    end = date(year, month, calendar.monthrange(year, month)[1])
    return end - timedelta(days=_SLACK), end

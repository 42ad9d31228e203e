"""Times: the session or window a figure is stated for, and the one a result holds it for.

A draft binds a figure to a time by a date next to it ("closed at 291.10 on 2024-12-31"), by a
window phrase ("up 5.2% over the past month", "en lo que va de año") or both; a result binds its
figures by its structure: a level (`close`) to its session, a change to the window between its
two sessions. Unknown on either side matches anything; the two disagree only where both say
something and what they say cannot be the same time.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Sequence
from datetime import date, timedelta
from itertools import pairwise
from typing import NamedTuple, Protocol

from verifier.labels import column_header
from verifier.lexicon import alternatives, grouped
from verifier.periods import item_bar, own_period
from verifier.scanner import PhraseScan

DateReading = tuple[int | None, int, int | None]


class Span(NamedTuple):
    """What a result holds a figure for: a level at `end` (no `start`), or a change from `start`
    to `end`; `asked` are the dates the call asked for (a window's ends as requested)."""

    start: date | None
    end: date
    asked: tuple[date, ...] = ()

    def describe(self) -> str:
        if self.start is None:
            return f"the session of {self.end.isoformat()}"
        return f"{self.start.isoformat()} to {self.end.isoformat()}"


class ClaimTime(NamedTuple):
    """What a draft states a figure for: a kind of window (or "day"), and the dates it names
    (the session, the start of a "since", both ends of a range, the end of an "as of")."""

    kind: str = ""
    days: tuple[DateReading, ...] = ()
    role: str = ""
    """How the dates are named: "" (the session), "since", "through", "range", or "period" (a
    month that is the figure's own window: "rose 11.5% in November")."""

    def describe(self) -> str:
        words = {"": "", "day": "the day", "ytd": "the year to date", "wtd": "the week to date"}
        kind = words.get(self.kind, f"the {self.kind}")
        days = " to ".join(_show(d) for d in self.days)
        if self.role == "since":
            days = f"since {days}"
        return " ".join(p for p in (kind, days) if p) or "an unstated time"


def _show(reading: DateReading) -> str:
    year, month, day = reading
    parts = [str(year) if year else "", f"{month:02d}", f"{day:02d}" if day else ""]
    return "-".join(p for p in parts if p)


WINDOW = PhraseScan(grouped("windows"))
"""A window phrase, its kind the name of the group that matched (case-folded text)."""
_LEAD = re.compile(
    rf"(?<!\w)(?:(?P<range>{alternatives('range_open')})|(?P<since>{alternatives('since')})"
    rf"|(?P<through>{alternatives('through')}))\s+(?:(?:the|its|their|el|la|su|last|past|previous)\s+)?$"
)
"""The word before a date that gives it a role: a range's start, a since, an as-of; a since
followed by a second date ("desde ... hasta ...") opens a range too."""
_SINCE_WORD = re.compile(alternatives("since"))
_RANGE_JOIN = re.compile(rf"\s*(?:{alternatives('range_join')}|[-–—])\s*(?:the\s+|el\s+)?")
_BASE_BEFORE = re.compile(
    r"(?<!\w)(?:from|versus|vs\.?|against|compared\s+(?:with|to)|relative\s+to|than|above|below"
    r"|over|under|desde|frente\s+a|(?:con\s+)?respecto\s+a|de|sobre|por\s+(?:encima|debajo)\s+de)"
    r"\s+(?:a\s+|the\s+|an?\s+)?(?:(?:previous|prior)\s+close\s+of\s+)?[$€£]?\s*$"
)
"""A figure a change is measured from ("down from 287.14"): a date before it is not its time."""


class Timed(Protocol):
    """What this module reads of a claim and the two fields it sets."""

    time: ClaimTime | None
    role: str
    field: str
    direction: int
    unit: str

    @property
    def period(self) -> object: ...

    @property
    def kind(self) -> str: ...
    @property
    def start(self) -> int: ...
    @property
    def end(self) -> int: ...
    @property
    def dates(self) -> tuple[DateReading, ...]: ...


_FIGURES = ("number", "money", "percent", "move")
_BACKWARD = frozenset({"previous_close"})
"""Fields that are about the session before the one a sentence names."""


def attach_times(
    text: str, folded: str, claims: Sequence[Timed], starts: list[int]
) -> list[tuple[int, int]]:
    """Give each figure the time its sentence states for it (see the module docstring).

    Returns the spans of the window phrases: a number inside one ("the last 30 days", "1M") is
    part of the time, not a figure. Dates first get a role from the word before them (since,
    through, a range's two ends); a figure then takes the nearest window phrase and the nearest
    date of its sentence that no other figure stands between (a date before it may be crossed, as a sentence's opening "On
    December 31, ..." holds for all its figures, but not for a previous close or a base).
    """
    dates = [c for c in claims if c.kind == "date" and c.dates]
    figures = [c for c in claims if c.kind in _FIGURES]
    if not figures:
        return []
    windows = [(m.start(), m.end(), m.lastgroup or "") for m in _windows(folded)]
    inside = [(s, e) for s, e, _ in windows if any(c.isdigit() for c in folded[s:e])]
    if inside:
        figures = [f for f in figures if not any(s <= f.start and f.end <= e for s, e in inside)]
        # a year a window opens at stays a figure, checked by the dates ("desde el cierre de 2023")
        inside = [(s, y.start() if (y := _YEAR_END.search(folded, s, e)) else e) for s, e in inside]
    if not dates and not windows:
        _the_day(figures, dates, starts)
        return inside
    _roles(folded, dates)
    ends = [f.end for f in figures]
    date_starts = [d.start for d in dates]
    for k, figure in enumerate(figures):
        sentence = bisect_right(starts, figure.start) - 1
        lo = starts[sentence]
        hi = starts[sentence + 1] if sentence + 1 < len(starts) else len(text)
        near = _nearest_window(folded, windows, figure, k, ends, lo, hi) if windows else None
        kind = near[0] if near else ""
        if kind == "week" and near and _TO_DATE.search(folded, near[1], near[2]):
            kind = "wtd"  # "down 1.10% week to date": since the last close of the week before
        days, role = (
            _nearest_dates(folded, dates, date_starts, figures, k, ends, (lo, hi))
            if dates
            else ((), "")
        )
        if near and (year := _YEAR_IN.search(folded, near[1], near[2])):
            # "desde el cierre de 2023 gana un 20 %": the window opens at that year's end, and
            # a date of an earlier clause is not its time ("desde el 24 de diciembre ... y")
            if near[2] <= figure.start:
                days, role = ((int(year.group()), 12, None),), "since"
            elif days:
                kind = ""  # the next clause's window; this figure's time is its own date
        if near and days and _NEXT_SESSION.search(folded, near[1], near[2]):
            days, role = (), ""  # "hit FBB on December 30 ... closed 1.87% higher the next day"
        if near and days:
            if near[1] >= figure.end and _own_date_first(dates, date_starts, figure, near[1], days):
                kind = ""  # "3.70% drop on December 31 is larger than ... over the past week"
            elif _COORDINATED.search(
                folded, _date_end(dates, days, figure), min(near[1], figure.start)
            ):
                days, role = (), ""  # "dating back to December 26, and ... off 5.37% for the week"
        base = _base_before(folded, figures, k, lo)
        if not kind and base is not None and base.kind and (role == "since" or not days):
            # "over the quarter, from 25.98 on 2023-12-29, +32.41%": the base's window is the
            # change's, measured from the base's day
            kind, days, role = base.kind, days or base.days, "since" if base.days else role
        if role == "" and days and all(d[2] is None for d in days):
            if days[0][1] > 12:
                days = ()  # a quarter: `verifier.periods` binds it
            else:
                kind = kind or "month"
                if any(
                    own_period(text, (figure.start, figure.end), (d.start, d.end))
                    for d in dates
                    if d.dates[:1] == days[:1] and lo <= d.start < hi
                ):
                    role = "period"  # "rose 11.5% in November": the month is its window
        if kind or days:
            figure.time = ClaimTime(kind, days, role)
    _move_times(folded, figures)
    _restated_times(folded, figures, windows)
    _heading_times(text, dates, figures)
    _the_day(figures, dates, starts, windows)
    for figure in figures:
        if ARROW.match(folded, figure.end) or _OPERAND.search(
            folded, max(figure.start - 4, 0), figure.start
        ):
            figure.time = None  # "703.72 → 702.61": the level the move came from, its own day;
            # "-$62.16 / $2,404,320.71 ≈ 0.00%": a divisor, the value it is (its own time)
    return inside


ARROW = re.compile(r"[ \t]*(?:→|->|⟶|⇒|=>|➝|➞)[ \t]*[$€£]?[ \t]*[-+−]?\d")
"""A level followed by an arrow and another ("Price: 703.72 → 702.61"): the first is where the
move came from (`verifier.grammar.field_words` names it the previous close)."""
_OPERAND = re.compile(r"[/÷][ \t]*[$€£]?[ \t]*$")
"""A figure written as the divisor of a formula: it is the value divided by, not a figure said
for the line's time."""
_OPENS_CLAUSE = re.compile(r"(?:[,;)]\s*|\s)(?:and|but|y|pero|while|mientras|although|aunque)\s+$")
"""A conjunction right before a window phrase: the window opens the clause after it."""
_NEXT_SESSION = re.compile(r"next|following|siguiente")
"""A day window said relative to the date before it ("the next day", "al día siguiente"): one
session, not the date's own."""
_COORDINATED = re.compile(
    r"(?:[,;]\s*|\s)(?:and|but|while|whereas|although|though|y|pero|mientras|aunque)\s|;"
)
"""A break between two clauses of one sentence that each state their own time."""


def _own_date_first(
    dates: Sequence[Timed], date_starts: list[int], figure: Timed, window: int, days: tuple
) -> bool:
    """Whether the figure's date stands right after it, before the window phrase it would take:
    the date is its time, and the window after is said of what follows."""
    i = bisect_left(date_starts, figure.end)
    return i < len(dates) and dates[i].start < window and dates[i].dates[:1] == days[:1]


def _date_end(dates: Sequence[Timed], days: tuple, figure: Timed) -> int:
    """Where the date a figure took ends, when it stands before the figure (else the figure's
    start, so that nothing lies between)."""
    before = [d for d in dates if d.end <= figure.start and d.dates[:1] == days[:1]]
    return before[-1].end if before else figure.start


_RESTATED = re.compile(r"\s*\(\s*")
_RESTATED_CLOSE = re.compile(r"\s*\)")


def _restated_times(
    folded: str, figures: Sequence[Timed], windows: Sequence[tuple[int, int, str]]
) -> None:
    """A figure restated in brackets right after another ("about a third (33.15%)", "una
    cuarta parte (25,25 %)") is the same quantity: both take one time, the window that
    follows the bracket directly if one does, else the first one's. A change's percentage in
    brackets after it ("rose 0.12 (0.20%)") takes the change's time where it has none."""
    for first, second in pairwise(figures):
        if (
            first.kind in ("number", "money")
            and second.kind == "percent"
            and second.time is None
            and first.time is not None
            and _RESTATED.fullmatch(folded, first.end, second.start)
            and _RESTATED_CLOSE.match(folded, second.end)
        ):
            second.time = first.time  # "over the week it rose 0.12 (0.20%)": the change's window
            continue
        if not (
            first.kind == second.kind == "percent"
            and _RESTATED.fullmatch(folded, first.end, second.start)
            and (closed := _RESTATED_CLOSE.match(folded, second.end))
        ):
            continue
        after = closed.end()
        follows = any(after <= s <= after + 2 for s, _, _ in windows)
        time = second.time if follows else (first.time or second.time)
        first.time = second.time = time


_EARLIER_FIELDS = frozenset({"previous_close", "portfolio_value"})
"""Fields of a level at the close before the heading's day: the heading's day is not theirs."""
_HEADING = re.compile(r"[^\n]*[:：][\s*_]*$")
"""A line that ends with a colon: the heading of the lines under it."""


def _heading_times(text: str, dates: Sequence[Timed], figures: Sequence[Timed]) -> None:
    """A figure on a line of a block under a heading that names one day and no figure
    ("Cartera P003 — 30 de diciembre:", "**AXO on Dec 31:**") is stated as of that day, as each
    line of a list is (the day's change or a window ending there), unless the line names a time
    of its own or the figure is the base a change is measured from."""
    if not dates or "\n" not in text:
        return
    for figure in figures:
        if figure.time is not None or getattr(figure, "field", "") in _EARLIER_FIELDS:
            continue  # "Portfolio value at previous close: $2,404,320.71": the day before's
        line = text.rfind("\n", 0, figure.start) + 1
        if _BASE_BEFORE.search(text[max(line, figure.start - 60) : figure.start].lower()):
            continue  # "Change: -14.03 from 351.30": the base is the session before the day
        heading = _heading_above(text, line)
        if heading is None:
            continue
        lo, hi = heading
        named = [d for d in dates if lo <= d.start < hi and not d.role]
        if len(named) == 1 and not any(lo <= f.start < hi for f in figures):
            figure.time = ClaimTime("", named[0].dates, "through")  # as of: a window ends there


def _heading_above(text: str, line: int) -> tuple[int, int] | None:
    """The span of the heading line over the block `line` is in: no blank line between, or one
    right under the heading ("Here's what the data shows for AXO yesterday:", a blank line, a
    table)."""
    blank = False
    while line > 0:
        above = text.rfind("\n", 0, line - 1) + 1
        row = text[above : line - 1]
        if not row.strip():
            if blank:
                return None
            blank = True
        elif _HEADING.fullmatch(row):
            return above, line - 1
        elif blank:
            return None  # a paragraph, not a heading, above the blank line
        line = above
    return None


_MOVE_TO_FIGURE = re.compile(
    r"\s+(?:by\s+|un\s+|en\s+)?(?:just\s+|slightly\s+|algo\s+|ligeramente\s+)?"
    r"(?:over|more\s+than|above|at\s+least|under|less\s+than|below|at\s+most|nearly|almost|"
    r"roughly|about|around|más\s+de[l]?|menos\s+de[l]?|casi|cerca\s+de[l]?|alrededor\s+de[l]?)\s+"
    r"(?:un\s+|el\s+)?"
)
"""What may stand between a move and the figure that sizes it ("is up more than 3%", "subió
algo más del 1 %"): a bound or an approximation, so the figure is the move's and its time is."""


def _move_times(folded: str, figures: Sequence[Timed]) -> None:
    """A figure right after a move, joined by a bound ("over the quarter, COD is up more than
    3%"), takes the move's time: the window the sentence names is said of both."""
    for move, figure in pairwise(figures):
        if (
            move.kind == "move"
            and figure.kind != "move"
            and figure.time is None
            and move.time is not None
            and _MOVE_TO_FIGURE.fullmatch(folded, move.end, figure.start)
        ):
            figure.time = move.time


def _the_day(
    figures: Sequence[Timed],
    dates: Sequence[Timed],
    starts: list[int],
    windows: Sequence[tuple[int, int, str]] = (),
) -> None:
    """A change a direction word governs ("climbed more than 1%") in a sentence that names no
    window and no date is the session's: a daily report's move is the day's, and the week's or
    year's change must be named as such."""
    named = {bisect_right(starts, c.start) for c in dates}
    named |= {bisect_right(starts, s) for s, _, _ in windows}
    for figure in figures:
        if (
            figure.time is None
            and figure.direction
            and figure.unit
            and figure.period is None  # "for 2024 as a whole": the year's
            and bisect_right(starts, figure.start) not in named
        ):
            figure.time = ClaimTime("day")


def _windows(folded: str) -> list[re.Match[str]]:
    return WINDOW.finditer(folded)


def _roles(folded: str, dates: Sequence[Timed]) -> None:
    """Each date's role from the word right before it (one search of every lead word)."""
    for i, claim in enumerate(dates):
        if claim.role:
            continue
        lead = _LEAD.search(folded, max(claim.start - 24, 0), claim.start)
        if lead is None:
            if _HOLDINGS_AT.search(folded, max(claim.start - 40, 0), claim.start):
                claim.role = "holdings"  # "con las posiciones de P002 a 19 de diciembre"
            elif "|" in folded[max(claim.start - 40, 0) : claim.start] and _SINCE_HEAD.search(
                column_header(folded, claim.start)
            ):
                claim.role = "since"  # a table's "Measured from" / "Desde el cierre del" cell
            continue
        if (lead.group("range") or lead.group("since")) and i + 1 < len(dates):
            after = dates[i + 1]
            if _RANGE_JOIN.fullmatch(folded, claim.end, after.start):
                claim.role = after.role = "range"
                continue
        opener = lead.group("range")
        if lead.group("since") or (opener and _SINCE_WORD.fullmatch(opener)):
            claim.role = "since"  # "from December 30" without a second date: since then
        elif lead.group("through"):
            held = _HOLDINGS_BEFORE.search(folded, max(lead.start() - 24, 0), lead.start())
            claim.role = "holdings" if held else "through"


_SINCE_HEAD = re.compile(rf"(?<!\w)(?:{alternatives('since')})(?!\w)")
"""A table column whose header is a since word ("Measured from", "Start session") holds where
each row's change is measured from."""
_HOLDINGS_BEFORE = re.compile(
    r"(?<!\w)(?:holdings|positions|quantities|shares\s+held|posiciones|tenencias)\s*$"
)
_BASE_BETWEEN = re.compile(
    r"(?<!\w)(?:por\s+(?:encima|debajo)\s+del?|frente\s+al?|respecto\s+(?:al?|del?)|con\s+respecto\s+al?|"
    r"than|above|below|versus|vs\.?|compared\s+(?:with|to)|against)\s"
)
"""A base named between a figure and the date after it ("2,36 dólares por encima del cierre
de ayer", "4.93% below its November 29 close"): the figure is a change since that date."""
_MEASURED_FROM = re.compile(
    r"(?<!\w)(?:from|versus|vs\.?|against|compared\s+(?:with|to)|desde|frente\s+a|"
    r"respecto\s+(?:a|al|de)|since)\s+(?:(?:a|an|the|its|el|la|los|su)\s+)?(?:(?:previous|prior)\s+"
    r"close\s+of\s+|(?:close|cierre)\s+(?:(?:anterior\s+)?de|of)\s+)?[$€£]?\s*$"
)
"""A figure named as where a change is measured from ("against a previous close of 114.72",
"desde 64,78", "desde el cierre de 65,30"): a date right after it starts the later change's
window."""


def _base_before(folded: str, figures: Sequence[Timed], k: int, lo: int) -> ClaimTime | None:
    """The time of the figure a change is measured from, earlier in the change's sentence
    ("from 25.98 on 2023-12-29", "desde el cierre de 65,30 del 2024-12-24"), if one."""
    for base in reversed(figures[:k]):
        if base.start < lo:
            return None
        if base.time is not None and _MEASURED_FROM.search(
            folded, max(base.start - 40, lo), base.start
        ):
            return base.time
    return None


_DATED = re.compile(
    r"\s*(?:[$€£]|dólares|usd)?\s*(?:(?:close|closing\s+price|level|finish|cierre)\s+)?"
    r"(?:(?:de|del|of|from|on|at|el|en)\s+)?(?:the\s+|el\s+)?"
)
"""A date right after a figure ("114.72 on 2024-12-30", "64,78 el 2024-11-29", "the 145.05 close
of 2024-12-30"): that figure's."""
_OWN_BEFORE = re.compile(r"\s*(?:[$€£]|dólares|usd)?\s*(?:(?:de|del|of|from)\s+)?(?:the\s+|el\s+)?")
"""A date right after a figure, joined by "de" or nothing ("los 130,14 de ayer", "83.51 the
session before"): that figure's time, not the next one's."""
_OWN_LEVEL = re.compile(
    r"(?:['’]s)?\s+(?:close|closing\s+(?:price|level)|finish|level)(?:\s+(?:of|at|was))?\s*[$€£]?\s*"
)
"""A date's own level named right before the figure ("Monday's close of $92.19", "from the
December 30 close of 92.19"): the figure is that session's, even after a "from"."""
_LEVEL_BRACKET = re.compile(
    r"(?<!\w)(?:close|closing\s+price|level|cierre(?:\s+(?:anterior|previo))?|nivel)\s*\(\s*$"
)
"""A level with its day in brackets right after it ("the previous close (Monday)", "el cierre
anterior (lunes)"): the day is that level's, not the later figures' of its sentence."""
_OWN_AFTER = re.compile(r"\s*\(\s*[-−+]?[$€£]?\s*\d")
"""A figure in brackets right after a date ("el cierre de ayer (163,24)"): the date is its."""
_HOLDINGS_AT = re.compile(
    r"(?<!\w)(?:(?:posiciones|tenencias|holdings|positions)(?:\s+(?:de|of)\s+\w+)?\s+(?:a|al)"
    r"|(?:holdings|positions|snapshot)\s+(?:date|dated)(?:\s+(?:of|is|was))?:?"
    r"|fecha\s+de\s+(?:las\s+)?(?:posiciones|tenencias)(?:\s+(?:es|era|del?))?:?)\s+$"
)
"""Holdings named with their day by "a" ("las posiciones de P002 a 19 de diciembre") or by
their date ("as of the holdings date 2024-12-19", "fecha de las posiciones: 19/12/2024")."""
"""What an as-of date may name instead of a figure's time: "holdings as of 2024-12-19" is when
the holdings were taken, not when the figures after it were."""
_YEAR_IN = re.compile(r"(?:19|20)\d\d")
_YEAR_END = re.compile(r"(?<!\d)(?:19|20)\d\d$")
"""A year inside a window phrase ("desde el cierre de 2023"): the window's start."""
_CLAUSE_BREAK = re.compile(r"[,;:|•·]|\s(?:but|while|whereas|and|pero|mientras|y)\s")


_NEXT_CLAUSE = re.compile(
    r"[|•·]|(?:today|hoy|yesterday|ayer|the\s+day|the\s+session|la\s+sesión|el\s+día),?\s+"
    r"(?:and|but|while|whereas|pero|mientras|y)\s"
)
"""A figure whose day is said right after it, then a clause of its own ("-3.99% today and
finishes the year down 14.09%"), or a bar or bullet: the window after is the next figure's."""
_BRACKETED = re.compile(r"\s*\(\s*[-−+]?[$€£]?\s*")
"""A figure in brackets right after a window phrase ("the past week (-2.82%)"): that window's."""


def _nearest_window(
    folded: str,
    windows: list[tuple[int, int, str]],
    figure: Timed,
    k: int,
    ends: list[int],
    lo: int,
    hi: int,
) -> tuple[str, int, int] | None:
    """The kind, start and end of the window phrase a figure takes."""
    best: tuple[int, str, int, int] | None = None
    for start, end, kind in windows:
        if start < lo or end > hi:
            continue
        if start >= figure.end:
            gap, crossed = start - figure.end, bisect_left(ends, start) - 1 != k
        else:
            gap, crossed = figure.start - end, bisect_right(ends, end) < k
            if _BRACKETED.fullmatch(folded, end, figure.start):
                gap -= 80  # "over the past week (-2.82%) than over the month": its label's
        if start >= figure.end and _NEXT_CLAUSE.search(folded, figure.end, start):
            continue  # "fell 3.99% today and finishes the year down": the next clause's own
        if start >= figure.end and _CLAUSE_BREAK.search(folded, figure.end, start):
            if k + 1 < len(ends) and ends[k + 1] > end:
                continue  # "un 31 %, y en la semana, casi un 2 %": the next figure's window
            if _OPENS_CLAUSE.search(folded, figure.end, start):
                continue  # "(-1,14 %), y en el año más que duplica": the next clause opens with it
            gap += 40  # "... 3.74%, pero en el trimestre ...": the next clause's window
        elif start >= figure.end and gap < 40:
            gap -= 40  # a window right after its figure is its own ("4.93% over the month")
        if not crossed and (best is None or gap < best[0]):
            best = (gap, kind, start, end)
    return best[1:] if best else None


_SEARCHED = re.compile(
    r"(?<!\w)(?:no|nothing|without|sin|ningún|ninguna)\s+(?:[\w']+\s+){0,2}?(?:news|headlines?|"
    r"stories|items?|titulares|titular|noticias?)(?!\w)"
)
"""Words that make a date after a figure the window a search found nothing in, not the
figure's time ("fell 1.35% to 399.54 with no headlines in the December 28–31 window")."""


_NEWS_ITEM = re.compile(
    r"(?<!\w)(?:reports?|headlines?|articles?|stor(?:y|ies)|news|releases?|announcements?|"
    r"filings?|informes?|noticias?|titulares?|notas?|comunicados?)(?!\w)"
)
"""A news item named between a figure and the date after it: the date is the item's."""


def _closed_bracket(folded: str, day: Timed, at: int, ends: list[int]) -> bool:
    """Whether a date stands inside a bracket that closes before `at` and holds a figure of its
    own after the date ("(ayer estaba en 79,09 $)"); a bracket that only labels what follows
    ("Previous close (Dec 30): 351.30") gives its day to that."""
    opened = folded.rfind("(", 0, day.start)
    if opened < 0 or ")" in folded[opened : day.start]:
        return False
    closed = folded.find(")", day.end, at)
    return closed >= 0 and any(day.end < e <= closed for e in ends)


_BRACKET_CLAUSE_END = re.compile(r"\s*\)\s*[,;]")


def _earlier_clause_bracket(folded: str, day: Timed, at: int, ends: list[int], k: int) -> bool:
    """Whether a date stands in a bracket that annotates an earlier figure's clause and a
    clause break follows the bracket ("versus 17.38 in the previous session (2024-12-30), a
    move of -0.63", "1.45% (from $60.10 on 9/30/2024), year to date -14.09%"): the date is
    that figure's, not the next clause's. A bracket that opens the sentence ("On Monday (Dec
    30), JBBM fell 1%") has no figure before it and keeps its day for what follows."""
    opened = folded.rfind("(", 0, day.start)
    if not k or opened < 0 or ")" in folded[opened : day.start]:
        return False
    closed = _BRACKET_CLAUSE_END.match(folded, day.end)
    if closed is None or closed.end() > at:
        return False
    before = ends[k - 1]
    return before <= day.start and not re.search(r"[,;:]", folded[before:opened])


def _own_bracket(folded: str, end: int, after: Timed, ends: list[int], k: int) -> bool:
    """Whether the date after a figure opens a bracket that holds a figure of its own ("cerró
    en 78,75 $ (ayer, lunes, estaba en 79,09 $)"): the bracket's day is that figure's."""
    opened = folded.rfind("(", end, after.start)
    if opened < 0 or ")" in folded[opened : after.start]:
        return False
    closed = folded.find(")", after.end)
    return k + 1 < len(ends) and after.end < ends[k + 1] <= (closed if closed >= 0 else len(folded))


def _nearest_dates(
    folded: str,
    dates: Sequence[Timed],
    date_starts: list[int],
    figures: Sequence[Timed],
    k: int,
    ends: list[int],
    sentence: tuple[int, int],
) -> tuple[tuple[DateReading, ...], str]:
    lo, hi = sentence
    figure = figures[k]
    i = bisect_left(date_starts, figure.end)
    if i < len(dates):
        after = dates[i]
        near = after.start < hi and after.start - figure.end < 40
        searched = (
            _SEARCHED.search(folded, figure.end, after.start)
            or _NEWS_ITEM.search(folded, figure.end, after.start)
            or item_bar(folded, figure.end, after.start)
        )  # "with no news in the 28–31 window", "followed a Reuters report on Monday"
        near = near and not _own_bracket(folded, figure.end, after, ends, k)  # 28–31 window"
        level_of_next = k + 1 < len(figures) and _OWN_LEVEL.fullmatch(
            folded, after.end, figures[k + 1].start
        )  # "lost 898.72, after Monday's close of 17.80": Monday is the close's, not the loss's
        near = near and not level_of_next
        if near and bisect_left(ends, after.start) - 1 == k and not searched:
            days, role = _group(dates, after)
            if role in ("", "through") and _BASE_BETWEEN.search(folded, figure.end, after.start):
                role = "since"  # "2,36 dólares por encima del cierre de ayer": measured from it
            return days, role
    if not i or dates[i - 1].start < lo or figure.field in _BACKWARD:
        return (), ""  # "on 2024-06-14, up from the prior day's close of 26.19": not its time
    last = dates[i - 1]
    if (
        last.role == "holdings"
        or _closed_bracket(folded, last, figure.start, ends)
        or _earlier_clause_bracket(folded, last, figure.start, ends, k)
    ):
        return (), ""  # "(ayer, lunes, estaba en 79,09 $), un -0,43 %": the bracket's own day
    if _OWN_LEVEL.fullmatch(folded, last.end, figure.start):
        return _group(dates, last)[0], ""  # "from Monday's close of $92.19": that session's
    crossed = bisect_right(ends, last.end) < k
    if crossed and _LEVEL_BRACKET.search(folded, max(last.start - 30, lo), last.start):
        return (), ""  # "the previous close (Monday) was 88.51, so the day change was": its own
    j = bisect_right(ends, last.start) - 1  # the last figure before the date
    if 0 <= j < k and ends[j] >= lo and _DATED.fullmatch(folded, ends[j], last.start):
        base = figures[j]
        if base.field in _BACKWARD or _MEASURED_FROM.search(
            folded, max(base.start - 40, lo), base.start
        ):
            return _group(dates, last)[0], "since"  # "desde 64,78 el 2024-11-29, acumula -9,77 %"
        return (), ""  # "cerró en 58,45 el 31, una variación de -0,10": the close's own day
    if crossed and _OWN_AFTER.match(folded, last.end):
        return (), ""  # "los 130,14 de ayer (-0,02 %)", "del cierre de ayer (163,24), un 1,45 %"
    if _BASE_BEFORE.search(folded, lo if crossed else max(figure.start - 40, lo), figure.start):
        return (), ""
    return _group(dates, last)


def _group(dates: Sequence[Timed], date_claim: Timed) -> tuple[tuple[DateReading, ...], str]:
    """The dates one named time is made of: both ends of a range, else the one date."""
    if date_claim.role == "range":
        i = list(dates).index(date_claim)
        pair = dates[i : i + 2] if i + 1 < len(dates) and dates[i + 1].role == "range" else ()
        if not pair or (i and dates[i - 1].role == "range" and pair[-1] is not date_claim):
            pair = dates[max(i - 1, 0) : i + 1]
        return tuple(p.dates[0] for p in pair), "range"
    return date_claim.dates, date_claim.role


def same_day(reading: DateReading, when: date) -> bool:
    year, month, day = reading
    return (year is None or year == when.year) and month == when.month and day == when.day


def _month_of(reading: DateReading, when: date) -> bool:
    year, month, _ = reading
    return (year is None or year == when.year) and month == when.month


_LENGTHS = {"day": (0, 4), "week": (5, 10), "month": (20, 35), "quarter": (80, 100)}
_LENGTHS |= {"year": (350, 380), "recent": (2, 10)}
"""A window "of the last few sessions" is more than one session and no more than two weeks."""


def times_agree(said: ClaimTime | None, held: Span | None) -> bool:
    """Whether a figure stated for `said` can be the one a result holds for `held`."""
    if said is None or held is None or not (said.kind or said.days):
        return True
    if held.start is None:  # a level "as of" a day is that day's ("as of Monday's close")
        if said.role not in ("", "through") or said.kind not in ("", "day"):
            return True  # a level is not a window's: "closed the week at" is its last close
        days = [d for d in said.days if d[2] is not None]
        return not days or any(same_day(d, held.end) for d in days)
    length = (held.end - held.start).days
    named = [d for d in said.days if d[2] is None and d[1] <= 12]
    if (
        named
        and said.role == "period"
        and not any(
            calendar_window(*period_bounds(d[0], None, d[1], held.end), held) for d in named
        )
    ):
        return False  # "rose 11.5% in November": a month is its own window
    kind = said.kind or ("day" if said.days and not said.role else "")
    if kind in _LENGTHS:
        low, high = _LENGTHS[kind]
        if not low <= length <= high and not (kind == "month" and _month_window(said, held)):
            return False
    elif kind == "wtd" and not said.days and not _week_start(held):
        return False  # a rolling week from a Tuesday is not the week to date (unless its
        # start is said: "Week to date (from 24 Dec)")
    elif kind == "ytd" and (not _year_start(held.start, said) or held.start.year == held.end.year):
        return False  # a year to date opens in the year before: the day's move is not it
    return _days_agree(said, held)


_TO_DATE = re.compile(r"to[-\s]date|wtd|so\s+far")
"""A week said up to the report date ("week to date", "WTD", "the week so far"): the calendar
week's, not the last five sessions'."""


def _week_start(held: Span) -> bool:
    """Whether a window opens where the report's calendar week does: at a close of the four
    days before its Monday (the last session of the week before)."""
    if held.start is None:
        return False
    monday = held.end - timedelta(days=held.end.weekday())
    return monday - timedelta(days=4) <= held.start < monday


def _year_start(when: date, said: ClaimTime) -> bool:
    """The last sessions of a year or the first of the next: where a year to date starts; of
    the year the window names where it names one ("desde el cierre de 2023")."""
    years = {d[0] for d in said.days if d[0] is not None and d[1] == 12 and d[2] is None}
    if (when.month == 12 and when.day >= 20) and (not years or when.year in years):
        return True
    return when.month == 1 and when.day <= 5 and (not years or when.year - 1 in years)


def calendar_window(first: date, last: date, held: Span | None) -> bool:
    """Whether a change is the one over the calendar period from `first` to `last` (a month, a
    quarter, a year): it opens at the period's eve (the last session before it, or its first
    day) and ends inside it ("in November" is no window that ends on December 31; "en 2024" no
    quarter's). A level, or a span no result gives, agrees."""
    if held is None or held.start is None:
        return True
    eve = first.toordinal() - 7
    return eve <= held.start.toordinal() <= first.toordinal() + 3 and first <= held.end <= last


def period_bounds(
    year: int | None, quarter: int | None, month: int | None, near: date
) -> tuple[date, date]:
    """The first and last day of a year, a quarter or a month; a year left unstated is
    `near`'s, or the one before where the period would open after `near`."""
    y = year or near.year
    if month:
        first = date(y, month, 1)
        last = date(y + month // 12, month % 12 + 1, 1)
    elif quarter:
        first = date(y, 3 * quarter - 2, 1)
        last = date(y + quarter // 4, (3 * quarter) % 12 + 1, 1)
    else:
        first, last = date(y, 1, 1), date(y + 1, 1, 1)
    if year is None and first > near:  # "in November" said in a January report: last year's
        return period_bounds(y - 1, quarter, month, near)
    return first, date.fromordinal(last.toordinal() - 1)


def _month_window(said: ClaimTime, held: Span) -> bool:
    """A month named ("in December") over the window from its eve to its end."""
    return any(d[2] is None and _month_of(d, held.end) for d in said.days)


def _opens_in(month: DateReading, start: date, end: date) -> bool:
    """Whether a window that opens on `start` opens as the month named opens (from its eve, the
    last close before it: "since September" from the August 30 close) or as it ends ("up 31.14%
    since September" for the quarter from the September 30 close); not in between."""
    year = month[0] or (end.year if month[1] <= end.month else end.year - 1)
    first = date(year, month[1], 1)
    last = date(year + (month[1] == 12), month[1] % 12 + 1, 1) - timedelta(days=1)
    return first - timedelta(days=7) <= start <= first + timedelta(days=3) or (
        last - timedelta(days=4) <= start <= last
    )


def _days_agree(said: ClaimTime, held: Span) -> bool:
    assert held.start is not None
    starts, ends = {held.start, *held.asked[:1]}, {held.end, *held.asked[1:]}
    days = [d for d in said.days if d[2] is not None]
    months = [d for d in said.days if d[2] is None and 1 <= d[1] <= 12]
    if said.role == "since" and months and not days:  # "since September": it opens then
        return any(_opens_in(d, s, held.end) for d in months for s in starts)
    if not days:
        return True
    if said.role == "since":  # a weekday alone reads as the last such day or the next one
        return any(same_day(d, s) for d in days for s in starts)
    if said.role == "range":
        return any(same_day(days[0], s) for s in starts) and any(
            same_day(days[-1], e) for e in ends
        )
    if said.kind not in ("", "day") and any(same_day(days[-1], s) for s in starts):
        return True  # "vs the 12/24 close, +0.20% on the week": the day the window opens
    return any(same_day(days[-1], e) for e in ends)

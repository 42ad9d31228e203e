"""The claim: one checkable statement of a draft, with its span and what binds it."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

from verifier.literals import Reading
from verifier.periods import Period
from verifier.times import ClaimTime

Kind = Literal["number", "money", "percent", "date", "ticker", "headline", "move"]
DateReading = tuple[int | None, int, int | None]
"""(year or None, month, day or None); months 13-16 stand for quarters 1-4 (day None)."""
QUARTER_BASE = 12

FIGURE_KINDS = frozenset({"number", "money", "percent"})
PORTFOLIO_SUBJECT = "@portfolio"
"""The subject of a result's figures that are the portfolio's own (its value, return, day P&L):
a result naming a `portfolio_id` and no `ticker`. No ticker of a draft is it."""
BENCHMARK_SUBJECT = "@benchmark"
"""The subject of a result object whose `ticker` is null (the equal-weight universe a portfolio
is measured against): its figures are no ticker's."""
SUBJECT_WORDS = {PORTFOLIO_SUBJECT: "the portfolio", BENCHMARK_SUBJECT: "the benchmark"}


def subject_words(subjects: Iterable[str]) -> str:
    """Subjects as a reason names them: tickers, "the portfolio", "the benchmark"."""
    return ", ".join(sorted(SUBJECT_WORDS.get(s, s) for s in subjects))


@dataclass(slots=True)
class Claim:
    """One checkable statement of the draft."""

    text: str
    start: int
    end: int
    kind: Kind
    readings: tuple[Reading, ...] = ()
    scale: float = 1.0
    sign: int = 0
    unit: str = ""
    direction: int = 0
    direction_word: str = ""
    dates: tuple[DateReading, ...] = ()
    symbol: str = ""
    scope: frozenset[str] = frozenset()
    period: Period | None = None
    period_own: bool = False
    """For a figure: its period is its own window ("rose 31.14% in Q4", "en 2024 pierde un
    14 %"), not a day's or a base's ("on the last trading day of 2024")."""
    tied: bool = False
    """A period named only as a base: a change's ("from Q3 2019"), or a base figure's ("down from
    $2.39 in Q3 2019")."""
    used: bool = False
    """A period some figure of the text is stated for."""
    name: str = ""
    """The designation a whole number is part of ("MAX 10", "S&P 500"): a name, not a quantity."""
    bound: int = 0
    """+1 for a lower bound ("over 100", "más de 5"), -1 for an upper one ("fewer than 100")."""
    weekday: int = -1
    """The day of the week written with a date ("Monday, December 30, 2024"): 0 Monday."""
    field: str = ""
    """What the draft calls the figure right before it ("closed at", "previous close of"): a
    key of `FIELDS`, or empty."""
    session: str = ""
    """For a quoted headline: when its sentence says it came ("before", "during" or "after" the
    trading session: "published after the close"), or empty."""
    headline: str = ""
    """For a date: the quoted headline it says when came ("\"Acme beats estimates\"
    (2024-12-30T21:05Z)", "published on December 30"), or empty."""
    time: ClaimTime | None = None
    """For a figure: the session or window its sentence states it for (`verifier.times`)."""
    role: str = ""
    """For a date: how it names a time ("since", "through", "range" or "" for a session)."""
    points: bool = False
    """For a percentage: written in percentage points ("1.24 pp"), a difference of percentages."""
    event: str = ""
    """For a date: the kind of corporate event the draft names it as the day of ("earnings on
    2025-01-13", "dividendo el 13 de enero"): a key of `EVENT_KINDS`, or empty."""
    level: str = ""
    """For a figure after "to" or "from" of a price move ("fell 2.03% to 399.54"): "close" or
    "previous_close", held as that field where the trace holds the figure as a price level."""
    beside: tuple[DateReading, ...] = ()
    """For a weekday said relative to the report date ("next Monday", "este viernes"): the day
    of the date written beside it, where the word names other days (`dates`)."""

    @property
    def bare_quarter(self) -> bool:
        """A quarter named for what its sentence says: not as a base, not as a figure's period."""
        return (
            self.kind == "date"
            and not self.tied
            and not self.used
            and any(month > QUARTER_BASE and day is None for _, month, day in self.dates)
        )

    @property
    def span(self) -> tuple[int, int]:
        return (self.start, self.end)

"""Facts: the figures a trace vouches for, each with where it sits (event, tool, key, ticker),
what binds it (the session or window of its result, the period its text states) and where it
came from (JSON, a result string, a news string); and the failed calls."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import NamedTuple

from contract.tools import TRAITS, traits_of
from verifier.claim import subject_words
from verifier.periods import Period
from verifier.times import Span

CALCULATING_TOOLS = frozenset(name for name, t in TRAITS.items() if t.computes or t.sql)
"""Tools whose results are computed figures: the only source a percentage may come from."""
NEWS_TOOLS = frozenset(name for name, t in TRAITS.items() if t.news or t.sql)
QUESTION = "question"
"""The pseudo event id of facts the question itself states."""

_PERCENT_KEY = re.compile(
    r"pct|percent|return|ratio|yield|weight|contribution|^value$|(?:^|_)rate$"
)
YEAR = re.compile(r"(?:19|20)\d\d")
MONEY = re.compile(r"(?i)[$€£]|\b(?:usd|eur|gbp|dollars?|d[oó]lar(?:es)?|euros?)\b")
_PERCENT_UNIT_KEY = re.compile(r"pct|percent")
"""Keys whose numbers are already in percent (`change_pct: -1.35` is -1.35%, never -135%)."""
_CHANGE_KEY = re.compile(r"change|chg|pct|pnl|p_l|return|diff|delta|move|gain|loss|contribution")
ISO_DATE = re.compile(
    r"(\d{4})-(\d\d)-(\d\d)(?:[T ](\d\d):\d\d(?::\d\d(?:\.\d+)?)?(Z|[+-]\d\d:?\d\d)?)?"
)
TOKEN = re.compile(r"(?<![\w$&.])\$?([A-Z]{1,5}(?:[.-][A-Z]{1,2})?)(?![\w&-])")


FROM_JSON, FROM_TEXT, FROM_NEWS, FROM_FAILURE = range(4)
"""Where a fact was read: a JSON number, a result string, a news string, a failed call's error."""


class Fact(NamedTuple):
    """One number the trace vouches for."""

    value: float
    event: str
    tool: str
    key: str
    ticker: str | None
    percent: bool
    signed: bool
    decimals: int = -1
    """Decimals as written, for numbers found in text; -1 for JSON numbers."""
    period: Period | None = None
    """The period the text states the number for (see `verifier.periods`); None for JSON."""
    bound: int = 0
    """Whether the text writes the number as a lower (+1) or upper (-1) bound ("over 100")."""
    span: Span | None = None
    """The session (a level) or window (a change) the result's structure holds it for."""
    origin: int = 0
    """`FROM_JSON`, `FROM_TEXT`, `FROM_NEWS` or `FROM_FAILURE`: text vouches for no market
    figure, news text for no figure but an announced one, an error for a bare count only."""

    @property
    def change(self) -> bool:
        """Whether the key names a change (its sign is a direction), not a level."""
        return traits_of(self.tool).arithmetic or bool(_CHANGE_KEY.search(self.key))

    def describe(self) -> str:
        where = "the question" if self.event == QUESTION else f"{self.tool} {self.event}"
        about = f" for {subject_words([self.ticker])}" if self.ticker else ""
        key = f"{self.key} " if self.key else ""
        when = f" for {self.span.describe()}" if self.span else ""
        return f"{key}{self.value:g}{about}{when} in {where}"


@dataclass(slots=True, frozen=True)
class Failure:
    """A call that failed, and whether a later call of the same tool for the same ticker succeeded."""

    event: str
    tool: str
    ticker: str | None
    message: str
    resolved: bool


def make_fact(
    value: float,
    event: str,
    tool: str,
    key: str,
    ticker: str | None,
    percent: bool,
    signed: bool,
    decimals: int,
    period: Period | None,
    bound: int = 0,
    span: Span | None = None,
    origin: int = 0,
) -> Fact:
    """A `Fact` without the generated constructor's keyword handling (it is built per number)."""
    return tuple.__new__(
        Fact,
        (value, event, tool, key, ticker, percent, signed, decimals, period, bound, span, origin),
    )


def magnitude(fact: Fact) -> float:
    return abs(fact.value)


@lru_cache(maxsize=1024)
def percent_key(key: str) -> bool:
    return bool(_PERCENT_KEY.search(key))


@lru_cache(maxsize=1024)
def writes_money(text: str) -> bool:
    """Whether a text (the question) writes an amount of money at all."""
    return MONEY.search(text) is not None


@lru_cache(maxsize=1024)
def in_percent(key: str) -> bool:
    return bool(_PERCENT_UNIT_KEY.search(key))


@lru_cache(maxsize=1024)
def fraction_key(key: str, tool: str) -> bool:
    """Whether a signed ratio under `key` of `tool`'s result is also a percentage (0.0645 for
    6.45%): not where the key is already in percent, and of a SQL result only under a percent
    key (a SQL `change` of 3.71 is not 371%)."""
    return not in_percent(key) and (not traits_of(tool).sql or percent_key(key))

"""The Parquet data contract: one file per table, these columns, these types, these keys.

Everything that reads `data/` (the checker, the catalog, the importer) takes its
column lists from here, so the contract is stated once.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import time
from zoneinfo import ZoneInfo

import pyarrow as pa

UTC_TS = pa.timestamp("us", tz="UTC")
SAFE_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$")
"""Tickers and portfolio ids name report and case files, so each must be one safe path
component: letters, digits, '.', '_' or '-', at most 128, starting with a letter or digit."""
SAFE_NAME_RULE = "use letters, digits, '.', '_' or '-' (at most 128, no '..')"


def is_safe_name(name: str) -> bool:
    """Whether `name` can be used as one file name under the output root."""
    return bool(SAFE_NAME.fullmatch(name)) and ".." not in name


ID_SEPARATOR = "__"
"""What joins a ticker, a question id and a portfolio id into a case id (`TICKER__move`)."""
MAX_QUESTION_ID = 32
MAX_ID = 40
"""The longest ticker or portfolio id: a case id joins a ticker, a question id and a portfolio
id, and a re-asked attempt adds `.rerun-<n>`, all within one safe name (128)."""


def id_problem(name: str) -> str | None:
    """Why `name` cannot be a ticker or portfolio id, or None. With no part holding the
    separator (and each starting with a letter or digit), case ids are injective: two
    different (ticker, question, portfolio) never name one case file."""
    if not is_safe_name(name):
        return SAFE_NAME_RULE
    if len(name) > MAX_ID:
        return f"at most {MAX_ID} characters (a case id joins it with a question and a portfolio)"
    if ID_SEPARATOR in name:
        return f"no {ID_SEPARATOR!r} (it joins the parts of a case id)"
    return None


@dataclass(frozen=True)
class Table:
    """One contract table: its Arrow schema and the columns that identify a row."""

    name: str
    schema: pa.Schema
    key: tuple[str, ...]
    nullable: frozenset[str] = frozenset()
    optional: frozenset[str] = frozenset()
    """Columns a file may lack (added to the contract after data sets were made): a reader takes
    them as null, so they are nullable too."""

    @property
    def columns(self) -> list[str]:
        return self.schema.names

    @property
    def filename(self) -> str:
        return f"{self.name}.parquet"


COMPANIES = Table(
    "companies",
    pa.schema(
        [
            ("ticker", pa.string()),
            ("name", pa.string()),
            ("sector", pa.string()),
            ("currency", pa.string()),
            ("exchange", pa.string()),
            ("price_basis", pa.string()),
        ]
    ),
    key=("ticker",),
)
PRICES = Table(
    "prices",
    pa.schema(
        [
            ("ticker", pa.string()),
            ("date", pa.date32()),
            ("open", pa.float64()),
            ("high", pa.float64()),
            ("low", pa.float64()),
            ("close", pa.float64()),
            ("volume", pa.int64()),
        ]
    ),
    key=("ticker", "date"),
)
NEWS = Table(
    "news",
    pa.schema(
        [
            ("ticker", pa.string()),
            ("published_at", UTC_TS),
            ("headline", pa.string()),
            ("source", pa.string()),
        ]
    ),
    key=("ticker", "published_at", "source", "headline"),
)
EVENTS = Table(
    "events",
    pa.schema(
        [
            ("ticker", pa.string()),
            ("date", pa.date32()),
            ("kind", pa.string()),
            ("value", pa.float64()),
            ("announced_at", UTC_TS),
        ]
    ),
    key=("ticker", "date", "kind"),
    nullable=frozenset({"value"}),
)
HOLDINGS = Table(
    "holdings",
    pa.schema(
        [
            ("portfolio_id", pa.string()),
            ("as_of", pa.date32()),
            ("ticker", pa.string()),
            ("quantity", pa.float64()),
            ("cost_basis", pa.float64()),
        ]
    ),
    key=("portfolio_id", "as_of", "ticker"),
)
PORTFOLIOS = Table(
    "portfolios",
    pa.schema(
        [
            ("portfolio_id", pa.string()),
            ("name", pa.string()),
            ("base_currency", pa.string()),
            ("benchmark", pa.string()),
        ]
    ),
    key=("portfolio_id",),
    nullable=frozenset({"benchmark"}),
    optional=frozenset({"benchmark"}),
)

TABLES: dict[str, Table] = {
    t.name: t for t in (COMPANIES, PRICES, NEWS, EVENTS, HOLDINGS, PORTFOLIOS)
}
EVENT_KINDS = ("earnings", "dividend", "split")
MAX_DAY_MOVE = 10.0
"""A close above this many times the session before's, or below its inverse, once splits are
taken out, is taken for a data error (`nightdesk data check --max-day-move`): a report would
state it as a move."""
PRICE_BASES = ("as_traded", "split_adjusted")
"""How a ticker's prices treat splits: as traded (a split shows as a drop on its date) or
split-adjusted by the vendor (earlier prices already divided by the ratio)."""


@dataclass(frozen=True)
class Exchange:
    """Where a ticker trades: the time zone and regular session that date the news and the as-of moment."""

    code: str
    tz: ZoneInfo
    open: time
    close: time


EXCHANGES: dict[str, Exchange] = {
    code: Exchange(code, ZoneInfo("America/New_York"), time(9, 30), time(16, 0))
    for code in ("NYSE", "NASDAQ", "AMEX")
}

"""Argument types the tools share: strict ISO dates and upper-case tickers, described for the model."""

from __future__ import annotations

import re
from datetime import date
from typing import Annotated, Any

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, StringConstraints

ISO_DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")
"""ASCII digits only: `\\d` would take other scripts' digits (`２０２４-０３-２８`)."""


def parse_iso_date(value: Any) -> date:
    """Only `YYYY-MM-DD` text: no timestamps, no epoch numbers, no other layouts."""
    if isinstance(value, date):
        return value
    if not isinstance(value, str) or not ISO_DATE.fullmatch(value):
        raise ValueError(f"expected an ISO date YYYY-MM-DD, got {value!r}")
    try:
        return date.fromisoformat(value)
    except ValueError:
        raise ValueError(f"{value!r} is not a calendar date") from None


IsoDate = Annotated[
    date,
    BeforeValidator(parse_iso_date),
    Field(description="ISO date YYYY-MM-DD"),
]
Ticker = Annotated[
    str,
    StringConstraints(pattern=r"^[A-Z][A-Z0-9.\-]{0,11}$"),
    Field(description="Ticker symbol in upper case, e.g. MSFT"),
]
PortfolioId = Annotated[
    str,
    StringConstraints(min_length=1, max_length=64),
    Field(description="Portfolio id as listed in the portfolios table"),
]


class ToolArgs(BaseModel):
    """Base of every argument model: unknown arguments are refused, not ignored."""

    model_config = ConfigDict(extra="forbid", frozen=True)

"""How values from DuckDB are written for the model: ISO dates, UTC timestamps ending in `Z`
(news times on the exchange's clock, with their offset), floats without NaN or infinity."""

from __future__ import annotations

import math
from datetime import UTC, date, datetime, tzinfo
from decimal import Decimal
from typing import Any


def iso_utc(moment: datetime) -> str:
    return moment.astimezone(UTC).isoformat().replace("+00:00", "Z")


def iso_local(moment: datetime, tz: tzinfo) -> str:
    """The moment on a local clock with its UTC offset (`2024-12-31T19:15:00-05:00`)."""
    return moment.astimezone(tz).isoformat()


def jsonable(value: Any) -> Any:
    """A DuckDB value as JSON: ISO dates, UTC timestamps, floats without NaN."""
    if isinstance(value, datetime):
        return iso_utc(value) if value.tzinfo else value.isoformat()
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, Decimal):
        value = float(value)
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, list | tuple):
        return [jsonable(v) for v in value]
    if isinstance(value, dict):
        return {str(k): jsonable(v) for k, v in value.items()}
    if value is None or isinstance(value, bool | int | str):
        return value
    return str(value)

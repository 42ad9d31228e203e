"""How reports write numbers in each language: one format for the portfolio table, the drafts the
program writes and the prompts that ask a model for them, so a figure reads the same everywhere.

English groups thousands with `,` and writes decimals after `.` (224,256.34); Spanish the other
way round (224.256,34) and puts a space before `%` (1,31 %). A figure keeps every decimal its
value has: formatting adds separators and trailing zeros, it never rounds (the verifier compares
a figure at the precision it shows, so a rounded one could fail where the value itself holds).
"""

from __future__ import annotations

import math
from decimal import Decimal

SEPARATORS = {"en": (",", "."), "es": (".", ",")}
"""Per language: the thousands separator, then the decimal mark."""
PERCENT = {"en": "%", "es": " %"}
MONEY_DECIMALS = 2
"""Prices, amounts and percentages show at least two decimals; counts and share quantities
that are whole show none."""
MAX_DECIMALS = 6


def format_number(value: float | int, language: str, decimals: int = MONEY_DECIMALS) -> str:
    """`value` with the language's separators and at least `decimals` decimals (more when the
    value has them, up to `MAX_DECIMALS`); an int, or a whole float asked with 0, has none."""
    if isinstance(value, float) and not math.isfinite(value):
        return str(value)
    shown = max(decimals if not isinstance(value, int) else 0, _decimals_of(value))
    text = f"{value:,.{shown}f}"
    thousands, mark = SEPARATORS.get(language, SEPARATORS["en"])
    return text.translate({ord(","): thousands, ord("."): mark})


def format_signed(value: float | int, language: str, decimals: int = MONEY_DECIMALS) -> str:
    """A change with its sign, `+` for a rise or none: +3.71, -0.41, +0.00."""
    text = format_number(value, language, decimals)
    return text if text.startswith("-") else f"+{text}"


def format_percent(
    value: float | int, language: str, *, signed: bool = False, decimals: int = MONEY_DECIMALS
) -> str:
    """A percentage: 1.31% (en), 1,31 % (es); `signed` writes +1.31%."""
    number = (format_signed if signed else format_number)(value, language, decimals)
    return number + PERCENT.get(language, PERCENT["en"])


def format_quantity(value: float | int, language: str) -> str:
    """A share quantity: 781 for 781.0, 2,192 for 2192.0, 12.5 for a fractional holding."""
    return format_number(value, language, 0)


def _decimals_of(value: float | int) -> int:
    """The decimals `value` has as Python writes it shortest (1.5 has one, 17.8 one, 2.0 none)."""
    if isinstance(value, int):
        return 0
    exponent = Decimal(repr(float(value))).normalize().as_tuple().exponent
    return min(max(0, -int(exponent)), MAX_DECIMALS)

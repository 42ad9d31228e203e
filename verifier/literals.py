"""Number literals as reports write them, in English and Spanish conventions.

A literal such as `1.092` is ambiguous (English 1.092, Spanish 1092): it keeps every reading, and
a claim is supported when any reading is. Each reading remembers how many decimals it displays,
because a figure is compared at the precision it shows.
"""

from __future__ import annotations

from typing import NamedTuple


class Reading(NamedTuple):
    """One interpretation of a literal: its magnitude and the decimals it displays."""

    value: float
    decimals: int


SCALES: dict[str, float] = {
    "cent": 1e-2,
    "cents": 1e-2,
    "centavo": 1e-2,
    "centavos": 1e-2,
    "¢": 1e-2,
    "k": 1e3,
    "thousand": 1e3,
    "mil": 1e3,
    "m": 1e6,
    "mn": 1e6,
    "mm": 1e6,
    "million": 1e6,
    "millions": 1e6,
    "millón": 1e6,
    "millon": 1e6,
    "millones": 1e6,
    "b": 1e9,
    "bn": 1e9,
    "billion": 1e9,
    "billions": 1e9,
    "mil millones": 1e9,
    "millardos": 1e9,
    "t": 1e12,
    "tn": 1e12,
    "trillion": 1e12,
    "billón": 1e12,
    "billon": 1e12,
    "billones": 1e12,
}
"""Scale words; Spanish `billón` is 10^12, English `billion` 10^9."""


def read_digits(literal: str) -> tuple[Reading, ...]:
    """Every plausible reading of a digit string with `,` and `.` separators."""
    commas, dots = literal.count(","), literal.count(".")
    if commas and dots:
        decimal = "," if literal.rfind(",") > literal.rfind(".") else "."
        return (_reading(literal, decimal),)
    sep = "," if commas else "." if dots else ""
    if not sep:
        return (Reading(float(literal), 0),)
    if literal.count(sep) > 1:
        return (_reading(literal, None),)
    tail = len(literal) - literal.index(sep) - 1
    if tail == 3 and literal[0] != "0":
        return (_reading(literal, None), _reading(literal, sep))
    return (_reading(literal, sep),)


def decimal_mark(literal: str) -> str:
    """The decimal mark a digit string shows beyond doubt ("1,387.26", "3.99", "1,000,000" ->
    "."; "1.387,26", "3,99" -> ","), or "" where it could be either ("781,000") or none."""
    commas, dots = literal.count(","), literal.count(".")
    if commas and dots:
        return "," if literal.rfind(",") > literal.rfind(".") else "."
    if commas > 1 or dots > 1:
        return "." if commas else ","
    sep = "," if commas else "." if dots else ""
    if sep and len(literal) - literal.index(sep) - 1 != 3:
        return sep
    return ""


def read_with_mark(literal: str, mark: str) -> Reading:
    """The one reading of a digit string whose draft writes its decimals with `mark`."""
    sep = "," if "," in literal else "."
    return _reading(literal, sep if sep == mark else None)


def _reading(literal: str, decimal: str | None) -> Reading:
    if decimal is None:
        return Reading(float(literal.replace(",", "").replace(".", "")), 0)
    whole, _, frac = literal.rpartition(decimal)
    whole = whole.replace(",", "").replace(".", "")
    return Reading(float(f"{whole or '0'}.{frac}"), len(frac))


def tolerance(decimals: int) -> float:
    """Half a unit of the last displayed decimal, with room for binary rounding."""
    return 0.5 * 10.0**-decimals * (1 + 1e-9) + 1e-12

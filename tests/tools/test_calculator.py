"""calculate: arithmetic walked as a syntax tree; everything else is refused."""

from __future__ import annotations

import pytest

from tools.catalog import Catalog
from tools.registry import call_tool


@pytest.mark.parametrize(
    ("expression", "value"),
    [
        ("1 + 2 * 3", 7.0),
        ("(1 + 2) * 3", 9.0),
        ("-(4 - 10) / 4", 1.5),
        ("(182.5 - 175.25) / 175.25 * 100", round((182.5 - 175.25) / 175.25 * 100, 6)),
        ("--2", 2.0),
        ("1e3 / 8", 125.0),
        ("2 / 3", 0.666667),
    ],
)
def test_arithmetic(catalog: Catalog, expression: str, value: float) -> None:
    assert call_tool(catalog, "calculate", {"expression": expression}) == {
        "expression": expression,
        "value": value,
    }


@pytest.mark.parametrize(
    ("expression", "fragment"),
    [
        ("1 / 0", "division by zero"),
        ("1 / (2 - 2)", "division by zero"),
        ("2 ** 10", "not allowed"),
        ("7 % 3", "not allowed"),
        ("__import__('os').system('id')", "not allowed"),
        ("x + 1", "not allowed"),
        ("abs(-1)", "not allowed"),
        ("True + 1", "not allowed"),
        ("'a' * 3", "not allowed"),
        ("1 +", "cannot parse"),
        ("", "cannot parse"),
        ("1" + "*9" * 200, "at most 300 characters"),
        ("1e308 * 10", "not a finite number"),
    ],
)
def test_bad_expression(catalog: Catalog, expression: str, fragment: str) -> None:
    result = call_tool(catalog, "calculate", {"expression": expression})
    assert fragment in result["error"]

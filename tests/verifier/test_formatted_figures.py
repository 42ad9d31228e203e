"""Figures written as the reports write them (`contract.number_format`): thousands grouped in English
(224,256.34) and in Spanish (224.256,34), whole share counts without decimals, trailing zeros
shown. The verifier reads each at its value, so a formatted figure holds when the tool's value
does and fails when a digit differs."""

from __future__ import annotations

import pytest

from contract.number_format import format_number, format_percent, format_quantity
from verifier.verify import verify_json as verify

RESULT = {
    "portfolio_id": "P001",
    "ticker": "AXO",
    "session": "2024-12-31",
    "quantity": 2192.0,
    "close": 17.8,
    "market_value": 224256.34,
    "day_pnl": -898.72,
    "pnl_pct": -2.3,
}
EVENT = {
    "id": "position-1",
    "tool": "get_position_pnl",
    "args": {"portfolio_id": "P001", "ticker": "AXO", "date": "2024-12-31"},
    "result": RESULT,
}
WORDING = {
    "en": "AXO in portfolio P001: {quantity} shares closed at {close} on 2024-12-31, a market "
    "value of {market_value}; the day P&L was {day_pnl} ({pnl_pct}).",
    "es": "AXO en la cartera P001: {quantity} acciones cerraron a {close} el 2024-12-31, con un "
    "valor de mercado de {market_value}; el resultado del día fue {day_pnl} ({pnl_pct}).",
}


def draft(language: str, **override: str) -> str:
    figures = {
        "quantity": format_quantity(RESULT["quantity"], language),
        "close": format_number(RESULT["close"], language),
        "market_value": format_number(RESULT["market_value"], language),
        "day_pnl": format_number(RESULT["day_pnl"], language),
        "pnl_pct": format_percent(RESULT["pnl_pct"], language),
    }
    return WORDING[language].format(**{**figures, **override})


def verdict(language: str, text: str):
    question = "What did the AXO position contribute to portfolio P001 on 2024-12-31?"
    trace = {"question": question, "language": language, "draft": text, "events": [EVENT]}
    return verify(trace)


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        ("en", "2,192 shares closed at 17.80 on 2024-12-31, a market value of 224,256.34"),
        (
            "es",
            "2.192 acciones cerraron a 17,80 el 2024-12-31, con un valor de mercado de 224.256,34",
        ),
    ],
)
def test_figures_in_the_reports_format_are_read_at_their_value(language, expected) -> None:
    text = draft(language)
    assert expected in text and ("-898.72 (-2.30%)" in text or "-898,72 (-2,30 %)" in text)
    result = verdict(language, text)
    assert result.accepted, [r.message for r in result.reasons]
    supported = {c.text: c.supported_by for c in result.claims}
    for figure in (format_number(224256.34, language), format_quantity(2192.0, language)):
        assert supported[figure] == ["position-1"], figure  # one claim, held by the tool


@pytest.mark.parametrize(
    ("language", "wrong"),
    [
        ("en", {"market_value": "224,265.34"}),
        ("en", {"quantity": "2,912"}),
        ("es", {"market_value": "224.265,34"}),
        ("es", {"day_pnl": "-898,27"}),
    ],
)
def test_a_formatted_figure_with_a_wrong_digit_is_rejected(language, wrong) -> None:
    result = verdict(language, draft(language, **wrong))
    assert not result.accepted
    assert any(next(iter(wrong.values())) in (r.message or "") for r in result.reasons)

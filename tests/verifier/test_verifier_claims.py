"""Claim extraction: every format the issue lists, with spans, signs, directions and scope."""

from __future__ import annotations

import pytest

from verifier.claims import extract_claims


def one(text: str, kind: str | None = None):
    claims = [c for c in extract_claims(text) if kind is None or c.kind == kind]
    assert len(claims) == 1, [c.text for c in claims]
    return claims[0]


@pytest.mark.parametrize(
    ("text", "value", "decimals", "scale"),
    [
        ("closed at 1,092.00 today", 1092.0, 2, 1.0),
        ("cerró a 1.092,00 hoy", 1092.0, 2, 1.0),
        ("was 26.19 today", 26.19, 2, 1.0),
        ("was 26,19 hoy", 26.19, 2, 1.0),
        ("a margin of $1.2M", 1.2, 1, 1e6),
        ("sales of 1.2 million", 1.2, 1, 1e6),
        ("debt of 2.5bn", 2.5, 1, 1e9),
        ("ventas de 3,4 mil millones", 3.4, 1, 1e9),
    ],
)
def test_numbers_in_report_formats(text: str, value: float, decimals: int, scale: float) -> None:
    claim = one(text)
    assert (claim.readings[0].value, claim.readings[0].decimals, claim.scale) == (
        value,
        decimals,
        scale,
    )
    assert text[claim.start : claim.end] == claim.text


def test_ambiguous_separator_keeps_both_readings() -> None:
    assert {r.value for r in one("price 1.092 now").readings} == {1.092, 1092.0}


@pytest.mark.parametrize(
    ("text", "unit"),
    [
        ("6.45%", "%"),
        ("6,45 %", "%"),
        ("6.45 percent", "%"),
        ("6,45 por ciento", "%"),
        ("250 bps", "bps"),
    ],
)
def test_percentages(text: str, unit: str) -> None:
    claim = one(f"it moved {text} today")
    assert (claim.kind, claim.unit, claim.text) == ("percent", unit, text)


@pytest.mark.parametrize(
    ("text", "sign"), [("-3.2", -1), ("−3.2", -1), ("(3.2)", -1), ("+3.2", 1), ("3.2", 0)]
)
def test_signs(text: str, sign: int) -> None:
    assert one(f"change {text} on the day").sign == sign


def test_parenthesised_figure_after_a_figure_is_an_aside_not_a_negative() -> None:
    claims = extract_claims("AAPL rose $1.05 (0.55%) today")
    assert [(c.text, c.sign, c.direction) for c in claims[1:]] == [("$1.05", 0, 1), ("0.55%", 0, 1)]


@pytest.mark.parametrize(
    ("text", "reading"),
    [
        ("on 2024-03-15 it", (2024, 3, 15)),
        ("on March 15, 2024 it", (2024, 3, 15)),
        ("el 15 de marzo de 2024 se", (2024, 3, 15)),
        ("on Mar 15 it", (None, 3, 15)),
        ("at 2024-03-15T20:00:00Z it", (2024, 3, 15)),
        ("in the third quarter of 2021", (2021, 15, None)),
        ("in Q2 2020", (2020, 14, None)),
    ],
)
def test_dates(text: str, reading: tuple[int | None, int, int | None]) -> None:
    assert one(text, "date").dates == (reading,)
    assert not [c for c in extract_claims(text) if c.kind != "date"]


def test_tickers_cashtags_and_suffixes_but_not_acronyms() -> None:
    claims = extract_claims("BRK-A and $TSLA beat the EPS consensus in USD; AT&T and S&P held")
    assert [c.symbol for c in claims if c.kind == "ticker"] == ["BRK-A", "TSLA"]
    assert not [c for c in claims if c.kind != "ticker"]


def test_quoted_headlines_in_three_quote_styles_hide_their_numbers() -> None:
    text = 'He said "Acme beats Q3 with 12% growth", “Acme raises 2024 guidance” and «Acme sube un 5 %».'
    assert [c.text for c in extract_claims(text)] == [
        "Acme beats Q3 with 12% growth",
        "Acme raises 2024 guidance",
        "Acme sube un 5 %",
    ]


@pytest.mark.parametrize(
    ("text", "direction"),
    [
        ("AAPL rose 2.1%", 1),
        ("AAPL fell by 2.1%", -1),
        ("AAPL subió un 2,1 %", 1),
        ("AAPL cayó 2,1 %", -1),
        ("a loss of $3", -1),
        ("AAPL fell 2% to 95.20", -1),
    ],
)
def test_direction_words_govern_the_next_figure_only(text: str, direction: int) -> None:
    figures = [c for c in extract_claims(text) if c.kind in {"number", "money", "percent"}]
    assert figures[0].direction == direction
    assert all(f.direction == 0 for f in figures[1:])


def test_compound_words_ordinals_and_codes_are_not_figures() -> None:
    assert not [
        c for c in extract_claims("COVID-19 hit the 10-K; the 3rd item of 5G") if c.kind == "number"
    ]


def test_scope_is_the_tickers_before_the_figure() -> None:
    claims = extract_claims("AAPL closed at 190.2. MSFT closed at 410.5, above AAPL at 190.2.")
    figures = [c for c in claims if c.kind == "number"]
    assert [sorted(f.scope) for f in figures] == [["AAPL"], ["MSFT"], ["AAPL", "MSFT"]]


@pytest.mark.parametrize(
    ("text", "kind"),
    [("ſeis", "number"), ("15 de ſeptiembre de 2024", "date"), ("the ſecond quarter", "date")],
)
def test_words_that_match_only_case_insensitively_are_read_not_raised_on(
    text: str, kind: str
) -> None:
    assert one(text).kind == kind

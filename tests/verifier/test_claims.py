"""Claim extraction: every format the issue lists, with spans, signs, directions and scope."""

from __future__ import annotations

import pytest

from verifier.extraction import extract_claims
from verifier.verify import verify_json as verify


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
        ("a dividend of 87 cents", 87.0, 0, 0.01),
        ("pays 87¢ a share", 87.0, 0, 0.01),
        ("un dividendo de 87 centavos", 87.0, 0, 0.01),
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
        ("250 basis points", "bps"),
        ("0.13 percentage points", "%"),
        ("0.13 pp", "%"),
        ("0,13 puntos porcentuales", "%"),
    ],
)
def test_percentages(text: str, unit: str) -> None:
    claim = one(f"it moved {text} today")
    assert (claim.kind, claim.unit, claim.text) == ("percent", unit, text)


@pytest.mark.parametrize(
    ("text", "sign"),
    [
        ("-3.2", -1),
        ("−3.2", -1),
        ("–3.2", -1),
        ("(–3.2)", -1),
        ("minus 3.2", -1),
        ("Minus $3.2", -1),
        ("(3.2)", -1),
        ("+3.2", 1),
        ("3.2", 0),
    ],
)
def test_signs(text: str, sign: int) -> None:
    assert one(f"change {text} on the day").sign == sign


@pytest.mark.parametrize("text", ["a range of 4–7% today", "a range of 4-7% today"])
def test_a_dash_after_a_digit_is_a_range_not_a_sign(text: str) -> None:
    assert [(c.text, c.sign) for c in extract_claims(text)] == [("4", 0), ("7%", 0)]


def test_minus_right_after_a_figure_is_a_subtraction_not_a_sign() -> None:
    claims = extract_claims("287.14 minus 283.43 is 3.71")
    assert [(c.text, c.sign) for c in claims] == [("287.14", 0), ("283.43", 0), ("3.71", 0)]


MOVE = {
    "id": "move-1",
    "tool": "get_daily_move",
    "args": {"ticker": "AXO", "date": "2024-12-31"},
    "result": {"ticker": "AXO", "close": 287.14, "change": 3.71, "change_pct": 1.31},
}
NEWS = {
    "id": "news-1",
    "tool": "search_news",
    "args": {"ticker": "AXO"},
    "result": {
        "news": [{"headline": "Apex Oilfield Corp. reports quarterly EPS of $0.38 after review"}]
    },
}


def rules_fired(draft: str, event: dict[str, object]) -> list[str]:
    verdict = verify({"question": "How did AXO move?", "draft": draft, "events": [event]})
    return [r.rule for r in verdict.reasons]


@pytest.mark.parametrize(
    ("change", "rules"),
    [
        ("3.71 (1.31%)", []),
        ("+3.71 (+1.31%)", []),
        ("–3.71 (–1.31%)", ["unsupported_figure", "unsupported_figure"]),
        ("minus 3.71", ["unsupported_figure"]),
    ],
)
def test_a_written_minus_is_held_against_a_rise(change: str, rules: list[str]) -> None:
    assert rules_fired(f"AXO closed at 287.14, a day change of {change}.", MOVE) == rules


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
        ("on 31.12.2024 it", (2024, 12, 31)),
        ("on 31.12.2024.", (2024, 12, 31)),
        ("on 2024/12/31 it", (2024, 12, 31)),
        ("on 2024/1/5 it", (2024, 1, 5)),
        ("payable on 14-Jan-2025.", (2025, 1, 14)),
        ("el 13 ene. 2025 se", (2025, 1, 13)),
        ("el 5 ago de 2024 se", (2024, 8, 5)),
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


def test_quoted_headlines_in_single_and_german_quotes_hide_their_numbers() -> None:
    text = "Read ‘Acme beats Q3 with 12% growth’, „Acme hebt Prognose um 5 % an“ and ('Acme’s sales up 3%')."
    assert [c.text for c in extract_claims(text)] == [
        "Acme beats Q3 with 12% growth",
        "Acme hebt Prognose um 5 % an",
        "Acme’s sales up 3%",
    ]


@pytest.mark.parametrize(
    "text",
    [
        "AXO's shares and the stocks' gains of 5%",
        "rock 'n' roll of 5%",
        "the stocks' gains rose 5%' and",
        "the 'two words' of 5%",
    ],
)
def test_apostrophes_are_not_quotes(text: str) -> None:
    assert "headline" not in [c.kind for c in extract_claims(text)]
    assert "5%" in [c.text for c in extract_claims(text)]


def test_an_apostrophe_does_not_end_a_single_quoted_headline() -> None:
    text = "rock 'n' roll, then 'AXO's shares rise 5% today' said"
    assert [(c.text, c.kind) for c in extract_claims(text)] == [
        ("AXO's shares rise 5% today", "headline")
    ]


@pytest.mark.parametrize(
    "quote",
    [
        "‘Apex Oilfield Corp. reports yearly EPS of $0.38’",
        "„Apex Oilfield Corp. reports yearly EPS of $0.38“",
        "'Apex Oilfield Corp. reports yearly EPS of $0.38'",
    ],
)
def test_a_paraphrase_in_single_or_german_quotes_is_an_unknown_headline(quote: str) -> None:
    assert rules_fired(f"AXO news: {quote}.", NEWS) == ["unknown_headline"]


@pytest.mark.parametrize(
    ("quote", "rules"),
    [
        ('"Apex Oilfield Corp. reports quarterly…"', []),
        ('"Apex Oilfield Corp. reports quarterly EPS..."', []),
        ("“Apex Oilfield Corp. reports quarterly EPS of $0.38 …”", []),
        ('"Apex Oilfield Corp. reports quarterly EPS of $0.38 after review…"', []),
        ('"Apex Oilfield Corp. reports quarterly EPS of $0.3…"', ["unknown_headline"]),
        ('"Apex Oilfield Corp. reports yearly…"', ["unknown_headline"]),
        ('"Oilfield Corp. reports quarterly…"', ["unknown_headline"]),
        ('"Oilfield Corp. reports quarterly..."', ["unknown_headline"]),
        ('"Apex Oilfield Corp. reports quarterly EPS of $0.3..."', ["unknown_headline"]),
    ],
)
def test_a_headline_cut_short_with_an_ellipsis_must_be_a_headline_start(
    quote: str, rules: list[str]
) -> None:
    assert rules_fired(f"AXO news: {quote}", NEWS) == rules


def test_an_ellipsis_does_not_count_as_a_word_of_a_headline() -> None:
    assert "headline" not in [c.kind for c in extract_claims('said "Apex Oilfield …" today')]


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

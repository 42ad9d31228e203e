"""Figures held against the text they came from: the period they are stated for, half-up rounding
of written numbers, counts that stand only for whole numbers, and `$8.2m` as money.

The drafts retell a call's prose ("sales reached", "a record"), which no rule can check: the
closed-world rule rejects every one of them (`test_a_retold_source_is_an_unverified_claim`), so
`check` reads what the figure rules say and leaves that rule out."""

from __future__ import annotations

from typing import Any

import pytest

from contract.reasons import ReasonCode
from verifier.extraction import extract_claims
from verifier.periods import Period, periods_agree
from verifier.verdict import Verdict
from verifier.verify import verify_json as verify_trace

CALL = (
    "Diluted GAAP earnings per common share were $3.69 for the third quarter of 2021, improved "
    "from $3.41 in the second quarter of 2021 and $2.75 in the third quarter of 2020.\n"
    "Our sales forecast for 2021 remains in the range of $1.7 billion to $1.8 billion compared "
    "with $1.67 billion in the prior year.\n"
    "On a consolidated basis, our sales increased to a record $1.65 billion.\n"
    "We reported a net profit of $8.2 million and agreed to accelerate 12 aircraft deliveries.\n"
)


def verify(trace: dict[str, Any]) -> Verdict:
    """The verdict of the figure rules: the closed-world rule left out (see the docstring)."""
    verdict = verify_trace(trace)
    reasons = [r for r in verdict.reasons if r.rule != ReasonCode.UNVERIFIED_CLAIM]
    return verdict.model_copy(update={"reasons": reasons, "accepted": not reasons})


def check(draft: str) -> list[str]:
    event = {"id": "e1", "tool": "run_sql", "args": {"sql": "select doc"}, "result": CALL}
    verdict = verify({"question": "Summarise the call.", "draft": draft, "events": [event]})
    return [f"{r.rule.value}: {r.message}" for r in verdict.reasons]


@pytest.mark.parametrize(
    "draft",
    [
        "Sales of $1.67 billion in the prior year.",
        "Sales reached $1.7 billion, a record.",
        "Net profit was $8.2m.",
        "Ventas de 1.670 millones de dólares el año anterior.",
    ],
)
def test_a_retold_source_is_an_unverified_claim(draft: str) -> None:
    event = {"id": "e1", "tool": "run_sql", "args": {"sql": "select doc"}, "result": CALL}
    verdict = verify_trace({"question": "Summarise the call.", "draft": draft, "events": [event]})
    assert not verdict.accepted
    assert "unverified_claim" in {r.rule.value for r in verdict.reasons}


@pytest.mark.parametrize(
    "draft",
    [
        "EPS were $3.69 in the third quarter of 2021.",
        "In Q3 2021 EPS rose to $3.69 from $3.41 in Q2 2021.",
        "EPS of $2.75 in the third quarter of 2020 rose to $3.69.",
        "Sales of $1.67 billion in the prior year.",
        "The 2021 forecast is $1.7 billion to $1.8 billion.",
        "Sales reached $1.7 billion, a record.",
        "Net profit was $8 million, and 12 aircraft deliveries were accelerated.",
        "Net profit was $8.2m.",
    ],
)
def test_figures_stated_as_the_source_states_them_are_accepted(draft: str) -> None:
    assert check(draft) == []


@pytest.mark.parametrize(
    ("draft", "said"),
    [
        ("EPS were $3.69 in the third quarter of 2020.", "stated for Q3 2020"),
        ("In the second quarter of 2021 EPS were $3.69.", "stated for Q2 2021"),
        ("Sales were $1.67 billion in the prior quarter.", "stated for the prior quarter"),
        ("Sales reached a record $1.6 billion.", "$1.6 billion"),
        ("The company accelerated 8 aircraft deliveries.", '"8"'),
        ("Net profit was $9.2m.", "$9.2m"),
    ],
)
def test_figures_moved_to_another_period_rounded_down_or_changed_are_rejected(
    draft: str, said: str
) -> None:
    reasons = check(draft)
    assert len(reasons) == 1 and reasons[0].startswith("unsupported_figure")
    assert said in reasons[0]


def test_the_period_message_names_the_period_the_source_gives() -> None:
    (reason,) = check("EPS were $3.69 in the third quarter of 2020.")
    assert "for Q3 2021" in reason


def test_a_figure_takes_the_nearest_period_of_its_own_sentence() -> None:
    text = "Revenue was $5 in Q3 2021, up from $4 in Q2 2021. Costs were $2."
    periods = {c.text: c.period for c in extract_claims(text) if c.kind == "money"}
    assert periods == {"$5": Period(2021, 3), "$4": Period(2021, 2), "$2": None}


def test_relative_periods_and_years_written_alone_are_periods() -> None:
    text = "Sales of $9 last quarter; guidance for 2022 is $12 billion; $7 a year ago."
    periods = {c.text: c.period for c in extract_claims(text) if c.kind == "money"}
    assert periods == {
        "$9": Period(back="quarter"),
        "$12 billion": Period(2022),
        "$7": Period(back="year"),
    }


@pytest.mark.parametrize(
    ("a", "b", "agree"),
    [
        (Period(2021, 3), Period(2021, 3), True),
        (Period(2021, 3), Period(2021), True),
        (Period(2021, 3), Period(None, 3), True),
        (Period(2021, 3), Period(2020, 3), False),
        (Period(2021, 3), Period(2021, 2), False),
        (Period(back="year"), Period(back="quarter"), False),
        (Period(back="year"), Period(2020, 3), True),
        (None, Period(2020), True),
    ],
)
def test_periods_disagree_only_on_a_part_both_state(
    a: Period | None, b: Period | None, agree: bool
) -> None:
    assert periods_agree(a, b) is agree


def test_lower_case_m_is_millions_only_after_a_currency() -> None:
    (money,) = [c for c in extract_claims("a profit of $8.2m and a 5m walk") if c.kind != "ticker"]
    assert (money.text, money.kind, money.scale) == ("$8.2m", "money", 1e6)


def test_a_period_a_change_is_measured_from_is_not_the_changes_period() -> None:
    source = "Third quarter 2020 EPS was $0.34, up 17% from the third quarter of 2019."
    event = {"id": "e1", "tool": "run_sql", "args": {"sql": "select doc"}, "result": source}
    draft = "Earnings per share for the third quarter of 2020 rose 17% to $0.34."
    verdict = verify({"question": "Summarise the call.", "draft": draft, "events": [event]})
    assert verdict.reasons == []
    periods = {c.text: c.period for c in extract_claims(source) if c.kind != "date"}
    assert periods == {"$0.34": Period(2020, 3), "17%": Period(2020, 3)}  # the change of $0.34
    moved = "Earnings per share for the third quarter of 2019 rose 17%."
    verdict = verify({"question": "Summarise the call.", "draft": moved, "events": [event]})
    assert [r.rule for r in verdict.reasons] == ["unsupported_figure"]


BASES = (
    "Net sales of $2.09 billion for the third quarter of 2020 decreased 22.4% from the third "
    "quarter of 2019. EPS was $1.87, down from $2.39 in the second quarter of 2019.\n"
    "Demand should improve in the fourth quarter of 2020."
)


@pytest.mark.parametrize(
    ("draft", "rules"),
    [
        ("Net sales decreased in Q3 2019 on lower demand.", ["unsupported_date"]),
        ("Results for the second quarter of 2019 were weak.", ["unsupported_date"]),
        ("Net sales fell 22.4% from Q3 2019.", []),
        ("EPS was $1.87, down from $2.39 in Q2 2019.", []),
        ("Net sales decreased in Q3 2020.", []),
        ("Demand should improve in Q4 2020.", []),
    ],
)
def test_a_quarter_the_source_names_only_as_a_base_is_not_the_drafts_period(
    draft: str, rules: list[str]
) -> None:
    event = {"id": "e1", "tool": "run_sql", "args": {"sql": "select doc"}, "result": BASES}
    verdict = verify({"question": "Summarise the call.", "draft": draft, "events": [event]})
    assert sorted({r.rule.value for r in verdict.reasons}) == rules
    if rules:
        assert "only as a comparison base" in verdict.reasons[0].message


def test_base_and_bare_quarters_are_told_apart() -> None:
    claims = extract_claims(BASES)
    dates = {c.text: (c.tied, c.bare_quarter) for c in claims if c.kind == "date"}
    assert dates == {
        "third quarter of 2020": (False, False),
        "third quarter of 2019": (True, False),
        "second quarter of 2019": (True, False),
        "fourth quarter of 2020": (False, True),
    }


def test_a_base_joined_by_and_to_another_base_is_a_base_too() -> None:
    source = "EPS were $0.34 compared to $0.16 last quarter and $0.29 in the third quarter of 2019."
    dates = {c.text: c.tied for c in extract_claims(source) if c.kind == "date"}
    assert dates == {"third quarter of 2019": True}
    event = {"id": "e1", "tool": "run_sql", "args": {"sql": "select doc"}, "result": source}
    draft = "Results for the third quarter of 2019 were strong."
    verdict = verify({"question": "Summarise the call.", "draft": draft, "events": [event]})
    assert [r.rule.value for r in verdict.reasons] == ["unsupported_date"]
    joined_to_a_level = "EPS were $0.34 and $0.29 in the third quarter of 2019."
    dates = {c.text: c.tied for c in extract_claims(joined_to_a_level) if c.kind == "date"}
    assert dates == {"third quarter of 2019": False}


NAMES = "We will accelerate the delivery of 12 737 MAX 9 aircraft and add 10 aircraft in 2025."


@pytest.mark.parametrize(
    ("draft", "rules"),
    [
        ("The company will accelerate 12 737 MAX 9 deliveries.", []),
        ("The company will accelerate 12 737 MAX 10 deliveries.", ["unsupported_figure"]),
        ("It will add 10 aircraft in 2025.", []),
    ],
)
def test_a_number_that_is_part_of_a_name_must_be_written_as_that_name(
    draft: str, rules: list[str]
) -> None:
    event = {"id": "e1", "tool": "run_sql", "args": {"sql": "select doc"}, "result": NAMES}
    verdict = verify({"question": "Summarise the call.", "draft": draft, "events": [event]})
    assert [r.rule.value for r in verdict.reasons] == rules
    if rules:
        assert 'the name "MAX 10"' in verdict.reasons[0].message
    else:
        assert all(c.supported_by == ["e1"] for c in verdict.claims if c.kind == "number")


def test_a_ticker_a_call_was_made_for_is_not_a_name() -> None:
    event = {
        "id": "e1",
        "tool": "get_price",
        "args": {"ticker": "ENYW", "date": "2024-03-27"},
        "result": {"ticker": "ENYW", "session": "2024-03-27", "close": 15.0, "volume": 12},
    }
    draft = "ENYW 15 was the close, on a volume of 12 shares."
    verdict = verify({"question": "How did ENYW close?", "draft": draft, "events": [event]})
    assert verdict.accepted, verdict.reasons


BOUNDS = (
    "We plan to build over 100 stores, with over 50 completed, and keep net debt below $25 billion."
)


@pytest.mark.parametrize(
    ("draft", "rules"),
    [
        ("The company will build more than 100 stores, over 50 of them completed.", []),
        ("Net debt stays under $25 billion while about 100 stores are built.", []),
        ("The company will build fewer than 100 stores.", ["unsupported_figure"]),
        ("Net debt will rise above $25 billion.", ["unsupported_figure"]),
        ("La empresa construirá menos de 50 tiendas.", ["unsupported_figure"]),
    ],
)
def test_a_bound_turned_around_is_not_supported(draft: str, rules: list[str]) -> None:
    event = {"id": "e1", "tool": "run_sql", "args": {"sql": "select doc"}, "result": BOUNDS}
    verdict = verify({"question": "Summarise the call.", "draft": draft, "events": [event]})
    assert [r.rule.value for r in verdict.reasons] == rules
    if rules:
        assert "bound, but the source writes" in verdict.reasons[0].message


def test_bounds_are_read_in_english_and_spanish() -> None:
    text = "Más de 5 tiendas, at least $2 billion, up to 3%, 7 stores and under (4.5)."
    bounds = {c.text: c.bound for c in extract_claims(text) if c.kind != "ticker"}
    assert bounds == {"5": 1, "$2 billion": 1, "3%": -1, "7": 0, "(4.5)": -1}

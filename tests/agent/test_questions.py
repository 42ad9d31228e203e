"""Question sets as data: the default set, operators' own files, rendering, free-form matching."""

from __future__ import annotations

import json
from datetime import date

import pytest

from agent.ask import question_from_text
from agent.questions import load_question_set, match_spec, questions_for
from contract.errors import InputError

DAY = date(2024, 6, 3)


def test_default_set_renders_every_kind_with_resolved_plans():
    qs = questions_for("MSFT", ["P1", "P2"], DAY, "en", load_question_set())

    assert [q.id for q in qs] == [
        "MSFT/move",
        "MSFT/news",
        "MSFT/events",
        "MSFT/position/P1",
        "MSFT/position/P2",
    ]
    by_id = {q.id: q for q in qs}
    assert by_id["MSFT/move"].plan[0].args == {"ticker": "MSFT", "date": "2024-06-03"}
    assert by_id["MSFT/news"].plan[1].args == {
        "ticker": "MSFT",
        "start": "2024-05-31",
        "end": "2024-06-03",
        "limit": 5,
    }
    assert by_id["MSFT/events"].plan[0].args == {
        "ticker": "MSFT",
        "start": "2024-06-03",
        "end": "2024-07-03",
    }
    assert by_id["MSFT/position/P2"].plan[0].args["portfolio_id"] == "P2"
    assert by_id["MSFT/move"].requires == ["percentage"]
    assert "{" not in "".join(q.text for q in qs)


def test_spanish_text_and_no_portfolio_questions_without_portfolios():
    qs = questions_for("SAP", [], DAY, "es", load_question_set())

    assert [q.spec_id for q in qs] == ["move", "news", "events"]
    assert qs[0].text.startswith("¿A cuánto cerró SAP el 2024-06-03")
    assert all(q.language == "es" for q in qs)


def test_operator_yaml_set(tmp_path):
    path = tmp_path / "mine.yaml"
    path.write_text(
        "name: mine\n"
        "questions:\n"
        "  - id: month\n"
        "    requires: [percentage]\n"
        "    text: {en: 'How did {ticker} do since {date-30}?', es: '¿Cómo le fue a {ticker} desde {date-30}?'}\n"
        "    plan:\n"
        "      - tool: get_price_change\n"
        "        args: {ticker: '{ticker}', start: '{date-30}', end: '{date}'}\n",
        encoding="utf-8",
    )
    (q,) = questions_for("AAPL", ["P1"], DAY, "en", load_question_set(path))

    assert q.text == "How did AAPL do since 2024-05-04?"
    assert q.plan[0].args == {"ticker": "AAPL", "start": "2024-05-04", "end": "2024-06-03"}


@pytest.mark.parametrize(
    ("patch", "message"),
    [
        ({"plan": []}, "plan"),
        ({"text": {"en": "only English"}}, "no text in es"),
        ({"text": {"en": "{tickr}", "es": "x"}}, "unknown placeholder {tickr}"),
        ({"scope": "ticker", "text": {"en": "{portfolio_id}", "es": "x"}}, "needs scope portfolio"),
    ],
)
def test_invalid_sets_are_one_line_input_errors(tmp_path, patch, message):
    plan = [{"tool": "get_price", "args": {"ticker": "{ticker}", "date": "{date}"}}]
    spec = {"id": "x", "text": {"en": "a", "es": "b"}, "plan": plan}
    path = tmp_path / "bad.json"
    path.write_text(json.dumps({"name": "bad", "questions": [{**spec, **patch}]}), encoding="utf-8")

    with pytest.raises(InputError) as caught:
        load_question_set(path)
    assert message in caught.value.message and "\n" not in caught.value.message


MOVE = {"tool": "get_daily_move", "args": {"ticker": "{ticker}", "date": "{date}"}}


@pytest.mark.parametrize(
    ("step", "message"),
    [
        (
            {"tool": "nosuch", "args": {}},
            "question 'x' plan step 2: unknown tool 'nosuch'; known tools: get_portfolio, get_price,",
        ),
        (
            {"tool": "get_price", "args": {"ticker": "{ticker}"}},
            "question 'x' plan step 2 (get_price): invalid arguments: date: Field required; "
            "get_price takes ticker",
        ),
        (
            {"tool": "get_price", "args": {"ticker": "{ticker}", "date": "{date}", "day": "x"}},
            "(get_price): invalid arguments: day: Extra inputs are not permitted",
        ),
        (
            {
                "tool": "search_news",
                "args": {"ticker": "{ticker}", "start": "{date-3}", "end": "{date}", "limit": 50},
            },
            "(search_news): invalid arguments: limit: Input should be less than or equal to 10",
        ),
        (
            {"tool": "get_price", "args": {"ticker": "msft", "date": "{date}"}},
            "(get_price): invalid arguments: ticker: String should match pattern",
        ),
        (
            {
                "tool": "get_price_change",
                "args": {"ticker": "{ticker}", "start": "June 1", "end": "{date}"},
            },
            "invalid arguments: start: Value error, expected an ISO date YYYY-MM-DD, got 'June 1'",
        ),
    ],
)
def test_a_plan_the_tools_would_refuse_fails_to_load(tmp_path, step, message):
    spec = {"id": "x", "text": {"en": "a", "es": "b"}, "plan": [MOVE, step]}
    path = tmp_path / "bad.json"
    path.write_text(json.dumps({"name": "bad", "questions": [spec]}), encoding="utf-8")

    with pytest.raises(InputError) as caught:
        load_question_set(path)
    assert message in caught.value.message and "\n" not in caught.value.message


def test_placeholders_in_plans_load_as_the_values_they_stand_for(tmp_path):
    pnl = {"portfolio_id": "{portfolio_id}", "ticker": "{ticker}", "date": "{date-1}"}
    sql = "SELECT close FROM prices WHERE ticker = '{ticker}' AND date <= '{date}'"
    spec = {
        "id": "x",
        "scope": "portfolio",
        "text": {"en": "a", "es": "b"},
        "plan": [
            {"tool": "get_position_pnl", "args": pnl},
            {"tool": "run_sql", "args": {"sql": sql}},
            {"tool": "list_tables"},
        ],
    }
    path = tmp_path / "ok.json"
    path.write_text(json.dumps({"name": "ok", "questions": [spec]}), encoding="utf-8")

    (q,) = questions_for("BRK.B", ["P1"], DAY, "en", load_question_set(path))
    assert q.plan[0].args == {"portfolio_id": "P1", "ticker": "BRK.B", "date": "2024-06-02"}
    assert q.plan[1].args["sql"].endswith("ticker = 'BRK.B' AND date <= '2024-06-03'")


def test_missing_set_file(tmp_path):
    with pytest.raises(InputError, match="cannot read question set"):
        load_question_set(tmp_path / "nope.json")


@pytest.mark.parametrize(
    ("text", "portfolio", "expected"),
    [
        ("Which headlines explain today?", None, "news"),
        ("Why did it move?", None, "news"),
        ("How much did it close at?", None, "move"),
        ("¿Hay dividendo o resultados el próximo mes?", None, "events"),
        ("What did this position contribute?", "P1", "position"),
        ("What did this position contribute?", None, None),
        ("Tell me a joke", None, None),
    ],
)
def test_free_form_questions_match_the_nearest_kind(text, portfolio, expected):
    spec = match_spec(text, load_question_set(), has_portfolio=portfolio is not None)
    assert (spec.id if spec else None) == expected


def test_unmatched_free_form_question_runs_in_react_mode():
    qset = load_question_set()
    question, mode = question_from_text(
        "Tell me a joke", ticker="MSFT", as_of=DAY, language="en", qset=qset
    )
    assert mode == "react" and question.plan == [] and question.text == "Tell me a joke"

    matched, mode = question_from_text(
        "any news?", ticker="MSFT", as_of=DAY, language="en", qset=qset
    )
    assert mode == "plan" and matched.spec_id == "news" and matched.text == "any news?"


def test_react_offers_a_question_the_tools_its_set_names() -> None:
    """Each offered schema costs prompt tokens on every call: a question is offered its plan's
    tools, or the list its set gives, and a free-form wording every tool."""
    from datetime import date

    from agent.questions import QuestionSpec, load_question_set, render_question

    qset = load_question_set()
    day = date(2024, 6, 3)
    move = render_question(qset.spec("move"), "AAA", day, "en")
    assert move.tools == ["get_daily_move", "get_trend", "get_company"]
    news = render_question(qset.spec("news"), "AAA", day, "en")
    assert news.tools == ["get_daily_move", "search_news"]
    free = render_question(qset.spec("news"), "AAA", day, "en", text="Why did it move?")
    assert free.tools == []  # every tool
    spec = qset.spec("move").model_copy(update={"tools": ["get_price", "calculate"]})
    assert render_question(spec, "AAA", day, "en").tools == ["get_price", "calculate"]
    with pytest.raises(ValueError, match="unknown tools"):
        QuestionSpec.model_validate({**qset.spec("move").model_dump(), "tools": ["nosuch"]})

"""The offline provider answers the whole default set for every holding of the sample portfolios,
each draft built only from what its own trace holds."""

from __future__ import annotations

import json
import re
from datetime import date
from pathlib import Path

import pytest

from agent.loop import answer_question, draft_summary
from agent.providers import make_provider
from agent.questions import load_question_set, questions_for
from contract.number_format import format_number, format_quantity
from contract.reasons import ReasonCode
from contract.trace import Trace
from tools.catalog import open_catalog
from tools.registry import call_tool

SAMPLE = Path(__file__).resolve().parents[3] / "data" / "sample"
DAY = date(2024, 6, 3)
QUOTED = re.compile(r'"([^"]+)"')
STAMP = re.compile(r"\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}:\d{2}(?:Z|[+-]\d{2}:\d{2}))?")
NUMBERS = {
    "en": re.compile(r"(?<![\w.,])-?\d{1,3}(?:,\d{3})*(?:\.\d+)?(?![\w])"),
    "es": re.compile(r"(?<![\w.,])-?\d{1,3}(?:\.\d{3})*(?:,\d+)?(?![\w])"),
}
"""A number as the report's language writes it (`contract.number_format`): 224,256.34 or 224.256,34."""


@pytest.fixture(scope="module")
def sample_catalog(small_data, tmp_path_factory):
    """The bundled sample when it is there, else the generated set (both cover the day)."""
    source = SAMPLE if (SAMPLE / "prices.parquet").is_file() else small_data
    cat = open_catalog(source, DAY, workdir=tmp_path_factory.mktemp("offline-catalog"))
    yield cat
    cat.close()


def holdings(catalog) -> dict[str, list[str]]:
    """ticker -> portfolios holding it on the day, read through the get_portfolio tool."""
    with catalog.cursor() as cur:
        portfolios = [
            r[0] for r in cur.execute("SELECT portfolio_id FROM portfolios ORDER BY 1").fetchall()
        ]
    held: dict[str, list[str]] = {}
    for pid in portfolios:
        for row in call_tool(catalog, "get_portfolio", {"portfolio_id": pid})["holdings"]:
            held.setdefault(row["ticker"], []).append(pid)
    return held


def leaves(value, found: set[str], language: str = "en") -> set[str]:
    """Every scalar of a JSON value: strings bare, numbers as JSON writes them and as the
    report's language does (their magnitude too: a draft says "fell 0.41" for a change of -0.41)."""
    if isinstance(value, dict):
        for item in value.values():
            leaves(item, found, language)
    elif isinstance(value, list):
        for item in value:
            leaves(item, found, language)
    elif isinstance(value, int | float) and not isinstance(value, bool):
        found.add(json.dumps(value))
        for shown in (value, abs(value)):
            found |= {format_number(shown, language), format_quantity(shown, language)}
    elif value is not None:
        found.add(value if isinstance(value, str) else json.dumps(value))
    return found


def ungrounded(trace: Trace) -> list[str]:
    """Quoted headlines, dates and numbers of the draft that no successful result holds."""
    language = trace.language
    known = leaves([e.result for e in trace.events if e.ok], set(), language)
    text = trace.draft or ""
    missing = [q for q in QUOTED.findall(text) if q not in known]
    text = QUOTED.sub(" ", text)
    missing += [s for s in STAMP.findall(text) if s not in known]
    missing += [n for n in NUMBERS[language].findall(STAMP.sub(" ", text)) if n not in known]
    return missing


@pytest.mark.parametrize("language", ["en", "es"])
async def test_offline_answers_every_holding_from_its_trace(sample_catalog, language):
    provider = make_provider("offline")
    qset = load_question_set()
    held = holdings(sample_catalog)
    assert len(held) >= 8

    traces = []
    for ticker, portfolios in sorted(held.items()):
        for question in questions_for(ticker, portfolios, DAY, language, qset):
            traces.append(
                await answer_question(question, provider=provider, catalog=sample_catalog)
            )

    positions = sum(len(p) for p in held.values())
    assert len(traces) == 3 * len(held) + positions
    assert all(t.stop_reason == ReasonCode.ANSWERED for t in traces)
    assert {t.question_id.split("/")[1] for t in traces} == {"move", "news", "events", "position"}
    assert {e.tool for t in traces for e in t.events if e.ok} == {
        "get_daily_move",
        "search_news",
        "get_events",
        "get_position_pnl",
        "get_portfolio_ranks",
        "get_trend",
        "get_company",
    }
    bad = {t.question_id: ungrounded(t) for t in traces if ungrounded(t)}
    assert bad == {}
    word = "closed at" if language == "en" else "cerró a"
    assert all(word in t.draft for t in traces if t.question_id.endswith("/move"))


async def test_grounding_check_catches_an_invented_figure(sample_catalog):
    ticker = next(iter(holdings(sample_catalog)))
    (question, *_) = questions_for(ticker, [], DAY, "en", load_question_set())
    trace = await answer_question(
        question, provider=make_provider("offline"), catalog=sample_catalog
    )

    close = format_number(trace.events[0].result["close"], "en")
    assert close in trace.draft and ungrounded(trace) == []
    forged = trace.model_copy(update={"draft": trace.draft.replace(close, "9,999.99")})
    assert ungrounded(forged) == ["9,999.99"]


async def test_react_mode_proposes_the_plan_then_drafts(sample_catalog):
    ticker, portfolios = next(iter(holdings(sample_catalog).items()))
    provider = make_provider("offline")
    for question in questions_for(ticker, portfolios[:1], DAY, "en", load_question_set()):
        plan = await answer_question(question, provider=provider, catalog=sample_catalog)
        react = await answer_question(
            question, provider=provider, catalog=sample_catalog, mode="react"
        )

        assert react.stop_reason == ReasonCode.ANSWERED and len(react.turns) == 2
        assert [(e.tool, e.args) for e in react.events] == [(e.tool, e.args) for e in plan.events]
        assert react.draft == plan.draft


async def test_summary_drafts_from_the_union_of_its_answers(sample_catalog):
    ticker, portfolios = next(iter(holdings(sample_catalog).items()))
    provider = make_provider("offline")
    answers = [
        await answer_question(q, provider=provider, catalog=sample_catalog)
        for q in questions_for(ticker, portfolios, DAY, "en", load_question_set())
    ]
    summary = await draft_summary(ticker, answers, provider=provider)

    ids = [e.id for e in summary.events]
    assert len(ids) == len(set(ids))
    assert (
        f"{ticker}/move:move-1" in ids and f"{ticker}/news:news-1" not in ids
    )  # same call as move-1
    assert summary.stop_reason == ReasonCode.ANSWERED and ungrounded(summary) == []
    assert summary.question_id == f"{ticker}/summary" and len(summary.turns) == 1
    assert re.match(rf"{ticker} (rose|fell|closed unchanged) ", summary.draft)
    assert "scheduled" in summary.draft.lower()


@pytest.mark.parametrize("language", ["en", "es"])
async def test_every_summary_is_a_short_paragraph_of_the_ticker_alone(sample_catalog, language):
    """Two to four sentences, none repeated, no position answer in it: one summary stands for
    every portfolio that holds the ticker."""
    provider = make_provider("offline")
    qset = load_question_set()
    for ticker, portfolios in sorted(holdings(sample_catalog).items()):
        answers = [
            await answer_question(q, provider=provider, catalog=sample_catalog)
            for q in questions_for(ticker, portfolios, DAY, language, qset)
        ]
        summary = await draft_summary(ticker, answers, provider=provider)
        draft = summary.draft or ""
        sentences = [s for s in re.split(r"(?<=[.])\s+(?=[A-Z])", QUOTED.sub("Q", draft)) if s]
        assert 2 <= len(sentences) <= 4, draft
        assert len(set(sentences)) == len(sentences), draft
        assert not any(pid in draft for pid in portfolios), draft
        ticker_tools = {"get_daily_move", "get_trend", "get_company", "search_news", "get_events"}
        assert {e.tool for e in summary.events} <= ticker_tools
        assert ungrounded(summary) == [], draft


def test_a_headline_with_its_own_quotes_is_quoted_whole_and_verifies() -> None:
    from agent.providers.offline import draft_text
    from verifier.verify import verify_json as verify

    headline = '"L$D" Black Ops 3 w/ Papi Yang'
    result = {
        "ticker": "D",
        "start": "2015-12-05",
        "end": "2015-12-08",
        "found": 1,
        "truncated": False,
        "news": [
            {
                "published_at": "2015-12-08T18:25:24Z",
                "session": "during",
                "headline": headline,
                "source": "MrPapiYang",
            }
        ],
    }
    args = {"ticker": "D", "start": "2015-12-05", "end": "2015-12-08"}
    draft = draft_text(
        [{"id": "news-1", "tool": "search_news", "args": args, "result": result}], "en"
    )
    assert f"“{headline}”" in draft
    trace = {
        "question": "Which headlines could explain the move of D on 2015-12-08?",
        "draft": draft,
        "events": [{"id": "news-1", "tool": "search_news", "args": args, "result": result}],
    }
    verdict = verify(trace)
    assert verdict.accepted, verdict.reasons
    assert any(c.kind == "headline" and c.text.strip("“”") == headline for c in verdict.claims)


@pytest.mark.parametrize(
    ("language", "expected"),
    [("en", "No headlines were found for AXO"), ("es", "No se encontraron titulares de AXO")],
)
def test_a_window_without_news_is_said_plainly_and_verifies(language: str, expected: str) -> None:
    from agent.providers.offline import draft_text
    from verifier.verify import verify_json as verify

    args = {"ticker": "AXO", "start": "2024-12-28", "end": "2024-12-31"}
    event = {
        "id": "news-1",
        "tool": "search_news",
        "args": args,
        "error": "no news for AXO between 2024-12-28 and 2024-12-31",
    }
    draft = draft_text([event], language)
    assert draft.startswith(expected)
    question = "Which recent headlines could explain the move of AXO on 2024-12-31?"
    verdict = verify({"question": question, "draft": draft, "events": [event]})
    assert verdict.accepted, verdict.reasons

"""The product's own drafts (the offline provider, both languages, over the sample data and its
real tools), each ticker's summary paragraph included, are accepted: a bound claim may not turn what the program wrote from its own tool
results into a rejection."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from agent.loop import answer_question, draft_summary
from agent.providers import make_provider
from agent.questions import load_question_set, questions_for
from tools.catalog import open_catalog
from tools.registry import call_tool
from verifier.verify import verify, verify_json

SAMPLE = Path(__file__).resolve().parents[2] / "data" / "sample"
DAY = date(2024, 5, 31)
"""A Friday whose news window runs over several days: the drafts name it as a range."""


@pytest.fixture(scope="module")
def catalog(small_data, tmp_path_factory):
    source = SAMPLE if (SAMPLE / "prices.parquet").is_file() else small_data
    cat = open_catalog(source, DAY, workdir=tmp_path_factory.mktemp("verifier-offline"))
    yield cat
    cat.close()


@pytest.mark.parametrize("language", ["en", "es"])
async def test_every_offline_draft_of_a_night_is_accepted(catalog, language: str) -> None:
    provider, qset = make_provider("offline"), load_question_set()
    with catalog.cursor() as cur:
        portfolios = [r[0] for r in cur.execute("SELECT portfolio_id FROM portfolios").fetchall()]
    held: dict[str, list[str]] = {}
    for pid in portfolios:
        for row in call_tool(catalog, "get_portfolio", {"portfolio_id": pid})["holdings"]:
            held.setdefault(row["ticker"], []).append(pid)
    rejected = {}
    count = 0
    for ticker, owners in sorted(held.items()):
        answers = []
        for question in questions_for(ticker, owners, DAY, language, qset):
            trace = await answer_question(question, provider=provider, catalog=catalog)
            answers.append(trace)
        answers.append(await draft_summary(ticker, answers, provider=provider))
        for trace in answers:  # the ticker's paragraph in the reports too
            verdict = verify(trace)
            count += 1
            if not verdict.accepted:
                rejected[trace.question_id] = [r.message for r in verdict.reasons]
    assert count >= 40
    assert rejected == {}


async def test_scripted_mistakes_faithful_answers_are_accepted(catalog) -> None:
    """`scripted-mistakes` answers the tickers it draws no mistake for as the offline provider
    does (react mode, as `make demo-review` runs it): every one of those answers is accepted.
    Each verdict, rejections included, is the one its trace's JSON gets."""
    from agent.providers.mistakes import mistake_for

    provider, qset = make_provider("scripted-mistakes"), load_question_set()
    with catalog.cursor() as cur:
        portfolios = [r[0] for r in cur.execute("SELECT portfolio_id FROM portfolios").fetchall()]
    held: dict[str, list[str]] = {}
    for pid in portfolios:
        for row in call_tool(catalog, "get_portfolio", {"portfolio_id": pid})["holdings"]:
            held.setdefault(row["ticker"], []).append(pid)
    rejected: dict[str, list[str]] = {}
    faithful = 0
    for ticker, owners in sorted(held.items()):
        for question in questions_for(ticker, owners, DAY, "en", qset):
            trace = await answer_question(
                question, provider=provider, catalog=catalog, mode="react"
            )
            verdict = verify(trace)
            assert verdict == verify_json(trace.model_dump(mode="json"))  # the JSON door agrees
            if mistake_for(ticker) is None:
                faithful += 1
                if not verdict.accepted:
                    rejected[trace.question_id] = [r.message for r in verdict.reasons]
    assert faithful >= 10
    assert rejected == {}

"""One question from the shell: turn free text into a `Question` and answer it.

A free-form question in plan mode borrows the plan of the question-set entry whose
keywords it mentions most (or is run in react mode when none matches, which needs a model: a
template provider refuses it in one line); a question that is exactly an entry's id (`move`,
`news`...) is asked in the set's own words.

Tickers are upper case in the data and in every tool's arguments, so a ticker typed in any
case names the same listing; one the data lacks is refused with the close matches it has.
"""

from __future__ import annotations

from datetime import date
from difflib import get_close_matches
from typing import Any

from agent.loop import answer_question
from agent.prompts import check_language
from agent.providers import PROVIDERS, TEMPLATE_PROVIDERS, close_provider, make_provider
from agent.questions import Question, QuestionSet, match_spec, render_question
from contract.errors import InputError
from contract.trace import Mode, Trace
from tools.catalog import Catalog

FREE_FORM = "ask"


def question_from_text(
    text: str,
    *,
    ticker: str,
    as_of: date,
    language: str,
    qset: QuestionSet,
    portfolio_id: str | None = None,
    mode: Mode = "plan",
) -> tuple[Question, Mode]:
    """The question to ask and the mode to ask it in (react when plan mode has no plan)."""
    check_language(language)
    if not text.strip():
        raise InputError("the question is empty: give it as the last argument, in quotes")
    if text.strip() in qset.ids:
        return render_question(qset.spec(text.strip()), ticker, as_of, language, portfolio_id), mode
    spec = match_spec(text, qset, has_portfolio=portfolio_id is not None)
    if spec is not None:
        question = render_question(spec, ticker, as_of, language, portfolio_id, text=text)
        return question, mode
    question = Question(
        id=f"{ticker}/{FREE_FORM}",
        spec_id=FREE_FORM,
        kind=FREE_FORM,
        text=text,
        ticker=ticker,
        portfolio_id=portfolio_id,
        as_of=as_of,
        language=language,
    )
    return question, "react"


def check_free_form(provider_name: str, qset: QuestionSet) -> None:
    """A question no entry of the set fits needs a provider with a model behind it."""
    if provider_name not in TEMPLATE_PROVIDERS:
        return
    models = ", ".join(p for p in PROVIDERS if p not in TEMPLATE_PROVIDERS)
    raise InputError(
        f"no question of the set ({', '.join(qset.ids)}) fits this question, and the "
        f"{provider_name} provider answers only those: pass --provider one of {models} "
        "(react mode), or ask one of the set's questions"
    )


def resolve_ticker(catalog: Catalog, ticker: str) -> str:
    """The listed ticker meant, upper-cased; otherwise an `InputError` naming close matches."""
    symbol = ticker.strip().upper()
    if symbol in catalog.listings:
        return symbol
    near = get_close_matches(symbol, list(catalog.listings), n=3)
    hint = (
        f"did you mean {', '.join(near)}?"
        if near
        else f"use a listed one, e.g. {', '.join(sorted(catalog.listings)[:5])}"
    )
    raise InputError(f"unknown ticker {symbol!r} in {catalog.data_dir}: {hint}")


async def ask(
    text: str,
    *,
    catalog: Catalog,
    ticker: str,
    qset: QuestionSet,
    portfolio_id: str | None = None,
    provider_name: str = "offline",
    model: str | None = None,
    mode: Mode = "plan",
    language: str = "en",
    provider_options: dict[str, Any] | None = None,
) -> Trace:
    """Answer one question on the catalog's report date and return its trace; every input
    is checked before the provider is built, so a bad one costs no model call."""
    if mode not in ("plan", "react"):
        raise InputError(f"unknown mode {mode!r}: use plan or react")
    question, chosen = question_from_text(
        text,
        ticker=resolve_ticker(catalog, ticker),
        as_of=catalog.report_date,
        language=language,
        qset=qset,
        portfolio_id=portfolio_id,
        mode=mode,
    )
    if question.spec_id == FREE_FORM:
        check_free_form(provider_name, qset)
    provider = make_provider(provider_name, model or None, **(provider_options or {}))
    try:
        return await answer_question(question, provider=provider, catalog=catalog, mode=chosen)
    finally:
        await close_provider(provider)

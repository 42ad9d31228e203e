"""A published run with rejected cases of several reasons, made by the real ticker task and
publisher on generated data, with a provider that invents figures, headlines and tickers."""

from __future__ import annotations

import asyncio
import re
import shutil
from collections.abc import Callable
from datetime import date
from pathlib import Path

import pytest

from agent.budget.limits import BudgetConfig
from agent.budget.meter import RunBudget
from agent.providers.base import ModelRequest, ModelResponse
from agent.providers.offline import OfflineProvider
from agent.questions import load_question_set
from agent.ratelimit import RateLimiter
from contract.errors import ProviderError
from flows.night.flow import collect_tables, holders_of, resolve_portfolios
from flows.night.outputs import RunOutcome, publish_run
from flows.night.ticker import SERVICES, RunServices, TickerJob, answer_ticker
from tools.catalog import open_catalog

DAY = date(2024, 3, 28)
HOSTILE = "<script>alert('x')</script> Shares <b>soar</b> & crash"
Corruption = Callable[[str], str]


def invent_close(text: str) -> str:
    return re.sub(r"closed at [0-9.]+", "closed at 987.65", text, count=1)


def invent_headline(text: str) -> str:
    return re.sub(r'"[^"]+"', f'"{HOSTILE}"', text, count=1)


def invent_ticker(text: str) -> str:
    return text.rstrip(".") + ", while ZZZQ fell 4.1% on the day."


class InventingProvider(OfflineProvider):
    """The offline templates, with one invention per chosen ticker, or a provider failure."""

    def __init__(self, corruptions: dict[str, Corruption | None]) -> None:
        super().__init__()
        self.corruptions = corruptions

    async def complete(self, request: ModelRequest) -> ModelResponse:
        question = request.messages[0].text or ""
        chosen = [t for t in self.corruptions if re.search(rf"\b{t}\b", question)]
        if chosen and self.corruptions[chosen[0]] is None:
            raise ProviderError("scripted outage: HTTP 503 from the provider")
        response = await super().complete(request)
        if chosen and response.text and "summary" not in question.lower():
            corrupt = self.corruptions[chosen[0]]
            assert corrupt is not None
            response.text = corrupt(response.text)
        return response


async def answer_all(services: RunServices, jobs: list[TickerJob]) -> list:
    token = SERVICES.set(services)
    try:
        return [await answer_ticker(job) for job in jobs]
    finally:
        SERVICES.reset(token)


def make_run(data: Path, out: Path, workdir: Path) -> RunOutcome:
    """Answer every held ticker with the inventing provider, then publish the run into `out`."""
    qset = load_question_set()
    with open_catalog(data, DAY, workdir=workdir) as catalog:
        tables = collect_tables(catalog, resolve_portfolios(catalog, []), DAY)
        holders = holders_of(tables)
        tickers = list(holders)
        provider = InventingProvider(
            {
                tickers[0]: invent_close,
                tickers[1]: invent_headline,
                tickers[2]: invent_ticker,
                tickers[3]: None,
            }
        )
        config = BudgetConfig.model_validate({})
        budget = RunBudget(config, tickers, provider=provider.name, model=provider.model)
        services = RunServices(
            provider=provider,
            catalog=catalog,
            budget=budget,
            limiter=RateLimiter(10_000, 10_000_000),
            question_set=qset,
        )
        jobs = [
            TickerJob(
                ticker=t,
                portfolios=owners,
                report_date=DAY,
                question_set="default",
                provider=provider.name,
                model=provider.model,
                run_id="review-test",
            )
            for t, owners in holders.items()
        ]
        results = asyncio.run(answer_all(services, jobs))
        fingerprint = catalog.fingerprint
    outcome = RunOutcome(
        run_id="review-test",
        report_date=DAY,
        parameters={"provider": "offline", "model": "", "data_dir": str(data)},
        tables=tables,
        results=results,
        budget=budget.ledger().model_dump(mode="json"),
        data_fingerprint=fingerprint,
    )
    publish_run(out, outcome)
    return outcome


@pytest.fixture(scope="session")
def review_data(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from data.generate import generate_dataset

    out = tmp_path_factory.mktemp("review-data")
    generate_dataset(
        out, tickers=12, start=date(2024, 1, 2), end=date(2024, 3, 29), portfolios=2, seed=11
    )
    return out


@pytest.fixture(scope="session")
def published_run(review_data: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The output root of one generated, published run (copy it before changing it)."""
    out = tmp_path_factory.mktemp("review-run")
    make_run(review_data, out / "outputs", out / "catalog")
    return out / "outputs"


@pytest.fixture
def run_out(published_run: Path, tmp_path: Path) -> Path:
    """A private copy of the published run for a test that records decisions."""
    out = tmp_path / "outputs"
    shutil.copytree(published_run, out)
    return out


@pytest.fixture
def cli(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]):
    """Run `nightdesk ARGS` in this process as `flows.cli.main.main` does: (code, out, err)."""
    from contract.errors import InputError
    from flows.cli.main import app, fail

    def run(*args: str) -> tuple[int, str, str]:
        monkeypatch.setenv("COLUMNS", "200")
        code = 0
        try:
            try:
                app(list(args))
            except InputError as exc:
                fail(exc.message)
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else 1
        out, err = capsys.readouterr()
        return code, out, err

    return run

"""The night without Prefect: the same agent loop, tools, budget, rate limiter and verifier,
driven by `asyncio.gather` under a semaphore of `concurrency` tickers (the meaning
`nightdesk run --concurrency` gives it). Each ticker's questions run concurrently, each answer
is judged as the flow judges it, then the summary is drafted from the accepted answers and
judged. Nothing is persisted or published.

Run: python -m tests.bench.night_driver --data DIR --date D --mode plan --probe OUT.json
(the provider is `openai`, pointed at OPENAI_BASE_URL).
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
from datetime import date
from pathlib import Path

from agent.budget.limits import BudgetConfig
from agent.budget.meter import RunBudget, TickerBudget
from agent.heap import prepared_heap
from agent.loop import answer_question, draft_summary
from agent.providers import close_provider, make_provider
from agent.providers.base import ModelRequest, Provider
from agent.questions import load_question_set, questions_for
from agent.ratelimit import RateLimiter
from agent.shared_calls import SharedCalls
from contract.trace import Mode, Trace
from flows.run.judge import judge_in
from flows.run.verifier_pool import VerifierPool, auto_workers
from tests.bench.holdings import answer_every_ticker, holders_in
from tests.bench.probe import Probe
from tools.catalog import Catalog, open_catalog
from verifier.verify import warm_up


class Driver:
    """One night's shared objects and the per-ticker work."""

    def __init__(
        self,
        provider: Provider,
        catalog: Catalog,
        mode: Mode,
        holders: dict[str, list[str]],
        limits: dict[str, int] | None = None,
    ) -> None:
        self.config = BudgetConfig.model_validate(limits or {})  # the night's defaults
        self.provider, self.catalog, self.mode = provider, catalog, mode
        self.budget = RunBudget(
            self.config, list(holders), provider=provider.name, model=provider.model
        )
        self.limiter = RateLimiter(self.config.requests_per_minute, self.config.tokens_per_minute)
        self.limits = self.config.loop_limits()
        self.qset = load_question_set()
        self.probe = Probe()
        self.probe.instrument()
        self.verifiers = VerifierPool(auto_workers(len(holders)))  # as the night's default

    async def answer_ticker(self, ticker: str, portfolios: list[str]) -> None:
        budget = self.budget.ticker(ticker)
        try:
            questions = questions_for(ticker, portfolios, self.catalog.report_date, "en", self.qset)
            shared = SharedCalls()
            traces = await asyncio.gather(
                *(
                    answer_question(
                        q,
                        provider=self.provider,
                        catalog=self.catalog,
                        mode=self.mode,
                        meter=budget.question(q.id, q.kind),
                        limiter=self.limiter,
                        limits=self.limits,
                        shared=shared,
                    )
                    for q in questions
                )
            )
            accepted = []
            for question, trace in zip(questions, traces, strict=True):
                holders = [question.portfolio_id] if question.portfolio_id else portfolios
                record = await judge_in(
                    self.verifiers, trace, question.spec_id, question.kind, ticker, holders
                )
                self.probe.outcomes[record.reason or record.status] += 1
                if record.status == "accepted" and trace.portfolio_id is None:
                    accepted.append(trace)  # the summary is drafted from answers about the ticker
            await self.summarise(ticker, portfolios, accepted, budget)
        finally:
            budget.close()

    async def summarise(
        self, ticker: str, portfolios: list[str], accepted: list[Trace], budget: TickerBudget
    ) -> None:
        if not accepted:
            self.probe.outcomes["no_verified_answers"] += 1
            return
        trace = await draft_summary(
            ticker,
            accepted,
            provider=self.provider,
            meter=budget.question(f"{ticker}/summary", "summary"),
            limiter=self.limiter,
            limits=self.limits,
        )
        record = await judge_in(self.verifiers, trace, "summary", "summary", ticker, portfolios)
        self.probe.outcomes[record.reason or record.status] += 1


async def run_night(
    data: Path,
    day: date,
    mode: Mode,
    concurrency: int,
    probe_path: Path,
    limits: dict[str, int] | None = None,
    verifiers: int | None = None,
) -> None:
    with tempfile.TemporaryDirectory(prefix="night-driver-") as work:
        catalog = open_catalog(data, day, workdir=Path(work))
        try:
            holders = holders_in(catalog)
            driver = Driver(make_provider("openai"), catalog, mode, holders, limits)
            if verifiers is not None:  # as `nightdesk run --verifier-processes`
                driver.verifiers = VerifierPool(verifiers)
            # as the night prepares: the tokenizer loaded, the verifier warmed up
            driver.provider.estimate_tokens(ModelRequest(system="", messages=[]))
            warm_up()
            with prepared_heap():  # as the night answers
                driver.verifiers.start()
                await answer_every_ticker(
                    holders, concurrency, driver.answer_ticker, driver.probe, driver.verifiers.close
                )
            driver.probe.write(probe_path)
            await close_provider(driver.provider)
        finally:
            catalog.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, required=True)
    parser.add_argument("--date", type=date.fromisoformat, required=True)
    parser.add_argument("--mode", choices=["plan", "react"], default="plan")
    parser.add_argument("--concurrency", type=int, default=8)
    parser.add_argument("--probe", type=Path, required=True)
    parser.add_argument("--requests-per-minute", type=int)
    parser.add_argument("--tokens-per-minute", type=int)
    parser.add_argument("--run-tokens", type=int)
    parser.add_argument("--verifier-processes", type=int)
    opts = parser.parse_args()
    limits = {
        name: value
        for name in ("requests_per_minute", "tokens_per_minute", "run_tokens")
        if (value := getattr(opts, name)) is not None
    }
    asyncio.run(
        run_night(
            opts.data,
            opts.date,
            opts.mode,
            opts.concurrency,
            opts.probe,
            limits,
            opts.verifier_processes,
        )
    )


if __name__ == "__main__":
    main()

"""The fan-out of one process: every held ticker answered behind a semaphore, sharing one provider,
budget and rate limiter. The unsharded night runs it over every ticker, each shard over its own
part.

Inside a flow run each ticker's question batch is a Prefect task run (`ticker_task`), awaited in
the flow's own event loop: the flow run's graph shows one run per ticker with its state (named
`Cut` where the run budget cut its questions), duration, run count and log line. It is made cheap: no result is persisted, no cache key is
computed (`cache_policy=NONE`), it carries no tags (so no concurrency-limit call), its only
parameter is the ticker's name (its job is looked up), and its states go to the server as events
from Prefect's event worker, never as API calls the night waits for. Prefect's retries stay off:
a fault of a question is retried where it happens (the SDK, inside its deadline) and otherwise
becomes its record; a task that fails anyway is a bug, shown Failed in the graph, and its
questions become rejected records (`internal_error`). Outside a flow run (a test, a script)
tickers are plain coroutines.

Each finished ticker's result is stored at once (`flows.run.ticker_store`) under a key over
date, ticker, holders, question set, provider, model, prompt version and data fingerprint, so a
rerun after a crash reuses finished tickers (its task run says so in its log line). A reused
result that holds outcomes which say nothing about the answer (provider_error, budget_exhausted,
internal_error) is asked again for those questions only; verified rejections stay as they are.
"""

from __future__ import annotations

import asyncio
import hashlib
from collections.abc import Callable
from contextvars import ContextVar
from dataclasses import dataclass, replace
from datetime import date
from pathlib import Path

from prefect import task
from prefect.cache_policies import NONE
from prefect.context import FlowRunContext
from prefect.states import Completed, State

from agent.budget.journal import SpendJournal
from agent.budget.ledger import BudgetLedger
from agent.budget.limits import BudgetConfig, LoopLimits
from agent.budget.meter import RunBudget
from agent.drafting import BatchDrafter, NightRounds
from agent.heap import prepared_heap
from agent.providers import batch_api, close_provider
from agent.providers.base import Provider
from agent.questions import DEFAULT_SET, QuestionSet, questions_for
from agent.ratelimit import RateLimiter
from contract.reasons import ReasonCode
from flows.night.artifacts import keep_progress_artifact
from flows.night.summary import log_ticker, run_logger
from flows.night.ticker import SERVICES, RunServices, TickerJob, answer_ticker, ticker_key
from flows.publish.layout import RunLayout
from flows.publish.records import TickerResult, rejected_record, withheld_summary
from flows.run.attempts import journal_path
from flows.run.batch_store import BatchStore
from flows.run.batches import BatchSubmitter
from flows.run.config import RunConfig
from flows.run.progress import RunProgress, report_progress
from flows.run.provider import open_provider
from flows.run.ticker_store import TickerStore
from flows.run.verifier_pool import VerifierPool, auto_workers
from tools.catalog import Catalog


@dataclass
class TickerBatch:
    """What one process's fan-out produced: results in ticker order, reused tickers, spend."""

    results: list[TickerResult]
    reused: list[str]
    ledger: BudgetLedger


TickerDone = Callable[[TickerResult, bool], None]
"""Called as each ticker finishes: its result and whether it was reused."""
SpendSeen = Callable[[BudgetLedger], None]
"""Called with the spend so far every `SPEND_EVERY_S` while calls settle, so that what a dying
process spent on its unfinished tickers is on disk too, not only the spend of finished ones."""
SPEND_EVERY_S = 5.0


async def answer_tickers(
    config: RunConfig,
    catalog: Catalog,
    holders: dict[str, list[str]],
    qset: QuestionSet,
    run_id: str,
    on_done: TickerDone | None = None,
    on_spend: SpendSeen | None = None,
    spend_every_s: float = SPEND_EVERY_S,
    journal: Path | None = None,
) -> TickerBatch:
    """Every ticker of `holders` answered within `config.budget` and `config.concurrency`;
    `on_done` sees each ticker as it finishes (a shard stores it there, so a crash keeps it),
    `on_spend` the spend every `spend_every_s` seconds in which some call settled (saved off
    the event loop), `journal` every reservation before its call and every settle after it."""
    report_date = catalog.report_date
    layout = RunLayout(Path(config.out_dir), report_date)
    provider = open_provider(config)
    budget = RunBudget(
        config.budget,
        list(holders),
        provider=provider.name,
        model=provider.model,
        journal=SpendJournal(journal) if journal is not None else None,
    )
    services = RunServices(
        provider=provider,
        catalog=catalog,
        budget=budget,
        limiter=(
            RateLimiter(config.budget.requests_per_minute, config.budget.tokens_per_minute)
            if provider.rate_limited
            else None
        ),
        question_set=qset,
        limits=night_limits(provider, config),
        verifiers=verifier_pool(config, len(holders)),
    )
    if config.batch:
        batch_services(services, config, layout, run_id, len(holders))
    jobs = [
        TickerJob(
            ticker=ticker,
            portfolios=owners,
            report_date=report_date,
            question_set=question_set_id(qset, config.question_set),
            provider=provider.name,
            model=provider.model,
            mode=config.mode,
            language=config.language,
            data_fingerprint=catalog.fingerprint,
            run_id=run_id,
        )
        for ticker, owners in holders.items()
    ]
    token = SERVICES.set(services)
    keeper = None
    if on_spend is not None:
        keeper = asyncio.create_task(keep_spend(budget, on_spend, spend_every_s))
    try:
        with prepared_heap():
            results, reused = await run_tickers(jobs, layout, config, budget, on_done)
        generated = getattr(provider, "generation_note", None)  # a model in this process
        if generated is not None and (note := generated()):
            run_logger().info("local model: %s", note)
    finally:
        SERVICES.reset(token)
        if keeper is not None:
            keeper.cancel()
        if services.rounds is not None:
            services.rounds.cancel()
        if budget.journal is not None:
            budget.journal.close()
        if services.verifiers is not None:
            services.verifiers.close()
        await close_provider(provider)
    return TickerBatch(results=results, reused=reused, ledger=budget.ledger())


def verifier_pool(config: RunConfig, tickers: int) -> VerifierPool | None:
    """The processes that judge this night's drafts, started now (they warm up while the first
    questions are asked); None where the drafts are judged on the event loop."""
    workers = config.verifier_processes
    if workers is None:
        workers = auto_workers(tickers)
    if workers < 1:
        return None
    pool = VerifierPool(workers)
    pool.start()
    return pool


def night_limits(provider: Provider, config: RunConfig) -> LoopLimits:
    """The loop limits of the night: the budget's and the drafting mode, and for a model in
    this process an output limit and deadline set from its measured speed (in the run's log)."""
    limits = config.budget.loop_limits()
    drafting = config.drafting
    if drafting == "auto":
        drafting = "structured" if provider.name == "local" else "free"
    limits = replace(limits, drafting=drafting)
    at_speed = getattr(provider, "night_limits", None)
    if at_speed is None:
        return limits
    default = BudgetConfig.model_fields["max_output_tokens"].default  # a run's config is dumped
    limits = at_speed(limits, output_given=config.budget.max_output_tokens != default)  # whole
    speed = getattr(provider, "speed", None)
    if speed is not None:
        run_logger().info(
            "local model: %.1f tokens/s alone, %.1f in a batch of %d; up to %d output tokens a "
            "call, a deadline of %g s of generation",
            speed.tokens_s,
            speed.batch_tokens_s,
            speed.max_batch,
            limits.max_output_tokens,
            limits.deadline_s,
        )
    return limits


def batch_services(
    services: RunServices, config: RunConfig, layout: RunLayout, run_id: str, tickers: int
) -> None:
    """Turn `services` into a batch night's: drafts go into two rounds (answers, summaries)
    sent through the provider's batch interface; no per-minute limiter (a batch queue is metered
    by the provider), and a deadline per question that outlasts the batch window."""
    window_s = config.batch_window_minutes * 60
    inner = services.provider
    services.rounds = NightRounds(
        tickers,
        BatchSubmitter(
            api=batch_api(inner),
            store=BatchStore(layout.batches),
            provider=inner.name,
            model=inner.model,
            run_id=run_id,
            poll_s=config.batch_poll_seconds,
            window_s=window_s,
            cancel_late=config.batch_fallback == "direct",
            journal_of=lambda attempt: journal_path(layout, attempt),
        ),
    )
    services.provider = BatchDrafter(inner, config.batch_fallback)
    services.limiter = None
    services.limits = replace(services.limits, deadline_s=window_s + 2 * services.limits.deadline_s)


async def keep_spend(budget: RunBudget, on_spend: SpendSeen, every_s: float) -> None:
    """Hand the spend to `on_spend` every `every_s` seconds, when it changed since the last."""
    seen = budget.used
    while True:
        await asyncio.sleep(every_s)
        if budget.used != seen:
            seen = budget.used
            await asyncio.to_thread(on_spend, budget.ledger())


@dataclass(frozen=True)
class TickerWork:
    """What every ticker of one fan-out shares besides the services: where results are stored
    and whether stored ones may be reused."""

    store: TickerStore
    fresh: bool
    jobs: dict[str, TickerJob]
    """Each ticker's job: a task run's one parameter is its ticker, a string Prefect records
    at no cost (a model is walked for upstream results and sent with each state)."""


WORK: ContextVar[TickerWork] = ContextVar("nightdesk_ticker_work")


@dataclass(frozen=True)
class TickerOutcome:
    """A ticker's result and whether it was reused from an earlier attempt."""

    result: TickerResult
    reused: bool


async def ticker_work(ticker: str) -> TickerOutcome:
    """One ticker: its stored result reused, or its questions answered (keeping what a stored
    result settled) and the result stored; one log line. Raises only on a bug."""
    work = WORK.get()
    job = work.jobs[ticker]
    key = ticker_key(job)
    stored = None if work.fresh else await asyncio.to_thread(work.store.load, key)
    if stored is not None and not stored.retryable:
        rounds = SERVICES.get().rounds
        if rounds is not None:  # it drafts nothing: no round waits for it
            rounds.ticker().close()
        log_ticker(stored, True)
        return TickerOutcome(stored, True)
    result = await answer_ticker(job, stored)
    await asyncio.to_thread(work.store.save, key, result)
    log_ticker(result, False)
    return TickerOutcome(result, False)


def ticker_state(outcome: TickerOutcome) -> TickerOutcome | State:
    """A ticker whose questions the run budget cut ends its task run in a Completed state named
    `Cut` that says how many, so the flow run's graph shows where a cut night stopped; any other
    ticker returns its outcome (Prefect's own `Completed`)."""
    records = outcome.result.all_records
    cut = sum(r.reason == ReasonCode.BUDGET_EXHAUSTED for r in records)
    if not cut:
        return outcome
    return Completed(
        name=CUT, message=f"{cut} of {len(records)} questions cut by the run budget", data=outcome
    )


CUT = "Cut"
"""The name of a ticker's Completed state when the run budget cut some of its questions."""


async def ticker_run(ticker: str) -> TickerOutcome | State:
    """`ticker_work` with its final state named for what happened (`ticker_state`)."""
    return ticker_state(await ticker_work(ticker))


ticker_task = task(
    name="ticker",
    task_run_name="{ticker}",
    persist_result=False,
    cache_policy=NONE,
    cache_result_in_memory=True,
    retries=0,
    log_prints=False,
)(ticker_run)
"""`ticker_run` as a Prefect task run (see the module's docstring for what makes it cheap)."""


async def run_tickers(
    jobs: list[TickerJob],
    layout: RunLayout,
    config: RunConfig,
    budget: RunBudget,
    on_done: TickerDone | None = None,
) -> tuple[list[TickerResult], list[str]]:
    """Every ticker, at most `concurrency` at once, each a task run inside a flow run; a ticker
    whose work fails becomes rejected records."""
    # A batch night's tickers all wait in the same rounds: each must be under way at once (their
    # tool calls still queue for the tool threads).
    gate = asyncio.Semaphore(len(jobs) if config.batch else config.concurrency)
    store = TickerStore(layout.results)
    progress = RunProgress(tickers_total=len(jobs), tokens_budget=config.budget.run_tokens)
    reused: list[str] = []
    report_progress(progress)
    work = ticker_task if FlowRunContext.get() is not None else ticker_work
    token = WORK.set(
        TickerWork(store=store, fresh=config.fresh, jobs={job.ticker: job for job in jobs})
    )

    async def one(job: TickerJob) -> TickerResult:
        async with gate:
            try:
                done = await work(job.ticker)
                outcome = await done.aresult() if isinstance(done, State) else done
            except Exception as exc:  # a bug must not sink the night: its questions become cases
                outcome = TickerOutcome(failed_job(job, exc), False)
                await asyncio.to_thread(store.save, ticker_key(job), outcome.result)
                log_ticker(outcome.result, False)
        result = outcome.result
        if outcome.reused:
            reused.append(job.ticker)
        if on_done is not None:
            on_done(result, outcome.reused)
        if budget.journal is not None:
            budget.journal.ticker_done(job.ticker)
        progress.tickers_done += 1
        progress.accepted += sum(r.status == "accepted" for r in result.all_records)
        progress.rejected += sum(r.status == "rejected" for r in result.all_records)
        progress.tokens_used = budget.used.total
        report_progress(progress)
        return result

    try:
        async with keep_progress_artifact(progress, layout.report_date.isoformat()):
            results = await asyncio.gather(*(one(job) for job in jobs))
    finally:
        WORK.reset(token)
    return list(results), sorted(reused)


def failed_job(job: TickerJob, exc: Exception) -> TickerResult:
    """Rejected records for every question of a ticker whose work failed."""
    return failed_result(
        job.ticker,
        job.portfolios,
        job.report_date,
        job.language,
        SERVICES.get().question_set,
        f"ticker {job.ticker} failed: {type(exc).__name__}: {exc}",
    )


def failed_result(
    ticker: str,
    portfolios: list[str],
    report_date: date,
    language: str,
    qset: QuestionSet,
    message: str,
) -> TickerResult:
    """Every question of a ticker whose work failed, and its summary, as rejected records
    (`internal_error`)."""
    questions = questions_for(ticker, portfolios, report_date, language, qset)
    return TickerResult(
        ticker=ticker,
        records=[
            rejected_record(
                q.id,
                q.spec_id,
                q.kind,
                ticker,
                [q.portfolio_id] if q.portfolio_id else portfolios,
                q.text,
                ReasonCode.INTERNAL_ERROR,
                message,
            )
            for q in questions
        ],
        summary=withheld_summary(ticker, portfolios, ReasonCode.INTERNAL_ERROR, message),
    )


def question_set_id(qset: QuestionSet, path: Path | None) -> str:
    """The set's name and a hash of its content: editing a question invalidates stored results."""
    digest = hashlib.sha256(qset.model_dump_json().encode()).hexdigest()[:12]
    return f"{qset.name}:{digest}" if path and Path(path) != DEFAULT_SET else f"default:{digest}"

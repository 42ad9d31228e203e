"""The nightly flow: open the catalog at the as-of date, build each portfolio's table, fan out one
task per ticker behind a semaphore, then publish accepted reports, rejected cases and the manifest.

Ticker tasks are async and called directly, gathered in the flow's own event loop (a few ms
each, and the shared provider, budget and limiter stay on one loop). Results persist under
`<out>/.results` with a key over date, ticker, holders, question set, provider, model, prompt
version and data fingerprint, so a rerun after a crash reuses finished tickers. A reused result
that holds outcomes which say nothing about the answer (provider_error, budget_exhausted,
internal_error) is asked again for those questions only; verified rejections stay as they are.
"""

from __future__ import annotations

import asyncio
import hashlib
import platform
import sys
import time
import uuid
from collections import defaultdict
from datetime import UTC, date, datetime
from importlib import metadata
from pathlib import Path
from typing import Any

from prefect import flow
from prefect.context import FlowRunContext
from prefect.states import State

from agent.budget import RunBudget
from agent.prompts import PROMPT_VERSION
from agent.providers import make_provider
from agent.questions import DEFAULT_SET, QuestionSet, load_question_set
from agent.ratelimit import RateLimiter
from data.errors import InputError
from flows.artifacts import publish_artifacts
from flows.config import RunConfig
from flows.layout import RunLayout, check_name
from flows.portfolio import PortfolioTable, collect_portfolio_table
from flows.progress import RunProgress, report_progress
from flows.publish import RunOutcome, publish_run
from flows.records import QuestionRecord, TickerResult
from flows.ticker import SERVICES, RunServices, TickerJob, answer_ticker
from tools.catalog import Catalog, open_catalog
from tools.registry import TOOLS_VERSION, call_tool

PAGE = 50


@flow(name="nightly-reports", log_prints=True)
async def nightly_reports(config: RunConfig = RunConfig()) -> dict[str, Any]:  # noqa: B008
    """One night: every portfolio's report for one session, within the run's token budget."""
    started = datetime.now(UTC)
    clock = time.perf_counter()
    run_id = current_run_id()
    if config.shards > 1:
        raise InputError("sharded runs are not available yet: run with --shards 1")
    report_date = config.report_date or latest_session(config.data_dir, config.out_dir)
    qset = load_question_set(config.question_set)
    layout = RunLayout(Path(config.out_dir), report_date)
    catalog = open_catalog(config.data_dir, report_date, workdir=catalog_dir(config.out_dir))
    try:
        portfolios = resolve_portfolios(catalog, config.portfolios)
        tables = await asyncio.to_thread(collect_tables, catalog, portfolios, report_date)
        holders = holders_of(tables)
        prepared = time.perf_counter()
        budget = RunBudget(
            config.budget, list(holders), provider=config.provider, model=config.model
        )
        provider = make_provider(config.provider, config.model or None)
        services = RunServices(
            provider=provider,
            catalog=catalog,
            budget=budget,
            limiter=RateLimiter(config.budget.requests_per_minute, config.budget.tokens_per_minute),
            question_set=qset,
            max_steps=config.budget.max_steps,
            max_output_tokens=config.budget.max_output_tokens,
        )
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
        try:
            results, reused = await run_tickers(jobs, layout, config, budget)
        finally:
            SERVICES.reset(token)
        answered = time.perf_counter()
        fingerprint = catalog.fingerprint
    finally:
        catalog.close()
    outcome = RunOutcome(
        run_id=run_id,
        report_date=report_date,
        parameters=config.model_dump(mode="json"),
        tables=tables,
        results=results,
        reused=reused,
        budget=budget.ledger().model_dump(mode="json"),
        timings={
            "started_at": started.isoformat(),
            "finished_at": datetime.now(UTC).isoformat(),
            "prepare_s": round(prepared - clock, 3),
            "answer_s": round(answered - prepared, 3),
            "total_s": round(time.perf_counter() - clock, 3),
        },
        versions=versions(qset),
        data_fingerprint=fingerprint,
    )
    published = publish_run(layout.root, outcome)
    await publish_artifacts(outcome, published)
    return {
        "run_id": run_id,
        "report_date": report_date.isoformat(),
        "day": str(published.day),
        "manifest": str(published.manifest),
        "reports": [str(p) for p in published.reports],
        "counts": published.counts,
        "tokens_used": outcome.budget.get("used", {}),
    }


async def run_tickers(
    jobs: list[TickerJob], layout: RunLayout, config: RunConfig, budget: RunBudget
) -> tuple[list[TickerResult], list[str]]:
    """Every ticker task, at most `concurrency` at once; a failed task becomes rejected records."""
    gate = asyncio.Semaphore(config.concurrency)
    task: Any = answer_ticker.with_options(
        result_storage=layout.results, refresh_cache=config.fresh
    )
    progress = RunProgress(tickers_total=len(jobs), tokens_budget=config.budget.run_tokens)
    reused: list[str] = []
    report_progress(progress)

    async def one(job: TickerJob) -> TickerResult:
        async with gate:
            state: State = await task(job, return_state=True)
            result = await outcome_of(state, job)
            if state.name == "Cached" and result.retryable:
                again = task.with_options(refresh_cache=True)
                result = await outcome_of(await again(job, result, return_state=True), job)
            elif state.name == "Cached":
                reused.append(job.ticker)
        progress.tickers_done += 1
        progress.accepted += sum(r.status == "accepted" for r in result.all_records)
        progress.rejected += sum(r.status == "rejected" for r in result.all_records)
        progress.tokens_used = budget.ledger().used.total
        report_progress(progress)
        return result

    results = await asyncio.gather(*(one(job) for job in jobs))
    return list(results), sorted(reused)


async def outcome_of(state: State, job: TickerJob) -> TickerResult:
    """The task's result, or rejected records for all its questions when the task failed."""
    if state.is_completed():
        result = await state.aresult()
        if isinstance(result, TickerResult):
            return result
    message = state.message or state.name or "ticker task failed"
    services = SERVICES.get()
    from agent.questions import questions_for

    questions = questions_for(
        job.ticker, job.portfolios, job.report_date, job.language, services.question_set
    )
    return TickerResult(
        ticker=job.ticker,
        records=[
            QuestionRecord(
                question_id=q.id,
                spec_id=q.spec_id,
                kind=q.kind,
                ticker=job.ticker,
                portfolios=[q.portfolio_id] if q.portfolio_id else list(job.portfolios),
                text=q.text,
                status="rejected",
                reason="internal_error",
                reasons=[{"code": "internal_error", "message": message}],
            )
            for q in questions
        ],
        summary_note=f"ticker task failed: {message}",
    )


def latest_session(data_dir: Path, out_dir: Path) -> date:
    """The last session in the data up to today (the clock is read here, in flows/, only)."""
    today = datetime.now(UTC).date()
    with open_catalog(data_dir, today, workdir=catalog_dir(out_dir)) as catalog:
        if not catalog.sessions:
            raise InputError(f"data set {data_dir} has no prices up to {today}; pass --date D")
        return catalog.sessions[-1]


def resolve_portfolios(catalog: Catalog, wanted: list[str]) -> list[str]:
    """The requested portfolio ids (checked against the data), or every one of them."""
    known = all_portfolios(catalog)
    unknown = [p for p in wanted if p not in known]
    if unknown:
        raise InputError(
            f"unknown portfolio {', '.join(unknown)}: the data has {', '.join(known[:20])}"
        )
    chosen = wanted or known
    if not chosen:
        raise InputError(f"data set {catalog.data_dir} has no portfolios")
    return [check_name(p, "portfolio id") for p in chosen]


def all_portfolios(catalog: Catalog) -> list[str]:
    ids: list[str] = []
    while True:
        sql = f"SELECT portfolio_id FROM portfolios ORDER BY 1 LIMIT {PAGE} OFFSET {len(ids)}"
        page = call_tool(catalog, "run_sql", {"sql": sql})
        if "error" in page:
            raise InputError(f"cannot list portfolios in {catalog.data_dir}: {page['error']}")
        ids += [row[0] for row in page["rows"]]
        if len(page["rows"]) < PAGE:
            return ids


def collect_tables(catalog: Catalog, portfolios: list[str], day: date) -> list[PortfolioTable]:
    def call(name: str, args: dict[str, Any]) -> dict[str, Any]:
        return call_tool(catalog, name, args)

    return [collect_portfolio_table(call, pid, day) for pid in portfolios]


def holders_of(tables: list[PortfolioTable]) -> dict[str, list[str]]:
    """Each held ticker and the portfolios holding it, in ticker order."""
    owners: dict[str, list[str]] = defaultdict(list)
    for table in tables:
        for ticker in table.tickers:
            owners[check_name(ticker, "ticker")].append(table.portfolio_id)
    return dict(sorted(owners.items()))


def question_set_id(qset: QuestionSet, path: Path | None) -> str:
    """The set's name and a hash of its content: editing a question invalidates stored results."""
    digest = hashlib.sha256(qset.model_dump_json().encode()).hexdigest()[:12]
    return f"{qset.name}:{digest}" if path and Path(path) != DEFAULT_SET else f"default:{digest}"


def catalog_dir(out_dir: Path) -> Path:
    return Path(out_dir) / ".catalog"


def current_run_id() -> str:
    context = FlowRunContext.get()
    if context is not None and context.flow_run is not None:
        return str(context.flow_run.id)
    return str(uuid.uuid4())


def versions(qset: QuestionSet) -> dict[str, str]:
    def version(name: str) -> str:
        try:
            return metadata.version(name)
        except metadata.PackageNotFoundError:
            return "unknown"

    return {
        "nightdesk": version("nightdesk"),
        "prefect": version("prefect"),
        "python": platform.python_version(),
        "prompt_version": PROMPT_VERSION,
        "tools_version": TOOLS_VERSION,
        "question_set": qset.name,
        "platform": sys.platform,
    }

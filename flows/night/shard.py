"""Scale-out: the night split into shards, each run by a Prefect worker of a process work pool.

The night (the parent) splits the tickers into balanced parts, gives each part its share of the
token budget, rate limits and concurrency up front (no counter crosses processes), and starts
one run of the `shard` deployment per part. A shard answers its tickers like an unsharded night
does and stores each ticker's result, with its spend so far, under `<out>/.shards/` as soon as
the ticker finishes (`ShardStore`); the parent waits, gathers them, merges the budget ledgers and
publishes once. When a shard fails or its worker dies, the tickers it finished keep their
records and their spend; only the unfinished ones become rejected records (`internal_error`):
nothing is lost, the night still publishes."""

from __future__ import annotations

import asyncio
import heapq
import stat
import time
from pathlib import Path
from typing import Any

from prefect import flow
from prefect.client.schemas.objects import FlowRun
from prefect.deployments.runner import EntrypointType, RunnerDeployment
from pydantic import BaseModel, Field

from agent.budget.ledger import BudgetLedger, merge_ledgers
from agent.questions import QuestionSet, load_question_set
from contract.errors import InputError
from contract.secrets import redact_logs
from flows.night.fanout import TickerBatch, answer_tickers, failed_result
from flows.publish.layout import catalog_dir
from flows.publish.records import TickerResult
from flows.run.config import RunConfig
from flows.run.progress import RunProgress, report_progress
from flows.run.shard_store import LedgerSource, ShardStore
from tools.catalog import open_catalog
from verifier.verify import warm_up

DEPLOYMENT = "shard"


FLOW_NAME = "nightly-shard"


POLL_S = 2.0


class ShardJob(BaseModel):
    """One part of a night: its tickers (with their holders) and its share of the limits."""

    run_id: str = Field(description="Run id of the night this shard belongs to.")
    index: int = Field(ge=0, description="Position of the shard, from 0.")
    count: int = Field(ge=1, description="Shards of the night.")
    config: RunConfig = Field(description="The night's configuration with this shard's share.")
    holders: dict[str, list[str]] = Field(description="Tickers of the shard and who holds them.")
    data_fingerprint: str = Field(description="Fingerprint of the data the night planned on.")


class ShardResult(BaseModel):
    """A shard as the parent gathers it: a result per ticker, the tickers it reused, its ledger.

    `ledger_from` says how complete the spend is: `final` (the shard finished), `last_saved`
    (it stopped early: spend as of its last save, made as each ticker finished and every few
    seconds while calls settled; calls of its last seconds may be missing) or `none` (it saved
    no spend)."""

    index: int
    flow_run_id: str
    results: list[TickerResult]
    reused: list[str]
    ledger: BudgetLedger
    finished: int = Field(0, description="Tickers the shard finished (the rest failed with it).")
    ledger_from: LedgerSource = "final"


def split_tickers(holders: dict[str, list[str]], shards: int) -> list[dict[str, list[str]]]:
    """Tickers dealt to at most `shards` parts, balanced by questions (one per holder plus the
    ticker's own), largest first to the lightest part; the same input gives the same split."""
    loads = [(0, i) for i in range(shards)]
    parts: list[dict[str, list[str]]] = [{} for _ in range(shards)]
    for ticker in sorted(holders, key=lambda t: (-len(holders[t]), t)):
        load, index = heapq.heappop(loads)
        parts[index][ticker] = holders[ticker]
        heapq.heappush(loads, (load + 1 + len(holders[ticker]), index))
    return [dict(sorted(part.items())) for part in parts if part]


def plan_shards(
    config: RunConfig, holders: dict[str, list[str]], run_id: str, data_fingerprint: str
) -> list[ShardJob]:
    """One job per non-empty part, each with its budget share and its share of concurrency."""
    parts = split_tickers(holders, config.shards)
    base = config.model_copy(
        update={
            "shards": 1,
            "data_dir": Path(config.data_dir).resolve(),
            "out_dir": Path(config.out_dir).resolve(),
            "concurrency": max(config.concurrency // len(parts), 1),
            # the shards spread the night over processes already: none of their own unless set
            "verifier_processes": (
                0 if config.verifier_processes is None else config.verifier_processes
            ),
        }
    )
    return [
        ShardJob(
            run_id=run_id,
            index=index,
            count=len(parts),
            config=base.model_copy(
                update={"budget": config.budget.for_shard(len(part), len(holders), len(parts))}
            ),
            holders=part,
            data_fingerprint=data_fingerprint,
        )
        for index, part in enumerate(parts)
    ]


@flow(name=FLOW_NAME, flow_run_name="shard-{job.index}", log_prints=True)
async def nightly_shard(job: ShardJob) -> str:
    """Answer one shard's tickers within its share and store the results for the night."""
    redact_logs()
    config = job.config
    if config.report_date is None:
        raise InputError("a shard needs the report date of its night")
    qset = load_question_set(config.question_set)
    catalog = open_catalog(config.data_dir, config.report_date, workdir=catalog_dir(config.out_dir))
    try:
        if catalog.fingerprint != job.data_fingerprint:
            raise InputError(
                f"the data in {config.data_dir} differs from the data the night planned on: "
                "give every worker the same shared data folder"
            )
        store = ShardStore.of(job)
        await asyncio.to_thread(warm_up)
        batch = await answer_tickers(
            config,
            catalog,
            job.holders,
            qset,
            job.run_id,
            on_done=store.ticker_done,
            on_spend=store.spent,
            journal=store.journal,
        )
    finally:
        catalog.close()
    store.complete(batch.ledger)
    return str(store.folder)


def shard_options(work_pool: str) -> dict[str, Any]:
    """The `shard` deployment on a process work pool; workers import the flow by module path,
    so any machine with nightdesk installed can run it, whatever its working directory."""
    return {
        "name": DEPLOYMENT,
        "work_pool_name": work_pool,
        "entrypoint_type": EntrypointType.MODULE_PATH,
        "description": "One shard of a nightly run; started by the night, run by a pool's worker.",
        "tags": ["nightdesk"],
    }


def shard_deployment(work_pool: str) -> RunnerDeployment:
    """The deployment object (outside an event loop: `nightdesk serve`)."""
    deployment: RunnerDeployment = nightly_shard.to_deployment(  # type: ignore[assignment]
        **shard_options(work_pool)
    )
    return deployment


def check_server(work_pool: str) -> None:
    """A sharded night has a Prefect server its workers reach: the CLI asks before its
    temporary server starts, the flow again before it deals the shards."""
    from prefect.settings import PREFECT_API_URL

    if not PREFECT_API_URL.value():
        raise InputError(
            f"--shards above 1 needs a Prefect server the workers of pool {work_pool!r} reach: "
            "start one (prefect server start), set PREFECT_API_URL, start workers (prefect "
            f"worker start --pool {work_pool}); see README 'Scale out'; or pass --shards 1"
        )


async def register_shard_deployment(work_pool: str) -> None:
    """Register (or update) the `shard` deployment; the pool must exist on the server."""
    from prefect.client.orchestration import get_client
    from prefect.exceptions import ObjectNotFound

    check_server(work_pool)
    async with get_client() as client:
        try:
            await client.read_work_pool(work_pool)
        except ObjectNotFound:
            raise InputError(
                f"work pool {work_pool!r} does not exist: create it with `prefect work-pool "
                f"create {work_pool} --type process` and start workers on it"
            ) from None
    deployment = await nightly_shard.ato_deployment(**shard_options(work_pool))
    await deployment.aapply()


async def run_shards(
    config: RunConfig,
    holders: dict[str, list[str]],
    run_id: str,
    data_fingerprint: str,
    qset: QuestionSet,
) -> tuple[TickerBatch, list[dict[str, Any]]]:
    """Start every shard on the pool, wait for all, and gather their results and ledgers."""
    from prefect.deployments import run_deployment

    await register_shard_deployment(config.work_pool)
    jobs = plan_shards(config, holders, run_id, data_fingerprint)
    progress = RunProgress(tickers_total=len(holders), tokens_budget=config.budget.run_tokens)
    report_progress(progress)

    async def one(job: ShardJob) -> tuple[ShardResult, dict[str, Any]]:
        started: FlowRun = await run_deployment(  # type: ignore[misc]
            f"{FLOW_NAME}/{DEPLOYMENT}",
            parameters={"job": job.model_dump(mode="json")},
            timeout=0,
            idempotency_key=f"{run_id}:shard-{job.index}",
        )
        run = await wait_for_shard(started, ShardStore.of(job), config.shard_stall_minutes * 60)
        result = gather_shard(job, run, qset)
        progress.tickers_done += len(job.holders)
        for record in (r for res in result.results for r in res.all_records):
            progress.accepted += record.status == "accepted"
            progress.rejected += record.status == "rejected"
        progress.tokens_used += result.ledger.used.total
        report_progress(progress)
        return result, shard_line(job, run, result)

    done = await asyncio.gather(*(one(job) for job in jobs))
    results = sorted((r for shard, _ in done for r in shard.results), key=lambda r: r.ticker)
    batch = TickerBatch(
        results=results,
        reused=sorted(t for shard, _ in done for t in shard.reused),
        ledger=merge_ledgers([shard.ledger for shard, _ in done]),
    )
    return batch, [line for _, line in done]


async def wait_for_shard(run: FlowRun, store: ShardStore, stall_s: float) -> FlowRun:
    """The shard's run once it has ended. A run still Running when nothing in its store has
    changed for `stall_s` (its worker died with it, and nothing will ever mark it) is marked
    Crashed, so that the night gathers what it stored and publishes. A run not yet started
    (no worker up) is waited for."""
    from prefect.client.orchestration import get_client
    from prefect.states import Crashed

    async with get_client() as client:
        while True:
            run = await client.read_flow_run(run.id)
            state = run.state
            if state is not None and state.is_final():
                return run
            if (
                state is not None
                and state.is_running()
                and stalled(store, state.timestamp.timestamp(), stall_s, time.time())
            ):
                minutes = round(stall_s / 60)
                message = f"no ticker finished for {minutes} min: its worker is taken as lost"
                await client.set_flow_run_state(run.id, Crashed(message=message), force=True)
                return await client.read_flow_run(run.id)
            await asyncio.sleep(POLL_S)


def stalled(store: ShardStore, running_since: float, stall_s: float, now: float) -> bool:
    """No stored ticker, ledger or journal line (nor the start of the run) is more recent than
    `stall_s`. A file that goes while the store is read (a write's temporary file, renamed into
    place) is a change made just now."""
    last = running_since
    try:
        for path in store.folder.rglob("*"):
            try:
                found = path.stat()
            except FileNotFoundError:
                last = now
                continue
            if stat.S_ISREG(found.st_mode):
                last = max(last, found.st_mtime)
    except FileNotFoundError:  # the store's own folder is not made yet
        pass
    return now - last > stall_s


def gather_shard(job: ShardJob, run: FlowRun, qset: QuestionSet) -> ShardResult:
    """The shard's stored tickers with its ledger; rejected records for the tickers it did not
    finish (all of them, if it finished none)."""
    config = job.config
    assert config.report_date is not None
    store = ShardStore.of(job)
    state = run.state
    completed = state is not None and state.is_completed()
    stored = store.tickers()
    ledger, source = store.ledger(completed, config.budget)
    why = f"shard {job.index} ended {state.name if state else 'unknown'}"
    if completed:
        why += " without storing this ticker's result"
    message = f"{why}: {state.message}" if state and state.message else why
    return ShardResult(
        index=job.index,
        flow_run_id=str(run.id),
        results=[
            stored[ticker].result
            if ticker in stored
            else failed_result(ticker, owners, config.report_date, config.language, qset, message)
            for ticker, owners in sorted(job.holders.items())
        ],
        reused=sorted(t for t in job.holders if t in stored and stored[t].reused),
        ledger=ledger or BudgetLedger.empty(config.budget),
        finished=sum(t in stored for t in job.holders),
        ledger_from=source,
    )


def shard_line(job: ShardJob, run: FlowRun, result: ShardResult) -> dict[str, Any]:
    """One shard's row in the manifest's budget: its share, what it used, how it ended."""
    budget = job.config.budget
    used = result.ledger.used
    return {
        "shard": job.index,
        "flow_run_id": str(run.id),
        "state": run.state.name if run.state else None,
        "tickers": len(job.holders),
        "run_tokens": budget.run_tokens,
        "question_tokens": budget.question_tokens,
        "requests_per_minute": budget.requests_per_minute,
        "tokens_per_minute": budget.tokens_per_minute,
        "concurrency": job.config.concurrency,
        "used": {**used.model_dump(), "total": used.total},
        "uncovered_tokens": result.ledger.uncovered_tokens,
        "tickers_finished": result.finished,
        "ledger_from": result.ledger_from,
    }

"""The nightly flow: open the catalog at the as-of date, build each portfolio's table, answer
every held ticker (in this process, or split into shards run by Prefect workers), then publish
accepted reports, rejected cases and the manifest once.

How tickers are answered, stored and reused after a crash is `flows/night/fanout.py`; how a night is
split across workers is `flows/night/shard.py`.
"""

from __future__ import annotations

import asyncio
import platform
import sys
import time
import uuid
from collections import defaultdict
from datetime import UTC, date, datetime
from importlib import metadata
from pathlib import Path
from typing import Any
from uuid import UUID

from prefect import flow
from prefect.client.schemas.objects import State
from prefect.context import FlowRunContext
from prefect.runtime import flow_run
from prefect.states import Completed, Failed

from agent.budget.ledger import BudgetLedger
from agent.prompts import PROMPT_VERSION
from agent.questions import QuestionSet, load_question_set
from contract.errors import InputError
from contract.secrets import redact_logs
from flows.night.artifacts import closing_artifacts
from flows.night.fanout import answer_tickers
from flows.night.outputs import RunOutcome, publish_run
from flows.night.shard import run_shards
from flows.night.summary import WITHHELD, NightSummary, TooManyWithheld, summarise_night
from flows.publish.layout import RunLayout, catalog_dir, check_name, remove_orphans
from flows.publish.records import TickerResult
from flows.run.attempts import (
    Attempt,
    NightSpend,
    attempts_dir,
    journal_path,
    load_night,
    save_attempt,
)
from flows.run.config import RunConfig
from flows.run.options import as_parameters
from flows.run.preflight import check_night, resolve_portfolios
from tools.catalog import Catalog, open_catalog
from tools.portfolio_table import PortfolioTable, collect_portfolio_table
from tools.registry import TOOLS_VERSION
from verifier.verify import warm_up


def run_name() -> str:
    """`nightly-2024-12-31`: the report date, or `nightly-latest` until the checks resolve it."""
    config = flow_run.parameters.get("config")
    day = config.report_date if isinstance(config, RunConfig) else None
    return f"nightly-{day or 'latest'}"


@flow(name="nightly-reports", flow_run_name=run_name, log_prints=True)
async def nightly_reports(config: RunConfig = RunConfig()) -> dict[str, Any] | State:  # noqa: B008
    """One night: every portfolio's report for one session, within the run's token budget.

    Input the checks refuse ends the run Failed with their one line as its message (no
    traceback: nothing went wrong in the code), worded with the `config` fields to set; called
    directly, the flow then raises `FailedRun` with that line. A published night ends Completed
    with a line saying how many answers were withheld or cut by the budget, or Failed (raising
    `TooManyWithheld` when called directly) when more than `max_withheld_share` were withheld."""
    started = datetime.now(UTC)
    clock = time.perf_counter()
    run_id = current_run_id()
    redact_logs()  # Prefect's handlers exist by now: what they send is redacted
    try:
        config = check_night(config)
    except InputError as exc:
        return Failed(message=as_parameters(exc.message))
    for note in config.budget.notes:  # a cap set above the broader one, lowered to fit it
        print(f"note: {note}")
    report_date = config.report_date
    assert report_date is not None
    layout = RunLayout(Path(config.out_dir), report_date)
    await name_run(run_id, attempt_name(layout, run_id))
    qset = load_question_set(config.question_set)
    for folder in (
        layout.day,
        attempts_dir(layout),
        layout.shards,
        layout.results,
        layout.batches,
    ):
        remove_orphans(folder)  # what a killed attempt left half-written
    catalog = open_catalog(config.data_dir, report_date, workdir=catalog_dir(config.out_dir))
    try:
        portfolios = resolve_portfolios(catalog, config.portfolios)
        tables, _ = await asyncio.gather(  # the verifier warms up while DuckDB reads the books
            asyncio.to_thread(collect_tables, catalog, portfolios, report_date),
            asyncio.to_thread(warm_up),
        )
        holders = holders_of(tables)
        prepared = time.perf_counter()
        attempt = Attempt(
            run_id=run_id,
            started_at=started,
            ledger=BudgetLedger.empty(config.budget),
            config=config,
        )
        save_attempt(layout, attempt)  # so that a kill from here on leaves its spend behind
        if config.shards > 1:  # the shards keep the spend until the night has it all
            batch, shards = await run_shards(
                config.model_copy(update={"report_date": report_date}),
                holders,
                run_id,
                catalog.fingerprint,
                qset,
            )
        else:

            def spent(ledger: BudgetLedger) -> None:
                attempt.ledger = ledger
                save_attempt(layout, attempt)

            def ticker_done(_result: TickerResult, _reused: bool) -> None:
                attempt.tickers_done += 1

            batch = await answer_tickers(
                config,
                catalog,
                holders,
                qset,
                run_id,
                on_done=ticker_done,
                on_spend=spent,
                journal=journal_path(layout, run_id),
            )
            shards = []
        answered = time.perf_counter()
        fingerprint = catalog.fingerprint
    finally:
        catalog.close()
    finished = sum(line["tickers_finished"] for line in shards) if shards else len(batch.results)
    save_attempt(
        layout,
        attempt.model_copy(
            update={"answered": True, "tickers_done": finished, "ledger": batch.ledger}
        ),
    )
    outcome = RunOutcome(
        run_id=run_id,
        report_date=report_date,
        parameters=config.model_dump(mode="json"),
        tables=tables,
        results=batch.results,
        reused=batch.reused,
        budget=budget_of(batch.ledger, shards, load_night(layout)),
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

    def summarise(counts: dict[str, Any]) -> dict[str, Any]:
        return summarise_night(
            report_date.isoformat(),
            counts,
            outcome.budget,
            outcome.timings,
            str(layout.day / "review.html"),
            budget_command=f"nightdesk budget {layout.cli_args}",
            run_id=run_id,
            max_withheld_share=config.max_withheld_share,
        ).as_dict()

    async with closing_artifacts(report_date.isoformat()) as artifacts:
        published = await asyncio.to_thread(
            publish_run, layout.root, outcome, artifacts.report_written, summarise
        )
        summary = NightSummary.from_dict(published.summary)
        artifacts.send_night(outcome, published, summary)
        await artifacts.sent()
    share = config.max_withheld_share
    result = {
        "run_id": run_id,
        "report_date": report_date.isoformat(),
        "day": str(published.day),
        "manifest": str(published.manifest),
        "reports": [str(p) for p in published.reports],
        "counts": published.counts,
        "summary": published.summary,
        "tokens_used": outcome.budget["night"]["used"],
        "message": summary.message(share),
        "state": summary.state_name(share),
    }
    if summary.failed(share):
        return Failed(
            name=WITHHELD,
            message=result["message"],
            data=TooManyWithheld(result["message"], result),
        )
    return Completed(name=summary.state_name(share), message=result["message"], data=result)


def attempt_name(layout: RunLayout, run_id: str) -> str:
    """`nightly-2024-12-31` for a night's first attempt, `nightly-2024-12-31-attempt-2` for
    the rerun after it: each attempt keeps its ledger under the night's ledgers folder."""
    day = layout.report_date.isoformat()
    earlier = [p for p in attempts_dir(layout).glob("*.json") if p.stem != run_id]
    return f"nightly-{day}-attempt-{len(earlier) + 1}" if earlier else f"nightly-{day}"


async def name_run(run_id: str, name: str) -> None:
    """Rename the flow run once its report date is known (it may have started as `latest`)."""
    context = FlowRunContext.get()
    if context is None or context.flow_run is None or context.flow_run.name == name:
        return
    from prefect.client.orchestration import get_client

    async with get_client() as client:
        await client.update_flow_run(UUID(run_id), name=name)


def budget_of(
    ledger: BudgetLedger, shards: list[dict[str, Any]], night: NightSpend
) -> dict[str, Any]:
    """The manifest's budget: the (merged) ledger, each shard's share and use when split, and
    what every attempt at this night spent (`night`: more than `used` after a crash and rerun)."""
    budget = {**ledger.model_dump(mode="json"), "night": night.summary()}
    return {**budget, "shards": shards} if shards else budget


def collect_tables(catalog: Catalog, portfolios: list[str], day: date) -> list[PortfolioTable]:
    return [collect_portfolio_table(catalog, pid, day) for pid in portfolios]


def holders_of(tables: list[PortfolioTable]) -> dict[str, list[str]]:
    """Each held ticker and the portfolios holding it, in ticker order."""
    owners: dict[str, list[str]] = defaultdict(list)
    for table in tables:
        for ticker in table.tickers:
            owners[check_name(ticker, "ticker")].append(table.portfolio_id)
    return dict(sorted(owners.items()))


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

"""Publishing a run: accepted reports, rejected cases with their index, and the manifest.

Only `accepted/`, `rejected/` and `manifest.json` belong to the publisher: files other tools keep
beside them (review decisions, re-asked cases) are left alone, and decisions already made are
applied to the reports. The manifest is the mark of a complete publish: the previous one (and
the review page built from it) is removed before the first file changes, and the new one is
written last, so a publish cut short leaves no manifest (readers then say there is no run for
the date, and a rerun publishes again) rather than an old manifest over a mix of files. The
review page is rebuilt from the new files right after.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from datetime import date
from functools import partial
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field

from contract.errors import InputError
from flows.publish.cases import ReviewCase, review_page_path
from flows.publish.layout import (
    RunLayout,
    check_name,
    held_lock,
    remove_stale,
    write_json,
    write_jsonl,
)
from flows.publish.records import QuestionRecord, TickerResult
from flows.publish.render import write_report
from flows.publish.report import HOLDINGS_MAX_AGE_DAYS, PortfolioReport, build_report
from flows.review.page import write_review_page
from flows.review.state import ReviewState
from tools.portfolio_table import PortfolioTable


class RunOutcome(BaseModel):
    """Everything a finished run hands to the publisher."""

    run_id: str
    report_date: date
    parameters: dict[str, Any] = Field(default_factory=dict)
    tables: list[PortfolioTable] = Field(default_factory=list)
    results: list[TickerResult] = Field(default_factory=list)
    reused: list[str] = Field(default_factory=list)
    budget: dict[str, Any] = Field(default_factory=dict)
    timings: dict[str, Any] = Field(default_factory=dict)
    versions: dict[str, str] = Field(default_factory=dict)
    data_fingerprint: str = ""


class PublishedRun(BaseModel):
    """Where a run's files went, and what the manifest counts."""

    day: Path
    reports: list[Path]
    cases: list[Path]
    manifest: Path
    counts: dict[str, Any]
    summary: dict[str, Any] = Field(default_factory=dict)
    """The manifest's `summary` (`flows.night.summary.NightSummary.as_dict`)."""


Summarise = Callable[[dict[str, Any]], dict[str, Any]]
"""Turns the manifest's counts into its `summary`, the figures every view of the night shows."""
ReportWritten = Callable[[Path], None]
"""Called with each report's path as soon as its files are written (from a writer thread)."""
WRITERS = 4
"""Threads writing the cases and reports: each file is synced before its rename, and a few
writers wait on the disk together while another renders (0.2 s of a 500-ticker night)."""


def publish_run(
    out_dir: Path,
    outcome: RunOutcome,
    on_report: ReportWritten | None = None,
    summarise: Summarise | None = None,
) -> PublishedRun:
    """Write the reports, the rejected cases, their index and then the manifest (with the
    `summary` that `summarise` makes of its counts); `on_report` sees each report's Markdown as
    soon as it is written. Two nights publishing one date at once take turns under the day's
    `.publish.lock`: each lands whole, never a mix of both."""
    layout = RunLayout(Path(out_dir), outcome.report_date)
    for table in outcome.tables:  # before the lock makes the day's folder: a bad id writes nothing
        check_name(table.portfolio_id, "portfolio id")
    rejected = [r for res in outcome.results for r in res.all_records if r.status == "rejected"]
    check_case_ids(rejected)
    with held_lock(layout.day / PUBLISH_LOCK):
        return publish_locked(layout, outcome, rejected, on_report, summarise)


PUBLISH_LOCK = ".publish.lock"


def publish_locked(
    layout: RunLayout,
    outcome: RunOutcome,
    rejected: list[QuestionRecord],
    on_report: ReportWritten | None,
    summarise: Summarise | None = None,
) -> PublishedRun:
    results = {r.ticker: r for r in outcome.results}
    layout.manifest.unlink(missing_ok=True)
    review_page_path(layout).unlink(missing_ok=True)
    with ThreadPoolExecutor(WRITERS, thread_name_prefix="nightdesk-publish") as pool:
        cases = list(pool.map(partial(write_case, layout, outcome), rejected))
        write_jsonl(layout.rejected_index, [index_row(record) for record in rejected])
        review = ReviewState.load(layout, strict=False)
        language = str(outcome.parameters.get("language") or "en")
        max_age = int(outcome.parameters.get("holdings_max_age_days", HOLDINGS_MAX_AGE_DAYS))

        def write_portfolio(table: PortfolioTable) -> tuple[PortfolioReport, list[Path]]:
            built = build_report(outcome.run_id, table, results, language, max_age)
            report = review.apply(built)
            written = write_report(layout, report)
            if on_report is not None:
                on_report(next(path for path in written if path.suffix == ".md"))
            return report, written

        portfolios = list(pool.map(write_portfolio, outcome.tables))
    reports = [path for _, written in portfolios for path in written]
    withheld = {
        report.portfolio_id: sum(a.status == "withheld" for s in report.tickers for a in s.answers)
        for report, _ in portfolios
    }
    remove_stale(layout.rejected, {*cases, layout.rejected_index})
    remove_stale(layout.accepted, set(reports))
    counts = count_records(outcome, withheld)
    summary = summarise(counts) if summarise is not None else {}
    write_json(layout.manifest, {**manifest_of(outcome, counts), "summary": summary})
    write_review_page(layout, [report for report, _ in portfolios])
    return PublishedRun(
        day=layout.day,
        reports=reports,
        cases=cases,
        manifest=layout.manifest,
        counts=counts,
        summary=summary,
    )


def check_case_ids(records: list[QuestionRecord]) -> None:
    """No two questions share a case file (the data check's id rules make that so; this is
    where a broken rule would overwrite one case with another, so it is refused here too)."""
    seen: dict[str, str] = {}
    for record in records:
        other = seen.setdefault(record.case_id, record.question_id)
        if other != record.question_id:
            raise InputError(
                f"questions {other!r} and {record.question_id!r} would share the case file "
                f"{record.case_id}.json: run `nightdesk data check` on the data"
            )


def write_case(layout: RunLayout, outcome: RunOutcome, record: QuestionRecord) -> Path:
    """A rejected record as its case file: the `ReviewCase` the review reads back."""
    path = layout.case(record.case_id)
    case = ReviewCase.of(record, outcome.run_id, outcome.report_date)
    write_json(path, case, exclude=CASE_ONLY_ON_RERUNS)
    return path


CASE_ONLY_ON_RERUNS = {"status", "rerun_of"}
"""A night's case file is rejected and re-asks nothing: it leaves these out."""


def index_row(record: QuestionRecord) -> dict[str, Any]:
    """One line of `rejected/index.jsonl` (read it with DuckDB's `read_json`)."""
    return {
        "case_id": record.case_id,
        "question_id": record.question_id,
        "kind": record.kind,
        "ticker": record.ticker,
        "portfolios": record.portfolios,
        "reason": record.reason,
        "reasons": [r.code for r in record.reasons],
        "stop_reason": record.trace.stop_reason if record.trace else None,
        "tokens": record.tokens.get("input_tokens", 0) + record.tokens.get("output_tokens", 0),
        "file": f"{record.case_id}.json",
    }


def count_records(outcome: RunOutcome, withheld: dict[str, int]) -> dict[str, Any]:
    """Questions by status and reason, and (portfolio, ticker, question) entries by status."""
    records = [r for res in outcome.results for r in res.all_records]
    status = Counter(r.status for r in records)
    reasons = Counter(r.reason or "unknown" for r in records if r.status == "rejected")
    entries = Counter(r.status for r in records for _ in r.portfolios)
    return {
        "tickers": len(outcome.results),
        "tickers_reused": len(outcome.reused),
        "portfolios": len(outcome.tables),
        "questions": len(records),
        "accepted": status["accepted"],
        "rejected": status["rejected"],
        "rejected_by_reason": dict(sorted(reasons.items())),
        "questions_by_kind": dict(sorted(Counter(r.kind for r in records).items())),
        "entries_accepted": entries["accepted"],
        "entries_rejected": entries["rejected"],
        "withheld_by_portfolio": withheld,
        "model_calls": sum(line.get("calls", 0) for line in outcome.budget.get("lines", [])),
    }


def manifest_of(outcome: RunOutcome, counts: dict[str, Any]) -> dict[str, Any]:
    return {
        "run_id": outcome.run_id,
        "report_date": outcome.report_date.isoformat(),
        "parameters": outcome.parameters,
        "counts": counts,
        "reused_tickers": outcome.reused,
        "budget": outcome.budget,
        "timings": outcome.timings,
        "versions": outcome.versions,
        "data_fingerprint": outcome.data_fingerprint,
        "files": {
            "accepted": "accepted/",
            "rejected": "rejected/",
            "rejected_index": "rejected/index.jsonl",
        },
    }

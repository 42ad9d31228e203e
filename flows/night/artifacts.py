"""What a run shows in the Prefect UI: its progress while the tickers are answered, a summary of
the night, each portfolio's report, the rejected cases with their reasons (a table that exists
also when there are none), and where the tokens went. Keys carry the report date, so each date
has its own series of versions (a rerun adds one) and the Artifacts page never mixes dates under
one key.

Each block of artifacts goes through one Prefect client: Prefect's helpers open a client per
call, and each client loads the system's certificates anew (about 25 ms of CPU), so a night's
artifacts cost over half a second before they were sent through one. A report's artifact is
sent as soon as the report is written: the server takes some 35 ms to store one, which the
night used to wait for at its very end."""

from __future__ import annotations

import asyncio
import contextvars
import hashlib
import re
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager, suppress
from pathlib import Path
from typing import Any

from prefect.artifacts import (
    MarkdownArtifact,
    ProgressArtifact,
    TableArtifact,
    aupdate_progress_artifact,
)
from prefect.client.orchestration import PrefectClient, get_client
from prefect.context import FlowRunContext

from contract.text import display_text
from flows.night.outputs import PublishedRun, RunOutcome
from flows.night.summary import NightSummary
from flows.run.progress import RunProgress

MAX_KEY = 100
PROGRESS_EVERY_S = 2.0


@asynccontextmanager
async def keep_progress_artifact(
    progress: RunProgress, day: str, every_s: float = PROGRESS_EVERY_S
) -> AsyncIterator[None]:
    """While the block runs, the flow run's progress artifact shows the share of tickers done
    and the answers so far, updated at most every `every_s` seconds and once at the end
    (nothing outside a flow run)."""
    if FlowRunContext.get() is None:
        yield
        return
    async with get_client() as client:
        artifact = await ProgressArtifact(
            progress=0.0, key=artifact_key("progress", day), description=progress_line(progress)
        ).acreate(client)

        async def update() -> None:
            share = (
                100.0 * progress.tickers_done / progress.tickers_total
                if progress.tickers_total
                else 100.0
            )
            await aupdate_progress_artifact(
                artifact.id, progress=share, description=progress_line(progress), client=client
            )

        async def keep() -> None:
            seen = -1
            while True:
                await asyncio.sleep(every_s)
                if progress.tickers_done != seen:
                    seen = progress.tickers_done
                    await update()

        keeper = asyncio.create_task(keep())
        try:
            yield
        finally:
            keeper.cancel()
            with suppress(asyncio.CancelledError):
                await keeper
            await update()


def progress_line(p: RunProgress) -> str:
    return (
        f"{p.tickers_done:,} of {p.tickers_total:,} tickers: {p.accepted:,} answers accepted, "
        f"{p.rejected:,} rejected; this attempt: tokens {p.tokens_used:,} of {p.tokens_budget:,}"
    )


def artifact_key(*parts: str) -> str:
    """Prefect keys allow lower-case letters, digits and dashes only."""
    key = "-".join(re.sub(r"[^a-z0-9]+", "-", p.lower()).strip("-") for p in parts)
    return key[:MAX_KEY].strip("-")


def report_key(portfolio_id: str, day: str) -> str:
    """The key of a portfolio's report. The slug drops case and every character but letters
    and digits (`P_1`, `P-1` and `p1.` read alike), so a hash of the exact id follows it and
    two portfolios never share a key; the slug is cut, never the hash or the date."""
    tag = hashlib.blake2b(portfolio_id.encode("utf-8"), digest_size=6).hexdigest()
    tail = f"-{tag}-{artifact_key(day)}"
    slug = artifact_key(portfolio_id)[: MAX_KEY - len("report-") - len(tail)].strip("-")
    return f"report-{slug}{tail}"


class NightArtifacts:
    """The night's closing artifacts, sent as they become known: each report's as soon as the
    publisher has written it (`report_written`, from the publisher's thread), then the summary
    and tables (`send_night`); `sent` waits for all. The server stores them while the rest of
    the night is still being written, not after."""

    def __init__(self, client: PrefectClient, day: str) -> None:
        self.client, self.day = client, day
        self.loop = asyncio.get_running_loop()
        self.context = contextvars.copy_context()  # the flow run's: a writer thread has none
        self.sends: list[asyncio.Future[Any]] = []

    def report_written(self, path: Path) -> None:
        """Send the report at `path` (called from any thread)."""
        markdown = path.read_text(encoding="utf-8")
        artifact = MarkdownArtifact(
            markdown=markdown,
            key=report_key(path.stem, self.day),
            description=f"Report of {path.stem} for {self.day}",
        )
        self.loop.call_soon_threadsafe(self._send, artifact, context=self.context)

    def _send(self, artifact: MarkdownArtifact | TableArtifact) -> None:
        self.sends.append(asyncio.ensure_future(artifact.acreate(self.client)))

    def send_night(
        self, outcome: RunOutcome, published: PublishedRun, summary: NightSummary
    ) -> None:
        """The summary of the night, its rejected cases and its budget."""
        for artifact in night_artifacts(outcome, published, summary):
            self._send(artifact)

    async def sent(self) -> None:
        await asyncio.sleep(0)  # sends the publisher's thread scheduled last are taken in
        await asyncio.gather(*self.sends)


@asynccontextmanager
async def closing_artifacts(day: str) -> AsyncIterator[NightArtifacts]:
    """A `NightArtifacts` over one Prefect client: Prefect's helpers open a client per call."""
    async with get_client() as client:
        artifacts = NightArtifacts(client, day)
        try:
            yield artifacts
        finally:
            await asyncio.gather(*artifacts.sends, return_exceptions=True)


def night_artifacts(
    outcome: RunOutcome, published: PublishedRun, summary: NightSummary
) -> list[MarkdownArtifact | TableArtifact]:
    """The summary of the night, the table of its rejected cases and the budget table. What
    came from data is shown through `display_text`; the reports' Markdown was made safe when
    it was written."""
    day = outcome.report_date.isoformat()
    rows: list[dict[str, Any]] = [
        {
            "case": display_text(r.case_id),
            "ticker": display_text(r.ticker),
            "question": display_text(r.kind),
            "portfolios": display_text(", ".join(r.portfolios)),
            "reason": display_text(r.reason or ""),
            "file": str(published.day / "rejected" / f"{r.case_id}.json"),
            "review": f"{(published.day / 'review.html').resolve().as_uri()}#{r.case_id}",
        }
        for res in outcome.results
        for r in res.all_records
        if r.status == "rejected"
    ]
    lines = outcome.budget.get("lines") or [
        {"calls": 0, "note": "no model call: every ticker was reused from an earlier attempt"}
    ]
    saved = outcome.budget.get("saved_usd")
    batch = f"; the batch saved ${saved:,.4f} against the direct price" if saved else ""
    return [
        MarkdownArtifact(
            markdown=summary.markdown(),
            key=artifact_key("summary", day),
            description=f"The night of {day}: answers, reasons, tokens, cost and time",
        ),
        TableArtifact(  # also when empty: "none rejected" is news too
            table=rows or [{"case": "", "note": "no rejected cases: every answer was verified"}],
            key=artifact_key("rejected-cases", day),
            description=f"Rejected cases, {day} ({len(rows)})",
        ),
        TableArtifact(
            table=lines,
            key=artifact_key("budget", day),
            description=(
                f"Token budget, {day}: {summary.attempt.line()}; {summary.night_line()}{batch}"
            ),
        ),
    ]

"""A drafting round sent through the provider's batch interface, resumable: what a round
submits is recorded before it goes out (`flows.run.batch_store`), so a rerun collects it.

Each draft gets a custom_id over its round, question, provider, model and request, so the same
request asked again (the night killed and rerun, or rerun because some answers failed) finds
the batch that already holds it and is collected from there, never submitted twice. Drafts no
saved batch holds are submitted as one new batch. Every batch is polled with backoff (the first
wait `poll_s`, doubling up to `MAX_POLL_S`) until it ends or `window_s` has passed since the
round began; a batch still running then has its items end as `expired` (and is cancelled when
they fall back to the direct path, so nothing is paid twice). A batch an earlier, killed attempt
submitted is charged in that attempt's spend journal, at what its replies did cost, and not in
the attempt that collects it, so the night's spend counts it once. Faults of the batch interface
(after the SDK's retries) are data: a failed submission makes its items `errored`, a failed
poll is polled again.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from agent.budget.journal import settle_open
from agent.drafting import Draft, RoundName
from agent.providers.base import ModelResponse
from agent.providers.batch import BatchApi, BatchFailure, BatchResult
from contract.errors import ProviderError
from contract.trace import Usage
from flows.run.batch_store import BatchRecord, BatchStore

MAX_POLL_S = 300.0
log = logging.getLogger("nightdesk.batch")


def custom_id(round_name: str, provider: str, model: str, draft: Draft) -> str:
    """`answers-<hash>`: the same request of the same question always gets the same id."""
    text = "\n".join((provider, model, draft.question_id, draft.request.model_dump_json()))
    return f"{round_name}-{hashlib.sha256(text.encode()).hexdigest()[:40]}"


@dataclass
class BatchSubmitter:
    """The `Submit` of a batch night's rounds."""

    api: BatchApi
    store: BatchStore
    provider: str
    model: str
    run_id: str
    poll_s: float
    window_s: float
    cancel_late: bool
    """Cancel a batch the window gave up on (its items then go direct)."""
    journal_of: Callable[[str], Path] | None = None
    """The spend journal of an attempt by its run id: a batch an earlier (killed) attempt
    submitted is charged there, at what it did cost, and not again in this attempt."""
    submitted: list[str] = field(default_factory=list)
    """Batch ids this submitter created (a resumed batch is not among them)."""
    resumed: list[str] = field(default_factory=list)

    async def __call__(self, round_name: RoundName, drafts: list[Draft]) -> dict[str, BatchResult]:
        started = asyncio.get_running_loop().time()
        by_id = {custom_id(round_name, self.provider, self.model, d): d for d in drafts}
        held: dict[str, BatchRecord] = {}
        lost: dict[str, BatchRecord] = {}
        for record in await asyncio.to_thread(self.store.load_all):
            if (record.provider, record.model) != (self.provider, self.model):
                continue
            for cid in record.requests:
                if cid in by_id and cid not in record.failed:
                    (held if record.batch_id else lost)[cid] = record
        for record in {r.key: r for r in lost.values()}.values():
            found = await self._find(record)
            for cid in record.requests:
                if cid in lost and found:
                    held[cid] = record
        results: dict[str, BatchResult] = {}
        groups: dict[str, list[str]] = defaultdict(list)
        records: dict[str, BatchRecord] = {}
        for cid, record in held.items():
            groups[record.key].append(cid)
            records[record.key] = record
        self.resumed += sorted({r.batch_id for r in records.values() if r.batch_id})
        new = [cid for cid in by_id if cid not in held]
        if new:
            made = await self._submit(round_name, new, by_id, results)
            if made is not None:
                groups[made.key] = new
                records[made.key] = made
        collected = await asyncio.gather(
            *(self._collect(records[key], cids, started) for key, cids in groups.items())
        )
        for part in collected:
            results.update(part)
        return {by_id[cid].question_id: result for cid, result in results.items()}

    async def _find(self, record: BatchRecord) -> bool:
        """Look up the batch of a record whose id a kill lost; forget the record if none."""
        try:
            batch_id = await self.api.find(record.key)
        except ProviderError as exc:
            log.warning("cannot look up batch %s: %s", record.key, exc.message)
            batch_id = None
        if batch_id is None:
            await asyncio.to_thread(self.store.delete, record)
            return False
        record.batch_id = batch_id
        await asyncio.to_thread(self.store.save, record)
        return True

    async def _submit(
        self,
        round_name: RoundName,
        cids: list[str],
        by_id: dict[str, Draft],
        results: dict[str, BatchResult],
    ) -> BatchRecord | None:
        digest = hashlib.sha256("\n".join(sorted(cids)).encode()).hexdigest()[:24]
        record = BatchRecord(
            key=f"{round_name}-{digest}",
            round=round_name,
            provider=self.provider,
            model=self.model,
            run_id=self.run_id,
            requests={cid: by_id[cid].question_id for cid in cids},
        )
        await asyncio.to_thread(self.store.save, record)  # before anything is sent
        try:
            batch_id = await self.api.submit(
                [(cid, by_id[cid].request) for cid in cids], record.key
            )
        except ProviderError as exc:
            await asyncio.to_thread(self.store.delete, record)
            results.update({cid: BatchFailure("errored", exc.message) for cid in cids})
            return None
        record.batch_id = batch_id
        record.submitted_at = datetime.now(UTC)
        await asyncio.to_thread(self.store.save, record)
        self.submitted.append(batch_id)
        log.info("submitted %s batch %s: %d drafts", round_name, batch_id, len(cids))
        return record

    async def _collect(
        self, record: BatchRecord, cids: list[str], started: float
    ) -> dict[str, BatchResult]:
        """Poll the record's batch until it ends, then read its replies for `cids`."""
        assert record.batch_id is not None
        loop = asyncio.get_running_loop()
        delay = self.poll_s
        while True:
            try:
                status = await self.api.status(record.batch_id)
                if status.ended:
                    results = await self.api.results(record.batch_id, cids)
                    break
            except ProviderError as exc:
                log.warning("batch %s: %s", record.batch_id, exc.message)
            left = started + self.window_s - loop.time()
            if left <= 0:
                return await self._give_up(record, cids)
            await asyncio.sleep(min(delay, left))
            delay = min(max(delay * 2, 0.001), MAX_POLL_S)
        failed = [cid for cid, r in results.items() if isinstance(r, BatchFailure)]
        if failed:
            record.failed = sorted(set(record.failed) | set(failed))
            await asyncio.to_thread(self.store.save, record)
        if record.run_id != self.run_id:
            return await self._paid_earlier(record, results)
        return results

    async def _paid_earlier(
        self, record: BatchRecord, results: dict[str, BatchResult]
    ) -> dict[str, BatchResult]:
        """Replies of a batch an earlier attempt submitted: settled in that attempt's journal
        (a failed item cost nothing), marked so that this attempt charges nothing for them."""
        spent = {
            record.requests[cid]: (r.usage if isinstance(r, ModelResponse) else Usage(), True)
            for cid, r in results.items()
        }
        if self.journal_of is not None:
            await asyncio.to_thread(settle_open, self.journal_of(record.run_id), spent)
        return {
            cid: r.model_copy(update={"paid_by": record.run_id})
            if isinstance(r, ModelResponse)
            else r
            for cid, r in results.items()
        }

    async def _give_up(self, record: BatchRecord, cids: list[str]) -> dict[str, BatchResult]:
        assert record.batch_id is not None
        minutes = self.window_s / 60
        why = f"batch {record.batch_id} had not ended within the window of {minutes:g} minutes"
        if self.cancel_late:  # its items go direct: the batch must not bill them too
            try:
                await self.api.cancel(record.batch_id)
            except ProviderError as exc:
                log.warning("cannot cancel batch %s: %s", record.batch_id, exc.message)
            record.failed = sorted(set(record.failed) | set(cids))
            await asyncio.to_thread(self.store.save, record)
        return {cid: BatchFailure("expired", why) for cid in cids}

"""A drafting round's submission over the real OpenAI SDK on the scripted batch wire: polled
only within its window (a batch given up on is cancelled when its items go direct), and a
record whose batch id a kill lost is found by its key instead of being submitted again."""

from __future__ import annotations

from pathlib import Path

import httpx2

from agent.drafting import Draft
from agent.providers import batch_api
from agent.providers.base import Message, ModelRequest, ModelResponse
from agent.providers.batch import BatchFailure
from agent.providers.openai import OpenAIProvider
from flows.run.batch_store import BatchRecord, BatchStore
from flows.run.batches import BatchSubmitter, custom_id
from tests.agent.batch_wire import BatchWire

DRAFTS = [
    Draft(f"T{i}/move", ModelRequest(system="s", messages=[Message(role="user", text=f"Q{i}?")]))
    for i in range(3)
]


def submitter(wire: BatchWire, folder: Path, *, window_s: float, cancel_late: bool):
    client = httpx2.AsyncClient(transport=httpx2.MockTransport(wire))
    provider = OpenAIProvider("gpt-4o-mini", api_key="test", http_client=client, max_retries=0)
    return BatchSubmitter(
        api=batch_api(provider),
        store=BatchStore(folder),
        provider="openai",
        model="gpt-4o-mini",
        run_id="run-2",
        poll_s=0.001,
        window_s=window_s,
        cancel_late=cancel_late,
    )


async def test_a_batch_not_ended_within_the_window_is_given_up_and_cancelled(
    tmp_path: Path,
) -> None:
    wire = BatchWire("openai", polls=10**9)  # never ends
    # A window of 500 polls: long enough for several looks on a loaded machine.
    submit = submitter(wire, tmp_path, window_s=0.5, cancel_late=True)
    results = await submit("answers", DRAFTS)
    assert set(results) == {d.question_id for d in DRAFTS}
    assert all(isinstance(r, BatchFailure) and r.kind == "expired" for r in results.values())
    assert "within the window" in next(iter(results.values())).message  # type: ignore[union-attr]
    assert wire.calls["retrieve"] > 1 and wire.calls["cancel"] == 1
    (record,) = BatchStore(tmp_path).load_all()
    assert sorted(record.failed) == sorted(record.requests)  # a rerun submits them anew


async def test_a_record_whose_batch_id_was_lost_is_found_by_its_key(tmp_path: Path) -> None:
    wire = BatchWire("openai", polls=0)
    first = submitter(wire, tmp_path, window_s=60, cancel_late=True)
    cids = {custom_id("answers", "openai", "gpt-4o-mini", d): d.question_id for d in DRAFTS}
    batch_id = await first.api.submit(
        [(c, d.request) for c, d in zip(cids, DRAFTS, strict=True)], "answers-lost"
    )  # the kill came before the id was written: the record has none
    BatchStore(tmp_path).save(
        BatchRecord(
            key="answers-lost",
            round="answers",
            provider="openai",
            model="gpt-4o-mini",
            run_id="run-1",
            requests=cids,
        )
    )
    results = await submitter(wire, tmp_path, window_s=60, cancel_late=True)("answers", DRAFTS)
    assert wire.calls["create"] == 1 and len(wire.submitted) == len(DRAFTS)
    assert all(isinstance(r, ModelResponse) and r.paid_by == "run-1" for r in results.values())
    (record,) = BatchStore(tmp_path).load_all()
    assert record.batch_id == batch_id

"""A batch night over the real SDK clients, on a scripted transport playing the batch endpoints.

The night is killed while its answers batch runs (cancelled at the transport's first look at
it), then run again: the rerun collects the batch the first attempt submitted and submits only
what no batch holds yet (the summaries), so the transport never sees an item twice. One
ticker's items error and another's expire inside the batch: they fall back to the direct path,
or end `provider_error`, by the configured choice. Every (portfolio, ticker, question) ends in
exactly one accepted or rejected entry; the ledger prices the batch tokens at half, and the
night's spend counts each reply once (the batch in the journal of the attempt that submitted it).
"""

from __future__ import annotations

import asyncio
import json
import re
from datetime import date
from pathlib import Path

import httpx2
import pytest

from flows.run.config import RunConfig
from flows.run.provider import provider_options
from tests.agent.batch_wire import BatchWire, Outcome
from tests.agent.scripted import Wire
from tests.flows.night.test_flow import expected_entries, last_session, published_entries

pytestmark = [
    pytest.mark.usefixtures("prefect_server"),
    pytest.mark.filterwarnings("ignore::ResourceWarning"),
    pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning"),
]

TICKER = re.compile(r"^Ticker: ([A-Za-z0-9._-]+)\.", re.MULTILINE)


def fates(errored: str, expired: str, failing: dict[str, Outcome]):
    """One ticker's items error, another's expire; `failing` collects them by custom_id."""

    def outcome(cid: str, text: str) -> Outcome:
        match = TICKER.search(text)
        ticker = match.group(1) if match else ""
        fate: Outcome = (
            "errored" if ticker == errored else "expired" if ticker == expired else "succeeded"
        )
        if fate != "succeeded":
            failing[cid] = fate
        return fate

    return outcome


async def run_killed_then_rerun(config: RunConfig, wire: BatchWire) -> dict:
    """The night killed at the first look at its answers batch, then run again. The killed
    attempt's connection dies with it: nothing it left running reaches the provider again."""
    from flows.night.flow import nightly_reports

    dead = False

    def first_attempt(request: httpx2.Request) -> httpx2.Response:
        if dead:
            raise httpx2.ConnectError("the process was killed", request=request)
        return wire(request)

    def kill() -> None:
        nonlocal dead
        dead = True
        night.cancel()

    client = httpx2.AsyncClient(transport=httpx2.MockTransport(first_attempt))
    with provider_options(api_key="test", http_client=client, max_retries=0):
        night = asyncio.create_task(nightly_reports(config))
        wire.on_poll = kill  # while the answers batch is still running
        with pytest.raises(asyncio.CancelledError):
            await night
    assert wire.calls["create"] == 1 and not wire.calls["direct"]
    wire.on_poll = None
    rerun = httpx2.AsyncClient(transport=httpx2.MockTransport(wire))
    with provider_options(api_key="test", http_client=rerun, max_retries=0):
        result = await nightly_reports(config)
    await rerun.aclose()
    return result


@pytest.mark.parametrize(
    ("kind", "fallback"),
    [("openai", "direct"), ("anthropic", "direct"), ("openai", "provider_error")],
)
async def test_a_killed_batch_night_resumes_without_paying_twice(
    kind: Wire, fallback: str, small_data: Path, tmp_path: Path
) -> None:
    day = date.fromisoformat(last_session(small_data))
    expected = expected_entries(small_data, day, tmp_path / "cat")
    tickers = sorted({t for _, t, _ in expected})
    errored, expired = tickers[0], tickers[1]
    failing: dict[str, Outcome] = {}
    wire = BatchWire(kind, polls=1, outcome=fates(errored, expired, failing))
    config = RunConfig(
        provider=kind,
        report_date=day,
        data_dir=small_data,
        out_dir=tmp_path,
        batch=True,
        batch_poll_seconds=0.01,
        batch_fallback=fallback,  # type: ignore[arg-type]
    )

    result = await run_killed_then_rerun(config, wire)

    assert len(wire.submitted) == len(set(wire.submitted)), "an item was submitted twice"
    assert wire.calls["create"] == 2  # the answers batch once, then the summaries batch
    if kind == "openai":
        assert wire.calls["upload"] == 2
    day_dir = Path(result["day"])
    found = published_entries(day_dir)
    keys = [f[:3] for f in found]
    assert len(keys) == len(set(keys)), "an entry was published twice"
    assert {k for k in keys if k[2] != "summary"} == expected
    status = {(t, spec): s for _, t, spec, s in found}
    failed = {k for k in status if k[0] in (errored, expired)}
    rows = [json.loads(x) for x in (day_dir / "rejected" / "index.jsonl").read_text().splitlines()]
    reasons = {(r["ticker"], r["question_id"].split("/")[1]): r["reason"] for r in rows}
    assert set(failing.values()) == {"errored", "expired"}
    if fallback == "direct":  # every failed item asked again directly, and answered
        assert wire.calls["direct"] == len(failing)
        assert all(status[k] == "accepted" for k in failed)
    else:
        assert wire.calls["direct"] == 0
        assert all(reasons[k] == "provider_error" for k in failed if k[1] != "summary")
        assert {reasons[t, "summary"] for t in (errored, expired)} == {"no_verified_answers"}
    assert all(s == "accepted" for (t, _), s in status.items() if t not in (errored, expired))

    manifest = json.loads((day_dir / "manifest.json").read_text())
    budget = manifest["budget"]
    lines = budget["lines"]
    assert sum(line["batch_calls"] for line in lines) > 0
    assert budget["saved_usd"] > 0
    batch_direct_price = budget["cost_usd"] + budget["saved_usd"]
    if fallback == "provider_error":  # every paid call was a batch call: exactly half
        assert budget["cost_usd"] == pytest.approx(batch_direct_price / 2)
    # the night's spend (the killed attempt's replayed journal and the rerun's ledger) is what
    # the provider served, each reply counted once, and the batch part at half price
    night = budget["night"]
    assert len(night["attempts"]) == 2
    assert {k: night["used"][k] for k in wire.usage} == dict(wire.usage)
    if fallback == "provider_error":
        assert night["cost_usd"] == pytest.approx(night["saved_usd"])


async def test_drafts_the_budget_cannot_cover_are_not_submitted(
    small_data: Path, tmp_path: Path
) -> None:
    from agent.budget.limits import BudgetConfig
    from flows.night.flow import nightly_reports

    day = date.fromisoformat(last_session(small_data))
    wire = BatchWire("openai", polls=0)
    config = RunConfig(
        provider="openai",
        report_date=day,
        data_dir=small_data,
        out_dir=tmp_path,
        batch=True,
        batch_poll_seconds=0.01,
        budget=BudgetConfig(run_tokens=60_000),
    )
    client = httpx2.AsyncClient(transport=httpx2.MockTransport(wire))
    with provider_options(api_key="test", http_client=client, max_retries=0):
        result = await nightly_reports(config)
    await client.aclose()

    day_dir = Path(result["day"])
    rows = [json.loads(x) for x in (day_dir / "rejected" / "index.jsonl").read_text().splitlines()]
    cut = {r["question_id"] for r in rows if r["reason"] == "budget_exhausted"}
    manifest = json.loads((day_dir / "manifest.json").read_text())
    asked = manifest["counts"]["questions"]
    unfounded = {r["question_id"] for r in rows if r["reason"] == "no_verified_answers"}
    assert cut and len(cut) < asked
    assert all(q.endswith("/summary") for q in unfounded)  # nothing to summarise: no draft
    assert len(wire.submitted) == len(set(wire.submitted)) == asked - len(cut) - len(unfounded)
    assert wire.calls["direct"] == 0
    budget = manifest["budget"]
    assert budget["used"]["input_tokens"] + budget["used"]["output_tokens"] <= 60_000
    assert budget["open_reservations"] == 0

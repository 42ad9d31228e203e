"""The fan-out as an operator sees it in Prefect: one task run per ticker, named after it, with
its state and its log line; a ticker whose work fails is a Failed task run whose questions are
rejected records, never lost."""

from __future__ import annotations

import json
from collections import Counter
from datetime import date
from pathlib import Path
from typing import Any
from uuid import UUID

import pytest

from flows.run.config import RunConfig

pytestmark = [
    pytest.mark.usefixtures("prefect_server"),
    pytest.mark.filterwarnings("ignore::ResourceWarning"),
    pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning"),
]
DAY = date(2024, 12, 31)


@pytest.fixture(autouse=True)
def events_to_this_server() -> None:
    """Task runs reach the server as events, through a process-wide events worker that keeps
    the API URL it first saw: a worker left by an earlier test of this process may still point
    at a server that test started and stopped, so it is drained and the night starts a new one."""
    from prefect.events.worker import EventsWorker

    EventsWorker.drain_all()


async def task_runs_of(run_id: UUID, expected: int) -> list[Any]:
    """The flow run's task runs once the server has recorded `expected` of them in a final
    state: it records them from the events the run sent, a moment after the run ends."""
    import asyncio

    from prefect.client.orchestration import get_client
    from prefect.client.schemas.filters import FlowRunFilter, FlowRunFilterId
    from prefect.events.worker import EventsWorker

    await asyncio.to_thread(EventsWorker.drain_all)
    async with get_client() as client:
        for _ in range(RECORD_TRIES):
            runs = await client.read_task_runs(
                flow_run_filter=FlowRunFilter(id=FlowRunFilterId(any_=[run_id]))
            )
            if len(runs) >= expected and all(r.state and r.state.is_final() for r in runs):
                return runs
            await asyncio.sleep(0.5)
    return runs


RECORD_TRIES = 240
"""Half-second looks, two minutes in all on a loaded machine; a clean one needs two or three."""


async def logs_of(run_id: UUID) -> list[Any]:
    from prefect.client.orchestration import get_client
    from prefect.client.schemas.filters import LogFilter, LogFilterFlowRunId
    from prefect.logging.handlers import APILogHandler

    await APILogHandler.aflush()
    async with get_client() as client:
        return await client.read_logs(
            log_filter=LogFilter(flow_run_id=LogFilterFlowRunId(any_=[run_id]))
        )


async def test_one_task_run_per_ticker_with_its_state_and_log_line(
    small_data: Path, tmp_path: Path
) -> None:
    from flows.night.flow import nightly_reports

    config = RunConfig(data_dir=small_data, out_dir=tmp_path, report_date=DAY, concurrency=4)
    state = await nightly_reports(config, return_state=True)
    run_id = state.state_details.flow_run_id
    result = await state.aresult()
    held = sorted(r.ticker for r in json_results(Path(result["day"])))
    runs = await task_runs_of(run_id, len(held))
    assert sorted(r.name for r in runs) == held
    assert len(held) == result["counts"]["tickers"] > 1
    assert {r.state_type.value for r in runs} == {"COMPLETED"}
    assert all(r.total_run_time.total_seconds() > 0 and r.run_count == 1 for r in runs)
    lines = ticker_lines(await logs_of(run_id))
    assert all(lines[r.id] == [f"{r.name}: "] for r in runs), "each its own log line"

    again = await nightly_reports(config, return_state=True)  # every ticker reused: still a run
    reran = await task_runs_of(again.state_details.flow_run_id, len(held))
    assert sorted(r.name for r in reran) == held
    logs = await logs_of(again.state_details.flow_run_id)
    reused = [log for log in logs if log.message.endswith(", reused from an earlier attempt")]
    assert {log.task_run_id for log in reused} == {r.id for r in reran}


async def test_a_ticker_whose_task_fails_is_failed_and_its_questions_are_rejected(
    small_data: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from flows.night import fanout
    from flows.night.flow import nightly_reports

    real = fanout.answer_ticker
    broken: list[str] = []

    async def answer_or_break(job: Any, previous: Any = None) -> Any:
        if not broken:
            broken.append(job.ticker)
        if job.ticker == broken[0]:
            raise RuntimeError("a bug in the ticker's work")
        return await real(job, previous)

    monkeypatch.setattr(fanout, "answer_ticker", answer_or_break)
    config = RunConfig(data_dir=small_data, out_dir=tmp_path, report_date=DAY, concurrency=4)
    state = await nightly_reports(config, return_state=True)
    result = await state.aresult()
    tickers = result["counts"]["tickers"]
    found = await task_runs_of(state.state_details.flow_run_id, tickers)
    runs = {r.name: r for r in found}
    states = Counter(r.state_type.value for r in runs.values())
    assert states == {"FAILED": 1, "COMPLETED": len(runs) - 1}
    assert runs[broken[0]].state_type.value == "FAILED"
    assert "a bug in the ticker's work" in (runs[broken[0]].state.message or "")
    rows = [
        json.loads(line)
        for line in (Path(result["day"]) / "rejected" / "index.jsonl").read_text().splitlines()
    ]
    mine = [row for row in rows if row["ticker"] == broken[0]]
    assert mine and {row["reason"] for row in mine} == {"internal_error"}
    questions = {row["question_id"] for row in mine}
    assert len(questions) == len(mine), "each question once"
    assert result["counts"]["tickers"] == len(runs)


def ticker_lines(logs: list[Any]) -> dict[UUID, list[str]]:
    """Each task run's nightdesk lines, cut after the ticker."""
    lines: dict[UUID, list[str]] = {}
    for log in logs:
        if log.task_run_id and " accepted, " in log.message:
            lines.setdefault(log.task_run_id, []).append(log.message.split(":")[0] + ": ")
    return lines


def json_results(day: Path) -> list[Any]:
    from flows.publish.records import TickerResult

    sections = {
        section["ticker"]
        for path in (day / "accepted").glob("*.json")
        for section in json.loads(path.read_text())["tickers"]
    }
    return [TickerResult(ticker=t, records=[]) for t in sorted(sections)]

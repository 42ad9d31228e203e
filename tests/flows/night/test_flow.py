"""End-to-end runs of the real flow on generated data with the offline provider."""

from __future__ import annotations

import json
from collections import Counter
from datetime import date
from pathlib import Path

import pyarrow.compute as pc
import pyarrow.parquet as pq
import pytest

from agent.questions import load_question_set
from flows.run.config import RunConfig
from tools.catalog import open_catalog
from tools.registry import call_tool

# Prefect's client and test server leave sockets for the garbage collector.
pytestmark = [
    pytest.mark.usefixtures("prefect_server"),
    pytest.mark.filterwarnings("ignore::ResourceWarning"),
    pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning"),
]


def last_session(data: Path) -> str:
    dates = pq.read_table(data / "prices.parquet", columns=["date"]).column("date")
    return str(pc.max(dates).as_py())


def expected_entries(data: Path, day: date, workdir: Path) -> set[tuple[str, str, str]]:
    """(portfolio, ticker, question spec) for every holding, read through the tools."""
    qset = load_question_set()
    entries = set()
    with open_catalog(data, day, workdir=workdir) as cat:
        rows = call_tool(cat, "run_sql", {"sql": "SELECT portfolio_id FROM portfolios"})["rows"]
        for (pid,) in rows:
            for h in call_tool(cat, "get_portfolio", {"portfolio_id": pid})["holdings"]:
                entries |= {(pid, h["ticker"], q.id) for q in qset.questions}
    return entries


def published_entries(day_dir: Path) -> list[tuple[str, str, str, str]]:
    """(portfolio, ticker, spec, status) from the reports' accepted answers and the index."""
    found = []
    for path in (day_dir / "accepted").glob("*.json"):
        report = json.loads(path.read_text())
        for section in report["tickers"]:
            answers = [*section["answers"], *([section["summary"]] if section["summary"] else [])]
            for a in answers:
                if a["status"] == "accepted":
                    spec = a["question_id"].split("/")[1]
                    found.append((report["portfolio_id"], section["ticker"], spec, "accepted"))
    for line in (day_dir / "rejected" / "index.jsonl").read_text().splitlines():
        row = json.loads(line)
        spec = row["question_id"].split("/")[1]
        found += [(p, row["ticker"], spec, "rejected") for p in row["portfolios"]]
    return found


async def test_every_entry_once_and_manifest_matches(small_data: Path, tmp_path: Path) -> None:
    from flows.night.flow import nightly_reports

    result = await nightly_reports(RunConfig(data_dir=small_data, out_dir=tmp_path, concurrency=4))
    day = date.fromisoformat(result["report_date"])
    assert str(day) == last_session(small_data)
    found = published_entries(tmp_path / str(day))
    keys = [f[:3] for f in found]
    assert len(keys) == len(set(keys)), "an entry was published twice"
    questions = {k for k in keys if k[2] != "summary"}
    assert questions == expected_entries(small_data, day, tmp_path / "cat")
    manifest = json.loads((tmp_path / str(day) / "manifest.json").read_text())
    status = Counter(f[3] for f in found)
    assert manifest["counts"]["entries_accepted"] == status["accepted"] > 0
    assert manifest["counts"]["entries_rejected"] == status["rejected"]
    cases = [p for p in (tmp_path / str(day) / "rejected").glob("*.json")]
    assert len(cases) == manifest["counts"]["rejected"]
    assert manifest["budget"]["used"]["input_tokens"] > 0
    assert manifest["parameters"]["budget"]["run_tokens"] == 2_000_000
    assert manifest["versions"]["nightdesk"] == cli_version() != "0.0.0"


def cli_version() -> str:
    """What `nightdesk --version` prints."""
    import subprocess
    import sys

    cli = Path(sys.executable).with_name("nightdesk")
    return subprocess.run(
        [cli, "--version"], capture_output=True, text=True, check=True
    ).stdout.strip()


async def test_the_answering_keeps_what_the_night_prepared_out_of_the_collector(
    small_data: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every draft is judged while the objects made to prepare the night are frozen (no full
    collection walks them), and they go back to the collector when the night has answered."""
    import gc
    import importlib

    from flows.night.flow import nightly_reports

    module = importlib.import_module("verifier.verify")
    real, frozen = module.verify, []

    def judged(trace: object) -> object:
        if getattr(trace, "question_id", None):  # a question's draft, not the warm-up's
            frozen.append(gc.get_freeze_count())
        return real(trace)

    monkeypatch.setattr(module, "verify", judged)
    await nightly_reports(RunConfig(data_dir=small_data, out_dir=tmp_path, concurrency=4))
    assert frozen and min(frozen) > 10_000
    assert gc.get_freeze_count() == 0


async def test_bad_ticker_yields_rejected_cases(
    broken_data: tuple[Path, str], tmp_path: Path
) -> None:
    from flows.night.flow import nightly_reports

    data, ticker = broken_data
    result = await nightly_reports(RunConfig(data_dir=data, out_dir=tmp_path))
    day_dir = Path(result["day"])
    rows = [json.loads(x) for x in (day_dir / "rejected" / "index.jsonl").read_text().splitlines()]
    mine = [r for r in rows if r["ticker"] == ticker]
    assert {r["question_id"].split("/")[1] for r in mine} >= {"move", "position"}
    assert all(r["reason"] for r in mine)
    assert result["counts"]["accepted"] > 0
    report = next((day_dir / "accepted").glob("*.md")).read_text()
    assert "Withheld: the " in report and "rejected by the verifier" in report


async def test_rerun_reuses_finished_tickers(small_data: Path, tmp_path: Path) -> None:
    from flows.night.flow import nightly_reports

    config = RunConfig(data_dir=small_data, out_dir=tmp_path, portfolios=["P001"])
    first = await nightly_reports(config)
    again = await nightly_reports(config)
    assert first["counts"]["model_calls"] > 0 and again["counts"]["model_calls"] == 0
    assert again["counts"]["tickers_reused"] == again["counts"]["tickers"]
    from uuid import UUID

    from prefect.client.orchestration import get_client
    from prefect.client.schemas.filters import (
        ArtifactFilter,
        ArtifactFilterFlowRunId,
        ArtifactFilterKey,
    )

    key = f"budget-{again['report_date']}"
    async with get_client() as client:
        found = await client.read_artifacts(
            artifact_filter=ArtifactFilter(
                key=ArtifactFilterKey(any_=[key]),
                flow_run_id=ArtifactFilterFlowRunId(any_=[UUID(again["run_id"])]),
            )
        )
    assert len(found) == 1, "a run that reused every ticker still publishes its budget table"
    fresh = await nightly_reports(config.model_copy(update={"fresh": True}))
    assert fresh["counts"]["model_calls"] == first["counts"]["model_calls"]
    assert {
        k: v for k, v in fresh["counts"].items() if k not in ("tickers_reused", "model_calls")
    } == {k: v for k, v in first["counts"].items() if k not in ("tickers_reused", "model_calls")}


async def test_refused_input_fails_the_run_with_one_line_naming_the_field(
    small_data: Path, tmp_path: Path
) -> None:
    from prefect.client.orchestration import get_client
    from prefect.client.schemas.filters import LogFilter, LogFilterFlowRunId
    from prefect.logging.handlers import APILogHandler

    from flows.night.flow import nightly_reports

    config = RunConfig(data_dir=small_data, out_dir=tmp_path, report_date=date(1999, 1, 4))
    state = await nightly_reports(config, return_state=True)

    assert state.is_failed()
    assert "set report_date to" in state.message and "--date" not in state.message
    assert "\n" not in state.message
    await APILogHandler.aflush()
    async with get_client() as client:
        logs = await client.read_logs(
            log_filter=LogFilter(
                flow_run_id=LogFilterFlowRunId(any_=[state.state_details.flow_run_id])
            )
        )
    assert logs and not [log.message for log in logs if "Traceback" in log.message]
    assert not list(tmp_path.glob("*/manifest.json"))

    for options, field in (
        ({"portfolios": ["NOPE"]}, "set portfolios to one of them"),
        ({"report_date": date(2024, 7, 4)}, "set report_date to one of them"),
        ({"report_date": date(9999, 12, 31)}, "set report_date to a session of the data"),
        ({"provider": "local"}, "set model to PATH"),
    ):
        good = RunConfig(data_dir=small_data, out_dir=tmp_path)
        state = await nightly_reports(good.model_copy(update=options), return_state=True)
        assert state.is_failed() and field in state.message and "--" not in state.message

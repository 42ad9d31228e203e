"""What an operator sees of a night in Prefect: its name, one log line per ticker, the progress,
summary and rejected-cases artifacts, and a final state that says what was withheld or cut."""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path
from typing import Any
from uuid import UUID

import pytest

from agent.budget.limits import BudgetConfig
from flows.night.artifacts import report_key
from flows.night.summary import AttemptSummary, NightSummary, TooManyWithheld
from flows.run.config import RunConfig

pytestmark = [
    pytest.mark.usefixtures("prefect_server"),
    pytest.mark.filterwarnings("ignore::ResourceWarning"),
    pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning"),
]
DAY = date(2024, 12, 31)


async def artifacts_of(run_id: UUID) -> dict[str, Any]:
    from prefect.client.orchestration import get_client
    from prefect.client.schemas.filters import ArtifactFilter, ArtifactFilterFlowRunId

    async with get_client() as client:
        found = await client.read_artifacts(
            artifact_filter=ArtifactFilter(flow_run_id=ArtifactFilterFlowRunId(any_=[run_id]))
        )
    return {a.key: a for a in found}


async def test_a_clean_night_is_named_logged_and_summarised(
    small_data: Path, tmp_path: Path
) -> None:
    from prefect.client.orchestration import get_client
    from prefect.client.schemas.filters import LogFilter, LogFilterFlowRunId
    from prefect.logging.handlers import APILogHandler

    from flows.night.flow import nightly_reports

    config = RunConfig(data_dir=small_data, out_dir=tmp_path, portfolios=["P001"])
    state = await nightly_reports(config, return_state=True)  # no date: resolved to the last
    assert state.is_completed()
    run_id = state.state_details.flow_run_id
    result = await state.aresult()
    assert result["counts"]["rejected"] == 0
    questions = result["counts"]["questions"]
    tokens = result["summary"]["attempt"]["tokens"]
    assert state.message.startswith(
        f"{DAY}: {questions} of {questions} answers accepted; "
        f"this attempt (1): tokens {tokens:,} of 2,000,000, "
    )
    assert f"; all attempts (1): tokens {tokens:,}" in state.message
    assert state.name == "Completed"
    await APILogHandler.aflush()
    async with get_client() as client:
        run = await client.read_flow_run(run_id)
        logs = await client.read_logs(
            log_filter=LogFilter(flow_run_id=LogFilterFlowRunId(any_=[run_id]))
        )
    assert run.name == f"nightly-{DAY}"
    lines = [log.message for log in logs if " accepted, " in log.message]
    held = {section["ticker"] for section in report_sections(Path(result["day"]))}
    assert len(lines) == len(held) == result["counts"]["tickers"]
    assert {line.split(":")[0] for line in lines} == held
    assert all(line.endswith(" tokens") and ", 0 rejected, " in line for line in lines)

    artifacts = await artifacts_of(run_id)
    summary = artifacts[f"summary-{DAY}"].data
    q = result["counts"]["questions"]
    assert f"| answers | {q:,} asked | {q:,} |" in summary
    assert "| withheld | | 0 (0%) |" in summary and "- none" in summary
    assert "| cost |" in summary and "| time |" in summary
    rejected = artifacts[f"rejected-cases-{DAY}"].data
    assert "no rejected cases" in json.dumps(rejected)
    for report in Path(result["day"], "accepted").glob("*.md"):  # each report, as written
        shown = artifacts[report_key(report.stem, str(DAY))]
        assert shown.data == report.read_text(encoding="utf-8")
    assert (
        len([key for key in artifacts if key.startswith("report-")]) == len(result["reports"]) // 3
    )
    progress = artifacts[f"progress-{DAY}"]  # the night's progress, at its end
    assert (progress.type, float(progress.data)) == ("progress", 100.0)
    tickers = result["counts"]["tickers"]
    assert progress.description.startswith(f"{tickers} of {tickers} tickers: {questions} answers")


def report_sections(day: Path) -> list[dict[str, Any]]:
    return [
        section
        for path in (day / "accepted").glob("*.json")
        for section in json.loads(path.read_text())["tickers"]
    ]


async def test_a_night_that_withholds_too_much_publishes_then_fails(
    broken_data: tuple[Path, str], tmp_path: Path
) -> None:
    from flows.night.flow import nightly_reports

    data, ticker = broken_data
    config = RunConfig(data_dir=data, out_dir=tmp_path, report_date=DAY, max_withheld_share=0.0)
    state = await nightly_reports(config, return_state=True)
    assert state.is_failed()
    assert "withheld" in state.message and "more than max_withheld_share 0%" in state.message
    assert f"review them in {tmp_path / str(DAY) / 'review.html'}" in state.message
    assert (tmp_path / str(DAY) / "manifest.json").is_file(), "it publishes before failing"
    artifacts = await artifacts_of(state.state_details.flow_run_id)
    rows = artifacts[f"rejected-cases-{DAY}"].data
    assert ticker in json.dumps(rows)
    assert "## Top reasons" in artifacts[f"summary-{DAY}"].data

    with pytest.raises(TooManyWithheld) as raised:  # called directly, as the CLI does
        await nightly_reports(config)
    assert raised.value.result["counts"]["rejected"] > 0
    lenient = await nightly_reports(config.model_copy(update={"max_withheld_share": 1.0}))
    assert "withheld" in lenient["message"] and "max_withheld_share" not in lenient["message"]


async def test_answers_cut_by_the_budget_are_named_in_the_final_state(
    small_data: Path, tmp_path: Path
) -> None:
    from flows.night.flow import nightly_reports

    budget = BudgetConfig(run_tokens=6_000)
    config = RunConfig(
        data_dir=small_data, out_dir=tmp_path, portfolios=["P001"], report_date=DAY, budget=budget
    )
    state = await nightly_reports(config, return_state=True)
    assert state.is_completed()
    result = await state.aresult()
    cut = result["counts"]["rejected_by_reason"]["budget_exhausted"]
    assert cut > 0
    assert f"{cut} of them cut by the budget" in state.message
    assert f"nightdesk budget --date {DAY}" in state.message


def test_the_withheld_share_is_checked_against_the_limit() -> None:
    attempt = AttemptSummary(
        number=2,
        run_id="r2",
        tokens=17_151,
        budget_tokens=20_000,
        calls=12,
        asked=5,
        cut=2,
        tickers_answered=1,
        tickers_reused=2,
    )
    summary = NightSummary(
        report_date=str(DAY),
        questions=10,
        accepted=7,
        rejected=3,
        by_reason={"budget_exhausted": 2, "unsupported_figure": 1},
        tickers=3,
        tokens=143_665,
        attempts=2,
        cost_usd=None,
        review_page="out/review.html",
        budget_command=f"nightdesk budget --date {DAY} --out out",
        attempt=attempt,
    )
    assert not summary.failed(0.3) and summary.failed(0.29)
    assert (summary.state_name(0.3), summary.state_name(0.29)) == ("Partial", "Withheld")
    assert summary.top_reasons() == [("budget_exhausted", 2), ("unsupported_figure", 1)]
    assert summary.message(0.3).startswith(
        f"{DAY}: 7 of 10 answers accepted, 3 withheld (30%), 2 of them cut by the budget"
    )
    assert f"`nightdesk budget --date {DAY} --out out`" in summary.message(0.3)
    assert summary.message(0.3).endswith(
        "this attempt (2): tokens 17,151 of 20,000, 12 model calls, 2 questions cut by its "
        "budget; all attempts (2): tokens 143,665"
    )
    assert "| cost | n/a | n/a" in summary.markdown()
    assert "| tokens | 17,151 of 20,000 | 143,665 |" in summary.markdown()
    assert NightSummary.from_dict(summary.as_dict()) == summary


@pytest.mark.parametrize("verifiers", [0, 1])
async def test_the_scripted_mistakes_night_leaves_every_kind_of_rejected_case(
    small_data: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, verifiers: int
) -> None:
    """The night `make demo-review` runs: each kind of mistake the scripted model makes is
    rejected by the verifier with its own reason, and every case is on the review page; the
    same with the drafts judged in a verifier process as on the event loop."""
    from agent.providers.mistakes import MISTAKES, mistake_for
    from flows.night.flow import nightly_reports
    from flows.run.verifier_pool import VerifierPool

    judged_apart: list[int] = []
    close = VerifierPool.close

    def closed(pool: VerifierPool) -> None:
        judged_apart.append(pool.verdicts)
        close(pool)

    monkeypatch.setattr(VerifierPool, "close", closed)
    config = RunConfig(
        data_dir=small_data,
        out_dir=tmp_path,
        provider="scripted-mistakes",
        mode="react",
        verifier_processes=verifiers,
    )
    result = await nightly_reports(config)
    manifest = json.loads((Path(result["day"]) / "manifest.json").read_text())
    assert judged_apart == ([manifest["counts"]["questions"]] if verifiers else [])
    rows = [
        json.loads(line)
        for line in (Path(result["day"]) / "rejected" / "index.jsonl").read_text().splitlines()
    ]
    expected = {
        "wrong_field": "wrong_field",
        "other_ticker": "wrong_subject",
        "invented_quote": "unknown_headline",
        "wrong_direction": "wrong_direction",
        "relayed_error": "unresolved_error",
    }
    assert {m.name for m in MISTAKES if m} == set(expected)
    found: dict[str, set[str]] = {}
    for row in rows:
        mistake = mistake_for(row["ticker"])
        assert mistake is not None, row  # a ticker answered right has nothing rejected
        found.setdefault(mistake.name, set()).add(row["reason"])
    assert {kind: expected[kind] in reasons for kind, reasons in found.items()} == dict.fromkeys(
        expected, True
    )
    assert all(row["reason"] and row["file"] for row in rows)
    html = (Path(result["day"]) / "review.html").read_text()
    assert all(f'id="{row["case_id"]}"' in html for row in rows)

"""One account of a night: a night cut by its budget, then rerun, as an operator runs it (the
installed `nightdesk`, on a Prefect server). What the CLI prints, the manifest's summary, the
Prefect summary artifact, the flow runs' names and states, `nightdesk budget` and the report
headers agree on every figure, this attempt's and the night's; the hints it prints work as
pasted."""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from uuid import UUID

import pytest

pytestmark = [
    pytest.mark.filterwarnings("ignore::ResourceWarning"),
    pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning"),
]
DAY = "2024-12-31"


@pytest.fixture(scope="module")
def api_url() -> Iterator[str]:
    """A Prefect server the command runs against, as a scheduled night's does."""
    from prefect.settings import PREFECT_API_URL
    from prefect.testing.utilities import prefect_test_harness

    with prefect_test_harness(server_startup_timeout=180):
        yield str(PREFECT_API_URL.value())


def nightdesk(home: Path, api_url: str, *args: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if not k.startswith("PREFECT_")}
    cli = Path(sys.executable).with_name("nightdesk")
    return subprocess.run(
        [str(cli), *args],
        cwd=home,
        env={**clean, "PREFECT_API_URL": api_url, "COLUMNS": "250"},
        capture_output=True,
        text=True,
        timeout=600,
    )


def figures(text: str, pattern: str) -> tuple[int, ...]:
    """The numbers `pattern` captures in `text` (thousands separators taken out)."""
    found = re.search(pattern, text)
    assert found, f"{pattern!r} not in:\n{text}"
    return tuple(int(g.replace(",", "")) for g in found.groups())


ATTEMPT = r"This attempt \((\d+)\): tokens ([\d,]+) of ([\d,]+), ([\d,]+) model calls"
NIGHT = r"all attempts \((\d+)\): tokens ([\d,]+)"
QUESTIONS = r"([\d,]+) questions: ([\d,]+) accepted, ([\d,]+) withheld"


async def flow_run(run_id: str) -> Any:
    from prefect.client.orchestration import get_client

    async with get_client() as client:
        return await client.read_flow_run(UUID(run_id))


async def summary_artifact(run_id: str) -> str:
    from prefect.client.orchestration import get_client
    from prefect.client.schemas.filters import ArtifactFilter, ArtifactFilterFlowRunId

    async with get_client() as client:
        found = await client.read_artifacts(
            artifact_filter=ArtifactFilter(flow_run_id=ArtifactFilterFlowRunId(any_=[UUID(run_id)]))
        )
    (summary,) = [a.data for a in found if a.key == f"summary-{DAY}"]
    return str(summary)


async def test_a_cut_night_and_its_rerun_tell_one_account(
    small_data: Path, tmp_path: Path, api_url: str
) -> None:
    from prefect.settings import PREFECT_API_URL, temporary_settings

    out = tmp_path / "out"
    run = ["run", "--data", str(small_data), "--out", str(out), "--date", DAY]
    run += ["--portfolio", "P001"]
    first = nightdesk(tmp_path, api_url, *run, "--run-tokens", "20000")
    assert first.returncode == 0, first.stderr
    manifest = json.loads((out / DAY / "manifest.json").read_text())
    one = manifest["summary"]
    attempt, night = one["attempt"], one["night"]
    assert attempt["cut"] > 0 and night["cut"] == attempt["cut"]
    assert figures(first.stdout, ATTEMPT) == (
        1,
        attempt["tokens"],
        20_000,
        attempt["calls"],
    )
    assert figures(first.stdout, NIGHT) == (1, attempt["tokens"])
    assert figures(first.stdout, QUESTIONS) == (
        night["questions"],
        night["accepted"],
        night["rejected"],
    )
    with temporary_settings({PREFECT_API_URL: api_url}):
        cut_run = await flow_run(manifest["run_id"])
        artifact = await summary_artifact(manifest["run_id"])
    assert (cut_run.name, cut_run.state.name) == (f"nightly-{DAY}", "Partial")
    assert f"{night['cut']:,} of them cut by the budget" in cut_run.state.message
    assert f"| tokens | {attempt['tokens']:,} of 20,000 | {attempt['tokens']:,} |" in artifact
    assert f"| cut by the budget | {attempt['cut']:,} | {night['cut']:,} |" in artifact

    hint = re.search(r"`(nightdesk budget [^`]+)`", first.stdout)  # pasted as printed
    assert hint and "--out" in hint.group(1)
    pasted = nightdesk(tmp_path / "..", api_url, *shlex.split(hint.group(1))[1:])
    assert pasted.returncode == 0 and f"{attempt['tokens']:,} of 20,000 used" in pasted.stdout

    second = nightdesk(tmp_path, api_url, *run)  # the rerun, with the default budget
    assert second.returncode == 0, second.stderr
    manifest = json.loads((out / DAY / "manifest.json").read_text())
    attempt2, night2 = manifest["summary"]["attempt"], manifest["summary"]["night"]
    assert attempt2["number"] == night2["attempts"] == 2
    assert night2["tokens"] == attempt["tokens"] + attempt2["tokens"]
    assert night2["questions"] == night["questions"], "each question once, however often asked"
    # the rerun asks again what the budget cut (and drafts those tickers' summaries anew)
    assert night["cut"] <= attempt2["asked"] < night["questions"]
    assert figures(second.stdout, ATTEMPT) == (
        2,
        attempt2["tokens"],
        2_000_000,
        attempt2["calls"],
    )
    assert figures(second.stdout, NIGHT) == (2, night2["tokens"])
    assert figures(second.stdout, QUESTIONS) == (
        night2["questions"],
        night2["accepted"],
        night2["rejected"],
    )
    with temporary_settings({PREFECT_API_URL: api_url}):
        rerun = await flow_run(manifest["run_id"])
        artifact = await summary_artifact(manifest["run_id"])
    assert rerun.name == f"nightly-{DAY}-attempt-2"
    assert rerun.state.name == ("Partial" if night2["cut"] else "Completed")
    assert f"this attempt (2): tokens {attempt2['tokens']:,} of 2,000,000" in rerun.state.message
    assert f"all attempts (2): tokens {night2['tokens']:,}" in rerun.state.message
    assert f"| tokens | {attempt2['tokens']:,} of 2,000,000 | {night2['tokens']:,} |" in artifact
    assert f"| answers | {attempt2['asked']:,} asked | {night2['questions']:,} |" in artifact
    assert "| attempts | 2 | 2 |" in artifact

    budget = nightdesk(tmp_path, api_url, "budget", "--date", DAY, "--out", str(out))
    assert budget.returncode == 0, budget.stderr
    totals = next(
        line for line in budget.stdout.splitlines() if line.strip("│ ").startswith("total")
    )
    assert f" {night2['questions']:,} " in totals, "questions counted once per night"
    assert f"{night2['tokens']:,} used by all attempts" in budget.stdout
    rows = [line for line in budget.stdout.splitlines() if manifest["run_id"] in line]
    assert rows and f"{attempt2['tokens']:,} of 2,000,000" in rows[0]
    first_row = next(
        line for line in budget.stdout.splitlines() if line.strip("│ ").startswith("1 ")
    )
    assert "cut by its budget" in first_row and "yes" not in first_row

    withheld = manifest["counts"]["withheld_by_portfolio"]
    for report in (out / DAY / "accepted").glob("*.md"):
        head = report.read_text(encoding="utf-8").split("\n## ")[0]
        count = withheld[report.stem]
        assert (f"{count:,} withheld" in head) if count else ("No answer was withheld" in head)

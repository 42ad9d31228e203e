"""Cuts are not rejections: a real night whose budget cuts some questions and whose provider
drafts some mistakes (`scripted-mistakes` with a small `--run-tokens`) keeps the two apart in
the CLI summary, the report header, `review list` and the review page, which puts the cases an
analyst can decide first and offers the command that reruns the rest."""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from contract.reasons import cause_of
from flows.publish.report import PortfolioReport
from flows.run.config import RunConfig
from tests.flows.browser import chromium, offline_page

pytestmark = pytest.mark.slow

NIGHTDESK = Path(sys.executable).with_name("nightdesk")
DAY = "2024-12-31"
OPTIONS = ["--provider", "scripted-mistakes", "--run-tokens", "30000", "--concurrency", "3"]
OPTIONS += ["--max-steps", "3", "--requests-per-minute", "100000"]


def nightdesk(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "COLUMNS": "250"}
    return subprocess.run(
        [str(NIGHTDESK), *args], capture_output=True, text=True, timeout=300, env=env
    )


@pytest.fixture(scope="module")
def night(small_data: Path, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    out = tmp_path_factory.mktemp("cut-night") / "out"
    done = nightdesk("run", "--date", DAY, "--data", str(small_data), "--out", str(out), *OPTIONS)
    assert done.returncode == 0, done.stderr[-3000:]
    return out, done.stdout


def manifest(out: Path) -> dict:
    return json.loads((out / DAY / "manifest.json").read_text())


def by_cause(out: Path) -> dict[str, int]:
    counts = {"verifier": 0, "budget": 0, "error": 0}
    for reason, n in manifest(out)["counts"]["rejected_by_reason"].items():
        counts[cause_of(reason)] += n
    return counts


def parse(command: str) -> RunConfig:
    from flows.cli.main import app
    from flows.run.options import config_of

    words = shlex.split(command)
    assert words[:2] == ["nightdesk", "run"]
    _, bound, _ = app.parse_args(words[1:])
    return config_of(bound.arguments)


def test_the_night_has_both_and_the_cli_summary_keeps_them_apart(night: tuple[Path, str]) -> None:
    out, stdout = night
    counts = by_cause(out)
    assert counts["verifier"] > 0 and counts["budget"] > 0
    flat = " ".join(stdout.split())
    assert f"{counts['verifier']} rejected by the verifier (" in flat
    assert f"{counts['budget']} cut by the budget, 0 lost to provider errors" in flat


def test_the_manifest_records_every_option_the_night_was_given(night: tuple[Path, str]) -> None:
    out, _ = night
    recorded = RunConfig.model_validate(manifest(out)["parameters"])
    given = parse(shlex.join(["nightdesk", "run", "--date", DAY, *OPTIONS]))
    for name in ("provider", "concurrency"):
        assert getattr(recorded, name) == getattr(given, name)
    assert recorded.budget == given.budget  # run_tokens, max_steps, requests_per_minute


def test_each_report_header_counts_its_cuts_apart(night: tuple[Path, str]) -> None:
    out, _ = night
    both = 0
    for path in sorted((out / DAY / "accepted").glob("*.json")):
        report = PortfolioReport.model_validate_json(path.read_text())
        causes = report.withheld_by_cause
        md = " ".join(path.with_suffix(".md").read_text().split())
        said = []
        if causes["verifier"]:
            said.append(f"{causes['verifier']} rejected by the verifier")
        if causes["budget"]:
            said.append(f"{causes['budget']} cut by the budget")
        assert f"withheld ({', '.join(said)}): see the review page" in md
        both += bool(causes["verifier"] and causes["budget"])
    assert both > 0


def test_review_list_puts_an_analysts_cases_first_and_prints_the_rerun(
    night: tuple[Path, str],
) -> None:
    out, _ = night
    done = nightdesk("review", "list", "--date", DAY, "--out", str(out))
    assert done.returncode == 0, done.stderr
    rows = [line for line in done.stdout.splitlines() if line.startswith("│")]
    kinds = ["to decide" if "to decide" in row else "rerun" for row in rows]
    assert kinds == sorted(kinds, key=lambda kind: kind != "to decide") and "rerun" in kinds
    assert sum("rerun: cut by the budget" in row for row in rows) == by_cause(out)["budget"]
    command = done.stdout.split("run the night again to ask them: ", 1)[1]
    rerun = parse(" ".join(command.split()))
    assert rerun.out_dir == out and rerun.budget.run_tokens > 30_000


@pytest.fixture(scope="module")
def browser() -> Iterator:
    yield from chromium()


def test_the_review_page_lists_decidable_cases_first_then_offers_the_rerun(
    browser, night: tuple[Path, str], tmp_path: Path
) -> None:
    out, _ = night
    page = out / DAY / "review.html"
    for tab in offline_page(browser, page, 1366, tmp_path / "review.png", full_page=False):
        articles = tab.locator("article.case")
        ids = [articles.nth(i).get_attribute("id") for i in range(articles.count())]
        decide = tab.locator("#to-decide article.case")
        rest = tab.locator("#to-rerun article.case")
        assert decide.count() > 0 and rest.count() > 0
        assert tab.locator("#shown").inner_text() == f"{len(ids)} of {len(ids)} cases"
        assert ids == [
            *(decide.nth(i).get_attribute("id") for i in range(decide.count())),
            *(rest.nth(i).get_attribute("id") for i in range(rest.count())),
        ]  # in the page's order: every case to decide above every case to rerun
        for i in range(decide.count()):
            case = decide.nth(i)
            assert case.locator("div.draft:not(.muted)").count() == 1  # a draft to judge
            assert case.locator("span.tag.rule", has_text="budget_exhausted").count() == 0
        cut = tab.locator("#to-rerun span.tag.rule", has_text="budget_exhausted").count()
        assert cut == by_cause(out)["budget"]
        heading = tab.locator("#to-rerun h2.group").inner_text()
        assert f"{by_cause(out)['budget']} cut by the budget" in heading
        cells = tab.locator("#by-cause td").all_inner_texts()
        assert cells[:4] == [
            "rejected by the verifier",
            str(by_cause(out)["verifier"]),
            "cut by the budget",
            str(by_cause(out)["budget"]),
        ]
        command = tab.locator("#rerun-command").inner_text()
        rerun = parse(command)  # pasteable: the CLI parses it to the night's configuration
        assert rerun.report_date is not None and rerun.report_date.isoformat() == DAY
        assert rerun.provider == "scripted-mistakes" and rerun.out_dir == out
        assert re.search(r"--run-tokens \d+", command)

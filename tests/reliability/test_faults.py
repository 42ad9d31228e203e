"""A night against a server that fails at `RELIABILITY_FAULT_RATE` (20% by default) of its
requests, in every way listed in `fault_server.FAULTS`, with a canary key: every entry ends in
exactly one record with a reason that says what happened, the spend stays within the stated
bound, and the key is written nowhere. `make reliability` runs it with more seeds."""

from __future__ import annotations

import json
import logging
import os
from collections import Counter
from datetime import date
from pathlib import Path

import pytest

from flows.run.config import RunConfig
from flows.run.provider import provider_options
from tests.flows.night.test_flow import expected_entries, last_session, published_entries
from tests.reliability.fault_server import FAULTS, FaultServer

pytestmark = [
    pytest.mark.usefixtures("prefect_server"),
    pytest.mark.filterwarnings("ignore::ResourceWarning"),
    pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning"),
]

CANARY = "sk-canary-reliability-5e1f0c2b9d8a7f6e"
RATE = float(os.environ.get("RELIABILITY_FAULT_RATE", "0.2"))
SEEDS = [int(s) for s in os.environ.get("RELIABILITY_SEEDS", "11").split(",")]
CONCURRENCY = 8
ANSWERED_OR_FAULTED = {"provider_error", "no_verified_answers", "budget_exhausted", "truncated"}


@pytest.mark.parametrize("seed", SEEDS)
async def test_a_night_against_a_failing_server_loses_nothing_and_leaks_nothing(
    seed: int, small_data: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog
) -> None:
    from flows.night.flow import nightly_reports

    monkeypatch.setenv("OPENAI_API_KEY", CANARY)
    caplog.set_level(logging.INFO)
    server = FaultServer(rate=RATE, seed=seed, slow_s=2.5)
    day = date.fromisoformat(last_session(small_data))
    out = tmp_path / "out"
    config = RunConfig(
        provider="openai",
        model="gpt-4o-mini",
        report_date=day,
        data_dir=small_data,
        out_dir=out,
        concurrency=CONCURRENCY,
    )
    try:
        with provider_options(base_url=server.base_url, timeout_s=1.0, max_retries=1):
            result = await nightly_reports(config)
    finally:
        server.close()

    day_dir = Path(result["day"])
    found = published_entries(day_dir)
    keys = [f[:3] for f in found]
    assert len(keys) == len(set(keys)), "an entry was published twice"
    assert {k for k in keys if k[2] != "summary"} == expected_entries(
        small_data, day, tmp_path / "c"
    )
    rows = [json.loads(x) for x in (day_dir / "rejected" / "index.jsonl").read_text().splitlines()]
    reasons = Counter(r["reason"] for r in rows)
    assert set(reasons) <= ANSWERED_OR_FAULTED, reasons
    assert set(server.drawn) > {"ok"} and set(server.drawn) - {"ok"} <= set(FAULTS)
    if RATE >= 0.1:
        assert reasons["provider_error"] > 0 and server.drawn["ok"] > 0

    budget = json.loads((day_dir / "manifest.json").read_text())["budget"]
    bound = (
        config.budget.run_tokens
        + CONCURRENCY * (config.budget.usage_fault_factor - 1) * config.budget.question_tokens
    )
    assert 0 < budget["used"]["input_tokens"] + budget["used"]["output_tokens"] <= bound
    assert min(budget["used"].values()) >= 0

    written = [p for p in out.rglob("*") if p.is_file() and ".catalog" not in p.parts]
    assert written and not [p for p in written if CANARY.encode() in p.read_bytes()]
    assert CANARY not in caplog.text
    used = budget["used"]["input_tokens"] + budget["used"]["output_tokens"]
    faults = sum(n for name, n in server.drawn.items() if name != "ok")
    figures = (
        f"seed {seed}: {sum(server.drawn.values())} requests, {faults} faults; "
        f"{len(keys)} entries published once each, rejected {dict(reasons)}; used {used:,} "
        f"of the bound {bound:,}; canary in {len(written)} files written: 0"
    )
    if report := os.environ.get("RELIABILITY_REPORT"):
        with open(report, "a", encoding="utf-8") as file:
            file.write(figures + "\n")

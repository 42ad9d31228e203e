"""The ticker's result key: what must make a rerun ask again, and what must not."""

from __future__ import annotations

from datetime import date

import pytest

from flows.night.ticker import TickerJob, ticker_key

JOB = TickerJob(
    ticker="AXO",
    portfolios=["P001", "P002"],
    report_date=date(2024, 6, 3),
    question_set="default@1",
    provider="offline",
    model="templates",
    data_fingerprint="abc123",
    run_id="run-1",
)


def key(job: TickerJob) -> str:
    return ticker_key(job)


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("report_date", date(2024, 6, 4)),
        ("ticker", "BXO"),
        ("portfolios", ["P001"]),
        ("question_set", "custom@1"),
        ("provider", "openai"),
        ("model", "gpt-4o-mini"),
        ("mode", "react"),
        ("language", "es"),
        ("prompt_version", "older"),
        ("tools_version", "0"),
        ("data_fingerprint", "def456"),
    ],
)
def test_every_input_of_an_answer_changes_the_key(field: str, value: object) -> None:
    assert key(JOB.model_copy(update={field: value})) != key(JOB)


def test_the_run_id_does_not_change_the_key() -> None:
    assert key(JOB.model_copy(update={"run_id": "run-2"})) == key(JOB)

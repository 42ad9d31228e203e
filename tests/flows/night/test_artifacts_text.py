"""The night's Prefect artifacts show what came from data through `display_text`: the rejected
cases' table holds no bidi control, invisible character or linkable address."""

from __future__ import annotations

import unicodedata
from datetime import date
from pathlib import Path

from flows.night.artifacts import night_artifacts
from flows.night.outputs import PublishedRun, RunOutcome
from flows.night.summary import summarise_night
from flows.publish.records import QuestionRecord, TickerResult

HOSTILE = "news \u202eof 40%\u202c\u200b see https://evil.example or www.evil.example \x1b[2J"


def test_the_rejected_cases_table_shows_data_as_plain_text(tmp_path: Path) -> None:
    record = QuestionRecord(
        question_id="AAA/news",
        spec_id="news",
        kind=HOSTILE,
        ticker="AAA",
        portfolios=["P1", HOSTILE],
        text="q",
        status="rejected",
        reason=HOSTILE,
    )
    outcome = RunOutcome(
        run_id="r",
        report_date=date(2024, 12, 31),
        results=[TickerResult(ticker="AAA", records=[record])],
    )
    published = PublishedRun(
        day=tmp_path, reports=[], cases=[], manifest=tmp_path / "manifest.json", counts={}
    )
    summary = summarise_night("2024-12-31", {}, {}, {}, str(tmp_path / "review.html"))
    _, table, _ = night_artifacts(outcome, published, summary)
    (row,) = table.table
    for column in ("question", "portfolios", "reason"):
        shown = row[column]
        assert "of 40%" in shown and "://" not in shown and "www.evil" not in shown, column
        assert not [c for c in shown if unicodedata.category(c) in ("Cf", "Cc")], column

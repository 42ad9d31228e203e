"""`nightdesk report`: rebuild a run's reports and review page from its files, with the
analysts' decisions applied."""

from __future__ import annotations

from datetime import date
from pathlib import Path

from flows.publish.cases import open_run
from flows.publish.render import write_report
from flows.review.page import write_review_page
from flows.review.state import ReviewState, load_reports


def rebuild_run(out_dir: Path, report_date: date) -> list[Path]:
    """Rewrite every portfolio report and the review page from the cases and decisions."""
    layout = open_run(out_dir, report_date)
    state = ReviewState.load(layout)
    written: list[Path] = []
    for report in load_reports(layout):
        written += write_report(layout, state.apply(report))
    written.append(write_review_page(layout))
    return written

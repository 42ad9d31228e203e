"""Reading a published run back: its manifest, its rejected cases and the re-asked attempts.

Case files are read, never rewritten: an analyst's decisions live beside them in the decision
log, and a re-asked question is a new file under `reruns/`. Every lookup checks the date and the
case id first, so a typo or a path like `../x` ends as one clear line, not a traceback; the
day's folder is walked first (`flows.publish.tree`), and nothing is read through a link.
"""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field, ValidationError

from contract.errors import InputError
from contract.reasons import Cause, cause_of
from contract.trace import Trace
from flows.publish.layout import RunLayout, check_name, read_owned, read_owned_text
from flows.publish.records import QuestionRecord, RecordReason
from flows.publish.tree import check_output_tree
from verifier.verdict import Verdict


class ReviewCase(BaseModel):
    """One rejected question as `rejected/<case-id>.json` (or a re-asked attempt) holds it: the
    trace and the verdict are the models the run made, written as JSON and read back as models."""

    case_id: str
    run_id: str = ""
    report_date: date
    question_id: str
    spec_id: str = ""
    kind: str = ""
    ticker: str
    portfolios: list[str] = Field(default_factory=list)
    question: str = ""
    draft: str | None = None
    reason: str | None = None
    reasons: list[RecordReason] = Field(default_factory=list)
    """Every reason with its message: the verdict's, or why no draft was judged (a provider
    fault, a budget cut, a failed ticker or shard)."""
    verdict: Verdict | None = None
    trace: Trace | None = None
    tokens: dict[str, int] = Field(default_factory=dict)
    status: str = "rejected"
    rerun_of: str | None = None

    @classmethod
    def of(
        cls,
        record: QuestionRecord,
        run_id: str,
        report_date: date,
        case_id: str | None = None,
        rerun_of: str | None = None,
    ) -> ReviewCase:
        """The case of a rejected record, or (`rerun_of`) of a re-asked attempt, judged either
        way."""
        return cls(
            case_id=case_id or record.case_id,
            run_id=run_id,
            report_date=report_date,
            question_id=record.question_id,
            spec_id=record.spec_id,
            kind=record.kind,
            ticker=record.ticker,
            portfolios=list(record.portfolios),
            question=record.text,
            draft=record.draft,
            reason=record.reason,
            reasons=list(record.reasons),
            verdict=record.verdict,
            trace=record.trace,
            tokens=record.tokens,
            status=record.status,
            rerun_of=rerun_of,
        )

    @property
    def total_tokens(self) -> int:
        return self.tokens.get("input_tokens", 0) + self.tokens.get("output_tokens", 0)

    @property
    def cause(self) -> Cause:
        return cause_of(self.reason)

    @property
    def decidable(self) -> bool:
        """An analyst can decide it: the verifier judged a draft. A question the budget cut
        or an error lost has none (nor has a summary with nothing verified to draft from): a
        rerun of the night asks it again."""
        return self.cause == "verifier" and bool(self.draft)


def reruns_dir(layout: RunLayout) -> Path:
    return layout.day / "reruns"


def review_page_path(layout: RunLayout) -> Path:
    return layout.day / "review.html"


def open_run(out_dir: Path, report_date: date) -> RunLayout:
    """The layout of a published run; an unknown date is an input error."""
    layout = RunLayout(Path(out_dir), report_date)
    check_output_tree(layout.root, [layout.day])
    if not layout.manifest.is_file():
        runs = sorted(p.parent.name for p in Path(out_dir).glob("*/manifest.json"))
        hint = f"runs under {out_dir}: {', '.join(runs)}" if runs else f"no runs under {out_dir}"
        raise InputError(f"no run for {report_date} ({layout.manifest} is missing); {hint}")
    return layout


def read_manifest(layout: RunLayout) -> dict[str, Any]:
    try:
        data = json.loads(read_owned_text(layout.manifest))
    except (OSError, ValueError) as exc:
        raise InputError(f"cannot read {layout.manifest}: {exc}; run the night again") from None
    if not isinstance(data, dict):
        raise InputError(f"{layout.manifest} is not a manifest; run the night again")
    return data


def case_path(layout: RunLayout, case_id: str) -> Path:
    """Where a case lives: `rejected/` for the run's own, `reruns/` for re-asked attempts."""
    check_name(case_id, "case id")
    if ".rerun-" in case_id:
        return reruns_dir(layout) / f"{case_id}.json"
    return layout.case(case_id)


def load_case(layout: RunLayout, case_id: str) -> ReviewCase:
    """One case by id; a missing one names the command that lists the valid ids."""
    path = case_path(layout, case_id)
    if not path.is_file():
        raise InputError(
            f"no case {case_id!r} in the run of {layout.report_date}: "
            f"see `nightdesk review list {layout.cli_args}`"
        )
    return read_case(path)


def read_case(path: Path) -> ReviewCase:
    try:
        return ReviewCase.model_validate_json(read_owned(path))
    except (OSError, ValidationError) as exc:
        first = str(exc).splitlines()[0]
        raise InputError(f"case file {path} is unreadable ({first}); run the night again") from None


def load_cases(layout: RunLayout) -> list[ReviewCase]:
    """The run's rejected cases in index order (the index is what the publisher wrote)."""
    if not layout.rejected_index.is_file():
        return []
    cases = []
    index = read_owned_text(layout.rejected_index)
    for number, line in enumerate(index.splitlines(), 1):
        if not line.strip():
            continue
        try:
            case_id = str(json.loads(line)["case_id"])
        except (ValueError, KeyError, TypeError):
            raise InputError(
                f"{layout.rejected_index} line {number} is not an index row; run the night again"
            ) from None
        cases.append(read_case(case_path(layout, case_id)))
    return cases


def load_reruns(layout: RunLayout) -> dict[str, ReviewCase]:
    """Every re-asked attempt by its own case id."""
    folder = reruns_dir(layout)
    if not folder.is_dir():
        return {}
    found = (read_case(p) for p in sorted(folder.glob("*.json")))
    return {case.case_id: case for case in found}

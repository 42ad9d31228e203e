"""The analyst's decision log: `outputs/<date>/decisions.jsonl`, append-only.

Each line is one `Decision`. A later decision on the same case supersedes the earlier one (it
names it in `supersedes`); nothing is ever rewritten or erased, so the log is the audit trail of
who decided what, when and why. Each line is appended with one `write` on a file opened for
appending, then flushed and fsynced. The reader accepts nothing it cannot parse: a damaged line
is an input error naming the line, never skipped.
"""

from __future__ import annotations

import hashlib
import os
from datetime import UTC, datetime
from pathlib import Path
from typing import Literal

from pydantic import AwareDatetime, BaseModel, ValidationError, field_validator

from contract.errors import InputError, first_error
from flows.publish.layout import RunLayout, check_name

Action = Literal["approve", "reject", "rerun"]


class Decision(BaseModel):
    """One analyst decision about one case."""

    decision_id: str
    case_id: str
    action: Action
    note: str
    by: str
    at: AwareDatetime
    draft_digest: str = ""
    supersedes: str | None = None
    rerun_case: str | None = None
    rerun_status: str | None = None
    rerun_reason: str | None = None

    @field_validator("note", "by")
    @classmethod
    def _present(cls, value: str) -> str:
        if not value.strip():
            raise ValueError("must not be empty")
        return value.strip()

    @field_validator("at")
    @classmethod
    def _utc(cls, value: datetime) -> datetime:
        return value.astimezone(UTC)


def digest_draft(draft: str | None) -> str:
    """What a decision was about: an approval holds only for the draft the analyst read."""
    return hashlib.sha256((draft or "").encode("utf-8")).hexdigest()[:16]


def decisions_path(layout: RunLayout) -> Path:
    return layout.day / "decisions.jsonl"


def read_decisions(layout: RunLayout) -> list[Decision]:
    """Every decision in log order; a line that is not a decision is an error naming it."""
    path = decisions_path(layout)
    if not path.is_file():
        return []
    decisions = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            decisions.append(Decision.model_validate_json(line))
        except ValidationError as exc:
            first = str(exc).splitlines()[0]
            raise InputError(
                f"{path} line {number} is not a decision ({first}): repair that line by hand"
            ) from None
    return decisions


def latest_decisions(decisions: list[Decision]) -> dict[str, Decision]:
    """The decision in force per case: the last one logged."""
    return {d.case_id: d for d in decisions}


def append_decision(layout: RunLayout, decision: Decision) -> None:
    """Append one line in one write, then flush it to disk before returning."""
    line = (decision.model_dump_json() + "\n").encode("utf-8")
    path = decisions_path(layout)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    try:
        written = os.write(fd, line)
        if written != len(line):
            raise OSError(f"short write to {path}: {written} of {len(line)} bytes")
        os.fsync(fd)
    finally:
        os.close(fd)


def record_decision(
    layout: RunLayout,
    case_id: str,
    action: Action,
    *,
    note: str,
    by: str,
    at: datetime,
    draft: str | None = None,
    rerun_case: str | None = None,
    rerun_status: str | None = None,
    rerun_reason: str | None = None,
) -> Decision:
    """Log a decision about a case that exists; it supersedes the case's previous decision."""
    check_name(case_id, "case id")
    earlier = [d for d in read_decisions(layout) if d.case_id == case_id]
    try:
        decision = Decision(
            decision_id=f"{case_id}#{len(earlier) + 1}",
            case_id=case_id,
            action=action,
            note=note,
            by=by,
            at=at,
            draft_digest=digest_draft(draft),
            supersedes=earlier[-1].decision_id if earlier else None,
            rerun_case=rerun_case,
            rerun_status=rerun_status,
            rerun_reason=rerun_reason,
        )
    except ValidationError as exc:
        field, what = first_error(exc)
        raise InputError(f"decision {field}: {what} (give --note TEXT and --by NAME)") from None
    append_decision(layout, decision)
    return decision


def describe_decision(decision: Decision) -> str:
    """One line for terminals and reports: what was decided, by whom, when, why."""
    when = decision.at.strftime("%Y-%m-%d %H:%M UTC")
    extra = ""
    if decision.rerun_case:
        extra = f" -> {decision.rerun_case} ({decision.rerun_status or 'unknown'})"
    return f"{decision.action}{extra} by {decision.by} at {when}: {decision.note}"

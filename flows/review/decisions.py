"""The analyst's decision log: `outputs/<date>/decisions.jsonl`, append-only and chained.

Each line is one `Decision`. A later decision on the same case supersedes the earlier one (it
names it in `supersedes`); nothing is ever rewritten or erased, so the log is the audit trail of
who decided what, when and why. Each entry carries its own digest and the digest of the entry
before it (`GENESIS` for the first), so a line changed, removed, inserted or moved by hand breaks
the chain, and every reader refuses the log in one line that says at which entry. (Anyone may
recompute a whole chain: it shows edits, it does not prevent a rewrite of every line.) Decisions
are made under an exclusive lock on the day's `.decisions.lock`: the second of two analysts
deciding at once reads the first's entry and supersedes it. Each entry records the OS account
that made it beside the name given with `--by`. Each line is appended with one `write` on a
file opened for appending (never through a link, never a FIFO), then flushed and fsynced.
"""

from __future__ import annotations

import hashlib
import json
import os
import pwd
import unicodedata
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Literal

from pydantic import AwareDatetime, BaseModel, ValidationError, field_validator

from contract.errors import InputError, first_error
from flows.publish.cases import case_path, read_case
from flows.publish.layout import (
    RunLayout,
    check_name,
    held_lock,
    open_no_link,
    read_owned_text,
    write_atomic,
)

GENESIS = hashlib.sha256(b"nightdesk decision log").hexdigest()
"""What the first entry of every log names as the entry before it."""
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
    account: str = ""
    """The OS account that recorded it; `by` is the name the analyst gave."""
    prev: str = ""
    """The digest of the entry before (`GENESIS` for the first)."""
    digest: str = ""
    """The digest of this entry, every other field included (`entry_digest`)."""

    @field_validator("note", "by")
    @classmethod
    def _present(cls, value: str) -> str:
        if not value.strip():
            raise ValueError("must not be empty")
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:  # bytes the shell passed that are not UTF-8 (surrogates)
            raise ValueError("must be UTF-8 text") from None
        return value.strip()

    @field_validator("by")
    @classmethod
    def _a_name(cls, value: str) -> str:
        problem = name_problem(value)
        if problem:
            raise ValueError(problem)
        return value

    @field_validator("at")
    @classmethod
    def _utc(cls, value: datetime) -> datetime:
        return value.astimezone(UTC)


MAX_NAME = 64
NAME_MARKS = frozenset(" .'-_@")


def name_problem(name: str) -> str | None:
    """Why `name` cannot be the analyst's name in the log, or None. A name is letters (of one
    script), digits, spaces and . ' - _ @, at most 64: nothing that could pose as the account
    beside it ("ana (account root)"), hide a character, or mix alphabets ("аna", its first
    letter Cyrillic, would read as another analyst)."""
    if len(name) > MAX_NAME:
        return f"at most {MAX_NAME} characters"
    if any(not (c.isalnum() or c in NAME_MARKS) for c in name):
        return "letters, digits, spaces and . ' - _ @ only"
    scripts = {unicodedata.name(c, "?").split()[0] for c in name if c.isalpha()}
    if len(scripts) > 1:
        return f"letters of one alphabet only (it mixes {', '.join(sorted(scripts))})"
    return None


def digest_draft(draft: str | None) -> str:
    """What a decision was about: an approval holds only for the draft the analyst read."""
    return hashlib.sha256((draft or "").encode("utf-8")).hexdigest()[:16]


def decisions_path(layout: RunLayout) -> Path:
    return layout.day / "decisions.jsonl"


def head_path(layout: RunLayout) -> Path:
    """Where the log's head is kept: how many entries it has and the last one's digest, written
    after each entry, so a log cut short (its last entries removed whole) is seen."""
    return layout.day / ".decisions.head"


def entry_digest(fields: dict[str, Any]) -> str:
    """The digest of one entry as it was written: every field but `digest`, canonically."""
    body = {key: value for key, value in fields.items() if key != "digest"}
    text = json.dumps(body, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def read_decisions(layout: RunLayout) -> list[Decision]:
    """Every decision in log order. A line that is not a decision, or an entry that does not
    follow the one before, is an error naming it: the log is refused, never half believed."""
    path = decisions_path(layout)
    if not os.path.lexists(path):
        check_head(layout, [])  # a log removed whole is a log cut short
        return []
    decisions: list[Decision] = []
    prev = GENESIS
    for number, line in enumerate(read_owned_text(path).splitlines(), 1):
        if not line.strip():
            continue
        try:
            fields = json.loads(line)
            decision = Decision.model_validate(fields)
        except (ValueError, ValidationError, TypeError) as exc:
            first = str(exc).splitlines()[0]
            raise InputError(
                f"{path} line {number} is not a decision ({first}): repair that line by hand"
            ) from None
        entry = len(decisions) + 1
        as_written = json.dumps(fields, ensure_ascii=False) == line  # a key twice, a space added
        if decision.prev != prev or entry_digest(fields) != decision.digest or not as_written:
            what = "does not follow the entry before" if decision.prev != prev else "was changed"
            raise InputError(
                f"{path}: the chain breaks at entry {entry} (line {number}, "
                f"{decision.decision_id}): it {what} since it was written; "
                "restore the log from a copy (no decision is applied until then)"
            )
        prev = decision.digest
        decisions.append(decision)
    check_head(layout, decisions)
    return decisions


def check_head(layout: RunLayout, decisions: list[Decision]) -> None:
    """The log holds every entry its head says was written. One entry more than the head is a
    decision whose head was not yet written (a crash between the two writes); fewer, or another
    entry where the head's last one was, is a log cut short or rewritten."""
    path = head_path(layout)
    if not os.path.lexists(path):
        if len(decisions) > 1:
            raise InputError(
                f"{path} is missing: the decision log cannot show it was not cut short; "
                "restore both from a copy (no decision is applied until then)"
            )
        return
    try:
        head = json.loads(read_owned_text(path))
        entries, digest = int(head["entries"]), str(head["digest"])
    except (ValueError, KeyError, TypeError):
        raise InputError(f"{path} is not a log head: restore it from a copy") from None
    if len(decisions) < entries or (entries and decisions[entries - 1].digest != digest):
        raise InputError(
            f"{decisions_path(layout)} holds {len(decisions)} entries where {entries} were "
            f"written (the last with digest {digest[:12]}): entries were removed or rewritten; "
            "restore the log from a copy (no decision is applied until then)"
        )


def latest_decisions(decisions: list[Decision]) -> dict[str, Decision]:
    """The decision in force per case: the last one logged."""
    return {d.case_id: d for d in decisions}


@contextmanager
def decisions_lock(layout: RunLayout) -> Iterator[None]:
    """Hold the day's decision lock: one decision (or re-asked attempt) is made at a time."""
    with held_lock(layout.day / ".decisions.lock"):
        yield


def append_decision(layout: RunLayout, decision: Decision) -> None:
    """Append one line in one write, then flush it to disk before returning."""
    line = (json.dumps(decision.model_dump(mode="json"), ensure_ascii=False) + "\n").encode()
    path = decisions_path(layout)
    fd = open_no_link(path, os.O_WRONLY | os.O_APPEND)
    try:
        written = os.write(fd, line)
        if written != len(line):
            raise OSError(f"short write to {path}: {written} of {len(line)} bytes")
        os.fsync(fd)
    finally:
        os.close(fd)


def os_account() -> str:
    """The account this process runs as, from the system (not from `$USER`)."""
    uid = os.geteuid()
    try:
        return pwd.getpwuid(uid).pw_name
    except KeyError:
        return f"uid {uid}"


def check_rerun(layout: RunLayout, case_id: str, rerun_case: str | None) -> None:
    """A rerun decision points at a re-asked attempt of its own case, and only it does."""
    if rerun_case is None:
        raise InputError(f"a rerun decision on {case_id} must name its re-asked attempt")
    check_name(rerun_case, "rerun case id")
    path = case_path(layout, rerun_case)
    attempt = read_case(path) if path.is_file() else None
    if attempt is None or attempt.rerun_of != case_id:
        raise InputError(
            f"{rerun_case!r} is not a re-asked attempt of {case_id}: a rerun decision can only "
            "point at an attempt of its own case"
        )


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
    """Log a decision about a case that exists; it supersedes the case's previous decision.
    Made under the day's lock, on a log whose chain holds, recording the OS account."""
    check_name(case_id, "case id")
    if action == "rerun":
        check_rerun(layout, case_id, rerun_case)
    elif rerun_case is not None:
        raise InputError(f"only a rerun decision names a re-asked attempt, not {action}")
    with decisions_lock(layout):
        logged = read_decisions(layout)
        earlier = [d for d in logged if d.case_id == case_id]
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
                account=os_account(),
                prev=logged[-1].digest if logged else GENESIS,
            )
        except ValidationError as exc:
            field, what = first_error(exc)
            raise InputError(f"decision {field}: {what} (give --note TEXT and --by NAME)") from None
        decision.digest = entry_digest(decision.model_dump(mode="json"))
        append_decision(layout, decision)
        head = {"entries": len(logged) + 1, "digest": decision.digest}
        write_atomic(head_path(layout), json.dumps(head) + "\n")
    return decision


def describe_decision(decision: Decision) -> str:
    """One line for terminals and reports: what was decided, by whom, when, why."""
    when = decision.at.strftime("%Y-%m-%d %H:%M UTC")
    extra = ""
    if decision.rerun_case:
        extra = f" -> {decision.rerun_case} ({decision.rerun_status or 'unknown'})"
    account = f" (account {decision.account})" if decision.account else ""
    return f"{decision.action}{extra} by {decision.by}{account} at {when}: {decision.note}"

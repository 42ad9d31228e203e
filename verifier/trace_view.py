"""The part of a trace the verifier reads, parsed leniently.

Only `question`, `draft`, `requires`, `stop_reason`, `stop_detail` and the events' `id`, `tool`,
`args`, `result` and `error` matter; every other field is ignored, so both the minimal JSON of a
hand-written case and a full serialised agent trace are accepted.
"""

from __future__ import annotations

import json
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from contract.errors import InputError, first_error
from contract.trace import Trace


class EventView(BaseModel):
    """One tool call: either a result or an error message."""

    model_config = ConfigDict(extra="ignore", coerce_numbers_to_str=True)

    id: str
    tool: str
    args: Any = None
    result: Any = None
    error: Any = None

    @property
    def failure(self) -> str | None:
        """The error message of a failed call. A result is a result, whatever its fields are
        called: one with an `error` field is not a failure."""
        return str(self.error) if self.error is not None else None

    @property
    def ticker(self) -> str | None:
        """The one ticker this call was about, if its arguments name exactly one."""
        args = self.args
        if isinstance(args, dict):
            value = args.get("ticker")
            if isinstance(value, str) and value:
                return value.upper()
        return None


class TraceView(BaseModel):
    """A trace as the verifier needs it."""

    model_config = ConfigDict(extra="ignore", coerce_numbers_to_str=True)

    question: str = ""
    draft: str | None = None
    as_of: str | None = None
    """The report date: what "today" and "yesterday" are counted from."""
    portfolio_id: str | None = None
    """The portfolio the answer is for; None for an answer shared by every portfolio holding
    the ticker, which states nothing of any one portfolio."""
    requires: list[str] = Field(default_factory=list)
    stop_reason: str | None = None
    stop_detail: str | None = None
    events: list[EventView] = Field(default_factory=list)


TRACE_KEYS = ("question", "draft", "events")
"""What every trace holds (`draft` may be null), so that any other JSON object is told apart."""


def parse_trace(data: Any) -> TraceView:
    """A `TraceView` from decoded JSON (a trace, or a rejected case holding one under `trace`);
    `InputError` with one line saying what is wrong."""
    if isinstance(data, TraceView):
        return data
    if not isinstance(data, dict):
        raise InputError(f"a trace must be a JSON object, got {type(data).__name__}")
    if "events" not in data and isinstance(data.get("trace"), dict):
        data = data["trace"]  # a rejected case file: its trace is what was verified
    missing = [key for key in TRACE_KEYS if key not in data]
    if missing:
        names = [repr(key) for key in missing]
        fields = " or ".join([", ".join(names[:-1]), names[-1]] if len(names) > 1 else names)
        raise InputError(
            f"not a trace: it has no {fields} field (a trace has {', '.join(TRACE_KEYS)}; "
            "a rejected case file holds one under 'trace')"
        )
    try:
        return TraceView.model_validate(data)
    except ValidationError as exc:
        where, what = first_error(exc)
        raise InputError(
            f"trace field {where or 'trace'!r}: {what} ({exc.error_count()} problem(s) in all)"
        ) from None


def view_of(trace: Trace) -> TraceView:
    """The verifier's view of the loop's own `Trace`, taken from the model as it is: what a
    serialised trace would give `parse_trace`, without writing JSON and reading it back."""
    return TraceView(
        question=trace.question,
        draft=trace.draft,
        as_of=trace.as_of.isoformat() if trace.as_of else None,
        portfolio_id=trace.portfolio_id,
        requires=list(trace.requires),
        stop_reason=str(trace.stop_reason) if trace.stop_reason is not None else None,
        stop_detail=trace.stop_detail,
        events=[
            EventView(
                id=e.id,
                tool=e.tool,
                args=e.args,
                result=e.result if e.error is None else None,
                error=e.error,
            )
            for e in trace.events
        ],
    )


def read_trace(text: str) -> TraceView:
    """A `TraceView` from JSON text; `InputError` when the text is not a trace."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise InputError(
            f"not JSON: {exc.msg} at line {exc.lineno} column {exc.colno}; "
            "pass one trace object (or one per line with --jsonl)"
        ) from None
    return parse_trace(data)

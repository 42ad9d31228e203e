"""What the question requires the draft to give, and why there is no draft at all."""

from __future__ import annotations

import re
from collections.abc import Iterator

from contract.reasons import ReasonCode
from verifier.claim import FIGURE_KINDS
from verifier.grammar.records import key_of, keyed_at
from verifier.rules.case import Case
from verifier.trace_view import TraceView
from verifier.verdict import Reason

REQUIREMENTS: dict[str, frozenset[str]] = {
    "percentage": frozenset({"percent"}),
    "percent": frozenset({"percent"}),
    "figure": FIGURE_KINDS,
    "number": FIGURE_KINDS,
    "price": frozenset({"money", "number"}),
    "amount": frozenset({"money", "number"}),
    "date": frozenset({"date"}),
    "headline": frozenset({"headline"}),
    "ticker": frozenset({"ticker"}),
}
"""What each `requires` word of a question asks the draft to contain."""


def check_missing_answer(case: Case) -> Iterator[Reason]:
    """The question requires a kind of claim (a percentage, a date...) that the draft lacks. A
    figure a record gives under a key of percent ('"change_pct": 1.61') is a percentage: the
    record's key says so as the sign would, and `check_record_keys` holds it to that field."""
    kinds = {f.claim.kind for f in case.findings}
    if "percent" not in kinds and any(_keyed_percent(case, f.claim.start) for f in case.figures):
        kinds.add("percent")
    for need in case.trace.requires:
        wanted = REQUIREMENTS.get(need.lower())
        if wanted is None:
            known = ", ".join(REQUIREMENTS)
            yield Reason(
                rule=ReasonCode.MISSING_ANSWER,
                message=f"the question requires {need!r}, which the verifier cannot check (known: {known})",
            )
        elif not wanted & kinds:
            yield Reason(
                rule=ReasonCode.MISSING_ANSWER,
                message=f"the question requires a {need}, and the draft gives none",
            )


def _keyed_percent(case: Case, at: int) -> bool:
    keyed = keyed_at(case.trace.draft or "", at)
    return keyed is not None and _PERCENT_KEY.search(key_of(keyed)) is not None


_PERCENT_KEY = re.compile(r"(?:^|_)(?:pct|percent|percentage)$")


def check_no_evidence(case: Case) -> Iterator[Reason]:
    """A draft with no tool call behind it is no answer, even one whose every word the question
    itself supplies (its ticker, its dates). A call that failed is still an observation: "no
    session that day", "the price is unavailable" rest on it, and any figure said over it is
    `unresolved_error`'s."""
    if not case.trace.events:
        yield Reason(
            rule=ReasonCode.NO_EVIDENCE,
            message="the draft rests on no tool call: nothing in the trace can hold it",
        )


def no_draft_reason(trace: TraceView) -> Reason:
    """Why there is nothing to verify: the stop reason the run recorded."""
    stop = trace.stop_reason or "unknown"
    detail = f": {trace.stop_detail}" if trace.stop_detail else ""
    return Reason(
        rule=ReasonCode.NO_DRAFT,
        message=f"the run ended without a draft (stop reason {stop}{detail})",
    )

"""Reason codes: one vocabulary for why a question ended where it did.

A trace's `stop_reason`, a verdict reason's `rule` and a rejected record's `reason` all take
their values here; analysts, the review queue and reruns filter on them, so the values are
stable.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Literal


class ReasonCode(StrEnum):
    # How the tool loop ended (a trace's `stop_reason`).
    ANSWERED = "answered"
    MAX_STEPS = "max_steps"
    BUDGET_EXHAUSTED = "budget_exhausted"
    PROVIDER_ERROR = "provider_error"
    TRUNCATED = "truncated"
    REPEATED_CALLS = "repeated_calls"
    # What the verifier found (a verdict reason's `rule`).
    UNSUPPORTED_FIGURE = "unsupported_figure"
    UNCOMPUTED_PERCENTAGE = "uncomputed_percentage"
    UNRESOLVED_ERROR = "unresolved_error"
    UNKNOWN_HEADLINE = "unknown_headline"
    UNSUPPORTED_DATE = "unsupported_date"
    UNKNOWN_TICKER = "unknown_ticker"
    WRONG_DIRECTION = "wrong_direction"
    WRONG_SUBJECT = "wrong_subject"
    """A figure or quote the trace holds, but for another ticker (or the portfolio)."""
    WRONG_TIME = "wrong_time"
    """A figure the trace holds for its subject, but for another session or window."""
    WRONG_FIELD = "wrong_field"
    """A figure the trace holds for its subject and time, but as another field or unit."""
    WRONG_WEEKDAY = "wrong_weekday"
    """A day of the week written with a date it does not fall on."""
    WRONG_SESSION = "wrong_session"
    """A headline said to come before, during or after the session where the source differs."""
    WRONG_EVENT_DAY = "wrong_event_day"
    """A date named as the day of an event kind that the trace lists on another day."""
    WRONG_RELATION = "wrong_relation"
    """A comparison, ranking or streak the trace's computed figures contradict ("the biggest
    holding" of a portfolio's third-largest, "a fourth straight gain" after a fall)."""
    WRONG_ABSENCE = "wrong_absence"
    """"No headlines", "nothing is scheduled" where the trace's search or events result holds
    some; or an event said to be coming where the events results hold none."""
    UNVERIFIED_CLAIM = "unverified_claim"
    """Words that assert something no rule checked ("the biggest holding", "a third straight
    gain", "analysts rate it a buy"): the verifier is closed-world, so they reject the draft."""
    MISSING_ANSWER = "missing_answer"
    NO_EVIDENCE = "no_evidence"
    """A draft that rests on no tool call at all: whatever it says, no result holds it (a model
    answering from the question's own ticker and dates)."""
    NO_DRAFT = "no_draft"
    INVALID_TRACE = "invalid_trace"
    LEAKED_SECRET = "leaked_secret"
    """The draft holds a key or another secret (the case file shows it redacted)."""
    LEAKED_PROMPT = "leaked_prompt"
    """The draft repeats the system prompt: the model was talked into showing its instructions."""
    # What the run itself records.
    INTERNAL_ERROR = "internal_error"
    """A bug in a room, or a ticker whose task never finished: the question is asked again."""
    NO_VERIFIED_ANSWERS = "no_verified_answers"
    """A summary with no accepted answer to draft from."""
    NO_ANSWER = "no_answer"
    """A trace that ended without any stop reason."""
    UNVERIFIED = "unverified"
    """A verdict that rejected without naming a rule."""


RETRYABLE = frozenset(
    {ReasonCode.PROVIDER_ERROR, ReasonCode.BUDGET_EXHAUSTED, ReasonCode.INTERNAL_ERROR}
)
"""Outcomes that say nothing about the answer: a rerun asks these questions again. A draft the
verifier rejected stays rejected (asking again would only shop for a lucky draft)."""


Cause = Literal["verifier", "budget", "error"]
"""Why an answer was withheld, as a reader must tell them apart: the verifier (or the loop)
rejected its draft, the budget cut it before it was drafted, or a provider or run error lost
it. Only the first is an analyst's to decide; a rerun asks the other two again."""
CAUSES: tuple[Cause, ...] = ("verifier", "budget", "error")
CAUSE_WORDS: dict[Cause, str] = {
    "verifier": "rejected by the verifier",
    "budget": "cut by the budget",
    "error": "lost to provider errors",
}
"""How an operator's page or terminal names each cause (a report says it in its language)."""


def cause_of(reason: str | None) -> Cause:
    """The cause of a withheld answer from its reason code."""
    if reason == ReasonCode.BUDGET_EXHAUSTED:
        return "budget"
    if reason in (ReasonCode.PROVIDER_ERROR, ReasonCode.INTERNAL_ERROR):
        return "error"
    return "verifier"

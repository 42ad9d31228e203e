"""Rules on figures: unsupported, blamed on a failed call, bound to another subject, time or field,
or a percentage no calculating tool returned."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterator

from contract.reasons import ReasonCode
from verifier.claim import FIGURE_KINDS, Claim, subject_words
from verifier.evidence import QUESTION, Evidence
from verifier.rules.case import Case, Finding, blocking_failure, scope_words
from verifier.verdict import Reason


def check_unresolved_error(case: Case) -> Iterator[Reason]:
    """A figure no result supports, about data that a failed call was meant to bring."""
    for f in case.figures:
        failure = None if f.in_scope else blocking_failure(f.claim, case.evidence)
        if failure is not None:
            about = f" for {failure.ticker}" if failure.ticker else ""
            yield Reason(
                rule=ReasonCode.UNRESOLVED_ERROR,
                message=(
                    f'"{f.claim.text}"{scope_words(f.claim)} states data that the failed call '
                    f"{failure.tool} {failure.event}{about} was meant to bring "
                    f'("{failure.message}"), and no later call brought it'
                ),
                span=f.claim.span,
            )


def check_unsupported_figure(case: Case) -> Iterator[Reason]:
    """A figure that no successful result and no question contains at the precision shown."""
    for f in case.figures:
        if f.in_scope or f.wrong or blocking_failure(f.claim, case.evidence) is not None:
            continue
        yield Reason(
            rule=ReasonCode.UNSUPPORTED_FIGURE,
            message=_unsupported_message(f, case.evidence),
            span=f.claim.span,
        )


def _unsupported_message(f: Finding, evidence: Evidence) -> str:
    claim = f.claim
    if claim.name:
        return (
            f'"{claim.text}" is part of the name "{claim.name}", which no successful tool result '
            "and not the question contains"
        )
    head = f'"{claim.text}"{scope_words(claim)}'
    if f.misnamed:
        named = claim.field.replace("_", " ").replace("day pnl", "day P&L")
        return f"{head} is written as the {named}, but the trace has {f.misnamed[0].describe()}"
    if f.turned:
        said, written = ("a lower", "an upper") if claim.bound > 0 else ("an upper", "a lower")
        fact = f.turned[0]
        if fact.bound:
            return f"{head} states {said} bound, but the source writes {fact.describe()} as {written} bound"
        side = "below" if claim.bound > 0 else "above"
        return f"{head} states {said} bound, but the trace has {fact.describe()}, {side} it"
    if f.facts:
        return f"{head} matches {f.facts[0].describe()}, not a result about {subject_words(claim.scope)}"
    if f.off_period and claim.period is not None:
        other = f.off_period[0]
        stated = other.period.describe() if other.period else "another period"
        return (
            f"{head} is stated for {claim.period.describe()}, but the source gives "
            f"{other.describe()} for {stated}"
        )
    if claim.sign:
        unsigned = evidence.match_figure(dataclasses.replace(claim, sign=0))
        if unsigned:
            return f"{head} has the wrong sign: the trace has {unsigned[0].describe()}"
    near = evidence.near(claim)
    nearest = f"; the nearest value is {near.describe()}" if near else ""
    if near and near.event == QUESTION and claim.kind == "money" and not evidence.question_money:
        nearest = f"; the question's {near.value:g} is not an amount of money"
    return (
        f"{head} is in no successful tool result and not in the question, "
        f"compared at the precision shown{nearest}"
    )


_WRONG = {
    "subject": ReasonCode.WRONG_SUBJECT,
    "time": ReasonCode.WRONG_TIME,
    "field": ReasonCode.WRONG_FIELD,
}


def _said(claim: Claim, wrong: str) -> str:
    """The part of the claim that is wrong, as the draft states it."""
    if wrong == "subject":
        quoted = "quoted " if claim.kind == "headline" else ""
        return f"{quoted}about {subject_words(claim.scope)}"
    if wrong == "time":
        return f"for {claim.time.describe() if claim.time else 'an unstated time'}"
    if claim.points:
        return "in percentage points"
    return f"as the {claim.field.replace('_', ' ').replace('day pnl', 'day P&L')}"


def _wrong(case: Case, wrong: str) -> Iterator[Reason]:
    """The reasons for the claims that match the trace only for another `wrong` part."""
    for f in case.findings:
        if f.wrong != wrong:
            continue
        if f.claim.kind in FIGURE_KINDS and blocking_failure(f.claim, case.evidence):
            continue  # the failed call explains it (`check_unresolved_error`)
        held = f.about or "; ".join(x.describe() for x in f.held[:2])
        yield Reason(
            rule=_WRONG[wrong],
            message=f'"{f.claim.text}" is stated {_said(f.claim, wrong)}, but the trace has {held}',
            span=f.claim.span,
        )


def check_wrong_subject(case: Case) -> Iterator[Reason]:
    """A figure or quote the trace holds, but for another ticker than the draft names."""
    yield from _wrong(case, "subject")


def check_wrong_time(case: Case) -> Iterator[Reason]:
    """A figure the trace holds for its subject, but for another session or window."""
    yield from _wrong(case, "time")


def check_extended_hours(case: Case) -> Iterator[Reason]:
    """A price named as one of the hours outside the session ("ending at an after-hours price
    of 60.97", "cotizaba en el premarket a 45,10"): no tool returns such a price, so a figure
    the trace holds is another time's (the session's close), `wrong_time`."""
    text = case.trace.draft or ""
    if not _EXTENDED_WORD.search(text):
        return
    for f in case.figures:
        claim = f.claim
        if claim.kind not in ("number", "money") or not f.in_scope:
            continue
        said = _EXTENDED_LEVEL.search(text, max(claim.start - 60, 0), claim.start)
        if said is not None:
            yield Reason(
                rule=ReasonCode.WRONG_TIME,
                message=(
                    f'"{text[said.start() : claim.end]}" gives a price outside the session, '
                    f"but the trace holds only session prices: {f.in_scope[0].describe()}"
                ),
                span=(said.start(), claim.end),
            )


_EXTENDED_WORD = re.compile(
    r"(?i)after[-\s]hours|pre-?market|post-?market|extended[-\s]hours|aftermarket|"
    r"fuera\s+de\s+horario"
)
_EXTENDED_LEVEL = re.compile(
    rf"(?i)(?:{_EXTENDED_WORD.pattern.removeprefix('(?i)')})(?:\s+(?:trading|session|sesión|"
    r"market|mercado))?\s+(?:price|quote|level|print|trade|precio|cotización|nivel)?\s*"
    r"(?:of|at|was|is|de|en|a|fue|era|:)?\s*[*_`]*\s*(?:\$|us\$|€)?\s*$"
)
"""A price said of the hours outside the session, right before its figure."""


def check_wrong_field(case: Case) -> Iterator[Reason]:
    """A figure the trace holds for its subject and time, but as another field or unit."""
    yield from _wrong(case, "field")


def check_uncomputed_percentage(case: Case) -> Iterator[Reason]:
    """A percentage whose only support is a figure that no calculating tool returned as one."""
    for f in case.figures:
        if f.claim.unit and f.in_scope and not any(x.percent for x in f.in_scope):
            yield Reason(
                rule=ReasonCode.UNCOMPUTED_PERCENTAGE,
                message=(
                    f'"{f.claim.text}" is given as a percentage, but no calculating tool returned it: '
                    f"{f.in_scope[0].describe()} is not a percentage"
                ),
                span=f.claim.span,
            )

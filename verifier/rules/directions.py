"""The direction rule: a direction word against the sign of its figure or of its subject's change."""

from __future__ import annotations

from collections.abc import Iterator

from contract.reasons import ReasonCode
from verifier.claims import Claim
from verifier.rules.case import Case
from verifier.times import ClaimTime, times_agree
from verifier.verdict import Reason


def check_wrong_direction(case: Case) -> Iterator[Reason]:
    """A direction word ("rose", "cayó") next to a figure whose value has the other sign, or said
    of a ticker whose change for the time stated has the other sign ("AXO fell on 2024-12-31")."""
    yield from _wrong_moves(case)
    for f in case.figures:
        claim = f.claim
        if not claim.direction or claim.sign or not f.in_scope:
            continue
        facts = [x for x in f.in_scope if x.percent] if claim.unit else f.in_scope
        signed = [x for x in facts if x.signed and x.value]
        signed = [x for x in signed if x.change] or signed
        if signed and all((x.value > 0) != (claim.direction > 0) for x in signed):
            said = "a rise" if claim.direction > 0 else "a fall"
            yield Reason(
                rule=ReasonCode.WRONG_DIRECTION,
                message=(
                    f'"{claim.direction_word} {claim.text}" says {said}, but the trace has '
                    f"{signed[0].describe()}"
                ),
                span=(min(claim.start, _word_start(case, claim)), claim.end),
            )


def _wrong_moves(case: Case) -> Iterator[Reason]:
    for f in case.findings:
        claim = f.claim
        if claim.kind != "move":
            continue
        (subject,) = claim.scope
        held = [
            x
            for x in case.evidence.changes.get(subject, ())
            if x.value and times_agree(claim.time, x.span)
        ]
        if not held and claim.time is not None and claim.time != ClaimTime("day"):
            yield Reason(
                rule=ReasonCode.UNVERIFIED_CLAIM,
                message=(
                    f'"{claim.text}" says how {subject} moved over {claim.time.describe()}, and '
                    "no result of the trace holds its change for that time"
                ),
                span=claim.span,
            )
            continue
        if held and all((x.value > 0) != (claim.direction > 0) for x in held):
            said = "a rise" if claim.direction > 0 else "a fall"
            when = f" for {claim.time.describe()}" if claim.time else ""
            yield Reason(
                rule=ReasonCode.WRONG_DIRECTION,
                message=(
                    f'"{claim.text}" says {said} of {subject}{when}, but the trace has '
                    f"{held[0].describe()}"
                ),
                span=claim.span,
            )


def _word_start(case: Case, claim: Claim) -> int:
    draft = case.trace.draft or ""
    found = draft.rfind(claim.direction_word, 0, claim.start)
    return found if found >= 0 else claim.start

"""The verdict: accepted or not, every reason with its rule code and span, every claim with its
supporting events. Its JSON is the verifier's public output."""

from __future__ import annotations

from pydantic import BaseModel, Field

from contract.reasons import ReasonCode


class Reason(BaseModel):
    """Why a draft is rejected: which rule, which claim (span into the draft), in words."""

    rule: ReasonCode
    message: str
    span: tuple[int, int] | None = None


class ClaimOut(BaseModel):
    """A claim as reported: its text, where it is, what kind, and the events that support it."""

    text: str
    span: tuple[int, int]
    kind: str
    supported_by: list[str] = Field(default_factory=list)


class Verdict(BaseModel):
    """The verifier's answer for one draft."""

    accepted: bool
    reasons: list[Reason] = Field(default_factory=list)
    claims: list[ClaimOut] = Field(default_factory=list)

"""The verifier: hold every drafted answer against its own tool trace, claim by claim."""

from contract.reasons import ReasonCode
from verifier.claim import Claim
from verifier.extraction import extract_claims
from verifier.trace_view import EventView, TraceView, parse_trace, read_trace
from verifier.verdict import ClaimOut, Reason, Verdict
from verifier.verify import verify

__all__ = [
    "Claim",
    "ClaimOut",
    "EventView",
    "Reason",
    "ReasonCode",
    "TraceView",
    "Verdict",
    "extract_claims",
    "parse_trace",
    "read_trace",
    "verify",
]

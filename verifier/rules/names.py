"""Rules on names: a ticker nobody looked up, a quote no news result holds whole."""

from __future__ import annotations

from collections.abc import Iterator

from contract.reasons import ReasonCode
from verifier.rules.case import Case
from verifier.verdict import Reason


def check_unknown_ticker(case: Case) -> Iterator[Reason]:
    """A ticker symbol that no call, result or the question mentions."""
    for f in case.findings:
        if f.claim.kind == "ticker" and not f.supported_by:
            yield Reason(
                rule=ReasonCode.UNKNOWN_TICKER,
                message=(
                    f'"{f.claim.text}" looks like a ticker, but no tool call, result or the '
                    "question mentions it"
                ),
                span=f.claim.span,
            )


def check_unknown_headline(case: Case) -> Iterator[Reason]:
    """A quoted headline that no news result contains literally."""
    for f in case.findings:
        if f.claim.kind == "headline" and not f.supported_by and not f.wrong:
            yield Reason(
                rule=ReasonCode.UNKNOWN_HEADLINE,
                message=f'the quoted headline "{f.claim.text}" is in no search_news result',
                span=f.claim.span,
            )

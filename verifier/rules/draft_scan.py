"""What the relation and quality rules read of one draft, built once per draft."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from verifier.claim import Claim
from verifier.periods import sentence_starts
from verifier.rules.case import Case
from verifier.scanner import fold_aligned

_HYPHEN = re.compile(r"(?<=[^\W\d_])-(?=[^\W\d_])")


@dataclass(frozen=True, slots=True)
class DraftScan:
    """The draft, its folded text ("second-largest" read as two words), where its sentences
    start, its tickers and the trace's results: every phrase a rule finds is judged against
    these, so they are gathered once (`scan_of`), not passed one by one."""

    case: Case
    text: str
    folded: str
    starts: list[int]
    tickers: list[Claim]
    results: list[dict[str, Any]]

    def parts(
        self,
    ) -> tuple[Case, str, str, list[int], list[Claim], list[dict[str, Any]]]:
        """All of it, in the order the rules name them."""
        return self.case, self.text, self.folded, self.starts, self.tickers, self.results


def folded_of(case: Case) -> str:
    """The draft case-folded with word hyphens read as spaces, once per draft."""
    if case.folded is None:
        case.folded = _HYPHEN.sub(" ", fold_aligned(case.trace.draft or ""))
    return case.folded


def scan_of(case: Case) -> DraftScan:
    """The scan of the case's draft, built on first use and kept on the case."""
    if not isinstance(case.scan, DraftScan):
        text = case.trace.draft or ""
        case.scan = DraftScan(
            case,
            text,
            folded_of(case),
            sentence_starts(text),
            [f.claim for f in case.findings if f.claim.kind == "ticker"],
            [e.result for e in case.trace.events if isinstance(e.result, dict)],
        )
    return case.scan

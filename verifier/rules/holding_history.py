"""A holding's history: "P003 has held YDLJ since 2024-11-25", "tiene ABXQ en cartera desde el 19
de diciembre", "its weight in P001 increased to 0.82%", "su peso bajó al 9,95 %". The results
give a position as it stands on the report date (its `holdings_as_of` is the day the holdings
file is dated, not a purchase), and a weight as it is now, never as it was. So a holding period
and a change of weight are `unverified_claim`, whatever the date or the figure beside them.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from contract.reasons import ReasonCode
from verifier.rules.case import Case
from verifier.scanner import fold_aligned
from verifier.verdict import Reason

_HELD_SINCE = re.compile(
    r"(?<!\w)(?:(?:has|have|had)\s+(?:held|owned)|(?:held|owned|bought|acquired|purchased)|"
    r"(?:in|on)\s+the\s+(?:portfolio|book)|tien[ee]n?\s+(?:[a-z]{1,5}\s+)?en\s+cartera|"
    r"está\s+en\s+(?:la\s+)?cartera|en\s+cartera|compr(?:ó|ada|ado)|adquiri(?:ó|da|do))"
    r"(?:\s+(?:[a-z]{1,5}|it|them))?\s+(?:since|from|desde)\s+"
)
"""A holding said to be held, or bought, from a date."""
_WEIGHT_MOVED = re.compile(
    r"(?<!\w)(?:weight(?:ing)?|peso|ponderación)(?:\s+(?:in|en)\s+p\d{3,})?\s+(?:has\s+|ha\s+)?"
    r"(?:increased|decreased|rose|risen|fell|fallen|slipped|dropped|climbed|grew|grown|shrank|"
    r"shrunk|edged\s+(?:up|down|higher|lower)|went\s+(?:up|down)|subió|bajó|aumentó|disminuyó|"
    r"cayó|creció|subido|bajado|aumentado|disminuido)(?!\w)"
)
"""A weight said to have moved ("its weight slipped to 9.95%")."""


def check_holding_history(case: Case) -> Iterator[Reason]:
    """Each holding period and each change of weight the draft states."""
    text = case.trace.draft or ""
    folded = fold_aligned(text)
    for pattern, what in (
        (_HELD_SINCE, "how long the portfolio has held the position"),
        (_WEIGHT_MOVED, "how the position's weight changed"),
    ):
        for m in pattern.finditer(folded):
            yield Reason(
                rule=ReasonCode.UNVERIFIED_CLAIM,
                message=(
                    f'"{text[m.start() : m.end()].strip()}" says {what}, and no result holds it: '
                    "a position result gives the holding as it stands on the report date, its "
                    "holdings date the day the holdings file is dated"
                ),
                span=m.span(),
            )

"""A holding placed among its portfolio's holdings of one sector: "the portfolio's only
Materials holding", "its largest Energy name", "el único valor de salud de la cartera". Each word
may stand alone (a sector's name is free where a result names it), so the place would pass
unchecked. It says something of every holding of that sector, which a result shows only where
it lists every position with its sector: there it is recomputed, elsewhere it is
`unverified_claim`.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import cache
from typing import Any

from contract.reasons import ReasonCode
from verifier.lexicon.sectors import SECTORS_ES
from verifier.rules.case import Case
from verifier.scanner import fold_aligned
from verifier.verdict import Reason

_NOUN = r"(?:holdings?|names?|stocks?|positions?|compan(?:y|ies)|exposures?|valor(?:es)?|posici[oó]n(?:es)?|t[ií]tulos?|empresas?|acci[oó]n(?:es)?)"


@cache
def _place() -> re.Pattern[str]:
    names = sorted({*SECTORS_ES, *(n for es in SECTORS_ES.values() for n in es)}, key=len)
    sector = "|".join(re.escape(n) for n in reversed(names))
    return re.compile(
        r"(?<!\w)(?:(?P<only>only|sole|lone|single|únic[oa])|"
        r"(?P<rank>largest|biggest|smallest|top|best|worst|mayor|menor|mejor|peor))\s+"
        rf"(?:(?:{_NOUN})\s+(?:(?:de|del)\s+(?:sector\s+)?)?)?(?P<sector>{sector})"
        rf"(?:\s+{_NOUN})?(?!\w)"
    )


def check_sector_mix(case: Case) -> Iterator[Reason]:
    """Each place of a holding among the holdings of its sector."""
    text = case.trace.draft or ""
    folded = fold_aligned(text)
    if not any(w in folded for w in ("only", "sole", "lone", "single", "únic", "larg", "bigg",
                                     "small", "top", "best", "worst", "mayor", "menor", "mejor",
                                     "peor")):  # fmt: skip
        return
    for m in _place().finditer(folded):
        said = text[m.start() : m.end()]
        listed = _every_position(case)
        if listed is None or m.group("rank"):
            yield Reason(
                rule=ReasonCode.UNVERIFIED_CLAIM,
                message=f'"{said}" places a holding among its sector\'s holdings, but no result '
                "lists every position of the portfolio with its sector",
                span=m.span(),
            )
            continue
        sector = _sector_of(m.group("sector"))
        alike = [p for p in listed if str(p.get("sector") or "").casefold() == sector]
        if len(alike) == 1:
            case.bound.append(m.span())
            continue
        yield Reason(
            rule=ReasonCode.WRONG_RELATION,
            message=f'"{said}", but the portfolio holds {len(alike)} positions of that sector',
            span=m.span(),
        )


def _sector_of(name: str) -> str:
    for english, spanish in SECTORS_ES.items():
        if name == english or name in spanish:
            return english
    return name


def _every_position(case: Case) -> list[dict[str, Any]] | None:
    """The positions of a result that lists the whole portfolio with sectors, else None."""
    for event in case.trace.events:
        result = event.result
        if not isinstance(result, dict):
            continue
        positions = result.get("positions")
        count = result.get("positions_count")
        if (
            isinstance(positions, list)
            and isinstance(count, int)
            and len(positions) == count
            and all(isinstance(p, dict) and p.get("sector") for p in positions)
        ):
            return positions
    return None

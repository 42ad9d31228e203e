"""Rank lists: the day's top contributors, detractors, best and worst movers said as a list of
tickers ("Top contributors: FSA, WED and HEX", "los mayores lastres, YDLJ y BGBO"), or one
ticker at the head of one ("FSA leading the contributor list", "OEE fue el mayor
contribuidor").

Each list is the answer's own `get_portfolio_ranks` result (`top_contributors`, `detractors`,
`top_movers`, `bottom_movers`, best first). Every ticker said in a list must be in it, a ticker
said to head it must be its first; that covers the label's words for the closed-world rule, and
a ticker the list does not hold is `wrong_relation`. A label with no ticker beside it, or in an
answer without ranks, stays uncovered: `unverified_claim` rejects it.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import cache
from typing import Any

from contract.reasons import ReasonCode
from verifier.claim import Claim
from verifier.lexicon import alternatives, grouped
from verifier.rules.case import Case
from verifier.rules.draft_scan import folded_of, scan_of
from verifier.rules.relations import own_ranks
from verifier.scanner import PhraseScan
from verifier.verdict import Reason

LISTS = {
    "contributors": "top_contributors",
    "detractors": "detractors",
    "gainers": "top_movers",
    "decliners": "bottom_movers",
}
"""The ranks' list each label names."""
_JOIN = re.compile(
    r"[\s:,—–*_-]*(?:(?:were|are|was|is|fueron|son|fue|es|the|los|las|el|la|included|including|"
    r"incluyen|incluyeron|today|hoy|in\s+order|en\s+orden|best\s+first)[\s:,—–*_-]+)*"
)
"""What may stand between a label and its first ticker ("Top contributors were FSA")."""
_OWNER = re.compile(
    r"(?:of|in|for|de|en|del)\s+(?:the\s+|la\s+|el\s+|su\s+|its\s+)?(?:(?:portfolio|cartera|book|"
    r"fondo|portafolio)(?:\s+p\d{3,})?|p\d{3,})"
    r"(?:\s+(?:on|el|del|for)\s+(?:\d{1,2}\s+de\s+[a-záéíóú]+(?:\s+de\s+\d{4})?|[a-z]+\s+\d{1,2}"
    r"(?:,?\s+\d{4})?|\d{4}-\d\d-\d\d))?(?=[\s:,—–*_-])"
)
"""The portfolio a list is of, and its day, between the label and the list ("de la cartera P002
el 31 de diciembre")."""
_ORDERED = re.compile(r"order|orden|first")
"""Words of the join that say the list is in the ranks' order ("in order", "best first")."""
_NEXT = re.compile(r"[\s,*_]*(?:(?:and|y|e|&|plus)[\s,*_]+)?[\s,*_]*")
"""What may stand between two tickers of one list."""
_IS = re.compile(r"[\s,]*(?:was|is|as|fue|es|como|being|siendo)?\s*(?:the|el|la|its|su)?\s*$")
"""What may stand between a ticker and the label of the place it holds ("OEE was the top
contributor", "OEE fue el mayor contribuidor")."""


@cache
def _labels() -> PhraseScan:
    return PhraseScan(grouped("rank_lists"))


@cache
def _lead() -> re.Pattern[str]:
    return re.compile(
        rf"\s+(?:(?:was|is|were|are|fue|es|está|estaba)\s+)?(?:{alternatives('list_lead')})\s+$"
    )


def check_rank_lists(case: Case) -> Iterator[Reason]:
    """Each list or head of a list the draft names, against the answer's own ranks."""
    folded = folded_of(case)
    labels = _labels().finditer(folded)
    if not labels:
        return
    scan = scan_of(case)
    ranks = own_ranks(case, scan.results)
    if ranks is None:
        return
    text, tickers = scan.text, scan.tickers
    for m in labels:
        group = m.lastgroup or ""
        first = group.startswith("first_")
        listed = ranks.get(LISTS[group.removeprefix("first_")])
        if not isinstance(listed, list):
            continue
        head = _head(folded, m, tickers) or _led_by(folded, m, tickers)
        said = [head] if head is not None else ([] if first else _listed_after(folded, m, tickers))
        if not said and first:
            said = _listed_after(folded, m, tickers)[:1]
        if not said:
            continue
        wanted = listed[:1] if first or head is not None else listed
        wrong = [t for t in said if t.symbol not in wanted]
        join = _JOIN.match(folded, m.end())
        ordered = head is None and join is not None and bool(_ORDERED.search(join.group()))
        if ordered and join is not None:
            case.bound.append(join.span())  # "in order": each ticker at its own place
            wrong = [t for i, t in enumerate(said) if i >= len(listed) or listed[i] != t.symbol]
        case.bound.append(m.span())
        if head is not None:
            case.bound.append((min(head.end, m.end()), max(head.start, m.start())))  # "leading the"
        if not wrong:
            continue
        where = "first in" if wanted is not listed else "in that order in" if ordered else "in"
        yield Reason(
            rule=ReasonCode.WRONG_RELATION,
            message=(
                f'"{text[m.start() : m.end()]}" puts {", ".join(t.symbol for t in wrong)} {where} '
                f"the {LISTS[group.removeprefix('first_')]} of portfolio "
                f"{ranks.get('portfolio_id')}, but the trace has {_shown(listed)}"
            ),
            span=(min(m.start(), *(t.start for t in wrong)), max(m.end(), *(t.end for t in wrong))),
        )


def _head(folded: str, m: re.Match[str], tickers: list[Claim]) -> Claim | None:
    """The ticker said to head the list: "FSA leading the contributor list", "OEE was the top
    contributor"."""
    before = [t for t in tickers if t.end <= m.start() and m.start() - t.end <= 40]
    if not before:
        return None
    last = before[-1]
    gap = folded[last.end : m.start()]
    if _lead().fullmatch(" " + gap.lstrip(" ,")) or (
        (m.lastgroup or "").startswith("first_") and _IS.fullmatch(gap)
    ):
        return last
    return None


_LED_BY = re.compile(
    r"[\s,]*(?:(?:were|are|was|is|fueron|son|fue|es|estuvieron|están)\s+)?(?:led|headed|topped|"
    r"encabezad[oa]s?|liderad[oa]s?)\s+(?:by|por)\s+"
)
"""A list said to be headed by a ticker after its label ("the detractors were led by XMQ",
"los lastres, encabezados por YDLJ")."""


def _led_by(folded: str, m: re.Match[str], tickers: list[Claim]) -> Claim | None:
    """The ticker a list is said to be led by, right after its label."""
    led = _LED_BY.match(folded, m.end())
    if led is None:
        return None
    return next((t for t in tickers if t.start == led.end()), None)


def _listed_after(folded: str, m: re.Match[str], tickers: list[Claim]) -> list[Claim]:
    """The tickers named one after another right after the label; a portfolio and a day may
    stand between ("Principales contribuidores de la cartera P002 el 31 de diciembre: FSA, WED,
    HEX"): another portfolio than the answer's is `wrong_subject` (`other_portfolios`)."""
    at = _JOIN.match(folded, m.end())
    pos = at.end() if at else m.end()
    owner = _OWNER.match(folded, pos)
    if owner is not None:
        at = _JOIN.match(folded, owner.end())
        pos = at.end() if at else owner.end()
    found: list[Claim] = []
    for t in tickers:
        if t.start < pos:
            continue
        if t.start != pos:
            break
        found.append(t)
        joined = _NEXT.match(folded, t.end)
        pos = joined.end() if joined else t.end
    return found


def _shown(listed: list[Any]) -> str:
    return ", ".join(str(x) for x in listed) or "none"

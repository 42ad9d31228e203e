"""Tallies written as a pair of labels and a pair of counts: "Gainers / decliners: 7 / 12 of
19", "Up/down: 5/5", "Suben / bajan: 7 / 18 de 25". Each count is the label's in the ranks of
the answer's own portfolio, in the order written, and the total its positions; a pair that
holds covers its labels, one that does not is `wrong_relation`.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Iterator

from contract.reasons import ReasonCode
from verifier.rules.case import Case
from verifier.rules.draft_scan import scan_of
from verifier.rules.relations import own_ranks
from verifier.verdict import Reason

_UP = r"gainers|advancers|winners|risers|up|higher|alcistas|suben|subieron|al\s+alza|en\s+verde"
_DOWN = (
    r"decliners|losers|fallers|decliners|down|lower|bajistas|bajan|bajaron|a\s+la\s+baja|en\s+rojo"
)
_TALLY = re.compile(
    rf"(?<!\w)(?:(?P<up_first>{_UP})\s*/\s*(?:{_DOWN})|(?P<down_first>{_DOWN})\s*/\s*(?:{_UP}))"
    r"\s*[:=]?\s*(?:\*\*)?\s*(?P<a>\d{1,4})\s*/\s*(?P<b>\d{1,4})"
    r"(?:\s+(?:of|de|out\s+of)\s+(?P<n>\d{1,4}))?(?!\w)"
)


_ONE = re.compile(
    r"(?<!\w)(?:(?P<up>gainers|advancers|risers|suben|subieron|avanzan|avanzaron)|"
    r"(?P<down>decliners|fallers|bajan|bajaron|caen|cayeron|retroceden|retrocedieron)|"
    r"(?P<unchanged>unchanged|sin\s+cambios))"
    r"\s*(?:\*\*)?\s*[:=]?\s*(?:\*\*)?\s*(?P<n>\d{1,4})(?![\d%]|[.,]\d)"
    r"(?:\s+(?:valores|posiciones|títulos|positions|stocks|names|holdings))?"
)
"""One labelled count ("Suben: 7", "bajaron 12", "Decliners: 18 "): the label's count in the
ranks of the answer's own portfolio."""
_KEYS = {"up": "gainers", "down": "decliners", "unchanged": "unchanged"}


def check_tallies(case: Case) -> Iterator[Reason]:
    """Each pair of labelled counts, and each labelled count, held against the portfolio's
    ranks."""
    scan = scan_of(case)
    pairs = [m.span() for m in _TALLY.finditer(scan.folded)] if "/" in scan.folded else []
    for m in _ONE.finditer(scan.folded):
        if any(a <= m.start() < b for a, b in pairs):
            continue  # "Gainers / decliners: 7 / 12": the pair's
        ranks = own_ranks(case, scan.results)
        if ranks is None:
            break
        key = next(_KEYS[g] for g in _KEYS if m.group(g))
        case.bound.append(m.span())
        if ranks.get(key) == int(m.group("n")):
            continue
        yield Reason(
            rule=ReasonCode.WRONG_RELATION,
            message=(
                f'"{scan.text[m.start() : m.end()]}": portfolio {ranks.get("portfolio_id")} had '
                f"{ranks.get(key)} {key}"
            ),
            span=m.span(),
        )
    if "/" not in scan.folded:
        return
    for m in _TALLY.finditer(scan.folded):
        ranks = own_ranks(case, scan.results)
        if ranks is None:
            return
        a, b = int(m.group("a")), int(m.group("b"))
        up, down = (a, b) if m.group("up_first") else (b, a)
        whole = m.group("n")
        held = ranks.get("gainers") == up and ranks.get("decliners") == down
        if whole is not None:
            held = held and ranks.get("positions_count") == int(whole)
        case.bound.append(m.span())
        if held:
            continue
        yield Reason(
            rule=ReasonCode.WRONG_RELATION,
            message=(
                f'"{scan.text[m.start() : m.end()]}": portfolio {ranks.get("portfolio_id")} had '
                f"{ranks.get('gainers')} gainers and {ranks.get('decliners')} decliners of "
                f"{ranks.get('positions_count')} positions"
            ),
            span=m.span(),
        )


_ONLY = re.compile(
    r"(?<!\w)(?:the\s+only\s+(?:holding|position|stock|name|one)(?:\s+in\s+(?:the\s+)?(?:portfolio|"
    r"book|fund|p\d+))?\s+(?:to\s+|that\s+|which\s+)?(?:(?P<up>rise|rose|gain(?:ed)?|advanced?|"
    r"(?:close|closed|finish|finished|end|ended)\s+higher|in\s+the\s+green|up|higher)|"
    r"(?P<down>fall|fell|declined?|drop(?:ped)?|lose|lost|(?:close|closed|finish|finished|end|ended)"
    r"\s+lower|in\s+the\s+red|down|lower))"
    r"|(?:el|la)\s+únic[oa]\s+(?:valor|posición|acción|título|componente)(?:\s+de\s+(?:la\s+)?"
    r"cartera|\s+de\s+p\d+)?\s+(?:(?P<up_es>en\s+verde|en\s+positivo|al\s+alza|que\s+subió|con\s+"
    r"ganancias)|(?P<down_es>en\s+rojo|en\s+negativo|a\s+la\s+baja|que\s+(?:bajó|cayó)|con\s+"
    r"pérdidas)))(?!\w)"
)
"""A holding said to be the only one of its portfolio that rose or fell ("the only holding in
the red", "el único valor de la cartera en rojo")."""


def check_only_movers(case: Case) -> Iterator[Reason]:
    """Each holding said to be the only one that rose (or fell): its portfolio had one gainer
    (or decliner), and the holding moved that way."""
    scan = scan_of(case)
    if "only" not in scan.folded and "únic" not in scan.folded:
        return
    for m in _ONLY.finditer(scan.folded):
        up = bool(m.group("up") or m.group("up_es"))
        ranks = own_ranks(case, scan.results)
        said = scan.text[m.start() : m.end()]
        key = "gainers" if up else "decliners"
        if ranks is None or not isinstance(ranks.get(key), int):
            yield _unranked(f'"{said}" counts the {key}', m.span())
            continue
        own = [r for r in ranks.get("positions") or () if isinstance(r, dict)]
        moved = [
            r.get("day_return_pct") for r in own if isinstance(r.get("day_return_pct"), int | float)
        ]
        same_way = all((value > 0) == up for value in moved if value)
        case.bound.append(m.span())
        if ranks[key] == 1 and same_way:
            continue
        yield Reason(
            rule=ReasonCode.WRONG_RELATION,
            message=(
                f'"{said}": portfolio {ranks.get("portfolio_id")} had {ranks[key]} {key}'
                + ("" if same_way else ", and this holding moved the other way")
            ),
            span=m.span(),
        )


_ONE_OF = re.compile(
    r"(?<!\w)(?:one\s+of|among|uno\s+de|una\s+de|entre)\s+(?:the\s+|its\s+|los\s+|las\s+|sus\s+)?"
    r"(?P<n>\d{1,4})\s+(?:positions|holdings|posiciones|valores|títulos|names|stocks)"
    r"(?!\w|\s+(?:que|al|a\s+la|en\s+(?:verde|rojo)|(?:with|that|which)\b))"
)
"""A holding said to be one of its portfolio's N positions ("one of 19 positions in P003", "uno
de los 25 valores de la cartera")."""


def check_positions_counted(case: Case) -> Iterator[Reason]:
    """A holding said to be one of N positions: N is its portfolio's `positions_count`, and the
    ranks hold the holding."""
    scan = scan_of(case)
    folded = scan.folded
    if not any(w in folded for w in ("one of", "among", "uno de", "una de", "entre")):
        return
    for m in _ONE_OF.finditer(folded):
        sentence = scan.starts[bisect_right(scan.starts, m.start()) - 1]
        before = [t for t in scan.tickers if sentence <= t.start and t.end <= m.start()]
        if not before:
            continue  # "one of 25 positions" of no holding: the count's field binds it
        holding, said = before[-1].symbol, scan.text[m.start() : m.end()]
        ranks = own_ranks(case, scan.results)
        if ranks is None or not isinstance(ranks.get("positions_count"), int):
            yield _unranked(f'"{said}" places {holding}', m.span())
            continue
        rows = [r for r in ranks.get("positions") or () if isinstance(r, dict)]
        case.bound.append(m.span())
        count = ranks["positions_count"]
        if int(m.group("n")) == count and any(r.get("ticker") == holding for r in rows):
            continue
        yield Reason(
            rule=ReasonCode.WRONG_RELATION,
            message=(
                f'"{holding} ... {said}" does not hold: portfolio {ranks.get("portfolio_id")} '
                f"had {count} positions"
                + (
                    ""
                    if any(r.get("ticker") == holding for r in rows)
                    else f", {holding} not among them"
                )
            ),
            span=(before[-1].start, m.end()),
        )


def _unranked(said: str, span: tuple[int, int]) -> Reason:
    """A count or a place said of a portfolio no result of the trace ranks."""
    return Reason(
        rule=ReasonCode.UNVERIFIED_CLAIM,
        message=f"{said} of a portfolio no result of the trace ranks",
        span=span,
    )

"""A share said in words between two figures the sentence names: "added 0.31%, nearly all of
P001's 0.52%", "slipped 0.16%, nearly all of its 5.37% weekly decline", "most of", "the bulk
of", "casi todo", "la mayor parte de". Every word of them may stand alone ("nearly", "all",
"of"), so the closed world would let a wrong share pass; this rule recomputes the share from the
figure before the words and the one after them and holds it against the band the words name
(`wrong_relation` outside it). Words with no figure on either side stay `unverified_claim`.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Iterator

from contract.reasons import ReasonCode
from verifier.claim import Claim
from verifier.periods import sentence_starts
from verifier.rules.case import Case
from verifier.scanner import fold_aligned
from verifier.verdict import Reason

_SHARE = re.compile(
    r"(?<!\w)(?:"
    r"(?P<nearly>(?:nearly|almost|virtually|practically|close\s+to|casi|prácticamente)\s+"
    r"(?:all|the\s+(?:whole|entire|entirety|full\s+amount)|the\s+entirety|todo|toda|la\s+totalidad))"
    r"|(?P<most>(?<!the\s)most|the\s+bulk|the\s+lion['’]s\s+share|la\s+mayor\s+parte|el\s+grueso|la\s+mayoría)"
    r"|(?P<all>all|the\s+whole|the\s+entirety|todo|toda|la\s+totalidad)"
    r")\s+(?:of|de|del)(?!\w)"
)
_BANDS = {"nearly": (0.8, 1.0), "most": (0.5, 1.0), "all": (0.97, 1.03)}
"""The share each kind of words says, as a ratio of the part to the whole (with the rounding of
two decimals the figures carry)."""
_GAP = 48
_AMOUNTS = frozenset({"percent", "money"})
"""What a share is of: a percentage or an amount, never a year or a count ("the entirety of
2020")."""
_MORE_THAN = re.compile(r"(?:more\s+than|over|beyond|más\s+que|más\s+de)\s+$")


def check_share_words(case: Case) -> Iterator[Reason]:
    """Each share said in words, recomputed from the figures around it."""
    text = case.trace.draft or ""
    folded = fold_aligned(text)
    if " of" not in folded and " de" not in folded:
        return
    figures = sorted(
        (f.claim for f in case.figures if f.claim.readings and f.claim.kind in _AMOUNTS),
        key=lambda c: c.start,
    )
    starts = sentence_starts(text)
    for m in _SHARE.finditer(folded):
        i = bisect_right(starts, m.start()) - 1
        lo, hi = starts[i], starts[i + 1] if i + 1 < len(starts) else len(text)
        whole = _next(figures, m.end())
        if whole is not None and re.search(r"(?<!\w)\d", text[m.end() : whole.start]):
            whole = None  # "the entirety of 2020 to be between $11,100 million": of the year
        alike = [c for c in figures if whole is None or c.kind == whole.kind]
        part = _last([c for c in alike if c.start >= lo], m.start())
        if part is None and whole is not None:  # "Nearly all of its 14.19% loss came in the
            part = next((c for c in alike if whole.end <= c.start < hi), None)  # quarter: 13.59%"
        if part is None or whole is None:
            if m.lastgroup != "all":  # "all of its news": no share, the other rules' words
                yield Reason(
                    rule=ReasonCode.UNVERIFIED_CLAIM,
                    message=f'"{text[m.start() : m.end()]}" says a share of something, but no '
                    "figure beside it says of what",
                    span=m.span(),
                )
            continue
        a, b = abs(_value(part)), abs(_value(whole))
        if b == 0:
            continue
        low, high = _BANDS[m.lastgroup or "all"]
        if _MORE_THAN.search(folded, max(m.start() - 12, 0), m.start()):
            low, high = high, float("inf")  # "more than all of P003's day gain": beyond it
        slack = 0.005 / b + 0.005 / max(a, 1e-9) * (a / b)  # the figures' own rounding
        ratio = a / b
        case.bound.append(m.span())
        if low - slack <= ratio <= high + slack:
            continue
        yield Reason(
            rule=ReasonCode.WRONG_RELATION,
            message=(
                f'"{text[m.start() : m.end()]}" says {part.text} is that share of {whole.text}, '
                f"but it is {ratio:.0%} of it"
            ),
            span=(part.start, whole.end),
        )


def _last(figures: list[Claim], at: int) -> Claim | None:
    before = [c for c in figures if c.end <= at and at - c.end <= _GAP]
    return before[-1] if before else None


def _next(figures: list[Claim], at: int) -> Claim | None:
    after = [c for c in figures if c.start >= at and c.start - at <= _GAP]
    return after[0] if after else None


def _value(claim: Claim) -> float:
    return claim.readings[0].value * claim.scale

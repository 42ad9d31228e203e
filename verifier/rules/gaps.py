"""A gap between two figures: "a gap of -0.33 percentage points", "una diferencia de 0,33
puntos", "a spread of 3.71". The figure after the word is the difference of two figures its
sentence names, recomputed here at the precision shown; that its value also stands somewhere in
the trace is no evidence (a position's return of -1.47% is not the gap between -0.90% and
-0.57%). One that holds covers its word; one that does not is `wrong_relation`; a gap with fewer
than two figures of its kind beside it stays as the closed world finds it.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Iterator

from contract.reasons import ReasonCode
from verifier.claim import BENCHMARK_SUBJECT, PORTFOLIO_SUBJECT, Claim, subject_words
from verifier.rules.case import Case, Finding
from verifier.rules.derived import DERIVED, operand_sentences, signed_amount
from verifier.rules.draft_scan import scan_of
from verifier.trace_facts import make_fact
from verifier.verdict import Reason

_GAP = re.compile(
    r"(?<!\w)(?:gap|spread|difference|margin|brecha|diferencia|distancia|margen)"
    r"(?:\s+(?:to|from|with|against|respecto\s+al?|frente\s+al?|con)\s+(?:the\s+|el\s+|la\s+)?"
    r"(?:benchmark|index|bmk|market|portfolio|índice|referencia|cartera)"
    r"(?:\s+(?:was|is|came\s+to|stood\s+at|fue|es))?)?"  # "its gap to the benchmark was"
    r"(?:\s+(?:of|de|del))?"
    r"(?:\s+(?:just|only|about|roughly|solo|apenas|unos|unas))?\s*$"
)
_GAP_BETWEEN = re.compile(
    r"(?<!\w)(?:gap|spread|difference|margin|brecha|diferencia|distancia)\s+(?:between|entre)\s"
    r"[^;]{0,160}?\s(?:is|was|comes\s+to|stands\s+at|of|es|fue|de)\s*(?:just|only|about|roughly)?\s*$"
)
"""A gap named before the two figures it is between ("the gap between X's quarterly
performance (-1.29%) and its year-to-date figure (29.82%) is 31.11 pp")."""
_AHEAD = re.compile(
    r"\s*(?:(pp|percentage\s+points?|points?|pts|puntos(?:\s+porcentuales)?)\s+)?"
    r"(?:de\s+diferencia\s+)?(?:ahead(?:\s+of)?|behind|above|below|over|under|"
    r"por\s+(?:encima|debajo)(?:\s+del?)?|"
    r"a\s+(?:tu|su|vuestro|nuestro)\s+favor|en\s+contra)(?:\s+(?:it|them|él))?(?!\w)"
)
"""A gap said by where the first figure stands against the second ("1.09 pp ahead of it",
"quedó 0,33 puntos por encima")."""
_BY = re.compile(
    r"(?<!\w)(?:ahead|behind|above|below|beat|beating|outperform\w*|underperform\w*|trail\w*|"
    r"lag\w*|superó|supera|quedó|queda|encima|debajo|detrás)(?!\w)[^.;:\d]{0,30}?\s(?:by|en|por)\s+"
    r"(?:(?:just|only|about|roughly|some|solo|apenas|unos|unas|almost|nearly|close\s+to|"
    r"under|over|(?:more|less)\s+than|casi|cerca\s+de|(?:más|menos)\s+de)\s+){0,2}$"
)
"""A comparison whose size follows it ("behind the benchmark by 0.33 points", "superó al índice
por 0,33 puntos"): the figure is the gap of the two it compares, not a value to look up."""
_REACH = 40
_POINTS = re.compile(r"\s*(?:points|pts|puntos)(?!\w)")
"""A gap of two percentages in bare points ("a gap of -0.33 points")."""


def check_gaps(case: Case) -> Iterator[Reason]:
    """Each figure named as a gap, held as the difference of two figures of its sentence."""
    scan = scan_of(case)
    folded, starts = scan.folded, scan.starts
    if not any(
        word in folded
        for word in ("gap", "spread", "differ", "diferencia", "distancia", "margin", "brecha",
                     "margen", "ahead", "behind", "above", "below", "encima", "debajo", "favor",
                     "contra", "beat", "perform", "trail", "lag", "super", "qued", "detrás")
    ):  # fmt: skip
        return
    for f in case.figures:
        claim = f.claim
        sentence = bisect_right(starts, claim.start) - 1
        m = _GAP.search(folded, max(claim.start - _REACH, 0), claim.start)
        m = m or _GAP_BETWEEN.search(folded, starts[sentence], claim.start)
        m = m or _points_ahead(folded, claim)
        m = m or _BY.search(folded, max(claim.start - _REACH - 20, 0), claim.start)
        if m is None or not claim.readings:
            continue
        others = _operands(case, f, folded, starts)
        if len(others) < 2:
            if m.re is _BY and (said := _said_gap(case, f, m)) is not None and not said[0]:
                yield said[1]  # "It beat the benchmark by 1.90 points": not their gap
            continue
        if m.re is _AHEAD:  # "1.09 pp ahead of it": the gap and which side the first is on
            word = (m.end() - len(m.group().lstrip()), m.end())
            sized = _difference(claim, others[:2])
            if sized and _on_its_side(m, others):
                case.bound.append(word)
                continue
            if not sized:
                yield _wrong(f, others[:2], word)
                continue
            a, b = others[0].text, others[1].text
            yield Reason(
                rule=ReasonCode.WRONG_RELATION,
                message=(
                    f'"{m.group().strip()}" puts {a} on the wrong side of {b}: the gap is '
                    f"{claim.text} the other way"
                ),
                span=(claim.start, m.end()),
            )
            continue
        word = (m.start(), m.start() + len(m.group().split()[0]))
        pair = _pair(claim, others)
        if pair and m.re is _BY and (side := _SIDE.search(m.group())):
            higher = side.lastgroup == "above"  # "beating it by 0.33": the first is the higher
            if (signed_amount(pair[0]) > signed_amount(pair[1])) != higher:
                yield Reason(
                    rule=ReasonCode.WRONG_RELATION,
                    message=(
                        f'"{m.group().strip()} {claim.text}" puts {pair[0].text} '
                        f"{'above' if higher else 'below'} {pair[1].text}, and it is not"
                    ),
                    span=(m.start(), claim.end),
                )
                continue
            word = (m.start(), m.start() + side.end())  # "quedó por debajo": through its side
        if pair:
            case.bound.append(word)
            continue
        yield _wrong(f, others, word)


_COMPARATOR = re.compile(
    r"(?P<benchmark>benchmark|index|universe|market|índice|referencia|universo|mercado)|"
    r"(?P<portfolio>portfolio|book|fund|cartera|p\d{3,})"
)
_PORTFOLIO_SAID = re.compile(
    r"(?<!\w)(?:the\s+portfolio|the\s+book|the\s+fund|la\s+cartera|p\d{3,})(?!\w)"
)
_PORTFOLIO_OPENS = re.compile(
    r"[\s*_]*(?:the\s+portfolio|the\s+book|the\s+fund|la\s+cartera|p\d{3,})(?!\w)"
)
_OWN_KEYS = ("pnl_pct", "day_return_pct")
_PRONOUN = re.compile(r"[\s*_]*(?:it|its|it's|it’s|ella|se)(?!\w)")
"""A sentence that opens on a pronoun: its subject is the one the sentence before opened on."""


def derive_gaps(case: Case) -> None:
    """Support a gap said with its comparison and no figures to take it from ("It beat the
    benchmark by 2.47 points"): the difference of the two subjects' day returns the results
    hold, on the side the verb puts them (`_said_gap`)."""
    folded = scan_of(case).folded
    if not any(
        w in folded
        for w in ("beat", "perform", "trail", "lag", "ahead", "behind", "super", "above", "below",
                  "encima", "debajo")
    ):  # fmt: skip
        return
    starts = scan_of(case).starts
    for f in case.figures:
        if f.wrong and (ahead := _points_ahead(folded, f.claim)) is not None:
            others = _operands(case, f, folded, starts)  # "-2.04%, 2.04 pp below 0.00%"
            if (
                len(others) >= 2
                and _difference(f.claim, others[:2])
                and _on_its_side(ahead, others)
            ):
                f.in_scope = [make_fact(abs(signed_amount(f.claim)), DERIVED, "", "gap", None, True,
                                        False, -1, None)]  # fmt: skip
                f.supported_by, f.wrong, f.held = [DERIVED], "", []
            continue
        m = _BY.search(folded, max(f.claim.start - _REACH - 20, 0), f.claim.start)
        if m is None or not f.claim.readings:
            continue  # a gap that holds is that gap, whatever other value of the trace it equals
        said = _said_gap(case, f, m)
        if said is not None and said[0]:
            f.in_scope = [make_fact(abs(said[2]), DERIVED, "", "gap", None, True, False, -1, None)]
            f.supported_by, f.wrong, f.held = [DERIVED], "", []


def _said_gap(case: Case, f: Finding, m: re.Match[str]) -> tuple[bool, Reason, float] | None:
    """Whether a figure after "beat/lagged/outperformed ... by" is the gap between the day
    returns of the two subjects its words name (the holding or the portfolio, and the benchmark
    or the portfolio), on the side its verb says; None where the words name no comparator or
    the results hold no return for one of the two."""
    folded = scan_of(case).folded
    claim = f.claim
    named = _COMPARATOR.search(folded, m.start(), claim.start)
    if named is None:
        return None
    comparator = named.lastgroup or ""
    starts = scan_of(case).starts
    lo = starts[bisect_right(starts, m.start()) - 1]
    before = starts[max(bisect_right(starts, m.start()) - 2, 0)]
    if comparator == "benchmark" and (
        _PORTFOLIO_SAID.search(folded, lo, m.start())
        or (_PRONOUN.match(folded, lo) and _PORTFOLIO_OPENS.match(folded, before))
    ):  # "The portfolio fell 0.90%; it beat the benchmark by ...": the portfolio's
        subject = PORTFOLIO_SUBJECT
    else:
        symbols = sorted(claim.scope - {PORTFOLIO_SUBJECT, BENCHMARK_SUBJECT}) or sorted(
            {x.ticker for x in case.evidence.facts if x.key in _OWN_KEYS and x.ticker}
        )  # "It lagged the portfolio by 2.03 points": the one holding the answer is about
        if len(symbols) != 1:
            return None
        subject = symbols[0]
    mine, theirs = _day_return(case, subject), _day_return(case, comparator)
    if mine is None or theirs is None:
        return None
    gap = mine - theirs
    side = _SIDE.search(m.group())
    per = 0.01 if claim.unit == "bps" else 1.0  # "by 23 basis points": 0.23 points
    hedge = _HEDGE_SIDE.search(m.group())
    sized = any(
        _sized(
            abs(gap),
            r.value * claim.scale * per,
            0.5 * 10.0**-r.decimals * claim.scale * per,
            hedge,
        )
        for r in claim.readings
    )
    sided = side is None or (gap > 0) == (side.lastgroup == "above")
    reason = Reason(
        rule=ReasonCode.WRONG_RELATION,
        message=(
            f'"{m.group().strip()} {claim.text}" is the gap of {subject_words([subject])}\'s day '
            f"return ({mine:+g}%) and {subject_words([comparator])}'s ({theirs:+g}%), which is "
            f"{gap:+.2f} points"
        ),
        span=(m.start(), claim.end),
    )
    if sized and sided and side is not None:
        case.bound.append((m.start(), m.start() + side.end()))
    return sized and sided, reason, gap


_HEDGE_SIDE = re.compile(
    r"(?P<under>almost|nearly|just\s+under|under|less\s+than|casi|menos\s+de)\s+$|"
    r"(?P<over>over|more\s+than|más\s+de)\s+$"
)


def _sized(gap: float, said: float, half: float, hedge: re.Match[str] | None) -> bool:
    """Whether a gap is the size said: within half a unit of the precision shown, or short of
    it ("almost 2 points": above 1.6 and not above 2) or beyond it ("more than 1.9 points")."""
    if hedge is None:
        return abs(gap - said) <= half * (1 + 1e-9)
    if hedge.lastgroup == "under":
        return 0.8 * said <= gap < said
    return gap > said


def _day_return(case: Case, subject: str) -> float | None:
    """The day return the results hold for a holding, the portfolio or the benchmark."""
    facts = case.evidence.facts
    if subject in ("portfolio", PORTFOLIO_SUBJECT):
        found = [x for x in facts if x.key == "portfolio_return_pct"]
    elif subject in ("benchmark", BENCHMARK_SUBJECT):
        found = [x for x in facts if x.ticker == BENCHMARK_SUBJECT and x.key == "return_pct"]
    else:
        found = [x for x in facts if x.ticker == subject and x.key in _OWN_KEYS]
    values = {x.value for x in found}
    return values.pop() if len(values) == 1 else None


def _operands(case: Case, f: Finding, folded: str, starts: list[int]) -> list[Claim]:
    """The checked figures of the gap's sentence (or the one it points back at) in its unit:
    what the gap may be the difference of."""
    claim = f.claim
    unit = claim.unit or ("%" if _POINTS.match(folded, claim.end) else "")
    own = operand_sentences(folded, starts, bisect_right(starts, claim.start) - 1)
    return [
        g.claim
        for g in case.figures
        if g is not f
        and g.in_scope
        and g.claim.readings
        and bisect_right(starts, g.claim.start) - 1 in own
        and bool(g.claim.unit) == bool(unit)
    ]


def _on_its_side(m: re.Match[str], others: list[Claim]) -> bool:
    """Whether "ahead"/"below" puts the first of the two figures on the side it stands."""
    above = re.match(r"\s*(?:\S+\s+)*?(?:ahead|above|over|por\s+encima|a\s+\w+\s+favor)", m.group())
    ahead = others[0] if above else others[1]  # the one the sentence puts first
    return (signed_amount(others[0]) > signed_amount(others[1])) == (ahead is others[0])


def _points_ahead(folded: str, claim: Claim) -> re.Match[str] | None:
    """ "1.09 pp ahead of it", "0,33 puntos de diferencia en contra": a side said of a figure in
    percentage points only ("$125 million above prior guidance" measures from what the sentence
    may not name)."""
    m = _AHEAD.match(folded, claim.end)
    if m is None:
        return None
    points = claim.points or re.search(r"(?:pp|pts?|points?)$", claim.text.casefold())
    return m if points or m.group(1) else None


def _difference(claim: Claim, others: list[Claim]) -> bool:
    return _pair(claim, others) is not None


def _pair(claim: Claim, others: list[Claim]) -> tuple[Claim, Claim] | None:
    """The first two figures, in the order the text names them, whose difference is the gap."""
    for i, a in enumerate(others):
        for b in others[i + 1 :]:
            gap = abs(signed_amount(a) - signed_amount(b))
            for r in claim.readings:
                half = 0.5 * 10.0**-r.decimals * claim.scale
                if abs(gap - abs(r.value) * claim.scale) <= half * (1 + 1e-9):
                    return a, b
    return None


_SIDE = re.compile(
    r"(?P<above>ahead|above|beat\w*|outperform\w*|superó|supera|encima)|"
    r"(?P<below>behind|below|underperform\w*|trail\w*|lag\w*|debajo|detrás)"
)
"""The side a comparison puts the first of its two figures on ("beating it by", "lagged by");
"quedó ... por" says none."""


def _wrong(f: Finding, others: list[Claim], word: tuple[int, int]) -> Reason:
    pairs = ", ".join(f"{a.text} - {b.text}" for i, a in enumerate(others) for b in others[i + 1 :])
    return Reason(
        rule=ReasonCode.WRONG_RELATION,
        message=(
            f'"{f.claim.text}" is named a gap, but no difference of the figures its sentence '
            f"names gives it ({pairs})"
        ),
        span=(word[0], f.claim.end),
    )

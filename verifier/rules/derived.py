"""Derived figures: a figure computed from figures its own sentence names is supported when the
program, computing it again, gets it at the precision shown.

"From 283.43 to 287.14, a gain of 3.71", "224,256.34 of a 934,156.74 book, about 24%": the
writer did arithmetic, and the verifier redoes it. Only the operands the sentence states and
the trace supports may be used, and only one operation on two of them: a sum, a difference, a
product, a ratio, a share of a total in percent, a change in percent. A figure whose operands
the sentence does not name stays unsupported: a chance match among the hundreds of values a
trace holds is no evidence (verifier/README.md gives the rate of chance matches on random
figures, which `tests/verifier/test_derived.py` measures).

A count of days to a date the sentence names ("el lunes 13 de enero, dentro de 13 días", "on
2025-01-24, in 24 days") is the calendar days from the report date (`as_of`) to that date.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Iterator
from datetime import date

from verifier.claim import Claim
from verifier.periods import sentence_starts
from verifier.rules.case import Case, Finding
from verifier.times import times_agree
from verifier.trace_facts import FROM_JSON, make_fact

DERIVED = "derived"
"""The event id a derived figure is supported by."""


def derive_figures(case: Case) -> None:
    """Support each unsupported figure that one operation on two supported figures of its
    sentence gives at the precision it shows."""
    text = case.trace.draft or ""
    counted = _COUNTED.search(text)
    if counted is not None:
        folded = text.casefold()
        for f in case.figures:
            if f.claim.readings and _counted_windows(folded, f.claim):
                f.in_scope = [
                    make_fact(_amount(f.claim), DERIVED, "", "count", None, False, False, -1, None)
                ]
                f.supported_by, f.wrong, f.held = [DERIVED], "", []
    if _TIMES_HINT.search(text):
        _multiples(case, text)
    loose = [f for f in case.figures if not f.in_scope and not f.wrong and not f.facts]
    if not loose:
        return
    starts = sentence_starts(text)
    supported = [f for f in case.figures if f.in_scope]
    for f in loose:
        if f.claim.field in _LEVEL_FIELDS:
            continue  # a close said is the trace's own: "from Monday's 1,055.72" is no sum
        sentence = bisect_right(starts, f.claim.start) - 1
        if _days_until(case, text, f.claim, starts, sentence) or _sessions_named(
            case, text, f.claim, starts, sentence
        ):
            f.in_scope = [
                make_fact(_amount(f.claim), DERIVED, "", "days", None, False, False, -1, None)
            ]
            f.supported_by = [DERIVED]
            continue
        own = operand_sentences(text, starts, sentence)
        operands = [
            g.claim
            for g in supported
            if bisect_right(starts, g.claim.start) - 1 in own and g.claim.readings
        ]
        points = bool(_POINTS.match(text, f.claim.end))
        whole = _share_whole(text, f.claim, operands)
        if _computed_change(case, f.claim):
            continue
        if (part := _part_of(text, f.claim, starts[sentence], operands)) is not None:
            how = part  # "moved 0.12; of that, -0.68 came on the day and 0.80 before": the rest
        elif whole is not None:  # "about 30% of the portfolio's -0.90% return": of that figure
            how = _share_of(f.claim, whole, operands)
        else:
            how = _per_share(text, f.claim, operands) if _PER_SHARE.match(text, f.claim.end) else ""
            how = how or _change_per_share(case, text, f.claim, starts, sentence)
            how = how or _derivation(f.claim, operands, points, _previous(supported))
        if how:
            f.in_scope = [
                make_fact(_amount(f.claim), DERIVED, "", how, None, True, False, -1, None)
            ]
            f.supported_by = [DERIVED]


_LEVEL_FIELDS = frozenset({"close", "previous_close"})
"""Fields of a price level: a level the trace does not hold is never a computation's."""
_CHANGE_PCT = re.compile(r"change_pct|pnl_pct|return_pct|day_return")


def _computed_change(case: Case, claim: Claim) -> bool:
    """A percentage said as a change ("down 0.68 (1.12%)") of a subject whose change in percent
    for that time a result computes: the result's figure is the change, and arithmetic on other
    figures of the sentence (0.68 / 60.97, on the wrong base) does not stand in for it."""
    if claim.unit != "%" or "%" not in claim.text or not (claim.direction or claim.sign):
        return False
    if not claim.scope:
        return False
    return any(
        f.percent
        and f.origin == FROM_JSON
        and f.ticker in claim.scope
        and _CHANGE_PCT.search(f.key)
        and times_agree(claim.time, f.span)
        for f in case.evidence.facts
    )


_PART_OF = re.compile(
    r"(?i)(?<!\w)(?:of\s+(?:that|this|which|it|the\s+total)|"
    r"de\s+(?:eso|esto|ello|ese\s+total|los\s+cuales|las\s+cuales|lo\s+cual))(?!\w)"
)


def _part_of(text: str, claim: Claim, sentence_start: int, operands: list[Claim]) -> str | None:
    """A figure said as the rest of a whole split into parts ("since 2024-12-24 it moved 0.12;
    of that, -0.68 came on the day and 0.80 before"): the whole named before "of that" less
    the parts named after it, and no other operation (a sum of the whole and a part is no
    rest). "" where it is not that; None where no split is said."""
    said = None
    for m in _PART_OF.finditer(text, sentence_start, claim.start):
        said = m
    if said is None:
        return None
    before = [c for c in operands if c.end <= said.start() and c.unit == claim.unit]
    parts = [
        c
        for c in operands
        if said.end() <= c.start and c.end <= claim.start and c.unit == claim.unit
    ]
    if not before or not parts:
        return None  # "of which ABXQ accounted for $1,304.79, or 6.0%": a share, not a rest
    whole = max(before, key=lambda c: c.end)
    rest = signed_amount(whole) - sum(signed_amount(c) for c in parts)
    value = rest if claim.sign or claim.direction else abs(rest)
    if any(_rounds_to(abs(value), r.value, r.decimals, claim.scale) for r in claim.readings) and (
        value * signed_amount(claim) >= 0 or not (claim.sign or claim.direction)
    ):
        return f"{whole.text} - " + " - ".join(c.text for c in parts)
    return ""


_ANAPHOR = re.compile(
    r"(?i)\s*(?:(?:that|this|which|it|eso|esto|ello|lo\s+que)\s+(?:is|was|equals|amounts|comes|"
    r"works|represents|means|equivale|supone|representa|es|son)|so|thus|hence|therefore|"
    r"in\s+other\s+words|put\s+differently|es\s+decir|o\s+sea|por\s+(?:lo\s+)?tanto|así\s+que|"
    r"entonces|en\s+otras\s+palabras)(?!\w)"
)
"""A sentence that opens by pointing at the one before ("That is 5.38% of the portfolio",
"So P002 was behind the benchmark by 0.33 points", "Eso equivale a alrededor del 59,7 %", "Es
decir, ..."), or a clause after a semicolon: its figures may be computed from that one's."""


def operand_sentences(text: str, starts: list[int], sentence: int) -> set[int]:
    """The sentences whose figures a figure of `sentence` may be computed from: its own, and the
    one before where it points back at it (`_ANAPHOR`) or follows it after a semicolon."""
    if sentence and (
        _ANAPHOR.match(text, starts[sentence]) or text[: starts[sentence]].rstrip().endswith(";")
    ):
        return {sentence - 1, sentence}  # "Eso equivale a ...", "So ...", "; ...": the one before
    return {sentence}


_COUNTED = re.compile(r"(?i)(?:of\s+the|de\s+l[ao]s)\s+(?:two|three|four|dos|tres|cuatro)(?!\w)")
"""Where a count of stated windows may stand at all ("of the two"), looked for once a draft."""


def _counted_windows(folded: str, claim: Claim) -> bool:
    """The count of "the larger of the two": held with its comparison by
    `verifier.rules.windows.check_window_comparatives`, which counts the windows stated."""
    from verifier.rules.windows import OF_N

    m = OF_N.search(folded, max(claim.start - 40, 0), claim.end)
    return m is not None and m.end() == claim.end


_THE_N_SESSIONS = re.compile(r"(?i)(?:the|these|those|both|los|las|estas|esas)\s+$")
_SESSIONS_AFTER = re.compile(
    r"(?i)\s+(?:trading\s+)?(?:sessions|days|sesiones|jornadas|días)(?!\w)"
)


def _sessions_named(case: Case, text: str, claim: Claim, starts: list[int], sentence: int) -> bool:
    """ "Across the two sessions in the data, HEXS eased from 405.00 on 2024-12-30 to 399.54 on
    2024-12-31": two sessions, where its own sentence dates two that a result states as a
    session and the one before it (two dates a week apart are more sessions than two)."""
    if claim.kind != "number" or not _SESSIONS_AFTER.match(text, claim.end):
        return False
    if not _THE_N_SESSIONS.search(text, max(claim.start - 8, 0), claim.start):
        return False
    lo = starts[sentence]
    hi = starts[sentence + 1] if sentence + 1 < len(starts) else len(text)
    days = {
        (year, month, day)
        for f in case.findings
        if f.claim.kind == "date" and f.supported_by and lo <= f.claim.start < hi
        for year, month, day in f.claim.dates[:1]
        if year is not None and day is not None
    }
    if len(days) != 2 or not any(r.value == 2 for r in claim.readings):
        return False
    first, last = sorted(days)
    said = (date(*first).isoformat(), date(*last).isoformat())
    return said in _adjacent_sessions(case)


def _adjacent_sessions(case: Case) -> set[tuple[str, str]]:
    """The pairs of sessions a result states as one session and the one before it."""
    return {
        (str(r["previous_session"])[:10], str(r["session"])[:10])
        for e in case.trace.events
        if isinstance(r := e.result, dict) and r.get("previous_session") and r.get("session")
    }


def signed_amount(claim: Claim) -> float:
    """The figure with the sign its text or its direction word gives it."""
    value = _amount(claim)
    return -abs(value) if claim.sign < 0 or claim.direction < 0 else value


def _amount(claim: Claim) -> float:
    return claim.readings[0].value * claim.scale


def _candidates(claim: Claim, a: Claim, b: Claim) -> Iterator[tuple[str, float]]:
    """What the claim may be computed as from `a` and `b`: sizes, except a relative change,
    which keeps its sign (a rise from the one to the other, or a fall)."""
    x, y = _amount(a), _amount(b)
    if claim.unit:
        if a.unit and b.unit:
            yield f"{a.text} - {b.text}", abs(x - y)
            yield f"{a.text} + {b.text}", abs(x + y)
            if x and y:  # "0.39% of a 0.52% return: three quarters of it"
                yield f"{a.text} / {b.text} x 100", abs(x / y * 100)
                yield f"{b.text} / {a.text} x 100", abs(y / x * 100)
        elif not a.unit and not b.unit and x and y:
            yield f"{a.text} / {b.text} x 100", abs(x / y * 100)
            yield f"{b.text} / {a.text} x 100", abs(y / x * 100)
            yield f"({a.text} - {b.text}) / {b.text} x 100", (x - y) / y * 100
            yield f"({b.text} - {a.text}) / {a.text} x 100", (y - x) / x * 100
        return
    if a.unit or b.unit:
        return
    yield f"{a.text} - {b.text}", abs(x - y)
    yield f"{a.text} + {b.text}", abs(x + y)
    yield f"{a.text} x {b.text}", abs(x * y)
    if x and y:
        yield f"{a.text} / {b.text}", abs(x / y)
        yield f"{b.text} / {a.text}", abs(y / x)


def _sign_of(a: Claim, b: Claim) -> int:
    """The sign of a ratio of the two operands, each with the sign its text gives it."""
    x, y = signed_amount(a), signed_amount(b)
    return 1 if (x >= 0) == (y >= 0) else -1


def _significant(claim: Claim) -> int:
    """The significant digits a figure shows ("3.71": 3, "$2 billion": 1, "0.30": 2)."""
    digits = "".join(ch for ch in claim.text if ch.isdigit()).lstrip("0")
    return len(digits)


_POINTS = re.compile(r"(?i)\s*(?:points|pts|puntos)(?!\w)")
"""A gap of two percentages written in bare points ("a gap of -0.33 points", "0,33 puntos")."""


def _previous(supported: list[Finding]) -> frozenset[int]:
    """The figures that are only ever a previous value (a previous close): a change is measured
    from them, never to them."""
    return frozenset(
        id(g.claim) for g in supported if all("previous" in fact.key for fact in g.in_scope)
    )


def _derivation(
    claim: Claim,
    operands: list[Claim],
    points: bool = False,
    previous: frozenset[int] = frozenset(),
) -> str:
    """How the claim is computed from two of the operands, or "" where no one operation
    gives it at the precision it shows. A figure of one significant digit ("$2 billion", "1%")
    is too coarse to tell a derivation from a chance match; one in words ("a twentieth") has
    the tolerance its wording carries (`verifier.grammar.number_words`)."""
    written = any(ch.isdigit() for ch in claim.text)
    if written and _significant(claim) < 2:
        return ""
    said = 1 if claim.sign > 0 or claim.direction > 0 else 0
    said = -1 if claim.sign < 0 or claim.direction < 0 else said
    for i, a in enumerate(operands):
        for b in operands[i + 1 :]:
            pairs = _candidates(claim, a, b)
            if points and not claim.unit and a.unit == b.unit == "%":
                pairs = iter([(f"{a.text} - {b.text}", abs(signed_amount(a) - signed_amount(b)))])
            for how, value in pairs:
                if how.startswith("(") and (
                    value * said < 0 or id(b if how.startswith(f"({b.text}") else a) in previous
                ):
                    continue  # said with the other sign, or measured to a previous value
                if said and "/" in how and not how.startswith("(") and _sign_of(a, b) != said:
                    continue  # "+0.43%" is no ratio of a -$0.34 change to its price
                if said and how == f"{a.text} - {b.text}" and _against_path(a, b, said, previous):
                    continue  # "rose 5.46 (405.00 → 399.54)": from the previous close, a fall
                value = abs(value)
                if any(_rounds_to(value, r.value, r.decimals, claim.scale) for r in claim.readings):
                    return how
    return ""


def _against_path(a: Claim, b: Claim, said: int, previous: frozenset[int]) -> bool:
    """Whether a change said with a direction runs against the path between its operands, where
    one of them is only ever a previous value: the change runs from that one to the other."""
    if (id(a) in previous) == (id(b) in previous):
        return False
    start, end = (a, b) if id(a) in previous else (b, a)
    return (signed_amount(end) - signed_amount(start)) * said < 0


_OF = re.compile(r"(?i)\s*(?:of|de|del)\s")
_SHARE_GAP = 48
_PRONOUN = re.compile(r"(?i)\s*(?:it|that|this|them|those|these|which|ello|eso|esto|ellos)(?!\w)")


def _share_whole(text: str, claim: Claim, operands: list[Claim]) -> Claim | None:
    """The figure a percentage is a share of ("22% of the portfolio's -0.90% return", "el 22 %
    de la caída de 0,90 %"): the next figure after "of", with no other number between. None
    where the percentage is of no figure ("9.59% of the book")."""
    if claim.unit != "%" or not (m := _OF.match(text, claim.end)):
        return None
    after = [c for c in operands if m.end() <= c.start <= m.end() + _SHARE_GAP]
    if not after:
        return None
    whole = min(after, key=lambda c: c.start)
    between = text[m.end() : whole.start]
    if _PRONOUN.match(between) or re.search(r"(?<!\w)\d|[—–;:,()\[\]]|\.\s", between):
        return None  # "three quarters of it — on a $3,628.84 gain": of what came before
    return whole


def _share_of(claim: Claim, whole: Claim, operands: list[Claim]) -> str:
    """How the share is computed: another figure of the sentence over the whole it is said of,
    in the same unit; no other operation counts, for the words say which one it is."""
    w = _amount(whole)
    if not w:
        return ""
    for a in operands:
        if a is whole or a.unit != whole.unit:
            continue
        value = abs(_amount(a) / w * 100)
        if any(_rounds_to(value, r.value, r.decimals, claim.scale) for r in claim.readings):
            return f"{a.text} / {whole.text} x 100"
    return ""


_PER_SHARE = re.compile(
    r"(?i)\s*(?:per\s+share|a\s+share|each|por\s+acci[oó]n|por\s+t[ií]tulo|cada\s+una)(?!\w)"
)
_SHARES = re.compile(r"(?i)\s*(?:shares|acciones|t[ií]tulos)(?!\w)")


def _per_share(text: str, claim: Claim, operands: list[Claim]) -> str:
    """An amount per share ("-29.76 over 992 shares is -0.03 per share", "equivale a -0,03 por
    acción"): an amount of the sentence over its count of shares, the one operation the words
    name, so even a figure of one significant digit is held to it; a sign it is said with is
    the amount's."""
    counts = [c for c in operands if not c.unit and _SHARES.match(text, c.end)]
    said = -1 if claim.sign < 0 or claim.direction < 0 else 0
    said = 1 if claim.sign > 0 or claim.direction > 0 else said
    for count in counts:
        for a in operands:
            if a is count or a.unit == "%" or not _amount(count):
                continue
            value = signed_amount(a) / _amount(count)
            if value * said >= 0 and any(
                _rounds_to(abs(value), r.value, r.decimals, claim.scale) for r in claim.readings
            ):
                return f"{a.text} / {count.text}"
    return ""


_PER_SHARE_SAID = re.compile(
    r"(?i)(?<!\w)(?:per\s+share|a\s+share|each(?:\s+share)?|por\s+acci[oó]n|por\s+t[ií]tulo|"
    r"cada\s+una|cada\s+acci[oó]n)(?!\w)"
)


def _change_per_share(case: Case, text: str, claim: Claim, starts: list[int], sentence: int) -> str:
    """A change said per share ("per share the move was 0.23", "varió -0,41 por acción") of a
    holding whose result gives its close and previous close but not their difference (a
    position's P&L result): the program computes it; the words name the one operation, so no
    other value of the trace stands in for it."""
    end = starts[sentence + 1] if sentence + 1 < len(starts) else len(text)
    near = _PER_SHARE_SAID.search(
        text, max(starts[sentence], claim.start - 40), min(end, claim.end + 30)
    )
    if near is None or claim.unit or not claim.readings:
        return ""
    closes: dict[tuple[str, str | None], dict[str, float]] = {}
    for fact in case.evidence.facts:
        if fact.key in ("close", "previous_close") and fact.origin == FROM_JSON:
            closes.setdefault((fact.event, fact.ticker), {})[fact.key] = fact.value
    said = (
        -1 if claim.sign < 0 or claim.direction < 0 else 1 if claim.sign or claim.direction else 0
    )
    for (_, ticker), pair in closes.items():
        if len(pair) < 2 or (claim.scope and ticker not in claim.scope):
            continue
        change = pair["close"] - pair["previous_close"]
        if change * said >= 0 and any(
            _rounds_to(abs(change), r.value, r.decimals, claim.scale) for r in claim.readings
        ):
            return f"close - previous_close of {ticker}"
    return ""


_TIMES_HINT = re.compile(r"(?i)times|\d[x×]|fold|veces")
_TIMES = re.compile(
    r"(?i)\s*(?:times|x|×|-?fold|veces)\s+(?:(?:as\s+\w+\s+as|that\s+of|the\s+size\s+of|"
    r"(?:larger|bigger|greater|más)\s+(?:than|que))\s+)?"
)


def _multiples(case: Case, text: str) -> None:
    """A figure said to be a multiple of the one after it ("about five times the portfolio's
    -0.90%", "2.3x the benchmark's -0.57%", "tres veces el -0,57 %"): the number is the ratio of
    a figure of the sentence before it to that one, at the precision it shows, whatever fact it
    happens to equal; no ratio that gives it leaves it unsupported."""
    starts = sentence_starts(text)
    figures = sorted((f for f in case.figures if f.claim.readings), key=lambda f: f.claim.start)
    for k, f in enumerate(figures):
        claim = f.claim
        m = _TIMES.match(text, claim.end)
        if m is None or claim.unit:
            continue
        if k + 1 >= len(figures):
            if text[claim.end : claim.end + 1] in ("x", "×"):
                f.in_scope, f.supported_by, f.facts, f.wrong, f.held = [], [], [], "", []
            continue
        whole = figures[k + 1].claim
        if whole.start - m.end() > _SHARE_GAP or re.search(
            r"(?<!\w)\d|[—–;:,()\[\]]|\.\s", text[m.end() : whole.start]
        ):
            if text[claim.end : claim.end + 1] in ("x", "×"):  # "7x the benchmark": of no
                f.in_scope, f.supported_by, f.facts, f.wrong, f.held = [], [], [], "", []
            continue
        lo = starts[bisect_right(starts, claim.start) - 1]
        parts = [g.claim for g in figures[:k] if g.claim.start >= lo and g.in_scope]
        w = _amount(whole)
        ratios = [abs(_amount(a) / w) for a in parts if w and a.unit == whole.unit]
        shown = claim.readings[0]
        said = abs(shown.value) * claim.scale
        if claim.bound:  # "more than three times": beyond it, on its side
            held = any((r > said) if claim.bound > 0 else (r < said) for r in ratios)
        else:
            hedged = _HEDGED.search(text, max(claim.start - 16, 0), claim.start) is not None
            slack = 2.0 if hedged and shown.decimals else 1.0  # "about 3.5x"; "about three": ±½
            held = any(
                _rounds_to(r, shown.value, shown.decimals, claim.scale, slack) for r in ratios
            )
        if held:
            f.in_scope = [
                make_fact(_amount(claim), DERIVED, "", "ratio", None, True, False, -1, None)
            ]
            f.supported_by, f.wrong, f.held, f.facts = [DERIVED], "", [], []
            case.bound.append(m.span())  # "times", "veces": the ratio's own words
        else:
            f.in_scope, f.supported_by, f.facts, f.wrong, f.held = [], [], [], "", []


_HEDGED = re.compile(
    r"(?i)(?:about|roughly|around|nearly|almost|approximately|some|circa|~|≈|cerca\s+de|casi|"
    r"alrededor\s+de|unas?|aproximadamente)\s*$"
)
"""A hedge right before a multiple with decimals ("about 3.5x" for 3.56): a whole unit of its
last digit."""


def _rounds_to(value: float, shown: float, decimals: int, scale: float, slack: float = 1.0) -> bool:
    half = 0.5 * slack * 10.0**-decimals * scale
    return abs(value - abs(shown) * scale) <= half * (1 + 1e-9)


_DAYS_BEFORE = re.compile(
    r"(?i)(?:(?:dentro\s+de|en|in|within|faltan|quedan|restan|hay|there\s+are|a)\s+)?"
    r"(?P<hedge>(?:(?:just|a\s+little|slightly|about|roughly|around|nearly|almost|some|casi|"
    r"unos|unas|alrededor\s+de|poco)\s+)*)(?P<side>under|over|más\s+de|menos\s+de)?\s*$"
)
"""What may stand before a count of days or weeks: "in", "dentro de", "faltan", "quedan", "a"
("a 13 días vista"), "just under", "a little over", "about" (a hedge lets weeks be rounded:
"just under two weeks" for 13 days)."""
_DAYS_AFTER = re.compile(
    r"(?i)\s+(?:calendar\s+)?(?P<unit>días|dias|days|weeks|semanas)(?:\s+(?:naturales|corridos|"
    r"calendario))?(?:\s+\(?(?P<rel>from\s+now|away|out|ahead|vista|desde\s+hoy|after|from|since|"
    r"later|después\s+de|desde|del?|hasta|until|to|before|ahead\s+of|antes\s+de|para)(?!\w))?"
)
"""A count's unit and what it is counted from or to: "13 days from 12/31", "24 days after
December 31", "two weeks away", "dentro de 13 días", "13 días naturales desde el 31 de
diciembre", "a 23 días del 2024-12-31", "faltan 13 días para los resultados"."""
_FROM_NOW = frozenset({"from now", "away", "out", "ahead", "vista", "later", "desde hoy"})
"""What counts from the report date itself."""
_TO = frozenset({"hasta", "until", "to", "before", "ahead of", "antes de", "para"})
"""What names the far end (the date after it, if one): the count runs from the report date."""
_ORIGIN = re.compile(
    r"(?i)\s+(?:the\s+)?(?:report\s+date|today|now|hoy|la\s+fecha\s+del\s+informe)"
)


def _days_until(case: Case, text: str, claim: Claim, starts: list[int], sentence: int) -> bool:
    """Whether a whole number of days or weeks ("dentro de 13 días", "13 days from 12/31",
    "just under two weeks away", "(17 days)") is the distance between the report date (or the
    date it is counted from, written right after it) and a date its sentence or the one before
    names; its words are then bound with it. Days are exact; weeks are days / 7 to the nearest
    week when a hedge stands before them, else exact, and "under"/"over" must hold. A count with
    no word to say what it spans must match a date of its own sentence."""
    after = _DAYS_AFTER.match(text, claim.end)
    before = _DAYS_BEFORE.search(text, max(claim.start - 30, 0), claim.start)
    report = case.report_day
    if after is None or before is None or report is None or not claim.readings:
        return False
    bare = not (after["rel"] or text[before.start() : claim.start].strip())
    first = starts[sentence if bare else max(sentence - 1, 0)]
    last = starts[sentence + 1] if sentence + 1 < len(starts) else len(text)
    dated = [
        f.claim
        for f in case.findings
        if f.claim.kind == "date"
        and f.supported_by
        and first < f.claim.end
        and f.claim.start < last
    ]
    origin, end = report, after.end()
    rel = (after["rel"] or "").casefold()
    if rel and rel not in _FROM_NOW and rel not in _TO and (o := _ORIGIN.match(text, end)) is None:
        near = [d for d in dated if 0 <= d.start - end < 26 and d.dates and d.dates[0][2]]
        if not near:
            return False
        year, month, dom = near[0].dates[0]
        try:
            origin = date(year or report.year, month, dom or 1)
        except ValueError:
            return False
        end = near[0].end
        dated = [d for d in dated if d is not near[0]]
    elif rel and rel not in _FROM_NOW and rel not in _TO and o is not None:
        end = o.end()
    elif rel in _TO and (far := _far_end(dated, end, report)) is not None:
        # "announced on 2024-12-06, 25 days before 2025-01-10": to that date from the report
        # date or from another date of the sentence
        weeks = after["unit"].casefold() in {"weeks", "semanas"}
        side = (before["side"] or "").casefold()
        starts_at = [report] + [
            day for d in dated if d.end <= claim.start and (day := _day_of(d, report)) is not None
        ]
        if any(
            _spans(abs((far - day).days), r.value, weeks, bool(before["hedge"]), side)
            for day in starts_at
            for r in claim.readings
        ):
            case.bound.append((before.start(), next(d.end for d in dated if d.start >= end)))
            return True
        return False
    weeks = after["unit"].casefold() in {"weeks", "semanas"}
    side = (before["side"] or "").casefold()
    days = [d for c in dated for d in c.dates] + (
        [] if weeks else [(origin.year, origin.month, origin.day)]
    )
    for year, month, dom in days:
        if dom is None:
            continue
        for y in (year,) if year else (origin.year, origin.year + 1):
            try:
                gap = abs((date(y, month, dom) - origin).days)
            except ValueError:
                continue
            if (gap or not bare) and any(
                _spans(gap, r.value, weeks, bool(before["hedge"]), side) for r in claim.readings
            ):
                case.bound.append((before.start(), end))
                return True
    return False


def _day_of(claim: Claim, report: date) -> date | None:
    """The day a date claim names, in the report's year where it names none."""
    if not claim.dates:
        return None
    year, month, dom = claim.dates[0]
    if dom is None:
        return None
    try:
        return date(year or report.year, month, dom)
    except ValueError:
        return None


def _far_end(dated: list[Claim], end: int, report: date) -> date | None:
    """The date written right after "before", "until", "antes de" (the far end of a count)."""
    after = [d for d in dated if 0 <= d.start - end < 26]
    return _day_of(after[0], report) if after else None


def _spans(gap: int, count: float, weeks: bool, hedged: bool, side: str) -> bool:
    """Whether `count` days or weeks says a distance of `gap` days."""
    size = count * 7 if weeks else count
    if side in {"under", "menos de"} and not gap < size:
        return False
    if side in {"over", "más de"} and not gap > size:
        return False
    if weeks and (hedged or side):
        return abs(gap / 7 - count) <= 0.5
    return abs(gap - size) < 1e-9

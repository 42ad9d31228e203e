"""The direction rule: a direction word against the sign of its figure or of its subject's change."""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Iterator

from contract.reasons import ReasonCode
from verifier.claim import Claim, subject_words
from verifier.coverage import direction_spans
from verifier.grammar.moves import EXTENDED, MOVE
from verifier.lexicon import alternatives
from verifier.periods import sentence_starts
from verifier.rules.case import Case
from verifier.scanner import fold_aligned
from verifier.times import WINDOW, ClaimTime, times_agree
from verifier.trace_facts import FROM_JSON, Fact
from verifier.verdict import Reason


def check_wrong_direction(case: Case) -> Iterator[Reason]:
    """A direction word ("rose", "cayó") next to a figure whose value has the other sign, or said
    of a ticker whose change for the time stated has the other sign ("AXO fell on 2024-12-31")."""
    yield from _wrong_moves(case)
    for f in case.figures:
        claim = f.claim
        if not claim.direction or claim.sign or not f.in_scope:
            continue
        facts = [x for x in f.in_scope if x.percent] if claim.unit else f.in_scope
        signed = [x for x in facts if x.signed and x.value]
        signed = [x for x in signed if x.change] or signed
        if signed and all((x.value > 0) != (claim.direction > 0) for x in signed):
            said = "a rise" if claim.direction > 0 else "a fall"
            yield Reason(
                rule=ReasonCode.WRONG_DIRECTION,
                message=(
                    f'"{claim.direction_word} {claim.text}" says {said}, but the trace has '
                    f"{signed[0].describe()}"
                ),
                span=(min(claim.start, _word_start(case, claim)), claim.end),
            )


def _wrong_moves(case: Case) -> Iterator[Reason]:
    for f in case.findings:
        claim = f.claim
        if claim.kind != "move":
            continue
        (subject,) = claim.scope
        held = [
            x
            for x in case.evidence.changes.get(subject, ())
            if x.value and times_agree(claim.time, x.span)
        ]
        if not held and _of_the_day(claim, case):
            held = [x for x in _day_figures(case, subject) if x.key not in ("change", "change_pct")]
        if not held:
            over = f" over {claim.time.describe()}" if claim.time else ""
            yield Reason(
                rule=ReasonCode.UNVERIFIED_CLAIM,
                message=(
                    f'"{claim.text}" says how {subject} moved{over}, and no result of the trace '
                    "holds its change for that time"
                ),
                span=claim.span,
            )
            continue
        if held and all((x.value > 0) != (claim.direction > 0) for x in held):
            said = "a rise" if claim.direction > 0 else "a fall"
            when = f" for {claim.time.describe()}" if claim.time else ""
            yield Reason(
                rule=ReasonCode.WRONG_DIRECTION,
                message=(
                    f'"{claim.text}" says {said} of {subject}{when}, but the trace has '
                    f"{held[0].describe()}"
                ),
                span=claim.span,
            )


def _of_the_day(claim: Claim, case: Case) -> bool:
    """Whether a move is said of the report day: no time, the day, or the report date."""
    time = claim.time
    if time is None or time == ClaimTime("day"):
        return True
    report = case.report_day
    if report is None or time.kind not in ("", "day") or time.role or not time.days:
        return False
    return all(  # "on 2024-12-31", "on Tuesday, Dec. 31": the report date, its year or none
        y in (None, report.year) and m == report.month and d == report.day for y, m, d in time.days
    )


def _word_start(case: Case, claim: Claim) -> int:
    draft = case.trace.draft or ""
    found = draft.rfind(claim.direction_word, 0, claim.start)
    return found if found >= 0 else claim.start


_HYPHEN = re.compile(r"(?<=[^\W\d_])-(?=[^\W\d_])")
_NEGATION = re.compile(rf"(?<!\w)(?:{alternatives('negations')})\s+(?:\w+\s+)?$")
_EITHER_AFTER = re.compile(r"\s+(?:or|o|nor|ni)\s+\w")
_EITHER_BEFORE = re.compile(r"\w\s+(?:or|o|nor|ni)\s+$")
"""A direction word offered as one of two ("weighed on or supported", "subir o bajar")."""
_DAY_KEYS = frozenset(
    {"change", "change_pct", "day_pnl", "pnl_pct", "day_return_pct", "contribution_pct"}
)
"""Keys whose sign is the day's direction of a ticker's price or position."""


_COUNTED = re.compile(
    r"(?:(?<!\w)(?:positions|holdings|names|stocks|constituents|posiciones|valores|títulos|"
    r"componentes)|(?<![\w.,])\d{1,3})\s+$"
)
"""What a direction word may be said of beside the ticker: a count of holdings ("5 of 10
positions rose", "5 fell", "5 de las 10 posiciones subieron")."""


def check_loose_directions(case: Case) -> Iterator[Reason]:
    """A direction word no figure or move took ("the position lost ground", "cost P002 $X",
    "moved lower over the session"): held against the day's signed figures of the ticker its
    sentence speaks of. One they agree with is covered for the closed-world rule, one they
    contradict is `wrong_direction`; one with no ticker or no such figure stays uncovered."""
    text = case.trace.draft or ""
    folded = _HYPHEN.sub(" ", fold_aligned(text))
    words = MOVE.finditer(folded)
    if not words:
        return
    claims = [f.claim for f in case.findings]
    taken = [c.span for c in claims] + direction_spans(text, claims) + case.bound
    tickers = [c for c in claims if c.kind == "ticker"]
    starts = sentence_starts(text)
    taken.sort()
    ends = [e for _, e in taken]
    for m in words:
        i = bisect_right(ends, m.start())  # the spans that end after the word starts
        if i < len(taken) and taken[i][0] < m.end():
            continue
        said_of_a_day = m.group() in ("fall", "falls") and folded.startswith(" on ", m.end())
        if said_of_a_day or EXTENDED.finditer(folded[m.start() : m.end() + 40]):
            continue  # "falls on 2024-07-01" is a day; "fell before the open" no result holds
        if _COUNTED.search(folded, max(m.start() - 16, 0), m.start()):
            continue  # "5 of 10 positions rose, 5 fell": said of the count (`relations`)
        if _EITHER_AFTER.match(folded, m.end()) or _EITHER_BEFORE.search(
            folded, max(m.start() - 24, 0), m.start()
        ):
            continue  # "may have weighed on or supported the shares": neither is said
        negated = bool(_NEGATION.search(folded, max(m.start() - 16, 0), m.start()))
        lo = starts[bisect_right(starts, m.start()) - 1]
        near = [
            *WINDOW.finditer(folded[lo : m.start()]),
            *WINDOW.finditer(folded[m.end() : m.end() + 40]),
        ]
        if any(w.lastgroup != "day" for w in near):
            continue  # said of a week or a month: the day's figures do not settle it
        subject = _portfolio_said(folded, lo, m, case) or _nearest(tickers, lo, m.start(), case)
        signs = {x.value > 0 for x in _day_figures(case, subject)} if subject else set()
        up = (m.lastgroup == "up") != negated  # "did not fall": it rose
        if signs == {up}:
            case.bound.append(m.span())
        elif signs == {not up}:
            case.bound.append(m.span())
            said = "a rise" if up else "a fall"
            yield Reason(
                rule=ReasonCode.WRONG_DIRECTION,
                message=(
                    f'"{text[m.start() : m.end()]}" says {said} of {subject_words([subject or ""])}, '
                    "but its day figures in the trace have the other sign"
                ),
                span=m.span(),
            )


_HOLDER = re.compile(
    rf"(?<![\w-])(?:(?P<portfolio>{alternatives('portfolio')})|"
    rf"(?P<benchmark>{alternatives('benchmark')}))(?![\w-])"
)
"""A portfolio or its benchmark named as what moved ("P003 finished in the red", "the fund
closed lower", "la cartera cerró a la baja")."""
_FOR_HOLDER = re.compile(
    r"\s+(?:(?:day|session|sesión|jornada|rueda)\s+)?(?:for|of|de|del|para)\s+(?:the\s+|la\s+|el\s+)?"
)
"""What joins a direction word to the portfolio it is said of right after it ("a down day for
P003", "una caída de la cartera")."""
_NOT_SUBJECT = re.compile(
    r"(?:(?<!\w)(?:in|en|within|into|dentro\s+de)\s+(?:the\s+|la\s+|el\s+)?)$"
)
"""A portfolio named as where a holding sits ("ZWW's position in P003 fell") is not what moved."""
_HOLDER_KEYS = frozenset({"portfolio_day_pnl", "portfolio_return_pct", "return_pct"})


def _portfolio_said(folded: str, lo: int, word: re.Match[str], case: Case) -> str | None:
    """`@portfolio` or `@benchmark` when the sentence says the direction word of one of them: the
    nearest subject before the word in its sentence (not a ticker, not a possessive "P003's
    top holding", not "in P003"), or one joined right after it ("a down day for P003"). A
    portfolio id other than the report's is its own subject, which no figure of the trace holds."""
    joint = _FOR_HOLDER.match(folded, word.end())
    found = _HOLDER.match(folded, joint.end()) if joint else None
    if found is None:
        before = [
            h
            for h in _HOLDER.finditer(folded, lo, word.start())
            if not folded.startswith(("'s", "’s"), h.end())
            and not _NOT_SUBJECT.search(folded, max(h.start() - 16, 0), h.start())
        ]
        tickers = [f.claim.end for f in case.findings if f.claim.kind == "ticker"]
        if not before or any(before[-1].end() <= t <= word.start() for t in tickers):
            return None
        found = before[-1]
    said = found.group()
    if said[:1] == "p" and said[1:].isdigit():
        return "@portfolio" if said.upper() == (case.trace.portfolio_id or "").upper() else said
    return "@benchmark" if found.lastgroup == "benchmark" else "@portfolio"


def _nearest(tickers: list[Claim], lo: int, at: int, case: Case) -> str | None:
    before = [t for t in tickers if t.start < at]
    inside = [t for t in before if t.start >= lo]
    if inside:
        return inside[-1].symbol
    after = [t for t in tickers if t.start > at and t.start < at + 80]
    if after:
        return after[0].symbol
    if before:
        return before[-1].symbol
    called = sorted(case.evidence.called)
    return called[0] if len(called) == 1 else None


def _day_figures(case: Case, subject: str) -> list[Fact]:
    if subject.startswith("@"):
        return [
            f
            for f in case.evidence.facts
            if f.ticker == subject and f.key in _HOLDER_KEYS and f.value and f.origin == FROM_JSON
        ]
    return [
        f
        for f in case.evidence.facts
        if f.ticker == subject
        and f.key in _DAY_KEYS
        and f.value
        and f.origin == FROM_JSON
        and (f.span is None or f.span.start is None or (f.span.end - f.span.start).days <= 4)
    ]


_ALIKE = re.compile(
    r"(?<![\w-])(?P<word>(?:tal\s+)?como|al\s+igual\s+que|igual\s+que|tanto\s+como|(?:just\s+)?like|"
    r"as\s+did|in\s+line\s+with|en\s+línea\s+con)\s+(?:(?:the|el|la|su|its)\s+)?"
    rf"(?:(?P<benchmark>{alternatives('benchmark')}|referencia|índice|mercado)(?![\w-])|(?=[A-Z]{{2,6}}(?![\w-])))"
)
"""A holding's day said to go the way another went ("AXO ganó un 1,31 %, como el índice",
"like the index", "as did MPSE", "tanto como OEE")."""


def check_alike_moves(case: Case) -> Iterator[Reason]:
    """Each day said to go the way of the benchmark or of another holding: the benchmark's
    return must have the holding's sign; another holding's must be in the trace and have it
    too ("tanto como", as much as, is a size no result compares: `unverified_claim`)."""
    text = case.trace.draft or ""
    if not any(w in text for w in ("como", "igual", "like", "as did", "in line", "en línea")):
        return
    tickers = [f.claim for f in case.findings if f.claim.kind == "ticker"]
    starts = sentence_starts(text)
    for m in _ALIKE.finditer(text):
        lo = starts[bisect_right(starts, m.start()) - 1]
        subject = _nearest([t for t in tickers if t.start < m.start()], lo, m.start(), case)
        mine = {x.value > 0 for x in _day_figures(case, subject)} if subject else set()
        other = next((t for t in tickers if t.start == m.end()), None)
        if m.group("benchmark"):
            theirs = {x.value > 0 for x in _day_figures(case, "@benchmark")}
            name = "the benchmark"
        elif other is not None:
            theirs = {x.value > 0 for x in _day_figures(case, other.symbol)}
            name = other.symbol
        else:
            continue
        end = other.end if other is not None else m.end()
        said = text[m.start() : end]
        if "tanto" in m.group("word").casefold() or len(mine) != 1 or len(theirs) != 1:
            yield Reason(
                rule=ReasonCode.UNVERIFIED_CLAIM,
                message=f'"{said}" says {subject} moved as {name} did, which no result compares',
                span=(m.start(), end),
            )
            continue
        case.bound.append((m.start(), end))
        if mine == theirs:
            continue
        yield Reason(
            rule=ReasonCode.WRONG_DIRECTION,
            message=f'"{said}": {subject} and {name} moved opposite ways on the day',
            span=(m.start(), end),
        )

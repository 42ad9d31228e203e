"""The direction rule: a direction word against the sign of its figure or of its subject's change."""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Iterator

from contract.reasons import ReasonCode
from verifier.claim import Claim, subject_words
from verifier.coverage import direction_spans
from verifier.grammar.moves import EXTENDED, MOVE
from verifier.grammar.number_words import UNITS_EN, UNITS_ES
from verifier.lexicon import alternatives, grouped
from verifier.periods import sentence_end, sentence_starts
from verifier.rules.case import Case, Finding
from verifier.rules.draft_scan import scan_of
from verifier.rules.relations import own_ranks, scans
from verifier.rules.windows import window_changes
from verifier.scanner import PhraseScan, fold_aligned
from verifier.times import WINDOW, ClaimTime, times_agree
from verifier.trace_facts import FROM_JSON, Fact
from verifier.verdict import Reason


def check_wrong_direction(case: Case) -> Iterator[Reason]:
    """A direction word ("rose", "cayó") next to a figure whose value has the other sign, or said
    of a ticker whose change for the time stated has the other sign ("AXO fell on 2024-12-31")."""
    yield from _wrong_moves(case)
    text = case.trace.draft or ""
    folded = fold_aligned(text)
    for f in case.figures:
        claim = f.claim
        if not f.in_scope:
            continue
        facts = [x for x in f.in_scope if x.percent] if claim.unit else f.in_scope
        signed = [x for x in facts if x.signed and x.value]
        signed = [x for x in signed if x.change] or signed
        against = (
            bool(claim.direction)
            and bool(signed)
            and all((x.value > 0) != (claim.direction > 0) for x in signed)
        )
        if not claim.bound and _denied(case, folded, claim):
            if not against:  # "did not fall 2.30%" of a fall of 2.30%: the trace holds it
                yield Reason(
                    rule=ReasonCode.WRONG_DIRECTION,
                    message=(
                        f'"{text[_said_from(case, claim) : claim.end]}" denies what '
                        f"the trace holds: {f.in_scope[0].describe()}"
                    ),
                    span=(_said_from(case, claim), claim.end),
                )
            continue  # the move denied is not the one the trace holds: the denial is true
        if not claim.direction or claim.sign:
            continue
        if against:
            said = "a rise" if claim.direction > 0 else "a fall"
            yield Reason(
                rule=ReasonCode.WRONG_DIRECTION,
                message=(
                    f'"{claim.direction_word} {claim.text}" says {said}, but the trace has '
                    f"{signed[0].describe()}"
                ),
                span=(min(claim.start, _word_start(case, claim)), claim.end),
            )


_DENIED_MOVE = re.compile(
    r"(?:(?<!\w)(?:not|never|no|nunca|jamás)|n['’]t)\s+(?:(?:have|has|had|did|does|do|was|were|is|"
    r"are|be|been|actually|really|quite|even|se|ha|han|había|hubo)\s+){0,2}$"
)
"""A negation right before a move's word ("did not fall 2.30%", "no subió un 1,33%", "never
gained 5%")."""
_DENIED_VALUE = re.compile(
    r"(?:(?<!\w)(?:was|is|were|are)\s+(?:not|never)|n['’]t\s+(?:be|been)|(?<!\w)no\s+(?:fue|es|"
    r"era|ha\s+sido)(?:\s+de)?)\s*[(*_`]*\s*(?:\$|us\$|€)?\s*$"
)
"""A negation right before a figure a field names ("the day P&L was not -550.08", "el
resultado no fue de 1.225,80")."""


def _said_from(case: Case, claim: Claim) -> int:
    return min(claim.start, _word_start(case, claim)) if claim.direction else claim.start


def _denied(case: Case, folded: str, claim: Claim) -> bool:
    """Whether the figure is said as what did not happen: its move's word negated, or the
    figure itself after "was not". A denial of what the trace holds is a contradiction; one of
    what it does not hold is true (and its figure is no figure of the trace: its own rules)."""
    if claim.direction:
        start = _word_start(case, claim)
        if start < claim.start and _DENIED_MOVE.search(folded, max(start - 40, 0), start):
            return True
    return _DENIED_VALUE.search(folded, max(claim.start - 40, 0), claim.start) is not None


def _wrong_moves(case: Case) -> Iterator[Reason]:
    for f in case.findings:
        claim = f.claim
        if claim.kind != "move":
            continue
        (subject,) = claim.scope
        held = [
            x
            for x in case.evidence.changes.get(subject, ())
            if x.value and times_agree(claim.time, x.span) and (claim.time or _one_day(x))
        ]  # a move said for no time is the day's ("## ABXQ rallies"), not any window's
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


def _one_day(fact: Fact) -> bool:
    span = fact.span
    return span is None or span.start is None or (span.end - span.start).days <= 4


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


_ON_A_DAY = re.compile(
    r" on (?:(?:one|the\s+same|a)\s+day|(?:\w+day,?\s+)?(?:\d|january|february|march|april|may|"
    r"june|july|august|september|october|november|december))"
)
"""A date or weekday after "falls": an event's day ("falls on 2024-07-01"), not a move ("did
not fall on the day")."""
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
    r"componentes)|(?<![\w.,/-])\d{1,3}|"
    r"(?<!\w)(?:nothing|none|zero|ninguno|ninguna|ningún|cero|one|two|three|four|five|six|seven|"
    r"eight|nine|ten|eleven|twelve|\w+teen|twenty|thirty|uno|una|dos|tres|cuatro|cinco|seis|siete|"
    r"ocho|nueve|diez|once|doce|trece|catorce|quince|dieci\w+|veinte|veinti\w+))"
    r"(?:\s+(?:closed|ended|finished|were|are|cerraron|terminaron|quedaron|fueron|están|en|in)){0,2}"
    r"\s+$"
)
"""What a direction word may be said of beside the ticker: a count of holdings, with a verb
between or not ("5 of 10 positions rose, 5 fell", "seven names up, eighteen down,
zero flat", "12 de las 19 posiciones cerraron en negativo y hubo 7 en alza")."""


_TALLIED = re.compile(
    r"(?<![\w.,/-])(?P<n>\d{1,3}|nothing|none|ninguno|ninguna|ningún|"
    + "|".join(sorted({*UNITS_EN, *UNITS_ES}, key=len, reverse=True))
    + r")(?:\s+(?:of|de)\s+(?:the\s+|las\s+|los\s+)?\d{1,3})?"
    r"(?:\s+(?:positions|holdings|names|stocks|posiciones|valores|títulos|acciones))?"
    r"(?:\s+(?:closed|ended|finished|were|are|cerraron|terminaron|quedaron|fueron|están|en|in)){0,2}"
    r"\s+$"
)
"""A count of holdings right before a sign word ("0 unchanged", "nothing closed flat", "12 de
las 19 posiciones cerraron en negativo", "hubo 7 en alza"): a tally of the portfolio's day."""
_TALLY_KEYS = {"up": "gainers", "down": "decliners", "flat": "unchanged"}


def _tally(case: Case, text: str, word: re.Match[str], count: re.Match[str]) -> Iterator[Reason]:
    """A tally said with a sign word, held against the ranks of the answer's own portfolio: it
    covers the word where it holds, is `wrong_relation` where it does not, and binds nothing
    where the answer has no ranks."""
    ranks = own_ranks(case, scan_of(case).results)
    if ranks is None:
        return
    said = count.group("n")
    n = int(said) if said.isdigit() else UNITS_EN.get(said, UNITS_ES.get(said, 0))
    key = _TALLY_KEYS[word.lastgroup or ""]
    case.bound.append(word.span())
    if ranks.get(key) == n:
        return
    yield Reason(
        rule=ReasonCode.WRONG_RELATION,
        message=(
            f'"{text[count.start() : word.end()]}": portfolio {ranks.get("portfolio_id")} had '
            f"{ranks.get(key)} {key}"
        ),
        span=(count.start(), word.end()),
    )


SIGN = PhraseScan(grouped("signs"))
"""A word that says a change's sign without governing a figure ("negative", "in the red",
"flat"), its sign the group's name."""
_CLAUSE_BREAK = re.compile(
    r"[;—–]|,(?=\s)|(?<!\w)(?:but|though|although|while|whereas|and|yet|pero|aunque|mientras|sino|y|e)"
    r"(?!\w)"
)
"""What parts the clauses of a sentence: a sign word qualifies a figure of its own clause."""
_TREND_WINDOWS = {"week": "week", "month": "month", "quarter": "quarter", "ytd": "year_to_date"}
"""The windows a trend result gives a change for, by the name of the window phrase's group."""
FLAT = 0.1
"""The largest change in percent a "flat" or "unchanged" holds (at the usual two decimals,
a tenth of a percent is a move nobody reports as one)."""


def check_loose_directions(case: Case) -> Iterator[Reason]:
    """A direction word no figure or move took ("the position lost ground", "cost P002 $X",
    "moved lower over the session") or a sign word ("negative", "in the red", "flat"): held
    against the figure of its clause a sign word qualifies, else the change of the window it
    names, else the day's signed figures of what its sentence speaks of. One they agree with is
    covered for the closed-world rule, one they contradict is `wrong_direction`; one none of
    them settles stays uncovered."""
    text = case.trace.draft or ""
    folded = _HYPHEN.sub(" ", fold_aligned(text))
    moves = MOVE.finditer(folded)
    signs = SIGN.finditer(folded)
    if not moves and not signs:
        return
    taken_by_moves = [m.span() for m in moves]
    runs = [m.span() for m in scans()[2].finditer(folded)]
    words = sorted(
        [(m, False) for m in moves]
        + [(m, True) for m in signs if not _overlaps(m.span(), taken_by_moves)],
        key=lambda w: w[0].start(),
    )
    claims = [f.claim for f in case.findings]
    taken = [c.span for c in claims] + direction_spans(text, claims) + case.bound
    tickers = [c for c in claims if c.kind == "ticker"]
    starts = sentence_starts(text)
    taken.sort()
    ends = [e for _, e in taken]
    changes: dict[str, dict[str, float]] | None = None
    for m, sign_word in words:
        i = bisect_right(ends, m.start())  # the spans that end after the word starts
        if i < len(taken) and taken[i][0] < m.end():
            continue
        said_of_a_day = m.group() in ("fall", "falls") and bool(_ON_A_DAY.match(folded, m.end()))
        if said_of_a_day or EXTENDED.finditer(folded[m.start() : m.end() + 40]):
            continue  # "falls on 2024-07-01" is a day; "fell before the open" no result holds
        if _overlaps(m.span(), runs):
            continue  # "lleva 4 sesiones a la baja": a run of sessions, the streak's (`relations`)
        if sign_word and (tally := _TALLIED.search(folded, max(m.start() - 60, 0), m.start())):
            yield from _tally(case, text, m, tally)
            continue  # "0 unchanged", "12 de las 19 posiciones cerraron en negativo"
        if _COUNTED.search(folded, max(m.start() - 40, 0), m.start()):
            continue  # "5 of 10 positions rose, 5 fell": said of the count (`relations`)
        if _EITHER_AFTER.match(folded, m.end()) or _EITHER_BEFORE.search(
            folded, max(m.start() - 24, 0), m.start()
        ):
            continue  # "may have weighed on or supported the shares": neither is said
        negated = bool(_NEGATION.search(folded, max(m.start() - 16, 0), m.start()))
        lo = starts[bisect_right(starts, m.start()) - 1]
        hi = sentence_end(starts, m.start(), len(text))
        subject = _portfolio_said(folded, lo, m, case) or _nearest(tickers, lo, m.start(), case)
        said_for = ""
        figure = _qualified(case, folded, m, lo, hi) if sign_word else None
        if figure is not None:
            values = [x.value for x in figure.in_scope if x.signed and x.change]
            said_for = f" ({figure.claim.text})"
        else:
            window = _window_named(folded, lo, _clause(folded, lo, hi, m.start())[1], m)
            if window and window != "day":
                if changes is None:
                    changes = window_changes(case)
                trend = _TREND_WINDOWS.get(window, "")
                if not subject or trend not in changes.get(subject, {}):
                    continue  # said of a window no result gives this subject's change for
                values = [changes[subject][trend]]
                said_for = f" for the {trend.replace('_', ' ')}"
            else:
                other = _other_day(case, folded, m, lo, hi, subject)
                if other is not None:  # "it also rose on 2024-12-30": another session's move
                    way = m.lastgroup or ""
                    if other and not negated and (other == f"not-{way}" or other in _WAYS - {way}):
                        yield Reason(
                            rule=ReasonCode.WRONG_DIRECTION,
                            message=f'"{text[m.start() : m.end()]}" is said of the session '
                            f"before the report day, but {subject}'s streak shows it did not go "
                            f"{way}",
                            span=m.span(),
                        )
                    elif other == way and not negated:
                        case.bound.append(m.span())
                    continue  # a way the streak leaves open, or another day: no result holds
                values = [x.value for x in _day_figures(case, subject)] if subject else []
        agree = _agrees(m.lastgroup or "", negated, values)
        if agree is None:
            continue
        case.bound.append(m.span())
        if agree:
            continue
        said = {"up": "a rise", "down": "a fall"}.get(m.lastgroup or "", "no change")
        if negated:
            said = f"not {said}"
        yield Reason(
            rule=ReasonCode.WRONG_DIRECTION,
            message=(
                f'"{text[m.start() : m.end()]}" says {said} of {subject_words([subject or ""])}'
                f"{said_for}, but the trace has {', '.join(f'{v:+g}' for v in values)}"
            ),
            span=m.span(),
        )


def _other_day(
    case: Case, folded: str, m: re.Match[str], lo: int, hi: int, subject: str | None
) -> str | None:
    """The way the subject went on the session a date of the word's clause names, where it is
    not the report day: its current streak tells the session before ("up" or "down" where the
    streak ran through it; "not" where the streak began on the report day, so that session went
    the other way or nowhere); "" for a day no result tells. None where the clause names no
    other day."""
    report = case.report_day
    if report is None or subject is None:
        return None
    a, b = _clause(folded, lo, hi, m.start())
    days = [
        d
        for f in case.findings
        if f.claim.kind == "date" and a <= f.claim.start < b
        for d in f.claim.dates
        if d[1] and d[2]
    ]
    if not days or any((d[1], d[2]) == (report.month, report.day) for d in days):
        return None
    if _SPAN_OPENS.search(folded, a, b):
        return None  # "tres sesiones a la baja desde el 27 de diciembre": a run to the day
    streak = next(
        (
            e.result["streak"]
            for e in case.trace.events
            if isinstance(e.result, dict)
            and e.result.get("ticker") == subject
            and isinstance(e.result.get("streak"), dict)
        ),
        None,
    )
    previous = case.previous_session
    if streak is None or previous is None:
        return ""
    if not any((d[1], d[2]) == (previous.month, previous.day) for d in days):
        return ""
    way = str(streak.get("direction") or "")
    if way not in _WAYS:
        return ""
    return f"not-{way}" if streak.get("sessions") == 1 else way


_WAYS = frozenset({"up", "down"})
_SPAN_OPENS = re.compile(
    r"(?<!\w)(?:since|from|starting|beginning|began|begun|desde|a\s+partir\s+del?|empezó|"
    r"comenzó|arrancó)(?!\w)"
)


def _overlaps(span: tuple[int, int], spans: list[tuple[int, int]]) -> bool:
    return any(s < span[1] and span[0] < e for s, e in spans)


def _clause(folded: str, lo: int, hi: int, at: int) -> tuple[int, int]:
    """The clause of a sentence (`lo`..`hi`) that holds position `at`."""
    before = [b.end() for b in _CLAUSE_BREAK.finditer(folded, lo, at)]
    after = _CLAUSE_BREAK.search(folded, at, hi)
    return (before[-1] if before else lo), (after.start() if after else hi)


def _qualified(case: Case, folded: str, word: re.Match[str], lo: int, hi: int) -> Finding | None:
    """The checked change a sign word qualifies: the nearest percentage or amount of its clause,
    within 50 characters ("negative (-4.93%)", "a 4.93% slide", "un 2,30 % de pérdida"), not
    one that is a part of it ("5% of the total loss")."""
    start, end = _clause(folded, lo, hi, word.start())
    near = [
        f
        for f in case.figures
        if f.claim.kind in ("percent", "money", "number")
        and any(x.signed and x.change for x in f.in_scope)
        and start <= f.claim.start
        and f.claim.end <= end
        and (
            word.end() <= f.claim.start <= word.end() + 50
            or (
                word.start() - 50 <= f.claim.end <= word.start()
                and not _PART_OF.match(folded, f.claim.end, word.start())
            )
        )
    ]
    near += [
        f
        for f in case.figures
        if f.claim.kind in ("percent", "money")
        and any(x.signed and x.change for x in f.in_scope)
        and lo <= f.claim.end < start
        and _APPOSITIVE.fullmatch(folded, f.claim.end, word.start())
    ]
    return min(near, key=lambda f: _distance(f, word), default=None)


_PART_OF = re.compile(
    r"[^\w]*(?:\w+\s+){0,2}(?:of|de)\s+(?:the|its|this|la|el|los|las|su|sus|esta|este)\s"
)
"""What joins a share to the whole it is a part of ("5% of the total loss", "una quinta
parte de la pérdida")."""
_APPOSITIVE = re.compile(
    r"\s*(?:(?:puntos?\s+porcentuales|percentage\s+points?|points?|pp|bps?)\s*)?,\s*(?:\w+\s+){0,2}"
)
"""A sign word set off after the figure it qualifies ("0,00 puntos porcentuales, prácticamente
nula", "-0.17%, a drag")."""


def _distance(f: Finding, word: re.Match[str]) -> int:
    return min(abs(f.claim.start - word.end()), abs(word.start() - f.claim.end))


def _window_named(folded: str, lo: int, hi: int, word: re.Match[str]) -> str:
    """The window a direction word is said for: the nearest window phrase of its sentence
    within 40 characters after it, else the last one before it ("" for none)."""
    after = WINDOW.finditer(folded[word.end() : min(word.end() + 40, hi)])
    if after:
        return after[0].lastgroup or ""
    before = WINDOW.finditer(folded[lo : word.start()])
    return (before[-1].lastgroup or "") if before else ""


def _agrees(sign: str, negated: bool, values: list[float]) -> bool | None:
    """Whether a sign word holds of the values (a negated one of its contrary: "not negative"
    holds of a rise and of no change); None when there are none or they disagree."""
    if not values:
        return None
    if sign == "flat":
        each = [abs(v) <= FLAT for v in values]
    elif sign == "up":
        each = [v > 0 for v in values]
    else:
        each = [v < 0 for v in values]
    if negated:
        each = [not e for e in each]
    if all(each):
        return True
    if not any(each):
        return False
    return None


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
    r"(?:(?<!\w)(?:in|en|within|into|dentro\s+de|of|de)\s+(?:the\s+|la\s+|el\s+)?)$"
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
    r"as\s+did|(?:and\s+)?so\s+did|in\s+line\s+with|en\s+línea\s+con)\s+(?:(?:the|el|la|su|its)\s+)?"
    rf"(?:(?P<benchmark>{alternatives('benchmark')}|referencia|índice|mercado)(?![\w-])|(?=[A-Z]{{2,6}}(?![\w-])))"
)
"""A holding's day said to go the way another went ("AXO ganó un 1,31 %, como el índice",
"like the index", "as did MPSE", "tanto como OEE")."""


def check_alike_moves(case: Case) -> Iterator[Reason]:
    """Each day said to go the way of the benchmark or of another holding: the benchmark's
    return must have the holding's sign; another holding's must be in the trace and have it
    too ("tanto como", as much as, is a size no result compares: `unverified_claim`)."""
    text = case.trace.draft or ""
    if not any(
        w in text for w in ("como", "igual", "like", "as did", "so did", "in line", "en línea")
    ):
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

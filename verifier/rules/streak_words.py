"""Words that say how the day's move stands to the sessions before it: a rebound ("rebounded",
"bounced back", "rebotó", "se recuperó", "un respiro") is a rise after a fall; an extension
("extended its losses", "amplió sus pérdidas", "sigue al alza", "continued higher") is a second
session or more the same way. Each is held against the subject's streak in a `get_trend` result:
a rebound is an up streak of one session, an extension a streak of two or more in its
direction. One that does not hold is `wrong_relation`; one whose subject has no streak in the
trace is `unverified_claim`.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import date
from typing import Any

from contract.reasons import ReasonCode
from verifier.rules.case import Case
from verifier.rules.draft_scan import scan_of
from verifier.rules.relations import count_words
from verifier.rules.session_counts import session_before
from verifier.verdict import Reason

_SAID = re.compile(
    r"(?<!\w)(?:(?P<rebound>rebound(?:ed|s)?|bounced\s+back|snapped\s+back|recovered|rebotó|rebota|"
    r"repuntó|repunta|se\s+recuperó|se\s+recupera|un\s+respiro)"
    r"|(?P<more_down>extended\s+(?:its\s+|their\s+)?(?:losses|declines?|slide|losing\s+streak|"
    r"retreat)|amplió\s+(?:sus\s+)?(?:pérdidas|caídas)|sigue\s+a\s+la\s+baja|continued\s+lower|"
    r"kept\s+falling|siguió\s+cayendo|sigue\s+cayendo)"
    r"|(?P<more_up>extended\s+(?:its\s+|their\s+)?(?:gains|rally|advance|winning\s+streak)|"
    r"amplió\s+(?:sus\s+)?(?:ganancias|avances|subidas)|sigue\s+al\s+alza|continued\s+higher|"
    r"kept\s+rising|siguió\s+subiendo|sigue\s+subiendo))(?!\w)"
)
_FALL_SAID = re.compile(
    r"(?:[^.;:\n]|\.(?=\d)){0,40}?(?<!\w)(?:after|following|from|tras|después\s+de)\s+(?:a|an|its|"
    r"the|una|la|su|el)\s+(?:(?:[^.;:\n]|[.,](?=\d)){0,30}?)(?:slide|fall|drop|decline|loss|selloff|sell-off|slump|caída|baja|"
    r"retroceso|descenso|pérdida)"
)
"""A rebound said with the fall it follows: that fall is a figure or a window of its own."""
_HINT = re.compile(
    r"rebo|bounced|snapped|recover|recuper|respiro|repunt|extended|ampli|sigue|sigui|continued|kept"
)


def check_streak_words(case: Case) -> Iterator[Reason]:
    """Each rebound or extension word, held against its subject's streak."""
    scan = scan_of(case)
    if not _HINT.search(scan.folded):
        return
    for m in _SAID.finditer(scan.folded):
        if m.group("rebound") and _FALL_SAID.match(scan.folded, m.end()):
            continue  # "rebounded 1.38% after a 4.93% slide over the past month": the fall is said
        subject = _subject(case, scan, m.start())
        streak = _streak(scan.results, subject) if subject else None
        said = scan.text[m.start() : m.end()]
        if streak is None:
            yield Reason(
                rule=ReasonCode.UNVERIFIED_CLAIM,
                message=(
                    f'"{said}" says how the day\'s move stands to the sessions before it, and no '
                    f"result of the trace holds {subject or 'its subject'}'s streak"
                ),
                span=m.span(),
            )
            continue
        direction, sessions = streak
        if m.group("rebound"):
            held, wanted = direction == "up" and sessions == 1, "a rise after a fall"
        else:
            way = "up" if m.group("more_up") else "down"
            held, wanted = direction == way and sessions >= 2, f"a second {way} session or more"
        case.bound.append(m.span())
        if held:
            continue
        yield Reason(
            rule=ReasonCode.WRONG_RELATION,
            message=(
                f'"{said}" says {wanted}, but {subject} is {direction} {sessions} session'
                f"{'s' if sessions != 1 else ''} in a row"
            ),
            span=m.span(),
        )


def _streak(results: list[dict[str, Any]], subject: str) -> tuple[str, int] | None:
    for result in results:
        streak = result.get("streak")
        if result.get("ticker") == subject and isinstance(streak, dict):
            direction, sessions = streak.get("direction"), streak.get("sessions")
            if direction in ("up", "down") and isinstance(sessions, int):
                return str(direction), sessions
    return None


_EVERY_SINCE = re.compile(
    r"(?<!\w)(?:(?P<down>(?:down|lower|fell|fallen|declined|dropped|lost\s+ground)\s+(?:in|on)\s+"
    r"(?:each|every)|(?:fallen|fell|declined|dropped)\s+(?:in\s+|on\s+)?(?:each|every)|"
    r"(?:has|have)\s+not\s+(?:risen|gained|rallied|advanced|closed\s+(?:higher|up))|"
    r"(?:hasn['’]t|haven['’]t)\s+(?:risen|gained|rallied|advanced|closed\s+(?:higher|up))|"
    r"(?:bajó|cayó|ha\s+bajado|ha\s+caído)\s+en\s+(?:cada|todas\s+las)|no\s+(?:ha\s+)?(?:subido|ganado|"
    r"cerrado\s+al\s+alza|sube|gana|cierra\s+al\s+alza))"
    r"|(?P<up>(?:up|higher|rose|risen|gained|advanced)\s+(?:in|on)\s+(?:each|every)|"
    r"(?:risen|rose|gained|advanced)\s+(?:in\s+|on\s+)?(?:each|every)|"
    r"(?:has|have)\s+not\s+(?:fallen|declined|dropped|lost\s+ground|closed\s+(?:lower|down))|"
    r"(?:hasn['’]t|haven['’]t)\s+(?:fallen|declined|dropped|lost\s+ground|closed\s+(?:lower|down))|"
    r"(?:subió|ha\s+subido)\s+en\s+(?:cada|todas\s+las)|no\s+(?:ha\s+)?(?:bajado|caído|perdido|"
    r"cerrado\s+a\s+la\s+baja|baja|cae|pierde|cierra\s+a\s+la\s+baja)))"
    r"(?:\s+(?:single\s+)?(?:trading\s+)?(?:sessions?|days?|sesi(?:ón|ones)|jornadas?|ruedas?))?"
    r"\s+(?:since|desde)\s+(?:(?:the\s+close\s+(?:of|on)|el\s+cierre\s+del?|el)\s+)?$"
)
"""A run said from a date ("down in each session since 2024-12-24", "it has not fallen since
December 24", "no ha subido desde el 24 de diciembre"), its words up to the date."""


def check_streak_since(case: Case) -> Iterator[Reason]:
    """A run said to have held since a date: every session after it went the run's way, so the
    date is no earlier than the session before the streak's first (`wrong_relation` where it
    is, or where the run is the other way)."""
    scan = scan_of(case)
    if "since" not in scan.folded and "desde" not in scan.folded:
        return
    for f in case.findings:
        claim = f.claim
        report = case.report_day
        if claim.kind != "date" or len(claim.dates) != 1 or not claim.dates[0][2] or not report:
            continue
        m = _EVERY_SINCE.search(scan.folded, max(claim.start - 90, 0), claim.start)
        if m is None:
            continue
        year, month, day = claim.dates[0]
        year = year or report.year - (month > report.month)  # "desde el 24 de diciembre"
        said_day = date(year, month, int(day or 0))
        subject = _subject(case, scan, m.start())
        run = _run(scan.results, subject) if subject else None
        said = scan.text[m.start() : claim.end]
        if run is None:
            yield Reason(
                rule=ReasonCode.UNVERIFIED_CLAIM,
                message=f'"{said}" says a run since a date, and no result of the trace holds '
                f"{subject or 'its subject'}'s streak",
                span=(m.start(), claim.end),
            )
            continue
        direction, sessions, first = run
        way = "down" if m.group("down") else "up"
        if direction == way and said_day >= session_before(first):
            case.bound.append((m.start(), claim.end))
            continue
        yield Reason(
            rule=ReasonCode.WRONG_RELATION,
            message=(
                f'"{said}" says {subject} went {way} in every session after {said_day}, but its '
                f"streak is {direction} for {sessions} session{'s' if sessions != 1 else ''} "
                f"since {first}"
            ),
            span=(m.start(), claim.end),
        )


def _run(results: list[dict[str, Any]], subject: str) -> tuple[str, int, date] | None:
    """The subject's streak: its direction, length and first session."""
    for result in results:
        streak = result.get("streak")
        if result.get("ticker") == subject and isinstance(streak, dict):
            direction, sessions = streak.get("direction"), streak.get("sessions")
            try:
                first = date.fromisoformat(str(streak.get("since_session"))[:10])
            except ValueError:
                return None
            if direction in ("up", "down") and isinstance(sessions, int):
                return str(direction), sessions, first
    return None


def _number(word: str) -> int | None:
    return int(word) if word.isdigit() else count_words().get(word)


_SOME_OF_SESSIONS = re.compile(
    r"(?<!\w)(?:in|on|en)\s+(?P<n>\d{1,2}|[a-z]+)\s+(?:out\s+of|of|de)\s+(?:the\s+|las\s+|los\s+)?"
    r"(?:past|last|previous|prior|últim[oa]s|pasad[oa]s)\s+(?P<m>\d{1,2}|[a-z]+)\s+"
    r"(?:trading\s+)?(?:sessions|days|sesiones|jornadas|ruedas|días)(?!\w)"
)
"""How many of the last sessions went one way ("has risen in 4 of the past 5 sessions", "subió
en 3 de las últimas 5 sesiones")."""


def check_sessions_counted(case: Case) -> Iterator[Reason]:
    """A count of the recent sessions that went one way: the results give a streak, not each
    session, so it holds only as the streak itself ("in 3 of the last 3 sessions" of a streak of
    three or more that way); any other count is `unverified_claim`."""
    scan = scan_of(case)
    for m in _SOME_OF_SESSIONS.finditer(scan.folded):
        n, of = _number(m["n"]), _number(m["m"])
        if n is None or of is None:
            continue
        before = [t for t in scan.tickers if t.start < m.start()]
        subject = before[-1].symbol if before else None
        run = _run(scan.results, subject) if subject else None
        lo = max(scan.folded.rfind(".", 0, m.start()), 0)
        way = "down" if _DOWN_WORD.search(scan.folded, lo, m.start()) else "up"
        if run is not None and n == of and run[0] == way and run[1] >= n:
            case.bound.append(m.span())
            continue
        yield Reason(
            rule=ReasonCode.UNVERIFIED_CLAIM,
            message=(
                f'"{scan.text[m.start() : m.end()]}" counts how the recent sessions went, and the '
                "results hold only the current streak, not each session"
            ),
            span=m.span(),
        )


_DOWN_WORD = re.compile(
    r"(?<!\w)(?:fell|fallen|declined|dropped|lower|down|lost|bajó|cayó|bajado|caído|baja|cae)(?!\w)"
)


def _subject(case: Case, scan: Any, at: int) -> str | None:
    """Whose run a word speaks of: the last ticker before it, else the one the trace asks about."""
    before = [t for t in scan.tickers if t.start < at]
    called = sorted(case.evidence.called)
    return before[-1].symbol if before else (called[0] if len(called) == 1 else None)

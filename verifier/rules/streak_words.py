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
from typing import Any

from contract.reasons import ReasonCode
from verifier.rules.case import Case
from verifier.rules.draft_scan import scan_of
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
        before = [t for t in scan.tickers if t.start < m.start()]
        called = sorted(case.evidence.called)
        subject = before[-1].symbol if before else (called[0] if len(called) == 1 else None)
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

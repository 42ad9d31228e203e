"""What a draft says of a scheduled corporate event beyond its kind and day: the part of the
session it comes in ("after the close", "antes de la apertura"), the period it reports
("fourth-quarter earnings", "dividendo trimestral", "resultados anuales"), a change of plan
("was moved", "aplazado"), and whether it has happened ("reported", "presentó" for a day still
to come; "will report", "presentará" for one that came).

An events result holds each event's kind, day, value, when it was announced and whether it is
still scheduled; nothing else. So an attribute said of an event is held against its record: a
session or period no record states binds nothing and is `unverified_claim`, as is a change of
plan; a tense against the record's `scheduled` (else its day against the report date) is
`wrong_time`.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import date
from typing import Any

from contract.reasons import ReasonCode
from verifier.grammar.events import EVENT_WORD
from verifier.lexicon import alternatives_of, grouped
from verifier.periods import sentence_end, sentence_starts
from verifier.rules.case import Case
from verifier.scanner import fold_aligned
from verifier.verdict import Reason

_EVENT_TOOLS = frozenset({"get_events"})
_ATTRIBUTES = {
    "session": re.compile(
        rf"(?<!\w)(?:{'|'.join(alternatives_of('sessions', part) for part in grouped('sessions'))}|"
        r"before\s+the\s+(?:open|opening\s+bell|bell)|pre-?market|after\s+the\s+"
        r"(?:close|closing\s+bell|bell)|after[-\s]hours|during\s+the\s+session|antes\s+de\s+la\s+"
        r"apertura|(?:tras|después\s+de)l?\s+(?:el\s+)?cierre|al\s+cierre\s+del\s+mercado|"
        r"en\s+la\s+preapertura)(?!\w)"
    ),
    "period": re.compile(
        r"(?<!\w)(?:quarterly|annual|interim|semi-?annual|full[-\s]year|fiscal|q[1-4]|"
        r"(?:first|second|third|fourth)[-\s]quarter|trimestral(?:es)?|anual(?:es)?|"
        r"semestral(?:es)?|del\s+(?:primer|segundo|tercer|cuarto)\s+trimestre|"
        r"del\s+ejercicio)(?!\w)"
    ),
    "change": re.compile(
        r"(?<!\w)(?:moved|rescheduled|postponed|delayed|pushed\s+back|brought\s+forward|"
        r"cancell?ed|aplazad[oa]s?|aplazó|pospuest[oa]s?|pospuso|adelantad[oa]s?|adelantó|"
        r"retrasad[oa]s?|retrasó|reprogramad[oa]s?|reprogramó|cancelad[oa]s?|canceló)(?!\w)"
    ),
}
"""Words that say an attribute of an event, by what they say."""
_RECORD_KEYS = {
    "session": ("session", "time", "when"),
    "period": ("period", "fiscal_period", "quarter"),
}
"""The keys of an event's record that would hold each attribute; a change of plan none does."""
_PAST = re.compile(
    r"(?<!\w)(?<!is\s)(?<!are\s)(?<!be\s)(?:reported|posted|paid|released|held|presented|published|"
    r"present[oó]|public[oó]|pag[oó]|reparti[oó]|report[oó]|celebr[oó]|abon[oó]|"
    r"ha\s+(?:presentado|publicado|pagado|repartido))(?!\w)"
)
_FUTURE = re.compile(
    r"(?<!\w)(?:will\s+(?:report|pay|release|hold|present|publish)|is\s+(?:set|due|scheduled|"
    r"expected)\s+to|presentará|publicará|pagará|repartirá|celebrará|abonará|"
    r"va\s+a\s+(?:presentar|publicar|pagar|repartir))(?!\w)"
)
_FUTURE_BEFORE = re.compile(
    r"(?<!\w)(?:scheduled|upcoming|planned|programad[oa]s?|previst[oa]s?|pendientes?)"
    r"(?=(?:\s+[\w'’-]+){0,3}\s+(?:on|for|para|el|del)\s+(?:el\s+)?$)"
)
"""A status said before the event's day ("a scheduled earnings event on 2024-12-31",
"resultados programados para el 31 de diciembre"): it is to come."""
_NEGATED = re.compile(r"(?<!\w)(?:not|no|never|nunca|sin)\s+(?:\w+\s+)?$")


def check_event_attributes(case: Case) -> Iterator[Reason]:
    """Each attribute and tense said in a sentence that names an event and the day an events
    result lists an event of that kind on, held against that event's record."""
    records = _records(case)
    if not records:
        return
    text = case.trace.draft or ""
    folded = fold_aligned(text)
    named = EVENT_WORD.finditer(folded)
    if not named:
        return
    starts = sentence_starts(text)
    dated = [f.claim for f in case.findings if f.claim.kind == "date" and f.claim.dates]
    quoted = [f.claim.span for f in case.findings if f.claim.kind == "headline"]
    named = [w for w in named if not any(a <= w.start() < b for a, b in quoted)]
    seen: set[int] = set()
    for word in named:
        lo = max((s for s in starts if s <= word.start()), default=0)
        if lo in seen:
            continue
        seen.add(lo)
        hi = sentence_end(starts, word.start(), len(text))
        kinds = {w.lastgroup for w in named if lo <= w.start() < hi}
        for claim in (c for c in dated if lo <= c.start < hi):
            held = [
                r
                for r in records
                if r.get("kind") in kinds
                and any(_iso(d) == str(r.get("date"))[:10] for d in claim.dates)
            ]
            if held:
                yield from _attributes(text, folded, lo, hi, held, quoted)
                yield from _tense(case, text, folded, lo, claim, held)
                break
        else:
            yield from _undated_status(case, text, folded, lo, hi, kinds, records)


def _undated_status(
    case: Case,
    text: str,
    folded: str,
    lo: int,
    hi: int,
    kinds: set[str | None],
    records: list[dict[str, Any]],
) -> Iterator[Reason]:
    """ "CJVL's earnings are listed, not as a scheduled event": a status said with "as" of an
    event the sentence names by its kind alone holds for every event of that kind the results
    list (`wrong_time` where one does not; `unverified_claim` where they list none)."""
    status = _AS_STATUS.search(folded, lo, hi)
    if status is None:
        return
    held = [r for r in records if r.get("kind") in kinds]
    came = status.lastgroup == "not_as"
    if held and all(r.get("scheduled") is (not came) for r in held):
        case.bound.append(status.span())
        return
    yield Reason(
        rule=ReasonCode.WRONG_TIME if held else ReasonCode.UNVERIFIED_CLAIM,
        message=(
            f'"{text[status.start() : status.end()]}" says the {"/".join(sorted(map(str, kinds)))} '
            f"{'has come' if came else 'is to come'}, but the events result "
            + (
                f"has one that {'is still scheduled' if came else 'has come'}"
                if held
                else "lists no event of that kind"
            )
        ),
        span=status.span(),
    )


def _attributes(
    text: str,
    folded: str,
    lo: int,
    hi: int,
    held: list[dict[str, Any]],
    quoted: list[tuple[int, int]],
) -> Iterator[Reason]:
    """Each attribute word of the sentence outside a quoted headline (a headline's words are
    the headline's: `unknown_headline` holds them)."""
    for what, pattern in _ATTRIBUTES.items():
        for m in pattern.finditer(folded, lo, hi):
            if any(a <= m.start() < b for a, b in quoted):
                continue
            if _NEGATED.search(folded, max(m.start() - 16, 0), m.start()):
                continue
            keys = _RECORD_KEYS.get(what, ())
            if any(k in r for r in held for k in keys):
                continue
            yield Reason(
                rule=ReasonCode.UNVERIFIED_CLAIM,
                message=(
                    f'"{text[m.start() : m.end()]}" says the event\'s {what}, but its record in '
                    "the events results holds its kind, day, value and announcement only"
                ),
                span=m.span(),
            )


def _tense(
    case: Case, text: str, folded: str, lo: int, claim: Any, held: list[dict[str, Any]]
) -> Iterator[Reason]:
    """A verb of the event's clause that says it has come or is to come, against its record."""
    before = folded[max(lo, claim.start - 80) : claim.start]
    past = [*_PAST.finditer(before)]
    future = [*_FUTURE.finditer(before), *_FUTURE_BEFORE.finditer(before)]
    status = _status_after(folded, claim.end) or _as_status(folded, claim.end)
    if status is not None:  # "| 2025-01-10 | resultados | ya publicada |", "Jan 24 (scheduled)"
        came = status.lastgroup in ("past", "past_es", "not_as")
        past, future = ([status], []) if came else ([], [status])
    if not past and not future:
        return
    said_past = bool(past) and (not future or past[-1].start() > future[-1].start())
    scheduled = {r.get("scheduled") for r in held}
    if scheduled <= {True, False} and len(scheduled) == 1:
        to_come = scheduled.pop()
    else:
        report = (case.trace.as_of or "")[:10]
        to_come = all(str(r.get("date"))[:10] > report for r in held)
    if said_past != to_come:
        if status is not None:
            case.bound.append(status.span())  # "were already reported": checked, and it holds
        return
    verb = (past[-1] if said_past else future[-1]).group()
    yield Reason(
        rule=ReasonCode.WRONG_TIME,
        message=(
            f'"{verb}" says the {held[0].get("kind")} of {claim.text} '
            f"{'has come' if said_past else 'is to come'}, but the events result has it "
            f"{'still scheduled' if to_come else 'already come'}"
        ),
        span=(claim.start, claim.end),
    )


_STATUS = re.compile(
    r"(?<!\w)(?:(?P<past>(?:ya\s+)?(?:publicad[oa]s?|presentad[oa]s?|pagad[oa]s?|repartid[oa]s?|"
    r"celebrad[oa]s?|reportad[oa]s?)|(?:already\s+)?(?:reported|paid|released|held|published|completed|done))|"
    r"(?P<future>programad[oa]|pendiente|previst[oa]|por\s+(?:publicar|presentar|pagar|celebrar)|"
    r"scheduled|upcoming|pending|expected))(?!\w)"
)
"""An event's status said as a word of its own: in its table row, or in brackets right after
its day."""


def _status_after(folded: str, end: int) -> re.Match[str] | None:
    """The status word after an event's day: in the rest of its table row ("| 2025-01-10 |
    resultados | ya publicada |"), or in the brackets right after it ("Jan 24 (scheduled)")."""
    line = folded.rfind("\n", 0, end) + 1
    if folded[line : line + 8].lstrip(" \t").startswith("|"):
        stop = folded.find("\n", end)
        return _STATUS.search(folded, end, stop if stop >= 0 else len(folded))
    bracket = re.compile(
        r"\s*[(\[]([^()\[\]\n]{1,30})[)\]]|\s*[—–-]\s*([^\W\d][^.;,\n]{0,28})"
    ).match(folded, end)
    if bracket:
        group = 1 if bracket.group(1) is not None else 2
        status = _STATUS.search(folded, bracket.start(group), bracket.end(group))
        if status is not None or group == 2:
            return status
        end = bracket.end()  # "on 2024-12-31 (value 0.80), still upcoming": what follows
    return _SAID_AFTER.match(folded, end)


_AS_STATUS = re.compile(
    r"(?<!\w)(?:(?P<not_as>(?:and\s+|y\s+|but\s+|pero\s+)?(?:not|no)\s+(?:(?:marked|flagged|listed|"
    r"labell?ed|tagged|marcad[oa]|señalad[oa])\s+)?(?:as|como))|(?P<future>(?:(?:marked|flagged|listed|"
    r"labell?ed|tagged|marcad[oa]|señalad[oa])\s+)?(?:as|como)))\s+"
    r"(?:an?\s+|una?\s+)?(?:evento\s+)?(?:scheduled|upcoming|pending|programad[oa]|previst[oa]|"
    r"pendiente)(?:\s+\(?(?:upcoming|event|evento)\)?)?(?:\s+(?:event|evento))?(?!\w)"
)
"""An event said to stand, or not to stand, as a scheduled one ("listed with a value of 0.80,
not as a scheduled event", "figuran ... como evento programado")."""


def _as_status(folded: str, end: int) -> re.Match[str] | None:
    """The status said of the event in the rest of its sentence after its day."""
    stop = _SENTENCE_STOP.search(folded, end)
    return _AS_STATUS.search(folded, end, stop.start() if stop else len(folded))


_SENTENCE_STOP = re.compile(r"[.;!?\n](?!\d)")


_SAID_AFTER = re.compile(
    r",?\s+(?:(?:(?:is|are|remains?|remain)\s+(?:still\s+)?|still\s+)(?P<future>to\s+come|ahead|"
    r"pending|upcoming|scheduled|expected|yet\s+to\s+come)|(?:(?:is|are)\s+)?not\s+yet\s+"
    r"(?P<not_yet>reported|paid|released|published|held)|(?:was|were|has\s+been|have\s+been)\s+(?:already\s+)?"
    r"(?P<past>reported|paid|released|published|held)|(?:ya\s+)?(?P<past_es>(?:se\s+)?"
    r"(?:publicaron|publicó|presentaron|presentó|pagó|pagaron))|(?:está|están|sigue|siguen)\s+"
    r"(?P<future_es>pendientes?|por\s+(?:publicar|presentar|pagar|llegar)))(?!\w)"
)
"""An event's status said right after its day ("earnings on December 31 are still to come",
"were already reported")."""


def _records(case: Case) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for event in case.trace.events:
        result = event.result
        if event.tool in _EVENT_TOOLS and isinstance(result, dict):
            out += [r for r in result.get("events") or [] if isinstance(r, dict)]
    return out


def _iso(day: tuple[int | None, int | None, int | None]) -> str:
    year, month, dom = day
    if not (year and month and dom):
        return ""
    return date(year, month, dom).isoformat()

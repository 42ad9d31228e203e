"""A side of a level: "3.14 below its close on November 29", "it remains below its 2024-11-29
level of 106.51", "por encima de su cierre del 29 de noviembre, de 106,51". The side is a
comparison of the subject's close on the report date with an earlier level. Where the figure
before the side word is a change the trace holds, the side is that change's sign; where the
figure after it is a level the trace holds, the side is the report day's close against it.
Either one that does not hold is `wrong_relation`; one that holds is bound.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from contract.reasons import ReasonCode
from verifier.rules.case import Case
from verifier.scanner import fold_aligned
from verifier.verdict import Reason

_SIDE = re.compile(
    r"(?<!\w)(?P<side>above|below|higher\s+than|lower\s+than|por\s+encima|por\s+debajo)"
    r"\s+(?:of\s+|de\s+|del\s+)?(?:the\s+|its\s+|where\s+it\s+|su\s+|el\s+|la\s+)?"
    r"(?P<what>[^.;:!?\n%]{0,40}?(?:level|close|closing\s+price|nivel|cierre)[^.;:!?\n%]{0,30}?)"
    r"(?:(?P<then>\s*(?:of|at|was|de|en|,)?\s*(?:us)?[$€]?\s*(?<![\d.,-])(?=\d)(?!\d{4}-\d\d-\d\d))"
    r"|(?=[.;:!?\n—–]|\s+-\s|$))"
)
"""A side word and the level it names, up to the end of the clause or the level's figure."""
_LEVEL_KEYS = frozenset(
    {"start_close", "previous_close", "close", "end_close", "open", "high", "low"}
)
_CHANGE_KEYS = frozenset({"change", "change_pct"})
_BELOW = ("below", "lower", "debajo")


def check_level_sides(case: Case) -> Iterator[Reason]:
    """Each side of a level said beside a figure the trace holds, held against the trace."""
    text = case.trace.draft or ""
    folded = fold_aligned(text)
    if not any(
        w in folded for w in ("above", "below", "under", "over", "than", "encima", "debajo")
    ):
        return
    by_end = {f.claim.end: f for f in case.figures}
    by_start = sorted((f.claim.start, f) for f in case.figures)
    for m in _SIDE.finditer(folded):
        below = m["side"].startswith(_BELOW) or m["side"].endswith("debajo")
        gap = by_end.get(m.start() - 1) if folded[m.start() - 1 : m.start()] == " " else None
        level = next((f for at, f in by_start if at == m.end()), None) if m["then"] else None
        wrong = None
        if gap is not None and not gap.claim.sign:
            changes = [x for x in gap.in_scope or () if x.key in _CHANGE_KEYS and x.signed]
            if not changes:
                continue
            if all((x.value < 0) != below for x in changes if x.value):
                wrong = f"{gap.claim.text} {'below' if below else 'above'} says a change of the other sign: the trace has {', '.join(f'{x.value:+g}' for x in changes)}"
        elif level is not None and gap is None:
            levels = [x for x in level.in_scope or () if x.key in _LEVEL_KEYS and x.ticker]
            closes = {
                x.ticker: c
                for x in levels
                if x.ticker and (c := _close(case, x.ticker)) is not None
            }
            if not levels or not closes:
                continue
            sides = [
                (closes[x.ticker] < x.value) != below
                for x in levels
                if x.ticker in closes and closes[x.ticker] != x.value
            ]
            if sides and all(sides):
                ticker = next(iter(closes))
                wrong = (
                    f"{ticker} closed at {closes[ticker]:g} on the report date, "
                    f"{'above' if below else 'below'} the level {level.claim.text}"
                )
        elif gap is None and (said := _level_named(case, m["what"])) is not None:
            ticker, value = said
            close = _close(case, ticker)
            if close is None or close == value:
                continue
            if (close < value) != below:
                wrong = (
                    f"{ticker} closed at {close:g} on the report date, "
                    f"{'above' if below else 'below'} that level, {value:g}"
                )
        else:
            continue
        if wrong is None:
            case.bound.append(m.span("side"))
            continue
        yield Reason(
            rule=ReasonCode.WRONG_RELATION,
            message=f'"{text[m.start() : m.end("what")]}" puts the close on the wrong side: {wrong}',
            span=(m.start(), m.end("what")),
        )


_ISO = re.compile(r"(?<!\d)(\d{4}-\d{2}-\d{2})(?!\d)")
_BEFORE = re.compile(r"(?<!\w)(?:previous|prior|yesterday|anterior|previo|de\s+ayer)(?!\w)")


def _level_named(case: Case, what: str) -> tuple[str, float] | None:
    """The level a side names by its session and no figure ("below its close on 2024-11-29",
    "above the previous close"), where the trace holds one for one ticker: the close before
    the report day, or a window's opening close on the date named."""
    day = _ISO.search(what)
    if day is None and not _BEFORE.search(what):
        return None
    found = set()
    for event in case.trace.events:
        result = event.result
        if not isinstance(result, dict) or not isinstance(result.get("ticker"), str):
            continue
        ticker = result["ticker"]
        if isinstance(result.get("previous_close"), (int, float)) and (
            day is None or str(result.get("previous_session", ""))[:10] == day.group(1)
        ):
            found.add((ticker, float(result["previous_close"])))
        for change in result.get("changes") or ():
            if (
                day is not None
                and isinstance(change, dict)
                and str(change.get("start_session", ""))[:10] == day.group(1)
                and isinstance(change.get("start_close"), (int, float))
            ):
                found.add((ticker, float(change["start_close"])))
    return found.pop() if len(found) == 1 else None


def _close(case: Case, ticker: str) -> float | None:
    """The ticker's close on the report date, as the trace's first result that states it."""
    day = (case.trace.as_of or "")[:10]
    for event in case.trace.events:
        result = event.result
        if not isinstance(result, dict) or result.get("ticker") != ticker:
            continue
        if (
            isinstance(result.get("close"), (int, float))
            and str(result.get("session", day))[:10] == day
        ):
            return float(result["close"])
        for change in result.get("changes") or ():
            if (
                isinstance(change, dict)
                and str(change.get("end_session", ""))[:10] == day
                and isinstance(change.get("end_close"), (int, float))
            ):
                return float(change["end_close"])
    return None

"""Disclaimers: what a draft says the data it pulled does not hold, held like any absence.

"I don't have valuation data or analyst views here", "No catalyst is identified in the data I
pulled", "los datos no permiten atribuirle el movimiento": a clause with a negation, the data
(or the writer who pulled it) as its subject, and after the negation a category no offered tool
returns (`verifier/lexicon/disclaimers.py`). A cause is never in a result, so its disclaimer is
true; analyst views, valuation and guidance are not in a result's fields, but a headline may
report one ("analysts reiterate neutral rating"): then saying the data holds none is
`wrong_absence`. A disclaimer that holds covers its words, and in its sentence a hedge it
answers ("may be related, but nothing in the data confirms a link") and a refusal to go further
("so any explanation would be speculation"). A cause asserted outside the negation ("the news
drove it, but the data shows no link") stays uncovered: `unverified_claim`.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import datetime
from functools import cache
from typing import Any

from contract.reasons import ReasonCode
from verifier.lexicon.disclaimers import (
    CAUSE,
    CONFIRMING,
    DECLINES,
    EXTERNAL,
    HEDGES,
    HOLDING,
    NEGATIONS,
    SUBJECTS,
)
from verifier.limits import aside_close
from verifier.rules.case import Case
from verifier.rules.draft_scan import scan_of
from verifier.rules.news_times import news_items
from verifier.verdict import Reason

_WORD = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)?")
_CLAUSE_BREAK = re.compile(
    r"[;:]|,?\s(?:but|so|yet|though|although|while|whereas|pero|así\s+que|aunque|mientras)\s"
)
_HINT = re.compile(rf"(?<!\w)(?:{'|'.join(sorted(SUBJECTS | CAUSE, key=len, reverse=True))})(?!\w)")
"""A word every disclaimer holds: the data as its subject, or the cause it denies."""


_DENIED_CAUSE = re.compile(
    r"(?<!\w)(?:not|no|none|neither|ninguno|ninguna)(?:\s+(?:of\s+(?:them|these|those|the\s+\w+)|de\s+"
    r"(?:ellos|ellas|ambos|ambas|los\s+\w+|las\s+\w+)))?\s+"
    r"(?:(?:está|estaba|es|fue|ha\s+sido|is|was|are|were|has\s+been|been|be)\s+)?"
    r"(?:confirmad[oa]s?|confirmed|establecid[oa]s?|established|demostrad[oa]s?|proven|probad[oa]s?)\s+"
    r"(?:como|as)\s+(?:la\s+|una\s+|the\s+|a\s+)?(?:causa|cause|motivo|reason)(?!\w)"
)
"""A cause said unconfirmed ("no está confirmado como causa", "is not confirmed as the cause"):
a disclaimer with no subject, the cause the complement of the denied verb."""
_CANNOT_CAUSE = re.compile(
    r"(?<!\w)(?:cannot|can['’]t|can\s+not|could\s+not|couldn['’]t|(?:none|no\s+\w+)\s+(?:can|could)|"
    r"no\s+(?:puede|pueden|podría|podrían|permite|permiten|permita|permitan)|"
    r"(?:que|that|which)\s+(?:permitan|permita|puedan|pueda|could|can|would))\s+"
    r"(?:(?:be|have|se|directly|directamente|really|realmente)\s+){0,2}"
    r"(?:explain|explained|account\s+for|accounted\s+for|tied|linked|attributed|explicar(?:se|lo|la)?|"
    r"atribuir(?:se|le|lo|la)?|vincular(?:se|lo|la)?|"
    r"(?:point\s+to|identify|name|find|pin\s+down)\s+(?:a|an|any|one|the)\s+(?:[\w-]+\s+){0,3}?"
    r"(?:behind|driving)(?=\s+(?:the|its|this|that|today))"
    r")(?!\w)"
    r"|(?<!\w)no\s+(?:tiene|tienen|tuvo|hay)\s+(?:una\s+|ninguna\s+)?(?:explicación|causa|motivo)(?!\w)"
    r"|(?<!\w)(?:has|have|had)\s+no\s+(?:clear\s+|obvious\s+)?(?:explanation|cause|catalyst|driver)(?!\w)"
)
"""A cause said impossible ("so it cannot explain the day's move", "none can be tied to its
move", "no puede explicar ese movimiento"): denied by the verb's own negation, whatever the
subject; a cause is never in a result, so its denial is never a figure the trace contradicts."""


@cache
def _phrases() -> tuple[re.Pattern[str], re.Pattern[str]]:
    def alt(fragments: tuple[str, ...]) -> str:
        return "|".join(f"(?:{f})" for f in fragments)

    return (
        re.compile(rf"(?<!\w)(?:{alt(HEDGES)})(?!\w)"),
        re.compile(rf"(?<!\w)(?:{alt(DECLINES)})(?!\w)"),
    )


def check_disclaimers(case: Case) -> Iterator[Reason]:
    """Each disclaimer of the draft: its words covered where it holds, `wrong_absence` where a
    result holds what it says the data lacks."""
    scan = scan_of(case)
    folded, text, starts = scan.folded, scan.text, scan.starts
    hedges, declines = _phrases()
    if not _HINT.search(folded) and not hedges.search(folded) and not _CANNOT_CAUSE.search(folded):
        return
    carried: list[tuple[int, int]] = []
    before: list[tuple[int, int]] = []  # the hedges of the sentence before
    for i, start in enumerate(starts):
        end = starts[i + 1] if i + 1 < len(starts) else len(text)
        sentence = folded[start:end]
        own = [(start + m.start(), start + m.end()) for m in hedges.finditer(sentence)]
        hedged, earlier, before = carried + own, before, own
        carried = hedged if sentence.rstrip().endswith((";", "—", "–")) else []
        if not hedged and not _HINT.search(sentence) and not _CANNOT_CAUSE.search(sentence):
            continue  # a hedge before a semicolon is answered after it: "unclear; the data..."
        held = False
        for lo, hi in _clauses(sentence):
            words = [(start + m.start(), start + m.end()) for m in _WORD.finditer(sentence, lo, hi)]
            around = (starts[i - 1] if i else start, end, start)
            spans, wrong = _disclaimer(case, folded, words, hedged, around)
            if spans is None:
                continue
            held = True
            case.bound.extend(spans)
            if wrong:
                yield Reason(
                    rule=ReasonCode.WRONG_ABSENCE,
                    message=wrong,
                    span=(words[0][0], words[-1][1]),
                )
        if held:
            case.bound.extend(hedged)
            if earlier and _DENIED_CAUSE.search(sentence):
                case.bound.extend(earlier)  # "Headlines that may be relevant: ... None is
                # confirmed as the cause.": the possibility, then its denial
            case.bound.extend(
                (start + m.start(), start + m.end()) for m in declines.finditer(sentence)
            )


def _clauses(sentence: str) -> Iterator[tuple[int, int]]:
    at = 0
    for m in _CLAUSE_BREAK.finditer(sentence):
        yield at, m.start()
        at = m.end()
    yield at, len(sentence)


def _disclaimer(
    case: Case,
    folded: str,
    words: list[tuple[int, int]],
    hedged: list[tuple[int, int]],
    around: tuple[int, int, int],
) -> tuple[list[tuple[int, int]] | None, str]:
    """The spans a clause's disclaimer covers (None where the clause is none) and, where a
    result holds what it denies, the reason."""
    said = [folded[a:b] for a, b in words]
    negation = next((k for k, w in enumerate(said) if w in NEGATIONS), None)
    if negation is None:
        return None, ""
    after = said[negation + 1 : _aside_end(folded, words, negation)]
    confirms = (
        bool(hedged) and hedged[0][0] < words[negation][0] and any(w in CONFIRMING for w in after)
    )
    cannot = _CANNOT_CAUSE.search(folded, words[negation][0], words[-1][1])
    if cannot is not None and not _impossible(case, folded, *around):
        cannot = None  # "it cannot explain the move" of an item that came in time: a judgement
    denied_cause = bool(cannot or _DENIED_CAUSE.search(folded, words[negation][0], words[-1][1]))
    if not (confirms or denied_cause) and not any(w in SUBJECTS for w in said):
        return None, ""  # a hedge denied ("possible, but not proven") needs no subject, nor a
        # cause said unconfirmed ("no está confirmado como causa")
    categories = [name for name, (terms, _) in EXTERNAL.items() if any(w in terms for w in after)]
    cause = cannot is not None or any(w in CAUSE for w in after)
    if not (categories or cause or confirms):
        return None, ""
    external = {w for name in categories for w in EXTERNAL[name][0]}
    spans = [
        span
        for k, (span, w) in enumerate(zip(words, said, strict=True))
        if w in NEGATIONS
        or w in SUBJECTS
        or w in HOLDING
        or (k > negation and (w in CAUSE or w in external or w in CONFIRMING))
    ]
    if cannot is not None:
        spans.append(cannot.span())  # "no puede explicarse": the modal and its verb
    for name in categories:
        if where := _held(case, EXTERNAL[name][1]):
            return spans, (
                f"the draft says the data holds no {name}, but {where} reports one: a headline "
                "the search returned"
            )
    return spans, ""


def _impossible(case: Case, folded: str, lo: int, hi: int, at: int) -> bool:
    """Whether a cause said impossible is so by the trace: its searches found nothing, or every
    item the sentence speaks of came after the report day's close. An item after the close of
    the day before came ahead of the day's session and may explain its move, whatever the
    sentence says of it ("came after the close on 2024-12-30, so it cannot explain the move").
    The items spoken of are those the sentence names by headline or wire, else those the
    sentence before names, else every item the searches returned."""
    items = news_items(case)
    if not items:
        return True
    day = case.report_day
    if day is None:
        return False

    def named(a: int, b: int) -> list[tuple[dict[str, Any], datetime, str]]:
        return [
            entry
            for entry in items
            if any(
                isinstance(v, str) and len(v) > 2 and v.casefold() in folded[a:b]
                for v in (entry[0].get("headline"), entry[0].get("source"))
            )
        ]

    spoken = named(at, hi) or named(lo, at) or items
    return all(
        when.date() > day or (when.date() == day and session == "after")
        for _, when, session in spoken
    )


def _aside_end(folded: str, words: list[tuple[int, int]], negation: int) -> int:
    """Where the negation's reach ends among the clause's words: at the comma that closes an
    aside it opens (`verifier.limits.aside_close`), else at the clause's end."""
    close = aside_close(folded, words[0][0], words[negation][0], words[-1][1])
    if close < 0:
        return len(words)
    return next((k for k, (a, _) in enumerate(words) if a > close), len(words))


def _held(case: Case, marks: tuple[str, ...]) -> str:
    """The event whose result strings report the category ("" for none)."""
    for event in case.trace.events:
        stack: list[object] = [event.result]
        while stack:
            node = stack.pop()
            if isinstance(node, str):
                low = node.casefold()
                if any(mark in low for mark in marks):
                    return f"{event.tool} {event.id}"
            elif isinstance(node, dict):
                stack.extend(node.values())
            elif isinstance(node, list):
                stack.extend(node)
    return ""

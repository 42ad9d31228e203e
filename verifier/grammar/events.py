"""Events: the corporate event a date is named as the day of ("earnings on 2025-01-13", "dividendo el 13 de enero")."""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right

from verifier.claim import Claim
from verifier.grammar.dates import WEEKDAY_WORD
from verifier.lexicon import grouped
from verifier.scanner import PhraseScan, fold_aligned

EVENT_KINDS = frozenset({"dividend", "earnings", "split"})
"""Kinds of corporate event: a draft may name an event's day ("earnings on 2025-01-13") and its
figure ("a dividend of $0.87"), and a result's event `value` is filed under its kind."""
EVENT_WORD = PhraseScan(grouped("events"))
"""The name of a corporate event, its kind the group's name (`verifier.lexicon`: `events`)."""
_EVENT_GAP = re.compile(
    r"(?:\s+(?:quarterly|annual|interim|final|regular|cash|trimestral(?:es)?|anual(?:es)?|"
    r"semestral(?:es)?|ordinari[oa]s?|extraordinari[oa]s?|en\s+efectivo))?"  # "dividendo trimestral el"
    r"(?:\s+(?:event|date|day|payment|release|announcement|evento|fecha|pago|anuncio))?"  # "a dividend event on"
    r"(?:\s+(?:for|of|de|del|para)\s+[a-z][a-z0-9.\-]{0,9})?"  # whose: "for mpse", "para mpse"
    r"(?:[*_`]*\s*[:(|—–-]\s*[*_`]*\s*|,[ \t]*"
    r"|(?:(?:\s+(?:of|de)\s+|\s*\(\s*)(?:us)?[$€£]?\s*[\d.,]+"
    r"(?:\s*(?:[$€£]|usd|eur|cents?|d[oó]lares|euros))?"
    r"(?:\s*/\s*(?:share|sh)|\s+(?:a|per|por)\s+(?:share|acción))?\)?)?"
    r"(?:,?(?:\s+(?:is|are|was|were|will\s+be|will|es|será|fue|se))?"
    r"\s+(?:scheduled|set|expected|due\s+out|due|planned|slated|payable|paid|released|reported"
    r"|published|announced|dated|comes?\s+out|comes?|out|programad[oa]s?|previst[oa]s?|pagadero|paga"
    r"|con\s+fecha(?:\s+del?)?|agendad[oa]s?|anunciad[oa]s?"
    r"|pagará|publica|publicará|presenta|presentará)"
    r"(?:\s+to\s+(?:be\s+(?:released|reported|announced|paid|published)|shareholders))?"
    r"|\s+(?:is|are|was|were|es|será|fue))?"
    r"(?:\s+(?:for|of|de|del|para)\s+(?:shares\s+of\s+|las\s+acciones\s+de\s+)?"
    r"(?!(?:the|el|la)\s)[a-z][a-z0-9.\-]{0,9})?"  # "scheduled for oduo on": whose, after it
    r"(?:\s+(?:on|for|el|para\s+el|del))?(?:\s+the)?\s+)"
    rf"(?:(?:{WEEKDAY_WORD})\.?,?\s+)?"
)
"""Between the name of an event and its day ("earnings on", "dividend: ", "earnings, scheduled
for", "a dividend of $0.87 per share, payable on", "earnings for MPSE are expected on", "will be
paid to shareholders on", "dividendo de MPSE se paga el", "dividendo el miércoles"), read in the
case-folded text. A comma joins them only right before the day ("next event: dividend, 24
January"), not before a word ("two weeks after earnings, on ...")."""
_EVENT_LIST = re.compile(r"\s*(?:,|/|&|and|y|or|o)\s*(?:(?:a|an|the|un|una|el|la)\s+)?")
"""Between two names of events that the draft lists ("earnings and a dividend on ..."): which
day goes with which is then not told by position."""
_NOT_BEFORE = re.compile(r"(?<!\w)(?:no|not|without|never|nor|sin|ningún|ninguna|ni)\s+$")
_RESPECTIVELY = re.compile(r"respectiv")


def attach_event_kinds(
    text: str, claims: list[Claim], starts: list[int], tickers: list[Claim]
) -> None:
    """A date right after the name of a corporate event is named as that event's day, for the
    ticker named last before it ("MPSE's earnings on"), unless the name is denied ("no earnings
    on"), one of a list ("earnings and a dividend on"), or in a sentence that pairs names and
    days "respectively"."""
    if not any(c.kind == "date" for c in claims):
        return
    folded = fold_aligned(text)
    names = EVENT_WORD.finditer(folded)
    if not names:
        return
    listed = {
        k
        for i in range(1, len(names))
        if _EVENT_LIST.fullmatch(folded, names[i - 1].end(), names[i].start())
        for k in (i - 1, i)
    }
    dates = [c for c in claims if c.kind == "date"]
    date_starts = [c.start for c in dates]
    for k, name in enumerate(names):
        end, kind = name.end(), name.lastgroup
        i = bisect_left(date_starts, end)
        if not kind or k in listed or i == len(dates) or dates[i].start - end > 64:
            continue
        gap = _EVENT_GAP.fullmatch(folded, end, dates[i].start)
        if gap is None or (name.group().startswith("resultados") and "del" in gap.group()):
            continue  # "resultados del día" are the day's results
        if _NOT_BEFORE.search(folded, max(name.start() - 12, 0), name.start()):
            continue
        sentence = bisect_right(starts, name.start()) - 1
        until = starts[sentence + 1] if sentence + 1 < len(starts) else len(folded)
        if _RESPECTIVELY.search(folded, starts[sentence], until):
            continue
        dates[i].event = kind
        whose = [t.symbol for t in tickers if t.end <= name.start()]
        dates[i].scope = frozenset(whose[-1:])
    _label_rows(folded, dates, names, listed, tickers)


_ROW_GAP = re.compile(r"[*_`]*\s*[:|—–-]\s*[*_`]*\s*(?:(?:an?|the|un|una|el|la)\s+)?")
"""Between a day and the event named after it in a row of a list or table ("2025-01-24:
dividend", "| 2025-01-24 | earnings |", "13 de enero — dividendo")."""


_ROW_HEAD = re.compile(
    r"[\s\-*•·|>#]*(?:\d{1,2}[.)]\s*)?[*_`]*(?:[a-z][a-z0-9.]{0,5}[*_`]*:\s*[*_`]*)?"
    rf"(?:(?:{WEEKDAY_WORD})\.?,?\s+)?"
)
"""What may stand before a day that heads its row: a bullet, a table bar, a list number, a
one-word label ("SVI: 2025-01-23 — earnings"), the day's weekday ("**Friday, January 24, 2025**
— earnings")."""


def _label_rows(
    folded: str,
    dates: list[Claim],
    names: list[re.Match[str]],
    listed: set[int],
    tickers: list[Claim],
) -> None:
    """A day that heads a row naming one event after it is that event's day."""
    starts = [n.start() for n in names]
    for day in dates:
        if day.event:
            continue
        k = bisect_left(starts, day.end)
        if k == len(names) or k in listed or not names[k].lastgroup:
            continue
        if _ROW_GAP.fullmatch(folded, day.end, names[k].start()) is None:
            continue
        line = folded.rfind("\n", 0, day.start) + 1
        if _ROW_HEAD.fullmatch(folded, line, day.start) is None:
            continue  # "in the 30 days after Dec 31: earnings on ...": a window, no row
        day.event = names[k].lastgroup or ""
        whose = [t.symbol for t in tickers if t.end <= day.start]
        day.scope = frozenset(whose[-1:])

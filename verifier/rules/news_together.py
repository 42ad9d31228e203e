"""What a draft says of a search's items together: "Both headlines are from 2024-12-31", "both
ran on the same day", "ambos titulares salieron el mismo día", an item that "came over the
weekend", "the earlier of the two headlines was ...". Each word may stand alone ("both", "same",
"day", "weekend", "earlier"), and the date said is one of the trace's, so each would pass
unchecked. They are held against the items' New York times (`news_times.news_items`): every
item on the day said, on one day, on a Saturday or Sunday; the item named first or last.
`wrong_time` where they are not.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import datetime
from functools import cache
from typing import Any

from contract.reasons import ReasonCode
from verifier.lexicon import alternatives_of
from verifier.periods import sentence_end, sentence_starts
from verifier.rules.case import Case
from verifier.rules.news_times import news_items
from verifier.scanner import fold_aligned
from verifier.verdict import Reason

_ALL = re.compile(
    r"(?<!\w)(?:both|all(?:\s+(?:of\s+)?the)?(?:\s+(?:two|three|four|\d))?|the\s+(?:two|three|\d)|"
    r"ambos|ambas|los\s+(?:dos|tres)|las\s+(?:dos|tres)|todos\s+los|todas\s+las)"
    r"(?:\s+(?:of\s+them|headlines?|items?|stories|articles|news|titulares|noticias|notas))?(?!\w)"
)
_TO_THE_DAY = re.compile(
    r"\s*(?:(?:are|were|was|came|ran|appeared|published|released|dated|hit\s+the\s+wires|out|"
    r"salieron|son|fueron|se\s+publicaron|publicad[oa]s)\s+)*(?:from|on|de|del|el)?\s*[:,]?\s*"
)
"""Between "both headlines" and the day they are said to share ("are from 2024-12-31:", "came
on", "salieron el"); a window after them ("between 2024-12-28 and ...") is not it."""
_SAME_DAY = re.compile(r"(?<!\w)(?:(?:the\s+)?same\s+day|el\s+mismo\s+d[ií]a)(?!\w)")
_WEEKEND = re.compile(
    r"(?<!\w)(?:(?:over|during|on|at)\s+the\s+weekend|(?:el|este|durante\s+el)\s+fin\s+de\s+semana)"
    r"(?!\w)"
)
_ORDER = re.compile(
    r"(?<!\w)(?:the\s+(?P<first>earlier|older|first)|the\s+(?P<last>later|newer|more\s+recent|"
    r"latest|last))\s+of\s+the\s+(?:two|three|\d)(?:\s+(?:headlines|items|stories))?(?!\w)"
    r"|(?<!\w)(?:el|la)\s+(?:(?P<first_es>anterior|primer[oa]|más\s+antigu[oa])|(?P<last_es>"
    r"posterior|últim[oa]|más\s+reciente))\s+de\s+(?:los|las)\s+(?:dos|tres)(?!\w)"
    r"|(?<!\w)(?:of|de)\s+(?:the|los|las)\s+(?:two|three|dos|tres)(?:\s+(?:headlines|items|stories|"
    r"titulares|noticias|notas))?\s*,?\s+(?:the|el|la)\s+(?:(?P<first_of>earlier|older|first|"
    r"anterior|primer[oa]|más\s+antigu[oa])|(?P<last_of>later|newer|more\s+recent|latest|last|"
    r"posterior|últim[oa]|más\s+reciente))(?!\w)"
)


def check_news_together(case: Case) -> Iterator[Reason]:
    """Each thing said of the search's items together, held against their times."""
    text = case.trace.draft or ""
    folded = fold_aligned(text)
    if not any(w in folded for w in ("both", "all", "two", "three", "amb", "dos", "tres",
                                     "todos", "todas", "weekend", "fin de semana", "same",
                                     "mismo", "earlier", "later", "anterior", "posterior", "one", "una",
                                     "uno")):  # fmt: skip
        return
    items = news_items(case)
    if not items:
        return
    starts = sentence_starts(text)
    quotes = [f.claim for f in case.findings if f.claim.kind == "headline"]
    dates = [f.claim for f in case.findings if f.claim.kind == "date" and f.claim.dates]
    for m in _ALL.finditer(folded):
        lo, hi = _sentence(starts, m.start(), len(text))
        day = next(
            (
                d
                for d in dates
                if m.end() <= d.start < hi and _TO_THE_DAY.fullmatch(folded, m.end(), d.start)
            ),
            None,
        )
        same = _SAME_DAY.search(folded, m.end(), hi)
        if same is None and (day is None or len(items) < 2 or _count_other(folded, m)):
            continue
        if same is not None:
            days = {when.date() for _, when, _ in items}
            if len(days) == 1:
                case.bound += [m.span(), same.span()]
                continue
            yield _wrong(text, (m.start(), same.end()), f"the items came on {_days(items)}")
        elif day is not None:
            said = {(mo, d) for _, mo, d in day.dates}
            if all((w.month, w.day) in said for _, w, _ in items):
                case.bound.append(m.span())
                continue
            yield _wrong(text, (m.start(), day.end), f"the items came on {_days(items)}")
    pair, only = _split()
    had = sorted(session for _, _, session in items)
    for m in pair.finditer(folded):
        if sorted((_sessions_said(m, "a"), _sessions_said(m, "b"))) == had:
            case.bound.append(m.span())
            continue
        yield _wrong(text, m.span(), f"they came {' and '.join(had)} the session")
    for m in only.finditer(folded):
        lo, hi = _sentence(starts, m.start(), len(text))
        session = _sessions_said(m, "a")
        that = [e for e in items if e[2] == session]
        named = _spoken(items, quotes, folded, m.end(), hi)
        if len(that) == 1 and all(e in that for e in named):
            case.bound.append(m.span())
            continue
        yield _wrong(text, m.span(), f"{len(that)} came {session} the session"
                     + (", not the one named" if len(that) == 1 else ""))  # fmt: skip
    for m in _WEEKEND.finditer(folded):
        lo, hi = _sentence(starts, m.start(), len(text))
        spoken = _spoken(items, quotes, folded, lo, m.start()) or (items if len(items) == 1 else [])
        if not spoken:
            continue
        if all(w.weekday() >= 5 for _, w, _ in spoken):
            case.bound.append(m.span())
            continue
        yield _wrong(text, m.span(), f"the item came on {_days(spoken)}")
    for m in _ORDER.finditer(folded):
        lo, hi = _sentence(starts, m.start(), len(text))
        named = _spoken(items, quotes, folded, m.end(), hi)
        if len(named) != 1 or len(items) < 2:
            continue
        first = bool(m["first"] or m["first_es"] or m["first_of"])
        times = sorted(w for _, w, _ in items)
        when = named[0][1]
        if when == (times[0] if first else times[-1]):
            case.bound.append(m.span())
            continue
        yield _wrong(text, m.span(), f"that item came at {when:%Y-%m-%d %H:%M}, the items at "
                     + ", ".join(f"{w:%Y-%m-%d %H:%M}" for w in times))  # fmt: skip


@cache
def _split() -> tuple[re.Pattern[str], re.Pattern[str]]:
    """ "One headline came before the open and one after the close", "una antes de la apertura y
    otra tras el cierre"; "Only one of the two headlines came during the session"."""
    session = "|".join(
        f"(?P<{{k}}_{name}>{alternatives_of('sessions', name)})"
        for name in ("before", "during", "after")
    )
    one = r"(?:one|una?|uno)(?:\s+(?:headline|item|story|titular|noticia|nota))?"
    verb = r"(?:\s+(?:came|ran|was\s+published|hit|appeared|salió|se\s+publicó|llegó))?(?:\s+out)?"
    pair = re.compile(
        rf"(?<!\w){one}{verb}\s+(?:{session.format(k='a')})\s*,?\s+(?:and|y)\s+"
        rf"(?:one|the\s+other|otra|otro|la\s+otra|el\s+otro){verb}\s+(?:{session.format(k='b')})"
    )
    only = re.compile(
        r"(?<!\w)(?:only|just|solo|sólo)\s+(?:one|una?|uno)\s+(?:of\s+the|de\s+(?:los|las))\s+"
        r"(?:two|three|dos|tres)(?:\s+(?:headlines|items|stories|titulares|noticias|notas))?"
        rf"{verb}\s+(?:{session.format(k='a')})"
    )
    return pair, only


def _sessions_said(m: re.Match[str], k: str) -> str:
    return next(n for n in ("before", "during", "after") if m[f"{k}_{n}"])


def _count_other(folded: str, m: re.Match[str]) -> bool:
    """ "the two closes", "all three windows": a count of something else than news."""
    return bool(
        re.match(r"\s+(?:windows?|closes?|sessions?|days?|positions?|holdings?)", folded[m.end() :])
    )


def _spoken(
    items: list[tuple[dict[str, Any], datetime, str]],
    quotes: list[Any],
    folded: str,
    lo: int,
    hi: int,
) -> list[tuple[dict[str, Any], datetime, str]]:
    """The items quoted, or named by their wire, between `lo` and `hi`."""
    said = [q.text.strip("\"'“”«»‘’ ").casefold() for q in quotes if lo <= q.start < hi]
    out = []
    for entry in items:
        headline = str(entry[0].get("headline") or "").casefold()
        source = str(entry[0].get("source") or "").casefold()
        if any(s and s in headline for s in said) or (
            not said and source and source in folded[lo:hi]
        ):
            out.append(entry)
    return out


def _days(items: list[tuple[dict[str, Any], datetime, str]]) -> str:
    return ", ".join(sorted({f"{w:%Y-%m-%d (%a)}" for _, w, _ in items}))


def _sentence(starts: list[int], at: int, length: int) -> tuple[int, int]:
    lo = max((s for s in starts if s <= at), default=0)
    return lo, sentence_end(starts, at, length)


def _wrong(text: str, span: tuple[int, int], what: str) -> Reason:
    return Reason(
        rule=ReasonCode.WRONG_TIME,
        message=f'"{text[span[0] : span[1]]}" says when the news items came, but {what}',
        span=span,
    )

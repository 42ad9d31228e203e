"""When the news came out, said of the items as a whole: "All of these headlines came out last
week", "both stories ran yesterday", "los titulares se publicaron esta semana". A time word
relative to the report date, said of the subject's news, holds only where every item its search
returned was published in that span (on New York's calendar); one outside it is `wrong_time`.
Where the time word is one this rule does not read, nothing is bound and the closed world
decides.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from functools import cache, lru_cache
from itertools import pairwise
from typing import Any
from zoneinfo import ZoneInfo

from contract.reasons import ReasonCode
from verifier.lexicon import alternatives, alternatives_of
from verifier.periods import sentence_starts
from verifier.rules.case import Case
from verifier.verdict import Reason

_NEW_YORK = ZoneInfo("America/New_York")
_ONE, _START, _MIDDLE, _END, _OTHER = "\u3400", "\u3401", "\u3402", "\u3403", "\u3404"
"""Word characters the patterns never name: a wire the text names is written over with them
(`_START`, `_MIDDLE`..., `_END`; `_ONE` for a wire of one character), every other character of
it left as it is, so that the patterns see the same words, spaces and marks."""
_SLOT = f"(?:{_ONE}|{_START}[^{_END}]*{_END})"
"""The wire slot of every pattern over a masked text: exactly one wire written over."""
_PLACEHOLDERS = re.compile(f"[{_ONE}-{_OTHER}]")
_NEWS_CAME = re.compile(
    r"(?i)(?<!\w)(?:(?:all|both|each|every\s+one)\s+(?:of\s+)?)?(?:the|these|those|its|los|las|"
    r"estos|estas|sus|ambos|ambas|todos\s+los|todas\s+las)?\s*(?:headlines?|stor(?:y|ies)|"
    r"news(?:\s+items?)?|items?|articles?|reports?|titulares|noticias|notas)\s+(?:all\s+|todos\s+|"
    r"todas\s+)?(?:came\s+out|come\s+out|were\s+published|was\s+published|ran|appeared|dropped|"
    r"hit\s+the\s+wires?|are\s+from|were\s+from|is\s+from|was\s+from|date\s+from|dated\s+from|"
    r"se\s+publicaron|se\s+publicó|salieron|salió|aparecieron|son\s+de|eran\s+de)\s+"
    r"(?P<when>today|yesterday|this\s+week|earlier\s+this\s+week|last\s+week|over\s+the\s+weekend|"
    r"this\s+weekend|hoy|ayer|esta\s+semana|la\s+semana\s+pasada|el\s+fin\s+de\s+semana)(?!\w)"
)


def check_news_times(case: Case) -> Iterator[Reason]:
    """Each time said of a subject's news as a whole, held against when its items came out."""
    text = case.trace.draft or ""
    as_of = case.report_day
    if as_of is None:
        return
    for m in _NEWS_CAME.finditer(text):
        span = _span(m.group("when").casefold(), as_of)
        published = _published(case)
        if published is None:
            continue
        outside = sorted(d for d in published if not span[0] <= d <= span[1])
        if not outside:
            case.bound.append(m.span())
            continue
        yield Reason(
            rule=ReasonCode.WRONG_TIME,
            message=(
                f'"{m.group()}" places the news from {span[0]} to {span[1]}, but the search '
                f"returned items published {', '.join(str(d) for d in outside)}"
            ),
            span=m.span(),
        )


_OPENS_WITH = re.compile(
    r"(?i)[\s>*_#-]*(?:(?:and|also|y|también)\s+)?(?P<when>today|yesterday|this\s+week|"
    r"earlier\s+this\s+week|last\s+week|the\s+previous\s+week|the\s+week\s+before|"
    r"over\s+the\s+weekend|this\s+weekend|last\s+weekend|on\s+the\s+(?:day|session)\s+of\s+the\s+"
    r"(?:move|drop|fall|decline|gain|rise|rally)|on\s+the\s+same\s+day|that\s+same\s+day|hoy|ayer|"
    r"esta\s+semana|la\s+semana\s+(?:pasada|anterior)|el\s+fin\s+de\s+semana(?:\s+pasado)?|"
    r"el\s+mismo\s+día|el\s+día\s+de\s+la\s+(?:caída|subida|bajada|sesión))(?!\w)\s*,?"
)
"""A time that opens a sentence ("Last week, Reuters reported "…"", "Over the weekend, …",
"On the day of the move, CNBC ran "…"", "La semana pasada, Reuters publicó «…»")."""

_OTHER_TIME = re.compile(
    r"(?i)(?<!\w)(?:today|tonight|yesterday|hoy|ayer|monday|tuesday|wednesday|thursday|friday|"
    r"saturday|sunday|lunes|martes|miércoles|jueves|viernes|sábado|domingo|week|weekend|semana|"
    r"morning|afternoon|evening|mañana|tarde|noche|before|after|during|antes|después|durante|tras)"
    r"(?!\w)|\d"
)
"""Where a sentence names another time after its opener: what follows is that time's."""


def check_headline_openers(case: Case) -> Iterator[Reason]:
    """A sentence that opens with a time relative to the report date and quotes headlines, with
    no figure of its own for the time to take: each headline was published in that span (New
    York's calendar), else `wrong_time`. The same time before a figure ("Last week AXO fell
    3%") is the figure's, bound where figures are."""
    text = case.trace.draft or ""
    as_of = case.report_day
    quotes = [f.claim for f in case.findings if f.claim.kind == "headline" and f.supported_by]
    if as_of is None or not quotes:
        return
    starts = sentence_starts(text)
    inside = [(q.start, q.end) for q in quotes]
    figures = [
        f.claim.start for f in case.figures if not any(a <= f.claim.start < b for a, b in inside)
    ]
    for i, lo in enumerate(starts):
        opener = _OPENS_WITH.match(text, lo)
        if opener is None:
            continue
        hi = starts[i + 1] if i + 1 < len(starts) else len(text)
        other = _OTHER_TIME.search(text, opener.end(), hi)
        hi = other.start() if other else hi  # "Hoy Benzinga informó …, y ayer MarketWatch …"
        said = [q for q in quotes if lo <= q.start < hi]
        if not said or any(lo <= at < hi for at in figures):
            continue
        span = _span(opener["when"].casefold(), as_of)
        wrong = []
        for quote in said:
            days = {
                t.astimezone(_NEW_YORK).date()
                for s in case.evidence.headline_times(quote.text)
                if (t := _moment(s))
            }
            if days and not any(span[0] <= d <= span[1] for d in days):
                wrong.append((quote, sorted(days)))
        if not wrong:
            case.bound.append(opener.span("when"))
            continue
        quote, came = wrong[0]
        yield Reason(
            rule=ReasonCode.WRONG_TIME,
            message=(
                f'"{opener["when"]}" places "{quote.text}" from {span[0]} to {span[1]}, but it '
                f"came out on {', '.join(str(d) for d in came)}"
            ),
            span=(opener.start("when"), quote.end),
        )


_AFTER_NEWS = re.compile(
    r"(?i)(?<!\w)(?:after|following|tras|después\s+de(?:\s+que)?)(?!\w)[^.;:!?\n\"“«]{0,48}$"
)
"""What says a move came after a piece of news ("fell following \"...\"", "rose after Business
Wire ran \"...\"", "subió tras «...»", "después de que Reuters publicara «...»")."""
_MOVED = re.compile(rf"(?i)(?<!\w)(?:{alternatives('rise')}|{alternatives('fall')})(?!\w)")
_CLOSE = time(16, 0)


def check_moves_after_news(case: Case) -> Iterator[Reason]:
    """A day's move said to come after a quoted headline: the move is close to close, so a
    headline published after the report day's close (New York time) came after it, not
    before (`wrong_time`)."""
    text = case.trace.draft or ""
    as_of = case.report_day
    if as_of is None or not any(w in text.casefold() for w in ("after", "follow", "tras", "despu")):
        return
    close = datetime.combine(as_of, _CLOSE, _NEW_YORK)
    starts = sentence_starts(text)
    for f in case.findings:
        quote = f.claim
        if quote.kind != "headline" or not f.supported_by:
            continue
        joint = _AFTER_NEWS.search(text, max(quote.start - 60, 0), quote.start)
        if joint is None:
            continue
        lo = starts[bisect_right(starts, joint.start()) - 1]
        if not _MOVED.search(text, lo, joint.start()):
            continue  # "after the close, Reuters ran ...": no move said to follow it
        times = [t for s in case.evidence.headline_times(quote.text) if (t := _moment(s))]
        if not times or any(t <= close for t in times):
            continue
        yield Reason(
            rule=ReasonCode.WRONG_TIME,
            message=(
                f'the day\'s move is said to follow "{quote.text}", but it came out at '
                f"{min(times).isoformat()}, after the {as_of} close the move ended at"
            ),
            span=(joint.start(), quote.end),
        )


def _moment(stamp: str) -> datetime | None:
    try:
        when = datetime.fromisoformat(stamp)
    except ValueError:
        return None
    return when if when.tzinfo else when.replace(tzinfo=_NEW_YORK)


_COUNT_WORDS = {
    "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "uno": 1, "una": 1, "dos": 2,
    "tres": 3, "cuatro": 4, "cinco": 5,
}  # fmt: skip
_WEEKDAYS = (
    ("monday", "lunes"), ("tuesday", "martes"), ("wednesday", "miércoles"),
    ("thursday", "jueves"), ("friday", "viernes"), ("saturday", "sábado"), ("sunday", "domingo"),
)  # fmt: skip


@cache
def _items_came() -> re.Pattern[str]:
    """The items of a search said, all or a count of them, to have come in a session or on a
    weekday ("Both headlines came before the open", "Two of the three items ran on Monday",
    "Ambos titulares se publicaron durante la sesión")."""
    sessions = "|".join(
        f"(?P<{name}>{alternatives_of('sessions', name)})" for name in ("before", "during", "after")
    )
    days = "|".join(f"{en}|{es}" for en, es in _WEEKDAYS)
    count = r"\d|" + "|".join(_COUNT_WORDS)
    return re.compile(
        r"(?i)(?<!\w)(?:(?P<all>all|both|each|every\s+one|todos|todas|ambos|ambas)"
        r"(?:\s+(?:of\s+)?(?:the|these|those|its|los|las|sus))?"
        rf"|(?P<n>{count})\s+(?:of|de)\s+(?:the\s+|its\s+|los\s+|las\s+|sus\s+)?(?P<m>{count}))"
        r"\s+(?:(?:news\s+)?(?:headlines?|stories|items?|articles?|reports?)|titulares|noticias)"
        r"\s+(?:all\s+)?(?:came(?:\s+out)?|ran|were\s+published|appeared|hit\s+the\s+wires?|"
        r"se\s+publicaron|salieron|aparecieron|llegaron)\s+"
        rf"(?:{sessions}|(?:on|el)\s+(?P<day>{days}))(?!\w)"
    )


def check_items_came(case: Case) -> Iterator[Reason]:
    """All, or a count, of the subject's news items said to have come in a session or on a
    weekday, held against when each came (its `session` where the result gives one, else its
    New York time: before 9:30, during, after 16:00)."""
    text = case.trace.draft or ""
    folded = text.casefold()
    if not any(
        w in folded
        for w in ("came", "ran", "publish", "appeared", "wire", "salier", "aparec", "llegaron")
    ):
        return
    items = _items(case)
    if not items:
        return
    for m in _items_came().finditer(text):
        if m["day"]:
            wanted = next(i for i, pair in enumerate(_WEEKDAYS) if m["day"].casefold() in pair)
            hits = sum(when.weekday() == wanted for when, _ in items)
        else:
            session = next(k for k in ("before", "during", "after") if m[k])
            hits = sum(said == session for _, said in items)
        if m["all"]:
            held, claim = hits == len(items), f"all {len(items)}"
        else:
            n = _COUNT_WORDS.get(m["n"].casefold()) or int(m["n"])
            total = _COUNT_WORDS.get(m["m"].casefold()) or int(m["m"])
            held, claim = hits == n and total == len(items), f"{n} of {total}"
        if held:
            case.bound.append(m.span())
            continue
        yield Reason(
            rule=ReasonCode.WRONG_TIME,
            message=(
                f'"{m.group()}" says {claim} of the news items came then, but {hits} of the '
                f"{len(items)} the search returned did"
            ),
            span=m.span(),
        )


@lru_cache(maxsize=64)
def _item_came(wires: str = _SLOT) -> re.Pattern[str]:
    """One item said to have come in a session or on a day, in a sentence after its quote ("The
    story was published after the close", "It came out on December 30", "Se publicó durante la
    sesión", "la noticia salió el 30 de diciembre"), or named by its wire ("The Reuters item ran
    before the open", "La noticia de Reuters salió antes de la apertura", "Reuters publicó la
    noticia tras el cierre") or as the only one ("The only headline came on Monday")."""
    sessions = "|".join(
        f"(?P<{name}>{alternatives_of('sessions', name)})" for name in ("before", "during", "after")
    )
    noun = r"(?:news\s+)?(?:story|headline|item|article|report|piece|news)"
    return re.compile(
        r"(?i)(?<!\w)(?:(?:(?:the|this|that)\s+(?:(?:only|lone|single|sole)\s+)?"
        + noun
        + rf"|the\s+(?P<wire>{wires})\s+{noun}"
        + rf"|(?:la|esta|esa)\s+(?:noticia|nota)(?:\s+de\s+(?P<de>{wires}))?|(?:el|este|ese)\s+(?:único\s+|solo\s+)?titular"
        + r"|it)\s+(?:came\s+out|came|was\s+published|ran|appeared|hit\s+the\s+wires?|"
        r"fue\s+publicad[oa]|se\s+publicó|salió|apareció|(?P<dated>is\s+from|was\s+from|is\s+dated|"
        r"was\s+dated|dates\s+from|es\s+del?|era\s+del?))"
        + rf"|(?P<by>{wires})\s+(?:ran|published|publicó|sacó)\s+(?:it|the\s+(?:story|item|headline)|"
        r"la\s+noticia|la\s+nota|el\s+titular)|se\s+publicó|salió\s+publicad[oa])"
        rf"\s+(?:{sessions}|(?P<on>on|el)\s+|(?P<rel>yesterday|the\s+day\s+before|the\s+previous\s+"
        r"day|today|the\s+same\s+day|ayer|el\s+día\s+anterior|hoy)(?!\w)|(?:on\s+)?(?P<weekday>"
        r"monday|tuesday|wednesday|thursday|friday|saturday|sunday|(?:el\s+)?(?:lunes|martes|"
        r"miércoles|jueves|viernes|sábado|domingo))(?!\w)|(?(dated)(?=\S)|(?!x)x))"
    )


def _wires(sources: tuple[str, ...]) -> str:
    """The wires as one alternation, the longest first (none: one that never matches)."""
    return "|".join(re.escape(w) for w in sorted(sources, key=len, reverse=True)) or "(?!x)x"


@lru_cache(maxsize=1024)
def _wire_pattern(wire: str) -> re.Pattern[str]:
    """Where the text names the wire as a whole word (the patterns' wire slots stand between
    spaces, brackets or marks, never inside a word)."""
    return re.compile(rf"(?<!\w){re.escape(wire)}(?!\w)", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class _Reading:
    """The text the wire patterns search, the slot to build them with, the wires named."""

    searched: str
    slot: str
    named: tuple[str, ...] = ()


def _reading(text: str, sources: tuple[str, ...]) -> _Reading:
    """The text with each wire of `sources` it names written over (`_ONE`...), searched by
    patterns built with `_SLOT`: compiled once for every draft, not once per set of wires (a
    real feed names another set on almost every ticker, several milliseconds a compile).

    A wire that shares a word with the patterns' own words ("News", "Business Wire") or starts
    or ends with a mark could hide a word the patterns read if written over: it stays, and the
    slot also names it, as does a wire said inside it ("Dow Jones" in "Dow Jones Newswires").
    Those few wires recur across a feed, so their patterns are compiled for few sets. Where
    such a wire is itself said inside one written over, every named wire is searched by name,
    with no text written over."""
    named = tuple(w for w in sources if _wire_pattern(w).search(text))
    if not named:
        return _Reading(text, _SLOT)
    chars = list(_PLACEHOLDERS.sub(_OTHER, text))
    owner: list[str | None] = [None] * len(text)  # the wire each character was taken for
    kept = {w for w in named if not _maskable(w)}  # never written over
    by_name = set(kept)
    for wire in sorted(named, key=len, reverse=True):  # as the alternation: the longest first
        for m in _wire_pattern(wire).finditer(text):
            a, b = m.span()
            over = {o for o in owner[a:b] if o is not None}
            if over:
                if wire in kept and not over <= kept:
                    return _Reading(text, _wires(named), named)  # inside one written over
                if over <= kept:
                    by_name.add(wire)  # said inside a wire searched by name
                continue
            owner[a:b] = [wire] * (b - a)
            if wire in kept:
                continue
            for i in range(a, b):
                if text[i].isalnum() or text[i] == "_":
                    chars[i] = _MIDDLE
            chars[a], chars[b - 1] = (_ONE, _ONE) if b - a == 1 else (_START, _END)
    slot = f"(?:{_SLOT}|{_wires(tuple(sorted(by_name)))})" if by_name else _SLOT
    return _Reading("".join(chars), slot, named)


@lru_cache(maxsize=1024)
def _maskable(wire: str) -> bool:
    """Whether writing the wire over hides nothing the patterns read: it starts and ends with
    a letter or digit (its edges stay word edges), and none of its words is a word of the
    patterns or starts with one (a pattern can start at any of its words, and a phrase of
    theirs, "before the open", could end inside one, "Opening Bell")."""
    if not (wire[:1].isalnum() and wire[-1:].isalnum()):
        return False
    grammar = _grammar_words()
    return not any(
        word[:n] in grammar
        for word in re.findall(r"[^\W\d_]+", wire.casefold())
        for n in range(2, len(word) + 1)
    )


@cache
def _grammar_words() -> frozenset[str]:
    """Every run of letters the wire patterns spell out (their sessions' words included)."""
    sources = [_item_came().pattern, _wire_aside().pattern, _order_of_wires().pattern]
    sources += [p.pattern for p in _sessions_and_wires()]
    return frozenset(w.casefold() for s in sources for w in re.findall(r"[^\W\d_]+", s))


class _Found:
    """A match over the masked text, read on the draft: the same spans, the draft's words."""

    __slots__ = ("_match", "_text")

    def __init__(self, match: re.Match[str], text: str) -> None:
        self._match, self._text = match, text

    def __getitem__(self, group: int | str) -> Any:
        start, end = self._match.span(group)
        return None if start < 0 else self._text[start:end]

    def group(self, group: int | str = 0) -> Any:
        return self[group]

    def span(self, group: int | str = 0) -> tuple[int, int]:
        return self._match.span(group)

    def start(self, group: int | str = 0) -> int:
        return self._match.start(group)

    def end(self, group: int | str = 0) -> int:
        return self._match.end(group)

    @property
    def lastgroup(self) -> str | None:
        return self._match.lastgroup


def _found(pattern: re.Pattern[str], reading: _Reading, text: str, *span: int) -> list[_Found]:
    return [_Found(m, text) for m in pattern.finditer(reading.searched, *span)]


def check_item_came(case: Case) -> Iterator[Reason]:
    """One news item said to have come in a session or on a day, in a sentence that quotes no
    headline: the item its wire names, else the one quoted last before it (or the search's only
    one), held against when it came; another session or day is `wrong_time`."""
    text = case.trace.draft or ""
    folded = text.casefold()
    items = news_items(case)
    if not items:
        return
    reading = _reading(
        text, tuple(sorted({str(i.get("source")) for i, _, _ in items if i.get("source")}))
    )
    yield from _wire_asides(case, text, items, reading)
    yield from _wire_sessions(case, text, items, reading)
    if reading.named:
        yield from _wire_order(case, text, items, reading)
    if not any(
        w in folded
        for w in (
            "came",
            "ran",
            "publi",
            "appeared",
            "wire",
            "sali",
            "apareci",
            "from",
            "dated",
            " de",
        )
    ):
        return
    quotes = sorted(
        (f.claim for f in case.findings if f.claim.kind == "headline" and f.supported_by),
        key=lambda c: c.start,
    )
    dates = {f.claim.start: f.claim for f in case.findings if f.claim.kind == "date"}
    report = case.report_day
    for m in _found(_item_came(reading.slot), reading, text):
        before = [q for q in quotes if q.end <= m.start()]
        if any(q.start < m.start() < q.end for q in quotes):
            continue
        wire = m["wire"] or m["de"] or m["by"]
        if wire:
            which = [i for i in items if str(i[0].get("source")).casefold() == wire.casefold()]
        elif before:
            said = before[-1].text.casefold()
            which = [i for i in items if _same_headline(i[0], said)]
        else:
            which = items if len(items) == 1 else []
        if not which:
            continue
        dated_only = (
            m["dated"]
            and not (m["rel"] or m["weekday"] or m["on"])
            and not any(m[k] for k in ("before", "during", "after"))
        )
        if m["on"] or dated_only:
            day = dates.get(m.end())
            if day is None or not day.dates:
                continue
            wanted = {(y, mo, d) for y, mo, d in day.dates if d}
            held = any(
                (when.year, when.month, when.day) in wanted
                or (None, when.month, when.day) in wanted
                for _, when, _ in which
            )
            span, what = (m.start(), day.end), f"on {day.text}"
        elif m["rel"] or m["weekday"]:
            if report is None:
                continue
            if m["rel"]:
                back = 0 if m["rel"].casefold() in ("today", "the same day", "hoy") else 1
                held = any(when.date() == report - timedelta(days=back) for _, when, _ in which)
            else:
                said_day = m["weekday"].casefold().removeprefix("el ").strip()
                weekday = next(k for k, names in enumerate(_WEEKDAYS) if said_day in names)
                held = any(
                    when.weekday() == weekday and 0 <= (report - when.date()).days < 7
                    for _, when, _ in which
                )
            span, what = m.span(), m["rel"] or m["weekday"]
        else:
            session = next(k for k in ("before", "during", "after") if m[k])
            held = all(said_session == session for _, _, said_session in which)
            span, what = m.span(), {"before": "before the open", "during": "during the session",
                                    "after": "after the close"}[session]  # fmt: skip
        if held:
            case.bound.append(span)
            continue
        came = ", ".join(f"{when:%Y-%m-%d %H:%M} ({s})" for _, when, s in which)
        yield Reason(
            rule=ReasonCode.WRONG_TIME,
            message=f'"{text[span[0] : span[1]]}" says the item came {what}, but it came {came}',
            span=span,
        )


@lru_cache(maxsize=64)
def _wire_aside(wires: str = _SLOT) -> re.Pattern[str]:
    sessions = "|".join(
        f"(?P<{name}>{alternatives_of('sessions', name)})" for name in ("before", "during", "after")
    )
    return re.compile(
        rf"(?i)\(\s*(?P<wire>{wires})\s*[,;:–—-]\s*(?:{sessions})?([^()\n]{{0,40}})\)"
    )


def _wire_asides(
    case: Case,
    text: str,
    items: list[tuple[dict[str, Any], datetime, str]],
    reading: _Reading,
) -> Iterator[Reason]:
    """A wire and a time in brackets where no quote stands before them ("News: 1 (Reuters,
    before the open)", "Noticias: 1 (Reuters, 30 de diciembre)"): that wire's items, one of
    which must have come in that session or on that day (`wrong_time` where none did)."""
    quoted = [f.claim.end for f in case.findings if f.claim.kind == "headline"]
    for m in _found(_wire_aside(reading.slot), reading, text):
        if any(0 <= m.start() - end <= 3 for end in quoted):
            continue  # after its quote: the quote's own rules hold it
        which = [i for i in items if str(i[0].get("source")).casefold() == m["wire"].casefold()]
        session = next((k for k in ("before", "during", "after") if m[k]), None)
        days = [
            f.claim
            for f in case.findings
            if f.claim.kind == "date" and m.start() < f.claim.start < m.end() and f.claim.dates
        ]
        if session is None and not days:
            continue
        in_session = session is None or any(s == session for _, _, s in which)
        on_days = all(
            any(
                when.month == mo and when.day == d and (y is None or when.year == y)
                for _, when, _ in which
            )
            for day in days
            for y, mo, d in day.dates[:1]
            if d
        )
        held = in_session and on_days
        if held:
            case.bound.append(m.span())
            continue
        came = ", ".join(f"{when:%Y-%m-%d %H:%M} ({s})" for _, when, s in which)
        yield Reason(
            rule=ReasonCode.WRONG_TIME,
            message=f'"{m.group()}" says a {m["wire"]} item came then, but its items came {came}',
            span=m.span(),
        )


_CLAUSE = re.compile(
    r"[.;!?\n](?!\d)|,\s+(?:and|but|while|whereas|y|pero|mientras)\s|\s(?:and|y)\s+(?=the\s|la\s|el\s)"
)
_DENIED = re.compile(
    r"(?i)(?<!\w)(?:nothing|none|neither|no|nada|ninguna|ninguno|ningún|ni)(?!\w)(?!\s+(?:later|earlier|más|other))"
)
"""A denial before a session ("Nothing came before the open", "Neither headline came during the
session", "Nada antes de la apertura"): no item of the search came then."""
_ONE_ITEM = re.compile(
    r"(?i)(?<!\w)(?:the|its|el|la|su)\s+(?:(?:only|lone|single|sole|one|única|único|sola|solo)\s+)?"
    r"(?:headline|item|story|news\s+item|titular|noticia|nota)(?!\w)"
)


@lru_cache(maxsize=64)
def _sessions_and_wires(wires: str = _SLOT) -> tuple[re.Pattern[str], re.Pattern[str]]:
    sessions = "|".join(
        f"(?P<{name}>{alternatives_of('sessions', name)})" for name in ("before", "during", "after")
    )
    return re.compile(rf"(?i)(?<!\w)(?:{sessions})(?!\w)"), re.compile(
        rf"(?i)(?<!\w)(?:{wires})(?!\w)"
    )


def _wire_sessions(
    case: Case,
    text: str,
    items: list[tuple[dict[str, Any], datetime, str]],
    reading: _Reading,
) -> Iterator[Reason]:
    """A session said in a clause that names one wire and quotes no headline ("Reuters published
    before the open", "| Reuters | before the open |", "Benzinga's item was after-hours"), or
    that speaks of the search's only item ("The only headline hit intraday"): that wire's items
    (or the only one) must include one of that session (`wrong_time` where none does)."""
    said_sessions, said_wires = _sessions_and_wires(reading.slot)
    quoted = [(f.claim.start, f.claim.end) for f in case.findings if f.claim.kind == "headline"]
    cuts = [0, *(m.end() for m in _CLAUSE.finditer(text)), len(text)]
    for lo, hi in pairwise(cuts):
        if any(lo <= a < hi or lo < b <= hi for a, b in quoted):
            continue  # a quote's own session is the quote rules'
        sessions = [*said_sessions.finditer(text, lo, hi)]
        if not sessions:
            continue
        wires = {w.group().casefold() for w in _found(said_wires, reading, text, lo, hi)}
        denied = _DENIED.search(text, lo, sessions[0].start())
        if len(wires) == 1:
            wire = wires.pop()
            which = [i for i in items if str(i[0].get("source")).casefold() == wire]
        elif not wires and (denied or (len(items) == 1 and _ONE_ITEM.search(text, lo, hi))):
            which = items  # "Nothing came before the open", "The only headline hit intraday"
        else:
            continue
        for m in sessions:
            session = m.lastgroup or ""
            if any(s == session for _, _, s in which) != bool(denied):
                case.bound.append(m.span())
                continue
            came = ", ".join(f"{when:%Y-%m-%d %H:%M} ({s})" for _, when, s in which)
            yield Reason(
                rule=ReasonCode.WRONG_ABSENCE if denied else ReasonCode.WRONG_TIME,
                message=(
                    f'"{text[denied.start() : m.end()]}" says no item came then, but {came}'
                    if denied
                    else f'"{m.group()}" says the item came then, but it came {came}'
                ),
                span=(denied.start(), m.end()) if denied else m.span(),
            )


def _same_headline(item: dict[str, Any], said: str) -> bool:
    headline = item.get("headline")
    if not isinstance(headline, str):
        return False
    headline = headline.casefold()
    return said in headline or headline in said


@lru_cache(maxsize=64)
def _order_of_wires(wires: str = _SLOT) -> re.Pattern[str]:
    return re.compile(
        rf"(?i)(?<!\w)(?:(?:the\s+)?(?P<first>{wires})(?:['’]s?)?|(?P<the>the|this|that|its))"
        r"(?:\s+[\w-]+){0,4}?\s+"
        r"(?P<order>before|after|earlier\s+than|later\s+than|ahead\s+of|antes\s+del?|"
        r"después\s+del?|tras)\s+(?:the\s+|el\s+|la\s+|lo\s+de\s+)?(?:(?:one|item|story|"
        rf"report|nota|noticia)\s+(?:of|from|de)\s+)?(?P<second>{wires})(?!\w)"
    )


def _wire_order(
    case: Case,
    text: str,
    items: list[tuple[dict[str, Any], datetime, str]],
    reading: _Reading,
) -> Iterator[Reason]:
    """An item said to come before or after another wire's ("PR Newswire's story came before
    Benzinga's report", "The story ran after Benzinga's"): every item of the first wire (or, for
    "the story", of every other wire) against every item of the second, by their times
    (`wrong_time` where the order does not hold)."""
    for m in _found(_order_of_wires(reading.slot), reading, text):
        second = m["second"].casefold()
        first = m["first"].casefold() if m["first"] else ""
        if first == second:
            continue
        mine = [  # "The story came before Benzinga's": the items of the other wires
            when
            for i, when, _ in items
            if (str(i.get("source")).casefold() == first)
            or (not first and str(i.get("source")).casefold() != second)
        ]
        theirs = [when for i, when, _ in items if str(i.get("source")).casefold() == second]
        word = m["order"].casefold()
        later = word in ("after", "later than", "tras") or word.startswith("después")
        if mine and theirs and all((a > b) if later else (a < b) for a in mine for b in theirs):
            case.bound.append(m.span("order"))
            continue
        yield Reason(
            rule=ReasonCode.WRONG_TIME,
            message=(
                f'"{m.group()}" says an item came {word} {m["second"]}\'s, but '
                + ", ".join(
                    f"{i.get('source')} ran one {when:%Y-%m-%d %H:%M}" for i, when, _ in items
                )
            ),
            span=m.span("order"),
        )


def news_items(case: Case) -> list[tuple[dict[str, Any], datetime, str]]:
    """Each news item the trace's searches returned, with its New York time and its session
    (the result's, else by that time: before 9:30, during, after 16:00)."""
    out = []
    for event in case.trace.events:
        result = event.result
        if event.tool != "search_news" or not isinstance(result, dict):
            continue
        for item in result.get("news") or []:
            stamp = item.get("published_at") if isinstance(item, dict) else None
            if not isinstance(stamp, str):
                continue
            try:
                when = datetime.fromisoformat(stamp).astimezone(_NEW_YORK)
            except ValueError:
                continue
            session = item.get("session")
            if session not in ("before", "during", "after"):
                minutes = when.hour * 60 + when.minute
                session = "before" if minutes < 570 else "during" if minutes < 960 else "after"
            out.append((item, when, str(session)))
    return out


def _items(case: Case) -> list[tuple[datetime, str]]:
    return [(when, session) for _, when, session in news_items(case)]


def _span(when: str, as_of: date) -> tuple[date, date]:
    monday = as_of - timedelta(days=as_of.weekday())
    if when in ("today", "hoy"):
        return as_of, as_of
    if when in ("yesterday", "ayer"):
        return as_of - timedelta(days=1), as_of - timedelta(days=1)
    if "same" in when or "mismo" in when or " of the " in when or " de la " in when:
        return as_of, as_of  # the day of the move: the report date's session
    if "previous" in when or "before" in when or "anterior" in when:
        return monday - timedelta(days=7), monday - timedelta(days=1)
    if "weekend" in when or "fin de semana" in when:
        saturday = monday - timedelta(days=2)
        return saturday, saturday + timedelta(days=1)
    if "last" in when or "pasada" in when:
        return monday - timedelta(days=7), monday - timedelta(days=1)
    return monday, as_of  # this week, earlier this week, esta semana


def _published(case: Case) -> list[date] | None:
    """The New York days the trace's news items came out; None where no search returned any."""
    return [when.date() for when, _ in _items(case)] or None


_TOO_LATE = re.compile(
    r"(?i)(?<!\w)(?:it|this|that|which|the\s+(?:story|item|headline|report|news)|these|they|ésta|esta|"
    r"esa|la\s+noticia|el\s+titular)\s+(?:cannot|could\s+not|can['’]t|couldn['’]t|did\s+not|"
    r"didn['’]t|no\s+pudo|no\s+puede|no\s+pudieron)\s+(?:have\s+|haber\s+)?(?:driven|moved|caused|"
    r"explained|influenced|affected|impulsado|provocado|explicado|influido\s+en|movido)\s+"
    r"(?:the\s+|that\s+|this\s+|el\s+|la\s+)?(?:day['’]s\s+|session['’]s\s+|[a-z]+day['’]s\s+)?"
    r"(?:move|trading|session|drop|gain|decline|rise|fall|movimiento|sesión|caída|subida)(?!\w)"
)
"""A headline said to have come too late to move the day ("so it cannot have driven that
day's move", "así que no pudo haber provocado la caída del día")."""


def check_too_late_to_move(case: Case) -> Iterator[Reason]:
    """A headline said to be too late to have moved the day is one published after the report
    day's close (New York time): the wire named before it in its sentence, else the headline
    quoted last before it. One that came earlier is `wrong_time`; one the draft does not tie
    to any item stays unbound."""
    text = case.trace.draft or ""
    as_of = case.report_day
    if as_of is None or not any(w in text.casefold() for w in ("not", "n't", "no ")):
        return
    close = datetime.combine(as_of, _CLOSE, _NEW_YORK)
    starts = sentence_starts(text)
    items = news_items(case)
    quotes = [f.claim for f in case.findings if f.claim.kind == "headline" and f.supported_by]
    for m in _TOO_LATE.finditer(text):
        lo = starts[bisect_right(starts, m.start()) - 1]
        said = text[lo : m.start()].casefold()
        named = [
            when
            for item, when, _ in items
            if isinstance(item.get("source"), str) and item["source"].casefold() in said
        ]
        if not named:
            before = [q for q in quotes if q.end <= m.start()]
            if before:
                named = [
                    t for s in case.evidence.headline_times(before[-1].text) if (t := _moment(s))
                ]
        if not named:
            continue
        if all(when > close for when in named):
            case.bound.append(m.span())
            continue
        yield Reason(
            rule=ReasonCode.WRONG_TIME,
            message=(
                f'"{m.group()}" says the item came too late to move the {as_of} session, but it '
                f"came out at {min(named).isoformat()}, before that day's close"
            ),
            span=m.span(),
        )

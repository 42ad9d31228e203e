"""Absence: "no headlines", "nothing is scheduled", "no earnings in the window" are claims like
any figure, held against the results that would hold what the draft says there is none of.

Every word of such a sentence may be a free word, so the closed world alone would let a false
absence pass: this rule reads each thing a draft denies (`absence` in the lexicon) after a word
that denies it in its clause, and holds it against the searches (news) or the events results
(events, or one kind of event) of its ticker. Where one holds some it is `wrong_absence`; where
the trace has no such call at all the absence is `unverified_claim`.
"""

from __future__ import annotations

import calendar
import re
from bisect import bisect_right
from collections.abc import Iterator
from datetime import date, timedelta
from functools import cache
from typing import Any

from contract.reasons import ReasonCode
from verifier.claim import Claim
from verifier.lexicon import LANGUAGES, alternatives, grouped
from verifier.periods import sentence_starts
from verifier.rules.case import Case
from verifier.scanner import PhraseScan, fold_aligned
from verifier.times import WINDOW
from verifier.verdict import Reason

_NEWS_TOOLS = frozenset({"search_news"})
_EVENT_TOOLS = frozenset({"get_events"})
_BREAK = re.compile(r"[.;:!?\n]|,\s|\s(?:but|while|and|pero|y)\s")
_SENTENCE_BREAK = re.compile(r"[.;!?\n](?!\d)")


@cache
def _scans() -> tuple[PhraseScan, re.Pattern[str]]:
    deny = re.compile(rf"(?<!\w)(?:{alternatives('absence_words')})(?!\w)")
    return PhraseScan(grouped("absence")), deny


def check_absence(case: Case) -> Iterator[Reason]:
    """Each thing the draft says there is none of, held against the calls that would hold it."""
    text = case.trace.draft or ""
    objects, deny = _scans()
    folded = fold_aligned(text)
    found = objects.finditer(folded)
    yield from _nothing_else(case, text, folded, found)
    yield from _came_back_empty(case, text, folded, found)
    yield from _searched_over(case, folded)
    if not found:
        return
    tickers = [f.claim for f in case.findings if f.claim.kind == "ticker"]
    kinds = [m for m in found if m.lastgroup not in ("news", "events")]
    dated = [f.claim for f in case.findings if f.claim.kind == "date"]
    for m in found:
        if m.lastgroup == "events" and any(0 <= m.start() - k.end() < 25 for k in kinds):
            continue  # "no dividend scheduled": the kind says what is denied
        if m.lastgroup == "news" and _ANALYSTS.search(folded, max(m.start() - 14, 0), m.start()):
            continue  # "no analyst coverage": not news (`verifier.rules.disclaimers`)
        if not _denied(folded, m, deny):
            reason = _presence(case, text, m, tickers, dated)
            if reason is None and m.lastgroup == "news":  # "two headlines in the past month"
                reason = _wider_than_searched(case, folded, m, _subject(tickers, m.start()))
            if reason is not None:
                yield reason
            continue
        kind = m.lastgroup or ""
        subject = _subject(tickers, m.start())
        if kind != "news" and (
            _EVER.match(folded, m.end())
            or (
                _HABITUAL.search(folded, max(m.start() - 30, 0), m.start())
                and not _WINDOW_NAMED.match(folded, m.end())
            )
        ):
            yield Reason(
                rule=ReasonCode.UNVERIFIED_CLAIM,
                message=f'"{text[m.start() : m.end()]}" is denied for all time, but the events '
                "results cover the window searched only",
                span=m.span(),
            )
            continue
        if kind != "news" and (month := _month_beyond(case, text, folded, m, subject)):
            yield month
            continue
        beyond = _EVER.match(folded, m.end()) or _WHOLE_MONTH.match(folded, m.end())
        if kind == "news" and beyond and not _THAT_WINDOW.match(folded, beyond.end()):
            yield Reason(
                rule=ReasonCode.UNVERIFIED_CLAIM,
                message=f'"{text[m.start() : m.end()]}" is denied beyond the days the news search '
                "covered: a search reports on its own window only",
                span=m.span(),
            )
            continue
        day = _day_after(case, folded, m)
        if kind == "news" and day is None:
            wider = _wider_than_searched(case, folded, m, subject)
            if wider is not None:
                yield wider
                continue
        held, searched = _held(case, kind, subject, day)
        window = _window_before(case, folded, m, dated)
        if window is not None and not held:
            reason = _other_window(case, kind, subject, window)
            if reason is not None:
                yield reason
                continue
        if held and _OTHER.search(folded, max(m.start() - 24, 0), m.end() + 12):
            held = _unnamed(case, kind, subject, dated)  # "no hay más eventos": none unnamed
        said = text[m.start() : m.end()]
        about = f" for {subject}" if subject else ""
        if held:
            yield Reason(
                rule=ReasonCode.WRONG_ABSENCE,
                message=f'the draft says there is no "{said}"{about}, but the trace has {held}',
                span=m.span(),
            )
        elif searched:  # checked: "no tiene eventos previstos" holds its "previstos"
            case.bound.append(m.span())
            if kind == "news":  # "no relevant news": of an empty search, every item is none
                case.bound += [
                    q.span()
                    for q in _QUALIFIER.finditer(folded, max(m.start() - 14, 0), m.end() + 14)
                ]
        if not held and not searched:
            yield Reason(
                rule=ReasonCode.UNVERIFIED_CLAIM,
                message=(
                    f'the draft says there is no "{said}"{about}, and no call of the trace '
                    "looked for it"
                ),
                span=m.span(),
            )


_REFERRED = re.compile(
    r"(?<!\w)(?:whether|si)(?!\w)|"
    r"(?<!\w)(?:that|this|those|these|esa|ese|esas|esos|esta|este|estas|estos|aquella|aquel)\s+$|"
    r"(?<!\w)(?:that|que)\s+(?:the|a|an|any|el|la|los|las|un|una)\s+$|"
    r"(?<!\w)(?:ties|links|connects|attributes|relates|vincula|liga|conecta|atribuye)\s+"
    r"(?:(?:any\s+of\s+the|a|an|any|the|this|that|un|una|el|la|ningún|ninguna)\s+)?$"
)
"""Words between a negation and news that make the news a named item, not what is denied ("does
not show that the headline caused it": a clause about the item; "nothing in the data ties a
headline to the move": what the news does not do)."""
_RELATES = re.compile(
    r"\s+(?:(?:directly|clearly|obviously|explicitly|directamente|claramente)\s+)?(?:points?|"
    r"explains?|accounts?\s+for|ties|links|relates|apunta|apuntan|explica|explican|vincula|"
    r"vinculan|liga|ligan)(?!\w)"
)
"""A relation said of the news right after it ("no headline points directly to the move"):
what the news does not do, not news said to be missing."""
_ANALYSTS = re.compile(r"(?<!\w)(?:analysts?|analistas?)['’]?\s+(?:de\s+)?$")
_QUALIFIER = re.compile(
    r"(?<!\w)(?:relevant|significant|notable|material|major|important|fresh|new|relevantes?|"
    r"significativas?|importantes?|destacad[oa]s?|nuevas?|nuevos?|associated|related|linked|"
    r"asociadas?|relacionadas?|vinculadas?)(?!\w)"
)
"""A word that narrows denied news ("no relevant news", "noticias relevantes"): where the search
found nothing it narrows nothing, so the denial holds as it stands."""
_PRESENT = re.compile(
    r"\s+(?:is|are|will\s+be|was|were)\s+(?:also\s+)?(?:scheduled|due|expected|set|coming)|"
    r"\s*[*_]*\s*[:—–|-]\s*[*_]*\s*(?:(?:also|too|también)\s+)?(?:scheduled|expected|due|upcoming|"
    r"previst[oa]|programad[oa]|pendiente|yes|sí)(?!\w)|"
    r"\s+(?:in|within|during|en|durante|dentro\s+de)\s+(?:the\s+|la\s+|el\s+)?(?:window|period|"
    r"range|ventana|periodo|período)(?!\w)"
    r"(?![*_]*\s*[:—–|-]\s*[*_]*\s*(?:none|nothing|ninguno|ninguna|nada|zero|cero|0|no)(?!\w))|"
    r"\s+(?:scheduled|expected|programad[oa]s?|previst[oa]s?)(?!\s+(?:for|on|para|el)\s)|"
    r"\s+(?:in|within|over|during|en|durante)\s+(?:the\s+|los\s+)?(?:next|coming|upcoming|próximos)\s+\d{1,2}\s+(?:days|días)|"
    r"\s+(?:later\s+)?(?:this|next)\s+(?:week|month)|\s+(?:este|el\s+próximo)\s+mes|\s+later\s+in\s+the\s+month"
)
_PRESENT_BEFORE = re.compile(
    r"(?<!\w)(?<!only\s)(?<!solo\s)(?:pays?|will\s+pay|reports?|will\s+report|has|have|shows?|lists?|includes?|holds?|"
    r"also|tiene|presenta|presentará|paga|pagará|reparte|repartirá|además|también|is|será|es|"
    r"plus|as\s+well\s+as|along\s+with|together\s+with|besides|además\s+de|junto\s+con|"
    r"y\s+también|and\s+also)\s+"
    r"(?:(?:a|an|its|one|another|quarterly|annual|un|una|su|otro|otra)\s+)*$"
)
"""What says an event is there before its kind ("pays a dividend", "also reports earnings",
"tiene un evento"): a presence, unless a day is named beside it."""
_SCOPE = re.compile(
    r"\s+(?:announced|anunciad[oa]s?|(?:that|which|que)\s+(?:were|had|have|han|hayan))"
)
"""The calendar's scope said of its kind ("includes events announced by the as-of date"): no
event said to be there."""


def _presence(
    case: Case, text: str, m: re.Match[str], tickers: list[Claim], dated: list[Claim]
) -> Reason | None:
    """An event said to come with no day named for it ("its quarterly earnings are scheduled
    within the next 30 days"): some such event must be in the events results."""
    kind = m.lastgroup or ""
    folded = text.casefold()
    if kind == "news" or not (
        _PRESENT.match(folded, m.end())
        or (
            _PRESENT_BEFORE.search(folded, max(m.start() - 40, 0), m.start())
            and not _SCOPE.match(folded, m.end())
        )
    ):
        return None
    if any(0 <= d.start - m.end() < 60 for d in dated):
        return None  # a day is named: the event-day rules hold it
    subject = _subject(tickers, m.start())
    held, searched = _held(case, kind, subject, None)
    if held or not searched:
        return None
    about = f" for {subject}" if subject else ""
    return Reason(
        rule=ReasonCode.WRONG_ABSENCE,
        message=(
            f'the draft says "{text[m.start() : m.end()]}"{about} is coming, but the events '
            "results of the trace hold none"
        ),
        span=m.span(),
    )


_SO_FAR = re.compile(r"(?<!\w)(?:this|so\s+far|to\s+date|est[ea]|en\s+lo\s+que\s+va)(?!\w)")
"""Words that make a window the calendar's ("this week", "month to date", "este mes"): it opens
on the period's first day, not a week or a month back."""
_BACK = {"day": 0, "week": 7, "month": 30, "quarter": 91, "year": 365}


_SEARCHED_OVER = re.compile(
    r"(?<!\w)(?:searched|search(?:es)?|searching|scanned|busqu[ée]|buscamos|busc[óo]|"
    r"b[úu]squeda|b[úu]squedas)(?!\w)"
)
"""A search spoken of ("I searched the past month", "Search window: the past month", "Busqué
noticias del último mes"): the window it is said to have covered is the searches' own."""
_SEARCHED_CLAUSE = re.compile(r"[.;!?\n](?!\d)|,\s|\s(?:but|while|and|pero|y)\s")


def _searched_over(case: Case, folded: str) -> Iterator[Reason]:
    """A search said to have covered a window that opens before every search did."""
    if not case.trace.events or not _SEARCHED_OVER.search(folded):
        return
    for m in _SEARCHED_OVER.finditer(folded):
        wider = _wider_than_searched(case, folded, m, None, breaks=_SEARCHED_CLAUSE)
        if wider is not None:
            yield wider
            return


def _wider_than_searched(
    case: Case,
    folded: str,
    m: re.Match[str],
    subject: str | None,
    reach: int = 40,
    breaks: re.Pattern[str] | None = None,
) -> Reason | None:
    """News denied, counted or searched over a window (its clause's window phrase: "over the
    past month", "this week", "in the prior week") that opens before every search of the
    subject did: the days before the searches are days no call looked at."""
    report = case.report_day
    if report is None:
        return None
    lo = max(m.start() - reach, 0)
    if breaks is None:  # a search's own sentence says its window
        breaks = _BREAK if reach <= 40 else _SENTENCE_BREAK
    cut = [b.end() for b in breaks.finditer(folded, lo, m.start())]
    clause_start = cut[-1] if cut else lo
    stop = breaks.search(folded, m.end(), m.end() + 60)
    hi = stop.start() if stop else min(m.end() + 60, len(folded))
    windows = [*WINDOW.finditer(folded[clause_start:hi])]
    month = _in_month().search(folded, clause_start, hi)
    said = windows[-1] if windows else month
    if said is None:
        return None
    kind = (said.lastgroup or "") if windows else "calendar_month"
    if kind not in _BACK and kind not in ("ytd", "calendar_month"):
        return None
    calendar = kind == "ytd" or bool(_SO_FAR.search(said.group()))
    if kind == "calendar_month":
        number = _months()[said.group("month")]
        year = report.year if number <= report.month else report.year - 1
        opens = date(year, number, 1)
    elif kind == "ytd" or (calendar and kind == "year"):
        opens = report.replace(month=1, day=1)
    elif calendar and kind == "month":
        opens = report.replace(day=1)
    elif calendar and kind == "quarter":
        opens = report.replace(month=3 * ((report.month - 1) // 3) + 1, day=1)
    elif calendar and kind == "week":
        opens = report - timedelta(days=report.weekday())
    else:
        opens = report - timedelta(days=_BACK[kind])
    starts = [
        str(e.args.get("start"))[:10]
        for e in case.trace.events
        if e.tool in _NEWS_TOOLS
        and (subject is None or e.ticker in (None, subject))
        and isinstance(e.args, dict)
        and e.args.get("start")
    ]
    if not starts or opens.isoformat() >= min(starts):
        return None
    return Reason(
        rule=ReasonCode.UNVERIFIED_CLAIM,
        message=(
            f'the draft speaks of "{m.group()}" over "{said.group()}" (from {opens}), but the '
            f"searches looked from {min(starts)} only"
        ),
        span=m.span(),
    )


@cache
def _months() -> dict[str, int]:
    return {
        name.casefold(): i + 1 for lexicon in LANGUAGES for i, name in enumerate(lexicon.months)
    }


@cache
def _in_month() -> re.Pattern[str]:
    """A calendar month a denial is said for ("no news in December", "en diciembre")."""
    names = "|".join(sorted(_months(), key=len, reverse=True))
    return re.compile(
        rf"(?<!\w)(?:in|during|en|durante|of|the\s+whole\s+of|all\s+of|todo|covered|covering|"
        rf"spanned|spanning|cubrió|cubre|abarcó|abarca)\s+(?P<month>{names})"
        r"(?:['’]s)?(?!\w)(?!\s+\d)"
    )


_AS_WHAT = re.compile(
    r"\s*(?:(?:marked|flagged|listed|labell?ed|tagged|marcad[oa]|señalad[oa])\s+)?(?:as|como)\s"
)
"""What a thing is not said to be ("not as a scheduled event"), not a denial that it exists."""


def _denied(folded: str, m: re.Match[str], deny: re.Pattern[str]) -> bool:
    """A denying word before the thing in its clause ("no headlines", "nothing is scheduled"),
    or right after it ("headlines: none")."""
    lo = max(m.start() - 40, 0)
    before = folded[lo : m.start()]
    cut = [b.end() for b in _BREAK.finditer(before)]
    clause = before[cut[-1] :] if cut else before
    if (denial := deny.search(clause)) is not None:
        between = clause[denial.end() :]
        if _AS_WHAT.match(between):
            return False  # "no como evento programado", "not as a scheduled event": its status
        # "the data does not say whether that headline moved it", "no hay datos que vinculen
        # esa noticia": a named item and what the data does not say of it, not a denial of news
        return not _REFERRED.search(between) and not _RELATES.match(folded, m.end())
    after = folded[m.end() : m.end() + 16]
    return bool(  # on its own line, "Nothing else ..." opens a sentence of its own
        re.match(r"[ \t]*[:—–-]?[ \t]*(?:none|nothing|ninguno|ninguna|nada)(?!\w)", after)
    )


def _subject(tickers: list[Claim], at: int) -> str | None:
    before = [t for t in tickers if t.start < at]
    return before[-1].symbol if before else (tickers[0].symbol if tickers else None)


def _day_after(case: Case, folded: str, m: re.Match[str]) -> tuple[str, str] | None:
    """The days a denial is said for, first and last ("no earnings on 2024-07-01", "no events
    between 2024-12-31 and 2025-01-30"): a date (or a range) right after the thing, in its
    clause; None for the whole window."""
    dated = [f.claim for f in case.findings if f.claim.kind == "date" and f.claim.dates]
    for i, claim in enumerate(dated):
        if 0 <= claim.start - m.end() < 30:
            if _BREAK.search(folded, m.end(), claim.start):
                return None
            first = _iso(claim)
            if first is None:
                return None
            past = _past_weekday(case, claim) if m.lastgroup == "news" else None
            if past is not None:  # "no news on Monday": the Monday before the report, not after
                return past, past
            if _UNTIL.search(folded, m.end(), claim.start):
                return "0000-00-00", first  # "no events before January 30": up to that day
            if _RANGE_OPEN.search(folded, m.end(), claim.start) and i + 1 < len(dated):
                last = _iso(dated[i + 1])
                if last is not None and _RANGE_JOIN.fullmatch(
                    folded, claim.end, dated[i + 1].start
                ):
                    return first, last  # "between 2024-12-31 and 2025-01-30"
            return first, first
    same_day = _THE_DAY.match(folded, m.end())
    if same_day and case.trace.as_of:  # "there was no news on the day itself": the session's
        return case.trace.as_of[:10], case.trace.as_of[:10]
    return None


_WEEKDAY_ONLY = re.compile(
    r"(?i)(?:on\s+|el\s+)?(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|lunes|martes|"
    r"miércoles|jueves|viernes|sábado|domingo)"
)


def _past_weekday(case: Case, claim: Claim) -> str | None:
    """A weekday named alone for news (which is past): the last such day on or before the
    report date."""
    report = case.report_day
    if report is None or not _WEEKDAY_ONLY.fullmatch(claim.text.strip()):
        return None
    year, month, day = claim.dates[0]
    if not (year and month and day):
        return None
    said = date(year, month, day)
    back = (report.weekday() - said.weekday()) % 7
    return (report - timedelta(days=back)).isoformat()


_MONTHS = {m.casefold(): i + 1 for lexicon in LANGUAGES for i, m in enumerate(lexicon.months)}
_MONTH_AFTER = re.compile(
    r"\s+(?:[\w'’-]+\s+){0,4}?(?:in|during|for|throughout|all\s+of|en|durante|para|todo)\s+"
    r"(?:(?:the\s+month\s+of|el\s+mes\s+de)\s+)?(?P<m>"
    + "|".join(_MONTHS)
    + r")(?!\s+\d{1,2}(?!\d))(?:\s+(?:de\s+|of\s+)?(?P<y>20\d\d))?(?!\w)"
)
"""A month named after a denial ("nothing is scheduled for AXO in January 2025", "no hay nada
en enero")."""


def _month_beyond(
    case: Case, text: str, folded: str, m: re.Match[str], subject: str | None
) -> Reason | None:
    """`unverified_claim` where a denial is said for a whole month the events search did not
    cover to its ends: a calendar of 30 days from the report date holds no other days."""
    said = _MONTH_AFTER.match(folded, m.end())
    if said is None or _BREAK.search(folded, m.end(), said.start("m")):
        return None
    report = case.report_day
    if report is None:
        return None
    month = _MONTHS[said["m"]]
    year = int(said["y"]) if said["y"] else report.year + (month < report.month)
    first = f"{year:04d}-{month:02d}-01"
    last = f"{year:04d}-{month:02d}-{calendar.monthrange(year, month)[1]:02d}"
    for event in case.trace.events:
        if event.tool not in _EVENT_TOOLS or (subject and event.ticker not in (None, subject)):
            continue
        result = event.result if isinstance(event.result, dict) else {}
        start, end = str(result.get("start", ""))[:10], str(result.get("end", ""))[:10]
        if start and end and not (start <= first and last <= end):
            return Reason(
                rule=ReasonCode.UNVERIFIED_CLAIM,
                message=f'"{text[m.start() : said.end()]}" denies for {first} to {last}, but '
                f"the events search covered {start} to {end} only",
                span=(m.start(), said.end()),
            )
    return None


def _window_before(
    case: Case, folded: str, m: re.Match[str], dated: list[Claim]
) -> tuple[Claim, Claim] | None:
    """A range of two dates that opens the denial's clause ("entre el 28 de diciembre y el 30
    de diciembre no encontramos ninguna noticia"): the window the draft says was searched."""
    before = [c for c in dated if c.end <= m.start() and m.start() - c.end < 60]
    if len(before) < 2:
        return None
    first, last = before[-2], before[-1]
    if _BREAK.search(folded, last.end, m.start()) or not _RANGE_JOIN.fullmatch(
        folded, first.end, last.start
    ):
        return None
    if not _RANGE_OPEN.search(folded, max(first.start - 12, 0), first.start):
        return None
    return first, last


def _other_window(
    case: Case, kind: str, subject: str | None, window: tuple[Claim, Claim]
) -> Reason | None:
    """`wrong_time` where the window a denial is said over is not the one its search covered:
    an empty search reports on its own days, not on any others."""
    said = (_day_of(window[0], case), _day_of(window[1], case))
    if None in said:
        return None
    tools = _NEWS_TOOLS if kind == "news" else _EVENT_TOOLS
    for event in case.trace.events:
        if event.tool not in tools or (subject and event.ticker not in (None, subject)):
            continue
        result = event.result if isinstance(event.result, dict) else {}
        args = event.args if isinstance(event.args, dict) else {}  # a search that found none
        covered = tuple(str(result.get(k) or args.get(k) or "")[:10] for k in ("start", "end"))
        if not all(covered) or said == covered:
            return None
        return Reason(
            rule=ReasonCode.WRONG_TIME,
            message=(
                f"the draft says the search found none from {said[0]} to {said[1]}, but it "
                f"covered {covered[0]} to {covered[1]}"
            ),
            span=(window[0].start, window[1].end),
        )
    return None


def _day_of(claim: Claim, case: Case) -> str | None:
    """The day a date names; one without its year is the nearest such day to the report date
    ("Dec 28" and "Jan 30" around a report of 2024-12-31)."""
    year, month, day = claim.dates[0]
    report = case.report_day
    if not day or (not year and report is None):
        return None
    if not year and report is not None:
        near = []
        for y in (report.year - 1, report.year, report.year + 1):
            try:
                near.append(date(y, month, day))
            except ValueError:
                continue
        if not near:
            return None
        return min(near, key=lambda d: abs((d - report).days)).isoformat()
    return f"{year:04d}-{month:02d}-{day:02d}"


def _iso(claim: Claim) -> str | None:
    year, month, day = claim.dates[0]
    return f"{year:04d}-{month:02d}-{day:02d}" if year and day else None


_UNTIL = re.compile(r"(?<!\w)(?:before|until|through|by|hasta|antes\s+del?)\s+(?:the\s+|el\s+)?$")
_EVER = re.compile(
    r"\s+(?:[\w-]+\s+){0,3}?(?:at\s+all|ever|for\s+(?:20\d\d|the\s+year|this\s+year|next\s+year)|"
    r"this\s+year|in\s+20\d\d|en\s+absoluto|nunca|para\s+20\d\d|en\s+20\d\d)(?![\w/-]|\.\d)"
)
_WHOLE_MONTH = re.compile(
    r"\s+(?:[\w-]+\s+){0,3}?(?:(?:this|in|all\s+of|throughout|este|en|todo|durante)\s+(?:the\s+month\s+of\s+|"
    r"el\s+mes\s+de\s+)?(?:"
    + "|".join(m.casefold() for lexicon in LANGUAGES for m in lexicon.months)
    + r")|this\s+month|este\s+mes)(?![\w/-]|\s+\d)"
)
"""A whole month named after a denial of news ("no AXO news this December"): four days
searched hold no month."""
_THAT_WINDOW = re.compile(
    r"\s+(?:for|in|during|over|within|en|durante|para)\s+(?:that|the|this|its|ese|esa|la|el)\s+"
    r"(?:window|period|range|span|search|ventana|periodo|período|rango|búsqueda)(?!\w)"
)
"""A denial's own window named right after it ("no headlines at all for that window")."""
_HABITUAL = re.compile(
    r"(?<!\w)(?:(?:does\s+not|doesn['’]t|do\s+not|don['’]t|never|has\s+never|have\s+never|has\s+not|"
    r"hasn['’]t|no)\s+(?:pay|pays|paid|report|reports|reported|issue|issues|issued|paga|pagan|pagado|"
    r"reparte|reparten|repartido|presenta)|(?:pays|paid|issues|reports)\s+no)\s+(?:any\s+|a\s+|ningún\s+)?$"
)
"""A denial said for all time ("ABXQ never pays a dividend", "does not pay dividends", "no events
scheduled at all", "nothing on the calendar for 2025"): a calendar of 30 days cannot hold it."""
_WINDOW_NAMED = re.compile(
    r"[^.;:\n]{0,20}?(?<!\w)(?:in|within|over|during|between|from|through|until|before|by|on|en|entre|"
    r"del?|durante|hasta|antes)\s+(?:the\s+|la\s+|el\s+|los\s+|this\s+|next\s+|esta\s+)?"
    r"(?:window|ventana|period|periodo|período|\d|january|february|march|april|may|june|july|"
    r"august|september|october|november|december|enero|febrero|marzo|abril|mayo|junio|julio|agosto|"
    r"septiembre|octubre|noviembre|diciembre|próximos|next|coming|month|mes|days|días)"
)
"""A window or a day named after a habitual denial ("does not pay a dividend between December
31 and January 30", "no presenta resultados en la ventana"): a denial for that window, held by
the window's rules, not one for all time."""
_RANGE_OPEN = re.compile(r"(?<!\w)(?:between|from|entre|desde|del)\s+(?:the\s+|el\s+)?$")
_RANGE_JOIN = re.compile(r"\s*(?:and|to|through|until|y|al|hasta|a|[-–—])\s*(?:the\s+|el\s+)?")


_THE_DAY = re.compile(
    r"\s+(?:(?:on|for)\s+)?(?:the|that)\s+(?:day|session)(?:\s+itself)?(?!\w)|"
    r"\s+(?:(?:en\s+)?(?:ese|el\s+mismo)\s+día|en\s+(?:la|esa)\s+(?:misma\s+)?(?:sesión|jornada|rueda))(?!\w)"
)
"""The session a report is about, named after a denial without a date."""


def _held(
    case: Case, kind: str, subject: str | None, day: tuple[str, str] | None
) -> tuple[str, bool]:
    """What the trace holds of the kind for the subject (on `day` where one is said; "" for
    nothing), and whether any call looked for it."""
    tools = _NEWS_TOOLS if kind == "news" else _EVENT_TOOLS
    searched = False
    for event in case.trace.events:
        if event.tool not in tools or (subject and event.ticker not in (None, subject)):
            continue
        searched = True
        items = _items(event.result, kind)
        if day is not None:
            items = [i for i in items if isinstance(i, dict) and _within(i, *day)]
        if items:
            return f"{len(items)} in {event.tool} {event.id}", True
    return "", searched


_OTHER = re.compile(r"(?<!\w)(?:más|otros?|otras?|other|else|further|additional)(?!\w)")
"""A denial of what lies beyond what the draft names ("no hay más eventos", "no other
events"): it holds where every item of the kind is one whose day the draft names."""


def _unnamed(case: Case, kind: str, subject: str | None, dated: list[Claim]) -> str:
    """The items of the kind whose day no date of the draft names ("" when there are none)."""
    named = [(y, mo, d) for c in dated for y, mo, d in c.dates if mo and d]
    for event in case.trace.events:
        tools = _NEWS_TOOLS if kind == "news" else _EVENT_TOOLS
        if event.tool not in tools or (subject and event.ticker not in (None, subject)):
            continue
        left = [
            i
            for i in _items(event.result, kind)
            if not (isinstance(i, dict) and any(_named(i, day) for day in named))
        ]
        if left:
            return f"{len(left)} more than the draft names in {event.tool} {event.id}"
    return ""


def _named(item: dict[str, Any], day: tuple[int | None, int, int | None]) -> bool:
    """Whether a date of the draft (its year may be left out) is the item's day."""
    when = item.get("date") or item.get("published_at") or ""
    if not isinstance(when, str) or len(when) < 10 or not when[:4].isdigit():
        return False
    year, month, dom = day
    same_day = (month, dom) == (int(when[5:7]), int(when[8:10]))
    return same_day and (year is None or year == int(when[:4]))


def _within(item: dict[str, Any], first: str, last: str) -> bool:
    when = item.get("date") or item.get("published_at") or ""
    return isinstance(when, str) and first <= when[:10] <= last


def _items(result: Any, kind: str) -> list[Any]:
    if not isinstance(result, dict):
        return []
    if kind == "news":
        found = result.get("news") or result.get("items") or result.get("headlines") or []
        return list(found) if isinstance(found, list) else []
    events = result.get("events") or []
    if not isinstance(events, list):
        return []
    if kind == "events":
        return events
    return [e for e in events if isinstance(e, dict) and e.get("kind") == kind]


_NOTHING_ELSE = re.compile(
    r"(?<!\w)(?:nothing\s+(?:else|more|further)|no\s+more|none\s+other|nada\s+más|"
    r"ningún\s+otro|ninguna\s+otra|nada\s+adicional)(?!\w)"
)
"""A denial with no object ("... and nothing else", "y nada más"): what it denies is more of
what its sentence (or the one before) named, headlines or events."""
_CALENDAR = re.compile(
    r"\s+(?:is\s+|was\s+|está\s+|hay\s+)?(?:on\s+(?:the|its)\s+calendar|en\s+(?:el|su)\s+calendario|"
    r"scheduled|planned|due|agendad|previst|programad)"
)
_NEWS_SAID = re.compile(
    r"(?<!\w)(?:headlines?|news|stor(?:y|ies)|items?|titular|titulares|noticias?)(?!\w)"
)


def _nothing_else(
    case: Case, text: str, folded: str, found: list[re.Match[str]]
) -> Iterator[Reason]:
    """Each denial without an object, held as "no other" of the kind named before it: where
    the trace holds items the draft neither quotes nor names by wire or day it is
    `wrong_absence`; where nothing before it says what is denied, `unverified_claim`."""
    if "n" not in folded:
        return
    starts: list[int] = []
    for m in _NOTHING_ELSE.finditer(folded):
        if any(0 <= o.start() - m.end() < 25 for o in found):
            continue  # "nothing else scheduled": the object's denial, read above
        starts = starts or sentence_starts(text)
        lo, claims = _said_before(case, starts, m)
        named = {o.lastgroup for o in found if lo <= o.start() < m.start()}
        if _CALENDAR.match(folded, m.end()):
            kind = "events"
        elif any(c.kind == "headline" for c in claims) or _NEWS_SAID.search(folded, lo, m.start()):
            kind = "news"
        elif any(c.kind == "date" and c.event for c in claims) or named - {"news"}:
            kind = "events"
        elif _only_events_before(case, found, m.start()):
            kind = "events"  # "- Earnings: Monday, January 13 / - Status: scheduled / Nothing
            # else through Jan 30": the answer so far named events, and no news
        else:
            yield Reason(
                rule=ReasonCode.UNVERIFIED_CLAIM,
                message=f'"{text[m.start() : m.end()]}" denies more of something the draft does '
                "not name: no rule can hold it",
                span=m.span(),
            )
            continue
        subject = _claims_subject(case, claims, m.start())
        dated = [  # "nothing else": other than every day the answer named before it
            f.claim for f in case.findings if f.claim.kind == "date" and f.claim.start < m.start()
        ]
        if kind == "news":
            held = _unquoted(case, subject, claims, folded[lo : m.start()])
        else:
            held = _unnamed(case, kind, subject, dated)
        if held:
            yield Reason(
                rule=ReasonCode.WRONG_ABSENCE,
                message=f'"{text[m.start() : m.end()]}": the draft says there is no more '
                f"{kind}, but the trace has {held}",
                span=m.span(),
            )


_EMPTY = re.compile(
    r"(?<!\w)(?:"
    r"(?:came\s+back|come\s+back|returned|returns|turned\s+up|found|finds|yielded|produced|"
    r"surfaced|showed|brought\s+up|pulled\s+up|devolvió|devuelve|arrojó|arroja|encontró|"
    r"encuentra|dio|mostró)\s+(?:nothing|empty(?:-handed)?|blank|none|zero(?:\s+(?:results|hits|"
    r"items|matches))?|no\s+(?:results|hits|matches|items)|nada|vac[ií][oa]|ningún\s+resultado|"
    r"cero\s+resultados)"
    r"|nothing\s+(?:turned\s+up|came\s+up|came\s+back|showed\s+up|surfaced|(?:was|were)\s+"
    r"(?:found|returned|listed)|found|returned)"
    r"|no\s+(?:se\s+encontró|apareció|salió|surgió|encontré|encontramos|encontró|hubo)\s+nada"
    r"|nothing\s+(?:(?:is|was)\s+)?(?:in|on)\s+(?:the\s+)?(?:feed|wires?|file|tape|news\s+feed)"
    r"|(?:search(?:\s+results)?|results|lookup|query|feed|news\s+feed|wires?|búsqueda|consulta|"
    r"resultados)[*_]*\s*[:—–|-]"
    r"\s*[*_]*\s*(?:none|nothing|empty|nil|blank|n/a|ninguno|ninguna|nada|vac[ií][oa])"
    r"|(?:search|lookup|query|feed|news\s+feed|wires?|búsqueda|consulta)\s+(?:is|was|were|are|came\s+"
    r"back|está|quedó|salió|volvió)\s+(?:empty|blank|vac[ií][oa]|quiet|silent|dry)"
    r"|(?:an\s+)?empty\s+(?:search|feed|result|results|lookup)|cero\s+resultados|zero\s+(?:results|hits)"
    r"|(?:búsqueda|consulta)\s+vac[ií]a"
    r")(?!\w)(?!\s+(?:to|that|which|linking|tying|explaining|para|que)(?!\w))"
)
"""A search said to have found nothing, its object left unsaid ("the search returned nothing",
"came back empty", "Search results: none", "no se encontró nada"): a denial of what that
search looks for, held like any absence."""
_EVENTS_SAID = re.compile(
    r"(?<!\w)(?:events?|calendar|schedule|agenda|earnings|dividends?|splits?|eventos?|"
    r"calendario|resultados\s+trimestrales|dividendos?|get_events)(?!\w)"
)
_SEARCH_SAID = re.compile(r"(?<!\w)(?:searche?s?|search_news|búsquedas?)(?!\w)")


def _came_back_empty(
    case: Case, text: str, folded: str, found: list[re.Match[str]]
) -> Iterator[Reason]:
    """Each search said to have found nothing with no object named: of the kind its sentence
    (or the one before) speaks of, else of the one kind of search the trace made; where the
    trace holds items of it, `wrong_absence`; where no kind can be told, `unverified_claim`."""
    starts: list[int] = []
    deny = _scans()[1]
    for m in _EMPTY.finditer(folded):
        if any(
            (0 <= o.start() - m.end() < 25 or 0 <= m.start() - o.end() < 25)
            and _denied(folded, o, deny)
            for o in found
        ):
            continue  # "no headlines turned up": the object's own denial, read above
        starts = starts or sentence_starts(text)
        lo, claims = _said_before(case, starts, m)
        near = folded[lo : m.start()]
        tools = {e.tool for e in case.trace.events}
        if _EVENTS_SAID.search(near):
            kind = "events"
        elif (
            any(c.kind == "headline" for c in claims)
            or _NEWS_SAID.search(near)
            or _SEARCH_SAID.search(near)
        ):
            kind = "news"
        elif len(tools & (_NEWS_TOOLS | _EVENT_TOOLS)) == 1:
            kind = "news" if tools & _NEWS_TOOLS else "events"
        else:
            yield Reason(
                rule=ReasonCode.UNVERIFIED_CLAIM,
                message=f'"{text[m.start() : m.end()]}" says a search found nothing, but the '
                "draft does not say of what: no rule can hold it",
                span=m.span(),
            )
            continue
        subject = _claims_subject(case, claims, m.start())
        if kind == "news" and (wider := _wider_than_searched(case, folded, m, subject, 90)):
            yield wider  # "I searched the past month of news and found nothing"
            continue
        held, searched = _held(case, kind, subject, None)
        said = text[m.start() : m.end()]
        if held:
            yield Reason(
                rule=ReasonCode.WRONG_ABSENCE,
                message=f'"{said}": the draft says the {kind} search found nothing, but the '
                f"trace has {held}",
                span=m.span(),
            )
        elif searched:
            case.bound.append(m.span())
        else:
            yield Reason(
                rule=ReasonCode.UNVERIFIED_CLAIM,
                message=f'"{said}": the draft says a {kind} search found nothing, and no call '
                "of the trace looked",
                span=m.span(),
            )


def _only_events_before(case: Case, found: list[re.Match[str]], at: int) -> bool:
    """Whether the answer before `at` named an event's day and no news."""
    before = [f.claim for f in case.findings if f.claim.start < at]
    if any(c.kind == "headline" for c in before) or any(
        o.lastgroup == "news" and o.start() < at for o in found
    ):
        return False
    return any(c.kind == "date" and c.event for c in before)


def _said_before(case: Case, starts: list[int], m: re.Match[str]) -> tuple[int, list[Claim]]:
    """Where a denial's sentence and the one before it open, and the claims said there before
    it: what the denial speaks of."""
    lo = starts[max(bisect_right(starts, m.start()) - 2, 0)]
    return lo, [f.claim for f in case.findings if lo <= f.claim.start < m.start()]


def _claims_subject(case: Case, claims: list[Claim], at: int) -> str | None:
    """The ticker a denial is of: the last one named before it there, else the draft's."""
    tickers = [c for c in claims if c.kind == "ticker"] or [
        f.claim for f in case.findings if f.claim.kind == "ticker"
    ]
    return _subject(tickers, at)


def _unquoted(case: Case, subject: str | None, claims: list[Claim], before: str) -> str:
    """The news items of the subject the draft names neither by quoting them nor by their
    wire ("" when there are none)."""
    quoted = [c.text.strip("\"'“”«»‘’").casefold() for c in claims if c.kind == "headline"]
    for event in case.trace.events:
        if event.tool not in _NEWS_TOOLS or (subject and event.ticker not in (None, subject)):
            continue
        left = [
            i
            for i in _items(event.result, "news")
            if isinstance(i, dict)
            and not any(q and q in str(i.get("headline", "")).casefold() for q in quoted)
            and not (i.get("source") and str(i["source"]).casefold() in before)
        ]
        if left:
            return f"{len(left)} more than the draft names in {event.tool} {event.id}"
    return ""

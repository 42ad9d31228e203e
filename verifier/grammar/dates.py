"""Dates: ISO, English and Spanish calendar dates, quarters, and the weekday written with a date."""

from __future__ import annotations

import re
from bisect import bisect_left

from verifier.claim import QUARTER_BASE, Claim, DateReading
from verifier.lexicon import LANGUAGES, en, es
from verifier.scanner import Scan, fold, holds, month_starts, scan, word_starts

MONTHS_EN = {name[:3]: i for i, name in enumerate(en.LEXICON.months, 1)}
"""English months by their first three letters (how `_MON` reads them)."""
MONTHS_ES = {name: i for i, name in enumerate(es.LEXICON.months, 1)} | {"setiembre": 9}

_MON = (
    r"(?P<mon>Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|Aug(?:ust)?"
    r"|Sep(?:t(?:ember)?)?|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?)(?![a-z])\.?"
)
_MES = rf"(?P<mes>(?i:{'|'.join(MONTHS_ES)}))(?!\w)"
_YEAR = r"(?P<y>(?:19|20)\d\d)(?![\d-])"
MONTHS_ES_SHORT = {"ene": 1, "abr": 4, "ago": 8, "dic": 12}
"""Spanish abbreviations that are not also English ones (`mar`, `jun`... read as English)."""
_MES_SHORT = r"(?P<mes>(?i:ene|abr|ago|dic))"
DATE_PATTERNS = tuple(
    re.compile(p)
    for p in (
        r"(?<![\w-])(?P<y>\d{4})-(?P<m>\d\d)-(?P<d>\d\d)(?:[T ]\d\d:\d\d(?::\d\d(?:\.\d+)?)?(?:Z|[+-]\d\d:?\d\d)?)?(?![\w-])",
        rf"\b{_MON}\s+(?P<d>\d{{1,2}})(?:st|nd|rd|th)?(?!\d)(?:,?\s+{_YEAR})?",
        rf"\b(?P<d>\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?{_MON}(?:,?\s+{_YEAR})?",
        rf"\b{_MON}\s+{_YEAR}",
        rf"\b(?P<d>\d{{1,2}})\s+de\s+{_MES}(?:\s+(?:de|del)\s+{_YEAR})?",
        rf"\b{_MES}\s+(?:de|del)\s+{_YEAR}",
        r"(?<![\d/])(?P<a>\d{1,2})/(?P<b>\d{1,2})/(?P<y>\d{4}|\d\d)(?![\d/])",
        r"(?<![\w.])(?P<d>\d{1,2})\.(?P<m>\d{1,2})\.(?P<y>(?:19|20)\d\d)(?!\d|\.\d)",
        r"(?<![\d/])(?P<y>(?:19|20)\d\d)/(?P<m>\d{1,2})/(?P<d>\d{1,2})(?![\d/])",
        rf"(?<![\w-])(?P<d>\d{{1,2}})-{_MON}-{_YEAR}",
        rf"(?<![\w-])(?P<d>\d{{1,2}})\s+(?:de\s+)?{_MES_SHORT}"
        rf"(?:\.|(?=\s+(?:de\s+)?(?:19|20)\d\d))(?:\s*(?:de\s+)?{_YEAR})?",
        r"(?<![\w-])(?P<a>\d{1,2})-(?P<b>\d{1,2})-(?P<y>\d{4})(?![\w-])",
        r"(?<![\d/])(?P<a>\d{1,2})/(?P<b>\d{1,2})(?![\d/])",
    )
)
"""ISO, English, Spanish, a/b/yyyy and a/b/yy (either way), dd.mm.yyyy, yyyy/mm/dd, 14-Jan-2025,
13 ene. 2025 (and 31 de dic. de 2024, 30 dic.), a-b-yyyy (either way) and a/b dates."""


CLOCK = re.compile(
    r"(?<![\w:.,/])(?P<h>[012]?\d):(?P<m>[0-5]\d)(?::[0-5]\d)?(?!\d|:\d)"
    r"(?:\s*(?P<half>[ap])\.?\s?m\b\.?|\s?(?:h|hs|hrs)\b\.?)?"
    r"(?:,?\s*\(?(?P<zone>hora\s+(?:de\s+)?(?:Nueva\s+York|NY|del\s+Este)|hora\s+UTC|"
    r"New\s+York\s+time|Eastern(?:\s+Time)?|(?:UTC|GMT)\s?[+\-−]\s?\d{1,2}(?::?\d\d)?|"
    r"ET|EST|EDT|UTC|GMT|NY|Z)\b\)?)?",
    re.IGNORECASE,
)
"""A time of day with its minutes, its half of the day and its zone where written."""


_ORDINALS = {
    word: i
    for lexicon in LANGUAGES
    for i, words in enumerate(lexicon.ordinals, 1)
    for word in words
}
QUARTER_PATTERNS = tuple(
    re.compile(p)
    for p in (
        r"(?i)\b(?P<ord>first|second|third|fourth|fifth|1st|2nd|3rd|4th|5th)[\s-]+quarter"
        r"(?:\s+(?:of\s+)?(?:fiscal\s+)?(?:year\s+)?(?P<y>(?:19|20)\d\d)(?!\d))?",
        r"(?i)\b(?P<ord>primer|primero|segundo|tercer|tercero|cuarto|quinto)\s+trimestre"
        r"(?:\s+(?:de|del)\s+(?:(?:año\s+)?fiscal\s+)?(?P<y>(?:19|20)\d\d)(?!\d))?",
        r"\b(?:Q(?P<q>[1-9])|(?P<q2>[1-9])Q)(?:\s*(?:FY\s*)?'?(?P<y>(?:19|20)\d\d|\d\d)(?!\d))?(?![\w-])",
    )
)


_MON_AT_WORD_START = (
    r"(?P<mon>J(?<!\w.)(?:an(?:uary)?|une?|uly?)|F(?<!\w.)eb(?:ruary)?|M(?<!\w.)(?:ar(?:ch)?|ay)"
    r"|A(?<!\w.)(?:pr(?:il)?|ug(?:ust)?)|S(?<!\w.)ep(?:t(?:ember)?)?|O(?<!\w.)ct(?:ober)?"
    r"|N(?<!\w.)ov(?:ember)?|D(?<!\w.)ec(?:ember)?)(?![a-z])\.?"
)


_ES_MONTH_WORDS = tuple(MONTHS_ES)
_ES_LINK = re.compile(r"del?\s")
"""Spanish dates join day, month and year with `de`/`del`."""
DATE_SCANS: tuple[Scan, ...] = (
    Scan(DATE_PATTERNS[0], None, False, ("-",), at="dash"),
    Scan(
        re.compile(
            rf"{_MON_AT_WORD_START}\s+(?P<d>\d{{1,2}})(?:st|nd|rd|th)?(?!\d)(?:,?\s+{_YEAR})?"
        ),
        None,
        False,
        (),
        at="month",
    ),
    Scan(DATE_PATTERNS[2], None, False, (), at="day"),
    Scan(re.compile(rf"{_MON_AT_WORD_START}\s+{_YEAR}"), None, False, (), at="month"),
    Scan(
        re.compile(rf"(?P<d>\d(?<!\w.)\d?)\s+de\s+{_MES}(?:\s+(?:de|del)\s+{_YEAR})?"),
        None,
        False,
        _ES_MONTH_WORDS,
        gate=_ES_LINK,
    ),
    Scan(
        DATE_PATTERNS[5],
        word_starts(" ".join(_ES_MONTH_WORDS)),
        True,
        _ES_MONTH_WORDS,
        gate=_ES_LINK,
    ),
    Scan(
        re.compile(r"(?P<a>\d(?<![\d/].)\d?)/(?P<b>\d{1,2})/(?P<y>\d{4}|\d\d)(?![\d/])"),
        None,
        False,
        ("/",),
    ),
    Scan(
        re.compile(r"(?P<d>\d(?<![\w.].)\d?)\.(?P<m>\d{1,2})\.(?P<y>(?:19|20)\d\d)(?!\d|\.\d)"),
        None,
        False,
        (),
        gate=re.compile(r"\.\d\d?\.(?:19|20)"),
    ),
    Scan(
        re.compile(
            r"(?P<y>1(?<![\d/].)9\d\d|2(?<![\d/].)0\d\d)/(?P<m>\d{1,2})/(?P<d>\d{1,2})(?![\d/])"
        ),
        None,
        False,
        (),
        gate=re.compile(r"/\d\d?/\d"),
    ),
    Scan(
        re.compile(rf"(?P<d>\d(?<![\w-].)\d?)-{_MON}-{_YEAR}"),
        None,
        False,
        (),
        gate=re.compile(r"\d-[A-Z]"),
    ),
    Scan(
        re.compile(
            rf"(?P<d>\d(?<![\w-].)\d?)\s+(?:de\s+)?{_MES_SHORT}"
            rf"(?:\.|(?=\s+(?:de\s+)?(?:19|20)\d\d))(?:\s*(?:de\s+)?{_YEAR})?"
        ),
        None,
        False,
        tuple(MONTHS_ES_SHORT),
    ),
    Scan(
        re.compile(r"(?P<a>\d(?<![\w-].)\d?)-(?P<b>\d{1,2})-(?P<y>\d{4})(?![\w-])"),
        None,
        False,
        ("-",),
        gate=re.compile(r"\d-\d\d?-\d{4}"),
    ),
    Scan(
        re.compile(r"(?P<a>\d(?<![\d/].)\d?)/(?P<b>\d{1,2})(?![\d/])"),
        None,
        False,
        ("/",),
    ),
)
_DAY_MONTH_ONLY = DATE_SCANS[-1]
"""The last scan, `12/31` without a year: a date only after a word that introduces one ("on
12/31", "Monday, 1/13", "el 31/12"), or at the head of a list's line or in a table's cell ("- 31/12, MarketWatch: ...", "| 30/12
|"), since elsewhere it is as likely a ratio or a fraction."""
_DATE_LEAD = re.compile(
    r"(?i)(?:\b(?:on|from|to|by|through|thru|until|since|and|dated|declared|announced|el|al"
    r"|close|closed|closing|cierre|as\s+of"
    r"|del|desde|hasta|y)"
    r"|\b(?:mon|tue|wed|thu|fri|sat|sun)[a-z]*|\b(?:lunes|martes|mi[eé]rcoles|jueves|viernes"
    r"|s[aá]bado|domingo|lun|mi[eé]|jue|vie|s[aá]b)\.?),?\s+$|\d/\d\d?\s*[–-]\s*$"
    r"|(?:^|\n)[ \t]*(?:[-*•·]|\(?\d{1,2}[.)])?[ \t]*$|\|[ \t]*$"
)
_RANGE_AFTER = re.compile(r"\s*[–-]\s*\d\d?/\d\d?(?![\d/])")
"""`12/28–12/31`: two day-month pairs joined by a dash are a range of dates."""
QUARTER_SCANS: tuple[Scan, ...] = (
    Scan(
        QUARTER_PATTERNS[0],
        word_starts("first second third fourth fifth 1st 2nd 3rd 4th 5th", then=r"[\s-]+quarter"),
        True,
        ("quarter",),
    ),
    Scan(
        QUARTER_PATTERNS[1],
        word_starts("primer primero segundo tercer tercero cuarto quinto", then=r"\s+trimestre"),
        True,
        ("trimestre",),
    ),
    Scan(
        re.compile(
            r"[Q1-9](?<!\w.)(?:(?<=Q)(?P<q>[1-9])|(?<=(?P<q2>[1-9]))Q)"
            r"(?:\s*(?:FY\s*)?'?(?P<y>(?:19|20)\d\d|\d\d)(?!\d))?(?![\w-])"
        ),
        None,
        False,
        ("Q",),
        True,
    ),
)
_ALL_DATE_SCANS = tuple((False, how) for how in DATE_SCANS) + tuple(
    (True, how) for how in QUARTER_SCANS
)
"""Every date scan, in the order they take precedence, and whether it reads a quarter."""


def find_dates(
    text: str, claims: list[Claim], known: frozenset[tuple[int, int]] = frozenset()
) -> list[tuple[int, int]]:
    """Dates of every pattern in turn; a match overlapping one found before is dropped.

    `known` holds the (month, day) of every day the trace names: a bare `12/31` with no word
    that introduces a date is a date when one of its readings is such a day ("Benzinga 12/31
    09:49", "(ann. 12/17)"), else it stays two numbers. The spans found so far are kept sorted
    (they never overlap), so one bisection tells.
    """
    starts: list[int] = []
    ends: list[int] = []
    folded = fold(text)
    months = month_starts(text)
    held: dict[tuple[int, int], bool] = {}
    for quarter, how in _ALL_DATE_SCANS:
        if how.at in ("month", "day") and not months:
            continue
        if how.needs or how.gate is not None:
            key = (id(how.needs), id(how.gate))
            if (ok := held.get(key)) is None:
                ok = held[key] = holds(how, text, folded)
            if not ok:
                continue
        for m in scan(how, text, folded, months):
            start, end = m.span()
            i = bisect_left(starts, end)
            if i and ends[i - 1] > start:
                continue
            readings = (_quarter(m),) if quarter else _date_readings(m.groupdict())
            if (
                how is _DAY_MONTH_ONLY
                and not _DATE_LEAD.search(text, max(start - 12, 0), start)
                and not _RANGE_AFTER.match(text, end)
                and not any((month, day) in known for _, month, day in readings)
            ):
                continue
            if readings:
                claims.append(Claim(m.group(), start, end, "date", dates=readings))
                i = bisect_left(starts, start)
                starts.insert(i, start)
                ends.insert(i, end)
    _one_order(text, claims)
    return list(zip(starts, ends, strict=True))


_DAY_FIRST = re.compile(r"(?P<a>\d\d?)[/-](?P<b>\d\d?)")


def _one_order(text: str, claims: list[Claim]) -> None:
    """A draft writes its numeric dates one way: where one of them can only be read day first
    (`31/12`) or only month first (`12/31`), its ambiguous ones (`1/12`) keep that reading
    alone; where none can, they are read as the draft's language writes dates (month first in
    English, "09/12/2024" is September 12; day first in Spanish)."""
    numeric = [c for c in claims if c.kind == "date" and len(c.dates) == 2]
    if not numeric:
        return
    orders = set()
    for c in claims:
        if c.kind == "date" and (m := _DAY_FIRST.match(c.text)) and c.text[m.end() :][:1] in "/-":
            a, b = int(m["a"]), int(m["b"])
            if a > 12 >= b:
                orders.add("day")
            elif b > 12 >= a:
                orders.add("month")
    if len(orders) > 1:
        return
    day_first = orders == {"day"} if orders else _spanish(text)
    for c in numeric:
        m = _DAY_FIRST.match(c.text)
        if m is None:
            continue
        a, b = int(m["a"]), int(m["b"])
        month, day = (b, a) if day_first else (a, b)
        c.dates = tuple(r for r in c.dates if (r[1], r[2]) == (month, day)) or c.dates


_ES_WORDS = re.compile(
    r"(?<!\w)(?:el|la|los|las|de|del|y|en|con|que|por|una?|cerró|subió|cayó|tiene|hay|sus?)(?!\w)",
    re.IGNORECASE,
)
_EN_WORDS = re.compile(
    r"(?<!\w)(?:the|on|and|of|in|with|that|by|an?|was|is|has|its|closed|rose|fell)(?!\w)",
    re.IGNORECASE,
)


def _spanish(text: str) -> bool:
    """Whether the draft is written in Spanish, by its commonest short words."""
    return len(_ES_WORDS.findall(text)) > len(_EN_WORDS.findall(text))


def _quarter(m: re.Match[str]) -> DateReading:
    g = m.groupdict()
    number = g.get("q") or g.get("q2")
    quarter = int(number) if number else _ORDINALS[(g.get("ord") or "").casefold()]
    year = g.get("y")
    full = int(year) + (2000 if len(year) == 2 else 0) if year else None
    return (full, QUARTER_BASE + quarter, None)


def _date_readings(g: dict[str, str | None]) -> tuple[DateReading, ...]:
    year = int(g.get("y") or 0) or None
    if year is not None and year < 100:
        year += 2000  # "12/31/24"
    if g.get("a"):
        a, b = int(g.get("a") or 0), int(g.get("b") or 0)
        pairs = {(a, b), (b, a)}
        return tuple((year, m, d) for d, m in sorted(pairs) if 1 <= m <= 12 and 1 <= d <= 31)
    if g.get("mon"):
        month = MONTHS_EN[(g["mon"] or "")[:3].lower()]
    elif g.get("mes"):
        written = (g["mes"] or "").casefold()
        month = MONTHS_ES.get(written) or MONTHS_ES_SHORT[written]
    else:
        month = int(g.get("m") or 0)
    day = int(g.get("d") or 0) or None
    if not 1 <= month <= 12 or (day is not None and not 1 <= day <= 31):
        return ()
    return ((year, month, day),)


_TIME_AFTER_DATE = re.compile(r"\d{4}-\d\d-\d\d[T ]\d\d:\d\d")


def is_timestamp(claim: Claim) -> bool:
    return _TIME_AFTER_DATE.match(claim.text) is not None


_WEEKDAYS = {
    name: number
    for lexicon in LANGUAGES
    for number, names in enumerate(lexicon.weekdays)
    for name in names
}
WEEKDAY_WORD = "|".join(sorted(_WEEKDAYS, key=len, reverse=True))
"""Any weekday name, the longest first (for patterns that allow one)."""
_WEEKDAY_GAP = " \t,.([*_"


_WEEKDAY_COPULA = re.compile(
    r"(?i),?\s+(?:was|is|fell\s+on|fue|es|cayó\s+en|will\s+be|será)\s+(?:a\s+|un\s+|el\s+)?(?=\w)"
)
"""A verb between a date and its weekday: "December 28, 2024 was a Saturday", "fue sábado"."""
_WEEKDAY_HINT = re.compile(
    "mon|tue|wed|thu|fri|sat|sun|lunes|martes|mi[eé]rcoles|jueves|viernes|s[aá]bado|domingo"
)
"""What the case-folded text must hold for any weekday name (English ones by abbreviation)."""


def attach_weekdays(text: str, claims: list[Claim]) -> None:
    """A weekday name right before or after a date: "Monday, December 30", "Fri 2024-12-27", "el
    lunes 30", "2025-01-24 (Friday)" (read as the word next to the date, without a regex pass)."""
    if _WEEKDAY_HINT.search(text.casefold()) is None:
        return
    for claim in claims:
        if claim.kind == "date":
            copula = _WEEKDAY_COPULA.match(text, claim.end)
            after = (
                text[copula.end() if copula else claim.end :][:18].lstrip(" ,(*_").split(None, 1)
            )
            word = after[0].rstrip(").,;:*_]").lstrip("*_") if after else ""
            if word and not word.isupper():  # "2025-01-24 (Friday)"; "WED" is a ticker
                day = _WEEKDAYS.get(word.casefold())
                if day is not None:
                    claim.weekday = day
                    continue
        if claim.kind == "date" and claim.start:
            before = text[max(claim.start - 16, 0) : claim.start].rstrip(_WEEKDAY_GAP)
            words = before.rsplit(None, 2)
            if words and words[-1].casefold() == "el" and len(words) > 1:
                words.pop()
            if words:
                word = words[-1].rstrip(_WEEKDAY_GAP).lstrip("*_").casefold()  # "**Friday, Jan"
                day = _WEEKDAYS.get(word)
                if day is not None and not before[: -len(words[-1])][-1:].isalnum():
                    claim.weekday = day

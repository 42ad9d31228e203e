"""Claims: the checkable statements of a draft, each with its character span.

A claim is a figure (number, money, percentage, basis points), a date, a ticker symbol or a quoted
headline. Figures also carry their sign as written, the direction word that governs them
("rose 2.1%") and the tickers they speak about (their scope). Extraction is plain text work, in
English and Spanish; whether a claim holds is decided elsewhere, against the trace.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import lru_cache
from operator import attrgetter
from typing import Literal, NamedTuple

from verifier.lexicon import alternatives
from verifier.moves import find_moves
from verifier.numbers import SCALES, Reading, read_digits
from verifier.periods import SENTENCE_END, Period, attach_periods, sentence_starts
from verifier.times import ClaimTime, attach_times

Kind = Literal["number", "money", "percent", "date", "ticker", "headline", "move"]
DateReading = tuple[int | None, int, int | None]
"""(year or None, month, day or None); months 13-16 stand for quarters 1-4 (day None)."""
QUARTER_BASE = 12

FIGURE_KINDS = frozenset({"number", "money", "percent"})
_START = attrgetter("start")


@dataclass(slots=True)
class Claim:
    """One checkable statement of the draft."""

    text: str
    start: int
    end: int
    kind: Kind
    readings: tuple[Reading, ...] = ()
    scale: float = 1.0
    sign: int = 0
    unit: str = ""
    direction: int = 0
    direction_word: str = ""
    dates: tuple[DateReading, ...] = ()
    symbol: str = ""
    scope: frozenset[str] = frozenset()
    period: Period | None = None
    tied: bool = False
    """A period named only as a base: a change's ("from Q3 2019"), or a base figure's ("down from
    $2.39 in Q3 2019")."""
    used: bool = False
    """A period some figure of the text is stated for."""
    name: str = ""
    """The designation a whole number is part of ("MAX 10", "S&P 500"): a name, not a quantity."""
    bound: int = 0
    """+1 for a lower bound ("over 100", "más de 5"), -1 for an upper one ("fewer than 100")."""
    weekday: int = -1
    """The day of the week written with a date ("Monday, December 30, 2024"): 0 Monday."""
    field: str = ""
    """What the draft calls the figure right before it ("closed at", "previous close of"): a
    key of `FIELDS`, or empty."""
    session: str = ""
    """For a quoted headline: when its sentence says it came ("before", "during" or "after" the
    trading session: "published after the close"), or empty."""
    headline: str = ""
    """For a date written with its time: the quoted headline next to it in its sentence, whose
    time it gives ("\"Acme beats estimates\" (2024-12-30T21:05Z)"), or empty."""
    time: ClaimTime | None = None
    """For a figure: the session or window its sentence states it for (`verifier.times`)."""
    role: str = ""
    """For a date: how it names a time ("since", "through", "range" or "" for a session)."""
    points: bool = False
    """For a percentage: written in percentage points ("1.24 pp"), a difference of percentages."""
    event: str = ""
    """For a date: the kind of corporate event the draft names it as the day of ("earnings on
    2025-01-13", "dividendo el 13 de enero"): a key of `EVENT_KINDS`, or empty."""

    @property
    def bare_quarter(self) -> bool:
        """A quarter named for what its sentence says: not as a base, not as a figure's period."""
        return (
            self.kind == "date"
            and not self.tied
            and not self.used
            and any(month > QUARTER_BASE and day is None for _, month, day in self.dates)
        )

    @property
    def span(self) -> tuple[int, int]:
        return (self.start, self.end)


MONTHS_EN = {
    m[:3].lower(): i
    for i, m in enumerate(
        re.findall(
            r"\w+",
            "January February March April May June July August September October November December",
        ),
        1,
    )
}
MONTHS_ES = {
    m: i
    for i, m in enumerate(
        re.findall(
            r"\w+",
            "enero febrero marzo abril mayo junio julio agosto septiembre octubre noviembre diciembre",
        ),
        1,
    )
}
MONTHS_ES["setiembre"] = 9

_MON = (
    r"(?P<mon>Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|Aug(?:ust)?"
    r"|Sep(?:t(?:ember)?)?|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?)(?![a-z])\.?"
)
_MES = r"(?P<mes>(?i:enero|febrero|marzo|abril|mayo|junio|julio|agosto|septiembre|setiembre|octubre|noviembre|diciembre))(?!\w)"
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
_ORDINALS = {
    w: i
    for i, group in enumerate(
        (
            "first 1st primer primero",
            "second 2nd segundo",
            "third 3rd tercer tercero",
            "fourth 4th cuarto",
            "fifth 5th quinto",
        ),
        start=1,
    )
    for w in group.split()
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
NUMBER_WORDS = {
    w: i
    for i, group in enumerate(
        (
            "two dos",
            "three tres",
            "four cuatro",
            "five cinco",
            "six seis",
            "seven siete",
            "eight ocho",
            "nine nueve",
            "ten diez",
            "eleven once",
            "twelve doce",
        ),
        start=2,
    )
    for w in group.split()
}
NUMBER_WORD = re.compile(
    r"(?i)(?<![\w-])(" + "|".join(NUMBER_WORDS) + r")(?![\w-])"
    r"(?!\s+(?:hundred|thousand|million|billion|cientos|mil|millones)(?!\w))"
)
"""Two to twelve in words, not the start of a larger number ("seven hundred eighty-one")."""
HEADLINE = re.compile(
    r"\"([^\"\n]{3,400})\"|“([^”\n]{3,400})”|«([^»\n]{3,400})»|„([^“”\n]{3,400})[“”]"
    r"|‘(?=\S)((?:[^’\n]|’(?=\w)|(?<=\s)’){3,400})(?<=\S)’(?!\w)"
    r"|'(?<![^\s(\[{]')(?=\S)((?:[^'\n]|'(?=\w)|(?<=\s)'){3,400})(?<=\S)'(?!\w)"
)
"""Quoted text. A single quote opens after a start, a space or a bracket and before a non-space,
and closes after a non-space and before no letter or digit, so apostrophes (AXO's, the stocks'
gains, rock 'n' roll) are not quotes; one inside a word is no closing one either."""
_QUOTES = ('"', "“", "«", "„", "‘", "'")
_ELLIPSIS = " .…"
TICKER = re.compile(r"(?<![\w$&.])(\$)?([A-Z]{1,5}(?:[.-][A-Z]{1,2})?)(?![\w&-])")
_CUR = r"US\$|\$|€|£|USD\s?|EUR\s?"
_DIGITS = r"\d{1,3}(?:[,.]\d{3})+(?:[.,]\d+)?(?!\d)|\d+(?:[.,]\d+)?"
_NUMBER_TAIL = (
    r"(?:(?P<letter>[kKmMBT]|bn|mn|mm|tn)(?![\w])|\s?(?P<word>mil\s+millones|millones|millón|millon|millardos"
    r"|billones|billón|billon|billions?|millions?|thousand|trillion|mil|cents?|centavos?|¢)(?!\w))?"
    r"(?P<unit>\s?%|\s?(?:percent|per\s+cent|por\s+ciento|pct|bps|basis\s+points?|puntos\s+básicos|pb"
    r"|percentage\s+points?|pp|puntos\s+porcentuales)(?!\w))?"
    r"(?P<close>\s*\))?"
)
NUMBER = re.compile(
    rf"(?<!\w)(?P<open>\(\s*)?(?P<s1>[-−–+])?(?P<cur>{_CUR})?(?P<s2>[-−–+])?(?P<digits>{_DIGITS})"
    + _NUMBER_TAIL
)
NUMBER_SCAN = re.compile(
    r"[(\-−–+$€£UE\d](?<!\w.)(?:"
    rf"(?<=\()(?P<open>\s*)(?P<s1>[-−–+])?(?P<cur>{_CUR})?(?P<s2>[-−–+])?(?P<digits>{_DIGITS})"
    rf"|(?<=[-−–+])(?P<s_cur>{_CUR})?(?P<s_s2>[-−–+])?(?P<s_digits>{_DIGITS})"
    r"|(?P<c_cur>(?<=U)S\$|(?<=\$)|(?<=€)|(?<=£)|(?<=U)SD\s?|(?<=E)UR\s?)"
    rf"(?P<c_s2>[-−–+])?(?P<c_digits>{_DIGITS})"
    r"|(?<=\d)(?P<d_digits>\d{0,2}(?:[,.]\d{3})+(?:[.,]\d+)?(?!\d)|\d*(?:[.,]\d+)?)"
    ")" + _NUMBER_TAIL
)
"""`NUMBER` opening with its first character, one branch per kind of first character (so that
the engine skips ahead to it in C); `number_parts` reads its groups as `NUMBER`'s. `open` holds the
space after the parenthesis only."""
NumberParts = tuple[str | None, ...]
"""`NUMBER`'s groups: open, s1, cur, s2, digits, letter, word, unit, close."""


def number_parts(text: str, m: re.Match[str]) -> NumberParts:
    """The groups `NUMBER` would give for a match of `NUMBER_SCAN`."""
    space, s1, cur, s2, digits, s_cur, s_s2, s_digits, c_cur, c_s2, c_digits, d_digits, *tail = (
        m.groups()
    )
    first = text[m.start()]
    if d_digits is not None:
        digits = first + d_digits
    elif c_digits is not None:
        cur, s2, digits = first + (c_cur or ""), c_s2, c_digits
    elif s_digits is not None:
        s1, cur, s2, digits = first, s_cur, s_s2, s_digits
    opened = None if space is None else first + space
    return (opened, s1, cur, s2, digits, *tail)


DIRECTION = re.compile(
    r"(?i)(?<!\w)(?:(?P<up>rose|rise[sn]?|rising|gain(?:ed|s)?|climb(?:ed|s)?|jump(?:ed|s)?|advance[ds]?|increase[ds]?"
    r"|rall(?:ied|ies|y)|rebound(?:ed|s)?|up|surg(?:ed|es|e|ing)|soar(?:ed|s|ing)?|add(?:ed|s|ing)|firm(?:ed|s)"
    r"|spik(?:ed|es)|popp?(?:ed|s)|appreciat(?:ed|es)|higher|strengthen(?:ed|s)?"
    r"|sub(?:ió|e|ida)|gan(?:ó|a|ancia)|avanz(?:ó|a)|crec(?:ió|e)|aument(?:ó|a|o)|alza|repunt(?:ó|a)"
    r"|dispar(?:ó|a))"
    r"|(?P<down>fell|falls?|fallen|falling|drop(?:ped|s)?|decline[ds]?|lost|loses|loss|sli[dp](?:ped|s)?|sank|sinks?"
    r"|decrease[ds]?|down|tumbl(?:ed|es|ing)|retreat(?:ed|s)?|dipp(?:ed|ing)|dips?|plung(?:ed|es|ing)"
    r"|eas(?:ed|es)|shed(?:s|ding)?|lower|slump(?:ed|s)?|plummet(?:ed|s)?|weaken(?:ed|s)?"
    r"|ca(?:yó|e|ída|ida)|perd(?:ió|e)|pierde|pérdida|perdida|baj(?:ó|a|ada)|retroced(?:ió|e)"
    r"|descend(?:ió|e)|desciende|descenso|disminu(?:yó|ye|ción)|ced(?:ió|e)|desplom(?:ó|a)|hund(?:ió|e)|rest(?:ó|a)))(?!\w)"
)
_LEAD_GAP = re.compile(
    r"(?i)\s*(?:(?:by|of|por|un|una|de|del|was|were|is|fue|some|about|around|roughly|approximately|nearly|almost|just|a|an|"
    r"total|sharply|slightly|modestly|casi|cerca|alrededor|fuertemente|ligeramente)\s+){0,3}\(?\s*"
)
_CHAIN_GAP = re.compile(r"(?i)\s*[,(/]?\s*(?:or|o|i\.e\.)?\s*\(?\s*")

# Scans. Python's engine skips ahead in C only to the first character of a pattern that opens
# with a character (or a class); a pattern that opens with an assertion (`\b`, a lookbehind) is
# entered at every position, and each match handed to Python costs as much as scanning a hundred
# characters. So a pattern runs in a form that opens with its first character and checks what may
# precede it right after (`X(?<!\w.)` for `(?<!\w)X`); or it is tried only at a few candidate
# starts: where a month name starts, or where a one-character hint (the rest as a lookahead) hits,
# for the case-insensitive ones. Tests hold every scan equal to `finditer` of the pattern.


class Scan(NamedTuple):
    """How a pattern is run: `pattern.finditer`, or `pattern.match` at each candidate start.

    Candidates are the hits of `hint` (in the case-folded text if `fold`), or, with `at`, the
    positions where a month name starts ("month"), the day written before one can ("day"), or an
    ISO date can, four characters before a dash ("dash").
    `needs`: words one of which the text (folded unless `cased`) must hold for any match.
    """

    pattern: re.Pattern[str]
    hint: re.Pattern[str] | None
    fold: bool
    needs: tuple[str, ...]
    cased: bool = False
    at: Literal["", "month", "day", "dash"] = ""
    gate: re.Pattern[str] | None = None
    """Something else the text must hold, cheaper to look for than `needs`."""


def word_starts(words: str, before: str = r"\w", then: str = "") -> re.Pattern[str]:
    """A one-character hint for `words` (regexes opening with a plain letter, separated by spaces)
    at a word start: not after `before`, and followed by `then`."""
    tails: dict[str, list[str]] = {}
    for word in words.split():
        tails.setdefault(word[0], []).append(word[1:])
    return re.compile(
        "|".join(
            f"{first}(?<!{before}.)(?=(?:{'|'.join(rest)}){then})" for first, rest in tails.items()
        )
    )


_MON_AT_WORD_START = (
    r"(?P<mon>J(?<!\w.)(?:an(?:uary)?|une?|uly?)|F(?<!\w.)eb(?:ruary)?|M(?<!\w.)(?:ar(?:ch)?|ay)"
    r"|A(?<!\w.)(?:pr(?:il)?|ug(?:ust)?)|S(?<!\w.)ep(?:t(?:ember)?)?|O(?<!\w.)ct(?:ober)?"
    r"|N(?<!\w.)ov(?:ember)?|D(?<!\w.)ec(?:ember)?)(?![a-z])\.?"
)
_MONTH_START = re.compile(
    "J(?=an|un|ul)|F(?=eb)|M(?=ar|ay)|A(?=pr|ug)|S(?=ep)|O(?=ct)|N(?=ov)|D(?=ec)"
)
"""Where an English month name (as `_MON` reads it) can start."""
_ISO_DASH = re.compile(r"-(?=\d\d-\d\d)")
_DAY_SUFFIXES = frozenset({"st", "nd", "rd", "th"})
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
12/31", "Monday, 1/13", "el 31/12"), since elsewhere it is as likely a ratio or a fraction."""
_DATE_LEAD = re.compile(
    r"(?i)(?:\b(?:on|from|to|by|through|until|since|and|el|al|del|desde|hasta|y)"
    r"|\b(?:mon|tue|wed|thu|fri|sat|sun)[a-z]*|\b(?:lunes|martes|mi[eé]rcoles|jueves|viernes"
    r"|s[aá]bado|domingo)),?\s+$"
)
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
TICKER_SCAN = re.compile(
    r"[$A-Z](?<![\w$&.].)(?:(?<=\$)[A-Z]|(?<!\$))[A-Z]{0,4}(?:[.-][A-Z]{1,2})?(?![\w&-])"
)
"""`TICKER` opening with its first character; a cashtag is a match that starts with `$`."""
_NUMBER_WORD_SCAN = Scan(
    NUMBER_WORD, word_starts(" ".join(NUMBER_WORDS), before=r"[\w-]"), True, tuple(NUMBER_WORDS)
)
_DIRECTION_WORDS = (
    "ros ris gain climb jump advance increase rall rebound up surg soar add firm spik pop apprec"
    " higher strength sub gan avanz crec aument alza repunt dispar fell fall drop decline los sli"
    " sank sink decrease down tumbl retreat dip plung eas shed lower slump plummet weaken ca perd"
    " pierde pérdida baj retroced descen disminu ced desplom hund rest"
)
_AFTER_FIGURE = frozenset(
    re.findall(
        r"\S+",
        "higher lower gain gains loss decline drop rise increase decrease fall jump advance rally"
        " rebound alza subida caída caida pérdida perdida ganancia bajada descenso aumento",
    )
)
"""Direction words that also govern the figure right before them ("closed 1.31% lower", "a
2,897.51 loss"); a verb or `up`/`down` there belongs to what follows ("287.14, down 3.71")."""
_DIRECTION_SCAN = Scan(DIRECTION, word_starts(_DIRECTION_WORDS), True, ())
STOPWORDS = frozenset(
    re.findall(
        r"\S+",
        """
        I A AM PM ET EST EDT UTC GMT USD EUR GBP JPY CHF CAD AUD CNY HKD MXN US USA U.S UK EU EE
        UU CEO CFO COO CTO EPS ETF IPO GDP CPI PPI FED FOMC ECB BCE SEC NYSE AMEX NASDAQ AI OK
        TV PC YOY YTD QTD MTD QOQ PNL P L NA N YES NO GAAP FY FX IR ROE ROI ROA ESG M B K PE PB
        IPC PIB SA SL NV INC CO LLC LTD PLC ADR API SQL JSON OPEC COVID NOTE NEWS FDA FTC DOJ
        IRS EV EVS R D RD IT HR FCF OCF CAGR ARPU SAAS ASP SG SGA LIBOR SOFR NIM CET BPS PCT MM
        MN BN TN VS ETA NAV AUM TSR OEM Q H II III IV VI CET1 S&P DE LA EL EN Y O UN OR AND THE
        TO OF IN ON AT BY AN AS IS UP NOT ALL NEW IMPORTANT REIT REITS OTC WSJ CNBC AP FT PT
        EOD ATH ATL RSI SMA EMA MACD VWAP EBITDA EBIT CAPEX OPEX ROIC DCF SPAC ETN ATM BOE BOJ
        PBOC IMF WTO NFP PMI ISM AGM PR UPI BBC CNN NYT DJ MW IBD BPA OPA OPV IVA PER BNA
        """,
    )
)
"""Upper-case words that are not tickers unless the trace names them as one."""


def extract_claims(text: str, known_tickers: Iterable[str] = ()) -> list[Claim]:
    """All claims of `text` in order of position; figures carry direction and ticker scope."""
    known = frozenset(known_tickers)
    claims: list[Claim] = []
    masked = _mask(text, _headlines(text, claims))
    masked = _mask(masked, _dates(masked, claims))
    tickers = _tickers(masked, known, claims)
    figures = _figures(_mask(masked, [(t.start, t.end) for t in tickers]), claims)
    if figures:
        _attach_names(text, figures)
        attach_bounds(text, figures)
        _attach_fields(text, figures)
        _attach_directions(text, figures, scan(_DIRECTION_SCAN, text, _fold(text)))
    starts = None
    if figures and tickers:
        starts = sentence_starts(text)
        _attach_scopes(figures, tickers, starts)
    claims.sort(key=_START)
    attach_periods(text, claims, starts)
    _attach_weekdays(text, claims)
    if starts is None:
        starts = sentence_starts(text)
    folded = fold_aligned(text)
    if tickers:
        claims += _moves(text, folded, tickers, figures, starts)
        claims.sort(key=_START)
    inside = attach_times(text, folded, claims, starts)
    if inside:  # "the last 30 days": the 30 is part of the time
        claims[:] = [c for c in claims if not any(s <= c.start and c.end <= e for s, e in inside)]
    if any(c.kind == "headline" for c in claims):
        _attach_to_headlines(text, claims)
        if tickers:
            _attach_quote_subjects(text, claims, tickers)
    _attach_event_kinds(text, claims, starts, tickers)
    return claims


_SESSION_WORDS = re.compile(
    r"(?<!\w)(?:(?P<before>before\s+the\s+(?:open|opening\s+bell|bell)|pre-?market"
    r"|antes\s+de\s+la\s+apertura)"
    r"|(?P<during>during\s+(?:the\s+)?(?:session|trading(?:\s+day)?|market\s+hours)|intraday"
    r"|durante\s+la\s+sesión)"
    r"|(?P<after>after\s+the\s+(?:close|closing\s+bell|bell)|after[-\s]hours|post-?market"
    r"|tras\s+el\s+cierre|después\s+del\s+cierre))(?!\w)"
)
"""When a piece of news came, as a draft says it (read in the case-folded text)."""
_SESSION_STEMS = (
    "before", "pre", "during", "intraday", "after", "post", "antes", "durante", "tras", "después",
)  # fmt: skip


def _attach_to_headlines(text: str, claims: list[Claim]) -> None:
    """Each session phrase, and each date written with its time, goes to the quoted headline
    it says when came (`_quote_owner`)."""
    folded = fold_aligned(text)
    quotes = [c for c in claims if c.kind == "headline"]
    dates = [c for c in claims if c.kind == "date"]
    for m in matches_at_stems(folded, _SESSION_STEMS, _SESSION_WORDS):
        owner = _quote_owner(text, m.start(), m.end(), quotes, dates)
        if owner is not None and not owner.session:
            owner.session = m.lastgroup or ""
    for stamp in dates:
        if _is_timestamp(stamp) and (
            owner := _quote_owner(text, stamp.start, stamp.end, quotes, dates)
        ):
            stamp.headline = owner.text


def _attach_quote_subjects(text: str, claims: list[Claim], tickers: list[Claim]) -> None:
    """A quote speaks of the tickers named with it in its sentence (before it, or right after:
    `"..." (AXO)`): its news result must be one of theirs."""
    for quote in claims:
        if quote.kind != "headline":
            continue
        near = [
            t.symbol
            for t in tickers
            if (t.end <= quote.start and not SENTENCE_END.search(text, t.end, quote.start))
            or (t.start >= quote.end and not SENTENCE_END.search(text, quote.end, t.start))
        ]
        quote.scope = frozenset(near)


_AFTER_QUOTE = re.compile(r"[ \t]*(?:\([^()\n]{0,48}|\[[^\[\]\n]{0,48})")
"""From a quote's end to a time in the brackets right after it: `"..." (PR Newswire, `."""
_LINK_WORDS = frozenset(
    re.findall(
        r"\S+",
        "at on was were is published posted released appeared came ran hit crossed the wire wires "
        "timestamped stamped dated by via from per reported carried said wrote first out with its "
        "a an in headline story item news time utc gmt et z a las el la en publicado publicada "
        "publicó apareció salió por de del según titular noticia con hora issued s fue se",
    )
)
"""Words that may stand between a quote and its time ("published at", "PR Newswire ran")."""
_LINK_TOKEN = re.compile(r"[^\W\d_]+|\S")
_LINK_MARKS = frozenset(",:()[]|*—–-'’")
"""Marks that may stand between a quote and its time too (brackets, table bars, bold, "'s")."""


def _quote_owner(
    text: str, start: int, end: int, quotes: list[Claim], dates: list[Claim]
) -> Claim | None:
    """The quote that what the draft writes from `start` to `end` (a time, a session phrase)
    says when came: the one whose brackets hold it (`"..." (PR Newswire, 2024-12-30T14:22Z)`),
    else the quote before or after it joined only by linking words and source names ("At ...
    PR Newswire ran", "published ... by", "after the close MarketWatch reported"), the one
    without a comma between if both are; None where that does not tell."""
    before = [q for q in quotes if q.end <= start]
    after = [q for q in quotes if q.start >= end]
    if before and _AFTER_QUOTE.fullmatch(text, before[-1].end, start):
        return before[-1]
    linked: list[tuple[int, Claim]] = []
    for quote, (lo, hi) in (
        (before[-1] if before else None, (before[-1].end if before else 0, start)),
        (after[0] if after else None, (end, after[0].start if after else 0)),
    ):
        if quote is None or hi - lo > 48 or "\n" in text[lo:hi]:
            continue  # a line break ends a list item or a table row
        if any(lo <= d.start < hi for d in dates):
            continue
        tokens = _LINK_TOKEN.findall(text, lo, hi)
        if all(t in _LINK_MARKS or t[0].isupper() or t.casefold() in _LINK_WORDS for t in tokens):
            linked.append(("," in tokens, quote))
    if len(linked) == 2 and linked[0][0] != linked[1][0]:
        return min(linked, key=lambda pair: pair[0])[1]
    return linked[0][1] if len(linked) == 1 else None


_TIME_AFTER_DATE = re.compile(r"\d{4}-\d\d-\d\d[T ]\d\d:\d\d")


def _is_timestamp(claim: Claim) -> bool:
    return _TIME_AFTER_DATE.match(claim.text) is not None


_WEEKDAYS = {
    name: number
    for number, names in enumerate(
        (
            "monday mon lunes",
            "tuesday tue tues martes",
            "wednesday wed miércoles miercoles",
            "thursday thu thurs jueves",
            "friday fri viernes",
            "saturday sat sábado sabado",
            "sunday sun domingo",
        )
    )
    for name in names.split()
}
_WEEKDAY_GAP = " \t,.([*_"


_WEEKDAY_COPULA = re.compile(
    r"(?i),?\s+(?:was|is|fell\s+on|fue|es|cayó\s+en|will\s+be|será)\s+(?:a\s+|un\s+|el\s+)?(?=\w)"
)
"""A verb between a date and its weekday: "December 28, 2024 was a Saturday", "fue sábado"."""
_WEEKDAY_HINT = re.compile(
    "mon|tue|wed|thu|fri|sat|sun|lunes|martes|mi[eé]rcoles|jueves|viernes|s[aá]bado|domingo"
)
"""What the case-folded text must hold for any weekday name (English ones by abbreviation)."""


def _attach_weekdays(text: str, claims: list[Claim]) -> None:
    """A weekday name right before or after a date: "Monday, December 30", "Fri 2024-12-27", "el
    lunes 30", "2025-01-24 (Friday)" (read as the word next to the date, without a regex pass)."""
    if _WEEKDAY_HINT.search(text.casefold()) is None:
        return
    for claim in claims:
        if claim.kind == "date":
            copula = _WEEKDAY_COPULA.match(text, claim.end)
            after = text[copula.end() if copula else claim.end :][:14].lstrip(" ,(").split(None, 1)
            if after:  # "2025-01-24 (Friday)", "January 13, Monday"
                day = _WEEKDAYS.get(after[0].rstrip(").,;:*_]").casefold())
                if day is not None:
                    claim.weekday = day
                    continue
        if claim.kind == "date" and claim.start:
            before = text[max(claim.start - 16, 0) : claim.start].rstrip(_WEEKDAY_GAP)
            words = before.rsplit(None, 2)
            if words and words[-1].casefold() == "el" and len(words) > 1:
                words.pop()
            if words:
                word = words[-1].rstrip(_WEEKDAY_GAP).casefold()
                day = _WEEKDAYS.get(word)
                if day is not None and not before[: -len(words[-1])][-1:].isalnum():
                    claim.weekday = day


EVENT_KINDS = frozenset({"dividend", "earnings", "split"})
"""Kinds of corporate event: a draft may name an event's day ("earnings on 2025-01-13") and its
figure ("a dividend of $0.87"), and a result's event `value` is filed under its kind."""
_PERIODIC = r"(?:quarterly|annual|q[1-4]|(?:first|second|third|fourth)[-\s]quarter)\s+"
_EVENT_WORD = re.compile(
    rf"(?<!\w)(?:(?P<earnings>(?:{_PERIODIC})?(?:earnings|eps)"
    r"(?:\s+(?:report|release|call|announcement|date))?"
    rf"|{_PERIODIC}results|(?:informe|presentación|publicación)\s+de\s+resultados"
    r"|resultados(?:\s+(?:trimestrales|anuales))?)"
    r"|(?P<dividend>(?:ex-)?dividend(?:\s+(?:payment|payout|pay|record))?(?:\s+date)?"
    r"|(?:fecha\s+)?(?:ex-)?dividendo)"
    r"|(?P<split>(?:stock\s+|share\s+)?split(?:\s+date)?|desdoblamiento))(?!\w)"
)
_EVENT_STEMS = (
    "quarterly", "annual", "q1", "q2", "q3", "q4", "first", "second", "third", "fourth",
    "earnings", "eps", "informe", "presentación", "publicación", "resultados", "fecha", "ex-",
    "dividend", "stock", "share", "split", "desdoblamiento",
)  # fmt: skip
_WEEKDAY_WORD = "|".join(sorted(_WEEKDAYS, key=len, reverse=True))
_EVENT_GAP = re.compile(
    r"(?:\s+(?:for|of|de|del)\s+[a-z][a-z0-9.\-]{0,9})?"  # whose: "for mpse", "de mpse"
    r"(?:[*_`]*\s*[:(|—–-]\s*[*_`]*\s*"
    r"|(?:(?:\s+(?:of|de)\s+|\s*\(\s*)(?:us)?[$€£]?\s*[\d.,]+"
    r"(?:\s*(?:[$€£]|usd|eur|cents?|d[oó]lares|euros))?"
    r"(?:\s*/\s*(?:share|sh)|\s+(?:a|per|por)\s+(?:share|acción))?\)?)?"
    r"(?:,?(?:\s+(?:is|are|was|were|will\s+be|will|es|será|fue|se))?"
    r"\s+(?:scheduled|set|expected|due\s+out|due|planned|slated|payable|paid|released|reported"
    r"|published|announced|comes?\s+out|comes?|out|programad[oa]|previst[oa]|pagadero|paga"
    r"|pagará|publica|publicará|presenta|presentará)"
    r"(?:\s+to\s+(?:be\s+(?:released|reported|announced|paid|published)|shareholders))?"
    r"|\s+(?:is|are|was|were|es|será|fue))?"
    r"(?:\s+(?:on|for|el|para\s+el|del))?(?:\s+the)?\s+)"
    rf"(?:(?:{_WEEKDAY_WORD})\.?,?\s+)?"
)
"""Between the name of an event and its day ("earnings on", "dividend: ", "earnings, scheduled
for", "a dividend of $0.87 per share, payable on", "earnings for MPSE are expected on", "will be
paid to shareholders on", "dividendo de MPSE se paga el", "dividendo el miércoles"), read in the
case-folded text. A comma alone does not join them ("two weeks after earnings, on ...")."""
_EVENT_LIST = re.compile(r"\s*(?:,|/|&|and|y|or|o)\s*(?:(?:a|an|the|un|una|el|la)\s+)?")
"""Between two names of events that the draft lists ("earnings and a dividend on ..."): which
day goes with which is then not told by position."""
_NOT_BEFORE = re.compile(r"(?<!\w)(?:no|not|without|never|nor|sin|ningún|ninguna|ni)\s+$")
_RESPECTIVELY = re.compile(r"respectiv")


def _attach_event_kinds(
    text: str, claims: list[Claim], starts: list[int], tickers: list[Claim]
) -> None:
    """A date right after the name of a corporate event is named as that event's day, for the
    ticker named last before it ("MPSE's earnings on"), unless the name is denied ("no earnings
    on"), one of a list ("earnings and a dividend on"), or in a sentence that pairs names and
    days "respectively"."""
    folded = fold_aligned(text)
    names = matches_at_stems(folded, _EVENT_STEMS, _EVENT_WORD)
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


def _moves(
    text: str, folded: str, tickers: list[Claim], figures: list[Claim], starts: list[int]
) -> list[Claim]:
    def make(start: int, end: int, direction: int, subject: str, daily: bool) -> Claim:
        word = text[start:end]
        claim = Claim(
            word,
            start,
            end,
            "move",
            direction=direction,
            direction_word=word,
            scope=frozenset({subject}),
        )
        claim.time = ClaimTime("day") if daily else None
        return claim

    return [c for c in find_moves(folded, tickers, figures, starts, make) if isinstance(c, Claim)]


def fold_aligned(text: str) -> str:
    """The case fold of `text` character for character (one whose fold is longer, "ß" -> "ss",
    stays as it is), so that a position in it is the same position in `text`."""
    folded = text.casefold()
    if len(folded) == len(text):
        return folded
    return "".join(f if len(f := c.casefold()) == 1 else c for c in text)


def extract_facts(text: str) -> list[Claim]:
    """The claims of a source text (a tool result), without the draft-only direction and scope."""
    claims: list[Claim] = []
    masked = _mask(text, _headlines(text, claims))
    masked = _mask(masked, _dates(masked, claims))
    tickers = _tickers(masked, frozenset(), claims)
    figures = _figures(_mask(masked, [(t.start, t.end) for t in tickers]), claims)
    if figures:
        attach_bounds(text, figures)
    attach_periods(text, claims)
    return claims


def normalise_headline(text: str) -> str:
    """Case, quote marks, spacing and trailing punctuation do not make a headline different."""
    text = text.replace("’", "'").replace("‘", "'").casefold()
    return " ".join(text.split()).strip(" .,;:!?")


def scan(
    how: Scan, text: str, folded: str | None, months: list[int] | None = None
) -> Iterable[re.Match[str]]:
    """The matches of the pattern `how` stands for, in order, as `finditer` finds them.

    `folded` is the case fold of `text` (None where folding changed the length: a hinted pattern
    then runs plainly); `months` the month starts (`month_starts`), for the month-anchored scans.
    """
    if how.at == "dash":
        return _matches_at(how.pattern, text, [h.start() - 4 for h in _ISO_DASH.finditer(text, 4)])
    if how.at:
        if months is None:
            months = month_starts(text)
        starts = months if how.at == "month" else _day_starts(text, months)
        return _matches_at(how.pattern, text, starts)
    if how.hint is None or folded is None:
        return how.pattern.finditer(text)
    return _matches_at_hits(how.pattern, text, how.hint.finditer(folded if how.fold else text))


def month_starts(text: str) -> list[int]:
    """Where an English month name can start; every English date pattern holds one."""
    return [m.start() for m in _MONTH_START.finditer(text)]


def _matches_at(
    pattern: re.Pattern[str], text: str, starts: Iterable[int]
) -> Iterator[re.Match[str]]:
    """`pattern.finditer(text)`, given (in order) every position where a match can start."""
    end = -1
    match = pattern.match
    for start in starts:
        if start >= end and (m := match(text, start)) is not None:
            end = m.end()
            yield m


def _matches_at_hits(
    pattern: re.Pattern[str], text: str, hits: Iterable[re.Match[str]]
) -> Iterator[re.Match[str]]:
    """`_matches_at`, given the hint's matches (the start of each is a candidate)."""
    end = -1
    match = pattern.match
    for hit in hits:
        start = hit.start()
        if start >= end and (m := match(text, start)) is not None:
            end = m.end()
            yield m


def _day_starts(text: str, months: list[int]) -> list[int]:
    """Where a day written before a month name can start (`5 March`, `5th of March`)."""
    starts: set[int] = set()
    for month in months:
        i = month
        while i and text[i - 1].isspace():
            i -= 1
        if i == month:
            continue
        ends = [i]
        if i > 2 and text[i - 2 : i] == "of" and text[i - 3].isspace():
            i -= 2
            while i and text[i - 1].isspace():
                i -= 1
            ends.append(i)
        for end in ends:
            for day_end in (end, end - 2) if text[end - 2 : end] in _DAY_SUFFIXES else (end,):
                for start in (day_end - 1, day_end - 2):
                    if start >= 0 and text[start:day_end].isdecimal():
                        starts.add(start)
    return sorted(starts)


def holds(how: Scan, text: str, folded: str | None) -> bool:
    """Whether the text holds one of the words the pattern needs (always, if the fold failed)."""
    if how.gate is not None and how.gate.search(text) is None:
        return False
    if not how.needs:
        return True
    if how.cased:
        return any(map(text.__contains__, how.needs))
    return folded is None or any(map(folded.__contains__, how.needs))


def _fold(text: str) -> str | None:
    folded = text.casefold()
    return folded if len(folded) == len(text) else None


def _mask(text: str, spans: Iterable[tuple[int, int]]) -> str:
    parts, last = [], 0
    for start, end in spans:
        parts.append(text[last:start])
        parts.append(" " * (end - start))
        last = end
    if not parts:
        return text
    parts.append(text[last:])
    return "".join(parts)


def _headlines(text: str, claims: list[Claim]) -> list[tuple[int, int]]:
    spans: list[tuple[int, int]] = []
    if not any(map(text.__contains__, _QUOTES)):
        return spans
    for m in HEADLINE.finditer(text):
        inner = m.group(m.lastindex or 1)
        if len(inner.rstrip(_ELLIPSIS).split()) >= 3:
            claims.append(Claim(inner, m.start(), m.end(), "headline"))
            spans.append((m.start(), m.end()))
    return spans


def _dates(text: str, claims: list[Claim]) -> list[tuple[int, int]]:
    """Dates of every pattern in turn; a match overlapping one found before is dropped.

    The spans found so far are kept sorted (they never overlap), so one bisection tells.
    """
    starts: list[int] = []
    ends: list[int] = []
    folded = _fold(text)
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
            if how is _DAY_MONTH_ONLY and not _DATE_LEAD.search(text, max(start - 12, 0), start):
                continue
            readings = (_quarter(m),) if quarter else _date_readings(m.groupdict())
            if readings:
                claims.append(Claim(m.group(), start, end, "date", dates=readings))
                i = bisect_left(starts, start)
                starts.insert(i, start)
                ends.insert(i, end)
    return list(zip(starts, ends, strict=True))


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


def _tickers(text: str, known: frozenset[str], claims: list[Claim]) -> list[Claim]:
    tickers = []
    for m in TICKER_SCAN.finditer(text):
        written = m.group()
        cashtag = written[0] == "$"
        symbol = written[1:] if cashtag else written
        if not cashtag and symbol not in known and (len(symbol) < 2 or symbol in STOPWORDS):
            continue
        start, end = m.span()
        tickers.append(Claim(written, start, end, "ticker", symbol=symbol))
    claims.extend(tickers)
    return tickers


def _figures(text: str, claims: list[Claim]) -> list[Claim]:
    figures: list[Claim] = []
    date_ends = sorted(c.end for c in claims if c.kind == "date")
    date_starts = {c.start for c in claims if c.kind == "date"}
    for m in NUMBER_SCAN.finditer(text):
        start = m.start()
        if _day_of_range(text, m, date_ends, date_starts) or (
            _DAY_AFTER.search(text, max(start - 12, 0), start) and _is_day(m.group())
        ):
            continue  # "Dec 28–31", "28–31 Dec", "el lunes 30": a day, not a quantity
        before = (
            _aside_anchor(text, start, figures, date_ends)
            if text[start] == "("  # only a parenthesised figure asks what it follows
            else figures[-1].end
            if figures
            else -1
        )
        claim = _figure(text, m, before)
        if claim is not None:
            figures.append(claim)
    folded = _fold(text)
    if not holds(_NUMBER_WORD_SCAN, text, folded):
        return _sorted_figures(figures, claims)
    for m in scan(_NUMBER_WORD_SCAN, text, folded):
        reading = Reading(float(NUMBER_WORDS[m.group().casefold()]), 0)
        figures.append(Claim(m.group(), m.start(), m.end(), "number", (reading,)))
    return _sorted_figures(figures, claims)


_RANGE_DASH = "-–—"
_DAY_AFTER = re.compile(
    r"(?i)\b(?:lunes|martes|mi[eé]rcoles|jueves|viernes|s[aá]bado|domingo|d[ií]a)\s+$"
)
"""A day number written after a weekday or "día" ("el lunes 30", "el día 30") is a date."""


def _day_of_range(text: str, m: re.Match[str], date_ends: list[int], starts: set[int]) -> bool:
    """Whether a whole number of one or two digits is the other end of a range of days with a
    date: right after it and a dash ("Dec 28–31"), or right before a dash and it ("28–31 Dec")."""
    if not _is_day(m.group().lstrip(_RANGE_DASH)):
        return False
    start, end = m.span()
    if text[start] in _RANGE_DASH:
        return start in date_ends
    return text[end : end + 1] in _RANGE_DASH and end + 1 in starts


def _is_day(written: str) -> bool:
    return written.isdigit() and len(written) <= 2 and 1 <= int(written) <= 31


_CURRENCY_AFTER = re.compile(r"(?i)\s*(?:\$|€|£|usd|eur|d[oó]lares|euros)?\s*")


def _aside_anchor(text: str, start: int, figures: list[Claim], date_ends: list[int]) -> int:
    """Where the claim before a figure ends, for telling "(1.31%)" as an aside after it from a
    negative: a date counts too ("on 2024-12-31 (287.14)"), and so does a currency written after
    its amount ("2.897,51 $ (1,31 %)"), which is then taken as part of it."""
    end = figures[-1].end if figures else -1
    if date_ends:
        i = bisect_right(date_ends, start) - 1
        if i >= 0 and date_ends[i] > end:
            end = date_ends[i]
    if end >= 0 and start - end < 12 and _CURRENCY_AFTER.fullmatch(text, end, start):
        return start
    return end


_NAME_WORD = re.compile(r"(?<![\w&.$])[A-Z][A-Z&]*[A-Z] $")
"""An upper-case word right before a whole number makes the number part of a name ("MAX 10")."""


def _attach_names(text: str, figures: list[Claim]) -> None:
    for figure in figures:
        if (
            figure.kind == "number"
            and not figure.sign
            and figure.scale == 1.0
            and figure.text.isdigit()
            and figure.start > 2
        ):
            word = _NAME_WORD.search(text, max(figure.start - 12, 0), figure.start)
            if word is not None:
                figure.name = f"{word.group()}{figure.text}"


FIELDS: dict[str, frozenset[str]] = {
    "close": frozenset({"close", "end_close"}),
    "previous_close": frozenset({"previous_close", "start_close"}),
    "market_value": frozenset({"market_value"}),
    "day_pnl": frozenset({"day_pnl"}),
    "day_change": frozenset({"change"}),
    "contribution": frozenset({"contribution_pct"}),
    "dividend": frozenset({"dividend"}),
    "earnings": frozenset({"earnings"}),
}
"""What a draft may call a figure, and the result keys that hold such a figure."""
PERCENT_FIELDS = frozenset({"contribution"})
"""Fields that are percentages; a percentage named as any other field is not judged by name."""
_FIELD_WORD = re.compile(
    r"(?<!\w)(?:(?P<previous_close>previous\s+close|prior\s+close|previously\s+closed"
    r"|(?:previous|prior)\s+(?:day|session)'s\s+close"
    r"|cierre\s+(?:anterior|previo))"
    rf"|(?P<close>{alternatives('traded')}|closing\s+price|closed|closing|close|ended\s+the\s+(?:session|day)"
    r"|settled|finished\s+the\s+(?:session|day)|finished|cerró|cerro|cerraron|cierre"
    r"|terminaron\s+la\s+sesión|terminó\s+la\s+sesión)"
    r"|(?P<market_value>market\s+value|valor\s+de\s+mercado)"
    r"|(?P<day_pnl>(?:day\s+)?p&l|(?:day\s+)?pnl|resultado\s+del\s+día)"
    r"|(?P<day_change>day\s+change|daily\s+change|variación\s+diaria)"
    r"|(?P<contribution>contribution|contributing|contributed|contributes|contribución|aportó"
    r"|aporte)"
    r"|(?P<dividend>dividend|dividendo)"
    r"|(?P<earnings>earnings\s+per\s+share|earnings|eps|bpa|beneficio\s+por\s+acción))(?!\w)"
)
_FIELD_GAP = re.compile(
    r"[*_`]*(?::[*_`]*)?"  # a label: "**Close:** "
    rf"(?:\s+(?:the\s+(?:day|session)|{_WEEKDAY_WORD}))?"  # "closed the day at", "closed Tuesday at"
    r"(?:\s+(?:was|is|of|at|on|de|a|en|fue|del|to(?:\s+the\s+portfolio)?))?"
    r"(?:\s+(?:about|around|roughly|approximately|nearly|some|alrededor\s+de|cerca\s+de|unos))?"
    r"\s*[*_`~]*\s*(?:\$|us\$|€)?"
)
"""A name of a field and the words between it and its figure ("closed at $287.14", "a previous
close of 283.43", "el resultado del día fue 2.897,51"), both read in the case-folded text."""
_FIELD_STEMS = (
    "previous", "prior", "clos", "cierr", "cerr", "market", "valor", "p&l", "pnl", "resultado",
    "ended", "settled", "finished", "terminaron", "terminó", "day change", "daily change",
    "variación", "contribu", "aport", "dividend", "earnings", "eps", "bpa", "beneficio", "last",
    "traded", "cotiz", "último",
)  # fmt: skip
"""Where a field name can start (see `matches_at_stems`)."""


def matches_at_stems(
    folded: str, stems: Iterable[str], pattern: re.Pattern[str]
) -> list[re.Match[str]]:
    """The non-overlapping matches of `pattern`, in order, tried only where one of `stems`
    starts: `str.find` finds them in C, where a pattern opening with an assertion would be
    entered at every position."""
    starts = []
    for stem in stems:
        i = folded.find(stem)
        while i >= 0:
            starts.append(i)
            i = folded.find(stem, i + 1)
    found: list[re.Match[str]] = []
    last = -1
    for start in sorted(set(starts)):
        if start >= last and (m := pattern.match(folded, start)) is not None:
            found.append(m)
            last = m.end()
    return found


def _attach_fields(text: str, figures: list[Claim]) -> None:
    folded = fold_aligned(text)
    names = [(m.end(), m.lastgroup) for m in matches_at_stems(folded, _FIELD_STEMS, _FIELD_WORD)]
    if not names:
        return
    starts = [f.start for f in figures]
    for end, name in names:
        i = bisect_left(starts, end)
        if i < len(figures) and name and figures[i].start - end < 28:
            figure = figures[i]
            if (figure.kind == "percent") == (name in PERCENT_FIELDS) and _FIELD_GAP.fullmatch(
                folded, end, figure.start
            ):
                figure.field = name


_BOUND_WORDS = (
    "over ", "more than", "above", "at least", "exceed", "in excess of", "más de", "mas de",
    "encima de", "under ", "fewer than", "less than", "below", "at most", "up to", "menos de",
    "debajo de",
)  # fmt: skip
_BOUND = re.compile(
    r"(?<!\w)(?:(?P<lower>over|more\s+than|above|at\s+least|exceeding|in\s+excess\s+of|más\s+de"
    r"|mas\s+de|por\s+encima\s+de)|(?P<upper>under|fewer\s+than|less\s+than|below|at\s+most"
    r"|up\s+to|menos\s+de|por\s+debajo\s+de))\s+(?=[\d(+$€£UE-])"
)
"""A bound word right before a figure (read in the case-folded text)."""


def attach_bounds(text: str, figures: list[Claim]) -> None:
    """Mark figures written as a bound ("over 100", "fewer than 100", "menos de 5"): a bound
    turned around is a different statement, though the figure is the same."""
    folded = fold_aligned(text)
    if not any(word in folded for word in _BOUND_WORDS):
        return
    starts = [f.start for f in figures]
    for m in _BOUND.finditer(folded):
        i = bisect_left(starts, m.end())
        if i < len(figures) and starts[i] == m.end():
            if i and not text[figures[i - 1].end : m.start()].strip():
                continue  # "1.69 above 26.19": a difference between two figures, not a bound
            figures[i].bound = 1 if m.group("lower") else -1


def _sorted_figures(figures: list[Claim], claims: list[Claim]) -> list[Claim]:
    figures.sort(key=_START)
    claims.extend(figures)
    return figures


def _figure(text: str, m: re.Match[str], previous_end: int) -> Claim | None:
    opened, s1, cur, s2, digits, letter, word, unit, close = number_parts(text, m)
    start, end = m.span()
    sign = 0
    if opened and close:
        if (previous_end >= 0 and not text[previous_end:start].strip()) or (
            cur and _after_noun(text, start)
        ):
            start, end = m.end("open"), m.start("close")
        else:
            sign = -1
    elif opened:
        start = m.end("open")
    elif close:
        end = m.start("close")
    if letter == "m" and not cur:
        return None
    after = text[end : end + 2]
    if (
        after[:1].isalpha()
        or (after[:1] == "-" and after[1:2].isalpha())  # a code: "10-K"
        or (after[:1] == ":" and after[1:2].isdigit())  # the hour of a clock time: "14:22"
    ):
        return None
    if start > 1 and (
        (text[start - 1] == "-" and text[start - 2].isalpha())  # "COVID-19"
        or (text[start - 1] == ":" and text[start - 2].isdigit())  # the minutes of "14:22"
    ):
        return None
    if s1 or s2:
        signs = (s1 or "") + (s2 or "")
        if "-" in signs or "−" in signs or "–" in signs:
            sign = -1
        elif "+" in signs:
            sign = 1
    elif not sign and _says_minus(text) and _minus_word(text, start, previous_end):
        sign = -1
    points = unit is not None and unit.strip().lower().startswith(_POINTS)
    unit = _unit(unit) if unit else ""
    scale = _scale(letter or "", word or "") if letter or word else 1.0
    kind: Kind = "percent" if unit else "money" if cur or word in _CENTS else "number"
    claim = Claim(text[start:end], start, end, kind, _read_digits(digits or ""), scale, sign, unit)
    claim.points = points
    return claim


_POINTS = ("percentage", "pp", "puntos porcentuales")


_LAST_WORD = re.compile(r"([^\W\d_]+)\s*$")
_AMOUNT_LEAD = frozenset(
    re.findall(
        r"\S+",
        "of was were is are at to by be been totaled totalled reached posted reported de fue "
        "fueron es son en a",
    )
)
"""Words after which "($0.12)" is an amount in accounting style, negative ("EPS was ($0.12)")."""


def _after_noun(text: str, start: int) -> bool:
    """Whether the word right before a bracketed amount names what it is ("MPSE's dividend
    ($0.87) is paid"): the brackets then hold an aside, not a negative."""
    word = _LAST_WORD.search(text, max(start - 24, 0), start)
    return word is not None and word.group(1).casefold() not in _AMOUNT_LEAD


_MINUS_WORD = re.compile(r"(?i)(?<![\w-])minus\s+$")


@lru_cache(maxsize=8)
def _says_minus(text: str) -> bool:
    """Whether the text writes "minus" at all: asked once per text, not once per figure."""
    return "inus" in text or "INUS" in text


def _minus_word(text: str, start: int, previous_end: int) -> bool:
    """A sign in "minus 3.71"; a subtraction right after a figure ("287.14 minus 283.43")."""
    word = _MINUS_WORD.search(text, max(start - 16, 0), start)
    if word is None:
        return False
    return previous_end < 0 or bool(text[previous_end : word.start()].strip())


_CENTS = frozenset({"cent", "cents", "centavo", "centavos", "¢"})
"""Words after a number that make it money in hundredths ("87 cents" is $0.87)."""


@lru_cache(maxsize=256)
def _unit(written: str) -> str:
    unit = written.strip().lower()
    if unit.startswith(("percentage", "puntos porcentuales")):
        return "%"  # percentage points: a difference of percentages, in percent
    if unit in {"bps", "pb"} or "point" in unit or "punto" in unit:
        return "bps"
    return "%" if unit else ""


@lru_cache(maxsize=256)
def _scale(letter: str, word: str) -> float:
    scale_word = letter or " ".join(word.split())
    return SCALES.get(scale_word.lower(), 1.0) if scale_word else 1.0


_read_digits = lru_cache(maxsize=4096)(read_digits)


def clear_caches() -> None:
    """Forget the literals read so far."""
    for cached in (_unit, _scale, _read_digits):
        cached.cache_clear()


def _attach_directions(
    text: str, figures: list[Claim], directions: Iterable[re.Match[str]]
) -> None:
    """Each direction word governs the figure after it and those chained to that one."""
    starts = [f.start for f in figures]
    ends: list[int] | None = None
    for m in directions:
        direction = 1 if m.group("up") else -1
        if m.group().casefold() in _AFTER_FIGURE:
            if ends is None:
                ends = [f.end for f in figures]
            before = bisect_right(ends, m.start()) - 1
            if (
                before >= 0
                and not figures[before].direction
                and not text[figures[before].end : m.start()].strip()
            ):
                figures[before].direction, figures[before].direction_word = direction, m.group()
        i = _first_at_or_after(starts, m.end())
        gap = _LEAD_GAP
        cursor = m.end()
        while i < len(figures) and gap.fullmatch(text, cursor, figures[i].start):
            if not figures[i].direction:
                figures[i].direction, figures[i].direction_word = direction, m.group()
            cursor, gap, i = figures[i].end, _CHAIN_GAP, i + 1


def _first_at_or_after(starts: list[int], position: int) -> int:
    return bisect_left(starts, position)


def _attach_scopes(figures: list[Claim], tickers: list[Claim], sentence_starts: list[int]) -> None:
    """Each figure speaks about the tickers named before it in its sentence and the last one named.

    Figures and tickers (both in order of position) are walked together; a scope is built once
    for each distinct (sentence, tickers so far).
    """
    ticker_starts = [t.start for t in tickers]
    scopes: dict[tuple[int, int], frozenset[str]] = {}
    seen = 0
    for figure in figures:
        while seen < len(tickers) and tickers[seen].end <= figure.start:
            seen += 1
        if not seen:
            continue
        sentence = sentence_starts[bisect_right(sentence_starts, figure.start) - 1]
        first = bisect_left(ticker_starts, sentence, 0, seen)
        scope = scopes.get((first, seen))
        if scope is None:
            symbols = {t.symbol for t in tickers[first:seen]}
            symbols.add(tickers[seen - 1].symbol)
            scope = scopes[(first, seen)] = frozenset(symbols)
        figure.scope = scope

"""Claims: the checkable statements of a draft, each with its character span.

A claim is a figure (number, money, percentage, basis points), a date, a ticker symbol or a quoted
headline. Figures also carry their sign as written, the direction word that governs them
("rose 2.1%") and the tickers they speak about (their scope). Extraction is plain text work, in
English and Spanish; whether a claim holds is decided elsewhere, against the trace.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Literal

from verifier.numbers import SCALES, Reading, read_digits

Kind = Literal["number", "money", "percent", "date", "ticker", "headline"]
DateReading = tuple[int | None, int, int | None]
"""(year or None, month, day or None); months 13-16 stand for quarters 1-4 (day None)."""
QUARTER_BASE = 12

FIGURE_KINDS = frozenset({"number", "money", "percent"})


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
    scope: frozenset[str] = field(default_factory=frozenset)

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
DATE_PATTERNS = tuple(
    re.compile(p)
    for p in (
        r"(?<![\w-])(?P<y>\d{4})-(?P<m>\d\d)-(?P<d>\d\d)(?:[T ]\d\d:\d\d(?::\d\d(?:\.\d+)?)?(?:Z|[+-]\d\d:?\d\d)?)?(?![\w-])",
        rf"\b{_MON}\s+(?P<d>\d{{1,2}})(?:st|nd|rd|th)?(?!\d)(?:,?\s+{_YEAR})?",
        rf"\b(?P<d>\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?{_MON}(?:,?\s+{_YEAR})?",
        rf"\b{_MON}\s+{_YEAR}",
        rf"\b(?P<d>\d{{1,2}})\s+de\s+{_MES}(?:\s+(?:de|del)\s+{_YEAR})?",
        rf"\b{_MES}\s+(?:de|del)\s+{_YEAR}",
        r"(?<![\d/])(?P<a>\d{1,2})/(?P<b>\d{1,2})/(?P<y>\d{4})(?![\d/])",
    )
)
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
NUMBER_WORD = re.compile(r"(?i)(?<![\w-])(" + "|".join(NUMBER_WORDS) + r")(?![\w-])")
HEADLINE = re.compile(r"\"([^\"\n]{3,400})\"|“([^”\n]{3,400})”|«([^»\n]{3,400})»")
TICKER = re.compile(r"(?<![\w$&.])(\$)?([A-Z]{1,5}(?:[.-][A-Z]{1,2})?)(?![\w&-])")
NUMBER = re.compile(
    r"(?<!\w)(?P<open>\(\s*)?(?P<s1>[-−+])?(?P<cur>US\$|\$|€|£|USD\s?|EUR\s?)?(?P<s2>[-−+])?"
    r"(?P<digits>\d{1,3}(?:[,.]\d{3})+(?:[.,]\d+)?(?!\d)|\d+(?:[.,]\d+)?)"
    r"(?:(?P<letter>[kKMBT]|bn|mn|mm|tn)(?![\w])|\s?(?P<word>mil\s+millones|millones|millón|millon|millardos"
    r"|billones|billón|billon|billions?|millions?|thousand|trillion|mil)(?!\w))?"
    r"(?P<unit>\s?%|\s?(?:percent|per\s+cent|por\s+ciento|pct|bps|basis\s+points?|puntos\s+básicos|pb)(?!\w))?"
    r"(?P<close>\s*\))?"
)
DIRECTION = re.compile(
    r"(?i)(?<!\w)(?:(?P<up>rose|rise[sn]?|rising|gain(?:ed|s)?|climb(?:ed|s)?|jump(?:ed|s)?|advance[ds]?|increase[ds]?"
    r"|rall(?:ied|ies)|rebound(?:ed|s)?|up|sub(?:ió|e|ida)|gan(?:ó|a|ancia)|avanz(?:ó|a)|crec(?:ió|e)|aument(?:ó|a|o)|alza|repunt(?:ó|a))"
    r"|(?P<down>fell|falls?|fallen|falling|drop(?:ped|s)?|decline[ds]?|lost|loses|loss|sli[dp](?:ped|s)?|sank|sinks?"
    r"|decrease[ds]?|down|ca(?:yó|e|ída|ida)|perd(?:ió|e)|pierde|pérdida|perdida|baj(?:ó|a|ada)|retroced(?:ió|e)"
    r"|descend(?:ió|e)|desciende|descenso|disminu(?:yó|ye|ción)))(?!\w)"
)
_LEAD_GAP = re.compile(
    r"(?i)\s*(?:(?:by|of|por|un|una|de|del|some|about|around|roughly|approximately|nearly|almost|just|a|an|"
    r"total|sharply|slightly|modestly|casi|cerca|alrededor|fuertemente|ligeramente)\s+){0,3}\(?\s*"
)
_CHAIN_GAP = re.compile(r"(?i)\s*[,(/]?\s*(?:or|o|i\.e\.)?\s*\(?\s*")
SENTENCE_END = re.compile(r"[.!?;](?=\s)|\n")
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
        TO OF IN ON AT BY AN AS IS UP NOT ALL NEW IMPORTANT
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
    figures = _figures(_mask(masked, tickers), claims)
    _attach_directions(text, figures)
    _attach_scopes(text, figures, [c for c in claims if c.kind == "ticker"])
    claims.sort(key=lambda c: c.start)
    return claims


def normalise_headline(text: str) -> str:
    """Case, quote marks, spacing and trailing punctuation do not make a headline different."""
    text = text.replace("’", "'").replace("‘", "'").casefold()
    return " ".join(text.split()).strip(" .,;:!?")


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
    spans = []
    for m in HEADLINE.finditer(text):
        inner = m.group(1) or m.group(2) or m.group(3)
        if len(inner.split()) >= 3:
            claims.append(Claim(inner, m.start(), m.end(), "headline"))
            spans.append((m.start(), m.end()))
    return spans


def _dates(text: str, claims: list[Claim]) -> list[tuple[int, int]]:
    found: list[Claim] = []
    for pattern in DATE_PATTERNS:
        for m in pattern.finditer(text):
            if any(c.start < m.end() and m.start() < c.end for c in found):
                continue
            readings = _date_readings(m.groupdict())
            if readings:
                found.append(Claim(m.group(), m.start(), m.end(), "date", dates=readings))
    for pattern in QUARTER_PATTERNS:
        for m in pattern.finditer(text):
            if not any(c.start < m.end() and m.start() < c.end for c in found):
                found.append(Claim(m.group(), m.start(), m.end(), "date", dates=(_quarter(m),)))
    claims.extend(found)
    return sorted(c.span for c in found)


def _quarter(m: re.Match[str]) -> DateReading:
    g = m.groupdict()
    number = g.get("q") or g.get("q2")
    quarter = int(number) if number else _ORDINALS[(g.get("ord") or "").lower()]
    year = g.get("y")
    full = int(year) + (2000 if len(year) == 2 else 0) if year else None
    return (full, QUARTER_BASE + quarter, None)


def _date_readings(g: dict[str, str | None]) -> tuple[DateReading, ...]:
    year = int(g.get("y") or 0) or None
    if g.get("a"):
        a, b = int(g.get("a") or 0), int(g.get("b") or 0)
        pairs = {(a, b), (b, a)}
        return tuple((year, m, d) for d, m in sorted(pairs) if 1 <= m <= 12 and 1 <= d <= 31)
    if g.get("mon"):
        month = MONTHS_EN[(g["mon"] or "")[:3].lower()]
    elif g.get("mes"):
        month = MONTHS_ES[(g["mes"] or "").lower()]
    else:
        month = int(g.get("m") or 0)
    day = int(g.get("d") or 0) or None
    if not 1 <= month <= 12 or (day is not None and not 1 <= day <= 31):
        return ()
    return ((year, month, day),)


def _tickers(text: str, known: frozenset[str], claims: list[Claim]) -> list[tuple[int, int]]:
    spans = []
    for m in TICKER.finditer(text):
        symbol = m.group(2)
        cashtag = m.group(1) is not None
        if not cashtag and symbol not in known and (len(symbol) < 2 or symbol in STOPWORDS):
            continue
        claims.append(Claim(m.group(), m.start(), m.end(), "ticker", symbol=symbol))
        spans.append((m.start(), m.end()))
    return spans


def _figures(text: str, claims: list[Claim]) -> list[Claim]:
    figures: list[Claim] = []
    for m in NUMBER.finditer(text):
        claim = _figure(text, m, figures[-1].end if figures else -1)
        if claim is not None:
            figures.append(claim)
    for m in NUMBER_WORD.finditer(text):
        reading = Reading(float(NUMBER_WORDS[m.group().lower()]), 0)
        figures.append(Claim(m.group(), m.start(), m.end(), "number", (reading,)))
    figures.sort(key=lambda c: c.start)
    claims.extend(figures)
    return figures


def _figure(text: str, m: re.Match[str], previous_end: int) -> Claim | None:
    start, end = m.start(), m.end()
    if m.group("open") and m.group("close"):
        aside = not text[previous_end:start].strip() if previous_end >= 0 else False
        sign = 0 if aside else -1
        if aside:
            start, end = m.start("open") + len(m.group("open")), m.start("close")
    else:
        sign = 0
        if m.group("open"):
            start = m.end("open")
        if m.group("close"):
            end = m.start("close")
    after = text[end : end + 2]
    if after[:1].isalpha() or (after[:1] == "-" and after[1:2].isalpha()):
        return None
    if start > 1 and text[start - 1] == "-" and text[start - 2].isalpha():
        return None
    signs = (m.group("s1") or "") + (m.group("s2") or "")
    if "-" in signs or "−" in signs:
        sign = -1
    elif "+" in signs:
        sign = 1
    unit = (m.group("unit") or "").strip().lower()
    unit = (
        "bps"
        if unit in {"bps", "pb"} or "point" in unit or "punto" in unit
        else "%"
        if unit
        else ""
    )
    scale_word = m.group("letter") or " ".join((m.group("word") or "").split())
    scale = SCALES.get(scale_word.lower(), 1.0) if scale_word else 1.0
    kind: Kind = "percent" if unit else "money" if m.group("cur") else "number"
    readings = read_digits(m.group("digits"))
    return Claim(text[start:end], start, end, kind, readings, scale, sign, unit)


def _attach_directions(text: str, figures: list[Claim]) -> None:
    if not figures:
        return
    starts = [f.start for f in figures]
    for m in DIRECTION.finditer(text):
        direction = 1 if m.group("up") else -1
        i = _first_at_or_after(starts, m.end())
        gap = _LEAD_GAP
        cursor = m.end()
        while i < len(figures) and gap.fullmatch(text, cursor, figures[i].start):
            if not figures[i].direction:
                figures[i].direction, figures[i].direction_word = direction, m.group()
            cursor, gap, i = figures[i].end, _CHAIN_GAP, i + 1


def _first_at_or_after(starts: list[int], position: int) -> int:
    from bisect import bisect_left

    return bisect_left(starts, position)


def _attach_scopes(text: str, figures: list[Claim], tickers: list[Claim]) -> None:
    if not tickers:
        return
    tickers.sort(key=lambda c: c.start)
    sentence_starts = [0] + [m.end() for m in SENTENCE_END.finditer(text)]
    from bisect import bisect_right

    for figure in figures:
        sentence = sentence_starts[bisect_right(sentence_starts, figure.start) - 1]
        before = [t for t in tickers if t.end <= figure.start]
        if not before:
            continue
        scope = {t.symbol for t in before if t.start >= sentence}
        scope.add(before[-1].symbol)
        figure.scope = frozenset(scope)

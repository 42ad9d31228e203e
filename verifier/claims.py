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
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Literal

from verifier.numbers import SCALES, Reading, read_digits
from verifier.periods import Period, attach_periods

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
    period: Period | None = None
    tied: bool = False
    """A period named only as a base: a change's ("from Q3 2019"), or a base figure's ("down from
    $2.39 in Q3 2019")."""
    used: bool = False
    """A period some figure of the text is stated for."""

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
    r"(?:(?P<letter>[kKmMBT]|bn|mn|mm|tn)(?![\w])|\s?(?P<word>mil\s+millones|millones|millón|millon|millardos"
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

# Hints: cheap patterns (no leading assertion, so the regex engine skips ahead by first character)
# that match wherever the pattern they stand for can start; the full pattern is tried only there.
_MONTH_HINT = re.compile(r"Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec")
_ES_MONTHS = "enero|febrero|marzo|abril|mayo|junio|julio|agosto|septiembre|setiembre|octubre|noviembre|diciembre"
_EN_MONTH_WORDS = tuple(MONTHS_EN)
_ES_MONTH_WORDS = tuple(MONTHS_ES)
Hint = tuple[re.Pattern[str], bool, tuple[str, ...]]
"""A hint, whether it reads the case-folded text, and words one of which the folded text holds."""
DATE_HINTS: tuple[Hint, ...] = (
    (re.compile(r"\d\d\d\d-\d\d-\d\d"), False, ("-",)),
    (_MONTH_HINT, False, _EN_MONTH_WORDS),
    (
        re.compile(
            r"\d\d?(?:st|nd|rd|th)?\s+(?:of\s+)?(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)"
        ),
        False,
        _EN_MONTH_WORDS,
    ),
    (_MONTH_HINT, False, _EN_MONTH_WORDS),
    (re.compile(r"\d\d?\s+de\s"), False, _ES_MONTH_WORDS),
    (re.compile(_ES_MONTHS), True, _ES_MONTH_WORDS),
    (re.compile(r"\d\d?/\d\d?/\d\d\d\d"), False, ("/",)),
)
QUARTER_HINTS: tuple[Hint, ...] = (
    (
        re.compile(r"(?:first|second|third|fourth|fifth|1st|2nd|3rd|4th|5th)[\s-]+quarter"),
        True,
        ("quarter",),
    ),
    (
        re.compile(r"(?:primer|primero|segundo|tercer|tercero|cuarto|quinto)\s+trimestre"),
        True,
        ("trimestre",),
    ),
    (re.compile(r"Q[1-9]|[1-9]Q"), False, ("q",)),
)
_NUMBER_HINT = re.compile(r"[(\-−+$€£UE\d]")
_NUMBER_WORD_LIST = tuple(NUMBER_WORDS)
_NUMBER_WORD_HINT = re.compile("|".join(NUMBER_WORDS))
_TICKER_HINT = re.compile(r"[$A-Z]")
_DIRECTION_HINT = re.compile(
    "ros|ris|gain|climb|jump|advance|increase|rall|rebound|up|sub|gan|avanz|crec|aument|alza"
    "|repunt|fell|fall|drop|decline|los|sli|sank|sink|decrease|down|ca|perd|pierde|pérdida|baj"
    "|retroced|descen|disminu"
)
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
    attach_periods(text, claims)
    return claims


def extract_facts(text: str) -> list[Claim]:
    """The claims of a source text (a tool result), without the draft-only direction and scope."""
    claims: list[Claim] = []
    masked = _mask(text, _headlines(text, claims))
    masked = _mask(masked, _dates(masked, claims))
    _figures(_mask(masked, _tickers(masked, frozenset(), claims)), claims)
    attach_periods(text, claims)
    return claims


def normalise_headline(text: str) -> str:
    """Case, quote marks, spacing and trailing punctuation do not make a headline different."""
    text = text.replace("’", "'").replace("‘", "'").casefold()
    return " ".join(text.split()).strip(" .,;:!?")


def _scan(
    pattern: re.Pattern[str], hint: re.Pattern[str], text: str, hinted: str | None
) -> Iterator[re.Match[str]]:
    """`pattern.finditer(text)`, trying `pattern` only where `hint` matches `hinted`.

    `hinted` is `text` or its case fold of the same length; None (a fold that changed the length)
    falls back to the plain scan.
    """
    if hinted is None:
        yield from pattern.finditer(text)
        return
    pos = 0
    while (h := hint.search(hinted, pos)) is not None:
        m = pattern.match(text, h.start())
        if m is None:
            pos = h.start() + 1
        else:
            yield m
            pos = max(m.end(), h.start() + 1)


def _holds_any(folded: str | None, words: tuple[str, ...]) -> bool:
    """Whether the folded text holds one of `words` (always, where folding changed the length)."""
    return folded is None or any(word in folded for word in words)


def _holds_once(holds: dict[int, bool], folded: str | None, words: tuple[str, ...]) -> bool:
    """`_holds_any`, asked once per word list (several patterns share one)."""
    held = holds.get(id(words))
    if held is None:
        held = holds[id(words)] = _holds_any(folded, words)
    return held


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
    if '"' not in text and "“" not in text and "«" not in text:
        return spans
    for m in HEADLINE.finditer(text):
        inner = m.group(1) or m.group(2) or m.group(3)
        if len(inner.split()) >= 3:
            claims.append(Claim(inner, m.start(), m.end(), "headline"))
            spans.append((m.start(), m.end()))
    return spans


def _dates(text: str, claims: list[Claim]) -> list[tuple[int, int]]:
    found: list[Claim] = []
    folded = _fold(text)
    holds: dict[int, bool] = {}
    for pattern, (hint, fold, needs) in zip(DATE_PATTERNS, DATE_HINTS, strict=True):
        if not _holds_once(holds, folded, needs):
            continue
        for m in _scan(pattern, hint, text, folded if fold else text):
            if any(c.start < m.end() and m.start() < c.end for c in found):
                continue
            readings = _date_readings(m.groupdict())
            if readings:
                found.append(Claim(m.group(), m.start(), m.end(), "date", dates=readings))
    for pattern, (hint, fold, needs) in zip(QUARTER_PATTERNS, QUARTER_HINTS, strict=True):
        if not _holds_once(holds, folded, needs):
            continue
        for m in _scan(pattern, hint, text, folded if fold else text):
            if not any(c.start < m.end() and m.start() < c.end for c in found):
                found.append(Claim(m.group(), m.start(), m.end(), "date", dates=(_quarter(m),)))
    claims.extend(found)
    return sorted(c.span for c in found)


def _quarter(m: re.Match[str]) -> DateReading:
    g = m.groupdict()
    number = g.get("q") or g.get("q2")
    quarter = int(number) if number else _ORDINALS[(g.get("ord") or "").casefold()]
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
        month = MONTHS_ES[(g["mes"] or "").casefold()]
    else:
        month = int(g.get("m") or 0)
    day = int(g.get("d") or 0) or None
    if not 1 <= month <= 12 or (day is not None and not 1 <= day <= 31):
        return ()
    return ((year, month, day),)


def _tickers(text: str, known: frozenset[str], claims: list[Claim]) -> list[tuple[int, int]]:
    spans = []
    for m in _scan(TICKER, _TICKER_HINT, text, text):
        symbol = m.group(2)
        cashtag = m.group(1) is not None
        if not cashtag and symbol not in known and (len(symbol) < 2 or symbol in STOPWORDS):
            continue
        claims.append(Claim(m.group(), m.start(), m.end(), "ticker", symbol=symbol))
        spans.append((m.start(), m.end()))
    return spans


def _figures(text: str, claims: list[Claim]) -> list[Claim]:
    figures: list[Claim] = []
    for m in _scan(NUMBER, _NUMBER_HINT, text, text):
        claim = _figure(text, m, figures[-1].end if figures else -1)
        if claim is not None:
            figures.append(claim)
    folded = _fold(text)
    if not _holds_any(folded, _NUMBER_WORD_LIST):
        return _sorted_figures(figures, claims)
    for m in _scan(NUMBER_WORD, _NUMBER_WORD_HINT, text, folded):
        reading = Reading(float(NUMBER_WORDS[m.group().casefold()]), 0)
        figures.append(Claim(m.group(), m.start(), m.end(), "number", (reading,)))
    return _sorted_figures(figures, claims)


def _sorted_figures(figures: list[Claim], claims: list[Claim]) -> list[Claim]:
    figures.sort(key=lambda c: c.start)
    claims.extend(figures)
    return figures


def _figure(text: str, m: re.Match[str], previous_end: int) -> Claim | None:
    opened, s1, cur, s2, digits, letter, word, unit, close = m.group(
        "open", "s1", "cur", "s2", "digits", "letter", "word", "unit", "close"
    )
    start, end = m.start(), m.end()
    if opened and close:
        aside = not text[previous_end:start].strip() if previous_end >= 0 else False
        sign = 0 if aside else -1
        if aside:
            start, end = m.start("open") + len(opened), m.start("close")
    else:
        sign = 0
        if opened:
            start = m.end("open")
        if close:
            end = m.start("close")
    if letter == "m" and not cur:
        return None
    after = text[end : end + 2]
    if after[:1].isalpha() or (after[:1] == "-" and after[1:2].isalpha()):
        return None
    if start > 1 and text[start - 1] == "-" and text[start - 2].isalpha():
        return None
    signs = (s1 or "") + (s2 or "")
    if "-" in signs or "−" in signs:
        sign = -1
    elif "+" in signs:
        sign = 1
    unit = _unit(unit or "")
    scale = _scale(letter or "", word or "")
    kind: Kind = "percent" if unit else "money" if cur else "number"
    return Claim(text[start:end], start, end, kind, _read_digits(digits), scale, sign, unit)


@lru_cache(maxsize=256)
def _unit(written: str) -> str:
    unit = written.strip().lower()
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


def _attach_directions(text: str, figures: list[Claim]) -> None:
    if not figures:
        return
    starts = [f.start for f in figures]
    for m in _scan(DIRECTION, _DIRECTION_HINT, text, _fold(text)):
        direction = 1 if m.group("up") else -1
        i = _first_at_or_after(starts, m.end())
        gap = _LEAD_GAP
        cursor = m.end()
        while i < len(figures) and gap.fullmatch(text, cursor, figures[i].start):
            if not figures[i].direction:
                figures[i].direction, figures[i].direction_word = direction, m.group()
            cursor, gap, i = figures[i].end, _CHAIN_GAP, i + 1


def _first_at_or_after(starts: list[int], position: int) -> int:
    return bisect_left(starts, position)


def _attach_scopes(text: str, figures: list[Claim], tickers: list[Claim]) -> None:
    """Each figure speaks about the tickers named before it in its sentence and the last one named.

    Figures and tickers are walked together in order of position; a scope is built once for each
    distinct (sentence, tickers so far).
    """
    if not tickers:
        return
    tickers.sort(key=_start)
    sentence_starts = [0] + [m.end() for m in SENTENCE_END.finditer(text)]
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


def _start(claim: Claim) -> int:
    return claim.start

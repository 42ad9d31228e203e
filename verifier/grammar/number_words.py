"""Number words: amounts, percentages and fractions written in words, as figures with the
tolerance their wording carries.

"a five-percent drop", "eighty-two-thousand-dollar position", "eight hundred shares", "cuatro
por ciento", "roughly a fifth of the book", "una vigésima parte": each is a figure claim like
"5%", "$82,000", "800", "20%", held against the trace at the precision its words show (a
whole number of units; a round hundred or thousand to that round place). A fraction is a share
in percent and stands for every whole percent within a tenth of it ("a fifth": 18 to 22 %), the
rounding such a word carries. Two to twelve written alone are the figure grammar's own
(`NUMBER_WORD`); this module reads what it does not: compounds, scale words, a unit after the
words, and fractions.
"""

from __future__ import annotations

import math
import re
from functools import cache

from verifier.claim import Claim, Kind
from verifier.literals import Reading

UNITS_EN = {
    "zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
    "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13,
    "fourteen": 14, "fifteen": 15, "sixteen": 16, "seventeen": 17, "eighteen": 18,
    "nineteen": 19, "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60,
    "seventy": 70, "eighty": 80, "ninety": 90,
}  # fmt: skip
UNITS_ES = {
    "cero": 0, "uno": 1, "una": 1, "dos": 2, "tres": 3, "cuatro": 4, "cinco": 5, "seis": 6,
    "siete": 7, "ocho": 8, "nueve": 9, "diez": 10, "once": 11, "doce": 12, "trece": 13,
    "catorce": 14, "quince": 15, "dieciséis": 16, "diecisiete": 17, "dieciocho": 18,
    "diecinueve": 19, "veinte": 20, "veintiuno": 21, "veintidós": 22, "veintitrés": 23,
    "veinticuatro": 24, "veinticinco": 25, "treinta": 30, "cuarenta": 40, "cincuenta": 50,
    "sesenta": 60, "setenta": 70, "ochenta": 80, "noventa": 90, "cien": 100, "ciento": 100,
    "doscientos": 200, "trescientos": 300, "cuatrocientos": 400, "quinientos": 500,
}  # fmt: skip
SCALE_WORDS = {
    "hundred": 100, "thousand": 1e3, "million": 1e6, "billion": 1e9,
    "mil": 1e3, "millón": 1e6, "millones": 1e6,
}  # fmt: skip
FRACTIONS = {
    "half": 1 / 2, "third": 1 / 3, "quarter": 1 / 4, "fifth": 1 / 5, "sixth": 1 / 6,
    "eighth": 1 / 8, "tenth": 1 / 10, "twentieth": 1 / 20,
    "mitad": 1 / 2, "tercio": 1 / 3, "tercera parte": 1 / 3, "cuarta parte": 1 / 4,
    "cuarto": 1 / 4, "quinta parte": 1 / 5, "sexta parte": 1 / 6, "octava parte": 1 / 8,
    "décima parte": 1 / 10, "vigésima parte": 1 / 20,
}  # fmt: skip
"""A fraction after "a", "one", "un", "una", "la" (and "two-thirds", "three quarters")."""
_PERCENT = r"(?:[-\s]+(?P<pct>percent|per[-\s]cent|por\s+ciento|percentage\s+points?))"
_DOLLAR = r"(?:[-\s]+(?P<usd>dollars?|dólares))"


@cache
def _patterns() -> re.Pattern[str]:
    fractions = "|".join(sorted((re.escape(f) for f in FRACTIONS), key=len, reverse=True))
    return re.compile(
        rf"(?i)(?:(?<=[^\w-])|^)(?:(?P<moved>{_MOVED})\s+(?:(?:of|de)\s+)?(?P<hedged>(?:{_HEDGED}\s+)+)?)?"
        rf"(?P<fraction>(?P<count>an?|one|two|three|four|un|una|la|dos|tres|cuatro)[-\s]+"
        rf"(?P<f>{fractions})s?)(?![\w-])"
        r"(?(moved)|(?:(?=\s+(?:of|de|del|desde|since)\s|\s*\(|\s+(?:lost|gained|off|higher|lower)(?!\w))"
        r"|(?<=parte)))"
    )
    """A fraction of something ("a fifth of the book", "la mitad de"), the size of a move said
    with it ("up about a third on the year", "lost roughly a quarter", "cae más o menos una
    cuarta parte", "just under a tenth lost"), or a Spanish "parte": "a third straight gain"
    and "the third quarter" are ordinals."""


_MOVED = (
    r"(?<!makes\s)(?<!make\s)(?<!made\s)(?<!making\s)up|down|off|lost|losing|gained|gaining|rose|risen|fell|fallen|climbed|dropped|shed|added|"
    r"declined|slid|surged|jumped|drop|decline|fall|gain|loss|rise|sube|subió|baja|bajó|cae|cayó|"
    r"cede|cedió|gana|ganó|pierde|perdió|pérdida|caída|subida|avanza|avanzó|retrocede|retrocedió"
)
"""A word of a move that a fraction after it gives the size of."""
_HEDGED = (
    r"(?:about|roughly|around|nearly|almost|exactly|approximately|just|some|close\s+to|over|under|"
    r"(?:more|less)\s+than|a\s+(?:bit|little)\s+(?:more\s+than|less\s+than|over|under)|"
    r"(?:just|slightly)\s+(?:under|over|shy\s+of)|más\s+de|menos\s+de|casi|cerca\s+de|"
    r"algo\s+(?:más|menos)\s+de|alrededor\s+de|más\s+o\s+menos|aproximadamente|exactamente)"
)
"""The hedges and bounds that may stand between a move and the fraction that sizes it (read by
the figure grammar's own hedges and bounds)."""
_UNDER = re.compile(r"(?i)nearly|almost|under|less\s+than|shy\s+of|menos\s+de|casi")
"""A hedge that puts the size short of the fraction ("nearly a tenth", "just under a third",
"casi una cuarta parte"); one that puts it beyond ("more than half") is a lower bound, which the
figure grammar's bounds read."""


def _value(words: list[str]) -> tuple[float, int] | None:
    """The number the words make and the place its last word is precise to (0: units, -2: a
    round hundred); None where the words are no number ("a", "and" alone)."""
    total, current, seen, place = 0.0, 0.0, False, 0
    half = bool(words) and words[0].casefold() in ("half", "medio")
    if half:
        words = words[1:]  # "a half-million-dollar stake": half of what follows
        if [w.casefold() for w in words] == ["a"]:
            return 0.5, 1  # "half a percent"
    for word in words:
        w = word.casefold()
        if w in ("and", "y"):
            continue
        if w == "a":
            if seen:
                return None
            current, place = 1, 0  # "a hundred", "a half-million"
            continue
        if w in SCALE_WORDS:
            scale = SCALE_WORDS[w]
            current = (current or 1) * scale
            if scale >= 1000:
                total, current = total + current, 0
            place = -len(str(int(scale))) + 1
            seen = True
            continue
        units = UNITS_EN.get(w, UNITS_ES.get(w))
        if units is None:
            return None
        current += units
        place, seen = 0, True
    if not seen:
        return None
    if half:
        return (total + current) / 2, place + 1
    return total + current, place


@cache
def _hints() -> frozenset[str]:
    """Words one of which a text must hold for any figure in words."""
    fractions = {f.split()[0] for f in FRACTIONS}
    return frozenset({*UNITS_EN, *UNITS_ES, *SCALE_WORDS, *fractions, "half", "medio"})


_TOKEN = re.compile(r"[^\W\d_]+")


_GAP = re.compile(r"[-\s]+")
_SUFFIX = re.compile(rf"(?i){_PERCENT}(?![\w])|{_DOLLAR}(?![\w])")


_COUNTS = {"two": 2, "three": 3, "four": 4, "dos": 2, "tres": 3, "cuatro": 4}


@cache
def _number_words() -> frozenset[str]:
    return frozenset({*UNITS_EN, *UNITS_ES, *SCALE_WORDS, "a", "and", "y", "half", "medio"})


def _worded(text: str, words: list[str], start: int, end: int) -> Claim | None:
    """The figure a run of number words makes, with the unit written right after it."""
    opened = words[0].casefold() == "a"
    while words and words[0].casefold() in ("a", "and", "y"):
        words, start = words[1:], text.find(words[1], start + 1) if len(words) > 1 else start
    if not words:
        return None
    suffix = _SUFFIX.match(text, end)
    pct, usd = (suffix.group("pct"), suffix.group("usd")) if suffix else (None, None)
    if suffix:
        end = suffix.end()
    lowered = [w.casefold() for w in words]
    if all(w in SCALE_WORDS for w in lowered) and not opened:
        return None  # "million" after a figure it scales
    if lowered[0] in ("ciento", "cien") and text[:start].endswith("por "):
        return None  # "por ciento": per cent
    value = _value(words)
    if value is None:
        return None
    amount, place = value
    if len(words) == 1 and (2 <= amount <= 12 or amount == 1) and not (pct or usd):
        return None  # two to twelve alone are `NUMBER_WORD`'s; "one of" is an article
    reading = Reading(amount / 10.0**-place if place < 0 else amount, max(place, 0))
    scale = 10.0**-place if place < 0 else 1.0
    kind: Kind = "percent" if pct else "money" if usd else "number"
    return Claim(
        text[start:end], start, end, kind, (reading,), scale=scale, unit="%" if pct else ""
    )


def find_number_words(text: str) -> list[Claim]:
    """The figures written in words that the figure grammar does not read (see the docstring)."""
    if _hints().isdisjoint(_TOKEN.findall(text.casefold())):
        return []
    fraction = _patterns()
    found: list[Claim] = []
    taken: list[tuple[int, int]] = []
    for m in fraction.finditer(text):
        share = FRACTIONS[m.group("f").casefold()]
        count = _COUNTS.get(m.group("count").casefold(), 1)
        percent = share * count * 100
        low, high = math.ceil(percent * 0.9), math.floor(percent * 1.1)
        if m.group("moved") and not m.group("hedged"):  # "gained a tenth": within a tenth of
            low, high = math.ceil(percent * 0.9 + 0.5), math.floor(percent * 1.1 - 0.5)  # it
        places = range(min(low, round(percent)), max(high, round(percent)) + 1)
        readings = tuple(Reading(float(p), 0) for p in places)
        side = _UNDER.search(m.group("hedged") or "") if m.group("moved") else None
        if side is not None:  # "nearly a tenth": up to a tenth, to the tenth of a percent
            lo, hi = percent * 0.9, percent
            tenths = range(math.ceil(lo * 10 - 1e-9), math.floor(hi * 10 + 1e-9) + 1)
            readings = tuple(Reading(t / 10, 1) for t in tenths)
        start, end = m.span("fraction")
        if side is not None:  # the hedge is the claim's own: no bound to read again before it
            start = m.start("hedged")
        found.append(Claim(text[start:end], start, end, "percent", readings, unit="%"))
        taken.append((start, end))
    words_set = _number_words()
    tokens = list(_TOKEN.finditer(text))
    i = 0
    while i < len(tokens):
        if tokens[i].group().casefold() not in words_set:
            i += 1
            continue
        j = i
        while (
            j + 1 < len(tokens)
            and tokens[j + 1].group().casefold() in words_set
            and _GAP.fullmatch(text, tokens[j].end(), tokens[j + 1].start())
        ):
            j += 1
        run, i = tokens[i : j + 1], j + 1
        if any(s <= run[0].start() < e for s, e in taken):
            continue
        worded = _worded(text, [t.group() for t in run], run[0].start(), run[-1].end())
        if worded is not None:
            found.append(worded)
    return found

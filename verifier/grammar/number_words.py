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
from verifier.numbers import Reading

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
def _patterns() -> tuple[re.Pattern[str], re.Pattern[str]]:
    words = sorted(
        {*UNITS_EN, *UNITS_ES, *SCALE_WORDS, "a", "and", "y", "half", "medio"},
        key=len,
        reverse=True,
    )
    word = "|".join(words)
    number = re.compile(
        rf"(?i)(?<![\w-])(?P<n>(?:{word})(?:[-\s]+(?:{word}))*)(?:{_PERCENT}|{_DOLLAR})?(?![\w])"
    )
    fractions = "|".join(sorted((re.escape(f) for f in FRACTIONS), key=len, reverse=True))
    fraction = re.compile(
        rf"(?i)(?<![\w-])(?P<count>an?|one|two|three|un|una|la|dos|tres)[-\s]+"
        rf"(?P<f>{fractions})s?(?![\w-])"
    )
    return number, fraction


def _value(words: list[str]) -> tuple[float, int] | None:
    """The number the words make and the place its last word is precise to (0: units, -2: a
    round hundred); None where the words are no number ("a", "and" alone)."""
    total, current, seen, place = 0.0, 0.0, False, 0
    half = bool(words) and words[0].casefold() in ("half", "medio")
    if half:
        words = words[1:]  # "a half-million-dollar stake": half of what follows
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


def find_number_words(text: str) -> list[Claim]:
    """The figures written in words that the figure grammar does not read (see the docstring)."""
    number, fraction = _patterns()
    found: list[Claim] = []
    taken: list[tuple[int, int]] = []
    for m in fraction.finditer(text):
        share = FRACTIONS[m.group("f").casefold()]
        count = {"two": 2, "three": 3, "dos": 2, "tres": 3}.get(m.group("count").casefold(), 1)
        percent = share * count * 100
        low, high = math.ceil(percent * 0.9), math.floor(percent * 1.1)
        places = range(min(low, round(percent)), max(high, round(percent)) + 1)
        readings = tuple(Reading(float(p), 0) for p in places)
        claim = Claim(m.group(), m.start(), m.end(), "percent", readings, unit="%")
        found.append(claim)
        taken.append(m.span())
    for m in number.finditer(text):
        if any(s <= m.start() < e for s, e in taken):
            continue
        words = re.split(r"[-\s]+", m.group("n").strip())
        while words and words[0].casefold() in ("a", "and", "y"):
            words = words[1:]  # "a five-percent drop": the article is no number
        if not words:
            continue
        if all(w.casefold() in SCALE_WORDS for w in words) and not m.group("n").startswith("a"):
            continue  # "million" after a figure it scales
        if words[0].casefold() in ("ciento", "cien") and text[: m.start()].endswith("por "):
            continue  # "por ciento": per cent
        value = _value(words)
        if value is None:
            continue
        amount, place = value
        small = len(words) == 1 and 2 <= amount <= 12
        if small and not (m.group("pct") or m.group("usd")):
            continue  # two to twelve alone: `NUMBER_WORD` reads them
        if amount == 1 and len(words) == 1 and not (m.group("pct") or m.group("usd")):
            continue  # "one of", "un titular": an article, not a figure
        start = m.start() + m.group().find(words[0])
        reading = Reading(amount / 10.0**-place if place < 0 else amount, 0)
        scale = 10.0**-place if place < 0 else 1.0
        kind: Kind = "percent" if m.group("pct") else "money" if m.group("usd") else "number"
        unit = "%" if m.group("pct") else ""
        found.append(
            Claim(text[start : m.end()], start, m.end(), kind, (reading,), scale=scale, unit=unit)
        )
    return found

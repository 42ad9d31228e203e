"""Figures: numbers in any common format, money, percentages and basis points, with their sign, scale, bound and the name a number is part of."""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from functools import lru_cache
from operator import attrgetter

from verifier.claim import Claim, Kind
from verifier.grammar.number_words import find_number_words
from verifier.lexicon import LANGUAGES, alternatives, grouped
from verifier.literals import SCALES, Reading, read_digits
from verifier.scanner import Scan, fold, fold_aligned, holds, mask, scan, word_starts

NUMBER_WORDS = {
    word: i
    for lexicon in LANGUAGES
    for i, words in enumerate(lexicon.number_words, 2)
    for word in words
}
NUMBER_WORD = re.compile(
    r"(?i)(?<![\w-])(" + "|".join(NUMBER_WORDS) + r")(?![\w-])"
    r"(?!\s+(?:hundred|thousand|million|billion|cientos|mil|millones)(?!\w))"
)
"""Two to twelve in words, not the start of a larger number ("seven hundred eighty-one")."""


_CUR = r"US\$\s?|\$|€|£|USD\s?|EUR\s?"
"""A currency before its amount, "US$ 82,93" (a Latin American style) included."""
_DIGITS = r"\d{1,3}(?:[,.]\d{3})+(?:[.,]\d+)?(?!\d)|\d+(?:[.,]\d+)?"
_NUMBER_TAIL = (
    r"(?:(?P<letter>[kKmMBT]|bn|mn|mm|tn)(?![\w])|\s?(?P<word>mil\s+millones|millones|millón|millon|millardos"
    r"|billones|billón|billon|billions?|millions?|thousand|trillion|mil|cents?|centavos?|¢)(?!\w))?"
    r"(?P<unit>\s?%|\s?(?:percent|per\s+cent|por\s+ciento|pct|bps|bp|basis\s+points?|puntos\s+básicos|pb"
    r"|percentage\s+points?|pp|p\.\s?p\.|puntos\s+porcentuales)(?!\w))?"
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
    r"|(?P<c_cur>(?<=U)S\$\s?|(?<=\$)|(?<=€)|(?<=£)|(?<=U)SD\s?|(?<=E)UR\s?)"
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


NUMBER_WORD_SCAN = Scan(
    NUMBER_WORD, word_starts(" ".join(NUMBER_WORDS), before=r"[\w-]"), True, tuple(NUMBER_WORDS)
)


def find_figures(text: str, claims: list[Claim]) -> list[Claim]:
    figures: list[Claim] = []
    date_ends = sorted(c.end for c in claims if c.kind == "date")
    date_starts = {c.start for c in claims if c.kind == "date"}
    ticker_ends = {c.end for c in claims if c.kind == "ticker"}
    for m in NUMBER_SCAN.finditer(text):
        start = m.start()
        if _day_of_range(text, m, date_ends, date_starts) or (
            _is_day(m.group().rstrip(")"))
            and (
                _DAY_AFTER.search(text, max(start - 12, 0), start)
                or _first_day_of(text, m.end(), date_starts)
                or _last_day_of(text, start, date_ends)
            )
        ):
            continue  # "Dec 28–31", "28–31 Dec", "el lunes 30": a day, not a quantity
        if _item_number(text, start) or _step_or_constant(text, m):
            continue  # "3. Year to date: ...", "Step 2 –", "÷ 405.00 × 100": no quantity
        before = (
            _aside_anchor(text, start, figures, date_ends)
            if text[start] == "("  # only a parenthesised figure asks what it follows
            else figures[-1].end
            if figures
            else -1
        )
        claim = _figure(text, m, before, _after_ticker(text, start, ticker_ends))
        if claim is not None:
            figures.append(claim)
    worded = find_number_words(mask(text, [f.span for f in figures]))
    if worded:
        figures += worded
        text = mask(text, [c.span for c in worded])
    folded = fold(text)
    if not holds(NUMBER_WORD_SCAN, text, folded):
        return _sorted_figures(figures, claims)
    for m in scan(NUMBER_WORD_SCAN, text, folded):
        if m.group().casefold() == "ten" and _SPANISH_VERB.match(text, m.end()):
            continue  # "Ten en cuenta que …": a verb, not the number
        reading = Reading(float(NUMBER_WORDS[m.group().casefold()]), 0)
        figures.append(Claim(m.group(), m.start(), m.end(), "number", (reading,)))
    return _sorted_figures(figures, claims)


_SPANISH_VERB = re.compile(r"(?i)\s+en\s+cuenta(?!\w)")
"""What follows "ten" where it is the Spanish verb ("Ten en cuenta que")."""
_RANGE_DASH = "-–—"
_DAY_AFTER = re.compile(
    r"(?i)\b(?:lunes|martes|mi[eé]rcoles|jueves|viernes|s[aá]bado|domingo|d[ií]a)\s+$"
)
"""A day number written after a weekday or "día" ("el lunes 30", "el día 30") is a date."""


_RANGE_WORD = re.compile(r"(?i)\s+(?:y\s+el|y|al|a|hasta\s+el|and|to|through|until)\s+")


def _first_day_of(text: str, end: int, date_starts: set[int]) -> bool:
    """Whether a day number opens a range whose other end is a date ("entre el 28 y el 31 de
    diciembre", "del 28 al 31 de diciembre", "28 and 31 December")."""
    joined = _RANGE_WORD.match(text, end)  # the date itself is masked: blanks run on into it
    return joined is not None and any(joined.start() < d <= joined.end() for d in date_starts)


_RANGE_WORD_BEFORE = re.compile(r"(?i)\s+(?:and|to|through|until|y|al|hasta)\s+$")


def _last_day_of(text: str, start: int, date_ends: list[int]) -> bool:
    """Whether a day number closes a range that a date opens ("between December 28 and 31")."""
    joined = _RANGE_WORD_BEFORE.search(text, max(start - 12, 0), start)
    if joined is None:  # the date itself is masked: blanks run back into it
        return False
    i = bisect_right(date_ends, joined.end()) - 1
    return i >= 0 and date_ends[i] >= joined.start()


def _day_of_range(text: str, m: re.Match[str], date_ends: list[int], starts: set[int]) -> bool:
    """Whether a whole number of one or two digits is the other end of a range of days with a
    date: right after it and a dash ("Dec 28–31"), or right before a dash and it ("28–31 Dec")."""
    written = m.group()
    inner = written.strip("() \t")  # "(Dec 28–31)": the date masked, "(      –31)" is left
    if not _is_day(inner.lstrip(_RANGE_DASH)):
        return False
    start, end = m.span()
    if inner[:1] and inner[0] in _RANGE_DASH:
        return start + written.index(inner) in date_ends
    start, end = start + written.index(inner), start + written.index(inner) + len(inner)
    return text[end : end + 1] in _RANGE_DASH and end + 1 in starts


def _is_day(written: str) -> bool:
    return written.isdigit() and len(written) <= 2 and 1 <= int(written) <= 31


_MONEY_AFTER = re.compile(r"(?i)\s?(?:\$|€|£|usd|eur|d[oó]lares|euros)(?!\w)")
"""A currency written after its amount ("87,18 $", "0,43 dólares", "233,40 USD"): money."""
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


def attach_names(text: str, figures: list[Claim]) -> None:
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


_BOUND_WORDS = (
    "over ", "more than", "above", "at least", "exceed", "in excess of", "más de", "mas de",
    "encima de", "under ", "fewer than", "less than", "below", "at most", "up to", "menos de",
    "debajo de", "al menos",
)  # fmt: skip
_BOUND = re.compile(
    r"(?<!\w)(?:(?P<lower>over|more\s+than|above|at\s+least|exceeding|in\s+excess\s+of|más\s+del?"
    r"|mas\s+del?|por\s+encima\s+del?|al\s+menos)|(?P<upper>under|fewer\s+than|less\s+than|below|"
    r"at\s+most|up\s+to|menos\s+del?|por\s+debajo\s+del?))\s+(?P<article>(?:un|una|a|an)\s+)?(?=[\w(+$€£-])"
)
"""A bound word right before a figure (read in the case-folded text), in digits or in words
("more than one percent", "más de un 4 %", "al menos un 4 %")."""


def attach_bounds(text: str, figures: list[Claim]) -> None:
    """Mark figures written as a bound ("over 100", "fewer than 100", "menos de 5"): a bound
    turned around is a different statement, though the figure is the same."""
    folded = fold_aligned(text)
    if not any(word in folded for word in _BOUND_WORDS):
        return
    starts = [f.start for f in figures]
    for m in _BOUND.finditer(folded):
        at = m.end()
        i = bisect_left(starts, at)
        if m["article"] and not (i < len(figures) and starts[i] == at):
            at = m.start("article")  # "more than a quarter": the article is the fraction's
            i = bisect_left(starts, at)
        if i < len(figures) and starts[i] == at:
            if i and not text[figures[i - 1].end : m.start()].strip():
                continue  # "1.69 above 26.19": a difference between two figures, not a bound
            # "more than a quarter", "más de la cuarta parte": a fraction in words keeps its
            # tolerance, and a value on the wrong side of the reading nearest it turns the bound
            figures[i].bound = 1 if m.group("lower") else -1


_HEDGE = re.compile(
    r"(?<!\w)(?:about|around|roughly|approximately|nearly|almost|close\s+to|some|circa|"
    r"alrededor\s+del?|cerca\s+del?|casi|unos|unas|aproximadamente|en\s+torno\s+al?)"
    r"\s+(?:(?:un|una|el|the)\s+)?(?:us)?[+$€£]?$"
)
"""A hedge right before a figure ("roughly 60%", "cerca del 90 %", "close to $2,000")."""
_ROUND = re.compile(
    r"(?:us)?[+$€£]?[1-9]\d*0(?:\s?%|\s?pct|\s?por\s+ciento|\s?(?:us)?[$€£])?", re.IGNORECASE
)
"""A whole number ending in zero, written with no decimals."""
_GROUPED = re.compile(r"[.,](?=\d{3}(?!\d))")
"""A thousands separator, either way it is written ("21,700", "21.700")."""


def attach_hedges(text: str, figures: list[Claim]) -> None:
    """A round figure said with a hedge ("roughly 60%", "close to 90%", "about $1,400") is said
    to its last non-zero digit, keeping two significant digits: it also reads as that figure
    give or take half that unit (60.73 is roughly 60%, 1,352.34 about $1,400; "close to $2,000"
    is 1,950 to 2,050), where that half unit is at most a quarter of the figure ("about 10%"
    is 10%, not 5% to 15%). One with decimals or a last digit other than zero keeps its own
    precision ("about 2.2%")."""
    folded = fold_aligned(text)
    for figure in figures:
        if not figure.readings or figure.readings[0].decimals or figure.bound:
            continue
        if _ROUND.fullmatch(_GROUPED.sub("", figure.text)) and _HEDGE.search(
            folded, max(figure.start - 30, 0), figure.start
        ):
            value = figure.readings[0].value
            digits = re.sub(r"\D", "", figure.text)
            zeros = len(digits) - len(digits.rstrip("0"))
            places = max(1, min(zeros, len(digits) - 2))
            if 10**places / 2 > value / 4:
                continue  # "about 10%" for 5.24%: half a unit would be half the figure
            figure.readings = (*figure.readings, Reading(value, -places))


_START = attrgetter("start")


def _sorted_figures(figures: list[Claim], claims: list[Claim]) -> list[Claim]:
    figures.sort(key=_START)
    claims.extend(figures)
    return figures


_MULTIPLE_SIGN = re.compile(r"[x×](?![\w.,]\w)")
"""A multiple written with its sign ("2.5x the portfolio's move"): a number, the multiple of
the figure after it (`verifier.rules.derived`)."""


def _after_ticker(text: str, start: int, ticker_ends: set[int]) -> bool:
    """Whether a bracketed figure follows a ticker ("la rentabilidad de OEE (1,90 %)"): the
    ticker's span is blanked in the text this grammar reads, so the word before it would pass
    for the one the figure follows."""
    if not ticker_ends or text[start] != "(":
        return False
    at = start
    while at and at not in ticker_ends and text[at - 1] in " \t":
        at -= 1
    return at in ticker_ends


def _figure(
    text: str, m: re.Match[str], previous_end: int, after_ticker: bool = False
) -> Claim | None:
    opened, s1, cur, s2, digits, letter, word, unit, close = number_parts(text, m)
    start, end = m.span()
    sign = 0
    if opened and close:
        if (
            (previous_end >= 0 and not text[previous_end:start].strip())
            or (unit and after_ticker)  # "OEE (1,90 %)": the ticker's figure, not a loss
            or (cur and _after_noun(text, start))
            or _after_level(text, start)  # "the close (287.14)": a level is never negative
            or (unit and _after_name(text, start))  # "P002 (9.59%)": a share, not a loss
            or (not cur and not unit and (digits or "").isdigit() and _after_noun(text, start))
        ):  # "Headlines found (1)": a count beside its noun, not a loss
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
        (after[:1].isalpha() and not _MULTIPLE_SIGN.match(text, end))
        or (after[:1] == "-" and after[1:2].isupper())  # a code: "10-K" ("264-share" counts)
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
    money = cur or word in _CENTS or (not unit and _MONEY_AFTER.match(text, end) is not None)
    kind: Kind = "percent" if unit else "money" if money else "number"
    claim = Claim(text[start:end], start, end, kind, _read_digits(digits or ""), scale, sign, unit)
    claim.points = points
    return claim


_POINTS = ("percentage", "pp", "p.p.", "p. p.", "puntos porcentuales")


_LAST_WORD = re.compile(r"([^\W\d_]+)\s*$")
_AMOUNT_LEAD = frozenset(
    re.findall(
        r"\S+",
        "of was were is are at to by be been totaled totalled reached posted reported de fue "
        "fueron es son en a returned contributed rentó rindió aportó",
    )
)
"""Words after which "($0.12)" is an amount in accounting style, negative ("EPS was ($0.12)",
"returned (0.52%)")."""


_MARKER = re.compile(r"[ \t>*_#-]*(?:\*\*)?\(?\d{1,2}[.)/](?:\*\*)?[ \t]")
"""A list's item number at the start of a line ("3. Year to date", "2) Cierre", "(1) 12/31"),
or a thread's post ("1/ ¿Cuánto aportó CGL?")."""
_STEP = re.compile(r"(?i)(?<!\w)(?:step|paso|fase|phase)\s+$")
_TIMES_HUNDRED = re.compile(r"\s*[×x*]\s*$")


def _line_start(text: str, at: int) -> int:
    return text.rfind("\n", 0, at) + 1


def _item_number(text: str, start: int) -> bool:
    marker = _MARKER.match(text, _line_start(text, start))
    return marker is not None and start < marker.end()


def _step_or_constant(text: str, m: re.Match[str]) -> bool:
    """A step's number ("Step 2 –", "Paso 3:") or the hundred of a percentage written as a
    formula ("-5.46 ÷ 405.00 × 100 ≈ -1.35%")."""
    start = m.start()
    if not m.group().strip().isdigit():
        return False
    if _STEP.search(text, max(start - 8, 0), start):
        return True
    line = text[_line_start(text, start) : start]
    return (
        m.group().strip() == "100"
        and bool(_TIMES_HUNDRED.search(line))
        and ("÷" in line or "/" in line)
    )


def _after_noun(text: str, start: int) -> bool:
    """Whether the word right before a bracketed amount names what it is ("MPSE's dividend
    ($0.87) is paid"): the brackets then hold an aside, not a negative."""
    word = _LAST_WORD.search(text, max(start - 24, 0), start)
    return word is not None and word.group(1).casefold() not in _AMOUNT_LEAD


_DAYS_NAMED = "|".join(
    f for name in ("today", "yesterday") for f in grouped("relative_days").get(name, ())
)
_LEVEL_NOUN = re.compile(
    rf"(?i)(?<!\w)(?:{alternatives('level_nouns')})(?:\s+(?:de|of)\s+(?:{_DAYS_NAMED}))?\s*$"
)
"""The name of a level, with the day it is of ("el cierre de ayer")."""


def _after_level(text: str, start: int) -> bool:
    """Whether a bracketed figure follows the name of a level ("el cierre (337,27)", "the
    previous close (283.43)"): a price or a value is never negative, so it is an aside."""
    return _LEVEL_NOUN.search(text, max(start - 24, 0), start) is not None


_LAST_TOKEN = re.compile(r"(\S+)\s*$")


def _after_name(text: str, start: int) -> bool:
    """Whether the token before a bracketed percentage names what it is a share of ("P002
    (9.59%)", "la cartera (0,00 %)"), not a verb or "of" that makes it an amount."""
    token = _LAST_TOKEN.search(text, max(start - 24, 0), start)
    if token is None or token.group(1).endswith((":", "=", "|")):
        return False  # "Day return: (1.31%)", "| (1.75%) |": a label's or a cell's figure in
        # accounting style, negative
    return token.group(1).casefold().strip(",;:") not in _AMOUNT_LEAD


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
    if unit in {"bps", "bp", "pb"} or "point" in unit or "punto" in unit:
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

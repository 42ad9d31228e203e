"""Fields: what the draft calls a figure right before it ("closed at", "previous close of", "contributed")."""

from __future__ import annotations

import re
from bisect import bisect_left
from itertools import pairwise

from verifier.claim import Claim
from verifier.grammar.dates import WEEKDAY_WORD
from verifier.grammar.moves import MOVE
from verifier.lexicon import LANGUAGES, alternatives, fragments, grouped
from verifier.scanner import PhraseScan, fold_aligned
from verifier.times import ARROW

FIELDS: dict[str, frozenset[str]] = {
    "close": frozenset({"close", "end_close"}),
    "previous_close": frozenset({"previous_close", "start_close"}),
    "market_value": frozenset({"market_value"}),
    "day_pnl": frozenset({"day_pnl", "portfolio_day_pnl"}),
    "day_change": frozenset({"change"}),
    "contribution": frozenset({"contribution_pct"}),
    "weight": frozenset({"weight_pct", "weight"}),
    "dividend": frozenset({"dividend"}),
    "earnings": frozenset({"earnings"}),
    "portfolio_value": frozenset({"portfolio_value_previous_close"}),
    "quantity": frozenset({"quantity"}),
}
"""What a draft may call a figure, and the result keys that hold such a figure."""
PERCENT_FIELDS = frozenset({"contribution", "weight"})
"""Fields that are percentages; a percentage named as any other field is not judged by name."""
_FIELD_WORDS = grouped("fields")
_FIELD_WORDS["close"] = [*fragments("traded"), *_FIELD_WORDS["close"]]
FIELD_WORD = PhraseScan(_FIELD_WORDS)
"""The name of a field (`verifier.lexicon`: `fields`, and `traded` as the close)."""
_FIELD_GAP = re.compile(
    r"[*_`\"']*(?:[:=][*_`]*|\s*\|[*_`]*)?"  # a label: "**Close:** ", "prev_close=", "| Close | ",
    # a JSON key ('"day_pnl": 46.59')
    rf"(?:\s+(?:the\s+(?:day|session)|{WEEKDAY_WORD}))?"  # "closed the day at", "closed Tuesday at"
    # the holding or portfolio it is of: "market value in P001 was", "peso en P002:", "valor de
    # mercado de la posición de BGBO en P003 era de"
    r"(?:\s+(?:of|in|for|de|en|del)\s+(?:(?:the|la|el|su|its)\s+)?(?:(?:position|posición|"
    r"holding|stake|portfolio|cartera)\s+)?(?:(?:de|of|in|en)\s+)?(?:[a-z]{1,5}\s+)?(?:(?:in|en)\s+)?"
    r"p\d{3,}[*_`]*(?:[:=][*_`]*)?)?"
    r"(?:\s+(?:was|is|of|at|on|de|a|en|fue|del|era|es|to(?:\s+the\s+portfolio)?))?"
    r"(?:\s+(?:de|el|la|the))?"
    r"(?:\s+(?:about|around|roughly|approximately|nearly|near|close\s+to|some|alrededor\s+de|cerca\s+de|unos))?"
    r"\s*[*_`~(]*\s*(?:\$|us\$|€)?"
)
"""A name of a field and the words between it and its figure ("closed at $287.14", "a previous
close of 283.43", "el resultado del día fue 2.897,51"), both read in the case-folded text."""


_PREVIOUS_AFTER = re.compile(
    r"\s*(?:\$|us\$|€|dólares|usd)?\s*(?:del|de\s+(?:su|el)|of\s+(?:the|its))\s+"
    r"(?:cierre\s+(?:anterior|previo|de\s+la\s+sesión\s+anterior)|(?:previous|prior)\s+(?:close|session))"
    r"(?!\w)|\s+previously(?!\w)"
)
"""A previous close named right after its figure ("frente a los 62,37 dólares del cierre
anterior", "the 17.80 of the prior session"); "rose 4.85 from its previous close" is a change
from it."""


_SHARES_AFTER = re.compile(r"-share(?!\w)")
"""A count of shares as a holding's size ("a 231-share holding"): the quantity ("a volume of 12
shares" is no holding)."""
_PRICE_POINTS = re.compile(r"\s*(?:points|pts|puntos)(?!\w)(?!\s+porcentuales)")
"""Points said of a move ("climbed 3.71 points", "bajó 1,08 puntos"): the change of the price,
never its change in percent."""
_MOVED_BY = re.compile(
    rf"(?<!\w)(?:{alternatives('rise')}|{alternatives('fall')})\s+(?:(?:by|un|de|some|about|roughly|"
    r"nearly|almost|unos|casi)\s+)*$"
)
"""A verb of a move right before its size ("climbed", "slid by", "bajó unos")."""
_CONTRIBUTION_AFTER = re.compile(
    r"[ \t]+(?:of[ \t]+|de[ \t]+)?(?:contribution|contribución|aportación|aporte)(?!\w)(?![ \t]*[:|])"
)
"""A percentage named a contribution right after it ("a +0.14% contribution", "0,39 % de
aportación")."""
_WEIGHT_AFTER = re.compile(
    r"\s*(?:of|de)\s+(?:(?:the|los)\s+)?(?:(?:portfolio|book|fund)(?:['’]s)?\s+)?(?:total\s+|net\s+)?"
    r"(?:assets|activos)(?:\s+(?:de\s+la\s+cartera|del\s+portafolio|del\s+fondo))?(?!\w)"
)
"""A weight named right after its figure ("7.74% of assets", "el 7,74 % de los activos")."""
_WEIGHT_NOUN = re.compile(
    r"[*_`]*[ \t]+(?:weight(?:ing)?|position|holding|stake|allocation|(?:de\s+)?peso|ponderación)"
    r"(?!\w)(?![*_`]*[ \t]*[:=|])"  # not the label of what follows ("+0.10% | Weight: 7.73%")
)
"""A weight said as the noun its figure qualifies ("a 2.62% weight", "a 2.07% position", "un
2,62 % de peso")."""


_MEASURE_OF = re.compile(r"(?<!\w)(?:by|por)\s+(?:su\s+|la\s+|el\s+)?$")
"""A field that is what a ranking goes by ("Rank by P&L: 9 of 25"), not the figure's name."""


_ROW = re.compile(r"(?m)^[ \t]*\|.*\|[ \t]*$")
_RULE_ROW = re.compile(r"^[ \t]*\|(?:[ \t]*:?-{2,}:?[ \t]*\|)+[ \t]*$")


def attach_columns(text: str, folded: str, figures: list[Claim]) -> None:
    """A figure alone in a table's cell is what its column's header names ("| Holding | Day P&L
    | Contribution |" over "| BGBO | -1,695.54 | -0.07% |"), where the header is a field's name
    of the figure's kind."""
    rows = list(_ROW.finditer(text))
    header: list[str | None] | None = None
    for i, row in enumerate(rows):
        if i and rows[i - 1].end() + 1 < row.start():
            header = None  # a line that is no row between: another table
        if _RULE_ROW.match(row.group()):
            continue
        cells = _cells(row)
        following = rows[i + 1] if i + 1 < len(rows) else None
        if following is not None and _RULE_ROW.match(following.group()):
            header = [_field_named(folded[a:b]) for a, b in cells]  # a header opens a table
            continue
        if header is None:
            continue
        for k, (a, b) in enumerate(cells):
            inside = [f for f in figures if a <= f.start and f.end <= b]
            name = header[k] if k < len(header) else None
            if len(inside) == 1 and name and not inside[0].field:
                figure = inside[0]
                if (figure.kind == "percent") == (name in PERCENT_FIELDS):
                    figure.field = name


def _cells(row: re.Match[str]) -> list[tuple[int, int]]:
    bars = [row.start() + j for j, ch in enumerate(row.group()) if ch == "|"]
    return list(pairwise(bars))


_HEADER_ONLY = (
    ("quantity", re.compile(r"(?:qty|quantity|shares|acciones|títulos|cantidad)\.?")),
    ("close", re.compile(r"(?:price|precio|px)")),
)
"""Column headers that name a field only as a header ("| Qty | Price |"): in prose, "shares at
43.19" names a price, not a quantity."""


def _field_named(cell: str) -> str | None:
    """The field a header cell names, where the name is the whole of its words."""
    words = cell.strip(" |*_`\t")
    for name, header in _HEADER_ONLY:
        if header.fullmatch(words):
            return name
    m = FIELD_WORD.finditer(words)
    if len(m) == 1 and m[0].start() == 0 and m[0].end() >= len(words.rstrip(" :($%)")):
        return m[0].lastgroup
    return None


_MATCHING = re.compile(
    r",?\s*(?P<link>matching|which\s+matches|in\s+line\s+with|equal\s+to|the\s+same\s+as|"
    r"coincidiendo\s+con|que\s+coincide\s+con|igual\s+(?:al|a|que))\s+"
    r"(?:the\s+|its\s+|el\s+|la\s+|su\s+)?(?:position['’]s\s+|reported\s+)?"
)
"""A field named after its figure as what the figure equals ("comes to -283.92, matching the
day P&L", "-283,92, igual al resultado del día")."""


def matched_field(folded: str, figure: Claim) -> tuple[str, tuple[int, int]] | None:
    """The field a figure is said to equal right after it, and the span of the words that say
    so (the link and the field's name); None where none is."""
    m = _MATCHING.match(folded, figure.end)
    if m is None:
        return None
    named = FIELD_WORD.finditer(folded[m.end() : m.end() + 40])
    if not named or named[0].start() != 0 or not named[0].lastgroup:
        return None
    return named[0].lastgroup, (m.start("link"), m.end() + named[0].end())


_COMPARED_WITH = re.compile(
    r"(?<!\w)(?:below|above|under|over|beneath|than|por\s+(?:debajo|encima)\s+del?)\s+"
    r"(?:its\s+|the\s+|su\s+|el\s+)?$"
)
"""A field a move is compared with ("closed below its previous close: 60.97 versus 61.65",
"cerró por encima del cierre anterior: 65,38 frente a 64,76"): the object of the comparison,
not the name of the figure after it."""


_VERSUS = re.compile(r"\s+(?:versus|vs\.?|against|frente\s+a|contra)\s+(?:los\s+|the\s+)?[$€]?\s*")
_CLOSED = re.compile(r"(?<!\w)(?:closed|finished|ended|settled|cerró|terminó|acabó)\s+$")


def _compared_pairs(folded: str, figures: list[Claim]) -> None:
    """ "closed below its previous close: 60.97 versus 61.65": the first figure of the pair is
    the close, the second the field compared with."""
    starts = [f.start for f in figures]
    for m in FIELD_WORD.finditer(folded):
        compared = _COMPARED_WITH.search(folded, max(m.start() - 30, 0), m.start())
        if not compared or not m.lastgroup:
            continue
        if not _CLOSED.search(folded, max(compared.start() - 12, 0), compared.start()):
            continue
        i = bisect_left(starts, m.end())
        if i + 1 >= len(figures) or not re.fullmatch(
            r"[\s:,(]*[$€]?\s*", folded[m.end() : starts[i]]
        ):
            continue
        first, second = figures[i], figures[i + 1]
        if (
            _VERSUS.fullmatch(folded, first.end, second.start)
            and not first.field
            and not second.field
        ):
            first.field, second.field = "close", m.lastgroup


_TO_OR_FROM = re.compile(r"(?<!\w)(?:(?P<to>to|hasta)|(?P<from>from|desde))\s+(?:\$|us\$|€)?\s*$")
_CLAUSE_END = re.compile(r"[;\n]|\.(?!\d)")


def _levels_of_moves(folded: str, figures: list[Claim]) -> None:
    """A level after the move it ends or starts in its clause ("fell 2.03% on 2024-12-31 to
    399.54", "subió un 1,33 % desde 1.028,40"): "to" names the close, "from" the close before,
    where the trace holds the figure as a price level (`Claim.level`)."""
    moves = None
    for figure in figures:
        if figure.field or figure.level or figure.kind not in ("number", "money"):
            continue
        joint = _TO_OR_FROM.search(folded, max(figure.start - 12, 0), figure.start)
        if joint is None:
            continue
        if moves is None:
            moves = [m.end() for m in MOVE.finditer(folded)]
        i = bisect_left(moves, joint.start() + 1) - 1
        if i < 0 or joint.start() - moves[i] > 80:
            continue
        between = folded[moves[i] : joint.start()]
        if _CLAUSE_END.search(between) is None and all(
            w in _OF_THE_MOVE for w in _LETTERS.findall(between)
        ):
            figure.level = "close" if joint.group("to") else "previous_close"


_LETTERS = re.compile(r"[^\W\d_]+")
_OF_THE_MOVE = frozenset(
    [
        *("a", "an", "by", "of", "on", "in", "the", "its", "this", "that", "and", "day"),
        *("session", "today", "pct", "percent", "un", "una", "el", "la", "de", "del", "en"),
        *("por", "su", "y", "sesión", "día", "hoy", "jornada", "ciento", "sept"),
        *(name for lexicon in LANGUAGES for name in lexicon.months),
        *(name[:3] for lexicon in LANGUAGES for name in lexicon.months),
        *(name for lexicon in LANGUAGES for names in lexicon.weekdays for name in names),
    ]
)
"""Words that may stand between a move and the "to" or "from" of its level: its own size and
day ("fell 2.03% on Tuesday, December 31, to"), nothing that starts another clause ("lost
$62.16, a contribution that rounds to zero")."""


def named_for_the_day(text: str, figures: list[Claim]) -> list[Claim]:
    """The figures a name of one session's change stands right before ("a day change of
    +0.08", "Day change: -1.33%", "variación diaria: +0,96 %"), a percentage as well as an
    amount: what they are said for is the day."""
    folded = fold_aligned(text)
    starts = [f.start for f in figures]
    out = []
    for m in FIELD_WORD.finditer(folded):
        if m.lastgroup != "day_change":
            continue
        i = bisect_left(starts, m.end())
        if i < len(figures) and _FIELD_GAP.fullmatch(folded, m.end(), figures[i].start):
            out.append(figures[i])
    return out


def attach_fields(text: str, figures: list[Claim]) -> None:
    folded = fold_aligned(text)
    attach_columns(text, folded, figures)
    for figure in figures:
        if figure.field or figure.kind not in ("number", "money", "percent"):
            continue
        if (found := matched_field(folded, figure)) is not None and (figure.kind == "percent") == (
            found[0] in PERCENT_FIELDS
        ):
            figure.field = found[0]
    for figure in figures:
        if (
            not figure.field
            and figure.kind in ("number", "money")
            and _PREVIOUS_AFTER.match(folded, figure.end)
        ):
            figure.field = "previous_close"
        elif (
            not figure.field
            and figure.kind == "percent"
            and (_WEIGHT_AFTER.match(folded, figure.end) or _WEIGHT_NOUN.match(folded, figure.end))
        ):
            figure.field = "weight"
        elif (
            not figure.field
            and figure.kind == "percent"
            and _CONTRIBUTION_AFTER.match(folded, figure.end)
        ):
            figure.field = "contribution"  # "a +0.14% contribution to the portfolio's return"
        elif (
            not figure.field
            and figure.kind == "number"
            and _PRICE_POINTS.match(folded, figure.end)
            and _MOVED_BY.search(folded, max(figure.start - 40, 0), figure.start)
        ):
            figure.field = "day_change"  # "climbed 3.71 points": a change of the price
    for figure in figures:
        if not figure.field and figure.kind == "number" and _SHARES_AFTER.match(folded, figure.end):
            figure.field = "quantity"  # "a 264-share position"
    _levels_of_moves(folded, figures)
    for figure in figures:
        if figure.kind in ("number", "money") and ARROW.match(folded, figure.end):
            figure.field, figure.level = "", "previous_close"  # "Price: 703.72 → 702.61"
    keyed = folded.replace("_", " ") if "_" in folded else folded  # "valor_mercado: 39.346,16"
    names = [
        (m.end(), m.lastgroup)
        for m in FIELD_WORD.finditer(keyed)
        if not _MEASURE_OF.search(folded, max(m.start() - 12, 0), m.start())
        and not _COMPARED_WITH.search(folded, max(m.start() - 30, 0), m.start())
    ]
    _compared_pairs(keyed, figures)
    if not names:
        return
    starts = [f.start for f in figures]
    for end, name in names:
        i = bisect_left(starts, end)
        if i < len(figures) and name and figures[i].start - end < 56:
            figure = figures[i]
            if (figure.kind == "percent") == (name in PERCENT_FIELDS) and _FIELD_GAP.fullmatch(
                folded, end, figure.start
            ):
                figure.field = name

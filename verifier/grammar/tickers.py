"""Tickers: symbols and cashtags, the upper-case words that are not tickers, and the tickers each figure speaks of."""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right

from verifier.claim import BENCHMARK_SUBJECT, PORTFOLIO_SUBJECT, Claim
from verifier.grammar.records import key_subject, keyed_at
from verifier.labels import column_header
from verifier.lexicon import LANGUAGES, alternatives

TICKER = re.compile(r"(?<![\w$&.])(\$)?([A-Z]{1,5}(?:[.-][A-Z]{1,2})?)(?![\w&-])")


TICKER_SCAN = re.compile(
    r"[$A-Z](?<![\w$&.].)(?:(?<=\$)[A-Z]|(?<!\$))[A-Z]{0,4}(?:[.-][A-Z]{1,2})?(?![\w&-])"
)
"""`TICKER` opening with its first character; a cashtag is a match that starts with `$`."""


STOPWORDS = frozenset(word for lexicon in LANGUAGES for word in lexicon.not_tickers.split())
"""Upper-case words that are not tickers unless the trace names them as one."""
_PORTFOLIO = re.compile(rf"(?i)(?<!\w)(?:{alternatives('portfolio')})(?!\w)")
"""A word for the portfolio as a whole (`verifier.lexicon`: `portfolio`)."""
_OTHER_SUBJECT = re.compile(
    rf"(?i)(?<!\w)(?:(?P<portfolio>{alternatives('portfolio')})|"
    rf"(?P<benchmark>{alternatives('benchmark')}))(?!\w)"
)
"""A subject that is no ticker: the portfolio or the benchmark."""
_SUBJECTS = {"portfolio": PORTFOLIO_SUBJECT, "benchmark": BENCHMARK_SUBJECT}


_TAG = re.compile(r"\[[A-Z][A-Z -]{1,15}\]")
"""A tag in square brackets ("[HOST]", "[UPDATE]"): who speaks or what the line is."""


def find_tickers(text: str, known: frozenset[str], claims: list[Claim]) -> list[Claim]:
    tickers = []
    for m in TICKER_SCAN.finditer(text):
        written = m.group()
        cashtag = written[0] == "$"
        symbol = written[1:] if cashtag else written
        if not cashtag and symbol not in known and (len(symbol) < 2 or symbol in STOPWORDS):
            continue
        start, end = m.span()
        if (
            symbol not in known
            and _TAG.match(text, max(start - 1, 0))
            and text[start - 1 : start] == "["
        ):
            continue  # "[HOST] Alright, ZWW next": a speaker's tag, no ticker
        tickers.append(Claim(written, start, end, "ticker", symbol=symbol))
    claims.extend(tickers)
    return tickers


def attach_scopes(
    text: str, figures: list[Claim], tickers: list[Claim], sentence_starts: list[int]
) -> None:
    """Each figure speaks about the tickers named before it in its sentence and the last one
    named; a sentence that names no ticker before the figure but the portfolio ("The portfolio
    gained $475.20") speaks of the portfolio, not of the ticker of the sentence before.

    Figures and tickers (both in order of position) are walked together; a scope is built once
    for each distinct (sentence, tickers so far).
    """
    ticker_starts = [t.start for t in tickers]
    scopes: dict[tuple[int, int], frozenset[str]] = {}
    seen = 0
    for figure in figures:
        while seen < len(tickers) and tickers[seen].end <= figure.start:
            seen += 1
        sentence = sentence_starts[bisect_right(sentence_starts, figure.start) - 1]
        if _MEMBERS_OF.match(text, figure.end) or (
            _MEMBERS_NOUN.match(text, figure.end)
            and _OF_BENCHMARK.search(text, max(figure.start - 60, 0), figure.start)
        ):
            figure.scope = frozenset({BENCHMARK_SUBJECT})  # "the 59-stock equal-weight universe"
            continue
        keyed = keyed_at(text, figure.start)
        if keyed is not None and (owner := key_subject(text, keyed)) is not None:
            figure.scope = frozenset({owner})  # '"portfolio_day_pnl": 46.59'
            continue
        header = column_header(text, figure.start) if "|" in text else ""
        if header and (held := _COLUMN_SUBJECT.fullmatch(header)):
            # "| Day P&L | -$283.92 | +$46.59 |" under "| Metric | Holding | Portfolio |"
            if held.lastgroup != "holding":
                figure.scope = frozenset({_SUBJECTS[held.lastgroup or "portfolio"]})
            elif seen:  # the holding's column: the holding's alone, whatever its heading names
                first = bisect_left(ticker_starts, sentence, 0, seen)
                own = {t.symbol for t in tickers[first:seen]}
                figure.scope = frozenset(own | {_carried(text, tickers, first, seen).symbol})
            continue
        label = _LABELLED.match(text, text.rfind("\n", 0, figure.start) + 1)
        if (
            label is not None
            and not (seen and tickers[seen - 1].start >= label.start())
            and not _NEXT_CELL.search(text, label.end(), figure.start)
        ):
            figure.scope = frozenset({PORTFOLIO_SUBJECT})  # "**Portfolio:** P002 (-0.90%)"
            continue
        if (
            _owned(text, max(figure.start - 70, sentence), figure.start)
            or _PORTFOLIO_OWN.search(text, max(figure.start - 90, sentence), figure.start)
        ) or (_PORTFOLIO_KEY.search(text, max(figure.start - 60, 0), figure.start)):
            figure.scope = frozenset({PORTFOLIO_SUBJECT})  # "the portfolio's day P&L was $X"
            continue
        said = _SAID_BY.search(text, max(figure.start - 90, sentence), figure.start) or (
            _COMPARED_BY.search(text, max(figure.start - 140, sentence), figure.start)
        )
        placed = said and _PLACED_PORTFOLIO.search(text, max(said.start() - 40, 0), said.start())
        if (
            said
            and (not seen or tickers[seen - 1].end <= said.start())
            and not placed
            and not _held_after(text, figure.end, tickers, seen)
        ):
            figure.scope = frozenset({_SUBJECTS[said.lastgroup or "portfolio"]})
            continue  # "P002 returned -0.90%", "the benchmark fell 0.57%": said by the subject
        if not seen:
            continue
        first = bisect_left(ticker_starts, sentence, 0, seen)
        if first == seen and _PORTFOLIO.search(text, sentence, figure.start):
            continue  # the portfolio's figure
        scope = scopes.get((first, seen))
        if scope is None:
            symbols = {t.symbol for t in tickers[first:seen]}
            symbols.add(_carried(text, tickers, first, seen).symbol)
            scope = scopes[(first, seen)] = frozenset(symbols)
        named = _named_after(text, figure.end)
        if named == BENCHMARK_SUBJECT:
            figure.scope = frozenset({named})  # "versus -0.57% for the benchmark": its alone
            continue
        other = named or _nearer_subject(
            text, tickers[seen - 1].end, figure.start, sentence
        )  # "the −0.57% of the benchmark": what it is said of right after it comes first
        if placed and other == PORTFOLIO_SUBJECT:
            other = None  # "the YRAN holding in the P002 portfolio lost ...": the holding's
        figure.scope = scope | {other} if other else scope


_COLUMN_SUBJECT = re.compile(
    rf"(?i)[*_]*\s*(?:(?:the|la|el|su)\s+)?(?:(?P<portfolio>{alternatives('portfolio')}|p\d{{3,}})|"
    rf"(?P<benchmark>{alternatives('benchmark')})|(?P<holding>holding|position|stock|"
    r"posición|acción))\s*[*_]*"
)
"""A table column headed by the portfolio, the benchmark or the holding: the figures under it
are theirs."""


def _carried(text: str, tickers: list[Claim], first: int, seen: int) -> Claim:
    """The ticker a figure speaks of besides those of its own sentence: the last one named
    before it, unless that one was only what an earlier sentence measured its holding against
    ("Second-largest contributor (after FSA)" above "Third-largest holding at 7.74%": WED's,
    the holding the lines are about). Then the last one named before as a subject."""
    if first < seen:
        return tickers[seen - 1]  # the sentence names its own: the last of them
    for k in range(seen - 1, -1, -1):
        if not referent(text, tickers[k]):
            return tickers[k]
    return tickers[seen - 1]


def referent(text: str, ticker: Claim) -> bool:
    """Whether a ticker is named only as what another holding is measured or placed against."""
    return _REFERENT.search(text, max(ticker.start - 40, 0), ticker.start) is not None


_REFERENT = re.compile(
    r"(?i)(?<!\w)(?:after|behind|ahead\s+of|than|trailing|(?:only\s+)?to|vs\.?|versus|tras|"
    r"detrás\s+de|por\s+delante\s+de|que|frente\s+a)\s+(?:only\s+|solo\s+|sólo\s+)?[*_]{0,2}"
    r"(?:\$?[A-Z][A-Z0-9.]{0,5}[*_]{0,2}(?:\s*,\s*|\s+(?:and|y|&)\s+)[*_]{0,2})*$"
)
"""The words that name a ticker as what a holding is measured or placed against ("after
FSA", "behind only YDLJ", "second only to OEE", "better than CGL", "tras MPSE"), and the
tickers of a list after them ("after ASVF and KGC")."""


_MEMBERS_OF = re.compile(
    rf"(?i)[-\s](?:stocks?|names?|members?|companies|constituents?|valores|títulos)\s+"
    rf"(?:[\w.-]+\s+){{0,2}}?(?:{alternatives('benchmark')})(?!\w)"
)
"""A count of members said right before the benchmark it counts ("the 59-stock equal-weight
universe", "el universo de 59 valores" reads the other way round): the benchmark's."""
_MEMBERS_NOUN = re.compile(
    r"(?i)\s+(?:valores|títulos|compañías|empresas|acciones|miembros|componentes|constituents|names|"
    r"stocks|members|companies)(?!\w)"
)
_OF_BENCHMARK = re.compile(
    rf"(?i)(?<!\w)(?:{alternatives('benchmark')})(?:\s+[\w-]+){{0,2}}\s+(?:de|con|of|with)\s+$"
)
"""A count of members said after the benchmark it counts ("el universo equiponderado de 59
valores"): the benchmark's."""
_OWNED = re.compile(
    r"(?i)(?<!\w)(?:the\s+|a\s+)?(?:day['’]s\s+)?"
    r"(?:portfolio|fund|book|p\d{3,})(?:['’]s)?\s+(?:(?:total|overall|whole|"
    r"entire|combined)\s+)?(?:day(?:'s)?\s+)?(?:p&l|pnl|profit|loss|return)"
    r"(?:\s+(?:was|is|of|came\s+to|stood\s+at|amounted\s+to|totall?ed))?\s*[:=]?\s*[(+\-−$]*\s*$"
)
"""A figure named as the portfolio's own total right before it ("the portfolio's total day P&L
was $4,854.66", "P001's return of 0.52%", "to the day's portfolio return of +0.52%"): no
ticker's, whatever the sentence named before; a holding's "contribution to portfolio return" is
the holding's."""
_PORTFOLIO_OWN = re.compile(
    rf"(?i)(?<![\w'’-])(?:{alternatives('portfolio')})(?:\s+p\d{{3,}})?(?:\s*\([^()\n]{{0,40}}\))?(?:"
    r",?\s+(?:which|that|whose\s+(?:day\s+)?return)\s+(?:(?:itself|overall|in\s+total)\s+)?"
    r"(?:returned|rose|fell|gained|lost|ended|finished|closed|was\s+up|was\s+down|moved|dropped|"
    r"climbed|slipped|edged\s+(?:up|down|higher|lower))"
    r"|\s+que\s+(?:subió|cayó|rindió|rentó|ganó|perdió|bajó|avanzó|retrocedió|cedió|terminó|cerró)"
    r")(?:\s+(?:by|a|an|un|una|of|de|del|on\s+the\s+day|en\s+el\s+día|up|down|higher|lower|en))*"
    r"\s*[(+\-−$€]*\s*$"
    r"|(?:rentabilidad|rendimiento|retorno|variación)\s+de\s+(?:la|una)\s+cartera\s+(?:del|de)\s*[(+\-−]*\s*$"
)
"""A figure the portfolio's own clause says right after naming it ("to P001, which returned
0.52%", "a una cartera que subió un 0,52 %", "la rentabilidad de la cartera del 0,52 %"): the
portfolio's alone, whatever holding the sentence is about. (A bracket after the portfolio is
not: "de la cartera P003 (1.351 acciones)" is the holding's.)"""
_CONTRIBUTION_TO = re.compile(
    r"(?i)(?<!\w)(?:(?P<noun>contributions?|contribución|aportación|aporte)\s+)?(?:to|into|a|al)\s+"
    r"(?:(?:the|a|la)\s+)?(?:day['’]s\s+)?$"
)
"""What stands before a portfolio's return a holding's figure went to: "contributed +0.39% to
the day's portfolio return of +0.52%" (the figure after it is the portfolio's), or "its
contribution to the portfolio's return was +0.39%" (the holding's)."""


def _owned(text: str, lo: int, at: int) -> bool:
    """Whether the figure at `at` is named as the portfolio's own total right before it."""
    m = _OWNED.search(text, lo, at)
    if m is None:
        return False
    to = _CONTRIBUTION_TO.search(text, max(m.start() - 40, 0), m.start())
    return to is None or to.group("noun") is None


_PORTFOLIO_KEY = re.compile(
    rf"(?i)(?:^|\n)[ \t]*(?:[-*•·▪►]+[ \t]*|\d{{1,2}}[/.)][ \t]+|[^\w\s*#|]{{1,3}}[ \t]*)?(?:\*\*|__)?"
    rf"(?:the\s+|la\s+|el\s+)?(?:{alternatives('portfolio')})(?:\s+(?:completa|completo|entera|"
    r"entero|total|overall|whole|as\s+a\s+whole|en\s+conjunto))?(?:\*\*|__)?[ \t]*[:：]"
    r"(?:\*\*|__)?[ \t]*[(+\-−$€]*[ \t]*(?:us\$)?$"
)
"""A line whose label names the portfolio ("Cartera completa: -0,90 %", "- **Portfolio:**
+0.52%"): the figure after it is the portfolio's."""
_SAID_BY = re.compile(
    rf"(?i)(?<![\w'’-])(?:(?P<portfolio>{alternatives('portfolio')})|"
    rf"(?P<benchmark>{alternatives('benchmark')}))(?:\s*\([^()\n]{{0,40}}\))?"
    r"(?:\s+(?:as\s+a\s+whole|overall|in\s+total|itself|en\s+conjunto|en\s+total|completa|entera))?,?\s+"
    rf"(?:{alternatives('rise')}|{alternatives('fall')}|{alternatives('session_verbs')}|returned|"
    r"posted|delivered|made|earned|ended|rindió|rentó|ganó|perdió|registró|obtuvo|se\s+anotó|terminó|"
    r"acabó|finalizó)(?!\w)"
    r"(?:\s+(?:a|an|un|una|the|of|by|de|del|en|at|about|roughly|around|some|nearly|almost|just|"
    r"over|under|day|session|return|gain|loss|total|rentabilidad|rendimiento|ganancia|pérdida|"
    r"el|la|its|su|con|alza|subida|caída|baja|descenso|avance|retroceso|up|down|higher|lower|"
    r"p&l|pnl|profit|result|resultado|change|move|variación)){0,4}"
    r"\s*[(+\-−$€]*\s*$"
)
"""A figure the portfolio or the benchmark is the subject of, with only a verb of its day and
small words before it ("P002 returned 0.00%", "the fund lost $21,660.18", "la cartera cayó un
0,90 %"): said of it, not of the ticker an earlier sentence named."""
_COMPARED_BY = re.compile(
    rf"(?i)(?<![\w'’-])(?P<portfolio>{alternatives('portfolio')})(?:\s*\([^()\n]{{0,40}}\))?\s+"
    r"(?:outpaced|beat|trailed|lagged|outperformed|underperformed|topped|superó|batió|"
    r"quedó\s+por\s+(?:encima|debajo)\s+de(?:l)?)\s+(?:the\s+|el\s+|al\s+|la\s+)?"
    rf"(?:[\w-]+\s+){{0,2}}(?:{alternatives('benchmark')}),?\s+(?:finishing|ending|closing|returning|cerrando|"
    r"terminando|con)(?:\s+(?:the\s+day|the\s+session|el\s+día|la\s+sesión))?"
    rf"(?:\s+(?:{alternatives('rise')}|{alternatives('fall')}|up|down|higher|lower|flat|at|en|a|"
    r"with|un|una|de|of))*\s*[(+\-−$€]*\s*$"
)
"""A figure the portfolio is the subject of after the comparison it opens with ("The
portfolio outpaced the equal-weight universe, finishing down 2.03% against down 0.57%"): the
first figure is the portfolio's, the one after "against" the benchmark's."""


def _held_after(text: str, end: int, tickers: list[Claim], seen: int) -> bool:
    """Whether the figure's own clause names, right after it, the holding it is made on
    ("P001 lost 262.14 on its 771 shares of PCD"): then it is that position's."""
    if seen >= len(tickers) or tickers[seen].start - end > 50:
        return False
    return _CLAUSE_BREAK.search(text, end, tickers[seen].start) is None


_CLAUSE_BREAK = re.compile(r"[,;:.!?](?!\d)|[()]|\s(?:while|and|but|whereas|y|pero|mientras)\s")
_PLACED = re.compile(
    r"(?i)(?<!\w)(?:in|en|within|inside|of|de|del|for|para|to|a|al|from|into|across|at)\s+"
    r"(?:the\s+|la\s+|el\s+|su\s+|its\s+)?$"
)
"""A portfolio named as where a holding sits or whom a figure goes to ("the position in P003
lost 118.40", "contributed to the portfolio"): not what the verb after it is said of."""
_PLACED_PORTFOLIO = re.compile(
    _PLACED.pattern.removesuffix("$") + r"(?:p\d{3,}\s+)?$", re.IGNORECASE
)
"""The same, with the portfolio's id (or its name, read as the id) before the word
"portfolio": "the YRAN holding in the Dividend Income portfolio lost 4,073.13" is the
holding's loss."""
_PLACED_NAMED = re.compile(
    _PLACED.pattern.removesuffix("$") + rf"(?:{alternatives('portfolio')})\s+$", re.IGNORECASE
)
"""A portfolio's id after the placed word for it ("de la cartera P002", "in the portfolio
P002"): placed as well."""
_OWN_AFTER = re.compile(
    r"(?i)(?:\)|\s*\([^()\n]{0,40}\))?(?:(?:\s+(?:on|el|del|for|para|in|en|at|al)\s+[^,;.()\n]{1,30}?)?\s*,?\s*(?:"
    r"(?:with|con|on|sobre|after|tras)\s+(?:a|an|un|una|its|su|the|el|la)\s+"
    r"|(?:a|an|un|una|i\.e\.|es\s+decir)\s+(?:[\w-]+\s+){0,2}?"
    r"(?:p&l|pnl|gain|loss|profit|resultado|ganancia|pérdida)(?!\w)"
    r")[^,;.()\n]{0,40}|\s*[:：][^;()\n]{0,80})$"
)
"""What follows a portfolio a holding's figure went to, up to the next figure ("contributed
+0.01% to P002 on Dec 31, with a day P&L of", "a P002, con un P&L diario de"), or a holding's line
it heads ("WED in P002: market value ..., day P&L"): the figure is the holding's own, the
portfolio only where it went or sits."""
_ASIDE = re.compile(r"\(\s*$")
_PAIRED = re.compile(r"(?<![\w.])[A-Z][A-Z0-9.]{0,5}\s*[/·|—–]\s*$")
"""A ticker and its portfolio set side by side in a heading ("**ILLR / P002**"): the portfolio
is where the holding sits, not the subject of the lines under it."""
_LABELLED = re.compile(
    r"(?i)[ \t]*(?:\|[ \t]*)?(?:[-*•·▪►]+[ \t]*|\d{1,2}[/.)][ \t]+)?(?:\*\*|__|[\"'])?(?:the\s+|la\s+|el\s+)?"
    rf"(?:{alternatives('portfolio')})(?:\*\*|__|[\"'])?[ \t]*(?:[:：=]|\|)"
)
"""A line of a record labelled by the portfolio ("- cartera: P002", "**Portfolio:** P002 – Dividend
Income", "| cartera | P002 |" under "- ticker: CJVL", '"portfolio": "P003",'): it says where the holding sits; the lines
under it are the record's fields, not the portfolio's, and a figure on it is the portfolio's."""
_NEXT_CELL = re.compile(r"[|;:]")
"""Where the label line's own cell ends ("Cartera: -0,90% | Universo: -0,57%")."""
_FOR_SUBJECT = re.compile(
    r"(?i)\s*(?:[\w-]+\s+){0,2}?(?:for|of|de|del)\s+(?:the\s+|la\s+|el\s+|su\s+)?(?=\w)"
)


def _named_after(text: str, end: int) -> str | None:
    """The portfolio or benchmark a figure is said to be of right after it ("a 0.00% return
    for the portfolio", "un 0,00 % de la cartera")."""
    lead = _FOR_SUBJECT.match(text, end)
    if lead is None:
        return None
    m = _OTHER_SUBJECT.search(text, lead.end(), lead.end() + 40)
    if m is None or not _MODIFIERS.fullmatch(text, lead.end(), m.start()):
        return None  # "for the equal-weight universe": its words may stand before it
    return _SUBJECTS[m.lastgroup] if m.lastgroup else None


_MODIFIERS = re.compile(r"(?:(?:[^\W\d_]|\d+-[^\W\d_])[\w-]*\s+){0,2}")
"""Words that may stand before the subject's name: "equal-weight", "59-stock"."""


def _nearer_subject(text: str, after: int, before: int, sentence: int) -> str | None:
    """The portfolio or the benchmark, where one is named between the last ticker and a figure
    ("AXO lagged the benchmark, which returned -0.57%"): the figure may be its. A figure whose
    last named subject is a ticker is never the portfolio's or the benchmark's, nor is a figure
    whose sentence names none after a sentence that only placed the ticker in a portfolio
    ("VKJT is a 1.50% weight in P003. ... it ... a day P&L of +46.59": the position's)."""
    found = None
    for m in _OTHER_SUBJECT.finditer(text, after, before):
        if (
            m.start() >= sentence
            and m.lastgroup == "portfolio"
            and _OWN_AFTER.match(text, m.end(), before)
            and (
                _PLACED.search(text, max(m.start() - 16, 0), m.start())
                or _ASIDE.search(text, max(m.start() - 4, 0), m.start())
            )
        ):
            continue  # "contributed +0.01% to P002, with a day P&L of": the holding's own
        if m.start() < sentence and (
            _PLACED.search(text, max(m.start() - 16, 0), m.start())
            or _PLACED_NAMED.search(text, max(m.start() - 30, 0), m.start())
            or _ASIDE.search(text, max(m.start() - 4, 0), m.start())  # "in P003 (Core Growth)"
            or _PAIRED.search(text, max(m.start() - 12, 0), m.start())  # "**ILLR / P002**"
            or _LABELLED.match(text, text.rfind("\n", 0, m.start()) + 1)  # "- cartera: P002"
        ):
            continue
        found = m.lastgroup
    return _SUBJECTS[found] if found else None

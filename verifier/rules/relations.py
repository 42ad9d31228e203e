"""Relations: comparisons, rankings and streaks, held against the figures the trace computed.

Every figure of "AXO outperformed BRQ, rising 1.38% while BRQ fell 1.98%" can be real while
the relation between them is not; so a relation is a claim of its own, bound to what the
program computed, never to the model's arithmetic:
- a comparison ("outperformed", "lagged", "quedó por detrás de") orders the day moves of the
  ticker before it and the ticker (or the portfolio, or the benchmark) after it: the figures
  its sentence states for them, else the day moves the trace holds;
- a ranking ("the biggest holding", "second-largest", "top gainer") is the subject's place in a
  `get_portfolio_ranks` result for the answer's own portfolio;
- a streak ("a fourth straight gain") is the subject's run in a `get_trend` result.
One that holds covers its words for the closed-world rule; one the trace contradicts is
`wrong_relation`; one the trace cannot settle stays uncovered, so `unverified_claim` rejects it.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Iterator
from functools import cache
from typing import Any

from contract.reasons import ReasonCode
from verifier.claim import Claim
from verifier.grammar.moves import MOVE
from verifier.grammar.tickers import referent
from verifier.lexicon import LANGUAGES, alternatives, alternatives_of, grouped
from verifier.quoting import quoted_by
from verifier.rules.case import Case
from verifier.rules.draft_scan import DraftScan, folded_of, scan_of
from verifier.scanner import PhraseScan
from verifier.times import WINDOW
from verifier.verdict import Reason

_LEAD_IN = r"\s*(?:(?:both|the|la|el|its|su|tanto|de|del|al|a)\s+)*(?:[\w&'’-]+\s+){0,3}?"
"""What may stand between a comparison word and the portfolio or benchmark it names: articles,
"both", and up to three words of its name ("the equal-weight universe benchmark")."""


@cache
def _portfolio_after() -> re.Pattern[str]:
    return re.compile(rf"{_LEAD_IN}(?:{alternatives('portfolio')})(?!\w)")


@cache
def _benchmark_after() -> re.Pattern[str]:
    return re.compile(rf"{_LEAD_IN}(?:{alternatives('benchmark')})(?!\w)")


_PERCENT_KEYS = ("change_pct", "day_return_pct", "pnl_pct", "return_pct")


@cache
def news_scan() -> PhraseScan:
    """The words that place a headline among the others of its search."""
    return PhraseScan(grouped("news_order"))


@cache
def membership_scan() -> PhraseScan:
    """The words that place a holding in a group of its portfolio."""
    return PhraseScan(grouped("membership"))


@cache
def runner_up_scan() -> PhraseScan:
    """The words that place a holding by the figure just stated ("second only to OEE")."""
    return PhraseScan(grouped("runner_up"))


_MULTIPLE = re.compile(r"\s+(?:doubl|tripl|duplic|tripli)")
_ONE_OF = re.compile(
    r"(?<!\w)(?:one\s+of|among|uno\s+de|una\s+de|entre)\s+(?:the\s+|its\s+|los\s+|las\s+|sus\s+"
    r"|[\w']+'s\s+)?$"
)
"""What makes a superlative a membership among the five at its end ("one of the smallest")."""
_JUDGED_BEFORE = re.compile(
    r"(?<!\w)(?:small|slight|modest|minor|mild|big|sharp|steep|heavy|strong|ligera|leve|fuerte)\s+$"
)
"""A word of judgement between a streak's count and its words (checked on its own)."""
_BY_GAP = re.compile(r"\s+(?:by|por)\s+[-+−]?\d")
"""A comparison followed by the size of its gap: the two figures before it are compared."""
_BEHIND = frozenset({"behind", "after", "por detrás de", "detrás de", "tras"})


@cache
def count_scan() -> PhraseScan:
    """The words a count of gainers or decliners is said with."""
    return PhraseScan(grouped("counted"))


@cache
def scans() -> tuple[PhraseScan, PhraseScan, PhraseScan]:
    """The comparison, ranking and streak phrases of every language."""
    return (
        PhraseScan(grouped("relations")),
        PhraseScan(grouped("rankings")),
        PhraseScan(grouped("streaks")),
    )


@cache
def count_words() -> dict[str, int]:
    """Ordinals and numbers one to twelve, by word."""
    return {
        word: n
        for lexicon in LANGUAGES
        for n, words in enumerate(lexicon.counts, 1)
        for word in words
    }


def check_relations(case: Case) -> Iterator[Reason]:
    """Each comparison, ranking and streak the trace contradicts; those it supports are added
    to `case.bound` for the closed-world rule that runs after this one."""
    text = case.trace.draft or ""
    compare, rank, streak = scans()
    folded = folded_of(case)  # "second-largest" reads as two words
    compared, ranked, runs = (
        compare.finditer(folded),
        rank.finditer(folded),
        streak.finditer(folded),
    )
    ordered, counted = news_scan().finditer(folded), count_scan().finditer(folded)
    members = membership_scan().finditer(folded)
    places = runner_up_scan().finditer(folded)
    if not (compared or ranked or runs or ordered or counted or members or places):
        return
    scan = scan_of(case)
    starts, results = scan.starts, scan.results
    quotes = [f.claim for f in case.findings if f.claim.kind == "headline" and f.supported_by]
    for m in compared:
        if m.group() == "over" and _window_at(folded, m.start()):
            continue  # "than over the past month": a window, not a comparison
        pair = _quotes_around(quotes, m)
        if pair is not None:
            reason = _quote_order(text, m, pair, results, case)
        elif _MULTIPLE.match(folded, m.end()):
            continue  # "more than doubled": a multiple (`verifier.rules.qualities`)
        elif any(0 <= m.start() - r.end() <= 1 for r in ranked) and m.group() in _BEHIND:
            continue  # "second-biggest detractor behind YDLJ": a place (`_runner_up`)
        else:
            reason = _comparison(scan, m)
        if reason is not None:
            yield reason
    for m in ranked:
        reason = _off_session(scan, m) or _ranking(scan, m)
        if reason is not None:
            yield reason
    for m in places:
        when = _off_session(scan, m) if m.lastgroup == "place" else None  # not "after"
        reason = when or _runner_up(scan, m, ranked)
        if reason is not None:
            yield reason
    for m in runs:
        reason = _streak(scan, m)
        if reason is not None:
            yield reason
    for m in members:
        reason = _membership(scan, m)
        if reason is not None:
            yield reason
    for m in counted:
        reason = _count(case, text, m, results)
        if reason is not None:
            yield reason
    if quotes:
        for m in ordered:
            reason = _news_order(text, m, starts, quotes, results, case)
            if reason is not None:
                yield reason


_CLAUSE_OPEN = re.compile(r"[,;:(\n]|\s(?:and|but|while|y|pero|mientras)\s")
_DAY_BEFORE = re.compile(
    r"(?<!\w)(?:yesterday|ayer|anteayer|last\s+week|la\s+semana\s+pasada|(?:the\s+)?day\s+before|"
    r"(?:the\s+)?(?:prior|previous)\s+session|the\s+session\s+before|el\s+día\s+anterior|"
    r"la\s+sesión\s+anterior)(?!\w)"
)
_JOINED_DAY = re.compile(r"(?<!\w)(?:and|y)\s+(?:on\s+|el\s+)?$")
_YEAR_SAID = re.compile(r"(?<!\w)(?:for|in|during|over|en|durante|para)\s+(?:19|20)\d\d(?![\d/-])")
"""A year a place is said for ("For 2024 it ranked 2nd"): the ranks are one session's."""
_AS_BEFORE = re.compile(
    r"(?<!\w)(?:as\s+it\s+(?:did|was)|as\s+(?:on|in)|like|igual\s+que|como)\s+(?:(?:on|in|el|en)\s+)?"
    rf"(?:{_DAY_BEFORE.pattern})"
)
"""A place said to repeat another day's ("It ranks 2nd, as it did the day before")."""
_RANK_CHANGE = re.compile(
    r"(?<!\w)(?:climb\w*|rose|risen|rises|moved\s+up|jumped|slipped|slid|fell|dropped|moved\s+down|"
    r"sank|remain\w*|stay\w*|still|subió|sube|bajó|baja|cayó|cae|pasó|se\s+mantuvo|sigue(?:\s+siendo)?)"
    r"\s+(?:to\s+|al?\s+|hasta\s+|en\s+|the\s+|el\s+|la\s+|its\s+)*(?:[\w-]+\s+)?$"
)
"""A place said as where the holding moved to, or stayed ("climbed to 2nd by contribution",
"remained the largest holding", "pasó al puesto 3"): a place before it, which no result holds."""


def _off_session(s: DraftScan, m: re.Match[str]) -> Reason | None:
    """A place said for another time than the session the ranks are for ("Over the past week
    it ranked 5th of 19", "On December 30 it ranked", "The day before, it ranked", "Year to
    date it ranks", "En la semana fue la 2.ª", "..., as it did the day before"): the ranks place
    the holdings by one day only, so the place is `wrong_time`; one said as a change of place
    ("climbed to 2nd", "remained the largest holding") is `unverified_claim`. The time words
    count in the place's own clause, the sentence's opening words and the rest of its clause."""
    ranks = _ranks(s.case, s.results)
    session = ranks.get("session") if ranks else None
    if not isinstance(session, str) or not re.fullmatch(r"\d{4}-\d{2}-\d{2}", session):
        return None
    folded, text = s.folded, s.text
    lo, hi = _sentence(s.starts, m.start(), len(text))
    if changed := _RANK_CHANGE.search(folded, max(lo, m.start() - 40), m.start()):
        return Reason(
            rule=ReasonCode.UNVERIFIED_CLAIM,
            message=(
                f'"{text[changed.start() : m.end()]}" says where the holding\'s place moved or '
                "stayed, and no result holds its place on another day"
            ),
            span=(changed.start(), m.end()),
        )
    breaks = list(_CLAUSE_OPEN.finditer(folded, lo, hi))
    opens = max([lo] + [c.end() for c in breaks if c.end() <= m.start()])
    closes = min([hi] + [c.start() for c in breaks if c.start() >= m.end()])
    opener = (lo, breaks[0].start()) if breaks and breaks[0].end() <= opens else (lo, lo)
    scopes = (opener, (opens, m.start()), (m.end(), closes))
    said = ""
    for a, b in scopes:
        for w in WINDOW.finditer(folded[a:b]):
            if w.lastgroup and w.lastgroup != "day":
                said = w.group()
    day = (int(session[:4]), int(session[5:7]), int(session[8:10]))
    for f in s.case.findings:
        claim = f.claim
        if (
            claim.kind == "date"
            and any(a <= claim.start < b for a, b in scopes)
            and claim.dates
            and not any(d[1:] == day[1:] and d[0] in (None, day[0]) for d in claim.dates)
        ):
            said = claim.text
    for f in s.case.findings:  # "on 2024-12-31 and on 2024-12-30": a second day joined to it
        claim = f.claim
        if (
            claim.kind == "date"
            and closes <= claim.start < hi
            and claim.dates
            and _JOINED_DAY.search(folded, max(claim.start - 10, 0), claim.start)
            and not any(d[1:] == day[1:] and d[0] in (None, day[0]) for d in claim.dates)
        ):
            said = claim.text
    for a, b in scopes[:2]:
        if not said and (
            before := _DAY_BEFORE.search(folded, a, b) or _YEAR_SAID.search(folded, a, b)
        ):
            said = before.group()
    if not said and (repeated := _AS_BEFORE.search(folded, m.end(), hi)):
        said = repeated.group()
    if not said:
        return None
    return Reason(
        rule=ReasonCode.WRONG_TIME,
        message=(
            f'"{text[m.start() : m.end()]}" is a place said for "{said}", but the ranks place '
            f"the holdings by the session of {session} only"
        ),
        span=m.span(),
    )


def _window_at(folded: str, at: int) -> bool:
    """Whether a window phrase opens at `at` or right after "over the" ("over the past
    month")."""
    word = re.compile(r"over\s+").match(folded, at)
    the = re.compile(r"over\s+the\s+").match(folded, at)
    opens = {at} | {m.end() for m in (word, the) if m}
    return any(w.start() in opens for w in WINDOW.finditer(folded))


def _contradicted(message: str, span: tuple[int, int]) -> Reason:
    """A relation the trace's computed figures contradict."""
    return Reason(rule=ReasonCode.WRONG_RELATION, message=message, span=span)


def _sentence(starts: list[int], at: int, n: int) -> tuple[int, int]:
    i = bisect_right(starts, at) - 1
    return starts[i], starts[i + 1] if i + 1 < len(starts) else n


def _before(tickers: list[Claim], lo: int, at: int) -> Claim | None:
    found = [t for t in tickers if lo <= t.start < at]
    return found[-1] if found else None


def _after(tickers: list[Claim], at: int, hi: int) -> Claim | None:
    found = [t for t in tickers if at <= t.start < hi]
    return found[0] if found else None


def _move(case: Case, symbol: str, lo: int, hi: int, results: list[dict[str, Any]]) -> float | None:
    """The day move of `symbol`: a percentage its sentence states and the trace supports, else
    the one a result of the trace holds."""
    for f in case.figures:
        if lo <= f.claim.start < hi and f.claim.unit:
            own = [x for x in f.in_scope if x.ticker == symbol]
            if own:
                return own[0].value
    for result in results:
        positions = result.get("positions")
        for node in (result, *(positions if isinstance(positions, list) else ())):
            if isinstance(node, dict) and node.get("ticker") == symbol:
                for key in _PERCENT_KEYS:
                    if isinstance(node.get(key), int | float):
                        return float(node[key])
    return None


def _ranks(case: Case, results: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The `get_portfolio_ranks` result of the answer's own portfolio."""
    own = case.trace.portfolio_id
    for result in results:
        ranked = isinstance(result.get("positions"), list) and "positions_count" in result
        if ranked and (own is None or result.get("portfolio_id") == own):
            return result
    return None


own_ranks = _ranks


_STOCK_NOUN = re.compile(
    r"[\s*_\-•]*(?:the\s+(?:stock|shares|position|holding|name)(?:['’]s\s+(?:day\s+)?(?:return|move|"
    r"performance))?|its\s+(?:day\s+)?(?:return|move|performance)|it|el\s+(?:valor|título|papel)|"
    r"el\s+(?:rendimiento|comportamiento)\s+(?:de\s+la\s+(?:acción|posición)|del\s+(?:valor|título))|"
    r"la\s+(?:acción|posición)|los\s+títulos|las\s+acciones)(?!\w)(?:[^.;:]|(?<=\d)[.,:](?=\d))*$"
)
"""A sentence that opens on the stock by a noun ("El valor quedó por encima del universo",
"The shares beat the benchmark", "the position returned -2.30% and lagged the portfolio"):
the holding named before it is what it compares."""


_BOUND_FIGURE = re.compile(r"\s+(?:a|an|un|una|la|el)?\s*\S")


def _comparison(s: DraftScan, m: re.Match[str]) -> Reason | None:
    case, text, folded, starts, tickers, results = s.parts()
    lo, hi = _sentence(starts, m.start(), len(text))
    if _BY_GAP.match(folded, m.end()):  # "-0.23% vs the book's -0.90%, outperformed by 0.67pp"
        before = [f.claim for f in case.figures if lo <= f.claim.start and f.claim.end <= m.start()]
        alike = [c for c in before if c.unit and c.readings]
        if len(alike) >= 2:
            return _figure_order(case, text, m, alike[-2], alike[-1])
        return None
    pair = _figures_around(case, lo, hi, m)
    if pair is not None:
        return _figure_order(case, text, m, *pair)
    if _BOUND_FIGURE.match(folded, m.end()) and any(
        f.claim.bound for f in case.figures if m.end() <= f.claim.start <= m.end() + 5
    ):
        return None  # "less than a quarter of P001": a bound of the figure, its rules' to hold
    first = _before(tickers, lo, m.start())
    if first is None and _STOCK_NOUN.match(folded, lo, m.start()):
        first = _before(tickers, 0, lo) or _only_ticker(case, m.start())  # "El valor quedó por"
    if first is None:
        return _portfolio_vs_benchmark(s, m, lo)
    if _portfolio_before().search(folded, first.end, m.start()):
        # "PCDM en la cartera P002 (...) En conjunto, la cartera superó a su referencia": the
        # portfolio named right before the verb is its subject, not the ticker before it
        return _portfolio_vs_benchmark(s, m, first.end)
    while (earlier := _before(tickers, lo, first.start)) is not None and _THAN_BEFORE.search(
        folded, max(first.start - 8, 0), first.start
    ):
        first = earlier  # "AXO contributed more than FBB but less than KPZ": AXO's, both
    a = _move(case, first.symbol, lo, hi, results)
    other = _after(tickers, m.end(), hi)
    b: float | None
    measure = _compared_by(folded, first.end, m.start())
    if _FROM_THE_BOTTOM.search(folded, lo, m.start()):
        return None  # "the second-largest detractor, behind MPSE": an order from the bottom
    beside = other is not None and other.start - m.end() < 12
    if _ANY_OTHER.match(folded, m.end()) or (
        beside
        and other is not None
        and (measure != "return" or a is None or _move(case, other.symbol, lo, hi, results) is None)
    ):
        # "contributed more than OEE", "weighs less than ASVF", "more than any other holding":
        # the two holdings' places by the measure the verb names, from the ranks' lists
        return _holding_order(s, m, first, other if beside else None, measure)
    if other is not None and other.start - m.end() < 12:
        name, b = other.symbol, _move(case, other.symbol, lo, hi, results)
    else:
        ranks = _ranks(case, results)
        if ranks is None:
            return None
        if _portfolio_after().match(folded, m.end()):
            name, b = "the portfolio", ranks.get("portfolio_return_pct")
        elif _benchmark_after().match(folded, m.end()):
            bench = ranks.get("benchmark") or {}
            name, b = str(bench.get("name") or "the benchmark"), bench.get("return_pct")
        else:
            return None
    if a is None or not isinstance(b, int | float):
        return None
    above = (m.lastgroup or "") == "above"
    above = (above != _of_a_fall(folded, lo, m)) != _negated(folded, m)
    case.bound.append(m.span())  # checked: it holds, or its reason says why not
    if (a > b) == above and a != b:
        return _gap(case, text, folded, m, a, float(b), True)
    return _contradicted(
        (
            f'"{text[m.start() : m.end()]}" says {first.symbol} did '
            f"{'better' if above else 'worse'} than {name}, but the trace has "
            f"{first.symbol} {a:+.2f}% and {name} {b:+.2f}%"
        ),
        m.span(),
    )


_MAGNITUDE = re.compile(
    r"(?:more|less|greater|bigger|larger|smaller)\s+than|(?:más|menos)(?:\s+de\s+lo)?\s+que"
)
"""A comparison of sizes alone: said of two falls it orders the falls ("fell 2.03%, more than
the market", "cayó menos de lo que cayó la cartera"), the other way round from the moves."""


_NOT_COMPARED = re.compile(
    r"(?<!\w)(?:not|n['’]t|never|no|nunca)\s+(?:(?:se|have|has|did|does|do|quite|even|actually|"
    r"quedó|quedaron|lo\s+hizo|consiguió|logró)\s+){0,2}$"
)
"""A negation right before a comparison ("did not outperform", "no se quedó por debajo de"):
the order is the other one (or the two are level)."""


def _negated(folded: str, m: re.Match[str]) -> bool:
    return bool(_NOT_COMPARED.search(folded, max(m.start() - 30, 0), m.start()))


def _of_a_fall(folded: str, lo: int, m: re.Match[str]) -> bool:
    """Whether a comparison of sizes is said of falls: the direction word nearest before it in
    its sentence, or the one right after it ("más de lo que cayó"), says down."""
    if not _MAGNITUDE.fullmatch(m.group()):
        return False
    after = MOVE.finditer(folded[m.end() : m.end() + 16])
    before = MOVE.finditer(folded[lo : m.start()])
    said = after[0] if after else (before[-1] if before else None)
    return said is not None and said.lastgroup == "down"


_FROM_THE_BOTTOM = re.compile(
    r"(?<!\w)(?:detractors?|laggards?|losers?|decliners?|worst|lastres?|rezagad[oa]s?|peor(?:es)?)(?!\w)"
)
"""A comparison inside a ranking from the bottom ("the second-largest detractor, behind MPSE"):
its words order by how much was lost, which the places of `verifier.rules.rank_lists` hold."""
_THAN_BEFORE = re.compile(r"(?:than|que|a)\s+$")
"""A holding named right after a comparison word is what another is compared with."""
_ANY_OTHER = re.compile(
    r"\s*(?:any\s+other|every\s+other|all\s+(?:the\s+)?other|cualquier\s+otr[oa]|ningún\s+otro|"
    r"ninguna\s+otra|todos\s+los\s+demás|todas\s+las\s+demás|el\s+resto)(?!\w)"
)
_MEASURES = (
    ("contribution", re.compile(r"contribut|added|aport|contribuy|sumó|restó|subtract|detract")),
    ("weight", re.compile(r"weigh|weight|pesa|peso|pesó|pondera")),
    ("pnl", re.compile(r"made|earned|lost\s+\$|ganó\s+\$|perdió\s+\$|\bp&l|resultado")),
)
_RANK_KEYS = {
    "contribution": ("contribution_rank", "top_contributors", "detractors"),
    "return": ("return_rank", "top_movers", "bottom_movers"),
    "weight": ("weight_rank", "", ""),
    "pnl": ("pnl_rank", "", ""),
}


def _compared_by(folded: str, lo: int, at: int) -> str:
    """What a comparison of two holdings goes by, from the verb before it: "contributed more"
    by contribution, "weighs less" by weight, "made more" by dollars, else by the day's return."""
    said = folded[lo:at]
    return next((name for name, words in _MEASURES if words.search(said)), "return")


def _place_by(ranks: dict[str, Any], symbol: str, measure: str) -> int | None:
    """A holding's place by the measure, 1 the highest: its own row's rank, or where the
    ranks' lists of the top five and the bottom five put it."""
    key, top, bottom = _RANK_KEYS[measure]
    for row in ranks.get("positions") or ():
        if isinstance(row, dict) and row.get("ticker") == symbol and isinstance(row.get(key), int):
            return int(row[key])
    count = ranks.get("positions_count")
    listed_top = ranks.get(top) or [] if top else []
    listed_bottom = ranks.get(bottom) or [] if bottom else []
    if symbol in listed_top:
        return listed_top.index(symbol) + 1
    if symbol in listed_bottom and isinstance(count, int):
        return count - listed_bottom.index(symbol)
    return None


def _holding_order(
    s: DraftScan, m: re.Match[str], first: Claim, other: Claim | None, measure: str
) -> Reason | None:
    """A holding compared with another holding, or with every other one: held against their
    places by the measure; where no result places both, the comparison is unchecked
    (`unverified_claim`), never taken on trust."""
    case, text, _, _, _, results = s.parts()
    above = (m.lastgroup or "") == "above"
    said = text[m.start() : m.end()]
    ranks = _ranks(case, results)
    mine = _place_by(ranks, first.symbol, measure) if ranks else None
    count = ranks.get("positions_count") if ranks else None
    if other is None:
        if mine is None or not isinstance(count, int):
            return _unchecked(said, first.symbol, "every other holding", measure, m.span())
        every = _ANY_OTHER.match(s.folded, m.end())
        case.bound.append((m.start(), every.end() if every else m.end()))
        if mine == (1 if above else count):
            return None
        side = "ahead of" if above else "behind"
        return _contradicted(
            f'"{said}" puts {first.symbol} {side} every other holding by {measure}, but it is '
            f"{mine} of {count}",
            m.span(),
        )
    theirs = _place_by(ranks, other.symbol, measure) if ranks else None
    if mine is None or theirs is None or mine == theirs:
        return _unchecked(said, first.symbol, other.symbol, measure, m.span())
    case.bound.append(m.span())
    if (mine < theirs) == above:
        return None
    return _contradicted(
        f'"{said}" orders {first.symbol} {"above" if above else "below"} {other.symbol} by '
        f"{measure}, but the ranks place {first.symbol} {mine} and {other.symbol} {theirs}",
        m.span(),
    )


def _unchecked(said: str, a: str, b: str, measure: str, span: tuple[int, int]) -> Reason:
    return Reason(
        rule=ReasonCode.UNVERIFIED_CLAIM,
        message=(
            f'"{said}" compares {a} with {b} by {measure}, and no result places both: the '
            "comparison is not checked"
        ),
        span=span,
    )


@cache
def _degree() -> re.Pattern[str]:
    """A word right before a comparison that sizes its gap ("slightly beat", "well below")."""
    small, large = (alternatives_of("degrees", name) for name in ("small", "large"))
    return re.compile(rf"(?<!\w)(?:(?P<small>{small})|(?P<large>{large}))\s+$")


GAP_SMALL, GAP_LARGE = 0.5, 1.0
"""A gap between two percentages: small under 0.5 points, large at least 1 point; between two
amounts, small under a tenth of the larger, large at least half of it (one twice the other)."""


def _gap(
    case: Case, text: str, folded: str, m: re.Match[str], x: float, y: float, percent: bool
) -> Reason | None:
    """The degree said of a comparison that holds in order: its word is bound with it, and a
    gap outside its band is `wrong_relation`."""
    d = _degree().search(folded, max(m.start() - 24, 0), m.start())
    if d is None:
        return None
    case.bound.append(d.span())
    gap = abs(x - y) if percent else abs(x - y) / max(abs(x), abs(y), 1e-9)
    small = d.lastgroup == "small"
    limit = (GAP_SMALL if small else GAP_LARGE) if percent else (0.1 if small else 0.5)
    if (gap < limit) if small else (gap >= limit):
        return None
    unit = " points" if percent else " of the larger"
    shown = f"{gap:.2f}" if percent else f"{gap:.0%}"
    return _contradicted(
        (
            f'"{text[d.start() : m.end()]}" says a {"small" if small else "large"} gap, but '
            f"the gap is {shown}{unit} ({x:g} against {y:g})"
        ),
        (d.start(), m.end()),
    )


_COUNT_AFTER = re.compile(
    r"(?:\s+(?:de|of)\s+[a-z][a-z0-9.\-]{0,9}(?=\s+(?:es|fue|is|was)\s))?"  # "la racha de ABXQ es de"
    r"(?:\s+(?:es|fue|is|was|shows|stands\s+at|reads|muestra|marca)\s+|\s*[*_]*\s*:\s*[*_]*\s*"
    r"|\s+(?=(?:de|of)\s))"  # "una racha bajista de 4 sesiones", "a losing streak of 4 sessions"
    r"(?:(?:just|only|solo|sólo|solamente)\s+)?(?:de\s+|of\s+)?(?:"
    r"(?P<n>una\s+sola|un\s+solo|a\s+single|just\s+one|only\s+one|[^\W_]+)\s+"
    r"(?:(?P<up>up|higher|alcista|winning|green)\s+|(?P<down>down|lower|bajista|losing|red)\s+)?"
    r"(?:sesión|sesiones|session|sessions|día|días|day|days|jornadas?)"
    r"(?:\s+(?P<up_after>alcistas?|al\s+alza)|\s+(?P<down_after>bajistas?|a\s+la\s+baja)"
    r"|\s*\(\s*(?:(?P<up_paren>up|higher|al\s+alza)|(?P<down_paren>down|lower|a\s+la\s+baja))"
    r"(?!\w)[^()\n]{0,30}\))?"
    r"|(?P<today>today(?:['’]s(?:\s+session)?)?|this\s+session|hoy|la\s+de\s+hoy|la\s+sesión\s+de\s+hoy)"
    r"|(?P<bare>\d{1,2})\s+(?:(?P<up_bare>up|higher|al\s+alza)|(?P<down_bare>down|lower|a\s+la\s+baja))"
    r"(?=\s*(?:[.;,)|\n]|$)))"
    r"(?!\w)"
)
"""A streak's length said after it ("la racha bajista es de una sola sesión", "the winning
streak is just today's session": one; "Streak: 4 down": four down sessions)."""
_CURRENT = re.compile(r"(?<!\w)(?:current|present|ongoing|actual|vigente)\s+$")
_ONE_BEFORE = re.compile(
    r"(?<!\w)(?:only|just|solo|sólo)\s+(?:one|1|a\s+single|una|una\s+sola)\s+"
    r"(?:session|day|sesión|jornada|rueda|día)\s+(?:in|of|into|en|de)\s+(?:its|the|this|su|la|esta)\s+"
    r"(?:(?:current|present|actual)\s+)?$"
)
"""A streak's length of one said before it ("only one session in its current winning
streak")."""
_STARTED = re.compile(
    r"\s*,?\s*(?:(?:in|of|de|en)\s+[a-z.\-]{1,6}\s+)?(?:(?:a|the|una|la)\s+(?:run|streak|stretch|slide|"
    r"racha|serie)\s+)?(?:(?:that|which|que)\s+)?(?:began|begun|started|starting|beginning|(?:dating|going"
    r"|stretching|reaching)\s+back\s+to|running\s+since|since|que\s+se\s+remonta\s+al?|arrancó|empezó|comenzó|se\s+inició|iniciada|desde)"
    r"(?:\s+(?:on|el|en|the))?(?:\s+(?:last|pasado))?(?:\s+(?:monday|tuesday|wednesday|thursday|friday|lunes|martes|"
    r"miércoles|jueves|viernes)(?:'s|,)?)?\s*\(?\s*$"
)
"""What joins a streak to the day it began ("a losing run that began on Monday, December 30",
"una racha bajista que arrancó el lunes 30 de diciembre", "(since Dec 30)")."""


def _count_said(word: str) -> int | None:
    if word in {"una sola", "un solo", "a single", "just one", "only one"}:
        return 1
    digits = re.fullmatch(r"\d{1,2}", word)
    return int(word) if digits else count_words().get(word)


def _streak_start(
    case: Case, folded: str, at: int, hi: int
) -> tuple[Claim, tuple[int, int]] | None:
    """The date a streak is said to have begun on, right after it in its sentence, and the span
    of the words that join them."""
    for f in case.findings:
        claim = f.claim
        if claim.kind == "date" and at <= claim.start < min(hi, at + 70) and claim.dates:
            joint = _STARTED.search(folded, at, claim.start)
            return None if joint is None else (claim, (joint.start(), claim.start))
    return None


def _count_before(folded: str, start: int) -> tuple[int | None, int]:
    """The ordinal or number right before a phrase ("second-largest", "3rd biggest", "four
    straight") and where it opens; (None, start) where there is none."""
    head = re.search(
        r"([^\W_]+)[-\s]+(?:(?:session|day|sesión|día)s?[-\s]+)?$",
        folded[max(start - 24, 0) : start],
    )
    if head is None:
        return None, start
    word, opens = head.group(1), max(start - 24, 0) + head.start(1)
    if word in {"un", "una"} and folded.startswith("racha", start):
        return None, start  # "una racha bajista": an article
    digits = re.fullmatch(r"(\d{1,2})(?:st|nd|rd|th)?", word)
    if digits:
        return int(digits.group(1)), opens
    n = count_words().get(word)
    return (n, opens) if n is not None else (None, start)


def _count_inside(phrase: str) -> int | None:
    """The first ordinal or number in a phrase ("fell for a third straight session")."""
    for word in re.findall(r"[^\W_]+", phrase):
        digits = re.fullmatch(r"(\d{1,2})(?:st|nd|rd|th)?", word)
        if digits:
            return int(digits.group(1))
        if word in count_words():
            return count_words()[word]
    return None


@cache
def _portfolio_before() -> re.Pattern[str]:
    return re.compile(
        rf"(?<!\w)(?:{alternatives('portfolio')})(?:\s+p\d{{3,}})?(?:\s*\([^()\n]{{0,40}}\))?"
        r"(?:,[^,.;:()\n]{1,40},)?\s+(?:\w+\s+)?$"
    )  # "la cartera, con 19 posiciones, batió": an aside between it and its verb


_COMPLEMENT = re.compile(
    r"(?<!\w)(?:in|of|within|en|de|del|dentro\s+de)\s+(?:(?:the|this|its|la|esta|su)\s+)?$"
)


_DAY_NOUN = re.compile(
    r"(?<!\w)(?:(?:a|the|its|una|la|su)\s+)?(?:day|session|jornada|sesión|rueda)\s+$"
)


def _whole_portfolio(case: Case, folded: str, lo: int, at: int) -> bool:
    """ "A day better than the benchmark's", said in a draft that names a portfolio and no
    ticker: the day is the portfolio's."""
    if any(f.claim.kind == "ticker" for f in case.findings):
        return False
    return bool(_DAY_NOUN.search(folded, lo, at)) and bool(
        re.search(rf"(?<!\w)(?:{alternatives('portfolio')})(?!\w)", folded)
    )


_CLAUSE_END = re.compile(r"(?:\s+(?:it|él|lo|la|them))?\s*(?:[.,;:)!]|$)")


def _benchmark_before(folded: str, starts: list[int], lo: int, m: re.Match[str]) -> bool:
    """ "The benchmark did -0.57%, so the book lagged": a comparison word that ends its clause
    (or takes "it"), said of the portfolio, against the benchmark named before it in its
    sentence or the one before."""
    if not _CLAUSE_END.match(folded, m.end()):
        return False
    before = max((s for s in starts if s < lo), default=lo)
    return bool(
        re.search(rf"(?<!\w)(?:{alternatives('benchmark')})(?!\w)", folded[before : m.start()])
    )


def _portfolio_vs_benchmark(s: DraftScan, m: re.Match[str], lo: int) -> Reason | None:
    """ "The portfolio did worse than the benchmark": the answer's own portfolio's return
    against its benchmark's, from its ranks."""
    case, text, folded, starts, _, results = s.parts()
    said = _portfolio_before().search(folded, lo, m.start())
    if said is None:
        if not _whole_portfolio(case, folded, lo, m.start()):
            return None
    elif _COMPLEMENT.search(folded, lo, said.start()):
        return None  # "the sector weighting in this portfolio is above": not the portfolio's return
    if not _benchmark_after().match(folded, m.end()) and not _benchmark_before(
        folded, starts, lo, m
    ):
        return None
    ranks = _ranks(case, results)
    bench = (ranks or {}).get("benchmark") or {}
    a, b = (ranks or {}).get("portfolio_return_pct"), bench.get("return_pct")
    if not isinstance(a, int | float) or not isinstance(b, int | float):
        return None
    above = (m.lastgroup or "") == "above"
    case.bound.append(m.span())
    if a != b and (a > b) == above:
        return None
    return _contradicted(
        f'"{text[m.start() : m.end()]}" says the portfolio did '
        f"{'better' if above else 'worse'} than the benchmark, but the trace has the portfolio "
        f"{a:+.2f}% and the benchmark {b:+.2f}%",
        m.span(),
    )


@cache
def _lead() -> re.Pattern[str]:
    """The words that state the streak or ranking after them, up to its count ("encadena
    tres", "ranks as the")."""
    return re.compile(
        rf"(?<!\w)(?:{alternatives('relation_lead')})\s+(?:(?:a|the|its|su|una|el|la)\s+)?$"
    )


def _figures_around(case: Case, lo: int, hi: int, m: re.Match[str]) -> tuple[Claim, Claim] | None:
    """The figures a comparison word stands between ("closed at 287.14, above its previous
    close of 283.43"): the nearest of its sentence before it and the next one close after it,
    of the same kind (a percentage is not compared with a price)."""
    before = [f.claim for f in case.figures if lo <= f.claim.start and f.claim.end <= m.start()]
    after = [f.claim for f in case.figures if m.end() <= f.claim.start < min(hi, m.end() + 48)]
    if not before or not after or not before[-1].readings or not after[0].readings:
        return None
    b = after[0]
    alike = [c for c in before if bool(c.unit) == bool(b.unit)]  # "$2,891 (+1.75%) ... far
    draft = case.trace.draft or ""  # more than the $46.59": amounts with amounts
    main = [c for c in alike if not _aside(draft, lo, c, m.start())]  # "(..., contribución
    a = main[-1] if main else alike[-1] if alike else before[-1]  # -0,04 %), algo menos que"
    if bool(a.unit) != bool(b.unit) or not draft[a.end : m.start()].strip():
        return None  # "1.69 above 26.19": a difference, not an order (`verifier.grammar`)
    return a, b


def _aside(text: str, lo: int, claim: Claim, at: int) -> bool:
    """Whether a figure stands in brackets closed before `at`: an aside to what is compared."""
    opened = text.rfind("(", lo, claim.start)
    return opened > text.rfind(")", lo, claim.start) and ")" in text[claim.end : at]


def _value(claim: Claim) -> float:
    value = claim.readings[0].value * claim.scale
    return -abs(value) if claim.sign < 0 or claim.direction < 0 else value


def _figure_order(case: Case, text: str, m: re.Match[str], a: Claim, b: Claim) -> Reason | None:
    above = ((m.lastgroup or "") == "above") != _negated(folded_of(case), m)
    case.bound.append(m.span())
    x, y = _value(a), _value(b)
    folded = folded_of(case)
    if _SIZE_WORD.search(m.group()) or _of_a_fall(folded, max(a.start - 80, 0), m):
        x, y = abs(x), abs(y)  # "its 3.70% drop is larger than its decline over the week (1.92%)"
    if x != y and (x > y) == above:
        return _gap(case, text, folded, m, x, y, bool(a.unit))
    return _contradicted(
        (
            f'"{a.text} {text[m.start() : m.end()]} {b.text}": {a.text} is '
            f"{'not above' if above else 'not below'} {b.text}"
        ),
        (a.start, b.end),
    )


_SIZE_WORD = re.compile(
    r"(?<!\w)(?:larger|bigger|greater|smaller|steeper|deeper|"
    r"más\s+(?:grande|amplia|amplio|profunda|profundo)|más\s+pequeñ[ao])(?!\w)"
)
"""Words that compare two moves by their size, not their signed value ("a 3.70% drop is
larger than its 1.92% decline"); "milder" and "better" compare signed values."""


def _place(folded: str, start: int) -> tuple[int, int]:
    """The place a ranking names (its ordinal, else first) and where its words open."""
    n, opens = _count_before(folded, start)
    return (n or 1), opens


_RANK_FIELD = {
    "weight_bottom": "weight_rank",
    "return_top": "return_rank",
    "return_bottom": "return_rank",
    "weight_top": "weight_rank",
    "pnl_top": "pnl_rank",
    "pnl_bottom": "pnl_rank",
}


def _subject(tickers: list[Claim], lo: int, m: re.Match[str], hi: int) -> Claim | None:
    """Whom a ranking or streak is said of: the ticker before it in its sentence, else the one
    after it there, else the last one named before its sentence ("It is the largest holding")."""
    after = _after(tickers, m.end(), hi)
    if after is not None and _behind().search(m.string, m.end(), after.start):
        after = None  # "la segunda mayor contribución tras OEE": OEE is the one ahead of it
    subjects = [t for t in tickers if not referent(m.string, t)]  # not "after CGL"
    return (  # a ticker inside the phrase is its subject: "by weight, AXO ranks 1st of 10"
        _before(subjects, lo, m.end())
        or after
        or _before(subjects, 0, lo)
        or _before(tickers, 0, lo)
    )


@cache
def _behind() -> re.Pattern[str]:
    """The words that name who stands ahead, right before that ticker ("tras", "behind")."""
    words = "|".join(f"(?:{f})" for f in grouped("runner_up").get("behind", ()))
    return re.compile(rf"(?<!\w)(?:{words})\s+$" if words else r"(?!)")


def _ranked(
    s: DraftScan, m: re.Match[str], tickers: list[Claim]
) -> tuple[Claim, dict[str, Any], dict[str, Any] | None] | None:
    """The sentence's subject, the answer's own ranks and the subject's row in them (None when
    it holds none); None when the sentence names no holding or the answer called no ranks."""
    case, text, starts, results = s.case, s.text, s.starts, s.results
    lo, hi = _sentence(starts, m.start(), len(text))
    subject = _subject(tickers, lo, m, hi) if tickers else _only_ticker(case, m.start())
    ranks = _ranks(case, results)
    if subject is None or ranks is None:
        return None
    row = next(
        (
            p
            for p in ranks["positions"]
            if isinstance(p, dict) and p.get("ticker") == subject.symbol
        ),
        None,
    )
    return subject, ranks, row


def _only_ticker(case: Case, at: int) -> Claim | None:
    """The subject of a draft that names no ticker ("Answer: 0.00% of P002's day return ...
    contribution rank 8 of 25"): the one ticker every call of the trace is about, if one."""
    called = {e.ticker for e in case.trace.events if e.ticker}
    if len(called) != 1:
        return None
    symbol = called.pop()
    return Claim(symbol, at, at, "ticker", symbol=symbol)


_BRACKET_PLACE = re.compile(
    r"[^().;\n]{0,40}?\((?:[^(),]{1,20},\s*)?"
    r"((?P<place>\d{1,3})(?:st|nd|rd|th|\.?[ºª°])\s+(?:of|out\s+of|de)\s+(?P<count>\d{1,3}))\s*\)"
)
"""A place out of the positions in brackets after a ranking, counted from the top whatever
end the ranking names ("the smallest position in P003 (0.38%, 19th of 19)")."""


_RETURN_NAMED = re.compile(
    r"\s+(?:(?:day(?:'s)?|daily|one-day|percentage|percent)\s+)?(?:return|performance|"
    r"percentage\s+(?:gain|loss|move)|%\s+(?:gain|loss|move)|move|rendimiento|retorno|"
    r"variación|evolución)(?!\w)"
)
"""The measure said after "best" or "worst" ("the worst return in P002"): by the day's return
only, not by what the holding added."""


def _ranking(s: DraftScan, m: re.Match[str]) -> Reason | None:
    case, text, folded, tickers = s.case, s.text, s.folded, s.tickers
    found = _ranked(s, m, tickers)
    if found is None:
        return None
    subject, ranks, row = found
    kind = m.lastgroup or ""
    lo = _sentence(s.starts, m.start(), len(text))[0]
    said = _named_measure(folded, lo, m) or _opening_measure(folded, lo, m.start())
    if said and said.split("_")[0] != kind.split("_")[0]:  # "the 10th-largest position by
        kind = f"{said.split('_')[0]}_{kind.split('_')[-1]}"  # contribution": by contribution
    rank = row.get(_RANK_FIELD.get(kind, "")) if row else None
    count = ranks.get("positions_count")
    if not isinstance(rank, int) or not isinstance(count, int):
        return None
    place = count - rank + 1 if kind.endswith("_bottom") else rank
    wanted, opens = _place(folded, m.start())
    if _count_before(folded, m.start())[0] is None:
        wanted = _count_inside(folded[m.start() : m.end()]) or wanted  # "puesto 22 de 25"
    out_of = re.search(r"(?:of|de)\s+(?:its\s+|the\s+)?(\d{1,3})", folded[m.start() : m.end()])
    lead = _lead().search(folded, 0, opens)
    if lead is not None:
        opens = lead.start()
    inner = re.match(r"([^\W\d_]+|\d+(?:st|nd|rd|th)?)[-\s]", folded[m.start() : m.end()])
    if inner and (inner.group(1) in count_words() or inner.group(1)[:1].isdigit()):
        word = inner.group(1)
        wanted = int(re.sub(r"\D", "", word)) if word[:1].isdigit() else count_words()[word]
    case.bound.append((opens, m.end()))
    case.bound += _label_ranks(folded, m.start())
    line_end = folded.find("\n", m.end())
    said_to = min(m.end() + 24, len(folded) if line_end < 0 else line_end)
    keys = _named_keys(folded[m.start() : said_to], kind)  # "contribution rank: 3", "by P&L"
    places = _places(row, kind, count, keys) if keys else {place} | _places(row, kind, count)
    if (
        re.search(r"(?:best|worst)$", folded[m.start() : m.end()])
        and row
        and not _RETURN_NAMED.match(folded, m.end())
    ):  # "fifth-best": by return or by what it added, both computed; "worst return": by return
        other = row.get("pnl_rank")
        if isinstance(other, int):
            places.add(count - other + 1 if kind.endswith("_bottom") else other)
    restated = _BRACKET_PLACE.match(folded, m.end())
    if restated is not None:  # "the second-worst performer in P002 (24th of 25)": top down
        case.bound.append(restated.span(1))
        if int(restated["place"]) != rank or int(restated["count"]) != count:
            return _contradicted(
                f'"{text[restated.start(1) : restated.end(1)]}" restates the place of '
                f'"{text[m.start() : m.end()]}" as {restated["place"]} of '
                f"{restated['count']}, but {subject.symbol} is at place {rank} of {count}",
                restated.span(1),
            )
    holds = wanted in places and (out_of is None or int(out_of.group(1)) == count)
    if _both_named(folded[lo:said_to], kind):  # "by contribution and P&L": by each
        holds = holds and _places(row, kind, count, ("contribution_rank", "pnl_rank")) == {wanted}
    if _ONE_OF.search(folded, max(opens - 40, 0), opens) and min(places) <= 5:
        holds = True  # "one of P002's smallest holdings": among the five at that end
    what = kind.replace("_top", "").replace("_bottom", " from the bottom").replace("pnl", "day P&L")
    if _NOT_RANKED.search(folded, max(opens - 30, 0), opens):  # "it was not the top contributor"
        if not holds:
            return None
        return _contradicted(
            (
                f'"{text[opens : m.end()]}" denies {subject.symbol} place {wanted}, but by {what} '
                f"it is at place {place} of {count} in portfolio {ranks.get('portfolio_id')}"
            ),
            m.span(),
        )
    also = _second_measure(folded, m.end(), kind) if holds else ""
    second = _places(row, also, count, _second_keys(folded, m.end(), also)) if also else set()
    if also and wanted not in second:  # "by contribution and return"
        held = " or ".join(map(str, sorted(second)))
        return _contradicted(
            f'"{text[m.start() : m.end()]}" places {subject.symbol} at {wanted} by '
            f"{also.split('_')[0]} too, but by it it is at place {held} of {count}",
            m.span(),
        )
    if holds:
        return None
    return _contradicted(
        (
            f'"{text[m.start() : m.end()]}" ranks {subject.symbol} at place {wanted}, but by '
            f"{what} it is at place {place} of {count} in portfolio {ranks.get('portfolio_id')}"
        ),
        m.span(),
    )


_ENDED_BEFORE = re.compile(
    r"(?<!\w)(?:snapped|snapping|snaps?|broke|breaking|breaks|ended|ending|ends|halted|halting|"
    r"halts?|stopped|stopping|stops|rompió|rompe|rompiendo|cortó|corta|cortando|puso\s+fin\s+a|"
    r"pone\s+fin\s+a)\s+(?:(?:a|an|its|the|su|una|la)\s+)?(?:[\w-]+\s+){0,2}$"
)
_ENDED_AFTER = re.compile(
    r"\s+(?:(?:has|had)\s+)?(?:ended|is\s+over|was\s+over|came\s+to\s+an\s+end|was\s+broken|"
    r"was\s+snapped|ends|terminó|se\s+rompió|llegó\s+a\s+su\s+fin|se\s+cortó)(?!\w)"
)
"""A streak said to have ended ("snapping a losing streak", "the losing streak ended", "rompió
su racha bajista")."""


_DENIED_RUN = re.compile(
    r"(?:(?<!\w)(?:not|never|no|nunca|sin\s+que)|n['’]t)\s+(?:(?:is|was|be|been|es|sea|fue|era|"
    r"marks?|marca|supone|extends?|extiende)\s+)?(?:(?:its|a|the|his|her|su|una|la|el)\s+)?$"
)
"""A negation right before a streak ("not its third straight decline", "no es su cuarta caída
consecutiva", "sin que sea su tercera caída consecutiva")."""


def _streak(s: DraftScan, m: re.Match[str]) -> Reason | None:
    case, text, folded, starts, tickers, results = s.parts()
    lo, hi = _sentence(starts, m.start(), len(text))
    subject = _subject(tickers, lo, m, hi)
    if subject is None:
        return None
    trend = next(
        (
            r["streak"]
            for r in results
            if r.get("ticker") == subject.symbol and isinstance(r.get("streak"), dict)
        ),
        None,
    )
    if trend is None:
        return None
    said, opens = _count_before(folded, m.start())
    judged = _JUDGED_BEFORE.search(folded, max(m.start() - 12, 0), m.start())
    if said is None and judged is not None:  # "a second small loss in a row": the adjective
        said, opens = _count_before(folded, judged.start())  # is `verifier.rules.qualities`'
    if said is None:  # "closed down for three sessions in a row": the count inside the phrase
        said = _count_inside(folded[m.start() : m.end()])
    after = _COUNT_AFTER.match(folded, m.end())
    if said is None and after is not None:  # "la racha bajista es de una sola sesión"
        said = 1 if after.group("today") else _count_said(after.group("n") or after.group("bare"))
    one = _ONE_BEFORE.search(folded, max(m.start() - 60, 0), m.start())
    if said is None and one is not None:
        said, opens = 1, one.start()
    current = _CURRENT.search(folded, max(opens - 20, 0), opens)
    if current is not None:  # "the current winning streak": the run as of the report day
        opens = current.start()
    lead = _lead().search(folded, 0, opens)
    if lead is not None:
        opens = lead.start()
    direction = m.lastgroup or ""
    if direction == "either" and after is not None and said is not None:
        if (
            after.group("up")
            or after.group("up_after")
            or after.group("up_paren")
            or after.group("up_bare")
        ):
            direction = "up"  # "the streak counter shows a single up session"
        elif (
            after.group("down")
            or after.group("down_after")
            or after.group("down_paren")
            or after.group("down_bare")
        ):
            direction = "down"  # "its current streak is just one session (down on 2024-12-31)"
    sessions = trend.get("sessions")
    ended = _ENDED_BEFORE.search(folded, max(m.start() - 40, 0), m.start()) or _ENDED_AFTER.match(
        folded, m.end()
    )
    if ended is not None and direction in ("up", "down"):  # "snapping a losing streak", "the
        # losing streak ended": the run of that way ended on the report day, which went the other
        holds = trend.get("direction") not in (direction, None) and sessions == 1
        if holds and said is not None:  # "snapped a three-day losing streak": the run before
            return _contradicted(  # the current one is in no result, nor its length
                f'"{text[opens : m.end()]}" gives the ended run a length, but the trace holds '
                f"only {subject.symbol}'s current streak ({trend.get('direction')} for "
                f"{sessions} session(s))",
                (opens, m.end()),
            )
        case.bound.append((min(ended.start(), m.start()), max(ended.end(), m.end())))
        if holds:
            return None
        return _contradicted(
            f'"{text[m.start() : m.end()]}" is said to have ended, but the trace has '
            f"{subject.symbol}'s streak {trend.get('direction')} for {sessions} session(s) since "
            f"{trend.get('since_session')}",
            m.span(),
        )
    holds = direction in ("either", trend.get("direction")) and isinstance(sessions, int)
    if holds and isinstance(sessions, int):
        holds = sessions == said if said is not None else sessions >= 2
    if _DENIED_RUN.search(folded, max(opens - 30, 0), opens) and isinstance(sessions, int):
        case.bound.append((opens, m.end()))  # "not its third straight decline": the run denied
        if not holds:
            return None
        return _contradicted(
            f'"{text[opens : m.end()]}" is denied, but the trace has {subject.symbol}\'s streak '
            f"{trend.get('direction')} for {sessions} session(s) since {trend.get('since_session')}",
            (opens, m.end()),
        )
    case.bound.append((opens, after.end() if after is not None and said is not None else m.end()))
    start = _streak_start(case, folded, m.end(), hi)
    if holds and start is not None:
        date_claim, joint = start
        since = str(trend.get("since_session") or "")
        said_days = {(y or int(since[:4] or 0), mo, d) for y, mo, d in date_claim.dates if d}
        if since[:4].isdigit() and (int(since[:4]), int(since[5:7]), int(since[8:10])) in said_days:
            case.bound.append(joint)
        else:
            holds = False
    if holds:
        return None
    run = f"{trend.get('direction')} for {sessions} session(s) since {trend.get('since_session')}"
    return _contradicted(
        (
            f'"{text[m.start() : m.end()]}" says of {subject.symbol} a run the trace does not '
            f"hold: its streak is {run}"
        ),
        m.span(),
    )


def _news_order(
    text: str,
    m: re.Match[str],
    starts: list[int],
    quotes: list[Claim],
    results: list[dict[str, Any]],
    case: Case,
) -> Reason | None:
    """ "The most recent was \"...\"": the quote nearest the word, held against the times of
    every headline of the search result that holds it."""
    lo, hi = _sentence(starts, m.start(), len(text))
    near = [q for q in quotes if lo <= q.start < hi]
    if not near:
        return None
    quote = min(near, key=lambda q: abs(q.start - m.end()))
    items = _news_items(results, quote)
    stamps = [str(i.get("published_at")) for i in items if i.get("published_at")]
    mine = [str(i.get("published_at")) for i in items if _same(i, quote) and i.get("published_at")]
    if not stamps or not mine:
        return None
    latest = (m.lastgroup or "") == "latest"
    case.bound.append(m.span())
    if (max(mine) == max(stamps)) if latest else (min(mine) == min(stamps)):
        return None
    return _contradicted(
        (
            f'"{text[m.start() : m.end()]}" places {quote.text} '
            f"{'last' if latest else 'first'} among {len(stamps)} headlines, but it came at "
            f"{mine[0]} (the search has {min(stamps)} to {max(stamps)})"
        ),
        m.span(),
    )


def _same(item: dict[str, Any], quote: Claim) -> bool:
    headline = item.get("headline") or item.get("title") or item.get("text")
    return isinstance(headline, str) and quoted_by(quote.text)(headline)


def _news_items(results: list[dict[str, Any]], quote: Claim) -> list[dict[str, Any]]:
    """The items of the news result that holds the quote."""
    for result in results:
        for key in ("news", "items", "headlines"):
            items = result.get(key)
            if isinstance(items, list):
                rows = [i for i in items if isinstance(i, dict)]
                if any(_same(i, quote) for i in rows):
                    return rows
    return []


def _quotes_around(quotes: list[Claim], m: re.Match[str]) -> tuple[Claim, Claim] | None:
    """The quotes a comparison word stands between ("\"A\" ran on ..., ahead of \"B\"")."""
    before = [q for q in quotes if q.end <= m.start() and m.start() - q.end < 60]
    after = [q for q in quotes if q.start >= m.end() and q.start - m.end() < 12]
    return (before[-1], after[0]) if before and after else None


def _quote_order(
    text: str,
    m: re.Match[str],
    pair: tuple[Claim, Claim],
    results: list[dict[str, Any]],
    case: Case,
) -> Reason | None:
    """One headline said to come before ("ahead of") or after ("behind") another."""
    first, second = pair
    times = []
    for quote in pair:
        found = [
            str(i["published_at"])
            for i in _news_items(results, quote)
            if _same(i, quote) and i.get("published_at")
        ]
        if not found:
            return None
        times.append(found[0])
    case.bound.append(m.span())
    earlier = (m.lastgroup or "") == "above"  # "ahead of": came first
    if (times[0] < times[1]) == earlier and times[0] != times[1]:
        return None
    return _contradicted(
        (
            f'{first.text} "{text[m.start() : m.end()]}" {second.text}: the first came at '
            f"{times[0]}, the second at {times[1]}"
        ),
        (first.start, second.end),
    )


_OF_TOTAL = re.compile(r"^\s+(?:of|de)\s+(?:its|the|their|sus|las|los)?\s*$")


def _count(case: Case, text: str, m: re.Match[str], results: list[dict[str, Any]]) -> Reason | None:
    """ "5 gainers", "3 of its 10 positions fell": the count right before the words, held
    against the counts of the answer's portfolio's ranks."""
    ranks = _ranks(case, results)
    before = [f.claim for f in case.figures if f.claim.end <= m.start() and f.claim.readings]
    if ranks is None or not before:
        return None
    count = before[-1]
    if text[count.end : m.start()].strip():
        return None
    total = None
    if len(before) > 1 and _OF_TOTAL.search(text[before[-2].end : count.start]):
        total, count = count, before[-2]  # "3 of its 10 positions": 10 is the total
    said = count.readings[0].value * count.scale
    bare = " ".join(m.group().split()) in _BARE  # "7 up, 18 down": a whole count
    if bare and (count.kind != "number" or count.unit or said != int(said) or count.sign):
        return None
    which = m.lastgroup or ""
    held = ranks.get(which)
    case.bound.append((count.start, m.end()))
    wrong = not isinstance(held, int) or said != held
    if total is not None:
        whole = total.readings[0].value * total.scale
        wrong = wrong or whole != ranks.get("positions_count")
    if not wrong:
        return None
    return _contradicted(
        (
            f'"{text[count.start : m.end()]}": portfolio {ranks.get("portfolio_id")} had '
            f"{ranks.get('gainers')} gainers and {ranks.get('decliners')} decliners of "
            f"{ranks.get('positions_count')} positions"
        ),
        (count.start, m.end()),
    )


_BARE = frozenset({"up", "down", "higher", "lower", "al alza", "a la baja", "en verde", "en rojo"})
"""Counted words that say only which way ("7 up, 18 down", "7 al alza y 18 a la baja"): a
count before one is a whole number of positions, never a figure of another kind."""


_MEMBER_LISTS = {
    "detractors": "detractors",
    "contributors": "top_contributors",
    "gainers": "top_movers",
    "decliners": "bottom_movers",
}
_MEMBER_SIGN = {
    "detractors": ("day_pnl", -1),
    "contributors": ("day_pnl", 1),
    "gainers": ("day_return_pct", 1),
    "decliners": ("day_return_pct", -1),
}
_COUNTED_GROUPS = frozenset({"gainers", "decliners"})
"""The groups whose whole count the ranks give: "one of the 18 decliners" is one that fell."""
_SIZED = re.compile(
    r"(?<!\w)(?:\d+|two|three|four|five|biggest|largest|top|main|leading|best|worst|weakest|"
    r"mayores|principales|más|mejores|peores)(?!\w)"
)


def _membership(s: DraftScan, m: re.Match[str]) -> Reason | None:
    """ "One of its detractors" (the holding's day P&L is negative), "among the five biggest
    detractors" (it is in the ranks' list of five): held against the answer's own ranks."""
    case, text, folded, tickers = s.case, s.text, s.folded, s.tickers
    found = _ranked(s, m, tickers)
    if found is None:
        return None
    subject, ranks, row = found
    group = m.lastgroup or ""
    negated = _NOT_AMONG.search(folded, max(m.start() - 30, 0), m.start())
    groups = [group]
    other = _OR_OTHER.match(folded, m.end()) if negated else None
    if other is not None:  # "no está entre los cinco principales contribuidores ni detractores"
        groups.append(next(g for g, words in _OTHER_WORDS.items() if words.search(other.group(1))))
    size = _SIZED.search(folded, m.start(), m.end())
    sized = size is not None
    if size is not None and size.group().isdigit() and group in _COUNTED_GROUPS:
        # "one of the 7 gainers" where the portfolio had 7: one that rose, not one of the list
        # of five (a count that is neither is the count rule's to reject)
        sized = int(size.group()) != ranks.get(group)
    held_all = [_member(subject.symbol, ranks, row, name, sized) for name in groups]
    if None in held_all:
        return None
    case.bound.append(
        (negated.start() if negated else m.start(), other.end() if other else m.end())
    )
    for name, held in zip(groups, held_all, strict=True):
        if held == bool(negated):
            said = "outside" if negated else "among"
            return _contradicted(
                (
                    f'"{text[m.start() : m.end()]}" places {subject.symbol} {said} the {name} of '
                    f"portfolio {ranks.get('portfolio_id')}, but the trace does not: "
                    f"{_MEMBER_LISTS[name]} {ranks.get(_MEMBER_LISTS[name])}"
                ),
                m.span(),
            )
    return None


def _member(
    symbol: str, ranks: dict[str, Any], row: dict[str, Any] | None, group: str, sized: bool
) -> bool | None:
    """Whether the holding is in the ranks' list of the group (a sized one: "the five biggest
    detractors") or of its sign ("one of its detractors"); None where the trace cannot say."""
    if sized:
        listed = ranks.get(_MEMBER_LISTS[group])
        return symbol in listed if isinstance(listed, list) else None
    key, sign = _MEMBER_SIGN[group]
    value = row.get(key) if row else None
    return value * sign > 0 if isinstance(value, int | float) else None


_NOT_RANKED = re.compile(
    r"(?<!\w)(?:not|isn['’]t|wasn['’]t|never|no|nunca|ni|nor)\s+(?:(?:es|fue|era|was|is|even|quite)\s+)?"
    r"(?:(?:the|el|la|its|su|[\w-]+['’]s)\s+)?$"
)
"""A negation right before a place ("it was not the top contributor", "no es la mayor
posición"): the holding is at another place."""
_NOT_AMONG = re.compile(
    r"(?<!\w)(?:not|isn['’]t|wasn['’]t|aren['’]t|weren['’]t|never|no|nunca|ni|nor)\s+"
    r"(?:(?:está|estuvo|figura|figuró|aparece|apareció|quedó|was|is|one|even|listed|ranked)\s+){0,2}"
    r"(?:ni\s+)?$"
)
"""A negation right before a membership ("is not among", "no está entre"): the holding is
outside that list."""
_OTHER_WORDS = {
    "detractors": re.compile(r"detractors|detractores|lastres"),
    "contributors": re.compile(r"contributors|contribuidores|contribuyentes"),
}
_OR_OTHER = re.compile(
    r"\s+(?:ni|nor|or|o)\s+(?:(?:among|entre)\s+)?(?:(?:the|los|sus|its)\s+)?(?:(?:\d|two|three|"
    r"four|five|dos|tres|cuatro|cinco)\s+)?(?:(?:mayores|principales|top|biggest|largest)\s+)?"
    r"(detractors|detractores|lastres|contributors|contribuidores|contribuyentes)(?!\w)"
)
"""A second list denied with the first ("ni detractores", "nor detractors")."""


_GAP = re.compile(r"[\s,]*(?:(?:in|of|the|its|on|today|del?|la|el|día|cartera|p\d{3,})[\s,]+)*")


def _next_to(folded: str, end: int, start: int) -> bool:
    """A place's words and "behind X" with only where and when between ("the second-largest
    contribution of the day behind OEE")."""
    if not 0 <= start - end <= 30:
        return False
    gap = _GAP.match(folded, end, start)
    return gap is not None and gap.end() == start


_CONTRIBUTION_WORD = re.compile(r"(?<!\w)(?:contrib\w*|ctr|aporte|aportación|aportó)(?!\w)")
_PNL_WORD = re.compile(r"(?<!\w)(?:p&l|pnl|dollars?|profit|resultado)(?!\w)")


def _both_named(words: str, kind: str) -> bool:
    """Whether a place by P&L names both of its ranks ("by contribution and P&L", "por
    contribución y por resultado"): it must hold by each."""
    return (
        kind.startswith("pnl")
        and bool(_CONTRIBUTION_WORD.search(words))
        and bool(_PNL_WORD.search(words))
    )


def _named_keys(words: str, kind: str) -> tuple[str, ...]:
    """The one rank a place by P&L names where its words say which: "contribution 12/19" is
    the contribution's place, "rank 9 of 25 by P&L" the dollar P&L's (two holdings whose
    contributions round alike share a place the dollars tell apart); () where both or neither
    are said."""
    if not kind.startswith("pnl"):
        return ()
    contribution, pnl = _CONTRIBUTION_WORD.search(words), _PNL_WORD.search(words)
    if contribution and not pnl:
        return ("contribution_rank",)
    if pnl and not contribution:
        return ("pnl_rank",)
    return ()


_RESTATED = re.compile(r"[\s,]*(?:i\.e\.?|that\s+is|or|es\s+decir|o\s+sea|o)[\s,]*$")
"""What joins a place to the same place said another way ("21st of 25, i.e. 5th from the
bottom")."""


def _restated_measure(case: Case, folded: str, lo: int, m: re.Match[str]) -> str:
    """The measure of the place a place restates ("By weight it ranks 21st of 25, i.e. 5th from
    the bottom"): that of the place right before it, where only a restating word stands between."""
    before = [
        p for p in runner_up_scan().finditer(folded) if lo <= p.start() and p.end() <= m.start()
    ]
    if not before or not _RESTATED.fullmatch(folded, before[-1].end(), m.start()):
        return ""
    prior = before[-1]
    return _named_measure(folded, lo, prior) or _measure(case, lo, prior.start())


def _places(
    row: dict[str, Any] | None, kind: str, count: int, named: tuple[str, ...] = ()
) -> set[int]:
    """The places a row holds by a ranking, top down (by P&L, its contribution's too, unless
    the words `named` one of them)."""
    if not row:
        return set()
    keys = named or (
        ["pnl_rank", "contribution_rank"] if kind.startswith("pnl") else [_RANK_FIELD[kind]]
    )
    found = {row[k] for k in keys if isinstance(row.get(k), int)}
    return {count - r + 1 for r in found} if kind.endswith("_bottom") else found


_LISTS = {
    "return_top": "top_movers",
    "return_bottom": "bottom_movers",
    "pnl_top": "top_contributors",
    "pnl_bottom": "detractors",
}
"""The ranks' ordered lists of five, by ranking."""


_MEASURE_WORDS = (
    (
        "pnl_top",
        re.compile(
            r"contrib\w*|p&l|pnl|aporte|aportación|resultado|restaron|restó|lastres|detractors?"
        ),
    ),
    (
        "weight_top",
        re.compile(r"weight\w*|peso|ponderación|size|tamaño|valor de mercado|market value"),
    ),
    ("return_top", re.compile(r"returns?|performance|rentabilidad|rendimiento|variación")),
)


def _line_measure(folded: str, lo: int, at: int) -> str:
    """The one ranking the measure words of a line name before a place ("• Contribution:
    -0.08%; rank 19 of 25"); "" where they name none or several."""
    line = _RETURN_OF_A_CONTRIBUTION.sub(" ", folded[lo:at])
    kinds = {
        kind
        for kind, word in _MEASURE_WORDS
        if re.search(rf"(?<!\w)(?:{word.pattern})(?!\w)", line)
    }
    return kinds.pop() if len(kinds) == 1 else ""


_RETURN_OF_A_CONTRIBUTION = re.compile(
    r"(?<=contribución)\s+al\s+rendimiento|(?<=contribution)\s+to\s+(?:the\s+)?(?:portfolio['’]s\s+)?return"
)
"""The return a contribution is to ("Contribución al rendimiento de la cartera: -0,10%"): the
portfolio's, no second measure of the line."""


_RANK_WORD = re.compile(
    r"(?<!\w)(?:ranks?|rankings?|clasificación|puestos|standing|stood|placement)(?!\w)"
)
_HEADING_END = re.compile(r":[\s*_]*$")


def _label_ranks(folded: str, at: int) -> list[tuple[int, int]]:
    """The rank words of a place's label on its own line, before a colon ("Where AXO stood in
    P002 on Tuesday: 6th of 25 by return", "Clasificación de HEXS en P003: puesto 13 de 19") or
    in a table row's cells before it, and of the heading over it (`_heading_ranks`)."""
    line = folded.rfind("\n", 0, at) + 1
    colon = folded.rfind(":", line, at)
    if colon < 0:  # a table row's label cell: "| Rank by contribution | 8th of 25 |"
        colon = folded.rfind("|", line, at) if folded.startswith("|", line) else -1
    own = [w.span() for w in _RANK_WORD.finditer(folded, line, colon)] if colon >= 0 else []
    return own + _heading_ranks(folded, at)


def _heading_ranks(folded: str, at: int) -> list[tuple[int, int]]:
    """The rank words of the heading over a list of places ("Ranks for PQN within P003 (19
    positions) on Dec 31:" above "- Contribution rank: 3"): the nearest line above the place's
    own that ends with a colon, in its block or one blank line above it."""
    end, blank = folded.rfind("\n", 0, at), False
    while end > 0:
        start = folded.rfind("\n", 0, end) + 1
        line = folded[start:end]
        if not line.strip():
            if blank:
                return []
            blank, end = True, start - 1  # one blank line may stand under the heading
            continue
        if _HEADING_END.search(line):
            return [w.span() for w in _RANK_WORD.finditer(folded, start, end)]
        end = start - 1
    return []


_RANK_HEAD = re.compile(r"(?<!\w)(?:ranks?|rankings?|puestos?)\s*[—–:|-]+\s*")
"""A label over the places that follow it on its line ("Ranks — contribution 8/19")."""


def _named_measure(folded: str, lo: int, m: re.Match[str]) -> str:
    """The ranking a place names itself: the measure right before it ("contribution rank 8 of
    25", "peso: puesto 3") or after "by"/"por" right after it ("rank 8 of 25 by weight") or
    before its label's colon ("Rank by P&L: 9 of 25")."""
    before = folded[max(lo, m.start() - 24) : m.start()].rstrip(" :(")
    after = re.match(
        r"[*_]{0,2}\s+(?:by|on|por)\s+(?:su\s+|la\s+|el\s+)?(p&l|\w+)",
        folded[m.end() : m.end() + 30],
    ) or re.search(
        r"(?<!\w)(?:by|por)\s+(?:su\s+|la\s+|el\s+|day\s+|its\s+|the\s+)?(p&l|\w+)"
        r"(?:\s+del\s+día|\s+diari[oa])?(?:\s+(?:en|dentro\s+de)\s+la\s+cartera)?,?\s*"
        r"(?::|\)?$|[=]?\s*(?:el\s+)?(?:puesto\s+|number\s+)?#?\d)",
        m.group(),
    )  # "Rank by P&L: 9 of 25", "(15th by P&L)", "puesto por peso 5 de 25"
    opening = _MEASURE_LEAD.search(folded, lo, m.start())  # "On contribution, it ranked 1st"
    inside = re.match(r"p&l|\w+", m.group())  # "contribution 8/19", "peso: puesto 3 de 19"
    by = re.search(  # "puesto por valor de mercado 21 de 25", "by market value, 21 of 25"
        r"(?<!\w)(?:by|por)\s+(?:su\s+|la\s+|el\s+|its\s+|the\s+)?(valor\s+de\s+mercado|market\s+value)",
        m.group(),
    )
    said = [
        " ".join(by[1].split()) if by else after[1] if after else "",
        inside.group() if inside else "",
    ]
    for test in (  # the place's own words first, then what stands before it, then its clause's
        lambda word: any(word.fullmatch(w) for w in said),
        lambda word: re.search(rf"(?:{word.pattern})$", before),
        lambda word: opening and word.fullmatch(opening[1]),
    ):
        for kind, word in _MEASURE_WORDS:
            if test(word):
                return kind
    return ""


_SECOND = re.compile(
    r"(?:[*_]{0,2}\s+(?:by|on|por)\s+(?:su\s+|la\s+|el\s+|its\s+)?(?:p&l|\w+))?\s*(?:,|\s(?:and|y))\s+"
    r"(?:(?:by|on|por)\s+)?(?:su\s+|la\s+|el\s+|its\s+)?(p&l|\w+)"
    r"(?=\s*(?:[.;,)\n]|$|alike|both|too|as\s+well|también))"
)


def _second_measure(folded: str, end: int, kind: str) -> str:
    """The second ranking a place is said by ("17th of 25 by contribution and return"), top or
    bottom as the first; "" where one measure is said."""
    m = _SECOND.match(folded, end)
    if m is None:
        return ""
    found = next((k for k, word in _MEASURE_WORDS if word.fullmatch(m[1])), "")
    if not found or found.split("_")[0] == kind.split("_")[0]:
        return ""
    return f"{found.split('_')[0]}_{kind.split('_')[-1]}"


def _second_keys(folded: str, end: int, kind: str) -> tuple[str, ...]:
    """The one rank of P&L the second measure's word names ("and contribution": its own)."""
    m = _SECOND.match(folded, end)
    return _named_keys(m[1], kind) if m else ()


_OPENING = re.compile(
    r"[\s*_#>-]*(?:by|on|in\s+terms\s+of|por|en\s+cuanto\s+a)\s+"
    r"(?:su\s+|la\s+|el\s+|its\s+|the\s+)?(?:dollar\s+|day\s+|daily\s+)?"
    r"(p&l|\w+(?:\s+de\s+mercado|\s+value)?)\s*,"
)


def _opening_measure(folded: str, lo: int, at: int) -> str:
    """The ranking a sentence opens with before its place ("By contribution, it is the
    tenth-largest holding", "Por aportación, fue la décima mayor posición")."""
    m = _OPENING.match(folded, lo, at)  # anchored at the sentence's start
    if m is None:
        return ""
    return next((kind for kind, word in _MEASURE_WORDS if word.fullmatch(m[1])), "")


_MEASURE_AFTER = re.compile(
    r"[*_]{0,2}\s+(?:by|on|por)\s+(?:su\s+|la\s+|el\s+)?(?:contrib\w*|p&l|pnl|weight\w*|peso|tamaño|size|"
    r"returns?|rentabilidad|aportación)(?!\w)"
)
_MEASURE_LEAD = re.compile(
    r"(?:^|[.;:]\s+|\s)(?:on|by|in\s+terms\s+of|por|en\s+cuanto\s+a)\s+(?:its\s+|su\s+|la\s+|el\s+)?"
    r"(?:(?:day|daily|day's|dollar|diaria)\s+)?(p&l|\w+)[,\s]+(?:(?:it|the\s+stock|the\s+position|se|la\s+posición|[a-z]{1,5})\s+)?$"
)
"""The measure a clause opens with, the place following it in that clause ("on contribution it
ranked 1st", "por contribución se sitúa en el 8.º lugar")."""


def _measure(case: Case, lo: int, at: int) -> str:
    """The ranking a place right after a figure speaks of ("contributing 0.31% — second only
    to OEE": by what it added): the nearest checked figure before it in its sentence, by its
    key, top or bottom by its sign; "" where there is none."""
    before = [f for f in case.figures if lo <= f.claim.start < at and f.in_scope]
    if not before:
        return ""
    fact = before[-1].in_scope[0]
    key = fact.key
    if "weight" in key:
        return "weight_top"
    kind = "pnl" if "contribution" in key or key.endswith("day_pnl") else "return"
    return f"{kind}_{'bottom' if fact.value < 0 else 'top'}"


_LIST_JOIN = re.compile(r"[*_]{0,2}(?:\s*,\s*(?:and\s+|y\s+)?|\s+(?:and|y|&)\s+)[*_]{0,2}")


def _leaders(text: str, tickers: list[Claim], first: Claim) -> list[str]:
    """The tickers of a list that opens with `first` ("behind OEE and AXO", "tras OEE y AXO")."""
    found = [first.symbol]
    at = tickers.index(first) + 1
    end = first.end
    while at < len(tickers) and _LIST_JOIN.fullmatch(text, end, tickers[at].start):
        found.append(tickers[at].symbol)
        end = tickers[at].end
        at += 1
    return found


def _runner_up(s: DraftScan, m: re.Match[str], ranked: list[re.Match[str]]) -> Reason | None:
    """ "Second only to OEE" (by the figure just stated), "the most of any position",
    "second-biggest detractor behind YDLJ": the subject's place and its leader's, held against
    the answer's own ranks and their ordered lists."""
    case, text, folded, starts, tickers = s.case, s.text, s.folded, s.starts, s.tickers
    group = m.lastgroup or ""
    lo = _sentence(starts, m.start(), len(text))[0]
    if group == "behind":
        prior = [r for r in ranked if _next_to(folded, r.end(), m.start())]
        if not prior:
            return None  # a comparison or a time word, not a place
        kind = prior[-1].lastgroup or ""
        wanted = _count_before(folded, prior[-1].start())[0] or _count_inside(prior[-1].group())
        wanted = wanted or 1
    elif any(r.start() < m.end() and m.start() < r.end() for r in ranked):
        return None  # "second-biggest detractor": the ranking's own words (`_ranking`)
    elif any((b := _BRACKET_PLACE.match(folded, r.end())) and b.end() >= m.end() for r in ranked):
        return None  # "the largest position (1st of 10)": the ranking's place (`_ranking`)
    elif group == "place":  # "Contrib: -0.11% (rank 21/25)", "ranked fourth among detractors":
        line = folded.rfind("\n", 0, m.start()) + 1  # a bullet's clauses: "Contribution: x; rank"
        kind = (
            _restated_measure(case, folded, lo, m)  # "21st of 25, i.e. 5th from the bottom"
            or _named_measure(folded, lo, m)  # by the measure
            or _measure(case, lo, m.start())
            or _line_measure(folded, line, m.start())
        )
        # named with it ("contribution rank 8 of 25"), else the figure just stated; top down unless
        bottom = re.search(r"detract|worst|lowest|loser|bottom|cola", m.group())  # from the bottom
        kind = kind.replace("_top", "_bottom") if bottom else kind.replace("_bottom", "_top")
        numbers = [int(n) for n in re.findall(r"\d+", m.group())]
        wanted = _count_inside(m.group()) or 0
        out_of = numbers[1] if len(numbers) > 1 else None
    else:
        kind = _measure(case, lo, m.start())
        if group == "last":
            kind = kind.replace("_top", "_bottom")
        wanted = 2 if group == "second" else 1
    earlier = [t for t in tickers if t.start < m.start()]  # the leader is not the subject
    found = _ranked(s, m, earlier)
    if not kind or found is None:
        return None
    subject, ranks, row = found
    rank = row.get(_RANK_FIELD.get(kind, "")) if row else None
    count = ranks.get("positions_count")
    if not isinstance(rank, int) or not isinstance(count, int):
        return None
    place = count - rank + 1 if kind.endswith("_bottom") else rank
    if group == "place":
        case.bound.append(m.span())
        if head := _RANK_HEAD.search(folded, folded.rfind("\n", 0, m.start()) + 1, m.start()):
            case.bound.append(head.span())  # "Ranks — contribution 8/19, return 8/19"
        case.bound += _label_ranks(folded, m.start())
        if lead := _MEASURE_LEAD.search(folded, lo, m.start()):
            case.bound.append(lead.span())  # "por tamaño", "on contribution": the place's own
        if by := _MEASURE_AFTER.match(folded, m.end()):
            case.bound.append(by.span())  # "puesto 12.º por tamaño", "2nd of 19 by weight"
        clause = max([lo] + [folded.rfind(c, 0, m.start()) + 1 for c in ",;\n("])
        line_end = folded.find("\n", m.end())
        tail = min(m.end() + 30, len(folded) if line_end < 0 else line_end)
        keys = _named_keys(folded[clause:tail], kind) or _named_keys(
            folded[folded.rfind("\n", 0, m.start()) + 1 : tail], kind
        )
        if opening := _OPENING.match(folded, lo, m.start()):  # "By dollar P&L, 17th of 19"
            keys = _named_keys(opening.group(), kind) or keys
        own = re.search(r"[,;]", folded[m.end() : tail])  # the place's own words, to its comma
        said_to = m.end() + own.start() if own else tail
        also = _second_measure(folded, m.end(), kind)
        second = _places(row, also, count, _second_keys(folded, m.end(), also)) if also else set()
        if also and wanted not in second:  # "by contribution and return"
            held = sorted(second)
            return _contradicted(
                f'"{m.group()}" places {subject.symbol} at {wanted} by {also.split("_")[0]} too, '
                f"but by it it is at place {' or '.join(map(str, held))} of {count}",
                m.span(),
            )
        if _both_named(folded[clause:said_to], kind):  # "by contribution and P&L": by each
            keys = ("contribution_rank", "pnl_rank")
            if _places(row, kind, count, keys) == {wanted} and out_of in (None, count):
                return None
        elif wanted in _places(row, kind, count, keys) and out_of in (None, count):
            return None
        held = sorted(_places(row, kind, count, keys)) or [place]
        return _contradicted(
            f'"{m.group()}" places {subject.symbol} at {wanted}, but by '
            f"{' or '.join(k.replace('_rank', '') for k in keys) if keys else kind.split('_')[0]}"
            f" it is at place {' or '.join(map(str, held))} of {count}",
            m.span(),
        )
    leader = _after(tickers, m.end(), m.end() + 4) if group in ("second", "behind") else None
    listed = ranks.get(_LISTS.get(kind, ""))
    if group in ("second", "behind"):
        if leader is None or not isinstance(listed, list) or not 2 <= wanted <= len(listed) + 1:
            return None
        leaders = _leaders(text, tickers, leader)
        if len(leaders) > 1:  # "third-largest contributor behind OEE and AXO": all ahead of it
            holds = place == wanted and set(listed[: wanted - 1]) == set(leaders)
            ahead = ", ".join(listed[: wanted - 1])
        else:
            holds = place == wanted and listed[wanted - 2] == leader.symbol
            ahead = listed[wanted - 2]
    else:
        holds, ahead = place == 1, ""
    case.bound.append(m.span())
    if holds:
        return None
    what = kind.replace("_top", "").replace("_bottom", " from the bottom").replace("pnl", "day P&L")
    first = f"; the one ahead of place {wanted} is {ahead}" if ahead else ""
    return _contradicted(
        (
            f'"{text[m.start() : m.end()]}" places {subject.symbol} at {wanted}, but by {what} '
            f"it is at place {place} of {count} in portfolio {ranks.get('portfolio_id')}{first}"
        ),
        m.span(),
    )

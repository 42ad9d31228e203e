"""Units said with an amount: its currency ("€1,304.79", "5 euros") and what it counts ("2,897.51
shares"). An amount matched to a value of the trace is a claim of that value in the unit it is
written in: a currency no result holds, or a count of shares for a value that is no quantity,
is `wrong_field`.

The trace's currencies are those its results state (`base_currency`, `currency`); where none
states one, the data's prices are in dollars, as every tool of the product reads them.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterator

from contract.reasons import ReasonCode
from verifier.rules.case import Case, Finding
from verifier.verdict import Reason

_CURRENCY = {
    "USD": r"us\$|\$|usd|dollars?|dólar(?:es)?|dolar(?:es)?",
    "EUR": r"€|eur|euros?",
    "GBP": r"£|gbp|pounds?(?:\s+sterling)?|libras?(?:\s+esterlinas?)?",
    "JPY": r"¥|jpy|yen(?:es)?",
    "CHF": r"chf|francos?\s+suizos?|swiss\s+francs?",
}
_SAID = re.compile("|".join(f"(?P<{code}>{words})" for code, words in _CURRENCY.items()))
_BEFORE = re.compile(rf"(?:{'|'.join(_CURRENCY.values())})\s*$")
_AFTER = re.compile(rf"\s*(?:{'|'.join(_CURRENCY.values())})(?!\w)")
_SHARES_AFTER = re.compile(r"\s+(?:shares|acciones|títulos)(?!\w)")
_LABEL_END = r"(?:\*\*|__)?[ \t]*[:=|][ \t]*(?:\*\*|__)?[ \t]*$"
_SHARES_LABEL = re.compile(rf"(?<!\w)(?:shares|acciones|títulos|quantity|cantidad|qty){_LABEL_END}")
"""A line's label that names shares ("- acciones: 56", "| Shares | 56 |")."""
_POSITIONS_LABEL = re.compile(
    rf"(?<!\w)(?:(?:positions|posiciones|holdings|number\s+of\s+positions|n[º°.]?\s+de\s+posiciones)"
    rf"{_LABEL_END}|(?:sobre|de|of|out\s+of)\s+(?:un|a)\s+total\s+(?:de|of)\s+$)"
)
_POSITIONS_AFTER = re.compile(r"\s+(?:positions|posiciones|holdings)(?=[ \t]*(?:[,.;:)\n]|$))")
"""A count of the portfolio's positions ("25 positions.", "De 25 posiciones,", "- posiciones:
25"); a count followed by what they did ("7 positions rose") is a tally (`relations`)."""
_NEWS_AFTER = re.compile(
    r"\s+(?:news\s+)?(?:headlines?|stories|story|items?|articles?|noticias|titulares|notas)(?!\w)"
)
"""A count of news items ("There were 4 headlines", "Aparecieron 2 noticias")."""
_NEWS_COUNT_KEYS = frozenset({"found", "count"})
"""Keys that count what a news search returned."""
_QUANTITY_KEYS = frozenset({"quantity", "shares", "qty", "volume", "avg_volume", "average_volume"})
"""Keys whose value counts shares: a position's quantity, a session's volume."""
_CURRENCY_KEYS = ("base_currency", "currency")


def check_units(case: Case) -> Iterator[Reason]:
    """Each amount's currency against the trace's, and each count of shares against its
    quantities."""
    text = case.trace.draft or ""
    folded = text.casefold()
    held: set[str] | None = None
    for f in case.figures:
        claim = f.claim
        if not f.in_scope:
            continue
        line = folded.rfind("\n", 0, claim.start) + 1
        counted = _POSITIONS_AFTER.match(folded, claim.end) or _POSITIONS_LABEL.search(
            folded, line, claim.start
        )
        if counted is not None and claim.kind == "number":
            if _counts_positions(case):
                yield from _miscounted(
                    f, {"positions_count"}, claim.text, "the portfolio's positions"
                )
            continue
        news = _NEWS_AFTER.match(folded, claim.end) if claim.kind == "number" else None
        if news is not None:
            yield from _miscounted(
                f, _NEWS_COUNT_KEYS, text[claim.start : news.end()], "news items"
            )
            continue
        shares = _SHARES_AFTER.match(folded, claim.end) or _SHARES_LABEL.search(
            folded, line, claim.start
        )
        if shares is not None:
            said = text[min(claim.start, shares.start()) : max(claim.end, shares.end())]
            yield from _miscounted(f, _QUANTITY_KEYS, said, "shares")
            continue
        if claim.kind != "money":
            continue
        code = _currency_of(folded, claim.start, claim.end)
        if code is None:
            continue
        if held is None:
            held = _currencies(case)
        if code not in held:
            yield Reason(
                rule=ReasonCode.WRONG_FIELD,
                message=(
                    f'"{claim.text}" is stated in {code}, but the trace\'s amounts are in '
                    f"{', '.join(sorted(held))}"
                ),
                span=(claim.start, claim.end),
            )


def _miscounted(f: Finding, keys: Collection[str], said: str, what: str) -> Iterator[Reason]:
    """`wrong_field` where none of the values a count matched is one of `keys`."""
    if not any(x.key in keys for x in f.in_scope):
        yield Reason(
            rule=ReasonCode.WRONG_FIELD,
            message=f'"{said}" counts {what}, but the trace has {f.in_scope[0].describe()}',
            span=(f.claim.start, f.claim.end),
        )


def _counts_positions(case: Case) -> bool:
    """Whether a result of the trace counts the portfolio's positions."""
    return any(f.key == "positions_count" for f in case.evidence.facts)


def _currency_of(folded: str, start: int, end: int) -> str | None:
    """The currency an amount is written in: a symbol or code inside it, or a word right before
    or after it; None where it names none."""
    said = _SAID.search(folded, start, end)
    if said is None:
        said = _AFTER.match(folded, end) or _BEFORE.search(folded, max(start - 12, 0), start)
        if said is None:
            return None
        said = _SAID.search(said.group().strip())
    return said.lastgroup if said is not None else None


def _currencies(case: Case) -> set[str]:
    """The currencies the trace's results state at their top (or in a record right under it:
    a position, a portfolio); dollars where none does."""
    found: set[str] = set()
    for event in case.trace.events:
        result = event.result
        if not isinstance(result, dict):
            continue
        for node in (result, *(v for v in result.values() if isinstance(v, dict))):
            for key in _CURRENCY_KEYS:
                value = node.get(key)
                if isinstance(value, str):
                    found.add(value.upper())
    return found or {"USD"}

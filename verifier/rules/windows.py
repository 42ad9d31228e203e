"""Superlatives over a ticker's windows: "the strongest is the year to date (+32.41%)", "the
weakest is the past week", "Strongest window: year-to-date", "la semana fue la peor ventana".

A trend result lists the ticker's change over each window (week, month, quarter, year to
date); a superlative word said with a window's change states that change is the largest (or
smallest) of them. It holds, and its words are covered, when it is; it is `wrong_relation`
when another window's change is beyond it. Said of no window's figure it binds nothing and
stays `unverified_claim`.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Iterator
from typing import Any

from contract.reasons import ReasonCode
from verifier.periods import sentence_end, sentence_starts
from verifier.rules.case import Case
from verifier.rules.draft_scan import scan_of
from verifier.scanner import fold_aligned
from verifier.verdict import Reason

_SUPERLATIVE = re.compile(
    r"(?<!\w)(?P<word>(?P<top>strongest|best)|(?P<bottom>weakest|worst)|"
    r"(?P<top_es>mejor|más\s+fuerte)|(?P<bottom_es>peor|más\s+débil))"
    r"(?:\s+(?:window|period|stretch|horizon|ventana|periodo|período))?(?!\w)"
)
_WINDOW_KINDS = frozenset({"week", "month", "quarter", "ytd", "year"})
OF_N = re.compile(
    r"(?<!\w)(?:(?P<top>larger|bigger|greater|largest|biggest|mayor)|"
    r"(?P<bottom>smaller|lesser|smallest|menor))"
    r"(?:\s+(?:move|change|one|magnitud|tamaño|amplitud|movimiento))?"
    r"\s+(?:of\s+the|de\s+(?:los|las))\s+(?P<n>two|three|four|dos|tres|cuatro)(?!\w)"
)
"""A window's move ranked among the windows the draft states: "the year-to-date move is the
larger of the two", "el movimiento del trimestre es el de mayor magnitud de los dos"."""
_OF_N_HINT = re.compile(r"(?:of\s+the|de\s+l[ao]s)\s+(?:two|three|four|dos|tres|cuatro)(?!\w)")
_COUNT = {"two": 2, "three": 3, "four": 4, "dos": 2, "tres": 3, "cuatro": 4}
_NAMED = re.compile(
    r"(?<!\w)(?:(?P<ytd>year\s+to\s+date|ytd|acumulado\s+del\s+año|en\s+el\s+año|"
    r"en\s+lo\s+que\s+va\s+de\s+año)|(?P<week>week(?:ly|'s)?|semana|semanal)|"
    r"(?P<month>month(?:ly|'s)?|mes|mensual)|(?P<quarter>quarter(?:ly|'s)?|trimestre|trimestral)|"
    r"(?P<day>today(?:'s)?|the\s+day(?:'s)?|daily|session(?:'s)?|hoy|del\s+día|de\s+la\s+sesión|"
    r"diari[oa]))"
    r"(?!\w)"
)


def window_changes(case: Case) -> dict[str, dict[str, float]]:
    """Per ticker, the change in percent over each window its trend results give."""
    out: dict[str, dict[str, float]] = {}
    for event in case.trace.events:
        result = event.result
        if not isinstance(result, dict) or not isinstance(result.get("changes"), list):
            continue
        ticker = result.get("ticker") or event.ticker
        for row in result["changes"]:
            if isinstance(row, dict) and isinstance(row.get("change_pct"), int | float):
                window = str(row.get("window") or "")
                out.setdefault(str(ticker), {})[window] = float(row["change_pct"])
    return out


def check_window_superlatives(case: Case) -> Iterator[Reason]:
    """Each superlative said with a window's change, held against the ticker's other windows."""
    text = case.trace.draft or ""
    found = list(_SUPERLATIVE.finditer(fold_aligned(text)))
    if not found:
        return
    changes = window_changes(case)
    if not changes:
        return
    starts = sentence_starts(text)
    for m in found:
        hi = sentence_end(starts, m.start(), len(text))
        figure = next(
            (
                f
                for f in case.figures
                if m.end() <= f.claim.start < hi
                and f.in_scope
                and f.claim.unit
                and f.claim.time is not None
                and f.claim.time.kind in _WINDOW_KINDS
            ),
            None,
        )
        if figure is None:
            continue
        facts = [x for x in figure.in_scope if x.ticker in changes]
        if not facts:
            continue
        ticker = str(facts[0].ticker)
        windows: dict[str, Any] = changes[ticker]
        value = facts[0].value
        top = bool(m.group("top") or m.group("top_es"))
        best = max(windows.values()) if top else min(windows.values())
        case.bound.append(m.span())
        if abs(best - value) < 1e-9:
            continue
        said = "largest" if top else "smallest"
        listed = ", ".join(f"{k} {v:+.2f}%" for k, v in windows.items())
        yield Reason(
            rule=ReasonCode.WRONG_RELATION,
            message=(
                f'"{m.group()}" says {figure.claim.text} is the {said} change of {ticker}\'s '
                f"windows, but the trace has {listed}"
            ),
            span=(m.start(), figure.claim.end),
        )


_SPLIT = re.compile(
    r"(?<!\w)(?P<word>(?P<up>better|stronger|higher|mejor)|(?P<down>worse|weaker|lower|peor))"
    r"(?!\s+than)(?!\s+que)(?!\w)"
)
_THAN = re.compile(r"(?<!\w)(?:than|que)(?!\w)")


def check_split_comparisons(case: Case) -> Iterator[Reason]:
    """A comparative whose two figures stand on each side of its "than" ("did worse over the
    past week (-2.82%) than over the past month (+1.41%)", "le fue peor en la semana (-2,82 %)
    que en el mes (+1,41 %)"): the first figure must be above (or below) the second."""
    text = case.trace.draft or ""
    folded = fold_aligned(text)
    found = list(_SPLIT.finditer(folded))
    if not found:
        return
    starts = sentence_starts(text)
    for m in found:
        hi = sentence_end(starts, m.start(), len(text))
        after = [
            f.claim
            for f in case.figures
            if m.end() <= f.claim.start < hi and f.in_scope and f.claim.readings
        ]
        if len(after) < 2 or not after[0].unit or bool(after[1].unit) != bool(after[0].unit):
            continue
        than = _THAN.search(folded, after[0].end, after[1].start)
        if than is None or _THAN.search(folded, m.end(), after[0].start):
            continue
        a, b = (_signed(c) for c in after[:2])
        up = bool(m.group("up"))
        case.bound += [m.span(), than.span()]
        if a != b and (a > b) == up:
            continue
        yield Reason(
            rule=ReasonCode.WRONG_RELATION,
            message=(
                f'"{m.group()} ... than": {after[0].text} is not '
                f"{'above' if up else 'below'} {after[1].text}"
            ),
            span=(m.start(), after[1].end),
        )


def _signed(claim: Any) -> float:
    value = float(claim.readings[0].value * claim.scale)
    return -abs(value) if claim.sign < 0 or claim.direction < 0 else value


_DAY_KEYS = frozenset({"change_pct", "pnl_pct", "day_return_pct"})


def _window_of(f: Any) -> str:
    """The window a checked percentage is stated for: its time's, or the day's where its fact
    is a change over one session ("" for neither)."""
    if not (f.in_scope and f.claim.unit):
        return ""
    time = f.claim.time
    if time is not None and time.kind in _WINDOW_KINDS:
        return str(time.kind)
    fact = f.in_scope[0]
    span = fact.span
    one_day = span is not None and span.start is not None and (span.end - span.start).days <= 4
    return "day" if fact.key in _DAY_KEYS and one_day else ""


def check_window_comparatives(case: Case) -> Iterator[Reason]:
    """A window's move said to be the larger (or smaller) of the n windows the draft states
    for its ticker: the window named before the words must be the one whose change is
    furthest from (or nearest to) zero among them, and n their number."""
    scan = scan_of(case)
    folded, starts = scan.folded, scan.starts
    if _OF_N_HINT.search(folded) is None:
        return
    for m in OF_N.finditer(folded):
        lo = starts[bisect_right(starts, m.start()) - 1]
        named = list(_NAMED.finditer(folded, lo, m.start()))
        if not named:
            continue
        kind = named[-1].lastgroup or ""
        stated: dict[str, dict[str, float]] = {}
        for f in case.figures:
            said = _window_of(f)
            if said:
                fact = f.in_scope[0]
                stated.setdefault(str(fact.ticker), {})[said] = abs(float(fact.value))
        windows = next((w for w in stated.values() if kind in w), None)
        if windows is None:
            continue
        top = bool(m.group("top"))
        value = windows[kind]
        ranked = max(windows.values()) if top else min(windows.values())
        case.bound += [m.span(), named[-1].span()]
        if len(windows) == _COUNT[m.group("n")] and abs(ranked - value) < 1e-9:
            continue
        listed = ", ".join(f"{k} {v:.2f}%" for k, v in windows.items())
        yield Reason(
            rule=ReasonCode.WRONG_RELATION,
            message=(
                f'"{m.group()}" says the {kind} move is the {"largest" if top else "smallest"} '
                f"of {m.group('n')} windows, but the draft states {listed} (in size)"
            ),
            span=(named[-1].start(), m.end()),
        )

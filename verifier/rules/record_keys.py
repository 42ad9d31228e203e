"""A figure written as the value of a key the trace's own results use ('"portfolio_day_pnl":
46.59', '"weight_pct": 14.96', '"benchmark": {"return_pct": -0.57}'): the key names the field
exactly, and the objects around it name whose field it is (a key under "portfolio" or
"benchmark", or with that prefix, is theirs; any other is the record's holding). A value that
is not that field's for that subject is `wrong_field`, whatever other value of the trace it
equals. A key no result uses is left to the figure's own checks.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from contract.reasons import ReasonCode
from verifier.claim import BENCHMARK_SUBJECT, PORTFOLIO_SUBJECT
from verifier.grammar.records import key_of, key_subject, keyed_at, record_ticker, windowed
from verifier.rules.case import Case, Finding
from verifier.trace_facts import Fact
from verifier.verdict import Reason


def check_record_keys(case: Case) -> Iterator[Reason]:
    """Each figure keyed by a key of the trace's results, held to that key's value."""
    text = case.trace.draft or ""
    if ":" not in text:
        return
    by_key: dict[str, list[Fact]] = {}
    for fact in case.evidence.facts:
        by_key.setdefault(fact.key, []).append(fact)
    for f in case.figures:
        keyed = keyed_at(text, f.claim.start)
        if keyed is None:
            continue
        key, subject = key_of(keyed), key_subject(text, keyed)
        prefix = next((f"{p}_" for p in ("portfolio", "benchmark") if key.startswith(f"{p}_")), "")
        bare = key[len(prefix) :]
        keys = {key, bare, f"portfolio_{bare}"} if subject == PORTFOLIO_SUBJECT else {key, bare}
        if not keys & by_key.keys():  # "weight", "day_return": the result key of the same words
            keys = {k for k in by_key if _words(k) == _words(bare)}
        facts = [fact for k in sorted(keys) for fact in by_key.get(k, ())]
        if not facts:
            continue  # a key the results do not use: the figure's own checks hold it
        mine = record_ticker(text, keyed)
        own = [fact for fact in facts if _theirs(fact, subject, f, mine)]
        changes = [x for x in own if x.span is not None and x.span.start is not None]
        if changes and not windowed(text, keyed):  # a record that names no window: the day's
            latest = max(x.span.start for x in changes if x.span and x.span.start)
            own = [x for x in own if x not in changes or (x.span and x.span.start == latest)]
        if any(_equal(f, fact) for fact in own):
            continue
        held = ", ".join(fact.describe() for fact in own[:2]) or "no value for that subject"
        yield Reason(
            rule=ReasonCode.WRONG_FIELD,
            message=f'"{f.claim.text}" is given as {key_of(keyed)}, but the trace has {held}',
            span=(keyed.start(), f.claim.end),
        )
    for finding in case.findings:
        claim = finding.claim
        keyed = keyed_at(text, claim.start) if claim.kind == "date" else None
        if keyed is None:
            continue
        key = key_of(keyed)
        days = _days_of(case, key) or (_days_of(case, "session") if key in _SESSION_KEYS else set())
        if days and not set(claim.dates) & days:
            yield Reason(
                rule=ReasonCode.WRONG_TIME,
                message=(
                    f'"{claim.text}" is given as the record\'s {key_of(keyed)}, but the '
                    f"trace has {', '.join(sorted(_iso(d) for d in days))}"
                ),
                span=(keyed.start(), claim.end),
            )


_SESSION_KEYS = frozenset({"date", "session", "as_of", "asof", "day"})
"""Keys that date a record's figures."""


def _days_of(case: Case, key: str) -> set[tuple[int | None, int, int | None]]:
    """The days the results give under a key ("previous_session": 2024-12-30)."""
    found: set[tuple[int | None, int, int | None]] = set()
    for event in case.trace.events:
        result = event.result
        day = result.get(key) if isinstance(result, dict) else None
        if isinstance(day, str) and re.fullmatch(r"\d{4}-\d{2}-\d{2}", day):
            found.add((int(day[:4]), int(day[5:7]), int(day[8:10])))
    return found


def _iso(day: tuple[int | None, int, int | None]) -> str:
    return f"{day[0]}-{day[1]:02d}-{day[2] or 0:02d}"


def _theirs(fact: Fact, subject: str | None, f: Finding, mine: str | None) -> bool:
    """Whether a fact is the subject's: the portfolio's or the benchmark's by their results,
    the holding's by the ticker its record names, else by the tickers the figure speaks of."""
    if subject == PORTFOLIO_SUBJECT:
        return fact.ticker == PORTFOLIO_SUBJECT or fact.key.startswith("portfolio_")
    if subject is not None:
        return fact.ticker == subject
    symbols = {mine} if mine else f.claim.scope - {PORTFOLIO_SUBJECT, BENCHMARK_SUBJECT}
    return fact.ticker in symbols and not fact.key.startswith(("portfolio_", "benchmark_"))


_UNITS = frozenset({"pct", "percent", "day", "daily", "usd", "value"})


def _words(key: str) -> frozenset[str]:
    """A key's words but its units and the day every result is for ("day_return_pct": return)."""
    return frozenset(key.split("_")) - _UNITS


def _equal(f: Finding, fact: Fact) -> bool:
    """Whether the figure rounds to the fact at the precision it shows, sign included."""
    claim = f.claim
    for reading in claim.readings:
        half = 0.5 * 10.0**-reading.decimals * claim.scale
        value = reading.value * claim.scale
        if claim.sign < 0:
            value = -abs(value)
        if abs(fact.value - value) <= half * (1 + 1e-9):
            return True
    return False

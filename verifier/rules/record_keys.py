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
from verifier.grammar.records import key_subject, keyed_at
from verifier.rules.case import Case, Finding
from verifier.trace_facts import Fact
from verifier.verdict import Reason


def check_record_keys(case: Case) -> Iterator[Reason]:
    """Each figure keyed by a key of the trace's results, held to that key's value."""
    text = case.trace.draft or ""
    if '":' not in text and '" :' not in text:
        return
    by_key: dict[str, list[Fact]] = {}
    for fact in case.evidence.facts:
        by_key.setdefault(fact.key, []).append(fact)
    sessions = _sessions(case)
    for f in case.figures:
        keyed = keyed_at(text, f.claim.start)
        if keyed is None:
            continue
        key, subject = keyed["key"].lower(), key_subject(text, keyed)
        prefix = next((f"{p}_" for p in ("portfolio", "benchmark") if key.startswith(f"{p}_")), "")
        bare = key[len(prefix) :]
        keys = {key, bare, f"portfolio_{bare}"} if subject == PORTFOLIO_SUBJECT else {key, bare}
        facts = [fact for k in keys for fact in by_key.get(k, ())]
        if not facts:
            continue  # a key the results do not use: the figure's own checks hold it
        own = [fact for fact in facts if _theirs(fact, subject, f)]
        if any(_equal(f, fact) for fact in own):
            continue
        held = ", ".join(fact.describe() for fact in own[:2]) or "no value for that subject"
        yield Reason(
            rule=ReasonCode.WRONG_FIELD,
            message=f'"{f.claim.text}" is given as {keyed["key"]}, but the trace has {held}',
            span=(keyed.start(), f.claim.end),
        )
    for finding in case.findings:
        claim = finding.claim
        keyed = keyed_at(text, claim.start - 1) if claim.kind == "date" else None
        if keyed is None or keyed["key"].lower() not in _SESSION_KEYS or not sessions:
            continue
        if not set(claim.dates) & sessions:
            yield Reason(
                rule=ReasonCode.WRONG_TIME,
                message=(
                    f'"{claim.text}" is given as the record\'s {keyed["key"]}, but its '
                    f"figures are for the session of {', '.join(sorted(_iso(d) for d in sessions))}"
                ),
                span=(keyed.start(), claim.end),
            )


_SESSION_KEYS = frozenset({"date", "session", "as_of", "asof", "day"})
"""Keys that date a record's figures."""


def _sessions(case: Case) -> set[tuple[int | None, int, int | None]]:
    """The sessions the results' figures are for (their "session" values)."""
    found: set[tuple[int | None, int, int | None]] = set()
    for event in case.trace.events:
        result = event.result
        day = result.get("session") if isinstance(result, dict) else None
        if isinstance(day, str) and re.fullmatch(r"\d{4}-\d{2}-\d{2}", day):
            found.add((int(day[:4]), int(day[5:7]), int(day[8:10])))
    return found


def _iso(day: tuple[int | None, int, int | None]) -> str:
    return f"{day[0]}-{day[1]:02d}-{day[2] or 0:02d}"


def _theirs(fact: Fact, subject: str | None, f: Finding) -> bool:
    """Whether a fact is the subject's: the portfolio's or the benchmark's by their results,
    the holding's by the tickers the figure speaks of."""
    if subject == PORTFOLIO_SUBJECT:
        return fact.ticker == PORTFOLIO_SUBJECT or fact.key.startswith("portfolio_")
    if subject is not None:
        return fact.ticker == subject
    symbols = f.claim.scope - {PORTFOLIO_SUBJECT, BENCHMARK_SUBJECT}
    return fact.ticker in symbols and not fact.key.startswith(("portfolio_", "benchmark_"))


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

"""The portfolio is part of the subject: an answer states only its own portfolio's figures.

A position's answer is for one portfolio (`portfolio_id` of its trace); an answer shared by
every portfolio holding a ticker (no `portfolio_id`) is for none. A result about another
portfolio is no evidence for it, wherever the trace got that result (a hostile headline can
talk a model into looking another client up): such results are set apart before the trace is
indexed (`split_portfolios`), and a figure only they hold is `wrong_subject`. So is a portfolio
the draft names that is not its own.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import lru_cache

from contract.reasons import ReasonCode
from verifier.evidence import Evidence
from verifier.rules.case import Case
from verifier.trace_view import EventView, TraceView
from verifier.verdict import Reason


def portfolio_of(event: EventView) -> str | None:
    """The portfolio a call was about: its `portfolio_id` argument, else its result's."""
    for holder in (event.args, event.result):
        if isinstance(holder, dict):
            value = holder.get("portfolio_id")
            if isinstance(value, str) and value:
                return value
    return None


def own_portfolio(view: TraceView) -> str | None:
    """The portfolio the answer is for: the trace's `portfolio_id`; for a bare trace that names
    none, the one portfolio its calls name (several: none is its own). The night's shared
    answers call no portfolio's tool: the runner offers them none."""
    if view.portfolio_id:
        return view.portfolio_id
    named = {p for e in view.events if (p := portfolio_of(e))}
    return named.pop() if len(named) == 1 else None


def portfolio_names(view: TraceView) -> tuple[tuple[str, str], ...]:
    """The name each portfolio of the trace's results goes by, with its id ("Dividend Income",
    "P002"): a draft that names the portfolio so names the portfolio."""
    found: dict[str, str] = {}
    for event in view.events:
        result = event.result
        if isinstance(result, dict) and isinstance(result.get("portfolio_id"), str):
            name = result.get("name") or result.get("portfolio_name")
            if isinstance(name, str) and len(name.strip()) >= 4:
                found.setdefault(name.strip(), result["portfolio_id"])
    return tuple(found.items())


def split_portfolios(view: TraceView) -> tuple[TraceView, TraceView | None]:
    """The trace with only its own portfolio's events, and one with the others' (or None)."""
    own = own_portfolio(view)
    mine: list[EventView] = []
    others: list[EventView] = []
    for event in view.events:
        about = portfolio_of(event)
        (mine if about is None or about == own else others).append(event)
    view = view.model_copy(update={"portfolio_id": own})
    if not others:
        return view, None
    return view.model_copy(update={"events": mine}), view.model_copy(
        update={"events": others, "question": ""}
    )


def check_other_portfolio(case: Case) -> Iterator[Reason]:
    """A figure only another portfolio's result holds; a portfolio named that is not the
    answer's own."""
    own = case.trace.portfolio_id
    if case.foreign is not None:
        for f in case.figures:
            if f.in_scope or f.wrong:
                continue
            held = _held(case.foreign, f.claim)
            if held:
                yield Reason(
                    rule=ReasonCode.WRONG_SUBJECT,
                    message=(
                        f'"{f.claim.text}" is a figure of portfolio {held}, and this answer is '
                        f"{'for ' + own if own else 'shared by every portfolio holding it'}"
                    ),
                    span=f.claim.span,
                )
    draft = case.trace.draft or ""
    for m in _shape(frozenset(case.portfolios | ({own} if own else set()))).finditer(draft):
        name = m.group()
        if name == own or name in case.evidence.called:
            continue  # its own, or a ticker
        yield Reason(
            rule=ReasonCode.WRONG_SUBJECT,
            message=(
                f'"{name}" names a portfolio, and this answer is '
                f"{'for ' + own if own else 'shared by every portfolio holding the ticker'}"
            ),
            span=m.span(),
        )


@lru_cache(maxsize=256)
def _shape(ids: frozenset[str]) -> re.Pattern[str]:
    """Portfolio ids as a draft may name them: the ids the trace knows, and any word of their
    form (letters, then digits: "P002" or "P1002" beside "P001"); "P" and 3 or more digits by
    default. Built once per set of ids (a night has a few portfolios)."""
    forms = {re.sub(r"\d+", r"\\d+", re.escape(i)) for i in ids if i}
    forms |= {re.escape(i) for i in ids if i}
    alternatives = "|".join(sorted(forms, key=len, reverse=True)) or r"P\d{3,}"
    return re.compile(rf"(?<![\w-])(?:{alternatives})(?![\w-])")


def _held(foreign: tuple[Evidence, dict[str, str]], claim: object) -> str:
    evidence, owners = foreign
    facts = evidence.match_figure(claim)  # type: ignore[arg-type]
    return next((owners[x.event] for x in facts if x.event in owners), "")

"""The analyst review page: `outputs/<date>/review.html`, one self-contained file.

It is built from what the run published (manifest, rejected cases, reports) and the decision
log, so `nightdesk report` can rebuild it at any time. Python turns each case into plain view
values (draft segments with their marks, tool results as small tables); the Jinja template only
lays them out, with autoescaping on and every value shown through `display_text` first (the
report's `shown` as `finalize`): drafts, headlines and tool results are untrusted text.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache
from itertools import pairwise
from pathlib import Path
from typing import Any

from jinja2 import Environment, FileSystemLoader, StrictUndefined, Template

from contract.reasons import CAUSE_WORDS, CAUSES
from contract.text import whole_links
from flows.publish.cases import ReviewCase, read_manifest, review_page_path
from flows.publish.layout import RunLayout, write_atomic
from flows.publish.render import shown
from flows.publish.report import PortfolioReport
from flows.review.decisions import Decision, describe_decision
from flows.review.hint import night_rerun
from flows.review.state import ReviewState, load_reports
from verifier.verdict import ClaimOut

TEMPLATES = Path(__file__).parent / "templates"
RERUN_WORDS = {**CAUSE_WORDS, "verifier": "with no draft to judge"}
"""The cases a rerun asks again, by cause, as the page names them."""
MAX_ROWS = 40
MAX_TEXT = 400


@dataclass
class Segment:
    """A stretch of the draft with the same marks: failing reasons and supporting calls."""

    text: str
    fails: list[int] = field(default_factory=list)
    rules: list[str] = field(default_factory=list)
    messages: list[str] = field(default_factory=list)
    support: list[str] = field(default_factory=list)


@dataclass
class ReasonLine:
    """A reason as the page lists it: numbered, with the words of the draft it is about."""

    rule: str
    message: str
    span: tuple[int, int] | None = None
    number: int = 0
    quote: str = ""


def mark_draft(draft: str, reasons: list[ReasonLine], claims: list[ClaimOut]) -> list[Segment]:
    """Cut the draft at every span edge; each piece carries the reasons and claims covering it."""
    spans = [r.span for r in reasons if r.span] + [c.span for c in claims if c.span]
    cuts = whole_links(
        draft, sorted({0, len(draft), *(max(0, min(len(draft), p)) for s in spans for p in s)})
    )
    segments: list[Segment] = []
    for start, end in pairwise(cuts):
        if start == end:
            continue
        piece = Segment(draft[start:end])
        for number, reason in enumerate(reasons, 1):
            span = reason.span
            if span and span[0] <= start and end <= span[1]:
                piece.fails.append(number)
                piece.rules.append(reason.rule)
                piece.messages.append(f"{number}. {reason.rule}: {reason.message}")
        if not piece.fails:
            for claim in claims:
                span = claim.span
                if span and span[0] <= start and end <= span[1]:
                    piece.support += [e for e in claim.supported_by if e not in piece.support]
        same = segments and (segments[-1].fails, segments[-1].support) == (
            piece.fails,
            piece.support,
        )
        if same:
            segments[-1].text += piece.text
        else:
            segments.append(piece)
    return segments


def to_node(value: Any, depth: int = 0) -> dict[str, Any]:
    """A value as something small to read: text, a key: value list, or a table."""
    if isinstance(value, dict):
        return {"t": "kv", "items": [(str(k), to_node(v, depth + 1)) for k, v in value.items()]}
    if isinstance(value, list):
        if not value:
            return {"t": "text", "text": "(none)"}
        if all(isinstance(v, dict) for v in value):
            columns = list(dict.fromkeys(k for row in value for k in row))
            rows = [[to_node(row.get(c), depth + 1) for c in columns] for row in value[:MAX_ROWS]]
            return {"t": "table", "columns": columns, "rows": rows, "more": len(value) - len(rows)}
        if all(not isinstance(v, dict | list) for v in value):
            return {"t": "text", "text": ", ".join(scalar_text(v) for v in value)}
        return {"t": "list", "items": [to_node(v, depth + 1) for v in value[:MAX_ROWS]]}
    number = isinstance(value, int | float) and not isinstance(value, bool)
    return {"t": "num" if number else "text", "text": scalar_text(value)}


def scalar_text(value: Any) -> str:
    if value is None:
        return "—"
    if isinstance(value, bool):
        return "true" if value else "false"
    text = str(value)
    return text if len(text) <= MAX_TEXT else text[: MAX_TEXT - 1] + "…"


def anchor(case_id: str, event_id: str) -> str:
    """An element id for one tool call of one case (ids from the trace are not trusted)."""
    return f"{case_id}--{re.sub(r'[^A-Za-z0-9_.-]', '_', event_id)}"


def case_view(
    case: ReviewCase, history: list[Decision], in_force: Decision | None
) -> dict[str, Any]:
    verdict, trace = case.verdict, case.trace
    reasons = [
        ReasonLine(rule=str(r.rule), message=r.message, span=r.span)
        for r in (verdict.reasons if verdict else [])
    ]
    if not reasons and case.status != "accepted":
        stated = [r.message for r in case.reasons if r.message]
        detail = (
            (trace.stop_detail if trace else None)
            or (stated[0] if stated else "")
            or "no verdict: the question ended before a draft was judged"
        )
        reasons = [ReasonLine(rule=case.reason or "unknown", message=detail)]
    claims = verdict.claims if verdict else []
    draft = case.draft or ""
    for number, reason in enumerate(reasons, 1):
        reason.number = number
        reason.quote = unquoted(draft[reason.span[0] : reason.span[1]]) if reason.span else ""
    events = [
        {
            "anchor": anchor(case.case_id, e.id),
            "id": e.id,
            "tool": e.tool,
            "step": e.step,
            "ms": e.duration_ms,
            "args": to_node(e.args),
            "result": to_node(e.result) if e.error is None else None,
            "error": e.error,
        }
        for e in (trace.events if trace else [])
    ]
    turns = [
        {
            "step": t.step,
            "finish": t.finish_reason or "",
            "estimate": t.estimate,
            "usage": t.usage,
            "ms": t.duration_ms,
            "calls": ", ".join(c.name for c in t.tool_calls),
            "text": scalar_text(t.text) if t.text else "",
        }
        for t in (trace.turns if trace else [])
    ]
    return {
        "case": case,
        "reasons": reasons,
        "rules": sorted({r.rule for r in reasons}),
        "segments": mark_draft(draft, reasons, claims) if draft else [],
        "supported": sum(1 for c in claims if c.supported_by),
        "claims": len(claims),
        "events": events,
        "event_anchors": {e["id"]: e["anchor"] for e in events},
        "turns": turns,
        "provider": f"{trace.provider}/{trace.model}".strip("/") if trace else "",
        "decision": in_force,
        "history": [(d, describe_decision(d), d is in_force) for d in history],
    }


def summary_view(
    layout: RunLayout,
    state: ReviewState,
    cases: list[ReviewCase],
    reports: Sequence[PortfolioReport] | None = None,
) -> dict[str, Any]:
    manifest = read_manifest(layout)
    counts = manifest.get("counts", {})
    budget = manifest.get("budget", {})
    used = budget.get("night", {}).get("used") or budget.get("used", {})  # every attempt's
    attempt = manifest.get("summary", {}).get("attempt", {})  # the night's account
    night = manifest.get("summary", {}).get("night", {})
    withheld: dict[str, int] = {}
    for report in load_reports(layout) if reports is None else reports:
        applied = state.apply(report)
        answers = [
            a for s in applied.tickers for a in [*s.answers, *([s.summary] if s.summary else [])]
        ]
        withheld[applied.portfolio_id] = sum(a.status == "withheld" for a in answers)
    decided = Counter(
        d.action for c in cases if (d := state.decision_for(c)) is not None and c.rerun_of is None
    )
    by_cause = Counter(c.cause for c in cases if c.rerun_of is None)
    return {
        "by_cause": [(CAUSE_WORDS[cause], by_cause[cause]) for cause in CAUSES],
        "run_id": manifest.get("run_id", ""),
        "questions": counts.get("questions", 0),
        "accepted": counts.get("accepted", 0),
        "rejected": sum(1 for c in cases if c.rerun_of is None),
        "by_reason": sorted(
            Counter(c.reason or "unknown" for c in cases if c.rerun_of is None).items()
        ),
        "withheld": sorted(withheld.items()),
        "decided": dict(decided),
        "tokens": {
            "input": used.get("input_tokens", 0),
            "cached": used.get("cached_tokens", 0),
            "output": used.get("output_tokens", 0),
            "total": used.get("input_tokens", 0) + used.get("output_tokens", 0),
            "attempt": attempt.get("tokens", 0),
            "attempts": night.get("attempts", 1),
            "budget": attempt.get("budget_tokens", budget.get("run_tokens", 0)),
            "rejected": sum(c.total_tokens for c in cases if c.rerun_of is None),
        },
        "parameters": manifest.get("parameters", {}),
    }


def render_review_page(layout: RunLayout, reports: Sequence[PortfolioReport] | None = None) -> str:
    """The page's HTML: summary, filters, and one section per case (its anchor is the case id).
    `reports` are the day's reports when the caller has them (the publisher has just written
    them); otherwise they are read from `accepted/`."""
    state = ReviewState.load(layout, strict=False)
    decisions = state.decisions
    decide: list[ReviewCase] = []  # an analyst's: the verifier judged a draft
    rest: list[ReviewCase] = []  # a rerun's: cut by the budget, lost to an error, no draft
    for case in state.cases.values():
        group = decide if case.decidable else rest
        group.append(case)
        group += [r for r in state.reruns.values() if r.rerun_of == case.case_id]
    ordered = decide + rest

    def views_of(cases: list[ReviewCase]) -> list[dict[str, Any]]:
        return [
            case_view(c, [d for d in decisions if d.case_id == c.case_id], state.decision_for(c))
            for c in cases
        ]

    views = views_of(ordered)
    summary = summary_view(layout, state, ordered, reports)
    causes = Counter(c.cause for c in rest if c.rerun_of is None)
    return review_template().render(
        day=layout.report_date.isoformat(),
        run_args=layout.cli_args,
        problem=state.problem,
        summary=summary,
        cases=views[: len(decide)],
        rest=views[len(decide) :],
        rest_causes=[(RERUN_WORDS[cause], causes[cause]) for cause in CAUSES if causes[cause]],
        rerun=night_rerun(layout, read_manifest(layout), causes["budget"]) if rest else "",
        reasons=sorted({rule for v in views for rule in v["rules"]}),
        portfolios=sorted({p for c in ordered for p in c.portfolios}),
        tickers=sorted({c.ticker for c in ordered}),
    )


@cache
def _environment() -> Environment:
    return Environment(
        loader=FileSystemLoader(TEMPLATES),
        autoescape=True,
        finalize=shown,
        undefined=StrictUndefined,
    )


def review_template() -> Template:
    """The page's template, compiled once per process (and again when its file changes)."""
    return _environment().get_template("review.html.jinja")


def write_review_page(layout: RunLayout, reports: Sequence[PortfolioReport] | None = None) -> Path:
    path = review_page_path(layout)
    write_atomic(path, render_review_page(layout, reports))
    return path


QUOTE_MARKS = (('"', '"'), ("“", "”"), ("«", "»"), ("‘", "’"), ("'", "'"))


def unquoted(text: str) -> str:
    """A quoted headline without its own quotation marks: the page sets every excerpt in
    quotation marks of its own (`<q>`), and a headline shown as “"..."” reads as garbled."""
    for left, right in QUOTE_MARKS:
        if len(text) > 1 and text.startswith(left) and text.endswith(right):
            return text[1:-1]
    return text

"""Rich renderings for the terminal: a trace, a draft with its claims marked and the verdict's
reasons, a run's summary lines; and the console command output goes to."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from rich.console import Console, Group
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from contract.reasons import ReasonCode
from contract.trace import Trace
from verifier.verdict import Verdict


def render_verdict(draft: str | None, verdict: Verdict) -> Group:
    """The draft with failing spans in red (numbered by reason) and supported claims in green."""
    body = Text(draft or "")
    for claim in verdict.claims:
        if claim.supported_by:
            body.stylize("green", *claim.span)
    for reason in verdict.reasons:
        if reason.span is not None:
            body.stylize("bold red underline", *reason.span)
    status = (
        Text("ACCEPTED", style="bold green")
        if verdict.accepted
        else Text(f"REJECTED ({_count(len(verdict.reasons), 'reason')})", style="bold red")
    )
    lines = [status, body] if draft else [status]
    for number, reason in enumerate(verdict.reasons, 1):
        where = ""
        if reason.span is not None and draft:
            where = f" «{draft[reason.span[0] : reason.span[1]]}»"
        lines.append(Text(f"  {number}. {reason.rule.value}{where}: {reason.message}", style="red"))
    return Group(*lines)


PIPED_WIDTH = 200
"""Columns for output that goes to a pipe or a file (a cron log): rich would assume 80 and cut
table cells short ("missi…"), losing figures."""


def output_console() -> Console:
    """The console for a command's output: a terminal's own width, or `PIPED_WIDTH` when the
    output is piped or redirected and `COLUMNS` does not say otherwise."""
    console = Console()
    if console.is_terminal or "COLUMNS" in os.environ:
        return console
    return Console(width=PIPED_WIDTH)


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def print_summary(result: dict[str, Any], console: Console | None = None) -> None:
    console = console or output_console()
    counts = result["counts"]
    used = result.get("tokens_used", {})
    tokens = int(used.get("input_tokens", 0)) + int(used.get("output_tokens", 0))
    reasons = ", ".join(f"{k} {v}" for k, v in counts["rejected_by_reason"].items()) or "none"
    console.print(
        f"Report date {result['report_date']}: {counts['portfolios']} portfolios, "
        f"{counts['tickers']} tickers ({counts['tickers_reused']} reused), "
        f"{counts['questions']} questions: {counts['accepted']} accepted, "
        f"{counts['rejected']} rejected ({reasons}); {counts['model_calls']} model calls, "
        f"{tokens:,} tokens."
    )
    if counts["rejected"] and result.get("message"):
        console.print(result["message"], soft_wrap=True)
    day = Path(result["day"])
    console.print(f"Reports:        {day / 'accepted'}")
    console.print(f"Rejected cases: {day / 'rejected'} (index: rejected/index.jsonl)")
    console.print(f"Review page:    {day / 'review.html'}")
    console.print(f"Manifest:       {result['manifest']}")


def render_trace(trace: Trace) -> Group:
    """The draft, then every tool call and model turn, readable in a terminal."""
    answered = trace.stop_reason == ReasonCode.ANSWERED
    draft = Panel(
        Text(trace.draft or f"(no draft: {trace.stop_reason} {trace.stop_detail or ''})".strip()),
        title=f"{trace.question_id} · {trace.provider}/{trace.model} · {trace.mode}",
        border_style="green" if answered else "red",
    )
    calls = Table(
        "step", "id", "tool", "args", "outcome", "ms", title="tool calls", title_justify="left"
    )
    for event in trace.events:
        outcome = (
            Text(_short(event.result), style="")
            if event.ok
            else Text(event.error or "", style="red")
        )
        calls.add_row(
            str(event.step),
            event.id,
            event.tool,
            _short(event.args),
            outcome,
            f"{event.duration_ms:.1f}",
        )
    turns = Table(
        "step",
        "finish",
        "estimate",
        "input",
        "cached",
        "output",
        "ms",
        title="model turns",
        title_justify="left",
    )
    for turn in trace.turns:
        u = turn.usage
        turns.add_row(
            str(turn.step),
            turn.finish_reason or "",
            str(turn.estimate),
            str(u.input_tokens),
            str(u.cached_tokens),
            str(u.output_tokens),
            f"{turn.duration_ms:.1f}",
        )
    footer = Text(
        f"question: {trace.question}\nstop: {trace.stop_reason} · prompt {trace.prompt_version}"
    )
    return Group(draft, footer, calls, turns)


def _short(value: Any, limit: int = 160) -> str:
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, default=str)
    return text if len(text) <= limit else text[: limit - 1] + "…"

"""Rich renderings for the terminal: a trace, a draft with its claims marked and the verdict's
reasons, a run's summary lines; and the console command output goes to.

What came from data, a model or an analyst is shown as `shown` makes it: a rich `Text` (never
markup, so `[link=...]` in a headline is text) of `contract.text.display_text` (no escape
sequence, control, bidi control or invisible character, nothing a terminal would link). JSON a
command prints passes `contract.text.escape_hidden`: its values kept, those characters escaped."""

from __future__ import annotations

import json
import os
from itertools import pairwise
from pathlib import Path
from typing import Any

from rich.console import Console, Group
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from contract.reasons import CAUSE_WORDS, CAUSES, ReasonCode, cause_of
from contract.text import display_text, whole_links
from contract.trace import Trace
from verifier.verdict import Verdict


def shown(text: str | None, style: str = "") -> Text:
    """Text from data as the terminal may show it: plain text, never markup."""
    return Text(display_text(text or ""), style=style)


def marked(draft: str, spans: list[tuple[str, tuple[int, int]]]) -> Text:
    """The draft shown piece by piece between span edges, each piece with the styles of the
    spans covering it (later ones win): the spans index the draft as written, and `shown`
    may shorten a piece."""
    cuts = sorted({0, len(draft), *(max(0, min(len(draft), p)) for _, s in spans for p in s)})
    cuts = whole_links(draft, cuts)
    body = Text()
    for start, end in pairwise(cuts):
        styles = [style for style, (a, b) in spans if a <= start and end <= b]
        body.append_text(shown(draft[start:end], " ".join(styles)))
    return body


def render_verdict(draft: str | None, verdict: Verdict) -> Group:
    """The draft with failing spans in red (numbered by reason) and supported claims in green."""
    spans = [("green", claim.span) for claim in verdict.claims if claim.supported_by]
    spans += [("bold red underline", r.span) for r in verdict.reasons if r.span is not None]
    body = marked(draft or "", spans)
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
        lines.append(shown(f"  {number}. {reason.rule.value}{where}: {reason.message}", "red"))
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


def withheld_by_cause(by_reason: dict[str, int]) -> str:
    """The withheld questions by cause, the verifier's with their reasons: "3 rejected by the
    verifier (wrong_direction 2, wrong_field 1), 115 cut by the budget, 0 lost to provider
    errors"."""
    parts = []
    for cause in CAUSES:
        mine = {k: v for k, v in by_reason.items() if cause_of(k) == cause}
        part = f"{sum(mine.values()):,} {CAUSE_WORDS[cause]}"
        if cause == "verifier" and mine:
            part += f" ({', '.join(f'{k} {v:,}' for k, v in mine.items())})"
        parts.append(part)
    return ", ".join(parts)


def print_summary(result: dict[str, Any], console: Console | None = None) -> None:
    """A finished night in a few lines: what it published, then this attempt's spend and every
    attempt's (the manifest's `summary`, as the Prefect artifacts and the state show it)."""
    console = console or output_console()
    counts = result["counts"]
    night, attempt = result["summary"]["night"], result["summary"]["attempt"]
    console.print(
        f"Report date {result['report_date']}: {counts['portfolios']:,} portfolios, "
        f"{counts['tickers']:,} tickers ({counts['tickers_reused']:,} reused), "
        f"{night['questions']:,} questions: {night['accepted']:,} accepted, "
        f"{night['rejected']:,} withheld: {withheld_by_cause(counts['rejected_by_reason'])}.",
        soft_wrap=True,
    )
    cut = f", {attempt['cut']:,} questions cut by its budget" if attempt["cut"] else ""
    cost = "" if night["cost_usd"] is None else f", cost ${night['cost_usd']:,.4f}"
    console.print(
        f"This attempt ({attempt['number']}): tokens {attempt['tokens']:,} of "
        f"{attempt['budget_tokens']:,}, {attempt['calls']:,} model calls{cut}; "
        f"all attempts ({night['attempts']}): tokens {night['tokens']:,}{cost}.",
        soft_wrap=True,
    )
    if counts["rejected"]:
        from flows.night.summary import NightSummary

        console.print(NightSummary.from_dict(result["summary"]).outcome_line(), soft_wrap=True)
    day = Path(result["day"])
    console.print(f"Reports:        {day / 'accepted'}")
    console.print(f"Rejected cases: {day / 'rejected'} (index: rejected/index.jsonl)")
    console.print(f"Review page:    {day / 'review.html'}")
    console.print(f"Manifest:       {result['manifest']}")


def render_trace(trace: Trace) -> Group:
    """The draft, then every tool call and model turn, readable in a terminal."""
    answered = trace.stop_reason == ReasonCode.ANSWERED
    draft = Panel(
        shown(trace.draft or f"(no draft: {trace.stop_reason} {trace.stop_detail or ''})".strip()),
        title=shown(f"{trace.question_id} · {trace.provider}/{trace.model} · {trace.mode}"),
        border_style="green" if answered else "red",
    )
    calls = Table(
        "step", "id", "tool", "args", "outcome", "ms", title="tool calls", title_justify="left"
    )
    for event in trace.events:
        outcome = shown(_short(event.result)) if event.ok else shown(event.error, "red")
        calls.add_row(
            str(event.step),
            shown(event.id),
            shown(event.tool),
            shown(_short(event.args)),
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
            shown(turn.finish_reason),
            str(turn.estimate),
            str(u.input_tokens),
            str(u.cached_tokens),
            str(u.output_tokens),
            f"{turn.duration_ms:.1f}",
        )
    footer = shown(
        f"question: {trace.question}\nstop: {trace.stop_reason} · prompt {trace.prompt_version}"
    )
    return Group(draft, footer, calls, turns)


def _short(value: Any, limit: int = 160) -> str:
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, default=str)
    return text if len(text) <= limit else text[: limit - 1] + "…"

"""Rich renderings for the terminal: a draft with its claims marked, and the verdict's reasons;
and the console command output goes to."""

from __future__ import annotations

import os

from rich.console import Console, Group
from rich.text import Text

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

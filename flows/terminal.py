"""Rich renderings for the terminal: a draft with its claims marked, and the verdict's reasons."""

from __future__ import annotations

from rich.console import Group
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
        else Text(f"REJECTED ({len(verdict.reasons)} reasons)", style="bold red")
    )
    lines = [status, body] if draft else [status]
    for number, reason in enumerate(verdict.reasons, 1):
        where = ""
        if reason.span is not None and draft:
            where = f" «{draft[reason.span[0] : reason.span[1]]}»"
        lines.append(Text(f"  {number}. {reason.rule.value}{where}: {reason.message}", style="red"))
    return Group(*lines)

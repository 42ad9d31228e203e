"""What the `nightdesk verify` command needs: read traces from a file or stdin, verify them all.

Every trace is read before any is verified, so an unreadable line fails the command with one line
and no half-written output.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

from contract.errors import InputError
from verifier.trace_view import TraceView, read_trace
from verifier.verdict import Verdict
from verifier.verify import verify


def read_source(source: str) -> str:
    """The text of a file, or of stdin for `-`."""
    if source == "-":
        return sys.stdin.read()
    path = Path(source)
    if path.is_dir():
        raise InputError(f"{source} is a folder: give one trace JSON file, or - for stdin")
    if not path.is_file():
        raise InputError(f"no such trace file: {source} (give a JSON file, or - for stdin)")
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(f"cannot read {source}: {exc}") from None


def verify_lines(
    text: str, single: bool = False, judge: Callable[[TraceView], Verdict] = verify
) -> list[Verdict]:
    """Verdicts for one trace (`single`) or one trace per non-blank line, in order, each parsed
    once from its JSON and judged by `judge` (the night's one judge, from the CLI)."""
    if single:
        return [judge(read_trace(text))]
    traces = []
    for number, line in enumerate(text.splitlines(), start=1):
        if line.strip():
            try:
                traces.append(read_trace(line))
            except InputError as exc:
                raise InputError(f"line {number}: {exc.message}") from None
    if not traces:
        raise InputError("no traces in the input: give one JSON object per line")
    return [judge(t) for t in traces]

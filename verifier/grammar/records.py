"""Records: a draft's JSON objects ('{"ticker": "KGC", "day_pnl": 1893.48}'). A figure after a key
is that key's value; the key's prefix ("portfolio_", "benchmark_") or the object it sits in
('"benchmark": {"return_pct": -0.57}') says whose it is."""

from __future__ import annotations

import re

from verifier.claim import BENCHMARK_SUBJECT, PORTFOLIO_SUBJECT

KEYED = re.compile(r'"(?P<key>[A-Za-z_]\w*)"\s*:\s*[*_`]*\s*$')
"""A key right before a value (searched in the text before a figure)."""
_TOKEN = re.compile(r'"(?P<key>[A-Za-z_]\w*)"\s*:\s*(?P<open>\{)?|(?P<brace>\{)|(?P<close>\})')
SUBJECTS = {"portfolio": PORTFOLIO_SUBJECT, "benchmark": BENCHMARK_SUBJECT}


def keyed_at(text: str, at: int) -> re.Match[str] | None:
    """The key a value at `at` is written for, if one stands right before it."""
    if '":' not in text and '" :' not in text:
        return None
    return KEYED.search(text, max(at - 48, 0), at)


def key_subject(text: str, key: re.Match[str]) -> str | None:
    """The portfolio or the benchmark, where the key's prefix or an object around it names one;
    None for a key of the record's own holding."""
    name = key["key"].lower()
    for prefix, subject in SUBJECTS.items():
        if name.startswith(f"{prefix}_"):
            return subject
    stack: list[str] = []
    for m in _TOKEN.finditer(text, 0, key.start()):
        if m["key"] is not None:
            if m["open"]:
                stack.append(m["key"].lower())
        elif m["brace"]:
            stack.append("")
        elif stack:
            stack.pop()
    return next((SUBJECTS[k] for k in reversed(stack) if k in SUBJECTS), None)

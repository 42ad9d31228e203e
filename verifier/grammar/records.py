"""Records: a draft's JSON objects ('{"ticker": "KGC", "day_pnl": 1893.48}'). A figure after a key
is that key's value; the key's prefix ("portfolio_", "benchmark_") or the object it sits in
('"benchmark": {"return_pct": -0.57}') says whose it is."""

from __future__ import annotations

import re

from verifier.claim import BENCHMARK_SUBJECT, PORTFOLIO_SUBJECT

KEYED = re.compile(
    r'(?:(?P<q>["\'])(?P<key>[A-Za-z_]\w*)(?P=q)|(?<![\w"\'])(?P<bare>[a-z]+_[a-z_]+)|'
    r"(?:(?<=\n)|^)[ \t-]*(?P<line>session|date|as_of))"
    r'\s*:\s*[*_`]*\s*["\']?$'
)
"""A key right before a value (searched in the text before a figure): quoted ('"day_pnl": ',
"'day_pnl': ", '"weight_pct": "'), a bare snake_case key ("day_pnl: ", a YAML line), or a
lower-case "session:" or "date:" opening a line."""
_TOKEN = re.compile(
    r'["\'](?P<key>[A-Za-z_]\w*)["\']\s*:\s*(?P<open>\{)?|(?P<brace>\{)|(?P<close>\})'
)
SUBJECTS = {"portfolio": PORTFOLIO_SUBJECT, "benchmark": BENCHMARK_SUBJECT}


def keyed_at(text: str, at: int) -> re.Match[str] | None:
    """The key a value at `at` is written for, if one stands right before it."""
    if ":" not in text or ('"' not in text and "'" not in text and "_" not in text):
        return None
    return KEYED.search(text, max(at - 48, 0), at)


def key_of(keyed: re.Match[str]) -> str:
    return (keyed["key"] or keyed["bare"] or keyed["line"]).lower()


_WINDOWS = frozenset({"week", "month", "quarter", "year_to_date", "ytd", "year", "window"})


def windowed(text: str, keyed: re.Match[str]) -> bool:
    """Whether a record names a window for its figures ('"week": {...}', '"window": "week"')."""
    stack = _open_keys(text, keyed.start())
    if _WINDOWS & set(stack):
        return True
    opened = text.rfind("{", 0, keyed.start())
    closed = text.find("}", keyed.end())
    record = text[opened : closed if closed >= 0 else len(text)] if opened >= 0 else ""
    return re.search(r'["\']?window["\']?\s*:', record) is not None


def key_subject(text: str, key: re.Match[str]) -> str | None:
    """The portfolio or the benchmark, where the key's prefix or an object around it names one;
    None for a key of the record's own holding."""
    name = key_of(key)
    for prefix, subject in SUBJECTS.items():
        if name.startswith(f"{prefix}_"):
            return subject
    stack = _open_keys(text, key.start())
    return next((SUBJECTS[k] for k in reversed(stack) if k in SUBJECTS), None)


def _open_keys(text: str, at: int) -> list[str]:
    """The keys of the objects open at `at`, outermost first ("" for an object with no key)."""
    stack: list[str] = []
    for m in _TOKEN.finditer(text, 0, at):
        if m["key"] is not None:
            if m["open"]:
                stack.append(m["key"].lower())
        elif m["brace"]:
            stack.append("")
        elif stack:
            stack.pop()
    return stack


_TICKER = re.compile(r'["\']?(?:ticker|symbol)["\']?\s*:\s*["\']?(?P<symbol>[A-Za-z][\w.]{0,9})')


def record_ticker(text: str, keyed: re.Match[str]) -> str | None:
    """The ticker the record around a key names for itself ('{"ticker": "ASVF", ...}')."""
    opened = text.rfind("{", 0, keyed.start())
    closed = text.find("}", keyed.end())
    if opened < 0:
        line = text.rfind("\n", 0, keyed.start())
        opened = max(text.rfind("\n\n", 0, keyed.start()), 0) if line >= 0 else 0
    record = text[opened : closed if closed >= 0 else len(text)]
    found = _TICKER.search(record)
    return found["symbol"].upper() if found else None

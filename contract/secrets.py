"""Secrets never leave the process: one redactor for everything the night writes or logs.

What counts as a secret: the values of the provider key variables, of any variable named in
`NIGHTDESK_SECRET_VARS` (comma-separated), of keys handed to a provider in code (`register`),
and any string shaped like a known kind of API key or bearer token. Values shorter than eight
characters are not treated as secrets (they would blank out ordinary words and figures).

Secrets are looked for in the text as written and in its folded form (`contract.text.fold_text`:
invisible characters removed, NFKC), the form the prompt-leak check reads too: a key split by a
zero-width space or written in full-width letters is caught. A text whose secret shows only once
folded is written folded, with the secret redacted; any other text keeps its characters.
"""

from __future__ import annotations

import logging
import os
import re
import threading

from contract.text import fold_text, visible_chars

KEY_VARIABLES = ("OPENAI_API_KEY", "ANTHROPIC_API_KEY", "HF_TOKEN", "PREFECT_API_KEY")
EXTRA_VARIABLES = "NIGHTDESK_SECRET_VARS"
REDACTED = "[redacted]"
MIN_SECRET = 8
KEY_SHAPES = re.compile(
    r"\b(?:sk-(?:ant-|proj-)?[A-Za-z0-9_\-]{16,}"
    r"|AKIA[0-9A-Z]{16}"
    r"|gh[pousr]_[A-Za-z0-9]{30,}"
    r"|github_pat_[A-Za-z0-9_]{30,}"
    r"|xox[abprs]-[A-Za-z0-9\-]{10,}"
    r"|AIza[0-9A-Za-z_\-]{35}"
    r"|hf_[A-Za-z0-9]{30,})"
    r"|(?i:bearer)\s+[A-Za-z0-9._~+/\-]{16,}=*"
)
"""Strings shaped like an API key or a bearer token, whoever's they are."""
KEY_MARKS = (
    "sk-",
    "AKIA",
    *(f"gh{kind}_" for kind in "pousr"),
    "github_pat_",
    *(f"xox{kind}-" for kind in "abprs"),
    "AIza",
    "hf_",
)
"""What each shape but the bearer token begins with: text holding none of them (nor "bearer" in
any case) cannot match `KEY_SHAPES`, and a substring search is twenty times faster than it."""

_registered: set[str] = set()
_lock = threading.Lock()


def register(value: str | None) -> None:
    """Treat `value` (a key handed to a provider in code) as a secret from now on."""
    if value and len(value) >= MIN_SECRET:
        with _lock:
            _registered.add(value)


def secret_values() -> list[str]:
    """Every secret value known now, longest first (so a key is not half-replaced)."""
    names = [*KEY_VARIABLES, *filter(None, os.environ.get(EXTRA_VARIABLES, "").split(","))]
    values = {os.environ.get(name.strip(), "") for name in names}
    with _lock:
        values |= _registered
    return sorted((v for v in values if len(v) >= MIN_SECRET), key=len, reverse=True)


def redact(text: str) -> str:
    """`text` with every secret value and key-shaped string replaced by `[redacted]`, whether
    it shows as written or only once folded."""
    cleaned = _redact_written(text)
    folded = fold_text(cleaned)
    if folded == cleaned:
        return cleaned
    redacted = _redact_written(folded)
    return cleaned if redacted == folded else redacted


def _redact_written(text: str) -> str:
    for value in secret_values():
        if value in text:
            text = text.replace(value, REDACTED)
    if not any(mark in text for mark in KEY_MARKS) and "bearer" not in text.lower():
        return text  # the night writes megabytes of JSON: most of it holds no key shape
    return KEY_SHAPES.sub(REDACTED, text)


def holds_secret(text: str) -> bool:
    """Whether `text` holds a secret value or a key-shaped string."""
    return redact(text) != text


class RedactingFilter(logging.Filter):
    """A log handler filter that redacts each record's message (arguments included), and
    drops its controls and invisible characters: a log line is read in a terminal or the
    Prefect UI, and an escape sequence or a bidi override from data would act there."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        cleaned = visible_chars(redact(message))
        if cleaned != message:
            record.msg, record.args = cleaned, ()
        return True


def redact_logs() -> None:
    """Put the redacting filter on every log handler there is now (idempotent)."""
    loggers = [logging.getLogger(), *logging.Logger.manager.loggerDict.values()]
    for logger in loggers:
        for handler in getattr(logger, "handlers", []):
            if not any(isinstance(f, RedactingFilter) for f in handler.filters):
                handler.addFilter(RedactingFilter())

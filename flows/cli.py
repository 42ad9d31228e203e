"""The `nightdesk` command line: a thin shell that turns library errors into one-line messages.

Each command imports its room lazily, so `nightdesk verify` does not pay for Prefect.
"""

from __future__ import annotations

import sys

from cyclopts import App

from data.errors import InputError

app = App(name="nightdesk", help="A verified daily report for every stock portfolio, every night.")
data_app = App(name="data", help="Generate, check and import the Parquet data set.")
tools_app = App(name="tools", help="Call the read-only tools the model uses.")
app.command(data_app)
app.command(tools_app)


def fail(message: str, code: int = 2) -> None:
    """Print one line to stderr and exit."""
    print(f"nightdesk: error: {message}", file=sys.stderr)
    raise SystemExit(code)


def main() -> None:
    try:
        app()
    except InputError as exc:
        fail(exc.message)

"""Each finished ticker's result, kept as it finishes so that a rerun after a crash reuses it.

One JSON file per ticker under `<out>/.results/`, named by a key over everything that decides the
answers (see `flows.night.ticker.ticker_key`) and written atomically. A file that cannot be read
as a result (cut short, or from an older layout) counts as absent: the ticker is asked again.
"""

from __future__ import annotations

import re
from pathlib import Path

from pydantic import ValidationError

from flows.publish.layout import write_atomic
from flows.publish.records import TickerResult

KEY = re.compile(r"^[A-Za-z0-9_-]{1,128}$")


class TickerStore:
    def __init__(self, folder: Path) -> None:
        self.folder = folder

    def path(self, key: str) -> Path:
        if not KEY.match(key):
            raise ValueError(f"not a ticker result key: {key!r}")
        return self.folder / f"{key}.json"

    def load(self, key: str) -> TickerResult | None:
        """The stored result under `key`, or None when there is none that reads."""
        try:
            return TickerResult.model_validate_json(self.path(key).read_bytes())
        except (OSError, ValidationError):
            return None

    def save(self, key: str, result: TickerResult) -> None:
        write_atomic(self.path(key), result.model_dump_json())

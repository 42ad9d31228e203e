"""The night's submitted batches, kept so that a killed or rerun night collects them instead of
paying for its drafts twice.

One JSON file per batch under `<out>/.batches/<date>/`, written atomically: first with the
request-to-question map and no batch id, before anything is sent (a kill after the provider
accepted the batch but before its id was written leaves the key, by which the batch can be
looked up where the provider keeps metadata), then with the id the moment the provider returns
it, and once more when its replies have been read, with the items that failed (those are
submitted again by a later round; every other item is collected again from this batch). A file
that does not read counts as absent.
"""

from __future__ import annotations

import re
from datetime import datetime
from pathlib import Path

from pydantic import BaseModel, Field, ValidationError

from flows.publish.layout import write_atomic

KEY = re.compile(r"^[A-Za-z0-9_-]{1,128}$")


class BatchRecord(BaseModel):
    """One batch: what it drafts (custom_id -> question id), and where it is."""

    key: str
    round: str
    provider: str
    model: str
    run_id: str
    requests: dict[str, str]
    batch_id: str | None = None
    submitted_at: datetime | None = None
    failed: list[str] = Field(default_factory=list)
    """Items that ended without a reply: not collected from this batch again."""


class BatchStore:
    def __init__(self, folder: Path) -> None:
        self.folder = folder

    def path(self, key: str) -> Path:
        if not KEY.match(key):
            raise ValueError(f"not a batch key: {key!r}")
        return self.folder / f"{key}.json"

    def save(self, record: BatchRecord) -> None:
        write_atomic(self.path(record.key), record.model_dump_json())

    def delete(self, record: BatchRecord) -> None:
        self.path(record.key).unlink(missing_ok=True)

    def load_all(self) -> list[BatchRecord]:
        """Every readable record, in key order."""
        records = []
        for path in sorted(self.folder.glob("*.json")) if self.folder.is_dir() else []:
            try:
                records.append(BatchRecord.model_validate_json(path.read_bytes()))
            except (OSError, ValidationError):
                continue
        return records

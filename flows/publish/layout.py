"""Where a run's files live under the output root, and how they are written.

```
<out>/<date>/accepted/<portfolio>.md|.html|.json
<out>/<date>/rejected/<case-id>.json, rejected/index.jsonl
<out>/<date>/manifest.json
<out>/.results/                       persisted ticker results (resume after a crash)
<out>/.batches/<date>/                a batch night's submitted batches (resume without paying twice)
<out>/.shards/<date>/<run-id>/shard-<n>/       a shard's ticker results, gathered by the night
<out>/.catalog/                       the per-date DuckDB catalog files
```
Every name that comes from data (portfolio ids, tickers, question ids) is checked before it
becomes a path, so no id can point outside the output root. Files are written to a temporary
name in the same folder, flushed and renamed, so a reader (or a crash) never sees half a file.
"""

from __future__ import annotations

import json
import os
import re
import socket
import tempfile
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Any

from pydantic_core import to_json

from contract.errors import InputError
from contract.processes import running
from contract.secrets import redact
from data.contract import SAFE_NAME_RULE, is_safe_name


def check_name(name: str, what: str) -> str:
    """The name if it is safe as one path component; otherwise a one-line input error."""
    if not is_safe_name(name):
        raise InputError(f"{what} {name!r} cannot be used as a file name: {SAFE_NAME_RULE}")
    return name


@dataclass(frozen=True)
class RunLayout:
    """The paths of one report date under one output root."""

    root: Path
    report_date: date

    @property
    def cli_args(self) -> str:
        """`--date D --out ROOT`: how a hint names this run to another command."""
        return f"--date {self.report_date.isoformat()} --out {self.root}"

    @property
    def day(self) -> Path:
        return self.root / self.report_date.isoformat()

    @property
    def accepted(self) -> Path:
        return self.day / "accepted"

    @property
    def rejected(self) -> Path:
        return self.day / "rejected"

    @property
    def manifest(self) -> Path:
        return self.day / "manifest.json"

    @property
    def rejected_index(self) -> Path:
        return self.rejected / "index.jsonl"

    @property
    def results(self) -> Path:
        return self.root / ".results"

    @property
    def batches(self) -> Path:
        return self.root / ".batches" / self.report_date.isoformat()

    @property
    def shards(self) -> Path:
        return self.root / ".shards" / self.report_date.isoformat()

    def shard_dir(self, run_id: str, index: int) -> Path:
        return self.shards / check_name(run_id, "run id") / f"shard-{index}"

    def report(self, portfolio_id: str, suffix: str) -> Path:
        return self.accepted / f"{check_name(portfolio_id, 'portfolio id')}{suffix}"

    def case(self, case_id: str) -> Path:
        return self.rejected / f"{check_name(case_id, 'case id')}.json"


def catalog_dir(out_dir: Path) -> Path:
    """Where the catalog files of runs writing under `out_dir` are built (and shared)."""
    return Path(out_dir) / ".catalog"


def _file_mode() -> int:
    """The mode `open()` would give a new file: 0o666 less the process umask."""
    umask = os.umask(0o022)
    os.umask(umask)
    return 0o666 & ~umask


FILE_MODE = _file_mode()
"""Read once at import: the umask is process-wide, and setting it to read it is not atomic."""


def write_atomic(path: Path, text: str) -> None:
    """Write `text` to `path` through a temporary file and a rename; the file gets the mode a
    plain `open()` would give it (a temporary file is private to its owner). Every file the
    night writes passes here, so this is where secrets are redacted (`contract.secrets`)."""
    text = redact(text)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.{TMP_OWNER}.", suffix=".tmp", dir=path.parent)
    try:
        os.fchmod(fd, FILE_MODE)
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


HOST = re.sub(r"[^A-Za-z0-9]", "_", socket.gethostname())
TMP_OWNER = f"{HOST}-{os.getpid()}"
"""Who writes a temporary file: a later run removes the ones whose writer died (kill -9)."""
_TMP_NAME = re.compile(r"^\..+\.(?P<host>[^.]+)-(?P<pid>\d+)\.[^.]+\.tmp$")


def remove_orphans(folder: Path) -> list[Path]:
    """Delete the temporary files under `folder` whose writer, a process of this machine, is
    dead: what a killed run left half-written beside the files it had replaced whole."""
    orphans = []
    for path in Path(folder).rglob(".*.tmp") if Path(folder).is_dir() else []:
        match = _TMP_NAME.match(path.name)
        if match is None or match["host"] != HOST:
            continue
        if not running(int(match["pid"])):
            path.unlink(missing_ok=True)
            orphans.append(path)
    return orphans


def write_json(path: Path, data: Any) -> None:
    """`data` as indented JSON. Serialised by pydantic's encoder: the standard library's writes
    indented JSON in Python, which took most of a night's publishing time."""
    write_atomic(path, to_json(data, indent=2, fallback=str).decode() + "\n")


def write_jsonl(path: Path, rows: list[dict[str, Any]]) -> None:
    lines = (json.dumps(row, ensure_ascii=False, default=str) for row in rows)
    write_atomic(path, "".join(line + "\n" for line in lines))


def remove_stale(folder: Path, keep: set[Path]) -> list[Path]:
    """Delete files a previous publish left in `folder` that this one did not write."""
    if not folder.is_dir():
        return []
    stale = [p for p in folder.iterdir() if p.is_file() and p not in keep]
    for path in stale:
        path.unlink(missing_ok=True)
    return stale

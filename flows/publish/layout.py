"""Where a run's files live under the output root, and how they are written.

```
<out>/<date>/accepted/<portfolio>.md|.html|.json
<out>/<date>/rejected/<case-id>.json, rejected/index.jsonl
<out>/<date>/manifest.json
<out>/.results/                       persisted ticker results (resume after a crash)
<out>/.batches/<date>/                a batch night's submitted batches (resume without paying twice)
<out>/.shards/<date>/<run-id>/shard-<n>/       a shard's ticker results, gathered by the night
<out>/.catalog/                       the per-date DuckDB catalog files
<out>/.ledgers/<date>/                each attempt's spend journal and ledger
```
Every name that comes from data (portfolio ids, tickers, question ids) is checked before it
becomes a path, so no id can point outside the output root. Files are written to a temporary
name in the same folder, flushed and renamed, so a reader (or a crash) never sees half a file.
Nothing here follows a link: files are read with `O_NOFOLLOW` (and `O_NONBLOCK`, so a FIFO in
a file's place is refused, not waited on), and the cleanups delete through folder descriptors
opened without following one, so a link planted in the tree never leads them outside it.
"""

from __future__ import annotations

import errno
import fcntl
import json
import os
import re
import shlex
import socket
import stat
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Any

from pydantic import BaseModel
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
        return f"--date {self.report_date.isoformat()} --out {shlex.quote(str(self.root))}"

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
    def ledgers(self) -> Path:
        return self.root / ".ledgers" / self.report_date.isoformat()

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
    prefix = f".{path.name[:TMP_NAME_CHARS]}.{TMP_OWNER}."
    fd, tmp = tempfile.mkstemp(prefix=prefix, suffix=".tmp", dir=path.parent)
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


TMP_NAME_CHARS = 64
"""How much of a file's name its temporary file repeats: enough to tell whose it is, short
enough that the longest name a night writes still fits the file system with it."""
HOST = re.sub(r"[^A-Za-z0-9]", "_", socket.gethostname())[:64]
TMP_OWNER = f"{HOST}-{os.getpid()}"
"""Who writes a temporary file: a later run removes the ones whose writer died (kill -9)."""
_TMP_NAME = re.compile(r"^\..+\.(?P<host>[^.]+)-(?P<pid>\d+)\.[^.]+\.tmp$")


def remove_orphans(folder: Path) -> list[Path]:
    """Delete the temporary files under `folder` whose writer, a process of this machine, is
    dead: what a killed run left half-written beside the files it had replaced whole. The walk
    never enters a linked folder (`folder` included) and unlinks by folder descriptor."""
    orphans: list[Path] = []
    if not os.path.lexists(folder):
        return orphans
    for top, _dirs, files, dir_fd in os.fwalk(folder, follow_symlinks=False):
        for name in files:
            match = _TMP_NAME.match(name)
            if match is None or match["host"] != HOST or running(int(match["pid"])):
                continue
            with suppress(FileNotFoundError):
                os.unlink(name, dir_fd=dir_fd)
                orphans.append(Path(top) / name)
    return orphans


def write_json(path: Path, data: Any, exclude: set[str] | None = None) -> None:
    """`data` as indented JSON. Serialised by pydantic's encoder: the standard library's writes
    indented JSON in Python, which took most of a night's publishing time. A model is written
    straight from its fields (`exclude` left out), the same text as its JSON-mode dump gives,
    without building that dump: a portfolio report's dump was two thirds of its writing."""
    if isinstance(data, BaseModel):
        text = data.model_dump_json(indent=2, exclude=exclude)
    else:
        text = to_json(data, indent=2, fallback=str).decode()
    write_atomic(path, text + "\n")


def write_jsonl(path: Path, rows: list[dict[str, Any]]) -> None:
    lines = (json.dumps(row, ensure_ascii=False, default=str) for row in rows)
    write_atomic(path, "".join(line + "\n" for line in lines))


def remove_stale(folder: Path, keep: set[Path]) -> list[Path]:
    """Delete files a previous publish left in `folder` that this one did not write. A linked
    `folder` is not entered, and a link inside it is removed as itself, never through."""
    try:
        dir_fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC)
    except (FileNotFoundError, NotADirectoryError):
        return []
    kept = {path.name for path in keep if path.parent == folder}
    stale = []
    try:
        with os.scandir(dir_fd) as entries:
            names = [e.name for e in entries if not e.is_dir(follow_symlinks=False)]
        for name in names:
            if name not in kept:
                with suppress(FileNotFoundError):
                    os.unlink(name, dir_fd=dir_fd)
                    stale.append(folder / name)
    finally:
        os.close(dir_fd)
    return stale


def read_owned(path: Path) -> bytes:
    """The bytes of a regular file the night wrote. A link in its place is not followed and a
    FIFO or device is not waited on: each is an input error in one line, never a hang."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise InputError(f"{path} is a link: {NOT_FOLLOWED}") from None
        raise
    with os.fdopen(fd, "rb") as handle:
        check_regular(path, os.fstat(handle.fileno()).st_mode)
        return handle.read()


def read_owned_text(path: Path) -> str:
    """`read_owned` as UTF-8 text; bytes that are not UTF-8 are an input error of one line."""
    try:
        return read_owned(path).decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputError(
            f"{path} is not UTF-8 text (byte {exc.start}): it was changed by hand; "
            "restore it from a copy or run the night again"
        ) from None


NOT_FOLLOWED = "the night reads and writes only files it made, never through a link; remove it"


def check_regular(path: Path, mode: int) -> None:
    if not stat.S_ISREG(mode):
        raise InputError(f"{path} is {describe_mode(mode)}, not a file: remove it")


def describe_mode(mode: int) -> str:
    """What a non-file is, in words."""
    kinds = (
        (stat.S_ISDIR, "a folder"),
        (stat.S_ISLNK, "a link"),
        (stat.S_ISFIFO, "a FIFO"),
        (stat.S_ISSOCK, "a socket"),
        (stat.S_ISCHR, "a device"),
        (stat.S_ISBLK, "a device"),
    )
    return next((what for test, what in kinds if test(mode)), "not a regular file")


def open_no_link(path: Path, flags: int) -> int:
    """A descriptor on the regular file at `path`, made if absent: a link (dangling or not) is
    not followed and a FIFO not waited on."""
    flags |= os.O_CREAT | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC
    try:
        fd = os.open(path, flags, 0o644)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise InputError(f"{path} is a link: {NOT_FOLLOWED}") from None
        if exc.errno in (errno.ENXIO, errno.EISDIR):
            raise InputError(f"{path} is not a file: remove it") from None
        raise
    try:
        found = os.fstat(fd)
        check_regular(path, found.st_mode)
        if found.st_nlink > 1:  # a hard link: writing it would write the file it shares
            raise InputError(f"{path} has another name (a hard link): {NOT_FOLLOWED}")
    except InputError:
        os.close(fd)
        raise
    return fd


@contextmanager
def held_lock(path: Path) -> Iterator[None]:
    """Hold an exclusive lock on the file at `path` (made if absent, never through a link)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = open_no_link(path, os.O_RDWR)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)  # closing the descriptor releases the lock

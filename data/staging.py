"""Write a data folder all at once or not at all: build it in a hidden sibling, then rename.

A reader of `out_dir` sees the old set or the new one, never half of either; a failure while
building (an exception inside the block) leaves `out_dir` untouched. The hidden sibling is named
with the process id, so the next import removes what a killed one left behind.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from contract.errors import InputError
from contract.processes import running
from data.contract import TABLES

DATA_SET_FILES = frozenset({*(t.filename for t in TABLES.values()), "generation.json"})
"""What a data set folder holds: all that `--overwrite` may replace."""


def check_out_dir(out_dir: Path, *, overwrite: bool) -> None:
    """Refuse a target that is a file, or a non-empty folder without `overwrite`."""
    if out_dir.exists() and not out_dir.is_dir():
        raise InputError(f"--out {out_dir}: exists and is not a folder")
    if out_dir.is_dir() and any(out_dir.iterdir()) and not overwrite:
        raise InputError(f"--out {out_dir}: folder is not empty; pass --overwrite to replace it")
    if overwrite and out_dir.is_dir():
        foreign = sorted(p.name for p in out_dir.iterdir() if p.name not in DATA_SET_FILES)
        if foreign:
            shown = ", ".join(foreign[:5]) + (", ..." if len(foreign) > 5 else "")
            raise InputError(
                f"--out {out_dir}: holds files that are not part of a data set ({shown}); "
                "--overwrite replaces a data set only: choose another folder or move them"
            )


@contextmanager
def staged_folder(out_dir: Path, *, overwrite: bool = False) -> Iterator[Path]:
    """Yield an empty staging folder; on a clean exit it replaces `out_dir` in one rename."""
    out_dir = Path(out_dir)
    empty = out_dir.is_dir() and not any(out_dir.iterdir())
    check_out_dir(out_dir, overwrite=overwrite or empty)
    out_dir.parent.mkdir(parents=True, exist_ok=True)
    remove_abandoned(out_dir)
    staging = Path(tempfile.mkdtemp(prefix=f".{out_dir.name}.{os.getpid()}.", dir=out_dir.parent))
    try:
        yield staging
        os.chmod(staging, 0o755)
        if out_dir.exists():
            retired = out_dir.with_name(f".{out_dir.name}.old-{staging.name}")
            out_dir.rename(retired)
            staging.rename(out_dir)
            shutil.rmtree(retired)
        else:
            staging.rename(out_dir)
    finally:
        if staging.exists():
            shutil.rmtree(staging)


def remove_abandoned(out_dir: Path) -> None:
    """Remove the staging folders that a killed import of `out_dir` left beside it (named with
    its process id, which no longer runs). A retired old set is kept while `out_dir` is
    missing: the kill struck between the two renames and it is the only copy."""
    for folder in out_dir.parent.glob(f".{out_dir.name}.*"):
        retired = folder.name.startswith(f".{out_dir.name}.old-")
        pid = folder.name.removeprefix(f".{out_dir.name}.old-" if retired else "")
        pid = pid.removeprefix(f".{out_dir.name}.").split(".", 1)[0]
        if not folder.is_dir() or not pid.isdigit() or running(int(pid)):
            continue
        if retired and not out_dir.exists():
            continue
        shutil.rmtree(folder, ignore_errors=True)

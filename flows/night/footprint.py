"""What a refused run made is removed again: a run refused at any step (its input, its
options, a Prefect server that does not answer, a server of its own that does not start)
leaves the file system as it found it.

The run notes, before its first step, which of the folders it may create are missing (its
output folder, the catalog cache under it, its Prefect home) and which of its own entries are
already there; on a refusal it removes the missing folders it made and the new entries of its
own kind, nothing else (an output folder that existed keeps whatever others wrote there)."""

from __future__ import annotations

import fnmatch
import os
import shutil
from dataclasses import dataclass, field
from pathlib import Path


@dataclass(frozen=True)
class Watched:
    """A folder the run may create or add to; `own`: the name patterns of the entries it adds
    (None: it adds none that could be told from another's)."""

    folder: Path
    own: tuple[str, ...] | None = None


@dataclass
class Footprint:
    """The watched folders as the run found them."""

    missing: list[Path] = field(default_factory=list)
    """The first missing folder above (or at) each watched folder: the run made all of it."""
    entries: dict[Watched, set[str]] = field(default_factory=dict)

    @classmethod
    def before(cls, watched: list[Watched]) -> Footprint:
        footprint = cls()
        for item in watched:
            made = first_missing(item.folder)
            if made is not None:
                footprint.missing.append(made)
            elif item.own is not None and item.folder.is_dir():
                footprint.entries[item] = set(os.listdir(item.folder))
        return footprint

    def undo(self) -> None:
        """Remove what the run made since `before`."""
        for item, names in self.entries.items():
            for name in sorted(set(listing(item.folder)) - names):
                if any(fnmatch.fnmatchcase(name, pattern) for pattern in item.own or ()):
                    remove(item.folder / name)
        for made in self.missing:
            remove(made)


def first_missing(folder: Path) -> Path | None:
    """The topmost folder of `folder`'s path that does not exist (None when it exists)."""
    path = Path(folder).absolute()
    if path.exists() or path.is_symlink():
        return None
    while not path.parent.exists():
        path = path.parent
    return path


def listing(folder: Path) -> list[str]:
    try:
        return os.listdir(folder)
    except OSError:
        return []


def remove(path: Path) -> None:
    if path.is_symlink() or path.is_file():
        path.unlink(missing_ok=True)
    elif path.is_dir():
        shutil.rmtree(path, ignore_errors=True)

"""What a night may find in its output tree before it writes there.

The night creates, writes and deletes only inside its output root and only through paths it
made. Before any token is spent, each folder it writes or cleans is walked without following a
link: a link in it (dangling or not), a file with a second name outside the catalog (a hard link:
a line appended to it lands in the file it shares), a FIFO, socket or device, or a folder where one of its
files goes is refused in one line. The root itself is the operator's choice and may be a link.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from pathlib import Path

from contract.errors import InputError
from flows.publish.layout import RunLayout, catalog_dir, describe_mode

FILE_FOLDERS = ("accepted", "rejected", "reruns")
"""Folders of a day that hold files only: a folder inside one is in a file's place."""
DAY_FILES = (
    "manifest.json",
    "review.html",
    "decisions.jsonl",
    ".decisions.lock",
    ".decisions.head",
    ".publish.lock",
)


def night_trees(layout: RunLayout) -> list[Path]:
    """Every folder a night of `layout` writes into or cleans."""
    return [
        layout.day,
        layout.results,
        layout.batches,
        layout.shards,
        layout.ledgers,
        catalog_dir(layout.root),
    ]


def check_output_tree(root: Path, trees: list[Path]) -> None:
    """Refuse, in one line, a tree under `root` the night could be led out of or stopped by;
    `trees`: the folders under it to walk (`night_trees`, or one day's folder)."""
    for top in trees:
        found = next(foreign_entries(root, top), None)
        if found is not None:
            raise InputError(
                f"the output folder {root} holds {found}: the night writes and deletes "
                "only through paths it made; remove it, or pass --out another folder"
            )


def foreign_entries(root: Path, top: Path) -> Iterator[str]:
    """What in `top` (and on the way from `root` to it) the night did not make, in words."""
    on_the_way = top.relative_to(root).parts
    for depth in range(1, len(on_the_way) + 1):
        path = root.joinpath(*on_the_way[:depth])
        mode = lstat_mode(path)
        if mode is None or stat.S_ISREG(mode):  # absent, or a file the writability check names
            return
        if not stat.S_ISDIR(mode):
            yield placed(path, mode, "a folder")
            return
    is_day = top.parent == root and not top.name.startswith(".")
    # The catalog's files are hard links of one another (one per lockdown setting), opened
    # read-only and never written in place: there a second name leads nowhere new.
    yield from walk_tree(
        top, file_names=DAY_FILES if is_day else (), one_name=top != catalog_dir(root)
    )


def walk_tree(
    folder: Path,
    *,
    files_only: bool = False,
    file_names: tuple[str, ...] = (),
    one_name: bool = True,
) -> Iterator[str]:
    try:
        with os.scandir(folder) as entries:
            found = sorted(entries, key=lambda e: e.name)
        stats = [(Path(e.path), e.name, e.stat(follow_symlinks=False)) for e in found]
    except OSError as exc:
        yield f"a folder it cannot read, {folder} ({exc.strerror or type(exc).__name__})"
        return
    for path, name, found_stat in stats:
        mode = found_stat.st_mode
        if one_name and stat.S_ISREG(mode) and found_stat.st_nlink > 1:  # a write lands elsewhere
            yield f"a hard link at {path} (the file has {found_stat.st_nlink} names)"
        elif stat.S_ISDIR(mode) and (files_only or name in file_names):
            yield f"a folder at {path}, where a file goes"
        elif stat.S_ISDIR(mode):
            yield from walk_tree(path, files_only=name in FILE_FOLDERS, one_name=one_name)
        elif not stat.S_ISREG(mode):
            yield placed(path, mode, "a file")


def placed(path: Path, mode: int, wanted: str) -> str:
    if stat.S_ISLNK(mode):
        return f"a link {path} -> {os.readlink(path)}"
    return f"{describe_mode(mode)} at {path}, where {wanted} goes"


def lstat_mode(path: Path) -> int | None:
    try:
        return os.lstat(path).st_mode
    except (FileNotFoundError, NotADirectoryError):
        return None

"""The night's files: it writes and deletes only inside its output tree, through paths it made.

A link planted anywhere the night writes (dangling or not), or a FIFO, socket or folder where
one of its files goes, is refused in one line before any token is spent; the cleanups never
delete through a link, whatever the check saw."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from collections.abc import Callable
from datetime import date
from pathlib import Path

import pytest

from contract.errors import InputError
from flows.publish.layout import HOST, remove_orphans, remove_stale
from flows.run.config import RunConfig
from flows.run.preflight import check_night

DAY = date(2024, 12, 31)  # the last session of the shared generated data
Plant = Callable[[Path, Path], None]


def outside_folder(tmp_path: Path) -> Path:
    """A folder beside the output tree holding files the night must never touch."""
    outside = tmp_path / "outside"
    outside.mkdir()
    for name in ("P1.md", "keep.json", f".x.{HOST}-{dead_pid()}.abc.tmp"):
        (outside / name).write_text("not the night's")
    return outside


def dead_pid() -> int:
    gone = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True
    )
    return int(gone.stdout)


def link(at: str, to: str) -> Plant:
    def plant(out: Path, outside: Path) -> None:
        path = out / at
        path.parent.mkdir(parents=True, exist_ok=True)
        path.symlink_to(outside / to)

    return plant


@pytest.mark.parametrize(
    "plant",
    [
        link(f"{DAY}/accepted", "."),
        link(f"{DAY}/rejected/AAA__move.json", "keep.json"),
        link(f"{DAY}/decisions.jsonl", "made-by-a-dangling-link.jsonl"),
        link(f"{DAY}/manifest.json", "made-by-a-dangling-link.json"),
        link(".results", "."),
        link(".catalog", "."),
        link(f".ledgers/{DAY}", "."),
        link(".shards", "."),
    ],
    ids=[
        "accepted-folder",
        "case-file",
        "dangling-log",
        "dangling-manifest",
        "results",
        "catalog",
        "ledgers",
        "shards",
    ],
)
def test_a_tree_holding_a_link_the_night_did_not_make_is_refused_before_the_run(
    small_data: Path, tmp_path: Path, plant: Plant
) -> None:
    out, outside = tmp_path / "out", outside_folder(tmp_path)
    before = sorted(p.name for p in outside.iterdir())
    plant(out, outside)
    with pytest.raises(InputError) as refused:
        check_night(RunConfig(data_dir=small_data, out_dir=out, report_date=DAY))
    assert f"the output folder {out} holds a link " in refused.value.message
    assert "\n" not in refused.value.message
    assert sorted(p.name for p in outside.iterdir()) == before


def fifo(path: Path) -> None:
    os.mkfifo(path)


def unix_socket(path: Path) -> None:
    """Bound by its name from its folder: a socket's address is short, its path may not be."""
    here = Path.cwd()
    os.chdir(path.parent)
    try:
        with socket.socket(socket.AF_UNIX) as server:
            server.bind(path.name)
    finally:
        os.chdir(here)


@pytest.mark.parametrize(
    ("place", "make", "said"),
    [
        ("manifest.json", Path.mkdir, "a folder at"),
        ("accepted/P1.md", Path.mkdir, "a folder at"),
        ("rejected/index.jsonl", Path.mkdir, "a folder at"),
        ("decisions.jsonl", fifo, "a FIFO at"),
        ("rejected/AAA__move.json", fifo, "a FIFO at"),
        ("review.html", unix_socket, "a socket at"),
    ],
)
def test_a_folder_fifo_or_socket_where_a_file_goes_is_refused_before_the_run(
    small_data: Path, tmp_path: Path, place: str, make: Callable[[Path], None], said: str
) -> None:
    out = tmp_path / "out"
    path = out / DAY.isoformat() / place
    path.parent.mkdir(parents=True)
    make(path)
    with pytest.raises(InputError) as refused:
        check_night(RunConfig(data_dir=small_data, out_dir=out, report_date=DAY))
    assert f"{said} {path}" in refused.value.message
    assert "\n" not in refused.value.message


def test_removing_stale_files_never_deletes_through_a_link(tmp_path: Path) -> None:
    outside = outside_folder(tmp_path)
    before = sorted(p.name for p in outside.iterdir())
    accepted = tmp_path / "day" / "accepted"
    accepted.parent.mkdir()
    accepted.symlink_to(outside)
    assert remove_stale(accepted, set()) == []
    accepted.unlink()
    accepted.mkdir()
    (accepted / "P1.md").write_text("this publish's")
    (accepted / "old.md").symlink_to(outside / "P1.md")
    assert remove_stale(accepted, {accepted / "P1.md"}) == [accepted / "old.md"]
    assert not os.path.lexists(accepted / "old.md") and (accepted / "P1.md").exists()
    assert sorted(p.name for p in outside.iterdir()) == before


def test_removing_orphans_never_enters_a_linked_folder(tmp_path: Path) -> None:
    outside = outside_folder(tmp_path)
    before = sorted(p.name for p in outside.iterdir())
    results = tmp_path / "out" / ".results"
    (results / "real").mkdir(parents=True)
    orphan = results / "real" / f".r.json.{HOST}-{dead_pid()}.xyz.tmp"
    orphan.write_text("half a file")
    (results / "elsewhere").symlink_to(outside)
    assert remove_orphans(results) == [orphan]
    linked = tmp_path / "out" / ".batches"
    linked.symlink_to(outside)
    assert remove_orphans(linked) == []
    assert sorted(p.name for p in outside.iterdir()) == before


@pytest.mark.parametrize("night", ["night_en", "night_es"])
def test_a_report_is_written_as_its_json_mode_dump_reads(
    night: str, request: pytest.FixtureRequest, tmp_path: Path
) -> None:
    """`write_json` writes a model from its fields, not through a dump of it: the text is the
    one the dump gives, so a report reads back as itself."""
    from pydantic_core import to_json

    from flows.publish.layout import write_json
    from flows.publish.report import PortfolioReport

    day: Path = request.getfixturevalue(night)
    paths = sorted((day / "accepted").glob("*.json"))
    assert paths
    for path in paths:
        report = PortfolioReport.model_validate_json(path.read_text())
        write_json(tmp_path / path.name, report)
        written = (tmp_path / path.name).read_text()
        assert written == to_json(report.model_dump(mode="json"), indent=2).decode() + "\n"
        assert written == path.read_text()
        assert PortfolioReport.model_validate_json(written) == report

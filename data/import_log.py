"""What an import did to its input: rows read and kept per table, and every row it changed.

Nothing is dropped or repaired silently: each such row becomes a `RowNote` with where it came
from and why; choices that concern a whole ticker (which source won, which dividends matched)
become `Remark`s. The CLI prints them all.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from contract.errors import InputError

Action = Literal["dropped", "repaired"]


@dataclass(frozen=True)
class RowNote:
    """One input row dropped or repaired: table, source file and line, and the reason."""

    action: Action
    table: str
    source: str
    line: int
    reason: str

    def __str__(self) -> str:
        return f"{self.action} {self.table} {self.source}:{self.line}: {self.reason}"


@dataclass
class ImportLog:
    """The running account of one import."""

    read: Counter[str] = field(default_factory=Counter)
    kept: Counter[str] = field(default_factory=Counter)
    notes: list[RowNote] = field(default_factory=list)
    remarks: list[str] = field(default_factory=list)

    def note(self, action: Action, table: str, source: str, line: int, reason: str) -> None:
        self.notes.append(RowNote(action, table, source, line, reason))

    def count(self, action: Action, table: str, reason_prefix: str = "") -> int:
        """Rows of `table` with `action` whose reason starts with `reason_prefix`."""
        return sum(
            n.action == action and n.table == table and n.reason.startswith(reason_prefix)
            for n in self.notes
        )

    def render(self) -> list[str]:
        """The summary as printable lines: notes, remarks, then one line per table."""
        lines = [str(n) for n in self.notes] + self.remarks
        for table in sorted(self.read.keys() | self.kept.keys()):
            dropped, repaired = self.count("dropped", table), self.count("repaired", table)
            lines.append(
                f"{table}: read {self.read[table]:,}, kept {self.kept[table]:,}"
                f" (dropped {dropped:,}, repaired {repaired:,})"
            )
        return lines


def require_utf8(path: Path, flag: str) -> None:
    """The file is UTF-8 text (a BOM allowed); otherwise one line saying where it is not."""
    data = path.read_bytes()
    try:
        data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise InputError(
            f"{flag} {path} line {line}: not UTF-8 text (byte 0x{data[exc.start]:02x}); "
            "re-save the file as UTF-8"
        ) from None

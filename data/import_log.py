"""What an import did to its input: rows read and kept per table, and every row it changed.

Nothing is dropped or repaired silently: each such row becomes a `RowNote` with where it came
from, why, and the kind of reason it counts under; choices that concern a whole ticker (which
source won, which dividends matched) become `Remark`s. The printed summary lists the notes of a
table one by one while they are few (`LISTED_NOTES`), and always counts them by kind in the
table's one line: a feed of ten thousand tweets gives one line, not a thousand.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from contract.errors import InputError

Action = Literal["dropped", "repaired"]
LISTED_NOTES = 10
"""A table with more notes of one action than this gets them counted by kind, not listed."""
SHOWN_KINDS = 10


@dataclass(frozen=True)
class RowNote:
    """One input row dropped or repaired: table, source file and line, and the reason."""

    action: Action
    table: str
    source: str
    line: int
    reason: str
    kind: str = ""
    """What the reason counts under in the summary ("retweet copy"); the reason itself if empty."""

    def __str__(self) -> str:
        return f"{self.action} {self.table} {self.source}:{self.line}: {self.reason}"


@dataclass
class ImportLog:
    """The running account of one import."""

    read: Counter[str] = field(default_factory=Counter)
    kept: Counter[str] = field(default_factory=Counter)
    notes: list[RowNote] = field(default_factory=list)
    remarks: list[str] = field(default_factory=list)

    def note(
        self, action: Action, table: str, source: str, line: int, reason: str, kind: str = ""
    ) -> None:
        self.notes.append(RowNote(action, table, source, line, reason, kind))

    def count(self, action: Action, table: str, reason_prefix: str = "") -> int:
        """Rows of `table` with `action` whose reason starts with `reason_prefix`."""
        return sum(
            n.action == action and n.table == table and n.reason.startswith(reason_prefix)
            for n in self.notes
        )

    def render(self) -> list[str]:
        """The summary as printable lines: the notes of actions with few, remarks, then one
        line per table with its notes counted by kind."""
        lines = [str(n) for n in self.notes if self.listed(n.action, n.table)] + self.remarks
        for table in sorted(self.read.keys() | self.kept.keys()):
            parts = [
                f"{action} {self.count(action, table):,}{self.kinds(action, table)}"
                for action in ("dropped", "repaired")
            ]
            counts = ("; " if any(":" in p for p in parts) else ", ").join(parts)
            lines.append(
                f"{table}: read {self.read[table]:,}, kept {self.kept[table]:,} ({counts})"
                + self.unnoted(table)
            )
        return lines

    def unnoted(self, table: str) -> str:
        """What makes read and kept differ beyond the rows dropped: rows that two sources both
        hold, kept once (prices, events), or rows the import adds (placeholder companies,
        portfolios derived from holdings)."""
        gap = self.read[table] - self.count("dropped", table) - self.kept[table]
        if gap > 0:
            return f"; {gap:,} also in an earlier source, kept once"
        return f"; {-gap:,} added by the import" if gap else ""

    def listed(self, action: Action, table: str) -> bool:
        """Whether the notes of this action and table are few enough to print one by one."""
        return self.count(action, table) <= LISTED_NOTES

    def kinds(self, action: Action, table: str) -> str:
        """`: 3 retweet copy, 2 off topic` for notes not listed one by one, else nothing."""
        if self.listed(action, table):
            return ""
        kinds = Counter(
            n.kind or n.reason for n in self.notes if n.action == action and n.table == table
        )
        shown = [f"{n:,} {kind}" for kind, n in kinds.most_common(SHOWN_KINDS)]
        if len(kinds) > SHOWN_KINDS:
            shown.append(f"{sum(n for _, n in kinds.most_common()[SHOWN_KINDS:]):,} other")
        return ": " + ", ".join(shown)


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

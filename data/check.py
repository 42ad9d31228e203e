"""Validate a data folder against the contract and report every violation with table, column and row.

Rows are numbered from 0 in file order. A rule that fails on many rows reports the first
`MAX_ROWS_PER_RULE` of them and one more line with the count of the rest, so a broken file of
millions of rows still gives a readable report.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from contract.errors import InputError
from data.calendar import is_trading_day
from data.contract import (
    EVENT_KINDS,
    EXCHANGES,
    MAX_DAY_MOVE,
    PRICE_BASES,
    TABLES,
    Table,
    id_problem,
    is_safe_name,
)

MAX_ROWS_PER_RULE = 20
Frames = dict[str, pd.DataFrame]


@dataclass(frozen=True)
class Violation:
    """One broken rule: where (table, column, row; None when it concerns the whole) and what."""

    table: str
    column: str | None
    row: int | None
    message: str

    def __str__(self) -> str:
        where = self.table if self.column is None else f"{self.table}.{self.column}"
        return (
            f"{where}: {self.message}"
            if self.row is None
            else f"{where} row {self.row}: {self.message}"
        )


def _is_text(t: pa.DataType) -> bool:
    return pa.types.is_string(t) or pa.types.is_large_string(t)


_KINDS: tuple[Callable[[pa.DataType], bool], ...] = (
    _is_text,
    pa.types.is_integer,
    pa.types.is_floating,
    pa.types.is_date32,
)


def _same_kind(expected: pa.DataType, found: pa.DataType) -> bool:
    """Types a reader treats alike: any string encoding, any integer width, timestamps in UTC."""
    if pa.types.is_dictionary(found):
        found = found.value_type
    if pa.types.is_timestamp(expected):
        return pa.types.is_timestamp(found) and found.tz in ("UTC", "Etc/UTC", "+00:00")
    return any(kind(expected) and kind(found) for kind in _KINDS)


def _describe(found: pa.DataType) -> str:
    if pa.types.is_timestamp(found):
        return f"timestamp without time zone ({found})" if found.tz is None else f"{found}"
    return str(found)


def _load(data_dir: Path, table: Table) -> tuple[pd.DataFrame | None, list[Violation]]:
    """Read one table, keeping only the contract columns of the right type."""
    path = data_dir / table.filename
    if not path.is_file():
        return None, [Violation(table.name, None, None, f"missing file {table.filename}")]
    try:
        arrow = pq.read_table(path)
    except (OSError, pa.ArrowException) as exc:
        reason = " ".join(str(exc).split()).rstrip(".")
        message = f"unreadable Parquet file {table.filename}: {reason}"
        return None, [Violation(table.name, None, None, message)]
    found: list[Violation] = []
    keep = []
    non_finite: dict[str, np.ndarray] = {}
    for name in arrow.column_names:
        if name not in table.columns:
            found.append(Violation(table.name, name, None, "extra column, not in the contract"))
    for field in table.schema:
        if field.name not in arrow.column_names:
            if field.name not in table.optional:
                found.append(Violation(table.name, field.name, None, "missing column"))
            continue
        actual = arrow.schema.field(field.name).type
        if not _same_kind(field.type, actual):
            message = f"wrong type: expected {field.type}, found {_describe(actual)}"
            if pa.types.is_timestamp(field.type) and pa.types.is_timestamp(actual):
                message += "; news and event timestamps must be stored in UTC"
            found.append(Violation(table.name, field.name, None, message))
            continue
        keep.append(field.name)
        nulls = arrow.column(field.name).is_null().to_numpy(zero_copy_only=False)
        if field.name not in table.nullable:
            found += _rows(table.name, field.name, None, nulls, "null in a non-nullable column")
        if pa.types.is_floating(field.type):
            finite = pc.is_finite(arrow.column(field.name)).fill_null(True)
            non_finite[field.name] = ~finite.to_numpy(zero_copy_only=False)
    frame = arrow.select(keep).to_pandas()
    for name, bad in non_finite.items():
        found += _rows(table.name, name, frame, bad, f"{{{name}}} is not a finite number")
    return frame, found


def _rows(
    table: str, column: str, frame: pd.DataFrame | None, bad: np.ndarray, message: str
) -> list[Violation]:
    """One violation per flagged row (`message` formatted with the row's fields), capped."""
    rows = np.flatnonzero(bad)
    found = [
        Violation(
            table,
            column,
            int(r),
            message.format(**frame.iloc[r].to_dict()) if frame is not None else message,
        )
        for r in rows[:MAX_ROWS_PER_RULE]
    ]
    if rows.size > MAX_ROWS_PER_RULE:
        extra = rows.size - MAX_ROWS_PER_RULE
        found.append(Violation(table, column, None, f"{extra} more rows like row {rows[0]}"))
    return found


# (table, column reported, rows that break the rule as a pandas expression, message)
ROW_RULES: tuple[tuple[str, str, str, str], ...] = (
    ("prices", "open", "open <= 0", "price {open} must be positive"),
    ("prices", "high", "high <= 0", "price {high} must be positive"),
    ("prices", "low", "low <= 0", "price {low} must be positive"),
    ("prices", "close", "close <= 0", "price {close} must be positive"),
    ("prices", "high", "high < low", "high {high} < low {low}"),
    ("prices", "close", "close < low or close > high", "close {close} outside [low {low}, high {high}]"),
    ("prices", "close", "close > 0 and (close < 0.0001 or close > 1e9)", "implausible price {close}"),
    ("prices", "open", "open < low or open > high", "open {open} outside [low {low}, high {high}]"),
    ("prices", "volume", "volume < 0", "negative volume {volume}"),
    ("holdings", "quantity", "quantity <= 0", "quantity {quantity} must be positive"),
    ("holdings", "cost_basis", "cost_basis < 0", "cost basis {cost_basis} must not be negative"),
)  # fmt: skip
# (table, column, allowed values or a regular expression, what is allowed)
DOMAINS: tuple[tuple[str, str, tuple[str, ...] | str, str], ...] = (
    ("events", "kind", EVENT_KINDS, f"one of {', '.join(EVENT_KINDS)}"),
    ("companies", "exchange", tuple(EXCHANGES), f"one of {', '.join(EXCHANGES)}"),
    ("companies", "currency", "[A-Z]{3}", "an ISO code like USD"),
    ("companies", "price_basis", PRICE_BASES, f"one of {', '.join(PRICE_BASES)}"),
    ("portfolios", "base_currency", "[A-Z]{3}", "an ISO code like USD"),
)  # fmt: skip
# (table, column) whose values name files: each value once, where it is defined
FILE_NAMES = (("companies", "ticker"), ("portfolios", "portfolio_id"))
# (table, column, the table it refers to, the column there); a null refers to nothing
REFERENCES = (
    ("prices", "ticker", "companies", "ticker"),
    ("news", "ticker", "companies", "ticker"),
    ("events", "ticker", "companies", "ticker"),
    ("holdings", "ticker", "companies", "ticker"),
    ("holdings", "portfolio_id", "portfolios", "portfolio_id"),
    ("portfolios", "benchmark", "companies", "ticker"),
)


def _columns(frames: Frames, table: str, *columns: str) -> pd.DataFrame | None:
    frame = frames.get(table)
    if frame is None or any(c not in frame.columns for c in columns):
        return None
    return frame


def _duplicate_keys(frames: Frames) -> Iterator[Violation]:
    for table in TABLES.values():
        frame = _columns(frames, table.name, *table.key)
        if frame is not None:
            bad = frame.duplicated(list(table.key), keep="first").to_numpy()
            key = ", ".join(table.key)
            values = ", ".join(f"{{{c}}}" for c in table.key)
            yield from _rows(
                table.name, table.key[-1], frame, bad, f"duplicate key ({key}) = ({values})"
            )


def _row_rules(frames: Frames) -> Iterator[Violation]:
    for table, column, expression, message in ROW_RULES:
        frame = _columns(frames, table, *(c for c in TABLES[table].columns if c in expression))
        if frame is not None:
            bad = np.asarray(frame.eval(expression), dtype=bool)
            yield from _rows(table, column, frame, bad, message)


def _sessions(frames: Frames) -> Iterator[Violation]:
    frame = _columns(frames, "prices", "date")
    if frame is not None:
        closed = {d for d in frame["date"].dropna().unique() if not is_trading_day(d)}
        bad = frame["date"].isin(closed).to_numpy()
        yield from _rows("prices", "date", frame, bad, "{date} is not a trading session")


def _domains(frames: Frames) -> Iterator[Violation]:
    for table, column, allowed, wanted in DOMAINS:
        frame = _columns(frames, table, column)
        if frame is not None:
            values = frame[column]
            if isinstance(allowed, str):
                valid = values.str.fullmatch(allowed).fillna(True).astype(bool)
            else:
                valid = values.isin(allowed) | values.isna()
            bad = (~valid).to_numpy()
            yield from _rows(table, column, frame, bad, f"{{{column}!r}} must be {wanted}")


def _references(frames: Frames) -> Iterator[Violation]:
    for table, column, target, key in REFERENCES:
        frame, known = _columns(frames, table, column), _columns(frames, target, key)
        if frame is not None and known is not None:
            bad = (~frame[column].isin(set(known[key].dropna())) & frame[column].notna()).to_numpy()
            noun = key.replace("_id", "")
            message = f"unknown {noun} {{{column}!r}} (not in {target})"
            yield from _rows(table, column, frame, bad, message)


def safe_spelling(name: str) -> str:
    """A spelling of `name` that can be a file name (BRK/B as BRK.B), or '' when none is near."""
    dotted = re.sub(r"\.{2,}", ".", re.sub(r"[^A-Za-z0-9._-]+", ".", name)).strip("._-")
    return dotted if dotted and is_safe_name(dotted) else ""


def _fix(name: object) -> str:
    spelled = re.sub("_{2,}", "_", safe_spelling(name)) if isinstance(name, str) else ""
    if spelled and id_problem(spelled) is None:
        return f"write it as {spelled!r}"
    return "rename it"


def _file_names(frames: Frames) -> Iterator[Violation]:
    """Every id that names files, Prefect artifacts and case ids passes `id_problem`, and no
    two differ only by case (one file on a case-insensitive file system, one artifact key)."""
    for table, column in FILE_NAMES:
        frame = _columns(frames, table, column)
        if frame is None:
            continue
        values = frame[column]
        problems = values.map(lambda v: id_problem(v) if isinstance(v, str) else None)
        bad = problems.notna().to_numpy()
        noun = column.replace("_id", " id")
        message = f"{noun} {{{column}!r}} cannot be a file name: {{problem}}; {{fix}}"
        shown = frame.assign(problem=problems, fix=values.map(_fix)) if bad.any() else frame
        yield from _rows(table, column, shown, bad, message)
        folded = values.map(lambda v: v.casefold() if isinstance(v, str) else v)
        first = values.groupby(folded).transform("first")
        clash = (folded.duplicated(keep="first") & (values != first)).to_numpy()
        message = (
            f"{noun} {{{column}!r}} differs from {{first!r}} only by case: their reports and "
            "artifacts would be one; rename one of them"
        )
        yield from _rows(table, column, frame.assign(first=first), clash, message)


def _day_moves(frames: Frames, bound: float) -> Iterator[Violation]:
    prices = _columns(frames, "prices", "ticker", "date", "close")
    if prices is None or prices.empty:
        return
    order = prices.sort_values(["ticker", "date"], kind="stable")
    ratio = order["close"] / order.groupby("ticker")["close"].shift(1)
    events = _columns(frames, "events", "ticker", "date", "kind", "value")
    companies = _columns(frames, "companies", "ticker", "price_basis")
    if events is not None and companies is not None:
        as_traded = set(companies.loc[companies["price_basis"] == "as_traded", "ticker"])
        splits = events[(events["kind"] == "split") & (events["value"] > 0)]
        splits = splits[splits["ticker"].isin(as_traded)]
        factor = splits.groupby(["ticker", "date"])["value"].prod()
        keys = pd.MultiIndex.from_frame(order[["ticker", "date"]])
        ratio = ratio * factor.reindex(keys).fillna(1.0).to_numpy()
    positive = order["close"] > 0
    bad = positive & ((ratio > bound) | (ratio < 1 / bound))
    shown = prices.assign(move=ratio.reindex(prices.index))
    yield from _rows(
        "prices",
        "close",
        shown,
        bad.reindex(prices.index).fillna(False).to_numpy(dtype=bool),
        f"close {{close}} on {{date}} is {{move:.4g}} times the session before's (splits taken "
        f"out), beyond the bound of {bound:g}: fix the price or record the split",
    )


RULES = (_duplicate_keys, _row_rules, _sessions, _domains, _references, _file_names)


def check_dataset(data_dir: Path, *, max_day_move: float = MAX_DAY_MOVE) -> list[Violation]:
    """Every contract violation in `data_dir`; an empty list means the folder is valid.
    `max_day_move`: the largest factor between two closes in a row that is taken as real."""
    data_dir = Path(data_dir)
    if not data_dir.is_dir():
        what = "is a file, not a folder" if data_dir.exists() else "no such folder"
        raise InputError(f"{data_dir}: {what}; pass the folder that holds the Parquet files")
    frames: Frames = {}
    violations: list[Violation] = []
    for table in TABLES.values():
        frame, found = _load(data_dir, table)
        violations += found
        if frame is not None:
            frames[table.name] = frame
    for rule in RULES:
        violations += rule(frames)
    violations += _day_moves(frames, max_day_move)
    return violations


def count_rows(data_dir: Path) -> int:
    """Rows across the contract tables, from the Parquet footers."""
    return sum(
        pq.ParquetFile(Path(data_dir) / t.filename).metadata.num_rows for t in TABLES.values()
    )

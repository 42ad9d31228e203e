"""Validate a data folder against the contract and report every violation with table, column and row.

Rows are numbered from 0 in file order. A rule that fails on many rows reports the first
`MAX_ROWS_PER_RULE` of them and one more line with the count of the rest, so a broken file of
millions of rows still gives a readable report.

Each file's schema is read from its footer (pyarrow: it keeps the time zone Arrow wrote); the
rules run as SQL in DuckDB over the files themselves, so a check holds no table in Python and
only the rows it reports are fetched. Comparisons follow IEEE: a NaN breaks no rule but its own.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import duckdb
import pyarrow as pa
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
ROW = "__row"
"""The column holding a row's number in its file."""


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


def _name(identifier: str) -> str:
    return '"' + identifier.replace('"', '""') + '"'


def _text(value: str) -> str:
    return "'" + value.replace("'", "''") + "'"


def _number(column: str) -> str:
    """A floating column as the rules compare it: NaN as null, so that it breaks no rule."""
    return f"nullif({_name(column)}, 'NaN'::DOUBLE)"


@dataclass
class Tables:
    """The tables that could be read, each a DuckDB view over its file holding the row number
    and the contract columns of the right type."""

    con: duckdb.DuckDBPyConnection
    columns: dict[str, list[str]]
    floats: dict[str, set[str]]

    def has(self, table: str, *columns: str) -> bool:
        kept = self.columns.get(table)
        return kept is not None and all(c in kept for c in columns)

    @staticmethod
    def view(table: str) -> str:
        return _name(f"t_{table}")

    def rows(
        self,
        table: str,
        column: str,
        where: str,
        message: str,
        *,
        source: str | None = None,
        formatted: bool = True,
    ) -> list[Violation]:
        """One violation per row of `source` (the table's view) matching `where`, `message`
        formatted with the row's fields; capped at `MAX_ROWS_PER_RULE` and a count."""
        query = (
            f"SELECT *, count(*) OVER () AS __n FROM ({source or 'FROM ' + self.view(table)}) "
            f"WHERE {where} ORDER BY {ROW} LIMIT {MAX_ROWS_PER_RULE}"
        )
        cursor = self.con.execute(query)
        names = [d[0] for d in cursor.description]
        found = [dict(zip(names, values, strict=True)) for values in cursor.fetchall()]
        return _capped(
            table,
            column,
            [(r[ROW], message.format(**r) if formatted else message) for r in found],
            found[0]["__n"] if found else 0,
        )

    def listed(
        self, table: str, column: str, flagged: Sequence[int], message: str, extra: dict[int, Any]
    ) -> list[Violation]:
        """One violation per row numbered in `flagged` (ascending), formatted with its fields and
        `extra[row]`; capped like `rows`."""
        shown = list(flagged[:MAX_ROWS_PER_RULE])
        if not shown:
            return []
        cursor = self.con.execute(
            f"FROM {self.view(table)} WHERE {ROW} IN ({', '.join(map(str, shown))}) ORDER BY {ROW}"
        )
        names = [d[0] for d in cursor.description]
        fields = [dict(zip(names, values, strict=True)) for values in cursor.fetchall()]
        lines = [(f[ROW], message.format(**f, **extra[f[ROW]])) for f in fields]
        return _capped(table, column, lines, len(flagged))


def _capped(table: str, column: str, lines: list[tuple[int, str]], total: int) -> list[Violation]:
    found = [Violation(table, column, int(row), text) for row, text in lines]
    if total > MAX_ROWS_PER_RULE:
        extra = total - MAX_ROWS_PER_RULE
        found.append(Violation(table, column, None, f"{extra} more rows like row {lines[0][0]}"))
    return found


def _load(tables: Tables, data_dir: Path, table: Table) -> list[Violation]:
    """Check one file's schema, open its view, and report nulls and non-finite numbers."""
    path = data_dir / table.filename
    if not path.is_file():
        return [Violation(table.name, None, None, f"missing file {table.filename}")]
    try:
        schema = pq.read_schema(path)
    except (OSError, pa.ArrowException) as exc:
        return [_unreadable(table, exc)]
    found = [
        Violation(table.name, name, None, "extra column, not in the contract")
        for name in schema.names
        if name not in table.columns
    ]
    checks: list[tuple[str, Violation | None]] = []
    keep: list[str] = []
    for field in table.schema:
        if field.name not in schema.names:
            if field.name not in table.optional:
                checks.append(
                    (field.name, Violation(table.name, field.name, None, "missing column"))
                )
            continue
        actual = schema.field(field.name).type
        if not _same_kind(field.type, actual):
            message = f"wrong type: expected {field.type}, found {_describe(actual)}"
            if pa.types.is_timestamp(field.type) and pa.types.is_timestamp(actual):
                message += "; news and event timestamps must be stored in UTC"
            checks.append((field.name, Violation(table.name, field.name, None, message)))
            continue
        keep.append(field.name)
        checks.append((field.name, None))
    floats = {f.name for f in table.schema if f.name in keep and pa.types.is_floating(f.type)}
    columns = ", ".join([f"file_row_number AS {ROW}", *map(_name, keep)])
    try:
        tables.con.execute(
            f"CREATE VIEW {tables.view(table.name)} AS SELECT {columns} "
            f"FROM read_parquet({_text(str(path))}, file_row_number = true)"
        )
        nulls = [c for c in keep if c not in table.nullable]
        counts = [f"count(*) FILTER (WHERE {_name(c)} IS NULL)" for c in nulls]
        counts += [f"count(*) FILTER (WHERE NOT isfinite({_name(c)}))" for c in sorted(floats)]
        row = tables.con.execute(
            f"SELECT {', '.join(counts) or '0'} FROM {tables.view(table.name)}"
        ).fetchone()
    except duckdb.Error as exc:
        tables.con.execute(f"DROP VIEW IF EXISTS {tables.view(table.name)}")
        return [*found, _unreadable(table, exc)]
    assert row is not None
    tables.columns[table.name], tables.floats[table.name] = keep, floats
    null_count = dict(zip(nulls, row, strict=False))
    for name, problem in checks:
        if problem is not None:
            found.append(problem)
        elif null_count.get(name):
            where = f"{_name(name)} IS NULL"
            found += tables.rows(
                table.name, name, where, "null in a non-nullable column", formatted=False
            )
    for name in keep:
        if name in floats:
            where = f"NOT isfinite({_name(name)})"
            found += tables.rows(table.name, name, where, f"{{{name}}} is not a finite number")
    return found


def _unreadable(table: Table, exc: Exception) -> Violation:
    reason = " ".join(str(exc).split()).rstrip(".")
    return Violation(table.name, None, None, f"unreadable Parquet file {table.filename}: {reason}")


# (table, column reported, rows that break the rule as an SQL condition, message)
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


def _duplicate_keys(tables: Tables) -> Iterator[Violation]:
    for table in TABLES.values():
        if tables.has(table.name, *table.key):
            key = ", ".join(table.key)
            values = ", ".join(f"{{{c}}}" for c in table.key)
            keys = ", ".join(map(_name, table.key))
            same = " AND ".join(f"t.{k} IS NOT DISTINCT FROM d.{k}" for k in map(_name, table.key))
            twice = f"SELECT {keys} FROM {tables.view(table.name)} GROUP BY ALL HAVING count(*) > 1"
            ranked = (  # only the rows of keys seen twice are ranked: none, in a valid file
                f"SELECT t.*, row_number() OVER (PARTITION BY {keys} ORDER BY {ROW}) AS __seen "
                f"FROM {tables.view(table.name)} AS t SEMI JOIN ({twice}) AS d ON {same}"
            )
            yield from tables.rows(
                table.name,
                table.key[-1],
                "__seen > 1",
                f"duplicate key ({key}) = ({values})",
                source=ranked,
            )


def _row_rules(tables: Tables) -> Iterator[Violation]:
    for table, column, condition, message in ROW_RULES:
        needed = [c for c in TABLES[table].columns if c in condition]
        if tables.has(table, *needed):
            yield from tables.rows(
                table, column, _nan_free(condition, tables.floats[table]), message
            )


def _nan_free(condition: str, floats: set[str]) -> str:
    """`condition` with each floating column read as `_number` reads it."""
    return re.sub(r"\b[a-z_]+\b", lambda m: _number(m[0]) if m[0] in floats else m[0], condition)


def _sessions(tables: Tables) -> Iterator[Violation]:
    if tables.has("prices", "date"):
        dates = tables.con.execute(
            f"SELECT DISTINCT date FROM {tables.view('prices')} WHERE date IS NOT NULL"
        ).fetchall()
        closed = sorted(d for (d,) in dates if not is_trading_day(d))
        if closed:
            listed = ", ".join(f"DATE '{d.isoformat()}'" for d in closed)
            where = f"date IN ({listed})"
            yield from tables.rows("prices", "date", where, "{date} is not a trading session")


def _domains(tables: Tables) -> Iterator[Violation]:
    for table, column, allowed, wanted in DOMAINS:
        if tables.has(table, column):
            name = _name(column)
            if isinstance(allowed, str):
                where = f"{name} IS NOT NULL AND NOT regexp_full_match({name}, {_text(allowed)})"
            else:
                where = f"{name} IS NOT NULL AND {name} NOT IN ({', '.join(map(_text, allowed))})"
            message = f"{{{column}!r}} must be {wanted}"
            yield from tables.rows(table, column, where, message)


def _references(tables: Tables) -> Iterator[Violation]:
    for table, column, target, key in REFERENCES:
        if tables.has(table, column) and tables.has(target, key):
            known = f"SELECT {_name(key)} FROM {tables.view(target)} WHERE {_name(key)} IS NOT NULL"
            where = f"{_name(column)} IS NOT NULL AND {_name(column)} NOT IN ({known})"
            noun = key.replace("_id", "")
            message = f"unknown {noun} {{{column}!r}} (not in {target})"
            yield from tables.rows(table, column, where, message)


def safe_spelling(name: str) -> str:
    """A spelling of `name` that can be a file name (BRK/B as BRK.B), or '' when none is near."""
    dotted = re.sub(r"\.{2,}", ".", re.sub(r"[^A-Za-z0-9._-]+", ".", name)).strip("._-")
    return dotted if dotted and is_safe_name(dotted) else ""


def _fix(name: object) -> str:
    spelled = re.sub("_{2,}", "_", safe_spelling(name)) if isinstance(name, str) else ""
    if spelled and id_problem(spelled) is None:
        return f"write it as {spelled!r}"
    return "rename it"


def _file_names(tables: Tables) -> Iterator[Violation]:
    """Every id that names files, Prefect artifacts and case ids passes `id_problem`, and no
    two differ only by case (one file on a case-insensitive file system, one artifact key)."""
    for table, column in FILE_NAMES:
        if not tables.has(table, column):
            continue
        values = tables.con.execute(
            f"SELECT {ROW}, {_name(column)} FROM {tables.view(table)} ORDER BY {ROW}"
        ).fetchall()
        noun = column.replace("_id", " id")
        problems = {
            row: {"problem": problem, "fix": _fix(value)}
            for row, value in values
            if isinstance(value, str) and (problem := id_problem(value)) is not None
        }
        message = f"{noun} {{{column}!r}} cannot be a file name: {{problem}}; {{fix}}"
        yield from tables.listed(table, column, sorted(problems), message, problems)
        first: dict[str, str] = {}
        clashes: dict[int, Any] = {}
        for row, value in values:
            if isinstance(value, str):
                seen = first.setdefault(value.casefold(), value)
                if seen != value:
                    clashes[row] = {"first": seen}
        message = (
            f"{noun} {{{column}!r}} differs from {{first!r}} only by case: their reports and "
            "artifacts would be one; rename one of them"
        )
        yield from tables.listed(table, column, sorted(clashes), message, clashes)


def _day_moves(tables: Tables, bound: float) -> Iterator[Violation]:
    if not tables.has("prices", "ticker", "date", "close"):
        return
    close = _number("close")
    splits = "SELECT NULL::VARCHAR AS ticker, NULL::DATE AS date, 1.0 AS factor WHERE false"
    if tables.has("events", "ticker", "date", "kind", "value") and tables.has(
        "companies", "ticker", "price_basis"
    ):
        as_traded = f"SELECT ticker FROM {tables.view('companies')} WHERE price_basis = 'as_traded'"
        splits = (
            f"SELECT ticker, date, product(value) AS factor FROM {tables.view('events')} "
            f"WHERE kind = 'split' AND {_number('value')} > 0 AND ticker IN ({as_traded}) "
            "GROUP BY ticker, date"
        )
    moves = (
        f"SELECT p.*, CASE WHEN p.ticker IS NOT NULL THEN {close} / lag({close}) OVER ("
        f"PARTITION BY p.ticker ORDER BY p.date, p.{ROW}) END * coalesce(s.factor, 1.0) AS move "
        f"FROM {tables.view('prices')} AS p LEFT JOIN ({splits}) AS s "
        "ON p.ticker = s.ticker AND p.date = s.date"
    )
    yield from tables.rows(
        "prices",
        "close",
        f"{close} > 0 AND (move > {bound!r} OR move < {1 / bound!r})",
        f"close {{close}} on {{date}} is {{move:.4g}} times the session before's (splits taken "
        f"out), beyond the bound of {bound:g}: fix the price or record the split",
        source=moves,
    )


RULES = (_duplicate_keys, _row_rules, _sessions, _domains, _references, _file_names)


def check_dataset(data_dir: Path, *, max_day_move: float = MAX_DAY_MOVE) -> list[Violation]:
    """Every contract violation in `data_dir`; an empty list means the folder is valid.
    `max_day_move`: the largest factor between two closes in a row that is taken as real."""
    data_dir = Path(data_dir)
    if not data_dir.is_dir():
        what = "is a file, not a folder" if data_dir.exists() else "no such folder"
        raise InputError(f"{data_dir}: {what}; pass the folder that holds the Parquet files")
    with duckdb.connect() as con:
        con.execute("SET TimeZone = 'UTC'")
        con.execute("SET enable_progress_bar = false")  # a check prints only its violations
        tables = Tables(con, {}, {})
        violations: list[Violation] = []
        for table in TABLES.values():
            violations += _load(tables, data_dir, table)
        for rule in RULES:
            violations += rule(tables)
        violations += _day_moves(tables, max_day_move)
    return violations


def count_rows(data_dir: Path) -> int:
    """Rows across the contract tables, from the Parquet footers."""
    return sum(
        pq.ParquetFile(Path(data_dir) / t.filename).metadata.num_rows for t in TABLES.values()
    )

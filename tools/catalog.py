"""The catalog: one locked-down, read-only DuckDB file per (data, as-of moment).

A trusted step copies the contract's columns of every table, filtered to what was known
at the as-of moment and sorted by (ticker, date), into a per-run DuckDB file. The model's
queries then run on that file opened `read_only=True` with external access, extensions,
secrets, replacement scans and configuration changes switched off and a time limit per
query. Nothing outside the file is reachable, so neither the raw Parquet (future rows
included) nor any other path can be read or written. See tools/README.md.

Data that breaks the contract (an unreadable file, a missing column, a NaN or negative price,
a ticker that cannot be a file name) is refused before the first build, once per data version,
with one line that points to `nightdesk data check`.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, time, timedelta
from pathlib import Path
from typing import Any, TypeVar

import duckdb
import pyarrow as pa

from contract.errors import InputError
from contract.processes import running
from data.contract import EXCHANGES, TABLES, Exchange, Table
from tools.sql_sandbox import SqlSandbox
from tools.sql_worker import lockdown_config
from tools.values import jsonable

T = TypeVar("T")
RECENT_KEYS = 256
"""Entries of `Catalog.memo_recent`: far more tickers than a night answers at once."""
ScopedRows = dict[str, dict[str, list[list[Any]]]]

BUILD_VERSION = "6"
"""Bumped when the build or the contract check changes: older files are rebuilt and rechecked."""
MARKET_TZ = EXCHANGES["NYSE"].tz
MARKET_CLOSE = EXCHANGES["NYSE"].close

DUCK_TYPES = {
    pa.string(): "VARCHAR",
    pa.date32(): "DATE",
    pa.float64(): "DOUBLE",
    pa.int64(): "BIGINT",
    pa.timestamp("us", tz="UTC"): "TIMESTAMPTZ",
}

# table -> (column that dates a row, which bound applies: the report date or the as-of moment)
AS_OF_RULES: dict[str, tuple[str, str] | None] = {
    "prices": ("date", "report_date"),
    "holdings": ("as_of", "report_date"),
    "news": ("published_at", "as_of"),
    "events": ("announced_at", "as_of"),
    "companies": None,
    "portfolios": None,
}
# columns whose value is not yet known at the as-of moment although the row is: an earnings
# date is announced weeks ahead, its EPS only on the day
MASKED_COLUMNS = {
    (
        "events",
        "value",
    ): "CASE WHEN kind = 'earnings' AND date > $report_date THEN NULL ELSE value END",
}
SCOPED_TABLES = tuple(n for n, t in TABLES.items() if "portfolio_id" in t.columns)
"""Tables whose rows belong to one portfolio: model SQL reads only its question's rows of them."""
SORT_KEYS = {
    "prices": "ticker, date",
    "news": "ticker, published_at",
    "events": "ticker, date",
    "holdings": "portfolio_id, as_of, ticker",
    "companies": "ticker",
    "portfolios": "portfolio_id",
}


@dataclass(frozen=True)
class Listing:
    """Where a ticker trades and the first and last session the catalog holds for it."""

    ticker: str
    exchange: Exchange
    first: date | None
    last: date | None
    price_basis: str = "as_traded"

    @property
    def adjusts_for_splits(self) -> bool:
        """As-traded prices drop on a split day; a change must divide the earlier close."""
        return self.price_basis == "as_traded"


@dataclass
class Catalog:
    """An open catalog: the report date, the as-of moment, and cursors on the locked file."""

    report_date: date
    as_of: datetime
    data_dir: Path
    fingerprint: str
    path: Path
    query_timeout_s: float
    sql_memory_mb: int = 1024
    listings: dict[str, Listing] = field(default_factory=dict)
    sessions: list[date] = field(default_factory=list)
    _con: duckdb.DuckDBPyConnection | None = None
    _lock: threading.Lock = field(default_factory=threading.Lock)
    _sandbox: SqlSandbox | None = None
    _memo: dict[Hashable, Any] = field(default_factory=dict)
    _memo_lock: threading.RLock = field(default_factory=threading.RLock)
    """Reentrant: a builder may use what another memo holds (a book, its portfolio's holdings)."""
    _recent: OrderedDict[Hashable, Any] = field(default_factory=OrderedDict)
    _building: dict[Hashable, threading.Lock] = field(default_factory=dict)
    _recent_lock: threading.Lock = field(default_factory=threading.Lock)

    def memo(self, key: Hashable, build: Callable[[], T]) -> T:
        """`build()` once per key for this catalog: its data never changes while it is open, so
        what every position of a portfolio needs (its book for a date) is read once, not once
        per position. One builder runs per catalog at a time; a failed build is not kept."""
        if key in self._memo:  # built: read without the lock every tool call would wait for
            return self._memo[key]  # type: ignore[no-any-return]
        with self._memo_lock:
            if key not in self._memo:
                self._memo[key] = build()
            return self._memo[key]  # type: ignore[no-any-return]

    def memo_recent(self, key: Hashable, build: Callable[[], T]) -> T:
        """`build()` once per key while the key is among the last `RECENT_KEYS` used: what one
        ticker's calls read together (its closes) is read once for all of them, and a night of
        20,000 tickers holds only the few hundred it is answering. Calls that want a key being
        built wait for that build instead of running their own; a failed build is not kept."""
        with self._recent_lock:
            if key in self._recent:
                self._recent.move_to_end(key)
                return self._recent[key]  # type: ignore[no-any-return]
            building = self._building.setdefault(key, threading.Lock())
        with building:
            with self._recent_lock:
                if key in self._recent:
                    return self._recent[key]  # type: ignore[no-any-return]
            try:
                value = build()
            finally:
                with self._recent_lock:
                    self._building.pop(key, None)
            with self._recent_lock:
                self._recent[key] = value
                while len(self._recent) > RECENT_KEYS:
                    self._recent.popitem(last=False)
            return value

    @property
    def price_cutoff(self) -> date:
        """The last date whose prices and holdings are visible: its session had closed by the
        as-of moment, and it is not after the report date."""
        local = self.as_of.astimezone(MARKET_TZ)
        closed = local.date() if local.time() >= MARKET_CLOSE else local.date() - timedelta(days=1)
        return min(self.report_date, closed)

    @contextmanager
    def cursor(self) -> Iterator[duckdb.DuckDBPyConnection]:
        """A cursor of its own for one thread or one tool call (a shared one returns wrong rows)."""
        with self._lock:
            if self._con is None:
                raise RuntimeError("the catalog is closed")
            cur = self._con.cursor()
        try:
            yield cur
        finally:
            cur.close()

    def portfolio_ids(self) -> list[str]:
        """Every portfolio of the data, sorted."""
        with self.cursor() as cur:
            rows = cur.execute("SELECT portfolio_id FROM portfolios ORDER BY 1").fetchall()
        return [portfolio_id for (portfolio_id,) in rows]

    @property
    def public_path(self) -> Path:
        """The file model SQL opens: every table but the portfolios' own (`SCOPED_TABLES`)."""
        return public_file(self.path)

    def scoped_rows(self, portfolios: frozenset[str] | None) -> ScopedRows:
        """The rows of `SCOPED_TABLES` that belong to `portfolios` (None: every portfolio's),
        with their columns and types: what a SQL worker holds of them, and nothing more."""

        def build() -> ScopedRows:
            wanted = None if portfolios is None else sorted(portfolios)
            where = "" if wanted is None else "WHERE list_contains($ids, portfolio_id)"
            params = {} if wanted is None else {"ids": wanted}
            tables: ScopedRows = {}
            with self.cursor() as cur:
                for name in SCOPED_TABLES:
                    schema = TABLES[name].schema
                    rows = cur.execute(f"SELECT * FROM {name} {where}", params).fetchall()
                    tables[name] = {
                        "columns": [[f.name, DUCK_TYPES[f.type]] for f in schema],
                        "rows": [[jsonable(v) for v in row] for row in rows],
                    }
            return tables

        key = None if portfolios is None else tuple(sorted(portfolios))
        return self.memo(("scoped rows", key), build)

    def sandbox(self) -> SqlSandbox:
        """The worker processes model-written SQL runs in (started on first use)."""
        with self._lock:
            if self._con is None:
                raise RuntimeError("the catalog is closed")
            if self._sandbox is None:
                self._sandbox = SqlSandbox(
                    self.public_path, timeout_s=self.query_timeout_s, memory_mb=self.sql_memory_mb
                )
            return self._sandbox

    def close(self) -> None:
        with self._lock:
            if self._con is not None:
                self._con.close()
                self._con = None
            sandbox, self._sandbox = self._sandbox, None
        if sandbox is not None:
            sandbox.close()

    def __enter__(self) -> Catalog:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def check_report_day(report_date: date) -> None:
    """A report date is a day with an end: the as-of moment is the start of the next day."""
    if report_date >= date.max:
        raise InputError(
            f"report date {report_date} has no next day, so its night has no end: "
            "pass --date a session of the data"
        )


def default_as_of(report_date: date) -> datetime:
    """The end of the report date on the exchange's clock, in UTC."""
    check_report_day(report_date)
    end = datetime.combine(report_date + timedelta(days=1), time(0), tzinfo=MARKET_TZ)
    return (end - timedelta(microseconds=1)).astimezone(UTC)


HASH_CHUNK = 1 << 20


def fingerprint_data(data_dir: Path) -> str:
    """A hash of the contract files' names and contents: a file rewritten in place with its
    size and modification time kept is another data version, checked and built anew."""
    check_data_dir(data_dir)
    digest = hashlib.blake2b(digest_size=16)
    for table in TABLES.values():
        digest.update(f"{table.filename}:".encode())
        with open(data_dir / table.filename, "rb") as handle:
            while chunk := handle.read(HASH_CHUNK):
                digest.update(chunk)
            digest.update(f";{handle.tell()};".encode())
    return digest.hexdigest()


SHOWN_VIOLATIONS = 3


def check_contract(data_dir: Path, passed: Path) -> None:
    """Refuse data that `nightdesk data check` fails: a night must not report on it. A pass
    leaves the marker `passed`, so each data version is checked once, not once per date."""
    if passed.exists():
        return
    from data.check import check_dataset  # loaded only by a night that checks

    violations = check_dataset(data_dir)
    if violations:
        shown = "; ".join(" ".join(str(v).split()) for v in violations[:SHOWN_VIOLATIONS])
        more = len(violations) - SHOWN_VIOLATIONS
        rest = f" (and {more} more)" if more > 0 else ""
        raise InputError(
            f"data folder {data_dir} breaks the contract: {shown}{rest}; "
            f"run `nightdesk data check {data_dir}` for every problem"
        )
    passed.touch()


def build_catalog_file(data_dir: Path, target: Path, cutoff: date, as_of: datetime) -> None:
    """The trusted step: copy the as-of view of every table into a new DuckDB file. On any
    failure nothing is left behind; a table DuckDB cannot read is an `InputError`."""
    partial = target.with_name(f"{target.name}.{os.getpid()}.{threading.get_ident()}.partial")
    leftovers = (partial, partial.with_name(f"{partial.name}.wal"))
    for path in leftovers:
        path.unlink(missing_ok=True)
    try:
        copy_tables(data_dir, partial, cutoff, as_of)
        os.replace(partial, target)
    finally:
        for path in leftovers:
            path.unlink(missing_ok=True)


def public_file(built: Path) -> Path:
    """The public file beside a catalog file (or any of its lockdown variants)."""
    key = built.name.split("-")[1].removesuffix(".duckdb")
    return built.with_name(f"catalog-{key}-public.duckdb")


def build_public_file(built: Path, target: Path) -> None:
    """The trusted step's second file: a copy of the built catalog without `SCOPED_TABLES`, so
    a SQL worker that opens it holds no portfolio's rows but the ones it is handed."""
    partial = target.with_name(f"{target.name}.{os.getpid()}.{threading.get_ident()}.partial")
    leftovers = (partial, partial.with_name(f"{partial.name}.wal"))
    for path in leftovers:
        path.unlink(missing_ok=True)
    try:
        con = duckdb.connect(str(partial))
        try:
            quoted = str(built).replace("'", "''")
            con.execute(f"ATTACH '{quoted}' AS built (READ_ONLY)")
            for name in TABLES:
                if name not in SCOPED_TABLES:
                    con.execute(f"CREATE TABLE main.{name} AS SELECT * FROM built.main.{name}")
            con.execute("DETACH built")
            con.execute("CHECKPOINT")
        finally:
            con.close()
        os.replace(partial, target)
    finally:
        for path in leftovers:
            path.unlink(missing_ok=True)


def copy_tables(data_dir: Path, file: Path, cutoff: date, as_of: datetime) -> None:
    """Create the as-of copy of every contract table in the DuckDB file `file`."""
    con = duckdb.connect(str(file))
    bounds = {"report_date": cutoff, "as_of": as_of}
    try:
        for name, table in TABLES.items():
            params: dict[str, object] = {"path": str(data_dir / table.filename)}
            if any(key[0] == name for key in MASKED_COLUMNS):
                params["report_date"] = cutoff
            where = ""
            if (rule := AS_OF_RULES[name]) is not None:
                where = f'WHERE "{rule[0]}" <= $bound'
                params["bound"] = bounds[rule[1]]
            try:
                columns = column_list(con, table, params["path"])
                con.execute(
                    f"CREATE TABLE {name} AS SELECT {columns} FROM read_parquet($path) "
                    f"{where} ORDER BY {SORT_KEYS[name]}",
                    params,
                )
            except duckdb.Error as exc:
                reason = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
                raise InputError(
                    f"cannot read {data_dir / table.filename}: {reason}; "
                    f"run `nightdesk data check {data_dir}`"
                ) from None
        con.execute("CHECKPOINT")
    finally:
        con.close()


def column_list(con: duckdb.DuckDBPyConnection, table: Table, path: object) -> str:
    """The SELECT list copying a table's contract columns, cast to the contract types; an
    optional column the file lacks is copied as null."""
    found = con.execute("SELECT * FROM read_parquet($path) LIMIT 0", {"path": path}).description
    present = {column[0] for column in found or []}

    def source(name: str) -> str:
        if name in table.optional and name not in present:
            return "NULL"
        return MASKED_COLUMNS.get((table.name, name), name)

    return ", ".join(
        f'CAST({source(f.name)} AS {DUCK_TYPES[f.type]}) AS "{f.name}"' for f in table.schema
    )


def open_catalog(
    data_dir: Path,
    report_date: date,
    *,
    as_of: datetime | None = None,
    workdir: Path | None = None,
    query_timeout_s: float = 5.0,
    threads: int = 2,
    sql_memory_mb: int = 1024,
) -> Catalog:
    """Build (or reuse) the catalog file for this data and as-of moment and open it locked."""
    data_dir = Path(data_dir)
    check_data_dir(data_dir)
    if as_of is None:
        as_of = default_as_of(report_date)
    elif as_of.tzinfo is None:
        raise InputError(f"as-of moment {as_of.isoformat()} has no time zone; give it in UTC")
    as_of = as_of.astimezone(UTC)
    fingerprint = fingerprint_data(data_dir)
    workdir = Path(workdir) if workdir is not None else default_workdir()
    workdir.mkdir(parents=True, exist_ok=True)
    key = hashlib.sha256(
        f"{BUILD_VERSION}|{fingerprint}|{report_date}|{as_of.isoformat()}".encode()
    ).hexdigest()[:20]
    built = workdir / f"catalog-{key}.duckdb"
    cat = Catalog(report_date, as_of, data_dir, fingerprint, built, query_timeout_s, sql_memory_mb)
    if not built.exists():
        check_contract(data_dir, workdir / f"checked-{BUILD_VERSION}-{fingerprint}")
        build_catalog_file(data_dir, built, cat.price_cutoff, as_of)
        prune_catalogs(workdir, keep=KEEP_CATALOGS, spare=built)
    else:
        os.utime(built)  # in use: the newest to keep
    if not public_file(built).exists():
        build_public_file(built, public_file(built))
    config = lockdown_config(query_timeout_s, threads)
    cat.path = config_variant(built, config)
    cat._con = duckdb.connect(str(cat.path), read_only=True, config=config)
    load_listings(cat)
    return cat


KEEP_CATALOGS = 7
"""Catalog files a work folder keeps: the most recently used ones (a week of nights and their
reruns); older ones go when a new one is built, so nightly runs leave a bounded folder."""


def prune_catalogs(workdir: Path, *, keep: int, spare: Path) -> list[Path]:
    """Remove every catalog file (with its lockdown variants) but the `keep` most recently used
    and `spare`. A process that still has one open keeps reading it: unlinking an open file
    frees its space only when the last reader closes it."""
    groups: dict[str, list[Path]] = {}
    for path in workdir.glob("catalog-*.duckdb"):  # never a file being built or linked
        groups.setdefault(path.name.split("-")[1].removesuffix(".duckdb"), []).append(path)
    spared = spare.name.split("-")[1].removesuffix(".duckdb")

    def used(key: str) -> float:
        return max((p.stat().st_mtime for p in groups[key] if p.exists()), default=0.0)

    ranked = sorted((k for k in groups if k != spared), key=used, reverse=True)
    removed = []
    for path in workdir.glob("catalog-*.duckdb.*.partial*"):  # a build its process never ended
        pid = path.name.split(".duckdb.", 1)[1].split(".", 1)[0]
        if pid.isdigit() and not running(int(pid)):
            path.unlink(missing_ok=True)
            removed.append(path)
    for key in ranked[max(keep - 1, 0) :]:
        for path in groups[key]:
            path.unlink(missing_ok=True)
            removed.append(path)
    return removed


def config_variant(built: Path, config: dict[str, str | bool | int | float | list[str]]) -> Path:
    """A hard link per lockdown setting: DuckDB opens one file with one configuration per process."""
    tag = f"t{config['max_execution_time']}x{config['threads']}"
    variant = built.with_name(f"{built.stem}-{tag}.duckdb")
    if not variant.exists():
        link = variant.with_name(f"{variant.name}.{os.getpid()}.{threading.get_ident()}.link")
        link.unlink(missing_ok=True)
        os.link(built, link)
        os.replace(link, variant)
    return variant


def default_workdir() -> Path:
    return Path(tempfile.gettempdir()) / "nightdesk-catalog"


def check_data_dir(data_dir: Path) -> None:
    if not data_dir.is_dir():
        what = "is a file, not a folder" if data_dir.exists() else "does not exist"
        raise InputError(f"data directory {data_dir} {what}; pass --data the folder of a data set")
    missing = [t.filename for t in TABLES.values() if not (data_dir / t.filename).is_file()]
    if missing:
        raise InputError(
            f"data directory {data_dir} lacks {', '.join(missing)}; "
            "generate a data set with `nightdesk data generate`"
        )


def first_price_date(data_dir: Path) -> date | None:
    """The first date of a data set's prices (a catalog only holds what was known by its date)."""
    return price_range(data_dir)[0]


def price_range(data_dir: Path) -> tuple[date | None, date | None]:
    """The first and last date of a data set's prices, read from its file without building a
    catalog; (None, None) when the file cannot say (the contract check then says why)."""
    check_data_dir(Path(data_dir))
    try:
        with duckdb.connect() as con:
            row = con.execute(
                "SELECT min(date)::DATE, max(date)::DATE FROM read_parquet(?)",
                [str(Path(data_dir) / "prices.parquet")],
            ).fetchone()
    except duckdb.Error:
        return None, None
    return (row[0], row[1]) if row else (None, None)


def load_listings(cat: Catalog) -> None:
    """Each ticker's exchange and session range, and the market's sessions, read once."""
    with cat.cursor() as cur:
        rows = cur.execute(
            "SELECT c.ticker, c.exchange, min(p.date), max(p.date), any_value(c.price_basis) "
            "FROM companies c "
            "LEFT JOIN prices p USING (ticker) GROUP BY ALL"
        ).fetchall()
        sessions = cur.execute("SELECT DISTINCT date FROM prices ORDER BY date").fetchall()
    cat.listings = {
        ticker: Listing(ticker, EXCHANGES.get(exchange, EXCHANGES["NYSE"]), first, last, basis)
        for ticker, exchange, first, last, basis in rows
    }
    cat.sessions = [d for (d,) in sessions]

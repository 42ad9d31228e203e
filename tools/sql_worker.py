"""The process model-written SQL runs in (`python -m tools.sql_worker FILE MEMORY_MB TIMEOUT_S`).

Before it opens anything it caps its own address space (RLIMIT_AS) and CPU time (RLIMIT_CPU),
so a query that asks for more memory fails its allocation inside DuckDB, and one that spins is
ended by the kernel; the parent kills it outright at the deadline. It opens the locked public
catalog file read-only (it has no portfolio's rows) and answers one JSON line per query on stdin
with one JSON line on stdout. A request that brings `tables` (the rows of the portfolios in the
question's scope) replaces the worker's temporary tables of those names, and the parent sends it
before a query of another scope than the last: whatever another scope loaded is dropped first, so
a query reads its own scope's rows only.
"""

from __future__ import annotations

import json
import resource
import sys
from typing import Any

import duckdb

from tools.values import jsonable

MAX_RESULT_BYTES = 256 * 1024
"""What one result may weigh as JSON: more would only flood the model's context."""


def lockdown_config(
    query_timeout_s: float, threads: int, memory_limit: str = "2GB"
) -> dict[str, str | bool | int | float | list[str]]:
    """DuckDB settings that leave a read-only file and nothing else reachable, locked."""
    return {
        "enable_external_access": False,
        "temp_directory": "",
        "autoinstall_known_extensions": False,
        "autoload_known_extensions": False,
        "allow_community_extensions": False,
        "allow_unsigned_extensions": False,
        "allow_persistent_secrets": False,
        "python_enable_replacements": False,
        "max_execution_time": max(1, round(query_timeout_s * 1000)),
        "threads": threads,
        "memory_limit": memory_limit,
        "lock_configuration": True,
    }


def limit_self(memory_mb: int, timeout_s: float) -> None:
    cap = memory_mb * 2**20
    resource.setrlimit(resource.RLIMIT_AS, (cap, cap))
    cpu = max(
        120, int(timeout_s) * 20
    )  # a backstop over the worker's life: the parent kills per query
    resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))


def load_tables(con: duckdb.DuckDBPyConnection, tables: dict[str, Any]) -> None:
    """Temporary tables holding exactly the rows given, after every earlier one is dropped
    (temporary tables belong to the connection, so queries run on `con` itself, never on a
    cursor of it)."""
    loaded = con.execute("SELECT table_name FROM duckdb_tables() WHERE temporary").fetchall()
    for (name,) in loaded:
        con.execute(f'DROP TABLE temp.main."{name}"')
    for name, table in tables.items():
        columns = ", ".join(f'"{column}" {kind}' for column, kind in table["columns"])
        con.execute(f'CREATE OR REPLACE TEMP TABLE "{name}" ({columns})')
        if table["rows"]:  # one statement, a list per column: a row at a time costs 1 ms each
            lists = ", ".join(f"unnest(?::{kind}[])" for _, kind in table["columns"])
            con.execute(
                f'INSERT INTO "{name}" SELECT {lists}',
                [list(c) for c in zip(*table["rows"], strict=True)],
            )


def answer(con: duckdb.DuckDBPyConnection, request: dict[str, Any]) -> dict[str, Any]:
    if "tables" in request:
        try:
            load_tables(con, request["tables"])
        except (duckdb.Error, MemoryError) as exc:  # the parent ends this worker
            return {"error": "ScopeNotLoaded", "message": str(exc).strip().splitlines()[0]}
        return {"loaded": True}
    try:
        cur = con.execute(request["sql"])
        columns = [d[0] for d in cur.description or []]
        rows = cur.fetchmany(int(request["max_rows"]) + 1)
    except duckdb.Error as exc:
        return {"error": type(exc).__name__, "message": str(exc).strip().splitlines()[0]}
    except MemoryError:
        return {"error": "OutOfMemoryException", "message": "out of memory"}
    reply = {
        "columns": columns,
        "rows": [jsonable(list(r)) for r in rows[: int(request["max_rows"])]],
        "truncated": len(rows) > int(request["max_rows"]),
    }
    return reply


def main() -> None:
    path, memory_mb, timeout_s = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
    limit_self(memory_mb, timeout_s)
    config = lockdown_config(timeout_s, 1, f"{max(memory_mb // 2, 64)}MB")
    con = duckdb.connect(path, read_only=True, config=config)
    print(json.dumps({"ready": True}), flush=True)
    for line in sys.stdin:
        try:
            reply = answer(con, json.loads(line))
            text = json.dumps(reply, ensure_ascii=False)
        except MemoryError:
            text = json.dumps({"error": "OutOfMemoryException", "message": "out of memory"})
        size = len(text.encode("utf-8"))
        if size > MAX_RESULT_BYTES:
            text = json.dumps({"error": "TooLarge", "message": f"{size:,} bytes"})
        print(text, flush=True)


if __name__ == "__main__":
    main()

"""Model SQL runs where the operating system bounds it: queries that DuckDB's own limits do not
stop (lists, strings, maps and recursions built in memory, endless scans) end within the time
limit plus a second, under the memory cap, as error observations; and table names resolve by
scope, so a CTE never unlocks a system catalog."""

from __future__ import annotations

import time
from pathlib import Path

import pandas as pd
import pytest

from tools.catalog import Catalog, open_catalog
from tools.registry import call_tool

TIME_LIMIT_S = 2.0
MEMORY_MB = 768

RESOURCE_ATTACKS = [
    "SELECT count(*) FROM (SELECT unnest(range(1000000000)))",
    "SELECT length(repeat('x', 2000000000))",
    "SELECT sum(x) FROM (SELECT unnest(generate_series(1, 300000000)) AS x)",
    "SELECT cardinality(map(range(50000000), range(50000000)))",
    "SELECT list_reduce(range(40), lambda a, b: a || a, 'xx')",
    "SELECT length(string_split(repeat('a,', 300000000), ','))",
    "SELECT count(*) FROM prices a, prices b, prices c WHERE a.close + b.close > c.close",
    "WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) SELECT count(*) FROM r",
    "WITH RECURSIVE r(s) AS (SELECT 'ab' UNION ALL SELECT s || s FROM r) SELECT max(length(s)) FROM r",
    "SELECT list_sort(range(200000000))[1]",
    "SELECT repeat(string_agg(ticker, ','), 1000000) FROM prices",
    "SELECT string_agg(repeat(ticker, 100000), ',') FROM prices",
    "SELECT count(DISTINCT a.close * b.close) FROM prices a, prices b",
    "SELECT max(len(list_concat(range(100000000), range(100000000))))",
]

SCOPE_ATTACKS = [
    "SELECT * FROM (WITH pg_settings AS (SELECT 1) SELECT 1) t, pg_settings",
    "SELECT * FROM (WITH x AS (SELECT 1) SELECT 1) t, duckdb_databases",
    "SELECT * FROM (SELECT * FROM (WITH duckdb_tables AS (SELECT 1) SELECT 1)) t, duckdb_tables",
    "SELECT * FROM (WITH q AS (SELECT 1) SELECT 1) s, q",
    'SELECT * FROM "DUCKDB_COLUMNS"',
    "SELECT * FROM main.duckdb_settings()",
    "SELECT * FROM main.prices",
    "SELECT * FROM system.main.duckdb_settings",
    "SELECT * FROM information_schema.tables",
    "SELECT * FROM sqlite_master",
    "SELECT * FROM pg_catalog.pg_proc",
    "SELECT * FROM temp.main.duckdb_views",
    "WITH sqlite_schema AS (SELECT 1) SELECT * FROM sqlite_schema",
    "SELECT (SELECT count(*) FROM pg_namespace) AS n",
    "SELECT * FROM prices WHERE ticker IN (SELECT database_name FROM duckdb_databases)",
    # built-in macros that expand into catalog reads, the clock or session state
    "SELECT get_block_size(database_name)",
    "SELECT get_block_size(CASE WHEN CAST(database_name AS INTEGER) = 1 THEN database_name END)",
    "SELECT current_localtimestamp()",
    "SELECT current_localtime()",
    "SELECT ago(INTERVAL 0 SECOND)",
    "SELECT format_type(23, NULL)",
    "SELECT current_connection_id(), current_query_id(), current_transaction_id()",
    "SELECT sleep_ms(10)",
]


@pytest.fixture(scope="module")
def bounded(small_data: Path, tmp_path_factory: pytest.TempPathFactory):
    cat = open_catalog(
        small_data,
        pd.Timestamp("2024-06-28").date(),
        workdir=tmp_path_factory.mktemp("bounded"),
        query_timeout_s=TIME_LIMIT_S,
        sql_memory_mb=MEMORY_MB,
    )
    yield cat
    cat.close()


def legal_count(cat: Catalog) -> int:
    result = call_tool(cat, "run_sql", {"sql": "SELECT count(*) AS n FROM prices"})
    return result["rows"][0][0]


@pytest.mark.parametrize("sql", RESOURCE_ATTACKS)
def test_a_resource_attack_ends_in_time_under_the_cap(bounded: Catalog, sql: str) -> None:
    before = legal_count(bounded)
    started = time.monotonic()
    result = call_tool(bounded, "run_sql", {"sql": sql})
    took = time.monotonic() - started
    assert took <= TIME_LIMIT_S + 1.0, (sql, took)
    assert set(result) == {"error"}, result
    assert legal_count(bounded) == before


@pytest.mark.parametrize("sql", SCOPE_ATTACKS)
def test_a_system_catalog_is_refused_under_every_spelling(bounded: Catalog, sql: str) -> None:
    result = call_tool(bounded, "run_sql", {"sql": sql})
    assert set(result) == {"error"}, result


def test_a_result_is_capped_in_bytes_not_characters(bounded: Catalog) -> None:
    result = call_tool(
        bounded, "run_sql", {"sql": "SELECT repeat('😀', 5000) FROM prices LIMIT 50"}
    )
    assert "too large" in result["error"]


def test_ctes_resolve_by_scope(bounded: Catalog) -> None:
    queries = {
        "WITH a AS (SELECT ticker FROM prices), b AS (SELECT * FROM a) SELECT count(*) AS n FROM b": None,
        "WITH q AS (SELECT 1 AS n) SELECT * FROM (SELECT * FROM q) s": [[1]],
        "SELECT (SELECT n FROM (WITH q AS (SELECT 7 AS n) SELECT * FROM q)) AS n": [[7]],
    }
    for sql, rows in queries.items():
        result = call_tool(bounded, "run_sql", {"sql": sql})
        assert "error" not in result, (sql, result)
        if rows is not None:
            assert result["rows"] == rows


def test_a_killed_worker_is_replaced_and_the_next_query_answers(bounded: Catalog) -> None:
    runaway = (
        "WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) SELECT count(*) FROM r"
    )
    assert "limit" in call_tool(bounded, "run_sql", {"sql": runaway})["error"]
    assert legal_count(bounded) > 0


def test_the_kernel_caps_each_workers_address_space(small_data: Path, tmp_path: Path) -> None:
    from tools.sql_sandbox import Worker

    cat = open_catalog(small_data, pd.Timestamp("2024-06-28").date(), workdir=tmp_path)
    try:
        worker = Worker(cat.path, MEMORY_MB, 2.0)
        assert worker.ask({"sql": "SELECT 1", "max_rows": 1}, time.monotonic() + 30) is not None
        limits = Path(f"/proc/{worker.process.pid}/limits").read_text()
        worker.kill()
    finally:
        cat.close()
    address_space = next(line for line in limits.splitlines() if "address space" in line)
    assert address_space.split()[3] == str(MEMORY_MB * 2**20), address_space


def test_the_worker_sees_no_secret_of_the_night(
    small_data: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tools.sql_sandbox import Worker

    monkeypatch.setenv("OPENAI_API_KEY", "sk-canary-0123456789abcdef")
    cat = open_catalog(small_data, pd.Timestamp("2024-06-28").date(), workdir=tmp_path)
    try:
        worker = Worker(cat.path, 512, 2.0)
        environ = Path(f"/proc/{worker.process.pid}/environ").read_bytes()
        worker.kill()
    finally:
        cat.close()
    assert b"sk-canary" not in environ and b"OPENAI_API_KEY" not in environ

"""Model SQL runs where the operating system bounds it: queries that DuckDB's own limits do not
stop (lists, strings, maps and recursions built in memory, endless scans) are stopped by the
memory cap or the deadline, as error observations; and table names resolve by scope, so a CTE
never unlocks a system catalog.

Every attack either fails on the memory cap or cannot finish at all (an endless recursion, a
cross join of four tables), so its outcome does not depend on how fast the machine is; no test
times how long the kill took. Legitimate queries run with a deadline scaled to the machine's
load (`tests/machine.py`) or one they cannot come near."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pandas as pd
import pytest

from tests.machine import LEGIT_QUERY_S, scaled_s
from tools.catalog import Catalog, open_catalog
from tools.registry import call_tool
from tools.sql_sandbox import Worker

TIME_LIMIT_S = scaled_s(2.0)
MEMORY_MB = 768
REFUSALS = (
    f"ran past the {TIME_LIMIT_S:g} s limit",
    f"needed more than {MEMORY_MB} MB",
    "Out of Range Error: Cannot create a string",  # DuckDB's own refusal, before any work
)

RESOURCE_ATTACKS = [
    "SELECT count(*) FROM (SELECT unnest(range(1000000000)))",
    "SELECT length(repeat('x', 2000000000))",
    "SELECT sum(x) FROM (SELECT unnest(generate_series(1, 300000000)) AS x)",
    "SELECT cardinality(map(range(50000000), range(50000000)))",
    "SELECT list_reduce(range(40), lambda a, b: a || a, 'xx')",
    "SELECT length(string_split(repeat('a,', 300000000), ','))",
    "SELECT count(*) FROM prices a, prices b, prices c, prices d WHERE a.close > d.close",
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


def catalog_with(small_data: Path, workdir: Path, timeout_s: float) -> Catalog:
    return open_catalog(
        small_data,
        pd.Timestamp("2024-06-28").date(),
        workdir=workdir,
        query_timeout_s=timeout_s,
        sql_memory_mb=MEMORY_MB,
    )


@pytest.fixture(scope="module")
def bounded(small_data: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Catalog]:
    """The attacks' catalog: a short deadline, scaled to the machine for the legitimate count
    each attack is checked with."""
    cat = catalog_with(small_data, tmp_path_factory.mktemp("bounded"), TIME_LIMIT_S)
    yield cat
    cat.close()


@pytest.fixture(scope="module")
def roomy(small_data: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Catalog]:
    """A catalog whose deadline no legitimate query comes near."""
    cat = catalog_with(small_data, tmp_path_factory.mktemp("roomy"), LEGIT_QUERY_S)
    yield cat
    cat.close()


def legal_count(cat: Catalog) -> int:
    result = call_tool(cat, "run_sql", {"sql": "SELECT count(*) AS n FROM prices"})
    return result["rows"][0][0]


@pytest.mark.parametrize("sql", RESOURCE_ATTACKS)
def test_a_resource_attack_is_stopped_by_a_limit(bounded: Catalog, sql: str) -> None:
    before = legal_count(bounded)
    result = call_tool(bounded, "run_sql", {"sql": sql})
    assert set(result) == {"error"}, result
    assert any(r in result["error"] for r in REFUSALS), result
    assert legal_count(bounded) == before


@pytest.mark.parametrize("sql", SCOPE_ATTACKS)
def test_a_system_catalog_is_refused_under_every_spelling(roomy: Catalog, sql: str) -> None:
    result = call_tool(roomy, "run_sql", {"sql": sql})
    assert set(result) == {"error"}, result
    assert "limit" not in result["error"], result  # refused for what it names, not for time


def test_a_result_is_capped_in_bytes_not_characters(roomy: Catalog) -> None:
    result = call_tool(roomy, "run_sql", {"sql": "SELECT repeat('😀', 5000) FROM prices LIMIT 50"})
    assert "too large" in result["error"]


def test_ctes_resolve_by_scope(roomy: Catalog) -> None:
    queries = {
        "WITH a AS (SELECT ticker FROM prices), b AS (SELECT * FROM a) SELECT count(*) AS n FROM b": None,
        "WITH q AS (SELECT 1 AS n) SELECT * FROM (SELECT * FROM q) s": [[1]],
        "SELECT (SELECT n FROM (WITH q AS (SELECT 7 AS n) SELECT * FROM q)) AS n": [[7]],
    }
    for sql, rows in queries.items():
        result = call_tool(roomy, "run_sql", {"sql": sql})
        assert "error" not in result, (sql, result)
        if rows is not None:
            assert result["rows"] == rows


def test_a_killed_worker_is_replaced_and_the_next_query_answers(bounded: Catalog) -> None:
    runaway = (
        "WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) SELECT count(*) FROM r"
    )
    assert REFUSALS[0] in call_tool(bounded, "run_sql", {"sql": runaway})["error"]
    assert legal_count(bounded) > 0


class SlowStart(Worker):
    """A worker that takes `start_s` to be ready, then answers every query at once."""

    def __init__(self, start_s: float) -> None:
        script = (
            "import json, sys, time\n"
            f"time.sleep({start_s})\n"
            "print(json.dumps({'ready': True}), flush=True)\n"
            "for line in sys.stdin:\n"
            "    print(json.dumps({'columns': ['n'], 'rows': [[1]], 'truncated': False}), flush=True)\n"
        )
        self.process = subprocess.Popen(
            [sys.executable, "-c", script], stdin=subprocess.PIPE, stdout=subprocess.PIPE
        )
        self.started = False
        self.overran = False


def test_a_new_workers_start_is_not_the_querys_time() -> None:
    """A worker slower to start than the query's deadline (as on a loaded machine) still gets
    the whole deadline for the query (both scaled to the machine's load: answering one line
    must fit in the deadline however busy the machine)."""
    deadline_s = scaled_s(2.0)
    worker = SlowStart(start_s=deadline_s + 0.5)
    try:
        reply = worker.ask({"sql": "SELECT 1 AS n", "max_rows": 1}, timeout_s=deadline_s)
    finally:
        worker.kill()
    assert reply == {"columns": ["n"], "rows": [[1]], "truncated": False}
    assert not worker.overran


def test_the_kernel_caps_each_workers_address_space(small_data: Path, tmp_path: Path) -> None:
    cat = open_catalog(small_data, pd.Timestamp("2024-06-28").date(), workdir=tmp_path)
    try:
        worker = Worker(cat.path, MEMORY_MB, 2.0)
        assert worker.ask({"sql": "SELECT 1", "max_rows": 1}, LEGIT_QUERY_S) is not None
        limits = Path(f"/proc/{worker.process.pid}/limits").read_text()
        worker.kill()
    finally:
        cat.close()
    address_space = next(line for line in limits.splitlines() if "address space" in line)
    assert address_space.split()[3] == str(MEMORY_MB * 2**20), address_space


def test_the_worker_sees_no_secret_of_the_night(
    small_data: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-canary-0123456789abcdef")
    cat = open_catalog(small_data, pd.Timestamp("2024-06-28").date(), workdir=tmp_path)
    try:
        worker = Worker(cat.path, 512, 2.0)
        environ = Path(f"/proc/{worker.process.pid}/environ").read_bytes()
        worker.kill()
    finally:
        cat.close()
    assert b"sk-canary" not in environ and b"OPENAI_API_KEY" not in environ

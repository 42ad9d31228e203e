"""Generic read-only SQL for the model: `list_tables`, `describe_table`, `run_sql`.

`run_sql` accepts exactly one SELECT as DuckDB's own parser sees it, then walks the
serialised syntax tree: only query nodes that read, only the contract tables (or the CTEs in
scope where they are named), no table functions, no functions that read settings, the environment,
the wall clock or chance (random functions, samples). The locked read-only catalog file is the
second wall behind this one, and the query runs in a worker process whose memory and time the
operating system bounds (`sql_sandbox`).
"""

from __future__ import annotations

import json
import re
from functools import cache
from typing import Any

import duckdb
from pydantic import Field

from contract.errors import ToolError
from data.contract import TABLES
from tools.catalog import AS_OF_RULES, DUCK_TYPES, SCOPED_TABLES, Catalog
from tools.fields import ToolArgs
from tools.gate import ToolScope
from tools.values import iso_utc

MAX_ROWS = 50
MAX_SQL = 4000
READ_NODES = {"SELECT_NODE", "SET_OPERATION_NODE", "CTE_NODE", "RECURSIVE_CTE_NODE"}
READ_REFS = {"BASE_TABLE", "JOIN", "SUBQUERY", "EXPRESSION_LIST", "EMPTY", "PIVOT"}
DENIED_FUNCTIONS = {
    "getenv", "current_setting", "current_database", "current_catalog", "current_schema",
    "current_schemas", "current_user", "session_user", "user", "version", "getvariable",
    "now", "today", "current_date", "current_time", "current_timestamp", "localtime",
    "localtimestamp", "get_current_time", "get_current_timestamp", "transaction_timestamp",
    "statement_timestamp", "current_query", "txid_current", "random", "setseed", "uuid",
    "gen_random_uuid", "uuidv4", "uuidv7", "nextval", "currval", "query", "query_table",
    "sleep_ms", "write_log", "setval", "uuid_extract_timestamp", "in_search_path",
    "reservoir_quantile", "approx_quantile", "approx_top_k",
}  # fmt: skip
"""`approx_quantile` and `approx_top_k` are left out beside chance: their sketches depend on the
order rows reach them, which the worker's two threads do not fix."""
DENIED_PREFIXES = ("duckdb_", "pragma_", "pg_", "read_", "sqlite_", "has_", "icu_", "current_")
SYSTEM_PREFIXES = ("duckdb_", "pg_", "sqlite_", "pragma_")
SYSTEM_NAMES = {"information_schema", "tables", "columns", "schemata", "views", "sqlite_master"}
BOUND_NAMES = {"report_date": "report date", "as_of": "as-of moment"}
TABLE_NOTES = {
    "companies": "one row per ticker: name, sector, currency, exchange",
    "prices": "daily sessions per ticker, as traded (not split-adjusted), up to the report date",
    "news": "headlines per ticker with their UTC publication time, up to the as-of moment",
    "events": "earnings, dividends and splits (value = split ratio) announced by the as-of moment",
    "holdings": "portfolio snapshots: a new as_of date whenever the holdings change",
    "portfolios": "one row per portfolio: name, base currency and benchmark ticker (null: none)",
}


class NoArgs(ToolArgs):
    pass


def list_tables(cat: Catalog, args: NoArgs, scope: ToolScope) -> dict[str, Any]:
    """The tables run_sql can read, with row counts and what each holds."""
    with cat.cursor() as cur:
        counts = {
            name: cur.execute(f"SELECT count(*) FROM {name}").fetchone()[0]  # type: ignore[index]
            for name in TABLES
            if name not in SCOPED_TABLES
        }
    scoped = cat.scoped_rows(scope.portfolios)
    counts.update({name: len(scoped[name]["rows"]) for name in SCOPED_TABLES})
    return {
        "report_date": cat.report_date.isoformat(),
        "as_of": iso_utc(cat.as_of),
        "tables": [
            {"table": name, "rows": counts[name], "holds": holds(name, scope)} for name in TABLES
        ],
    }


def holds(table: str, scope: ToolScope) -> str:
    """What a table holds, as far as the scope reaches."""
    if table not in SCOPED_TABLES or scope.portfolios is None:
        return TABLE_NOTES[table]
    own = ", ".join(sorted(scope.portfolios))
    return f"{TABLE_NOTES[table]}; only portfolio {own}" if own else "nothing: no portfolio"


class DescribeArgs(ToolArgs):
    table: str = Field(description="One of: " + ", ".join(TABLES))


def describe_table(cat: Catalog, args: DescribeArgs) -> dict[str, Any]:
    """The columns and types of one table, its key, and how it is pinned to the as-of moment."""
    table = TABLES.get(args.table)
    if table is None:
        raise ToolError(f"unknown table {args.table!r}; valid tables: {', '.join(TABLES)}")
    rule = AS_OF_RULES[table.name]
    return {
        "table": table.name,
        "columns": [{"name": f.name, "type": DUCK_TYPES[f.type]} for f in table.schema],
        "key": list(table.key),
        "holds": TABLE_NOTES[table.name],
        "as_of_rule": (
            f"{rule[0]} <= the {BOUND_NAMES[rule[1]]}" if rule else "not dated: all rows"
        ),
    }


class RunSqlArgs(ToolArgs):
    sql: str = Field(
        max_length=MAX_SQL,
        description=f"Exactly one read-only SELECT over the tables of list_tables; at most {MAX_ROWS} rows come back",
    )


def run_sql(cat: Catalog, args: RunSqlArgs, scope: ToolScope) -> dict[str, Any]:
    """Run one read-only SELECT over the catalog's tables; at most 50 rows come back."""
    with cat.cursor() as cur:
        statements = cur.extract_statements(args.sql)
        if len(statements) != 1:
            raise ToolError(f"send exactly one statement, got {len(statements)}")
        statement = statements[0]
        if statement.type.name != "SELECT":
            raise ToolError(f"only SELECT is allowed, got {statement.type.name}")
        serialised = cur.execute("SELECT json_serialize_sql($q)", {"q": statement.query}).fetchone()
        assert serialised is not None
        check_tree(json.loads(serialised[0]))
    return cat.sandbox().query(
        statement.query, MAX_ROWS, scope.portfolios, lambda: cat.scoped_rows(scope.portfolios)
    )


def check_tree(tree: dict[str, Any]) -> None:
    """Refuse anything in the parsed query that is not a plain read of the contract tables.

    Names resolve by scope, as SQL resolves them: a CTE is visible inside the query that defines
    it (its body, its sibling CTEs and its main query), never outside it. DuckDB's own catalogs
    (`duckdb_*`, `pg_*`, `sqlite_*`, `pragma_*`, `information_schema`) are refused under any
    spelling, also as the name of a CTE, and so is any schema- or catalog-qualified name."""
    if tree.get("error"):
        raise ToolError(f"only a plain SELECT is allowed: {tree.get('error_message', '')}")
    check_node(tree["statements"], frozenset())


def check_node(node: Any, ctes: frozenset[str]) -> None:
    """Check one node of the tree and everything below it, with the CTE names in scope."""
    if isinstance(node, list):
        for item in node:
            check_node(item, ctes)
        return
    if not isinstance(node, dict):
        return
    if "cte_map" in node:
        if node.get("type") not in READ_NODES:
            raise ToolError(f"only reads are allowed; the query contains {node.get('type')}")
        names = [entry["key"] for entry in node["cte_map"]["map"]]
        for name in names:
            if is_system_name(name):
                raise ToolError(f"a CTE may not be named {name!r}, a name of DuckDB's catalogs")
        ctes = ctes | {name.lower() for name in names}
    if node.get("sample") is not None:  # USING SAMPLE on a query, TABLESAMPLE on a table
        raise ToolError(
            "sampling (USING SAMPLE, TABLESAMPLE) is not available: a sample is drawn at random; "
            "use WHERE, ORDER BY and LIMIT"
        )
    if "function_name" in node:
        check_function(node["function_name"])
    if node.get("class") == "COLUMN_REF" and node["column_names"][-1].lower() in DENIED_FUNCTIONS:
        raise ToolError(
            f"{node['column_names'][-1]} is not available: tools see the as-of data only"
        )
    if "sample" in node and "class" not in node and "cte_map" not in node:
        check_table_ref(node, ctes)
    for value in node.values():
        if isinstance(value, dict | list):
            check_node(value, ctes)


def is_system_name(name: str) -> bool:
    lowered = name.lower()
    return lowered.startswith(SYSTEM_PREFIXES) or lowered in SYSTEM_NAMES


def denied(name: str) -> bool:
    lowered = name.lower()
    return lowered in DENIED_FUNCTIONS or lowered.startswith(DENIED_PREFIXES)


@cache
def unsafe_macros() -> frozenset[str]:
    """DuckDB's built-in macros whose bodies reach what the names above deny (`get_block_size`
    reads `pragma_database_size()`, `ago` the clock, `format_type` `duckdb_types()`...): the
    checker sees only the name a query calls, so a macro is judged by what it expands to."""
    with duckdb.connect() as con:
        rows = con.execute(
            "SELECT function_name, macro_definition FROM duckdb_functions() "
            "WHERE function_type IN ('macro', 'table_macro')"
        ).fetchall()
    bodies = {name.lower(): set(IDENTIFIER.findall((body or "").lower())) for name, body in rows}
    unsafe = {name for name, words in bodies.items() if any(denied(w) for w in words)}
    while grown := {n for n, words in bodies.items() if n not in unsafe and words & unsafe}:
        unsafe |= grown  # a macro calling an unsafe one
    return frozenset(unsafe)


IDENTIFIER = re.compile(r"[a-z_][a-z0-9_]*")


def check_function(name: str) -> None:
    lowered = name.lower()
    if denied(lowered) or lowered in unsafe_macros():
        raise ToolError(
            f"function {name} is not available (settings, environment, clock and files are out of reach)"
        )


def check_table_ref(ref: dict[str, Any], ctes: frozenset[str]) -> None:
    kind = ref.get("type")
    valid = f"read the tables {', '.join(TABLES)}"
    if kind == "TABLE_FUNCTION":
        raise ToolError(f"table functions are not available; {valid}")
    if kind not in READ_REFS:
        raise ToolError(f"{kind} is not available; {valid}")
    if kind == "BASE_TABLE":
        name = ref["table_name"].lower()
        path = (ref.get("qualified_name") or {}).get("path") or [name]
        qualified = bool(ref.get("catalog_name") or ref.get("schema_name")) or len(path) > 1
        if qualified or is_system_name(name) or (name not in TABLES and name not in ctes):
            raise ToolError(f"unknown table {ref['table_name']!r}; {valid}")

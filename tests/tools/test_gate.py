"""A call runs within its question's scope: a tool the question was not offered is refused, a
portfolio it is not about is refused, and model SQL runs where only its own portfolio's rows
exist (the worker's file holds no portfolio's rows; the ones in scope are handed to it)."""

from __future__ import annotations

import duckdb
import pytest

from contract.errors import ToolError
from tools.catalog import SCOPED_TABLES, Catalog
from tools.gate import ToolScope
from tools.registry import call_tool
from tools.values import jsonable


def portfolio_ids(catalog: Catalog) -> list[str]:
    with catalog.cursor() as cur:
        ids = [
            r
            for (r,) in cur.execute(
                "SELECT DISTINCT portfolio_id FROM holdings ORDER BY 1"
            ).fetchall()
        ]
    assert len(ids) >= 2, "the data set needs two portfolios with holdings"
    return ids


def own_rows(catalog: Catalog, portfolio_id: str) -> int:
    with catalog.cursor() as cur:
        row = cur.execute(
            "SELECT count(*) FROM holdings WHERE portfolio_id = $p", {"p": portfolio_id}
        ).fetchone()
    assert row is not None
    return int(row[0])


def sql(catalog: Catalog, scope: ToolScope, query: str) -> dict:
    return call_tool(catalog, "run_sql", {"sql": query}, scope)


def test_a_tool_not_offered_is_refused_naming_the_offered_ones(catalog: Catalog) -> None:
    scope = ToolScope.question(["get_daily_move", "search_news"], None)
    out = call_tool(catalog, "run_sql", {"sql": "SELECT 1"}, scope)
    assert out == {
        "error": "tool 'run_sql' is not offered for this question; "
        "offered tools: get_daily_move, search_news"
    }
    unknown = call_tool(catalog, "get_stock_price", {}, scope)
    assert unknown["error"].endswith("valid tools: get_daily_move, search_news")


def test_another_portfolio_is_refused_by_every_portfolio_tool(catalog: Catalog) -> None:
    own, other = portfolio_ids(catalog)[:2]
    scope = ToolScope.question(["get_portfolio", "get_position_pnl"], own)
    assert call_tool(catalog, "get_portfolio", {"portfolio_id": own}, scope)["portfolio_id"] == own
    for name, args in [
        ("get_portfolio", {"portfolio_id": other}),
        ("get_position_pnl", {"portfolio_id": other, "ticker": "AAA", "date": "2024-12-20"}),
    ]:
        out = call_tool(catalog, name, args, scope)
        assert out == {
            "error": f"portfolio {other!r} is out of scope: this question reads portfolio {own} only"
        }


def test_a_question_about_a_ticker_reads_no_portfolio(catalog: Catalog) -> None:
    own = portfolio_ids(catalog)[0]
    scope = ToolScope.question(["get_portfolio", "run_sql", "list_tables"], None)
    assert (
        "reads no portfolio"
        in call_tool(catalog, "get_portfolio", {"portfolio_id": own}, scope)["error"]
    )
    for table in SCOPED_TABLES:
        assert sql(catalog, scope, f"SELECT * FROM {table}")["rows"] == []
    counts = {t["table"]: t["rows"] for t in call_tool(catalog, "list_tables", {}, scope)["tables"]}
    assert {counts[t] for t in SCOPED_TABLES} == {0} and counts["prices"] > 0
    notes = {t["table"]: t["holds"] for t in call_tool(catalog, "list_tables", {}, scope)["tables"]}
    assert {notes[t] for t in SCOPED_TABLES} == {"nothing: no portfolio"}


def test_the_rows_in_scope_keep_their_values_and_types(catalog: Catalog) -> None:
    own = portfolio_ids(catalog)[-1]
    scope = ToolScope.question(["run_sql"], own)
    query = "SELECT * FROM holdings WHERE portfolio_id = $p ORDER BY ALL LIMIT 50"
    with catalog.cursor() as cur:
        want = [[jsonable(v) for v in row] for row in cur.execute(query, {"p": own}).fetchall()]
    assert sql(catalog, scope, query.replace("$p", f"'{own}'"))["rows"] == want
    types = sql(catalog, scope, "SELECT typeof(as_of), typeof(quantity) FROM holdings LIMIT 1")
    assert types["rows"] == [["DATE", "DOUBLE"]]


def test_run_sql_reads_its_own_portfolio_only_whatever_ran_before(catalog: Catalog) -> None:
    """The same workers serve scope after scope: each query sees only the rows of its own."""
    a, b = portfolio_ids(catalog)[:2]
    for pid in (a, b, a, b):
        scope = ToolScope.question(["run_sql", "list_tables"], pid)
        rows = sql(catalog, scope, "SELECT portfolio_id, ticker FROM holdings")["rows"]
        counted = sql(catalog, scope, "SELECT count(*), count(DISTINCT portfolio_id) FROM holdings")
        assert rows and {r[0] for r in rows} == {pid}
        assert counted["rows"] == [[own_rows(catalog, pid), 1]]
        names = sql(catalog, scope, "SELECT portfolio_id FROM portfolios")["rows"]
        assert names == [[pid]]
        joined = sql(
            catalog,
            scope,
            "SELECT count(*) FROM holdings h JOIN portfolios p USING (portfolio_id) "
            f"WHERE h.portfolio_id <> '{pid}'",
        )
        assert joined["rows"] == [[0]]
        listed = call_tool(catalog, "list_tables", {}, scope)["tables"]
        assert {t["table"]: t["rows"] for t in listed}["holdings"] == own_rows(catalog, pid)
        assert {t["table"]: t["holds"] for t in listed}["holdings"].endswith(
            f"only portfolio {pid}"
        )


@pytest.mark.parametrize(
    "query",
    [
        "SELECT * FROM main.holdings",
        "SELECT * FROM temp.main.holdings",
        "SELECT * FROM catalog.main.holdings",
        "SELECT * FROM read_parquet('holdings.parquet')",
        "SELECT * FROM duckdb_tables()",
        "SELECT * FROM query_table('holdings')",
    ],
)
def test_other_names_for_the_holdings_are_refused(catalog: Catalog, query: str) -> None:
    own = portfolio_ids(catalog)[0]
    assert "error" in sql(catalog, ToolScope.question(["run_sql"], own), query)


def test_the_file_model_sql_opens_holds_no_portfolio_rows(catalog: Catalog) -> None:
    with duckdb.connect(str(catalog.public_path), read_only=True) as con:
        tables = {
            name for (name,) in con.execute("SELECT table_name FROM duckdb_tables()").fetchall()
        }
    assert tables and not tables & set(SCOPED_TABLES)


def test_the_worker_holds_only_the_rows_in_scope(catalog: Catalog) -> None:
    """The second wall on its own: SQL that reaches the worker unchecked (DuckDB's catalog
    functions, every database attached) finds no row of another portfolio."""
    a, b = portfolio_ids(catalog)[:2]
    sandbox = catalog.sandbox()
    sandbox.query("SELECT 1", 5, ("scope", b), lambda: catalog.scoped_rows(frozenset({b})))
    out = sandbox.query(
        "SELECT database_name, schema_name, table_name, estimated_size FROM duckdb_tables() "
        "WHERE table_name IN ('holdings', 'portfolios') ORDER BY table_name",
        5,
        ("scope", a),
        lambda: catalog.scoped_rows(frozenset({a})),
    )
    assert [r[:3] for r in out["rows"]] == [
        ["temp", "main", "holdings"],
        ["temp", "main", "portfolios"],
    ]
    seen = sandbox.query("SELECT DISTINCT portfolio_id FROM holdings", 50, ("scope", a))
    assert seen["rows"] == [[a]]


def test_the_trusted_file_is_out_of_reach_by_path(catalog: Catalog) -> None:
    """The file that holds every portfolio cannot be opened from model SQL, checked or not."""
    own = portfolio_ids(catalog)[0]
    scope = ToolScope.question(["run_sql"], own)
    path = str(catalog.path).replace("'", "''")
    for query in (f"SELECT * FROM '{path}'", f"SELECT * FROM read_parquet('{path}')"):
        assert "error" in sql(catalog, scope, query)
    sandbox = catalog.sandbox()
    for raw in (f"ATTACH '{path}' AS everyone (READ_ONLY)", f"SELECT * FROM '{path}'"):
        with pytest.raises(ToolError):
            sandbox.query(raw, 5, ("scope", own), lambda: catalog.scoped_rows(frozenset({own})))

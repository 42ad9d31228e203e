"""The attack corpus: hostile SQL through run_sql and straight on the catalog's own cursor
fails, while legal SELECTs keep answering from the as-of data."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import duckdb
import pandas as pd
import pytest

from tests.machine import LEGIT_QUERY_S, scaled_s
from tools.catalog import Catalog, open_catalog
from tools.registry import call_tool

CORPUS = json.loads(Path(__file__).with_name("hostile_queries.json").read_text())
TIME_LIMIT_S = scaled_s(1.0)
ENDLESS = "WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) SELECT count(*) FROM r"
"""A query no machine finishes: only the deadline ends it."""


def catalog_with(small_data: Path, workdir: Path, timeout_s: float) -> Catalog:
    return open_catalog(
        small_data, pd.Timestamp("2024-06-28").date(), workdir=workdir, query_timeout_s=timeout_s
    )


@pytest.fixture(scope="module")
def locked(small_data: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Catalog]:
    """A catalog with a short time limit, so the runaway queries end quickly; scaled to the
    machine's load, for the legitimate count each attack is checked with."""
    cat = catalog_with(small_data, tmp_path_factory.mktemp("locked"), TIME_LIMIT_S)
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


@pytest.mark.parametrize("attack", CORPUS, ids=[a["id"] for a in CORPUS])
def test_attack_fails_and_reads_keep_working(
    locked: Catalog, small_data: Path, tmp_path: Path, frames, attack
) -> None:
    secret_frame = frames["prices"]  # noqa: F841  (a Python object a replacement scan would find)
    sql = attack["sql"].format(data_dir=small_data, tmp=tmp_path, report_date=locked.report_date)
    before = legal_count(locked)
    if attack["via"] == "run_sql":
        result = call_tool(locked, "run_sql", {"sql": sql})
        assert set(result) == {"error"}, result
        assert result["error"]
    else:
        with locked.cursor() as cur, pytest.raises(duckdb.Error):
            cur.execute(sql).fetchall()
    assert not any(tmp_path.iterdir())
    assert legal_count(locked) == before == int((frames["prices"].date <= locked.report_date).sum())


def test_corpus_is_large_enough() -> None:
    assert sum(a["via"] == "run_sql" for a in CORPUS) >= 30


def test_runaway_query_is_cut_by_the_time_limit(locked: Catalog) -> None:
    result = call_tool(locked, "run_sql", {"sql": ENDLESS})
    assert f"ran past the {TIME_LIMIT_S:g} s limit" in result["error"]


def test_legal_select_with_cte_join_and_aggregate(roomy: Catalog, frames) -> None:
    sql = """
        WITH last AS (SELECT ticker, max(date) AS d FROM prices GROUP BY ticker)
        SELECT c.sector, count(*) AS n FROM last JOIN companies c USING (ticker)
        GROUP BY c.sector ORDER BY c.sector
    """
    result = call_tool(roomy, "run_sql", {"sql": sql})
    prices, companies = frames["prices"], frames["companies"]
    seen = set(prices[prices.date <= roomy.report_date].ticker)
    expected = companies[companies.ticker.isin(seen)].groupby("sector").size().sort_index()
    assert result["columns"] == ["sector", "n"]
    assert result["rows"] == [[s, int(n)] for s, n in expected.items()]
    assert result["truncated"] is False


def test_rows_are_capped_at_fifty(roomy: Catalog) -> None:
    result = call_tool(
        roomy, "run_sql", {"sql": "SELECT ticker, date, close FROM prices ORDER BY ticker, date"}
    )
    assert len(result["rows"]) == 50 and result["truncated"] is True
    assert isinstance(result["rows"][0][1], str)


def test_sql_sees_nothing_after_the_as_of_moment(roomy: Catalog, frames) -> None:
    result = call_tool(
        roomy,
        "run_sql",
        {
            "sql": "SELECT (SELECT max(date) FROM prices), (SELECT max(published_at) FROM news), (SELECT max(announced_at) FROM events)"
        },
    )
    last_price, last_news, last_event = result["rows"][0]
    assert last_price <= roomy.report_date.isoformat()
    assert pd.Timestamp(last_news) <= pd.Timestamp(roomy.as_of)
    assert pd.Timestamp(last_event) <= pd.Timestamp(roomy.as_of)
    assert frames["prices"].date.max() > roomy.report_date


def test_list_and_describe_tables(roomy: Catalog) -> None:
    tables = call_tool(roomy, "list_tables", {})
    assert [t["table"] for t in tables["tables"]] == [
        "companies",
        "prices",
        "news",
        "events",
        "holdings",
        "portfolios",
    ]
    assert tables["tables"][1]["rows"] == legal_count(roomy)
    described = call_tool(roomy, "describe_table", {"table": "events"})
    assert [c["name"] for c in described["columns"]] == [
        "ticker",
        "date",
        "kind",
        "value",
        "announced_at",
    ]
    assert described["as_of_rule"] == "announced_at <= the as-of moment"
    unknown = call_tool(roomy, "describe_table", {"table": "secrets"})
    assert unknown["error"].startswith("unknown table 'secrets'; valid tables: companies, prices")

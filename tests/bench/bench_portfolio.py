"""Growth of the portfolio table with the number of holdings: one portfolio that holds every
ticker of a generated universe, its table (every position's P&L) built at each size. Linear
work shows as a flat time per holding; the ratio of the largest to the smallest size is printed.

Run: .venv/bin/python tests/bench/bench_portfolio.py [--sizes 100,500,2000]
"""

from __future__ import annotations

import argparse
import tempfile
import time
from datetime import date
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

from data.generate import generate_dataset
from tools.catalog import open_catalog
from tools.portfolio_table import collect_portfolio_table

END = date(2024, 12, 31)


def universe(root: Path, tickers: int) -> Path:
    """A year of generated data whose one portfolio holds every ticker from the first session."""
    data = root / f"data-{tickers}"
    generate_dataset(data, tickers=tickers, start=date(2024, 1, 2), end=END, portfolios=1, seed=1)
    companies = pq.read_table(data / "companies.parquet")["ticker"].to_pylist()
    holdings = pq.read_table(data / "holdings.parquet")
    first = min(holdings["as_of"].to_pylist())
    table = pa.table(
        {
            "portfolio_id": ["P001"] * len(companies),
            "as_of": [first] * len(companies),
            "ticker": companies,
            "quantity": [100.0] * len(companies),
            "cost_basis": [10.0] * len(companies),
        },
        schema=holdings.schema,
    )
    pq.write_table(table, data / "holdings.parquet")
    return data


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", default="100,500,2000")
    sizes = [int(n) for n in parser.parse_args().sizes.split(",")]
    root = Path(tempfile.mkdtemp(prefix="bench-portfolio-"))
    per: dict[int, float] = {}
    print(f"{'holdings':>9} {'table ms':>9} {'us/holding':>11} {'priced':>7}")
    for size in sizes:
        data = universe(root, size)
        with open_catalog(data, END, workdir=root / f"cat-{size}") as catalog:
            start = time.perf_counter()
            table = collect_portfolio_table(catalog, "P001", END)
            seconds = time.perf_counter() - start
        per[size] = seconds / size
        priced = len(table.positions) - len(table.unpriced)
        print(f"{size:>9} {seconds * 1000:>9.0f} {per[size] * 1e6:>11.0f} {priced:>7}")
    small, large = min(sizes), max(sizes)
    print(
        f"x{large / small:g} holdings: x{per[large] * large / (per[small] * small):.1f} time "
        f"(x{large / small:g} is linear, x{(large / small) ** 2:g} quadratic)"
    )


if __name__ == "__main__":
    main()

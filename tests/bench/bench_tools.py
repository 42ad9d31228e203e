"""Tool latency on a generated data set: the data's content hash, catalog build, point lookups,
a batch of calls.

Run: .venv/bin/python tests/bench/bench_tools.py [--tickers 500] [--years 3]
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from datetime import date
from pathlib import Path

from data.contract import TABLES
from data.generate import generate_dataset
from tools.catalog import fingerprint_data, open_catalog
from tools.registry import call_tool


def timed_ms(fn) -> float:  # type: ignore[no-untyped-def]
    start = time.perf_counter()
    fn()
    return (time.perf_counter() - start) * 1000


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--tickers", type=int, default=500)
    parser.add_argument("--years", type=int, default=3)
    opts = parser.parse_args()
    root = Path(tempfile.mkdtemp(prefix="bench-tools-"))
    end = date(2024, 12, 31)
    start = date(end.year - opts.years + 1, 1, 2)
    t = timed_ms(
        lambda: generate_dataset(
            root / "data", tickers=opts.tickers, start=start, end=end, portfolios=3, seed=1
        )
    )
    print(f"data: {opts.tickers} tickers x {opts.years} years generated in {t:.0f} ms")
    size_mb = sum((root / "data" / t.filename).stat().st_size for t in TABLES.values()) / 2**20
    hashed = min(timed_ms(lambda: fingerprint_data(root / "data")) for _ in range(3))
    print(
        f"fingerprint_data (content hash, every open): {size_mb:.1f} MB in {hashed:.1f} ms, "
        f"{hashed / size_mb:.2f} ms per MB"
    )
    report = date(2024, 12, 20)
    cold = timed_ms(lambda: open_catalog(root / "data", report, workdir=root / "work").close())
    warm = timed_ms(lambda: open_catalog(root / "data", report, workdir=root / "work").close())
    print(f"open_catalog: cold build {cold:.0f} ms, cached {warm:.0f} ms")
    with open_catalog(root / "data", report, workdir=root / "work") as cat:
        tickers = sorted(cat.listings)
        days = [d.isoformat() for d in cat.sessions[-200:]]
        lookups = [
            timed_ms(
                lambda i=i: call_tool(
                    cat,
                    "get_price",
                    {"ticker": tickers[i % len(tickers)], "date": days[i % len(days)]},
                )
            )
            for i in range(500)
        ]
        qs = statistics.quantiles(lookups, n=20)
        print(
            f"get_price point lookup: median {statistics.median(lookups):.2f} ms, p95 {qs[18]:.2f} ms (500 calls)"
        )
        batch = [
            (name, {"ticker": tickers[i], "date": days[-1 - i % 20]})
            for i in range(min(100, len(tickers)))
            for name in ("get_price", "get_daily_move")
        ]
        seq = timed_ms(lambda: [call_tool(cat, n, a) for n, a in batch])
        with ThreadPoolExecutor(max_workers=8) as pool:
            par = timed_ms(lambda: list(pool.map(lambda c: call_tool(cat, *c), batch)))
        print(f"batch of {len(batch)} calls: sequential {seq:.0f} ms, 8 threads {par:.0f} ms")
        sql = timed_ms(
            lambda: call_tool(
                cat, "run_sql", {"sql": "SELECT ticker, avg(close) FROM prices GROUP BY ticker"}
            )
        )
        print(f"run_sql aggregate over all prices: {sql:.1f} ms")


if __name__ == "__main__":
    main()

"""Time the generator on a full-size universe (5,000 tickers x 10 years) and print the figures.

Run: .venv/bin/python tests/bench/bench_generate.py [--tickers N] [--years Y]
"""

from __future__ import annotations

import argparse
import tempfile
import time
from datetime import date
from pathlib import Path

from data.check import check_dataset
from data.generate import build_dataset, write_dataset


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--tickers", type=int, default=5000)
    parser.add_argument("--years", type=int, default=10)
    args = parser.parse_args()
    start, end = date(2015, 1, 2), date(2015 + args.years - 1, 12, 31)
    began = time.perf_counter()
    tables, facts = build_dataset(tickers=args.tickers, start=start, end=end, portfolios=10, seed=1)
    built = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "set"
        write_dataset(tables, facts, out)
        written = time.perf_counter()
        size = sum(f.stat().st_size for f in out.iterdir())
        violations = check_dataset(out)
        checked = time.perf_counter()
    rows = ", ".join(f"{name} {count:,}" for name, count in facts.rows.items())
    print(f"generate {args.tickers} tickers x {args.years} years ({start}..{end})")
    print(f"  rows: {rows}")
    print(
        f"  build {built - began:.1f} s, write {written - built:.1f} s, "
        f"total {written - began:.1f} s, {size / 1e6:.0f} MB on disk"
    )
    print(f"  check {checked - written:.1f} s, {len(violations)} violations")


if __name__ == "__main__":
    main()

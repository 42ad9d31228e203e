"""Time the import of all real data sets (stocknet + zipline + companies + tweets + demo holdings).

Run: .venv/bin/python tests/bench/bench_import.py   (needs ../shared/realdata or NIGHTDESK_REALDATA)
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from pathlib import Path

from data.importer import ImportSources, import_dataset

ROOT = Path(__file__).resolve().parents[2]
REALDATA = Path(os.environ.get("NIGHTDESK_REALDATA") or ROOT.parent / "shared" / "realdata")


def main() -> None:
    if not (REALDATA / "stocknet").is_dir():
        sys.exit(f"real data sets not found at {REALDATA} (set NIGHTDESK_REALDATA)")
    stocknet = REALDATA / "stocknet"
    sources = ImportSources(
        prices=(stocknet / "prices", REALDATA / "zipline-csvdir"),
        companies=stocknet / "companies.tsv",
        news=stocknet / "tweets-2015q4.jsonl",
        holdings=ROOT / "data" / "demo" / "holdings.csv",
    )
    with tempfile.TemporaryDirectory() as tmp:
        started = time.perf_counter()
        log = import_dataset(Path(tmp) / "set", sources)
        seconds = time.perf_counter() - started
    rows = sum(log.read.values())
    print(f"import of {rows:,} input rows: {seconds:.2f} s ({rows / seconds:,.0f} rows/s)")
    for line in log.render()[-6:]:
        print(line)


if __name__ == "__main__":
    main()

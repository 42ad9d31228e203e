"""Growth with size: the same offline night (`nightdesk run --provider offline`, default
settings but a budget that covers every question) on a small and a large universe, generated
alike. A night that grows linearly takes at most (large / small) times as long; the prepare
phase (catalog, portfolio tables, the question plan) should stay a small share of it.

Sizes: BENCH_GROWTH_TICKERS (default "200,2000"); the budget is BENCH_RUN_TOKENS (default
10,000 tokens per ticker). Other BENCH_* settings as in bench_night.py.

Run: .venv/bin/python tests/bench/bench_growth.py
"""

from __future__ import annotations

import json
import os
import sys
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:  # run as a script: the repository's packages and tests import
    sys.path.insert(0, str(ROOT))

from tests.bench.bench_night import BenchConfig, measure  # noqa: E402

TOKENS_PER_TICKER = 10_000


def main() -> None:
    small, large = (int(n) for n in os.environ.get("BENCH_GROWTH_TICKERS", "200,2000").split(","))
    base = BenchConfig.from_env()
    rows = []
    for tickers in (small, large):
        cfg = replace(
            base,
            tickers=tickers,
            portfolios=int(os.environ.get("BENCH_PORTFOLIOS", str(max(3, tickers // 10)))),
            contestants=("nightdesk-offline",),
            run_tokens=base.run_tokens or TOKENS_PER_TICKER * tickers,
        )
        _, (row,) = measure(cfg)
        rows.append({**row, "tickers": tickers, "tickers_held": row["tickers"]})
    first, last = rows
    print(f"growth: offline night at {small:,} and {large:,} tickers ({large / small:g}x)")
    print(f"{'tickers':>8} {'wall s':>8} {'prepare s':>10} {'prepare %':>10} {'answer s':>9} {'q':>6} {'ok':>6} {'RSS MB':>7}")  # fmt: skip
    for r in rows:
        share = 100 * (r["prepare_s"] or 0) / r["wall_s"]
        print(f"{r['tickers']:>8,} {r['wall_s']:>8.1f} {r['prepare_s']:>10.2f} {share:>9.1f}% {r['answer_s']:>9.1f} {r['questions']:>6,} {r['accepted']:>6,} {r['peak_rss_mb']:>7.0f}")  # fmt: skip
    ratio = last["wall_s"] / first["wall_s"]
    print(f"wall x{ratio:.2f} for x{large / small:g} tickers (linear: at most x{large / small:g})")
    out = Path(os.environ.get("BENCH_GROWTH_JSON", str(ROOT / "outputs" / "bench" / "growth.json")))
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps({"rows": rows, "wall_ratio": round(ratio, 2)}, indent=1))
    print(f"JSON: {out}")


if __name__ == "__main__":
    main()

"""A sharded night against the unsharded one, at two sizes, all on this machine.

One Prefect server, a process work pool `nightdesk` and `BENCH_SHARDS` workers (`--limit 1`
each, as the README's scale-out recipe starts them); for each size (`BENCH_SHARD_TICKERS`,
default `2000,20000`; portfolios a tenth of the tickers) one generated universe, then the
offline night (`nightdesk run --provider offline`, no model latency: CPU and Prefect only) run
plain and with `--shards N`, each measured from outside (wall, CPU, peak RSS of its tree), and
every worker's process tree sampled for its peak RSS while the sharded night runs.

Checked, not only timed: the sharded night publishes exactly the records of the plain one, and
every (portfolio, ticker, question) once (nothing lost, nothing twice). Printed: one row per
night, the sharded/plain wall ratio per size and the growth from the smaller size to the larger
(the issue's target: at most 10x for 10x the tickers). JSON: `BENCH_SHARDS_JSON` (default
outputs/bench/shards.json). BENCH_TIMEOUT_S bounds each night (default 7200).

This is CPU heavy: at 20,000 tickers each night answers about 100,000 questions.
Run: .venv/bin/python tests/bench/bench_shards.py
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from datetime import date
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:  # run as a script: the repository's packages and tests import
    sys.path.insert(0, str(ROOT))

from data.generate import generate_dataset  # noqa: E402
from tests.bench.process_tree import run_measured, tree_rss_bytes  # noqa: E402
from tests.flows.night.test_crash import records  # noqa: E402
from tests.flows.night.test_flow import published_entries  # noqa: E402
from tests.flows.night.test_scale import free_port, processes, start, wait_healthy  # noqa: E402

PREFECT = [sys.executable, "-m", "prefect"]
NIGHTDESK = [sys.executable, "-c", "from flows.cli.main import main; main()"]
START, REPORT_DATE = date(2024, 1, 2), date(2024, 12, 31)
TOKENS_PER_TICKER = 10_000
"""The night's budget per ticker: the product's default run budget cuts a night of more than
about 600 tickers, and this benchmark measures whole nights."""


class PeakSampler:
    """The peak RSS of each of some process trees, sampled every `every_s` until stopped."""

    def __init__(self, roots: dict[str, int], every_s: float = 0.5) -> None:
        self.roots, self.every_s = roots, every_s
        self.peaks = dict.fromkeys(roots, 0)
        self._done = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def __enter__(self) -> PeakSampler:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._done.set()
        self._thread.join()

    def _run(self) -> None:
        while not self._done.is_set():
            for name, pid in self.roots.items():
                self.peaks[name] = max(self.peaks[name], tree_rss_bytes(pid))
            self._done.wait(self.every_s)


def night(
    data: Path, out: Path, env: dict[str, str], tickers: int, timeout_s: float, *extra: str
) -> dict[str, Any]:
    """One offline night, measured from outside; its manifest's counts and timings."""
    out.mkdir(parents=True)
    command = [
        *NIGHTDESK,
        *("run", "--data", str(data), "--out", str(out), "--date", REPORT_DATE.isoformat()),
        *("--provider", "offline", "--run-tokens", str(TOKENS_PER_TICKER * tickers), *extra),
    ]
    run = run_measured(command, env=env, cwd=out, log=out / "log.txt", timeout_s=timeout_s)
    if run.returncode != 0:
        tail = run.log.read_text(errors="replace")[-3000:]
        raise SystemExit(f"the night {' '.join(extra) or 'unsharded'} failed:\n{tail}")
    manifest = json.loads((out / REPORT_DATE.isoformat() / "manifest.json").read_text())
    return {
        "wall_s": round(run.wall_s, 1),
        "cpu_s": round(run.cpu_s, 1),
        "peak_rss_mb": round(run.peak_rss_mb, 1),
        "counts": manifest["counts"],
        "timings": manifest["timings"],
    }


def accounted(plain: Path, sharded: Path) -> dict[str, Any]:
    """Nothing lost, nothing twice: the same records, every entry published once."""
    entries = published_entries(sharded)
    keys = Counter(e[:3] for e in entries)
    return {
        "same_records": records(sharded) == records(plain),
        "entries": len(entries),
        "published_twice": sum(1 for n in keys.values() if n > 1),
        "plain_entries": len(published_entries(plain)),
    }


def measure_size(
    tickers: int, shards: int, work: Path, env: dict[str, str], workers: dict[str, int]
) -> dict[str, Any]:
    data = work / f"data-{tickers}"
    began = time.perf_counter()
    generate_dataset(
        data,
        tickers=tickers,
        start=START,
        end=REPORT_DATE,
        portfolios=max(3, tickers // 10),
        seed=7,
    )
    generated = round(time.perf_counter() - began, 1)
    timeout_s = float(os.environ.get("BENCH_TIMEOUT_S", "7200"))
    print(f"{tickers:,} tickers: the unsharded night ...", flush=True)
    plain = night(data, work / f"plain-{tickers}", env, tickers, timeout_s)
    print(f"{tickers:,} tickers: the night in {shards} shards ...", flush=True)
    with PeakSampler(workers) as sampler:
        sharded = night(
            data, work / f"sharded-{tickers}", env, tickers, timeout_s, "--shards", str(shards)
        )
    sharded["worker_peak_rss_mb"] = {n: round(b / 2**20, 1) for n, b in sampler.peaks.items()}
    day = REPORT_DATE.isoformat()
    check = accounted(work / f"plain-{tickers}" / day, work / f"sharded-{tickers}" / day)
    return {
        "tickers": tickers,
        "generate_s": generated,
        "plain": plain,
        "sharded": sharded,
        "check": check,
        "x_plain_wall": round(sharded["wall_s"] / plain["wall_s"], 2),
    }


def main() -> None:
    sizes = [int(n) for n in os.environ.get("BENCH_SHARD_TICKERS", "2000,20000").split(",")]
    shards = int(os.environ.get("BENCH_SHARDS", "4"))
    out = Path(os.environ.get("BENCH_SHARDS_JSON", str(ROOT / "outputs/bench/shards.json")))
    rows = []
    with tempfile.TemporaryDirectory(prefix="bench-shards-") as tmp, processes() as started:
        work = Path(tmp)
        port = free_port()
        api = f"http://127.0.0.1:{port}/api"
        base = {
            **os.environ,
            "PREFECT_HOME": str(work / "prefect"),
            "PREFECT_SERVER_ANALYTICS_ENABLED": "false",
            "PREFECT_LOGGING_LOGGERS_PREFECT_TASK_RUNS_LEVEL": "WARNING",
            "PYTHONPATH": str(ROOT),
        }
        base.pop("PREFECT_API_URL", None)
        env = {**base, "PREFECT_API_URL": api, "PREFECT_WORKER_QUERY_SECONDS": "1"}
        server = [*PREFECT, "server", "start", "--host", "127.0.0.1", "--port", str(port)]
        started.append(start(server, base, work / "server.log"))
        wait_healthy(api, started[0])
        pool = [*PREFECT, "work-pool", "create", "nightdesk", "--type", "process"]
        subprocess.run(pool, env=env, check=True, capture_output=True, timeout=300)
        workers = {}
        for i in range(shards):
            name = f"worker-{i + 1}"
            command = [*PREFECT, "worker", "start", "--pool", "nightdesk", "--limit", "1"]
            started.append(start([*command, "--name", name], env, work / f"{name}.log"))
            workers[name] = started[-1].pid
        for tickers in sizes:
            rows.append(measure_size(tickers, shards, work, env, workers))
            done = rows[-1]  # each size as it ends: the larger one takes hours
            print(
                f"{tickers:,} tickers: plain {done['plain']['wall_s']:.1f} s, sharded "
                f"{done['sharded']['wall_s']:.1f} s, same records {done['check']['same_records']}",
                flush=True,
            )
    print(f"sharded night: {shards} workers of one process pool, one Prefect server, this machine")
    print(f"{'tickers':>8} {'plain s':>8} {'sharded s':>10} {'x plain':>8} {'questions':>10} {'same':>5} {'twice':>6} {'plain MB':>9} {'worker MB (peak each)':>24}")  # fmt: skip
    for r in rows:
        peaks = "/".join(f"{v:.0f}" for v in r["sharded"]["worker_peak_rss_mb"].values())
        print(f"{r['tickers']:>8,} {r['plain']['wall_s']:>8.1f} {r['sharded']['wall_s']:>10.1f} {r['x_plain_wall']:>8.2f} {r['sharded']['counts']['questions']:>10,} {r['check']['same_records']!s:>5} {r['check']['published_twice']:>6} {r['plain']['peak_rss_mb']:>9.0f} {peaks:>24}")  # fmt: skip
    growth = {}
    if len(rows) > 1:
        first, last = rows[0], rows[-1]
        factor = last["tickers"] / first["tickers"]
        for kind in ("plain", "sharded"):
            growth[kind] = round(last[kind]["wall_s"] / first[kind]["wall_s"], 2)
        print(
            f"growth {first['tickers']:,} -> {last['tickers']:,} tickers (x{factor:g}): wall "
            f"x{growth['plain']} unsharded, x{growth['sharded']} sharded (target at most x10)"
        )
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps({"shards": shards, "rows": rows, "growth": growth}, indent=1))
    print(f"JSON: {out}")


if __name__ == "__main__":
    main()

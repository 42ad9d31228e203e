"""The night beside a peer: one generated universe, one scripted model server, five contestants.

Each contestant runs as its own process against the same data and the same server
(tests/bench/fake_model.py, `BENCH_LATENCY_MS` per reply):

- `nightdesk-plan`, `nightdesk-react`: `nightdesk run --provider openai` (Prefect, default
  budget and rate limits), the server's URL in OPENAI_BASE_URL;
- `nightdesk-batch`: the same in plan mode with `--batch`: every draft through the server's
  Batch API (answers, then summaries); the closing note compares its accepted reports, ledger
  cost and requests with `nightdesk-plan`'s;
- `driver-plan`, `driver-react`: the same agent loop, tools, budget, limiter and verifier under a
  plain asyncio driver (tests/bench/night_driver.py);
- `peer`: the night written with PydanticAI (tests/bench/night_peer.py), verifying nothing;
- `nightdesk-offline`, only when named: `nightdesk run --provider offline`, no server.

Prints one table and writes JSON (`BENCH_JSON`, default outputs/bench/night.json). Sizes come
from the environment: BENCH_TICKERS (universe, default 200), BENCH_PORTFOLIOS (default a tenth
of the tickers, at least 3: only held tickers are reported on), BENCH_CONCURRENCY (tickers at
once, default 32), BENCH_LATENCY_MS (default 100), BENCH_CONTESTANTS (comma-separated names,
default all), BENCH_TIMEOUT_S (per contestant, default 1800), BENCH_RPM and BENCH_TPM (the rate
limits nightdesk and the driver run under; default: none that bind, like the server and peer),
BENCH_RUN_TOKENS (their night's token budget; default the product's, which cuts a night of
more than about 600 tickers), BENCH_VERIFIERS (their `--verifier-processes`; default the
product's),
BENCH_PREFECT_SERVER (`shared`, the default: every nightdesk contestant runs against one
long-lived Prefect server the benchmark starts first, as the scheduled night's flow run does
against the operators' server; its CPU during each contestant is the row's `prefect_cpu_s`, its
memory is not in the row's tree and is printed apart; `own`: each `nightdesk run` starts its
temporary server, counted in its tree, as a run from a shell with no PREFECT_API_URL does),
BENCH_PREFECT_HOME (with `own`: `warm`, the default: each nightdesk contestant starts from a copy
of one Prefect home whose database exists, as a nightly run's home does after its first night;
`fresh`: an empty home, so the run also creates and migrates Prefect's database, a first night's
cost).

Run: .venv/bin/python tests/bench/bench_night.py
"""

from __future__ import annotations

import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:  # run as a script: the repository's packages and tests import
    sys.path.insert(0, str(ROOT))

from data.generate import generate_dataset  # noqa: E402
from tests.bench.probe import Probe, read_probe  # noqa: E402
from tests.bench.process_tree import MeasuredRun, run_measured, tree_rss_bytes  # noqa: E402

CONTESTANTS = (
    "nightdesk-plan",
    "nightdesk-batch",
    "nightdesk-react",
    "driver-plan",
    "driver-react",
    "peer",
)
EXTRA_CONTESTANTS = ("nightdesk-offline",)
"""Run only when named in BENCH_CONTESTANTS: `nightdesk run --provider offline` (plan mode, no
server; its tokens are the ledger's), for growth with size without any model latency."""
START, REPORT_DATE = date(2024, 1, 2), date(2024, 12, 31)


@dataclass(frozen=True)
class BenchConfig:
    tickers: int
    portfolios: int
    concurrency: int
    latency_ms: float
    contestants: tuple[str, ...]
    timeout_s: float
    json_path: Path
    requests_per_minute: int | None
    tokens_per_minute: int | None
    warm_prefect: bool
    shared_prefect: bool
    run_tokens: int | None
    repeats: int = 3
    verifier_processes: int | None = None

    @classmethod
    def from_env(cls) -> BenchConfig:
        env = os.environ
        tickers = int(env.get("BENCH_TICKERS", "200"))
        names = tuple(
            n for n in env.get("BENCH_CONTESTANTS", ",".join(CONTESTANTS)).split(",") if n
        )
        known = CONTESTANTS + EXTRA_CONTESTANTS
        unknown = [n for n in names if n not in known]
        if unknown:
            raise SystemExit(f"unknown contestant {', '.join(unknown)}: use {', '.join(known)}")
        home = env.get("BENCH_PREFECT_HOME", "warm")
        if home not in ("warm", "fresh"):
            raise SystemExit(f"BENCH_PREFECT_HOME={home}: use warm or fresh")
        server = env.get("BENCH_PREFECT_SERVER", "shared")
        if server not in ("shared", "own"):
            raise SystemExit(f"BENCH_PREFECT_SERVER={server}: use shared or own")
        return cls(
            tickers=tickers,
            portfolios=int(env.get("BENCH_PORTFOLIOS", str(max(3, tickers // 10)))),
            concurrency=int(env.get("BENCH_CONCURRENCY", "32")),
            latency_ms=float(env.get("BENCH_LATENCY_MS", "100")),
            contestants=names,
            timeout_s=float(env.get("BENCH_TIMEOUT_S", "1800")),
            json_path=Path(env.get("BENCH_JSON", str(ROOT / "outputs" / "bench" / "night.json"))),
            requests_per_minute=int(env["BENCH_RPM"]) if env.get("BENCH_RPM") else None,
            tokens_per_minute=int(env["BENCH_TPM"]) if env.get("BENCH_TPM") else None,
            warm_prefect=home == "warm",
            shared_prefect=server == "shared",
            run_tokens=int(env["BENCH_RUN_TOKENS"]) if env.get("BENCH_RUN_TOKENS") else None,
            repeats=max(1, int(env.get("BENCH_REPEATS", "3"))),
            verifier_processes=(
                int(env["BENCH_VERIFIERS"]) if env.get("BENCH_VERIFIERS") else None
            ),
        )


class ModelServer:
    """The scripted server as a child process: its URL, and its counters read and reset."""

    def __init__(self, latency_ms: float, log: Path) -> None:
        self.log = log.open("w")
        self.process = subprocess.Popen(
            [sys.executable, "-m", "tests.bench.fake_model", "--latency-ms", str(latency_ms)],
            cwd=ROOT,
            stdout=subprocess.PIPE,
            stderr=self.log,
            text=True,
        )
        assert self.process.stdout is not None
        line = self.process.stdout.readline()
        if not line.startswith("PORT "):
            self.process.kill()
            raise SystemExit(f"the scripted model server did not start: see {log}")
        self.url = f"http://127.0.0.1:{int(line.split()[1])}"

    def stats(self, reset: bool = False) -> dict[str, Any]:
        request = urllib.request.Request(
            f"{self.url}/{'reset' if reset else 'stats'}", method="POST" if reset else "GET"
        )
        with urllib.request.urlopen(request, timeout=10) as reply:
            result: dict[str, Any] = json.load(reply)
            return result

    def cpu_s(self) -> float:
        """CPU seconds the server has used so far (user + system)."""
        return process_cpu_s(self.process.pid)

    def close(self) -> None:
        self.process.terminate()
        self.process.wait(timeout=10)
        if self.process.stdout is not None:
            self.process.stdout.close()
        self.log.close()


def process_cpu_s(pid: int) -> float:
    """CPU seconds process `pid` has used so far (user + system)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class SharedPrefect:
    """One long-lived Prefect server for every nightdesk contestant (`BENCH_PREFECT_SERVER=shared`):
    the product's own temporary server, started once on a migrated home and left up, as the
    operators' server is for the scheduled night."""

    def __init__(self, work: Path) -> None:
        from flows.night.server import TemporaryServer

        home = migrated_prefect_home(work / "prefect-shared")
        self.server = TemporaryServer(home / "server.log")
        names = ("PREFECT_HOME", "PREFECT_API_URL", "PREFECT_UI_URL")
        before = {name: os.environ.get(name) for name in names}
        os.environ["PREFECT_HOME"] = str(home)
        try:
            self.server.start()
            self.server.wait_ready(120)
        finally:  # start() points this process at it: the contestants get it explicitly
            for name, value in before.items():
                if value is None:
                    os.environ.pop(name, None)
                else:
                    os.environ[name] = value
        self.url = self.server.api_url

    def cpu_s(self) -> float:
        assert self.server.process is not None
        return process_cpu_s(self.server.process.pid)

    def rss_mb(self) -> float:
        assert self.server.process is not None
        return tree_rss_bytes(self.server.process.pid) / 2**20

    def flow_runs(self) -> int:
        """How many flow runs the server has recorded (one per nightdesk contestant)."""
        request = urllib.request.Request(
            f"{self.url}/flow_runs/count",
            data=b"{}",
            headers={"Content-Type": "application/json"},
            method="POST",
        )
        with urllib.request.urlopen(request, timeout=30) as reply:
            return int(json.load(reply))

    def close(self) -> None:
        self.server.stop()


def command_for(name: str, cfg: BenchConfig, data: Path, work: Path, probe: Path) -> list[str]:
    kind, _, mode = name.partition("-")
    common = ["--data", str(data), "--date", REPORT_DATE.isoformat()]
    common += ["--concurrency", str(cfg.concurrency)]
    if kind != "peer":  # no limiter flags unless asked: the product's defaults
        rpm, tpm = cfg.requests_per_minute, cfg.tokens_per_minute
        common += ["--requests-per-minute", str(rpm)] if rpm else []
        common += ["--tokens-per-minute", str(tpm)] if tpm else []
        common += ["--run-tokens", str(cfg.run_tokens)] if cfg.run_tokens else []
        if cfg.verifier_processes is not None:
            common += ["--verifier-processes", str(cfg.verifier_processes)]
    if kind == "nightdesk":
        provider = ["--provider", "offline"] if mode == "offline" else ["--provider", "openai"]
        if mode == "batch":
            provider += ["--batch", "--batch-poll-seconds", str(BATCH_POLL_S)]
        return [
            *(sys.executable, "-m", "tests.bench.night_probe", str(probe), "run"),
            *common,
            *(
                "--out",
                str(work / "out"),
                *provider,
                "--mode",
                "plan" if mode in ("offline", "batch") else mode,
            ),
        ]
    common += ["--probe", str(probe)]
    if kind == "driver":
        return [sys.executable, "-m", "tests.bench.night_driver", *common, "--mode", mode]
    return [sys.executable, "-m", "tests.bench.night_peer", *common]


BATCH_POLL_S = 0.1
"""The batch contestant's first wait between looks at its batch (the server ends a batch one
reply latency after it was created)."""


def accepted_digest(day: Path) -> str:
    """A hash over every accepted answer's text in the night's reports: two nights with the same
    digest published the same accepted reports."""
    import hashlib

    answers = []
    for path in sorted((day / "accepted").glob("*.json")):
        report = json.loads(path.read_text())
        for section in report["tickers"]:
            for a in [*section["answers"], *([section["summary"]] if section["summary"] else [])]:
                if a["status"] == "accepted":
                    answers.append(f"{report['portfolio_id']}|{a['question_id']}|{a['answer']}")
    return hashlib.sha256("\n".join(sorted(answers)).encode()).hexdigest()[:16]


def migrated_prefect_home(folder: Path) -> Path:
    """A Prefect home whose database Prefect's own command has created and migrated."""
    env = {**os.environ, "PREFECT_HOME": str(folder)}
    upgrade = [sys.executable, "-m", "prefect", "server", "database", "upgrade", "-y"]
    subprocess.run(upgrade, env=env, check=True, capture_output=True, timeout=600)
    return folder


def run_contestant(
    name: str,
    cfg: BenchConfig,
    data: Path,
    work: Path,
    server: ModelServer,
    prefect: SharedPrefect | None = None,
    held: int = 0,
) -> dict[str, Any]:
    """One contestant measured from outside (process tree) and inside (probe, manifest)."""
    folder = work / name
    folder.mkdir(parents=True)
    home = work.parent / "prefect-home"  # one migrated home for every round
    nightdesk = name.startswith("nightdesk")
    if cfg.warm_prefect and nightdesk and prefect is None:
        shutil.copytree(home if home.is_dir() else migrated_prefect_home(home), folder / "prefect")
    probe_path = folder / "probe.json"
    command = command_for(name, cfg, data, folder, probe_path)
    env = {
        **os.environ,
        "OPENAI_BASE_URL": f"{server.url}/v1",
        "OPENAI_API_KEY": "unused",
        "PREFECT_HOME": str(folder / "prefect"),
        "PYTHONPATH": str(ROOT),
    }
    if prefect is not None and nightdesk:
        env["PREFECT_API_URL"] = prefect.url
    server.stats(reset=True)
    server_cpu = server.cpu_s()
    prefect_cpu = prefect.cpu_s() if prefect is not None and nightdesk else None
    launched = time.time()
    run = run_measured(
        command, env=env, cwd=folder, log=folder / "log.txt", timeout_s=cfg.timeout_s
    )
    served = {**server.stats(), "cpu_s": round(server.cpu_s() - server_cpu, 2)}
    if prefect is not None and prefect_cpu is not None:
        served["prefect_cpu_s"] = round(prefect.cpu_s() - prefect_cpu, 2)
        served["prefect_rss_mb"] = round(prefect.rss_mb(), 1)
    if run.returncode != 0 or not probe_path.is_file():
        tail = run.log.read_text(errors="replace")[-3000:]
        raise SystemExit(f"{name} failed (exit {run.returncode}):\n{tail}")
    probe = read_probe(probe_path)
    row = figures(name, cfg, run, probe, served, folder, held)
    if probe.answer_started_at is not None:  # the launch, imports and catalog build included
        row["prepare_s"] = round(probe.answer_started_at - launched, 2)
    return row


def figures(
    name: str,
    cfg: BenchConfig,
    run: MeasuredRun,
    probe: Probe,
    served: dict[str, Any],
    folder: Path,
    held: int = 0,
) -> dict[str, Any]:
    served = {**served, "requests": served["requests"] + served.get("batch_items", 0)}
    latency_s = cfg.latency_ms / 1000 if served["requests"] else 0.0  # offline: no server
    ledger: dict[str, Any] = {}
    if name.startswith("nightdesk"):
        day = folder / "out" / REPORT_DATE.isoformat()
        manifest = json.loads((day / "manifest.json").read_text())
        budget = manifest["budget"]
        ledger = {
            "cost_usd": budget["cost_usd"],
            "saved_usd": budget.get("saved_usd"),
            "batch_calls": sum(line.get("batch_calls", 0) for line in budget["lines"]),
            "ledger_calls": sum(line["calls"] for line in budget["lines"]),
            "accepted_digest": accepted_digest(day),
        }
        answer_s = probe.answer_s or float(manifest["timings"]["answer_s"])
        prepare_s = None
        questions, accepted = manifest["counts"]["questions"], manifest["counts"]["accepted"]
        if not served["requests"]:  # the offline provider: no server, the ledger counts
            used = manifest["budget"]["used"]
            served = {**served, "requests": manifest["counts"]["model_calls"]}
            served["total_tokens"] = used["input_tokens"] + used["output_tokens"]
    else:
        answer_s, prepare_s = probe.answer_s or 0.0, None
        questions = sum(probe.outcomes.values())
        accepted = probe.outcomes["accepted" if name.startswith("driver") else "answered"]
    tokens = served["total_tokens"]
    tool, call = percentiles(probe.tool_ms), percentiles(probe.call_ms)
    rounds = probe.max_turns + 1 if probe.max_turns else None  # the answers, then the summary
    floor = critical_path_s(held, cfg.concurrency, rounds, latency_s) if rounds else None
    prefect_cpu, prefect_rss = served.get("prefect_cpu_s"), served.get("prefect_rss_mb")
    row: dict[str, Any] = {
        "name": name,
        "wall_s": round(run.wall_s, 2),
        "answer_s": round(answer_s, 2),
        "prepare_s": prepare_s,
        "questions": questions,
        "accepted": accepted,
        "questions_per_s": round(questions / answer_s, 2) if answer_s else None,
        "model_requests": served["requests"],
        "http_requests": served.get("http_requests"),
        "batches": served.get("batches", 0),
        **ledger,
        "tokens": tokens,
        "tokens_per_question": round(tokens / questions, 1) if questions else None,
        "tokens_per_accepted": round(tokens / accepted, 1) if accepted else None,
        "schema_tokens_per_question": round(served["tool_schema_tokens"] / questions, 1)
        if questions
        else None,
        "peak_rss_mb": round(run.peak_rss_mb, 1),
        "cpu_s": round(run.cpu_s, 2),
        "prefect_rss_mb": prefect_rss,
        "rss_with_prefect_mb": round(run.peak_rss_mb + (prefect_rss or 0.0), 1),
        "cpu_with_prefect_s": round(run.cpu_s + (prefect_cpu or 0.0), 2),
        "cpu_ms_per_question": round(probe.answer_cpu_s * 1000 / questions, 2)
        if probe.answer_cpu_s is not None and questions
        else None,
        "main_answer_cpu_ms_per_question": round(probe.answer_main_cpu_s * 1000 / questions, 2)
        if probe.answer_main_cpu_s is not None and questions
        else None,
        "process_cpu_ms_per_question": round(probe.process_cpu_s * 1000 / questions, 2)
        if questions
        else None,
        "tool_cpu_s": round(probe.tool_cpu_s, 2),
        "tool_calls": len(probe.tool_ms),
        "tool_p50_ms": tool[0],
        "tool_p99_ms": tool[1],
        "call_p50_ms": call[0],
        "call_p99_ms": call[1],
        "verifier_cpu_s": round(probe.verifier_cpu_s, 3),
        "verifier_cpu_share": round(probe.verifier_cpu_s / run.cpu_s, 4) if run.cpu_s else None,
        "main_cpu_s": round(probe.process_cpu_s, 2),
        "verifier_main_cpu_share": round(probe.verifier_cpu_s / probe.process_cpu_s, 4)
        if probe.process_cpu_s
        else None,
        "max_in_flight": served["max_in_flight"],
        "server_cpu_s": served["cpu_s"],
        "prefect_cpu_s": prefect_cpu,
        "replies": served["replies"],
        "tickers": held,
        "rounds": rounds,
        "latency_floor_s": round(floor, 2) if floor else None,
        "outcomes": dict(probe.outcomes),
    }
    row["x_latency_floor"] = (
        round(answer_s / row["latency_floor_s"], 2) if row["latency_floor_s"] else None
    )
    return row


def critical_path_s(tickers: int, concurrency: int, rounds: int, latency_s: float) -> float:
    """The answering phase's physical floor: the tickers go through in ceil(tickers /
    concurrency) waves, and each ticker's calls form a chain of `rounds` replies (its questions'
    rounds at once, then the summary), each one latency long. No CPU counted at all."""
    return -(-tickers // max(concurrency, 1)) * rounds * latency_s


def percentiles(values: list[float]) -> tuple[float | None, float | None]:
    """p50 and p99 in ms, rounded; None without samples."""
    if not values:
        return None, None
    cuts = statistics.quantiles(values, n=100) if len(values) > 1 else values * 99
    return round(cuts[49], 2), round(cuts[98], 2)


RATIOS = (
    ("wall_s", "wall"),
    ("answer_s", "answer"),
    ("tokens_per_question", "tokens_per_question"),
    ("tokens_per_accepted", "tokens_per_accepted"),
    ("peak_rss_mb", "peak_rss"),
    ("rss_with_prefect_mb", "rss_with_prefect"),
    ("cpu_with_prefect_s", "cpu_with_prefect"),
)


def add_ratios(rows: list[dict[str, Any]]) -> None:
    """Each row against the peer, and the Prefect path against the driver in the same mode."""
    by_name = {r["name"]: r for r in rows}

    def ratio(a: Any, b: Any) -> float | None:
        return round(a / b, 2) if a and b else None

    for row in rows:
        peer = by_name.get("peer")
        row["vs_peer"] = {label: ratio(row[k], peer[k]) for k, label in RATIOS} if peer else {}
        kind, _, mode = row["name"].partition("-")
        driver = by_name.get(f"driver-{mode}")
        if kind == "nightdesk" and driver:
            row["vs_driver"] = {
                "wall": ratio(row["wall_s"], driver["wall_s"]),
                "answer": ratio(row["answer_s"], driver["answer_s"]),
            }


def aggregate(rounds: list[list[dict[str, Any]]]) -> list[dict[str, Any]]:
    """One row per contestant over the repeated rounds: each figure its median, `ranges` each
    numeric figure's [lowest, highest], `runs` the rounds' own rows (ratios are taken within a
    round, side by side, then summarised the same way)."""
    rows = []
    for name in [r["name"] for r in rounds[0]]:
        runs = [row for rnd in rounds for row in rnd if row["name"] == name]
        row: dict[str, Any] = {"name": name, "repeats": len(runs), "ranges": {}}
        for key, first in runs[0].items():
            if key == "name":
                continue
            if isinstance(first, dict) and key in ("vs_peer", "vs_driver"):
                row[key], spans = {}, {}
                for label in first:
                    row[key][label], spans[label] = summary(
                        [r.get(key, {}).get(label) for r in runs]
                    )
                row["ranges"][key] = spans
            elif isinstance(first, int | float) and not isinstance(first, bool):
                row[key], row["ranges"][key] = summary([r.get(key) for r in runs])
            else:
                row[key] = first
        row["runs"] = runs
        rows.append(row)
    return rows


def summary(values: list[Any]) -> tuple[Any, list[Any] | None]:
    """The median of the figures present and their [lowest, highest]; (None, None) if none."""
    present = [v for v in values if isinstance(v, int | float)]
    if not present:
        return None, None
    middle = statistics.median(present)
    if all(isinstance(v, int) for v in present) and middle == int(middle):
        middle = int(middle)  # counts stay whole
    return round(middle, 4), [min(present), max(present)]


COLUMNS = (
    ("contestant", "name", "{}"),
    ("wall s", "wall_s", "{:.1f}"),
    ("answer s", "answer_s", "{:.1f}"),
    ("prep s", "prepare_s", "{:.1f}"),
    ("q", "questions", "{}"),
    ("ok", "accepted", "{}"),
    ("q/s", "questions_per_s", "{:.1f}"),
    ("reqs", "model_requests", "{}"),
    ("http", "http_requests", "{}"),
    ("cost $", "cost_usd", "{:.4f}"),
    ("tok/q", "tokens_per_question", "{:.0f}"),
    ("tok/ok", "tokens_per_accepted", "{:.0f}"),
    ("schema/q", "schema_tokens_per_question", "{:.0f}"),
    ("RSS MB", "peak_rss_mb", "{:.0f}"),
    ("+prefect MB", "rss_with_prefect_mb", "{:.0f}"),
    ("CPU s", "cpu_s", "{:.1f}"),
    ("+prefect CPU", "cpu_with_prefect_s", "{:.1f}"),
    ("CPU ms/q", "cpu_ms_per_question", "{:.2f}"),
    ("tool p50", "tool_p50_ms", "{:.1f}"),
    ("tool p99", "tool_p99_ms", "{:.1f}"),
    ("call p99", "call_p99_ms", "{:.1f}"),
    ("verif CPU", "verifier_cpu_share", "{:.1%}"),
    ("floor s", "latency_floor_s", "{:.2f}"),
    ("x floor", "x_latency_floor", "{:.1f}"),
    ("x peer wall", ("vs_peer", "wall"), "{:.2f}"),
    ("x peer CPU+pf", ("vs_peer", "cpu_with_prefect"), "{:.2f}"),
    ("x peer ans", ("vs_peer", "answer"), "{:.2f}"),
    ("x peer tok/ok", ("vs_peer", "tokens_per_accepted"), "{:.2f}"),
    ("x peer RSS+pf", ("vs_peer", "rss_with_prefect"), "{:.2f}"),
    ("x driver wall", ("vs_driver", "wall"), "{:.2f}"),
    ("x driver ans", ("vs_driver", "answer"), "{:.2f}"),
)


RANGED = ("wall_s", "answer_s", "x_latency_floor", ("vs_peer", "wall"), "cpu_ms_per_question")
"""Columns shown with their range over the repeats: median (lowest-highest)."""


def render_table(rows: list[dict[str, Any]]) -> str:
    def cell(row: dict[str, Any], key: Any, fmt: str) -> str:
        value = row.get(key[0], {}).get(key[1]) if isinstance(key, tuple) else row.get(key)
        if value is None:
            return "-"
        ranges = row.get("ranges", {})
        span = ranges.get(key[0], {}).get(key[1]) if isinstance(key, tuple) else ranges.get(key)
        if key in RANGED and span and row.get("repeats", 1) > 1:
            return f"{fmt.format(value)} ({fmt.format(span[0])}-{fmt.format(span[1])})"
        return fmt.format(value)

    grid = [[h for h, _, _ in COLUMNS]]
    grid += [[cell(r, k, f) for _, k, f in COLUMNS] for r in rows]
    widths = [max(len(line[i]) for line in grid) for i in range(len(COLUMNS))]
    lines = [
        "  ".join(
            c.rjust(w) if i else c.ljust(w)
            for i, (c, w) in enumerate(zip(line, widths, strict=True))
        )
        for line in grid
    ]
    return "\n".join([lines[0], "-" * len(lines[0]), *lines[1:]])


def batch_note(rows: list[dict[str, Any]]) -> str | None:
    """The batch night against the direct plan-mode night: reports, ledger cost, requests."""
    by_name = {r["name"]: r for r in rows}
    plan, batch = by_name.get("nightdesk-plan"), by_name.get("nightdesk-batch")
    if not plan or not batch or plan["cost_usd"] is None or batch["cost_usd"] is None:
        return None
    same = "the same" if plan["accepted_digest"] == batch["accepted_digest"] else "DIFFERENT"
    share = batch["cost_usd"] / plan["cost_usd"] if plan["cost_usd"] else float("nan")
    return (
        f"batch vs direct (plan mode): {same} accepted reports ({batch['accepted']} vs "
        f"{plan['accepted']} answers); ledger drafting cost ${batch['cost_usd']:.6f} batch vs "
        f"${plan['cost_usd']:.6f} direct ({share:.1%}; the batch saved ${batch['saved_usd']:.6f}); "
        f"model requests {batch['model_requests']} in {batch['batches']} batches over "
        f"{batch['http_requests']} HTTP requests vs {plan['model_requests']} direct over "
        f"{plan['http_requests']} HTTP requests"
    )


def commit_of(root: Path) -> str | None:
    """The checked-out commit, `+` when the tree has changes; None outside a git checkout."""
    try:
        head = subprocess.run(
            ["git", "-C", str(root), "rev-parse", "--short", "HEAD"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "-C", str(root), "status", "--porcelain"], capture_output=True, text=True
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return None
    return head + ("+" if dirty else "")


def measure(cfg: BenchConfig) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Every contestant of `cfg` on one generated universe and one scripted server: the setup
    and one row of figures per contestant, ratios added."""
    began = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="bench-night-") as tmp:
        work = Path(tmp)
        data = work / "data"
        generate_dataset(
            data,
            tickers=cfg.tickers,
            start=START,
            end=REPORT_DATE,
            portfolios=cfg.portfolios,
            seed=7,
        )
        generated = time.perf_counter() - began
        held = held_tickers(data, work / "held")
        server = ModelServer(cfg.latency_ms, work / "server.log")
        prefect = None
        prefect_start_s = None
        try:
            if cfg.shared_prefect and any(n.startswith("nightdesk") for n in cfg.contestants):
                began_prefect = time.perf_counter()
                prefect = SharedPrefect(work)
                prefect_start_s = round(time.perf_counter() - began_prefect, 2)
            rounds, orders = [], []
            for i in range(cfg.repeats):
                order = interleaved(cfg.contestants, i)
                orders.append(order)
                rnd = []
                for name in order:
                    print(
                        f"running {name} at {cfg.tickers} tickers (round {i + 1}) ...", flush=True
                    )
                    folder = work / f"round-{i + 1}"
                    rnd.append(run_contestant(name, cfg, data, folder, server, prefect, held))
                rnd.sort(key=lambda r: cfg.contestants.index(r["name"]))
                add_ratios(rnd)
                rounds.append(rnd)
            prefect_rss = round(prefect.rss_mb(), 1) if prefect is not None else None
            prefect_runs = prefect.flow_runs() if prefect is not None else None
        finally:
            server.close()
            if prefect is not None:
                prefect.close()
    rows = aggregate(rounds)
    setup = {
        "tickers": cfg.tickers,
        "portfolios": cfg.portfolios,
        "concurrency": cfg.concurrency,
        "latency_ms": cfg.latency_ms,
        "report_date": REPORT_DATE.isoformat(),
        "generate_s": round(generated, 2),
        "cpus": os.cpu_count(),
        "prefect_server": "shared" if cfg.shared_prefect else "own",
        "prefect_home": "warm" if cfg.warm_prefect else "fresh",
        "shared_prefect_rss_mb": prefect_rss,
        "shared_prefect_start_s": prefect_start_s,
        "repeats": cfg.repeats,
        "orders": orders,
        "held_tickers": held,
        "shared_prefect_flow_runs": prefect_runs,
        "commit": commit_of(ROOT),
    }
    return setup, rows


def interleaved(names: tuple[str, ...], round_index: int) -> list[str]:
    """The contestants' order in one round: each round starts one later (and every second round
    runs backwards), so that no contestant always runs first, last or after the same one."""
    shift = round_index % len(names)
    order = list(names[shift:] + names[:shift])
    return order[::-1] if round_index % 2 else order


def held_tickers(data: Path, workdir: Path) -> int:
    """How many tickers the night reports on: the ones some portfolio holds on the date."""
    from tests.bench.holdings import holders_in
    from tools.catalog import open_catalog

    with open_catalog(data, REPORT_DATE, workdir=workdir) as catalog:
        return len(holders_in(catalog))


def main() -> None:
    cfg = BenchConfig.from_env()
    setup, rows = measure(cfg)
    print(
        f"night benchmark: {cfg.tickers} tickers in {cfg.portfolios} portfolios, concurrency "
        f"{cfg.concurrency} tickers, {cfg.latency_ms:g} ms per model reply; "
        f"{setup['held_tickers']} tickers held; {cfg.repeats} rounds, interleaved: "
        "median (lowest-highest)"
    )
    print(render_table(rows))
    if setup["prefect_server"] == "shared":
        print(
            "nightdesk ran against one long-lived Prefect server (BENCH_PREFECT_SERVER=shared, as "
            f"the scheduled night does; it took {setup['shared_prefect_start_s']} s to start, "
            f"{setup['shared_prefect_rss_mb']} MB resident at the end): +prefect MB and +prefect "
            "CPU add its resident memory after each row and its CPU during it to the row's own "
            "(x peer CPU+pf, x peer RSS+pf use them). BENCH_PREFECT_SERVER=own counts a "
            "temporary server per run in the tree."
        )
    print(
        "q: questions incl. one summary per ticker; ok: accepted by the verifier (peer: answered, "
        "it verifies nothing); tokens counted at the server; answer s: the answering phase; "
        "tool: a run in its thread, call: as traced (thread wait included); verif CPU: share of "
        "the process tree's CPU; prep s: launch to the first question (imports, catalog build, "
        "Prefect); CPU ms/q: the main process's CPU over the answering phase (every thread, the "
        "verifier's included) per question; floor s: the critical path, ceil(tickers / "
        "concurrency) x rounds (the longest question's model calls + the summary) x latency; "
        "x floor: answer s over it"
    )
    note = batch_note(rows)
    if note:
        print(note)
    cfg.json_path.parent.mkdir(parents=True, exist_ok=True)
    cfg.json_path.write_text(json.dumps({"setup": setup, "rows": rows}, indent=1))
    print(f"JSON: {cfg.json_path}")


if __name__ == "__main__":
    main()

"""The local provider, measured: its batching, and the `nightdesk-local` contestant's night.

1. The same drafting requests one at a time and all at once through the packaged model (or
   BENCH_LOCAL_MODEL), tokens per second side by side: BENCH_LOCAL_REQUESTS (16, the batch the
   contestant's night sends at its concurrency of 16) requests of
   BENCH_LOCAL_TOKENS (48) output tokens each; the loop detector and end of turn may end a row
   sooner, so tokens are counted, not assumed.
2. `nightdesk-local`: a small night as a user runs it (`nightdesk run --provider local`, its own
   process): a generated universe of BENCH_LOCAL_TICKERS (12, the least that fills a portfolio)
   tickers, one portfolio holding some of them, the demo-local questions, structured drafting; its wall time, its answers accepted, and the model's account
   from the night's log (speed measured at load; batches, sizes and tokens/s of generation).
   BENCH_LOCAL_NIGHT=0 leaves it out.

Without the `local` extra (torch, transformers, the packaged model) each part prints the line
saying why it is skipped, and the script exits 0. The packaged model's folder is prepared once
(as `make demo-local` does) when it is missing.
"""

from __future__ import annotations

import asyncio
import os
import re
import subprocess
import sys
import tempfile
from importlib.util import find_spec
from pathlib import Path
from time import perf_counter
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:  # run as a script: the repository's packages import
    sys.path.insert(0, str(ROOT))

from agent.prompts import context_line, draft_message, render_results, system_prompt  # noqa: E402
from agent.providers.base import Message, ModelRequest  # noqa: E402
from agent.providers.local_prepare import DEFAULT_FOLDER, packaged_gguf, prepare  # noqa: E402
from contract.errors import InputError  # noqa: E402

MODEL = Path(os.environ.get("BENCH_LOCAL_MODEL", str(ROOT / DEFAULT_FOLDER)))
REQUESTS = int(os.environ.get("BENCH_LOCAL_REQUESTS", "16"))
TOKENS = int(os.environ.get("BENCH_LOCAL_TOKENS", "48"))
THREADS = int(os.environ["BENCH_LOCAL_THREADS"]) if "BENCH_LOCAL_THREADS" in os.environ else None
DTYPE = os.environ.get("BENCH_LOCAL_DTYPE", "auto")
NIGHT_TICKERS = int(os.environ.get("BENCH_LOCAL_TICKERS", "12"))
NIGHT = os.environ.get("BENCH_LOCAL_NIGHT", "1") != "0"
QUESTIONS = ROOT / "agent" / "question_sets" / "demo-local.json"


def requests() -> list[ModelRequest]:
    """Drafting requests as a plan-mode night sends them, on made-up figures."""
    out = []
    for i in range(REQUESTS):
        ticker = f"EX{i:02d}"
        result = {
            "tool": "get_daily_move",
            "args": {"ticker": ticker, "date": "2024-12-31"},
            "result": {
                "ticker": ticker,
                "session": "2024-12-31",
                "close": 100 + 7.25 * i,
                "previous_close": 99 + 3.5 * i,
                "change": 1 + 3.75 * i,
                "change_pct": round(1.01 + 0.5 * i, 2),
            },
        }
        text = draft_message(
            f"How did {ticker} close on 2024-12-31, and what was its day change?",
            context_line("en", ticker, "2024-12-31", None),
            "en",
            render_results([result]),
        )
        out.append(
            ModelRequest(
                system=system_prompt("en", "plan"),
                messages=[Message(role="user", text=text)],
                max_output_tokens=TOKENS,
            )
        )
    return out


async def timed(provider: Any, batch: bool) -> tuple[float, int]:
    started = perf_counter()
    if batch:
        replies = await asyncio.gather(*(provider.complete(r) for r in requests()))
    else:
        replies = [await provider.complete(r) for r in requests()]
    return perf_counter() - started, sum(r.usage.output_tokens for r in replies)


def model_ready() -> str | None:
    """Why the local model cannot run here, or None once its folder is ready."""
    missing = [m for m in ("torch", "transformers") if find_spec(m) is None]
    if missing:
        return f"the local extra is not installed ({', '.join(missing)} missing: make setup)"
    if (MODEL / "config.json").is_file():
        return None
    if MODEL != ROOT / DEFAULT_FOLDER:
        return f"no model in {MODEL}"
    try:
        print(f"preparing the packaged model in {MODEL} (once)", flush=True)
        prepare(packaged_gguf(), MODEL)
    except InputError as exc:
        return exc.message
    return None


async def batching() -> None:
    from agent.providers.local import LocalProvider  # needs the local extra

    provider = LocalProvider(MODEL, threads=THREADS, dtype=DTYPE, max_batch=REQUESTS)
    print(f"model {MODEL}, {provider.dtype}, {provider.threads} threads, {REQUESTS} requests")
    await provider.complete(requests()[0].model_copy(update={"max_output_tokens": 2}))  # warm up
    alone_s, alone_tokens = await timed(provider, batch=False)
    seen = len(provider.queue.batches)
    batch_s, batch_tokens = await timed(provider, batch=True)
    alone, batched = alone_tokens / alone_s, batch_tokens / batch_s
    print(f"one at a time: {alone_tokens} tokens in {alone_s:.1f} s = {alone:.1f} tokens/s")
    print(
        f"batched:       {batch_tokens} tokens in {batch_s:.1f} s = {batched:.1f} tokens/s "
        f"(batch sizes {provider.queue.batches[seen:]})"
    )
    print(f"batched / one at a time: {batched / alone:.2f}x")


def night() -> int:
    """The `nightdesk-local` contestant: a small night from the shell, timed."""
    nightdesk = Path(sys.executable).with_name("nightdesk")
    with tempfile.TemporaryDirectory(prefix="bench-local-") as work:
        data, out = Path(work, "data"), Path(work, "out")
        generate = [nightdesk, "data", "generate", "--out", data, "--tickers", str(NIGHT_TICKERS)]
        generate += ["--portfolios", "1", "--start", "2024-10-01", "--end", "2024-12-31"]
        made = subprocess.run([*generate, "--seed", "7"], capture_output=True, text=True)
        if made.returncode != 0:
            print(f"nightdesk-local: no data: {made.stderr.strip()}")
            return 1
        command = [nightdesk, "run", "--data", data, "--out", out, "--provider", "local"]
        command += ["--model", MODEL, "--questions", QUESTIONS, "--concurrency", "16"]
        command += ["--dtype", DTYPE] + (["--threads", str(THREADS)] if THREADS else [])
        started = perf_counter()
        run = subprocess.run(command, capture_output=True, text=True, timeout=1800)
        wall = perf_counter() - started
    log = run.stdout + run.stderr
    if run.returncode != 0:
        print(f"nightdesk-local: the night failed (exit {run.returncode}):\n{log[-2000:]}")
        return 1
    for line in re.findall(r"local model: (.*)", log):
        print(f"nightdesk-local: {line}")
    answers = [m.groups() for m in re.finditer(r" - \S+: (\d+) accepted, (\d+) rejected", log)]
    accepted = sum(int(a) for a, _ in answers)
    total = accepted + sum(int(r) for _, r in answers)
    print(
        f"nightdesk-local: {len(answers)} tickers, {accepted} of {total} answers accepted, "
        f"{wall:.0f} s wall time (load, measure, data and Prefect included)"
    )
    return 0


async def main() -> int:
    why = model_ready()
    if why is not None:
        print(f"bench_local: {why}; the batching figures and nightdesk-local are skipped")
        return 0
    await batching()
    if not NIGHT:
        print("nightdesk-local: skipped (BENCH_LOCAL_NIGHT=0)")
        return 0
    return night()


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))

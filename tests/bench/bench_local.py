"""The local provider's batching, measured: the same drafting requests one at a time and all at
once through the packaged model (or BENCH_LOCAL_MODEL), tokens per second side by side.

Needs the model folder `make demo-local` prepares; prints a line and exits 0 without it.
BENCH_LOCAL_REQUESTS (8) requests of BENCH_LOCAL_TOKENS (48) output tokens each; the loop
detector and end of turn may end a row sooner, so tokens are counted, not assumed.
"""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path
from time import perf_counter

from agent.prompts import context_line, draft_message, render_results, system_prompt
from agent.providers.base import Message, ModelRequest
from agent.providers.local import LocalProvider
from agent.providers.local_prepare import DEFAULT_FOLDER

MODEL = Path(os.environ.get("BENCH_LOCAL_MODEL", str(DEFAULT_FOLDER)))
REQUESTS = int(os.environ.get("BENCH_LOCAL_REQUESTS", "8"))
TOKENS = int(os.environ.get("BENCH_LOCAL_TOKENS", "48"))
THREADS = int(os.environ["BENCH_LOCAL_THREADS"]) if "BENCH_LOCAL_THREADS" in os.environ else None
DTYPE = os.environ.get("BENCH_LOCAL_DTYPE", "auto")


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


async def timed(provider: LocalProvider, batch: bool) -> tuple[float, int]:
    started = perf_counter()
    if batch:
        replies = await asyncio.gather(*(provider.complete(r) for r in requests()))
    else:
        replies = [await provider.complete(r) for r in requests()]
    return perf_counter() - started, sum(r.usage.output_tokens for r in replies)


async def main() -> int:
    if not (MODEL / "config.json").is_file():
        print(f"bench_local: no model in {MODEL} (make demo-local prepares it); skipped")
        return 0
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
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))

"""The event loop's CPU time per model call, by calls in flight: the openai provider over the
SDK's own httpx client against the same provider over its aiohttp transport
(`agent/providers/transport.py`), both against the scripted server on loopback with no latency.

A night on a small machine is CPU-bound while it answers, so what a call costs the event loop
is answering time. Prints one line per size and pool layout; asserts nothing.

Run: .venv/bin/python tests/bench/bench_provider.py (BENCH_PROVIDER_CALLS, default 1500;
BENCH_PROVIDER_IN_FLIGHT, default 16,150,300)
"""

from __future__ import annotations

import asyncio
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:  # run as a script: the repository's packages and tests import
    sys.path.insert(0, str(ROOT))

import openai  # noqa: E402

from agent.providers.base import Message, ModelRequest  # noqa: E402
from agent.providers.openai import OpenAIProvider  # noqa: E402
from tests.bench.bench_night import ModelServer  # noqa: E402

REQUEST = ModelRequest(
    system="You answer questions about a portfolio from the tools' results only. " * 20,
    messages=[Message(role="user", text="How did AAPL close on 2024-12-31, and how did it move?")],
    max_output_tokens=512,
)


async def cpu_ms_per_call(provider: OpenAIProvider, calls: int, in_flight: int) -> float:
    gate = asyncio.Semaphore(in_flight)

    async def one() -> None:
        async with gate:
            await provider.complete(REQUEST)

    await asyncio.gather(*(one() for _ in range(in_flight)))  # connections open, code warm
    started = time.thread_time()
    await asyncio.gather(*(one() for _ in range(calls)))
    return 1000 * (time.thread_time() - started) / calls


async def measure(url: str, calls: int, sizes: list[int]) -> None:
    print(f"{'in flight':>9}  {'httpx ms/call':>16}  {'aiohttp ms/call':>15}  ratio")
    for size in sizes:
        one_pool = OpenAIProvider(
            "gpt-4o-mini", base_url=url, api_key="k", http_client=openai.DefaultAsyncHttpxClient()
        )
        pooled = OpenAIProvider("gpt-4o-mini", base_url=url, api_key="k")
        single = await cpu_ms_per_call(one_pool, calls, size)
        pooled_ms = await cpu_ms_per_call(pooled, calls, size)
        print(f"{size:>9}  {single:>16.2f}  {pooled_ms:>15.2f}  {pooled_ms / single:.2f}")
        await one_pool.client.close()
        await pooled.client.close()


def main() -> None:
    calls = int(os.environ.get("BENCH_PROVIDER_CALLS", "1500"))
    sizes = [int(n) for n in os.environ.get("BENCH_PROVIDER_IN_FLIGHT", "16,150,300").split(",")]
    with tempfile.TemporaryDirectory(prefix="bench-provider-") as tmp:
        server = ModelServer(latency_ms=0, log=Path(tmp) / "server.log")
        try:
            print(f"openai provider, {calls} calls per figure, main-thread CPU time per call")
            asyncio.run(measure(f"{server.url}/v1", calls, sizes))
        finally:
            server.close()


if __name__ == "__main__":
    main()

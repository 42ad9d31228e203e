"""The HTTP transport of a provider's SDK client: its requests spread over several small pools.

The connection pool under httpx walks all of its connections on every request and every reply
(to hand waiting requests a connection and to drop expired ones, a socket check per idle
connection). A night keeps a few hundred calls in flight, so one pool of that many connections
cost more CPU per call than the SDK's own work: 2.5 ms of the event loop's time per call with
300 in flight, 1.5 ms spread over eight pools (`tests/bench/bench_provider.py`). The
night is CPU-bound on a small machine long before it is bound by the provider's latency, so
this is answering time. Each request goes to the next pool in turn; the night still holds as
many connections as it has calls in flight, up to the SDK's own limit.
"""

from __future__ import annotations

import itertools
import socket
import urllib.request
from collections.abc import Callable
from typing import Any

import httpx2

POOLS = 8
"""Pools per client: past four the walk is short enough that more pools buy little."""
SDK_LIMITS = httpx2.Limits(max_connections=1000, max_keepalive_connections=100)
"""What both SDKs allow one client by default, shared out among the pools."""


KEEPALIVE = [
    (socket.SOL_SOCKET, socket.SO_KEEPALIVE, 1),
    *(
        (socket.IPPROTO_TCP, getattr(socket, name), value)
        for name, value in (("TCP_KEEPIDLE", 60), ("TCP_KEEPINTVL", 60), ("TCP_KEEPCNT", 5))
        if hasattr(socket, name)
    ),
]
"""TCP keepalive on every connection, as the anthropic SDK's own transport sets it: a reply that
takes minutes is not lost to a middlebox that drops quiet connections."""


class SpreadTransport(httpx2.AsyncBaseTransport):
    """Requests dealt round the pools of `pools` `httpx2.AsyncHTTPTransport`s, which share
    `limits` out among themselves; `options` go to each pool (e.g. `socket_options`)."""

    def __init__(
        self, pools: int = POOLS, limits: httpx2.Limits = SDK_LIMITS, **options: Any
    ) -> None:
        pools = max(1, min(pools, limits.max_connections or pools))  # at least one each
        share = httpx2.Limits(
            max_connections=_share(limits.max_connections, pools),
            max_keepalive_connections=_share(limits.max_keepalive_connections, pools),
            keepalive_expiry=limits.keepalive_expiry,
        )
        # One TLS context for all: building one loads the system's certificates (about 25 ms).
        verify = httpx2.create_ssl_context(
            options.pop("verify", True), options.pop("cert", None), options.get("trust_env", True)
        )
        self.pools = [
            httpx2.AsyncHTTPTransport(verify=verify, limits=share, **options) for _ in range(pools)
        ]
        self._turn = itertools.cycle(self.pools)

    async def handle_async_request(self, request: httpx2.Request) -> httpx2.Response:
        return await next(self._turn).handle_async_request(request)

    async def aclose(self) -> None:
        for pool in self.pools:
            await pool.aclose()


def _share(total: int | None, pools: int) -> int | None:
    """Each pool's part of a limit (None: no limit), at least one."""
    return None if total is None else max(1, -(-total // pools))


def spread_transport(**options: Any) -> SpreadTransport | None:
    """A `SpreadTransport`, or None where the environment names a proxy: a client given its
    own transport no longer reads the proxy variables, so there the SDK's client is kept as
    it is."""
    if set(urllib.request.getproxies_environment()) - {"no"}:
        return None
    return SpreadTransport(**options)


def spread_client(
    sdk_client: Callable[..., httpx2.AsyncClient], **options: Any
) -> httpx2.AsyncClient | None:
    """The SDK's default client (`sdk_client`, e.g. `openai.DefaultAsyncHttpxClient`) over a
    `spread_transport(**options)`; None where there is none, so the SDK builds its own."""
    transport = spread_transport(**options)
    return sdk_client(transport=transport) if transport is not None else None

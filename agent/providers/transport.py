"""The HTTP transport under both SDK clients: aiohttp's connection pool, not httpx's.

A night on a small machine is CPU-bound while it answers, so what a call costs the event loop is
answering time. httpx's pool walks all of its connections on every request and every reply (a
socket check per idle connection): 1.1 ms of the event loop's time per call with 16 in flight
and 2.5 ms with 300, against 0.75 ms at any size for the SDKs' own aiohttp transport
(`tests/bench/bench_provider.py`). The SDK keeps its client (retries, timeouts, headers); only
the transport under it changes. The connector holds up to the SDKs' own limit of connections,
with TCP keepalive on each, and its session is opened on the first request, on the loop that
makes it (a provider built for a check that sends nothing opens none).
"""

from __future__ import annotations

import socket
import urllib.request
from collections.abc import Callable
from typing import Any

import aiohttp
import httpx2
from httpx_aiohttp.httpx2 import AiohttpTransport

SDK_LIMITS = httpx2.Limits(max_connections=1000, max_keepalive_connections=100)
"""What both SDKs allow one client by default."""

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


def keepalive_socket(addr_info: Any) -> socket.socket:
    """A socket for `addr_info` (aiohappyeyeballs' address tuple) with `KEEPALIVE` set."""
    family, kind, proto = addr_info[0], addr_info[1], addr_info[2]
    sock = socket.socket(family=family, type=kind, proto=proto)
    for level, option, value in KEEPALIVE:
        sock.setsockopt(level, option, value)
    return sock


class PooledTransport(AiohttpTransport):
    """`AiohttpTransport` over one `aiohttp.ClientSession` whose connector keeps `limits`, with
    TLS verified as httpx verifies it (`verify`, `cert`, `SSL_CERT_FILE`)."""

    def __init__(self, limits: httpx2.Limits = SDK_LIMITS, **options: Any) -> None:
        super().__init__(limits=limits, client=self._session, **options)

    def _session(self) -> aiohttp.ClientSession:
        connector = aiohttp.TCPConnector(
            limit=self.limits.max_connections or 0,
            limit_per_host=0,
            keepalive_timeout=self.limits.keepalive_expiry or 0,
            ssl=self.ssl_context,
            socket_factory=keepalive_socket,
        )
        return aiohttp.ClientSession(connector=connector)


def sdk_http_client(sdk_client: Callable[..., httpx2.AsyncClient]) -> httpx2.AsyncClient | None:
    """The SDK's default client (`sdk_client`, e.g. `openai.DefaultAsyncHttpxClient`) over a
    `PooledTransport`; None where the environment names a proxy: a client given its own
    transport no longer reads the proxy variables, so there the SDK builds its own."""
    if set(urllib.request.getproxies_environment()) - {"no"}:
        return None
    return sdk_client(transport=PooledTransport())

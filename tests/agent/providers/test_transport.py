"""The providers' transport: aiohttp's pool under the SDK clients, over real sockets to a loopback
server that counts the connections it is given."""

from __future__ import annotations

import asyncio
import json
import socket
from collections.abc import AsyncIterator

import httpx2
import pytest

from agent.providers.anthropic import AnthropicProvider
from agent.providers.openai import OpenAIProvider
from agent.providers.transport import PooledTransport, keepalive_socket


class CountingServer:
    """HTTP/1.1 with keep-alive on loopback: answers every request with a small JSON reply
    after `delay_s`, and notes each connection it accepted."""

    def __init__(self, delay_s: float) -> None:
        self.delay_s = delay_s
        self.connections = 0
        self.in_flight = self.most_in_flight = 0

    async def serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.connections += 1
        try:
            while head := await reader.readuntil(b"\r\n\r\n"):
                length = next(
                    (
                        int(line.split(b":")[1])
                        for line in head.split(b"\r\n")
                        if line.lower().startswith(b"content-length:")
                    ),
                    0,
                )
                await reader.readexactly(length)
                self.in_flight += 1
                self.most_in_flight = max(self.most_in_flight, self.in_flight)
                await asyncio.sleep(self.delay_s)
                self.in_flight -= 1
                body = json.dumps({"ok": True}).encode()
                writer.write(
                    b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
                    + f"Content-Length: {len(body)}\r\n\r\n".encode()
                    + body
                )
                await writer.drain()
        except (asyncio.IncompleteReadError, ConnectionError):
            pass
        finally:
            writer.close()


@pytest.fixture
async def server() -> AsyncIterator[tuple[CountingServer, str]]:
    counting = CountingServer(delay_s=0.05)
    listening = await asyncio.start_server(counting.serve, "127.0.0.1", 0)
    port = listening.sockets[0].getsockname()[1]
    async with listening:
        yield counting, f"http://127.0.0.1:{port}"


async def send(client: httpx2.AsyncClient, url: str, requests: int) -> list[int]:
    replies = await asyncio.gather(*(client.post(url, json={"n": i}) for i in range(requests)))
    return [r.status_code for r in replies]


async def test_every_call_in_flight_has_its_connection_and_keeps_it(
    server: tuple[CountingServer, str],
) -> None:
    counting, url = server
    async with httpx2.AsyncClient(transport=PooledTransport()) as client:
        assert await send(client, url, 60) == [200] * 60
        assert await send(client, url, 60) == [200] * 60  # kept alive, used again
    assert counting.most_in_flight == 60
    assert counting.connections == 60


async def test_the_connection_limit_is_kept(server: tuple[CountingServer, str]) -> None:
    counting, url = server
    transport = PooledTransport(limits=httpx2.Limits(max_connections=3))
    async with httpx2.AsyncClient(transport=transport) as client:
        assert await send(client, url, 12) == [200] * 12
    assert counting.most_in_flight == 3 and counting.connections == 3


def test_each_connection_has_tcp_keepalive() -> None:
    info = socket.getaddrinfo("127.0.0.1", 80, type=socket.SOCK_STREAM)[0]
    with keepalive_socket(info) as sock:
        assert sock.getsockopt(socket.SOL_SOCKET, socket.SO_KEEPALIVE) == 1
        if hasattr(socket, "TCP_KEEPIDLE"):
            assert sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_KEEPIDLE) == 60


def test_behind_a_proxy_the_providers_keep_the_sdks_own_client(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A client given its own transport no longer reads the proxy variables: where one is set,
    the SDK's client (which mounts the proxy) is kept."""
    monkeypatch.setenv("HTTPS_PROXY", "http://proxy.example:3128")
    for provider in (
        OpenAIProvider("gpt-4o-mini", api_key="k"),
        AnthropicProvider("claude-haiku-4-5", api_key="k"),
    ):
        client = provider.client._client
        assert not isinstance(client._transport, PooledTransport)
        assert any(mount is not None for mount in client._mounts.values())  # the proxy's


async def test_both_providers_pool_their_calls_and_close_them(
    no_proxy: None, server: tuple[CountingServer, str]
) -> None:
    """Unless given a client, each provider's SDK client runs over a `PooledTransport`; closing
    the provider closes the session its first call opened."""
    _, url = server
    openai = OpenAIProvider("gpt-4o-mini", api_key="k")
    anthropic = AnthropicProvider("claude-haiku-4-5", api_key="k")
    for provider in (openai, anthropic):
        transport = provider.client._client._transport
        assert isinstance(transport, PooledTransport)
        reply = await provider.client._client.post(url, json={"n": 1})
        assert reply.status_code == 200 and not transport.client.closed
        await provider.aclose()
        assert transport.client.closed
    own = httpx2.AsyncClient()
    assert OpenAIProvider("gpt-4o-mini", api_key="k", http_client=own).client._client is own

"""The providers' transport: requests dealt over several small pools that share the SDK's limits,
over real sockets to a loopback server that counts the connections it is given."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator

import httpx2
import pytest

from agent.providers.anthropic import AnthropicProvider
from agent.providers.openai import OpenAIProvider
from agent.providers.pools import SpreadTransport


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


async def test_requests_are_dealt_over_every_pool_within_the_shared_limit(
    server: tuple[CountingServer, str],
) -> None:
    counting, url = server
    transport = SpreadTransport(pools=4, limits=httpx2.Limits(max_connections=8))
    async with httpx2.AsyncClient(transport=transport) as client:
        assert await send(client, url, 40) == [200] * 40
        held = [len(pool._pool.connections) for pool in transport.pools]
    assert held == [2, 2, 2, 2]  # each pool used its share of the limit, none more
    assert len({id(pool._pool._ssl_context) for pool in transport.pools}) == 1  # built once
    assert counting.connections == 8 and counting.most_in_flight == 8


async def test_without_a_limit_every_call_in_flight_has_its_connection(
    server: tuple[CountingServer, str],
) -> None:
    counting, url = server
    transport = SpreadTransport(pools=4)  # the SDKs' own limits: 1,000 connections
    async with httpx2.AsyncClient(transport=transport) as client:
        assert await send(client, url, 60) == [200] * 60
        assert await send(client, url, 60) == [200] * 60  # kept alive, used again
    assert counting.most_in_flight == 60
    assert counting.connections == 60


async def test_a_limit_below_the_pools_is_kept_with_fewer_pools(
    server: tuple[CountingServer, str],
) -> None:
    counting, url = server
    transport = SpreadTransport(pools=8, limits=httpx2.Limits(max_connections=3))
    async with httpx2.AsyncClient(transport=transport) as client:
        assert await send(client, url, 12) == [200] * 12
    assert len(transport.pools) == 3 and counting.most_in_flight == 3


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
        assert not isinstance(client._transport, SpreadTransport)
        assert any(mount is not None for mount in client._mounts.values())  # the proxy's


def test_both_providers_spread_their_calls_unless_given_a_client(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    for name in (
        "HTTP_PROXY",
        "HTTPS_PROXY",
        "ALL_PROXY",
        "http_proxy",
        "https_proxy",
        "all_proxy",
    ):
        monkeypatch.delenv(name, raising=False)
    openai = OpenAIProvider("gpt-4o-mini", api_key="k")
    anthropic = AnthropicProvider("claude-haiku-4-5", api_key="k")
    for provider in (openai, anthropic):
        assert isinstance(provider.client._client._transport, SpreadTransport)
    own = httpx2.AsyncClient()
    assert OpenAIProvider("gpt-4o-mini", api_key="k", http_client=own).client._client is own

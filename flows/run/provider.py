"""The model provider a run talks to, and options for it that are not run parameters.

Flow parameters are stored on the server, shown in the UI and hashed into cache keys, so they
hold plain values only. Live objects for the provider (an HTTP client with its own transport,
proxy or certificates; an API key from a vault) reach it through `provider_options`, for the
runs started inside the block in this process. The CLI never sets any.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from types import MappingProxyType
from typing import Any

from agent.providers import make_provider
from agent.providers.base import Provider
from flows.run.config import RunConfig

_NONE: MappingProxyType[str, Any] = MappingProxyType({})
_OPTIONS: ContextVar[MappingProxyType[str, Any]] = ContextVar(
    "nightdesk_provider_options", default=_NONE
)


@contextmanager
def provider_options(**options: Any) -> Iterator[None]:
    """Pass `options` (e.g. `http_client=`, `api_key=`) to the provider of every run started
    in this block, in this process (shard runs on workers build their own)."""
    token = _OPTIONS.set(MappingProxyType(dict(options)))
    try:
        yield
    finally:
        _OPTIONS.reset(token)


def open_provider(config: RunConfig) -> Provider:
    """The run's provider, built from its parameters and the options in effect (a local
    model's threads and dtype among them)."""
    options = dict(_OPTIONS.get())
    if config.provider == "local":
        options.setdefault("threads", config.threads)
        options.setdefault("dtype", config.dtype)
    return make_provider(config.provider, config.model or None, **options)

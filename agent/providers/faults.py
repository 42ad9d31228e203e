"""Provider faults: one translation of both SDKs' exceptions into `ProviderError`.

The openai and anthropic SDKs are generated alike and raise the same family: a status error
(with the reply), a timeout, other API errors (connection) under a base class. What is left
after the SDK's own retries becomes a `ProviderError` naming the step, carrying what the
provider said as fields (status, the wait its `retry-after` asked for, its own error type), so
code reads them without parsing the message. A reply cut short or not JSON is the server's
fault, not ours: it is a `ProviderError` too.
"""

from __future__ import annotations

import time
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from typing import Any, NamedTuple

from agent.providers.rate_headers import retry_after
from contract.errors import ProviderError

MALFORMED = (AttributeError, IndexError, KeyError, TypeError, ValueError)
"""What parsing a reply of the wrong shape raises."""


class SdkErrors(NamedTuple):
    """One SDK's exception classes, from the most to the least specific."""

    status: type[Exception]
    """A reply with an error status (`APIStatusError`): it has the reply."""
    timeout: type[Exception]
    """No reply within the client's timeout (`APITimeoutError`)."""
    api: type[Exception]
    """Any other API error (`APIError`: connection refused, reset)."""
    base: type[Exception]
    """Anything else the SDK raises (e.g. results asked of a batch with no results file)."""


@asynccontextmanager
async def sdk_faults(
    errors: SdkErrors, step: str, unreadable: tuple[type[Exception], ...] = (ValueError,)
) -> AsyncIterator[None]:
    """An SDK fault, after the SDK's own retries, as a `ProviderError` naming the step; a reply
    cut short or not JSON (`unreadable`) is the server's fault, not ours."""
    try:
        yield
    except errors.base as exc:
        raise provider_error(errors, step, exc) from None
    except unreadable as exc:
        raise ProviderError(f"{step}: unreadable reply ({type(exc).__name__}: {exc})") from None


@contextmanager
def malformed_reply(step: str) -> Iterator[None]:
    """A reply that parsed as JSON but not as the SDK's shape, as a `ProviderError`."""
    try:
        yield
    except MALFORMED as exc:
        raise ProviderError(f"{step}: malformed reply ({type(exc).__name__}: {exc})") from None


def provider_error(errors: SdkErrors, step: str, exc: Exception) -> ProviderError:
    """`exc`, raised by the SDK whose classes are `errors`, as a `ProviderError`."""
    if isinstance(exc, errors.status):
        reply: Any = exc  # the SDK's fields: status_code, response, type
        return ProviderError(
            f"{step}: HTTP {reply.status_code}: {_message(exc)}",
            status=reply.status_code,
            retry_after=retry_after(reply.response.headers, time.time()),
            error_type=_text(getattr(reply, "type", None)),
        )
    if isinstance(exc, errors.timeout):
        return ProviderError(f"{step}: request timed out (retries exhausted)")
    if isinstance(exc, errors.api):
        return ProviderError(f"{step}: {type(exc).__name__}: {_message(exc)}")
    return ProviderError(f"{step}: {exc}")


def _message(exc: Exception) -> str:
    return str(getattr(exc, "message", exc))


def _text(value: Any) -> str | None:
    return value if isinstance(value, str) and value else None

"""The project's exceptions: one tree, each carrying a one-line message, each picklable (a
Prefect result or a worker process may carry it across processes).

```
NightdeskError          a message meant for a person, one line
├── InputError          the user gave something wrong: the CLI prints it and exits non-zero
├── ToolError           a tool call the model can fix: returned to it as a `ToolFailure`
└── ProviderError       a model call produced no response (after retries, or at the deadline)
```
"""

from __future__ import annotations

from pydantic import ValidationError


class NightdeskError(Exception):
    """A failure whose message says what is wrong and how to fix it (one line)."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message

    def __reduce__(self) -> tuple[type, tuple[str], dict[str, object]]:
        return (type(self), (self.message,), self.__dict__)


class InputError(NightdeskError):
    """Bad input or configuration, found before any work is done."""


class ToolError(NightdeskError):
    """What was wrong with a tool call and what would be valid instead."""


class ProviderError(NightdeskError):
    """The provider could not answer; the loop turns it into `provider_error`. What the provider
    said is kept as fields, None where it said nothing: the HTTP `status`, the seconds its
    `retry-after` asked for, and its own `error_type` (`rate_limit_error`, `invalid_request_error`)."""

    def __init__(
        self,
        message: str,
        *,
        status: int | None = None,
        retry_after: float | None = None,
        error_type: str | None = None,
    ) -> None:
        super().__init__(message)
        self.status = status
        self.retry_after = retry_after
        self.error_type = error_type


def first_error(exc: ValidationError) -> tuple[str, str]:
    """(where, what) of a validation's first problem, for a one-line message: where is the
    dotted field path (empty for the whole object); a rule of our own (a `ValueError` raised in
    a validator) speaks for itself, without pydantic's "Value error," prefix."""
    first = exc.errors()[0]
    where = ".".join(map(str, first["loc"]))
    if first["type"] == "value_error" and "error" in first.get("ctx", {}):
        return where, str(first["ctx"]["error"])
    return where, str(first["msg"])

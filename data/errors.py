"""The one exception that means "the user gave us something wrong".

Rooms raise `InputError` for terminal input or configuration errors found before any
work is done; the CLI prints its message as one line and exits non-zero. It lives in
the lowest layer so that every room can raise it.
"""

from pydantic import ValidationError


class InputError(Exception):
    """Bad input: the message says what is wrong and how to fix it (one line)."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message

    def __reduce__(self) -> tuple[type, tuple[str]]:
        return (type(self), (self.message,))


def first_error(exc: ValidationError) -> tuple[str, str]:
    """(where, what) of a validation's first problem, for a one-line message: where is the
    dotted field path (empty for the whole object); a rule of our own (a `ValueError` raised in
    a validator) speaks for itself, without pydantic's "Value error," prefix."""
    first = exc.errors()[0]
    where = ".".join(map(str, first["loc"]))
    if first["type"] == "value_error" and "error" in first.get("ctx", {}):
        return where, str(first["ctx"]["error"])
    return where, str(first["msg"])

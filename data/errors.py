"""The one exception that means "the user gave us something wrong".

Rooms raise `InputError` for terminal input or configuration errors found before any
work is done; the CLI prints its message as one line and exits non-zero. It lives in
the lowest layer so that every room can raise it.
"""


class InputError(Exception):
    """Bad input: the message says what is wrong and how to fix it (one line)."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message

    def __reduce__(self) -> tuple[type, tuple[str]]:
        return (type(self), (self.message,))

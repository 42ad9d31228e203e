"""`ToolError`: a failure the model can fix, returned to it as `{"error": message}`.

Tools raise it deep inside their helpers; `registry.call_tool` turns it (and any other
failure) into an error object, so nothing a tool does ever raises to the agent loop.
"""

from __future__ import annotations


class ToolError(Exception):
    """What was wrong with the call and what would be valid instead (one line)."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message

    def __reduce__(self) -> tuple[type, tuple[str]]:
        return (type(self), (self.message,))

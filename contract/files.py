"""Reading a small input file an operator or a flow run's parameters name (a question set, a
price table): only a regular file, never waited on, never read past a bound, text in UTF-8.

`Path.read_text` would wait forever on a FIFO, read `/dev/zero` until memory ran out, and raise
a traceback on bytes that are not UTF-8. Here each of those is an `InputError` of one line.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from contract.errors import InputError

MAX_INPUT_BYTES = 4 * 1024 * 1024
"""Far more than any question set or price table holds."""


def read_input_text(path: Path, what: str, max_bytes: int = MAX_INPUT_BYTES) -> str:
    """The UTF-8 text of the regular file at `path` (a link to one is followed: the operator
    named it); anything else is an `InputError` naming `what` ("question set")."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    except (OSError, ValueError) as exc:  # ValueError: a NUL byte in the path
        reason = getattr(exc, "strerror", None) or str(exc)
        raise InputError(f"cannot read {what} {path}: {reason}") from None
    with os.fdopen(fd, "rb") as handle:
        mode = os.fstat(handle.fileno()).st_mode
        if not stat.S_ISREG(mode):
            raise InputError(f"cannot read {what} {path}: it is not a regular file")
        raw = handle.read(max_bytes + 1)
    if len(raw) > max_bytes:
        raise InputError(f"{what} {path} is larger than {max_bytes:,} bytes; is it the right file?")
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputError(f"{what} {path} is not UTF-8 text (byte {exc.start})") from None

"""Whether a process of this machine still runs: what tells a file a dead writer left behind
(a half-built catalog, a staged import, a temporary file) from one still being written."""

from __future__ import annotations

import os


def running(pid: int) -> bool:
    """Whether process `pid` runs (another user's process counts: it cannot be signalled)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True

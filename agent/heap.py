"""The heap of a night's answering phase.

What a night builds before it answers (imported modules, the compiled patterns of the verifier,
the catalog, the question set, the provider's client) lives until the night ends. Python's
cycle collector would walk those objects again at every full collection, a few times a night,
each a walk of the whole heap: a quarter of a millisecond of every question's CPU on the
200-ticker benchmark night. `gc.freeze` sets them apart for the answering phase; they go back
to the collector after it, so a process that runs several nights frees what each left behind.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def prepared_heap() -> Iterator[None]:
    """The objects alive now are left out of the cycle collector's walks until the block ends."""
    gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()

"""Progress of a run as it happens: the flow reports each finished ticker to whoever listens
in the same process (the CLI's progress bar); a scheduled run simply has no listener."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager

from pydantic import BaseModel


class RunProgress(BaseModel):
    """Counts so far; `tokens_used` of `tokens_budget` is what this run has spent."""

    tickers_total: int = 0
    tickers_done: int = 0
    accepted: int = 0
    rejected: int = 0
    tokens_used: int = 0
    tokens_budget: int = 0


Listener = Callable[[RunProgress], None]
_listeners: list[Listener] = []


@contextmanager
def listen(listener: Listener) -> Iterator[None]:
    """Call `listener` with every progress update while the block runs."""
    _listeners.append(listener)
    try:
        yield
    finally:
        _listeners.remove(listener)


def report_progress(progress: RunProgress) -> None:
    for listener in list(_listeners):
        listener(progress)

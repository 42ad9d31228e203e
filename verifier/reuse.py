"""Work done once per trace and reused by every draft verified over it.

A night may verify several drafts over one trace (a redraft, the bench's portfolio traces), and
indexing the trace's results is most of a verification. The work is keyed by the identity of the
objects it read, which the cache holds, so an id is never reused for another object while its
entry lives. The verifier treats a trace as immutable once handed to it: a caller that changes a
result in place and verifies again passes a new trace (`forget`, or a copy).
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Hashable, Sequence
from typing import Any, TypeVar

T = TypeVar("T")
A = TypeVar("A")

_SIZE = 2
"""Drafts over one trace come one after another; more entries keep large indexes alive and
make each full collection of the garbage collector slower (p99 of a night-like run 3.2 -> 7.4 ms
with 16)."""
_CACHES: list[OrderedDict[Hashable, tuple[tuple[Any, ...], Any]]] = []


def per_trace(compute: Callable[[A], T]) -> Callable[[Hashable, Sequence[Any], A], T]:
    """`compute(arg)` once per distinct `key` (plain values) and `objects` (what it reads, held
    by identity); the last `_SIZE` results are kept."""
    cache: OrderedDict[Hashable, tuple[tuple[Any, ...], Any]] = OrderedDict()
    _CACHES.append(cache)

    def cached(key: Hashable, objects: Sequence[Any], arg: A) -> T:
        ids = (key, tuple(map(id, objects)))
        hit = cache.get(ids)
        if hit is not None and all(a is b for a, b in zip(hit[0], objects, strict=True)):
            cache.move_to_end(ids)
            return hit[1]  # type: ignore[no-any-return]
        value = compute(arg)
        cache[ids] = (tuple(objects), value)
        if len(cache) > _SIZE:
            cache.popitem(last=False)
        return value

    return cached


def forget() -> None:
    """Drop every reused result (a trace changed in place, a cold benchmark)."""
    for cache in _CACHES:
        cache.clear()

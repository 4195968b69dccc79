"""Caches that last one library call: kept while a call that fills them runs, emptied as the last such
call returns.

The rules' notation keeps what it parses and formats (``parse_rows``, ``format_rows``, ``parse_move`` ...)
because one call asks for the same few thousand tables, hands and moves many times over: a value table's
policy rows, a verify of one. Kept after the call, those entries were of no use to the next deal, and
each, made while the call's memory was at its peak, held a block of the allocator that the call's freed
memory could not be given back without: after three ``odds`` of challenge 0's deals were dropped, 194
formatted tables kept 26 MB of the process's 31 MB over its start.

A function registers its ``functools.lru_cache`` with :func:`per_call`; an entry point
(:func:`~stratagem.winprobability.odds`, :func:`~stratagem.verification.verify`, ...) runs inside
:func:`call_scope`. The caches are emptied when no scope is open any more (calls nest, and may run in
threads at once), so a call never loses its entries midway; outside any scope they are kept as before,
within their own bounds.
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, ParamSpec, TypeVar

F = TypeVar("F", bound=Callable[..., Any])
P = ParamSpec("P")
R = TypeVar("R")

_caches: list[Any] = []
_open = 0
_lock = threading.Lock()


def per_call(cache: F) -> F:
    """Register ``cache`` (a ``functools.lru_cache`` wrapper) to be emptied as the last open call ends."""
    _caches.append(cache)
    return cache


@contextmanager
def call_scope() -> Iterator[None]:
    """Run a library call: when it ends (returning or raising) and no other is open, empty the caches."""
    global _open
    with _lock:
        _open += 1
    try:
        yield
    finally:
        with _lock:
            _open -= 1
            if _open == 0:
                for cache in _caches:
                    cache.cache_clear()


def scoped(call: Callable[P, R]) -> Callable[P, R]:
    """``call`` run inside :func:`call_scope` (an entry point's decorator)."""
    @functools.wraps(call)
    def run(*args: P.args, **kwargs: P.kwargs) -> R:
        with call_scope():
            return call(*args, **kwargs)

    return run


def registered() -> tuple[Any, ...]:
    """The caches emptied as calls end (for tests and measurements)."""
    return tuple(_caches)


__all__ = ["call_scope", "per_call", "registered", "scoped"]

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

As the last open call ends, the process also gives the C allocator's free memory back to the system when
it grew much: glibc keeps what a search freed for reuse (after a Stack Attack ``analyze`` of six turns was
dropped, the process stayed at 161 MB over its start, most of it free memory the allocator held), and
``malloc_trim(0)`` returns it (44 MB after, for 15 ms of CPU). It is asked for when the process's resident
memory is :data:`TRIM_BYTES` or more above the mark the last trim left, so a call that allocated little does
not pay for it, and one that keeps what it allocated pays once (the trim moves the mark up). Measuring reads
``/proc/self/statm`` (20-30 us), so only calls that ran :data:`MEASURE_SECONDS` or more measure; what a
shorter call left is measured at the next longer call's end. Memory a caller frees between calls (a dropped
result) is given back at the end of the next call that finds the process that much above the mark, or by
:func:`trim_allocator`. Where there is no glibc (no ``malloc_trim``) or no ``/proc``, nothing is trimmed and
nothing else changes.
"""

from __future__ import annotations

import ctypes
import functools
import os
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, ParamSpec, TypeVar

F = TypeVar("F", bound=Callable[..., Any])
P = ParamSpec("P")
R = TypeVar("R")

#: Resident memory above the mark (see above) from which the allocator's free memory is given back.
TRIM_BYTES = 32 << 20
#: Calls shorter than this (wall seconds) do not measure the resident memory as they end.
MEASURE_SECONDS = 0.01

_caches: list[Any] = []
_open = 0
_opened_at = 0.0  # perf_counter as the outermost open call began
_lock = threading.Lock()
_PAGE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096
_NOT_LOOKED_UP: Any = object()
_trim: Any = _NOT_LOOKED_UP  # glibc's malloc_trim once looked up, None where there is none


def per_call(cache: F) -> F:
    """Register ``cache`` (a ``functools.lru_cache`` wrapper) to be emptied as the last open call ends."""
    _caches.append(cache)
    return cache


@contextmanager
def call_scope() -> Iterator[None]:
    """Run a library call: when it ends (returning or raising) and no other is open, empty the caches, and
    give the allocator's free memory back if the process grew by :data:`TRIM_BYTES` (see above)."""
    global _open, _opened_at
    with _lock:
        _open += 1
        if _open == 1:
            _opened_at = time.perf_counter()
    try:
        yield
    finally:
        measure = False
        with _lock:
            _open -= 1
            if _open == 0:
                for cache in _caches:
                    cache.cache_clear()
                measure = time.perf_counter() - _opened_at >= MEASURE_SECONDS
        if measure:  # outside the lock: the reads and the trim hold up no other call
            _settle()


def scoped(call: Callable[P, R]) -> Callable[P, R]:
    """``call`` run inside :func:`call_scope` (an entry point's decorator)."""
    @functools.wraps(call)
    def run(*args: P.args, **kwargs: P.kwargs) -> R:
        with call_scope():
            return call(*args, **kwargs)

    return run


def resident_bytes() -> int | None:
    """The process's resident memory in bytes (``/proc/self/statm``), None where it cannot be read."""
    try:
        handle = os.open("/proc/self/statm", os.O_RDONLY)
        try:
            return int(os.read(handle, 256).split()[1]) * _PAGE
        finally:
            os.close(handle)
    except (OSError, ValueError, IndexError):
        return None


#: The mark the resident memory is measured against: as the last trim left it (first: as this module was
#: imported), lowered when a measure finds less.
_resident_after = resident_bytes()


def _settle() -> None:
    """Measure the resident memory as a call ends; trim the allocator when it is :data:`TRIM_BYTES` or more
    above the mark, and set the mark to what the trim left. A measure below the trim threshold moves the mark
    only down: raised by each, memory a series of calls freed could pile up under it, a little each call."""
    global _resident_after
    now = resident_bytes()
    if now is None:
        return
    if _resident_after is None or now - _resident_after >= TRIM_BYTES:
        if trim_allocator():
            now = resident_bytes() or now
        _resident_after = now
    else:
        _resident_after = min(_resident_after, now)


def trim_allocator() -> bool:
    """Give the C allocator's free memory back to the system (glibc's ``malloc_trim(0)``); False where
    there is no such call (another C library, another system), which is then a no-op."""
    global _trim
    if _trim is _NOT_LOOKED_UP:
        try:
            _trim = getattr(ctypes.CDLL(None), "malloc_trim", None)  # the process's own C library
        except (OSError, TypeError):  # no C library to load that way (Windows)
            _trim = None
        if _trim is not None:
            _trim.argtypes, _trim.restype = [ctypes.c_size_t], ctypes.c_int
    if _trim is None:
        return False
    _trim(0)
    return True


def registered() -> tuple[Any, ...]:
    """The caches emptied as calls end (for tests and measurements)."""
    return tuple(_caches)


__all__ = ["MEASURE_SECONDS", "TRIM_BYTES", "call_scope", "per_call", "registered", "resident_bytes", "scoped",
           "trim_allocator"]

"""Scratch arrays for the compiled searches: large, touched sparsely, never zeroed, kept for the next search.

A compiled search keeps one move list per ply, each with room for the most moves any state of its engine
can have (Stratatak's engine has room for 4,096 plays; a state has a few dozen), and a table arena that
fills row by row. Two costs came with fresh numpy arrays, measured on Stratatak's run-of-reds (a search of
about 700 nodes): numpy asks the kernel for transparent huge pages on arrays of 4 MiB and more, so the first
write into each 2 MiB zeroed all of it (a quarter of the CPU time); and every first write into a fresh
page is a page fault (a fifth, with huge pages off).

:func:`scratch` gives an array of the asked shape over an anonymous private mapping advised against huge
pages (small arrays: plain ``np.empty``), or one that an earlier search handed back with :func:`release`,
whose pages are already mapped; a process that searches many positions (``analyze`` ranking each root move,
the benchmarks) pays the page faults once. Contents are unset, as with ``np.empty``: callers write before
they read, so a reused array never changes a result.

What is kept stays in the process until a later search takes it, so it is bounded: at most :data:`KEEP`
arrays of each shape and type, and at most :data:`KEEP_BYTES` bytes in all, the arrays handed back last
kept first. A search's table doubles as it fills, and each search left one array of every size it passed
through: Card Clash's square-in-7, strategic-in-5 and three-players left 45 MB in a process that had
dropped their analyses, a larger search as much again as its table. An array larger than the whole budget
is never kept: its page faults are a small part of the search that filled it.
"""

from __future__ import annotations

import math
import mmap
import threading
from typing import Any

import numpy as np

#: Arrays below this many bytes come from numpy's allocator (no huge pages are asked for below 4 MiB).
LARGE = 1 << 20
#: Arrays kept for reuse, per shape and type.
KEEP = 2
#: Bytes of arrays kept for reuse in all (the least recently handed back go first).
KEEP_BYTES = 32 << 20

# shape and type -> the arrays kept (never an empty list), in the order the shapes were last handed back
_FREE: dict[tuple[tuple[int, ...], str], list[np.ndarray]] = {}
_kept_bytes = 0
_lock = threading.Lock()


def scratch(shape: tuple[int, ...], dtype: Any = np.int64) -> np.ndarray:
    """An uninitialised C-contiguous array of ``shape`` (see above)."""
    global _kept_bytes
    dtype = np.dtype(dtype)
    shape = tuple(int(n) for n in shape)
    with _lock:
        kept = _FREE.get((shape, dtype.str))
        if kept:
            array = kept.pop()
            _kept_bytes -= array.nbytes
            if not kept:
                del _FREE[(shape, dtype.str)]
            return array
    nbytes = math.prod(shape) * dtype.itemsize
    advise = getattr(mmap, "MADV_NOHUGEPAGE", None)
    if nbytes < LARGE or advise is None:
        return np.empty(shape, dtype)
    memory = mmap.mmap(-1, nbytes, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS)  # not shared: no shmem file
    memory.madvise(advise)
    return np.frombuffer(memory, dtype, math.prod(shape)).reshape(shape)


def release(arrays: list[np.ndarray]) -> None:
    """Hand ``arrays`` (from :func:`scratch`, no longer used by their search) back for the next search:
    kept within :data:`KEEP` a shape and :data:`KEEP_BYTES` in all, the ones kept longest dropped first."""
    global _kept_bytes
    with _lock:
        for array in arrays:
            key = (tuple(array.shape), array.dtype.str)
            kept = _FREE.pop(key, [])  # put back last below: the shape handed back last
            if len(kept) < KEEP and not any(a is array for a in kept) and array.nbytes <= KEEP_BYTES:
                while _kept_bytes + array.nbytes > KEEP_BYTES:  # room for it: the oldest shapes' arrays go
                    others = _FREE[next(iter(_FREE))] if _FREE else kept
                    _kept_bytes -= others.pop(0).nbytes
                    if not others and others is not kept:
                        del _FREE[next(iter(_FREE))]
                kept.append(array)
                _kept_bytes += array.nbytes
            if kept:
                _FREE[key] = kept


def kept_bytes() -> int:
    """Bytes of the arrays kept for reuse now (at most :data:`KEEP_BYTES`)."""
    return _kept_bytes


__all__ = ["KEEP", "KEEP_BYTES", "LARGE", "kept_bytes", "release", "scratch"]

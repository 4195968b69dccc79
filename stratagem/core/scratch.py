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
they read, so a reused array never changes a result. At most :data:`KEEP` arrays of each shape and type
are kept.
"""

from __future__ import annotations

import math
import mmap
from typing import Any

import numpy as np

#: Arrays below this many bytes come from numpy's allocator (no huge pages are asked for below 4 MiB).
LARGE = 1 << 20
#: Arrays kept for reuse, per shape and type.
KEEP = 2

_FREE: dict[tuple[tuple[int, ...], str], list[np.ndarray]] = {}


def scratch(shape: tuple[int, ...], dtype: Any = np.int64) -> np.ndarray:
    """An uninitialised C-contiguous array of ``shape`` (see above)."""
    dtype = np.dtype(dtype)
    shape = tuple(int(n) for n in shape)
    kept = _FREE.get((shape, dtype.str))
    if kept:
        return kept.pop()
    nbytes = math.prod(shape) * dtype.itemsize
    advise = getattr(mmap, "MADV_NOHUGEPAGE", None)
    if nbytes < LARGE or advise is None:
        return np.empty(shape, dtype)
    memory = mmap.mmap(-1, nbytes, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS)  # not shared: no shmem file
    memory.madvise(advise)
    return np.frombuffer(memory, dtype, math.prod(shape)).reshape(shape)


def release(arrays: list[np.ndarray]) -> None:
    """Hand ``arrays`` (from :func:`scratch`, no longer used by their search) back for the next search."""
    for array in arrays:
        kept = _FREE.setdefault((tuple(array.shape), array.dtype.str), [])
        if len(kept) < KEEP and not any(a is array for a in kept):
            kept.append(array)


__all__ = ["KEEP", "LARGE", "release", "scratch"]

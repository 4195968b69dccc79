"""Scratch arrays for the compiled searches: large, touched sparsely, never zeroed.

A compiled search keeps one move list per ply, each with room for the most moves any state of its
engine can have (Stratatak's engine has room for 4,096 plays; a state has a few dozen), and a table arena
that fills row by row. numpy asks the kernel for transparent huge pages on arrays of 4 MiB and more, so
the first write into each 2 MiB of such an array zeroes all of it: on a small Stratatak search that was a
quarter of the CPU time. :func:`scratch` gives an array of the same shape over an anonymous mapping
advised against huge pages, so that a first write costs one 4 KiB page; its contents are unset (zero, in
fact, but callers must write before they read, as with ``np.empty``). Small arrays are plain ``np.empty``.
"""

from __future__ import annotations

import math
import mmap
from typing import Any

import numpy as np

#: Arrays below this many bytes come from numpy's allocator (no huge pages are asked for below 4 MiB).
LARGE = 1 << 20


def scratch(shape: tuple[int, ...], dtype: Any = np.int64) -> np.ndarray:
    """An uninitialised C-contiguous array of ``shape``; large ones over pages of 4 KiB (see above)."""
    dtype = np.dtype(dtype)
    nbytes = math.prod(shape) * dtype.itemsize
    advise = getattr(mmap, "MADV_NOHUGEPAGE", None)
    if nbytes < LARGE or advise is None:
        return np.empty(shape, dtype)
    memory = mmap.mmap(-1, nbytes, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS)  # not shared: no shmem file
    memory.madvise(advise)
    return np.frombuffer(memory, dtype, math.prod(shape)).reshape(shape)


__all__ = ["LARGE", "scratch"]

"""The interpreter's cycle collector held off while a long build makes millions of objects.

CPython frees an object when its last reference goes (reference counting); the *cycle collector* is only
for groups of objects that refer to each other. It runs on a count of allocations, and each of its full
passes walks every container object still alive. A search or a check that builds a large structure of
acyclic objects (tuples, dicts of states, a ``networkx`` graph's attribute dicts) therefore pays for
passes that find nothing, and more of them the larger the structure grows: 21-29% of the CPU of checking
a hidden-information value table of challenge 1, a quarter of building challenge 1's designer graph (the
measurements are where it is used: ``verification/oddstable.py``, ``solvers/graph.py``).
:func:`no_cycle_collection` turns the collector off around such a phase. It is for phases that make no
reference cycles: a cycle made inside one is freed only when the collector runs again after it.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

__all__ = ["no_cycle_collection"]


@contextmanager
def no_cycle_collection() -> Iterator[None]:
    """The cycle collector off while the block runs, and back as it was after (also when the block raises).
    Nested uses and other threads that turn it off too are safe: whoever turned it off turns it back on, so
    an inner block never turns it on under an outer one."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()

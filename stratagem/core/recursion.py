"""Python's recursion limit raised around the recursive searches, safely when threads share a process.

The recursion limit is one setting of the whole interpreter. Each search used to save it, raise it and
put the saved value back when done; two searches running at once in worker threads (a researcher's
``ThreadPoolExecutor``) interleave those steps: the second saved the first one's raised limit, the
first put the original back while the second was still deep in its recursion, and the second, ending
last, left the raised limit in place for the rest of the process. :func:`deep_recursion` counts the
searches inside it instead: the first to enter saves the limit and raises it, the last to leave puts it
back, so a library call never changes the interpreter's setting once it returns, and no search runs
under a lowered limit while another ends.
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager

#: The limit the recursive searches run under: a game lasts at most a few hundred plies, each a few frames.
RECURSION_LIMIT = 20_000


class _Raised:
    """The searches inside :func:`deep_recursion` now, and the limit the first of them found."""

    lock = threading.Lock()
    inside = 0
    saved = 0


@contextmanager
def deep_recursion(limit: int = RECURSION_LIMIT) -> Iterator[None]:
    """Run the body with Python's recursion limit at least ``limit``; the limit found before the first of
    the bodies now running (in any thread) is put back when the last of them ends. A limit already
    higher is left as it is."""
    with _Raised.lock:
        if _Raised.inside == 0:
            _Raised.saved = sys.getrecursionlimit()
        _Raised.inside += 1
        if sys.getrecursionlimit() < limit:
            sys.setrecursionlimit(limit)
    try:
        yield
    finally:
        with _Raised.lock:
            _Raised.inside -= 1
            if _Raised.inside == 0:
                sys.setrecursionlimit(_Raised.saved)

"""How the library reports progress of long work without knowing who shows it.

A long call (a search, a SAT run, the check of a DRUP proof, a re-check by enumeration) takes a
*progress factory*: ``progress(label, first, second)`` is a context manager yielding an ``(a, b)``
callback, to be read as "label: first a, b second" (e.g. "A* on solo-1: bound 7, 1,200 nodes
expanded"). The library's default shows nothing; the command line passes its terminal status line
(``stratagem.cli.progress.search_progress``), a notebook may pass its own.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager

#: A progress display: ``progress(label, first, second)`` is a context manager yielding an ``(a, b)``
#: callback ("label: first a, b second").
ProgressFactory = Callable[[str, str, str], AbstractContextManager[Callable[[int, int], None]]]


@contextmanager
def _quiet(label: str, first: str = "", second: str = "") -> Iterator[Callable[[int, int], None]]:
    yield lambda a, b: None


def no_progress(label: str, first: str = "bound", second: str = "nodes expanded"
                ) -> AbstractContextManager[Callable[[int, int], None]]:
    """The progress display that shows nothing (the library's default)."""
    return _quiet(label, first, second)


__all__ = ["ProgressFactory", "no_progress"]

"""A progress line on stderr for long searches (only when stderr is a terminal)."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager

from rich.console import Console

from stratagem.core.progress import ProgressFactory


@contextmanager
def search_progress(
    label: str, enabled: bool = True, first: str = "bound", second: str = "nodes expanded"
) -> Iterator[Callable[[int, int], None]]:
    """Yield a ``(a, b)`` callback that keeps a status line up to date: "label: first a, b second, s".

    The defaults suit a search (bound, nodes expanded); a graph build says depth and states.
    """
    console = Console(stderr=True)
    if not enabled or not console.is_terminal:
        yield lambda a, b: None
        return
    started = time.perf_counter()
    with console.status(f"{label}: starting") as status:

        def update(a: int, b: int) -> None:
            elapsed = time.perf_counter() - started
            status.update(f"{label}: {first} {a}, {b:,} {second}, {elapsed:.1f} s")

        yield update


def terminal_progress(enabled: bool = True) -> ProgressFactory:
    """The library's progress convention (:mod:`stratagem.core.progress`) shown as :func:`search_progress`'s
    status line, or nothing when ``enabled`` is false (``--json``)."""

    def factory(label: str, first: str, second: str) -> AbstractContextManager[Callable[[int, int], None]]:
        return search_progress(label, enabled=enabled, first=first, second=second)

    return factory

"""A progress line on stderr for long searches (only when stderr is a terminal)."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager

from rich.console import Console
from rich.text import Text

from stratagem.core.progress import ProgressFactory


class _Line:
    """The status line's text, made each time rich redraws it (about 12 times a second), so that its clock
    runs between updates: a search that reports rarely (a match whose first game takes 20 s, a recompute
    that reports once at its start) still shows the time going on, not a line that looks stuck."""

    def __init__(self, label: str, first: str, second: str) -> None:
        self.label, self.first, self.second = label, first, second
        self.started = time.perf_counter()
        self.counts: tuple[int, int] | None = None

    def __str__(self) -> str:
        elapsed = time.perf_counter() - self.started
        if self.counts is None:
            return f"{self.label}: starting, {elapsed:.1f} s"
        a, b = self.counts  # both counts grouped: odds' "states kept" and the table's "rows read" run to millions
        return f"{self.label}: {self.first} {a:,}, {b:,} {self.second}, {elapsed:.1f} s"

    def __rich__(self) -> Text:
        return Text(str(self))


@contextmanager
def search_progress(
    label: str, enabled: bool = True, first: str = "bound", second: str = "nodes expanded"
) -> Iterator[Callable[[int, int], None]]:
    """Yield a ``(a, b)`` callback that keeps a status line up to date: "label: first a, b second, s",
    its seconds running on between calls ("label: starting, s" before the first).

    The defaults suit a search (bound, nodes expanded); a graph build says depth and states.
    """
    console = Console(stderr=True)
    if not enabled or not console.is_terminal:
        yield lambda a, b: None
        return
    line = _Line(label, first, second)
    with console.status(line):

        def update(a: int, b: int) -> None:
            line.counts = (a, b)

        yield update


def terminal_progress(enabled: bool = True) -> ProgressFactory:
    """The library's progress convention (:mod:`stratagem.core.progress`) shown as :func:`search_progress`'s
    status line, or nothing when ``enabled`` is false (``--json``)."""

    def factory(label: str, first: str, second: str) -> AbstractContextManager[Callable[[int, int], None]]:
        return search_progress(label, enabled=enabled, first=first, second=second)

    return factory

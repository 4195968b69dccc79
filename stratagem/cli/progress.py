"""A progress line on stderr for long searches (only when stderr is a terminal)."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from rich.console import Console


@contextmanager
def search_progress(label: str, enabled: bool = True) -> Iterator[Callable[[int, int], None]]:
    """Yield a ``(bound, nodes)`` callback that keeps a status line up to date."""
    console = Console(stderr=True)
    if not enabled or not console.is_terminal:
        yield lambda bound, nodes: None
        return
    started = time.perf_counter()
    with console.status(f"{label}: starting") as status:

        def update(bound: int, nodes: int) -> None:
            elapsed = time.perf_counter() - started
            status.update(f"{label}: bound {bound}, {nodes:,} nodes expanded, {elapsed:.1f} s")

        yield update

"""Fixtures shared by the solver tests."""

from __future__ import annotations

import threading
from collections.abc import Iterator

import pytest


@pytest.fixture
def other_thread() -> Iterator[None]:
    """A second thread alive for the length of the test: a time-limited SAT solve then starts its CaDiCaL
    child as a fresh interpreter, not a fork (``stratagem.solvers.satplan``)."""
    done = threading.Event()
    thread = threading.Thread(target=done.wait, name="another", daemon=True)
    thread.start()
    try:
        yield
    finally:
        done.set()
        thread.join()

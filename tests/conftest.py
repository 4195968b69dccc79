"""Session set-up for the whole suite."""

from __future__ import annotations

import pytest


@pytest.fixture(scope="session", autouse=True)
def compiled_kernels() -> None:
    """Compile (or load from numba's cache) Strato's kernels once, before any test with a time limit.

    A fresh checkout, as CI has, has no compiled kernels: the first solve would compile them (about a
    minute of CPU for the relaxation and the A* kernels together), and numba's compiler cannot be
    stopped, so whichever timed test came first would overrun its limit. Once cached on disk, this takes
    about a second, and the commands the tests start as subprocesses load the same cache."""
    from stratagem.sweep import warm_up

    warm_up((1, 2))

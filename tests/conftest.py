"""Session set-up for the whole suite."""

from __future__ import annotations

import pytest


def pytest_sessionstart(session: pytest.Session) -> None:
    """Refuse to run against compiled kernels older than their source (an editable install whose kernel
    changed since it was built): the tests would test the old code. Kernels that are missing (no
    compiler) are fine: the same sources then run as plain Python, slowly."""
    from stratagem.core.compiled import status

    stale = status().stale
    if stale:
        pytest.exit(f"compiled kernels older than their source: {', '.join(stale)}; rebuild them with "
                    "pip install -e . (or python setup.py build_ext --inplace)", returncode=2)

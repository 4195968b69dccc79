"""Session set-up for the whole suite."""

from __future__ import annotations

import signal

import pytest

# A suite started in the background of a script (`cmd &` without job control, as CI runners and nohup
# jobs do) inherits SIGINT ignored, and so does every xdist worker and every helper process a test starts.
# The Ctrl-C tests then saw nothing ("DID NOT RAISE KeyboardInterrupt", a child that never stopped). They
# test what a terminal's foreground command gets, Python's default handler, so the suite sets it here.
if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)


def pytest_sessionstart(session: pytest.Session) -> None:
    """Refuse to run against compiled kernels older than their source (an editable install whose kernel
    changed since it was built): the tests would test the old code. Kernels that are missing (no
    compiler) are fine: the same sources then run as plain Python, slowly."""
    from stratagem.core.compiled import status

    stale = status().stale
    if stale:
        pytest.exit(f"compiled kernels older than their source: {', '.join(stale)}; rebuild them with "
                    "pip install -e . (or python setup.py build_ext --inplace)", returncode=2)

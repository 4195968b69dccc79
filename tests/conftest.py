"""Session set-up for the whole suite."""

from __future__ import annotations

import gc
import signal

import pytest

# A suite started in the background of a script (`cmd &` without job control, as CI runners and nohup
# jobs do) inherits SIGINT ignored, and so does every xdist worker and every helper process a test starts.
# The Ctrl-C tests then saw nothing ("DID NOT RAISE KeyboardInterrupt", a child that never stopped). They
# test what a terminal's foreground command gets, Python's default handler, so the suite sets it here.
if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)

# The cycle collector's full passes walk every object alive in the process, and a test process holds what
# its earlier tests cached besides the searches' own tables: on tests/models/strato they were 60 of its
# 340 CPU s (301 full passes, load 4-6). Python starts one after 10 middle-generation passes (and once the
# objects that survived the young ones have grown by a quarter); after 100 here, which took a slice of
# four of the heaviest modules (test_sat, test_odds_kernel, test_observation, test_hidden) from 128-129
# full passes (21.3-22.1 CPU s) to 15 (3.0 s), from 139-147 to 116 CPU s in all, with the same peak
# memory (981 against 994 MB). Young cycles are still collected as often as before, and a test that counts
# what is left calls gc.collect() itself. A worker process of xdist imports this module too; the commands a test starts
# in a fresh interpreter keep Python's default.
gc.set_threshold(700, 10, 100)


def pytest_sessionstart(session: pytest.Session) -> None:
    """Refuse to run against compiled kernels older than their source (an editable install whose kernel
    changed since it was built): the tests would test the old code. Kernels that are missing (no
    compiler) are fine: the same sources then run as plain Python, slowly."""
    import stratagem.core.compiled as compiled

    stale = compiled.status().stale
    if stale:
        pytest.exit(f"compiled kernels older than their source: {', '.join(stale)}; rebuild them with "
                    "pip install -e . (or python setup.py build_ext --inplace)", returncode=2)
    # Where kernels are missing, solve, odds and sweep say so once per process (warn_once): in the tests'
    # process that was on the stderr of whichever test first ran one of them in-process, and that test
    # failed on a line it does not expect, another in another order (stop 68: a full-disk test of bench,
    # run alone). Said here as done, every in-process command is alike; the notice itself is tested in
    # fresh interpreters and where a test sets it unsaid (tests/cli/test_qa56_messages.py).
    compiled._warned = True

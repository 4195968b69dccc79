"""Stopping a long native solver call when Ctrl-C or SIGTERM arrives.

Python runs signal handlers only between bytecodes of the main thread, so while the main thread sits
inside a C++ solver (OR-Tools CP-SAT) a Ctrl-C waits until the solver returns, and CP-SAT's own SIGINT
handling instead turns Ctrl-C into an ordinary "stopped" answer, which the CLI would report as
"unknown" (exit 3) rather than "interrupted" (exit 130).

:func:`stop_on_signal` bridges the two: around the call, Python's signal wake-up file descriptor is
watched by a helper thread (the solver releases the GIL while it works), which calls the solver's own
stop function as soon as a signal arrives. The call then returns at once, and Python's pending handler
raises :class:`KeyboardInterrupt` (or :class:`~stratagem.core.errors.Terminated`) right after it, so the
CLI says "interrupted" or "terminated" as everywhere else. The solver's own SIGINT handling must be
switched off for this (CP-SAT: ``parameters.catch_sigint_signal = False``).
"""

from __future__ import annotations

import os
import signal
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress

_END = b"\x00"  # no signal has number 0: the byte that tells the watcher to finish


@contextmanager
def stop_on_signal(stop: Callable[[], None]) -> Iterator[None]:
    """Call ``stop()`` from a helper thread when a signal arrives while the body runs.

    Outside the main thread (where Python delivers no signals) the body simply runs.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    read_end, write_end = os.pipe()
    os.set_blocking(write_end, False)
    try:
        previous = signal.set_wakeup_fd(write_end, warn_on_full_buffer=False)
    except ValueError:  # no wake-up descriptor possible here: run without
        os.close(read_end)
        os.close(write_end)
        yield
        return

    def watch() -> None:
        while True:
            byte = os.read(read_end, 1)
            if not byte or byte == _END:
                return
            if byte[0] in (signal.SIGINT, signal.SIGTERM):
                stop()
                return

    watcher = threading.Thread(target=watch, name="stop-on-signal", daemon=True)
    watcher.start()
    try:
        yield
    finally:
        signal.set_wakeup_fd(previous)
        with suppress(OSError):
            os.write(write_end, _END)
        watcher.join(timeout=5)
        os.close(read_end)
        os.close(write_end)

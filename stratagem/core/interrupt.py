"""Stopping a long native solver call when Ctrl-C, SIGTERM or SIGHUP (a hang-up) arrives.

Python runs signal handlers only between bytecodes of the main thread, so while the main thread sits
inside a C++ solver (OR-Tools CP-SAT) a Ctrl-C waits until the solver returns, and CP-SAT's own SIGINT
handling instead turns Ctrl-C into an ordinary "stopped" answer, which the CLI would report as
"unknown" (exit 3) rather than "interrupted" (exit 130).

:func:`stop_on_signal` bridges the two: around the call, Python's signal wake-up file descriptor is
watched by a helper thread (the solver releases the GIL while it works), which calls the solver's own
stop function as soon as a signal arrives. The call then returns at once, and Python's pending handler
raises :class:`KeyboardInterrupt` (or :class:`~stratagem.core.errors.Terminated`) right after it, so the
CLI says "interrupted" or "terminated" as everywhere else. The solver's own SIGINT handling must be
switched off for this (CP-SAT: ``parameters.catch_sigint_signal = False``). Every signal's wake-up byte is
passed on to the descriptor that was in place before (an asyncio event loop's, whose signal handlers are
told of a signal by it): it used to be read and dropped, so such a loop never learned of a signal that
arrived during the call.
"""

from __future__ import annotations

import os
import signal
import socket
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress

_END = b"\x00"  # no signal has number 0: the byte that tells the watcher to finish

#: The signals that stop a command: Ctrl-C, SIGTERM and a hang-up (the CLI's handlers raise on each).
#: Windows has no SIGHUP (naming it stopped every command there at its first import): the others only.
STOPPING = tuple(getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, name))


@contextmanager
def stop_on_signal(stop: Callable[[], None]) -> Iterator[None]:
    """Call ``stop()`` from a helper thread when a signal arrives while the body runs.

    Outside the main thread (where Python delivers no signals) the body simply runs. The wake-up
    descriptor is one end of a socket pair, as asyncio's is, which every system can make non-blocking: the
    pipe this used before cannot be on Windows before Python 3.12 (no ``os.set_blocking``), so there the
    watch was left out and Ctrl-C waited for the solver to return, which without a time limit could be never.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    reader, writer = socket.socketpair()
    writer.setblocking(False)
    try:
        previous = signal.set_wakeup_fd(writer.fileno(), warn_on_full_buffer=False)
    except ValueError:  # no wake-up descriptor possible here: run without
        reader.close()
        writer.close()
        yield
        return

    def watch() -> None:
        stopped = False
        while True:
            byte = reader.recv(1)
            if not byte or byte == _END:
                return
            if previous >= 0:  # the wake-up the caller was waiting for (an asyncio loop's signal handlers)
                _pass_on(previous, byte)
            if byte[0] in STOPPING and not stopped:
                stopped = True
                stop()

    watcher = threading.Thread(target=watch, name="stop-on-signal", daemon=True)
    watcher.start()
    try:
        yield
    finally:
        signal.set_wakeup_fd(previous)
        with suppress(OSError):
            writer.send(_END)
        watcher.join(timeout=5)
        reader.close()
        writer.close()


def _pass_on(descriptor: int, byte: bytes) -> None:
    """Write ``byte`` to the wake-up descriptor that was in place: a file descriptor, or on Windows a
    socket's handle, which only a socket call writes to."""
    try:
        os.write(descriptor, byte)
    except OSError:
        with suppress(OSError):
            borrowed = socket.socket(fileno=descriptor)
            try:
                borrowed.send(byte)
            finally:
                borrowed.detach()  # the handle stays its owner's


class _Abandoned:
    """Whether a native solver call was left by a signal in a way that may leave the process's memory
    inconsistent (:func:`abandon_native_state`)."""

    native_state = False


def abandon_native_state() -> None:
    """Note that a signal took the process out of the middle of a native solver call without the solver's
    consent: PySAT's own Ctrl-C handling ``longjmp``\\ s out of CaDiCaL, which may be inside ``malloc`` or
    halfway through updating its own arrays. Freeing anything afterwards (the solver's ``delete``, or
    Python's finalisation at exit) then ended some 1 in 10 interrupted runs with ``free(): invalid
    pointer`` and SIGABRT (exit 134) or a segmentation fault instead of exit 130. Once this is set the
    solver is left undeleted, and the command line ends the process without finalisation
    (:func:`native_state_abandoned`)."""
    _Abandoned.native_state = True


def native_state_abandoned() -> bool:
    """Whether :func:`abandon_native_state` was called in this process."""
    return _Abandoned.native_state


@contextmanager
def signals_held() -> Iterator[None]:
    """Ctrl-C, SIGTERM and SIGHUP held back for the body (steps that must all happen or none: the renames of
    a set of files, a native object's free and the forgetting of its pointer): one that arrives meanwhile
    is noted and sent again once the body is done, to the handler that was in place.

    Python's handlers run in the main thread whichever thread the system gave the signal to, so the
    handlers are swapped rather than the signals blocked (a thread's mask would not stop a progress
    bar's thread from taking them). Outside the main thread, where no Python signal handler runs, the
    body simply runs."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    arrived: list[int] = []
    previous = {number: handler for number in STOPPING
                if (handler := signal.getsignal(number)) is not None}  # None: not Python's to restore
    for number in previous:
        signal.signal(number, lambda signum, frame: arrived.append(signum))
    try:
        yield
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)
        if arrived:
            signal.raise_signal(arrived[0])

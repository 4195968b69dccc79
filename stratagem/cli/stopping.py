"""How ``stratagem``'s own process answers Ctrl-C, SIGTERM and SIGHUP (:func:`install_handlers`, called by
:func:`stratagem.cli.main.main`).

Each one raises where the main thread is (:class:`KeyboardInterrupt`, :class:`~stratagem.core.errors.Terminated`,
:class:`~stratagem.core.errors.HungUp`), so the command unwinds: ``finally`` blocks run, atomic writes remove
their temporary files, a sweep lets go of its results file, and the CLI prints one line and exits 130, 143 or
129. Once one stop is under way, another (a second Ctrl-C while the first one's cleanup runs, or while the
process exits) is ignored (:func:`stopping`, :func:`exiting`): raised there it stopped the cleanup (a lock or a
temporary file left behind) or printed a traceback. One that Python raised where it cannot propagate (a
garbage collector's callback) is sent again rather than printed and lost (:func:`unraisable`).
"""

from __future__ import annotations

import _thread
import signal
import sys
import threading
from types import FrameType
from typing import Any

from stratagem.core.errors import HungUp, Terminated
from stratagem.core.interrupt import STOPPING


def install_handlers() -> None:
    """Install this module's handlers: SIGINT's only where Python's own is in place (not when it is ignored,
    as in a background job), SIGHUP's only where it exists and is not ignored (Windows, ``nohup``)."""
    if signal.getsignal(signal.SIGINT) is signal.default_int_handler:
        signal.signal(signal.SIGINT, interrupt)
    signal.signal(signal.SIGTERM, terminate)
    if hasattr(signal, "SIGHUP") and signal.getsignal(signal.SIGHUP) is not signal.SIG_IGN:
        signal.signal(signal.SIGHUP, terminate)
    sys.unraisablehook = unraisable


class Stop:
    """Whether :func:`stratagem.cli.main.run` has caught a stop and said so (its exit code is then decided)."""

    reported = False


def stopping() -> bool:
    """Whether a stop is under way, so that another signal must not raise: ``run`` has caught one (:class:`Stop`),
    or the main thread is handling a :class:`KeyboardInterrupt` or :class:`Terminated`, or an exception raised
    while it was handled. That is where a stopped command cleans up: the ``finally`` blocks and ``__exit__``
    methods it unwinds through (a temporary output removed, a sweep's lock file, the Dask cluster closed) and
    the ``except`` clauses that report it. A second Ctrl-C raised there stopped the cleanup itself. A stop that
    was swallowed (caught and not raised again) is no longer handled: the next one raises."""
    if Stop.reported:
        return True
    exc = sys.exc_info()[1]
    for _ in range(100):  # a chain of contexts is short; a cycle made by hand must not hang a handler
        if exc is None:
            return False
        if isinstance(exc, (KeyboardInterrupt, Terminated)):
            return True
        exc = exc.__context__
    return False


def interrupt(signum: int, frame: FrameType | None) -> None:
    """The SIGINT handler: raise :class:`KeyboardInterrupt`, as Python's own does, unless a stop is under
    way already (:func:`stopping`): then the Ctrl-C is ignored and the first stop's cleanup goes on."""
    if not stopping():
        raise KeyboardInterrupt


def exiting() -> None:
    """Ignore Ctrl-C, SIGTERM and SIGHUP from here on: the exit code is decided and every output is whole or
    removed; what is left is the interpreter's exit (atexit hooks, such as Dask's and multiprocessing's,
    and finalisation), where a signal printed a traceback ("Exception ignored in atexit callback") or, once
    Python had put back the default handlers, ended the process by the signal instead of its exit code.
    Only the handlers :func:`install_handlers` installed are replaced (not SIGHUP's under ``nohup``, ignored
    already)."""
    for number in STOPPING:
        if signal.getsignal(number) in (interrupt, terminate):
            signal.signal(number, signal.SIG_IGN)


#: Seconds after which a stop Python could not raise where it came (:func:`unraisable`) is sent again: the
#: callback it came in, and the hook, have long returned by then.
AGAIN_AFTER = 0.05


def unraisable(event: Any) -> None:
    """``sys.unraisablehook`` of the command: a stop raised where Python cannot let it through is sent again.

    Python runs a signal's handler in whatever code the main thread runs next, and that can be a weakref
    callback or a ``__del__`` the garbage collector called: there the :class:`KeyboardInterrupt` (or
    :class:`Terminated`) is "ignored" -- printed with a traceback, and the command went on as if no Ctrl-C
    had come (seen once in a sweep on Dask, in ``WeakSet``'s callback). Now nothing is printed, and the
    signal is made pending again for the main thread :data:`AGAIN_AFTER` seconds later
    (``_thread.interrupt_main``, from a timer: made pending here, its handler would run inside this hook),
    so that it is raised in the command's own code. Anything else goes to Python's own hook."""
    exc = event.exc_value
    if not isinstance(exc, (KeyboardInterrupt, Terminated)):
        sys.__unraisablehook__(event)
        return
    number = (getattr(signal, "SIGHUP", signal.SIGTERM) if isinstance(exc, HungUp)
              else signal.SIGTERM if isinstance(exc, Terminated) else signal.SIGINT)
    again = threading.Timer(AGAIN_AFTER, _thread.interrupt_main, (number,))
    again.daemon = True
    again.start()


def terminate(signum: int, frame: FrameType | None) -> None:
    """The SIGTERM and SIGHUP handler: raise :class:`Terminated` (:class:`HungUp` for SIGHUP) where the
    main thread is, like Ctrl-C does (and note the request, in case the exception is swallowed on the
    way), unless a stop is under way already (:func:`stopping`), whose exit code then stands."""
    if stopping():
        return
    Terminated.requested = True
    if signum == getattr(signal, "SIGHUP", None):
        Terminated.hung_up = True
        raise HungUp()
    raise Terminated()

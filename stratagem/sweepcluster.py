"""The Dask side of a sweep: a client of an existing scheduler or of an embedded ``LocalCluster``, and
closing it within a bounded time (its worker processes killed if Dask's close does not finish).

Dask is an extra (``pip install "stratagem[dist]"``) and imported only when a sweep uses it.
"""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Callable, Iterator
from typing import Any

from stratagem.core.errors import BadArgument, Param, Words

#: How to get the Dask executor when it is missing, naming ``workers=0`` as the caller gives it (the CLI says
#: ``--workers 0``: :class:`~stratagem.core.errors.Param`).
DIST_HINT: Words = ('pip install "stratagem[dist]" (or run in this process with ', Param("workers", 0), ")")

#: Seconds to wait for an existing scheduler (``--scheduler``) before giving up.
CONNECT_TIMEOUT = 10.0


def connect(workers: int | None, scheduler: str | None, timeout: float = CONNECT_TIMEOUT) -> Any:
    """A Dask client: of the scheduler at ``scheduler``, or of a new ``LocalCluster`` of ``workers`` processes."""
    try:
        import logging

        from distributed import Client, LocalCluster
    except ImportError:
        raise BadArgument("<argument>", "workers",
                          ("the Dask executor needs dask[distributed]: ", *DIST_HINT)) from None
    if scheduler is not None:
        _check_address(scheduler)
        started = time.monotonic()
        _check_greeting(scheduler, timeout)
        try:
            return Client(scheduler, timeout=max(0.5, timeout - (time.monotonic() - started)),  # type: ignore[no-untyped-call]
                          set_as_default=False)
        except (OSError, TimeoutError, ValueError, TypeError, MemoryError) as exc:
            problem = " ".join(str(exc).split())[:200] or type(exc).__name__
            raise BadArgument(scheduler, "scheduler", f"cannot reach the Dask scheduler: {problem}") from None
    import dask

    from stratagem.core.outputs import working_directory_exists

    if not working_directory_exists():  # a worker starts in it: Dask's words were "Nanny failed to start."
        raise BadArgument("<argument>", "workers", ("the embedded Dask cluster cannot start its workers: the current "
                                                    "directory no longer exists (it was removed while the shell was "
                                                    "in it); cd to one that does, or run in this process with ",
                                                    Param("workers", 0)))
    # The SAT method runs its solver in a child process (to stop it at the time limit); a daemonic Dask
    # worker may not have children, so the embedded cluster's workers are not daemons.
    dask.config.set({"distributed.worker.daemon": False})
    count = workers if workers is not None else (os.cpu_count() or 1)
    # Workers log at ERROR with a traceback when the scheduler goes first at shutdown (after Ctrl-C or
    # SIGTERM); a task's own error reaches the command through its future, so only CRITICAL is shown.
    with _held_from_workers() as release:
        cluster = LocalCluster(  # type: ignore[no-untyped-call]
            n_workers=count, threads_per_worker=1, processes=True, dashboard_address=":0",
            silence_logs=logging.CRITICAL)
        client = None
        try:
            client = Client(cluster, set_as_default=False)  # type: ignore[no-untyped-call]
            client.run(_ignore_sigint)
            # The worker processes' ids, to end them ourselves if closing the cluster does not (see close()).
            client.stratagem_worker_pids = sorted(client.run(os.getpid).values())  # type: ignore[attr-defined]
            release()  # a Ctrl-C or hang-up that came while the cluster started is raised here
        except BaseException:  # noqa: BLE001 - that Ctrl-C, SIGTERM or a failure: the cluster is closed, then it goes on
            if client is not None:
                close(client)
            else:
                with contextlib.suppress(Exception):
                    cluster.close(timeout=CLOSE_TIMEOUT)
            raise
    return client


@contextlib.contextmanager
def _held_from_workers() -> Iterator[Callable[[], None]]:
    """Hold Ctrl-C and a hang-up back (SIGINT and SIGHUP blocked in this thread) while the embedded cluster
    starts; yields the call that lets them through again, which the ``with`` block's end makes too.

    A Ctrl-C in those seconds reached the worker processes, which are in the terminal's process group and
    had not yet been told to ignore it (:func:`_ignore_sigint`): each printed a ``KeyboardInterrupt``
    traceback from the middle of its imports; and in the command it stopped ``LocalCluster`` half-made,
    which Dask's own close at exit then failed on, with a second traceback (``AssertionError:
    Status.init``). Held back, the signal stays pending: the workers, started by threads that inherit the
    blocked mask (as the workers inherit it in turn), never see it, and the command gets it once the
    cluster is whole and can be closed (a second or two later than pressed). A hang-up (the terminal
    closed: SIGHUP to the whole group) likewise stays the command's to answer: it killed multiprocessing's
    resource tracker, whose relaunch printed a dozen ``KeyError`` tracebacks, and the workers mid-task.
    SIGTERM is not held: Dask stops its workers with it. Windows, which has neither blocked signals nor
    SIGHUP (nor this resource tracker), holds nothing back: naming them stopped every Dask sweep there."""
    import signal
    import threading
    from multiprocessing import resource_tracker

    if threading.current_thread() is not threading.main_thread() or not hasattr(signal, "pthread_sigmask"):
        yield lambda: None  # only the main thread gets Ctrl-C; Windows blocks no signal
        return
    held = {signal.SIGINT, signal.SIGHUP} - signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGHUP})
    released = not held

    def release() -> None:
        nonlocal released
        if not released:
            released = True
            signal.pthread_sigmask(signal.SIG_UNBLOCK, held)

    try:
        # Started here, with SIGHUP blocked, which the tracker keeps: multiprocessing starts it with the
        # first worker, from Dask's loop thread, and unblocks SIGINT in the starting thread when it is
        # done, so every worker after it would be started with Ctrl-C let through again. Hence SIGINT is
        # blocked after it.
        resource_tracker.ensure_running()
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
        yield release
    finally:
        release()


def _check_address(scheduler: str) -> None:
    """Refuse a scheduler address Dask cannot even parse, before a client is made: a client whose
    address was refused is left half-built, and its finaliser prints a traceback at exit."""
    from distributed.comm.registry import get_backend

    shown = " ".join(scheduler.split())[:80] or "''"
    scheme, sep, rest = scheduler.partition("://")
    if not sep:
        scheme, rest = "tcp", scheduler  # Dask's default for host:port
    if not rest or not scheduler.isprintable() or not scheme.isascii():
        raise BadArgument(shown, "scheduler", "not a scheduler address (such as tcp://host:8786)")
    try:
        backend = get_backend(scheme)
    except ValueError as exc:
        raise BadArgument(shown, "scheduler", " ".join(str(exc).split())[:200]) from None
    try:
        _, port = backend.get_address_host_port(rest)  # type: ignore[no-untyped-call]
    except NotImplementedError:  # an address without host and port (inproc://)
        return
    except ValueError as exc:  # Dask's words alone were a bare "invalid literal for int() ... '8786/'"
        raise BadArgument(shown, "scheduler", "not a scheduler address (such as tcp://host:8786): "
                          + " ".join(str(exc).split())[:200]) from None
    if not 0 < port < 65536:
        raise BadArgument(shown, "scheduler", f"port {port} is not a TCP port (1 to 65535)")
    if scheme == "tls":
        _check_tls(shown)


def _check_tls(shown: str) -> None:
    """Refuse a ``tls://`` scheduler when Dask's configuration holds no TLS settings for a client. Dask's
    client then fails as it is made, and the half-made client's finaliser waited 6 s more at exit and
    printed a traceback (``Exception ignored in: Client.__del__ ... TimeoutError``) under the error line."""
    from distributed.security import Security

    if Security().get_connection_args("client").get("ssl_context") is None:  # type: ignore[no-untyped-call]
        raise BadArgument(shown, "scheduler", "a tls:// scheduler needs Dask's TLS settings, and none are set "
                          "(distributed.comm.tls.ca-file, .client.cert and .client.key in Dask's configuration, or "
                          "their DASK_DISTRIBUTED__COMM__TLS__... variables)")


#: The most a Dask greeting's first field (its message's length in bytes) may say: a scheduler's is a few
#: dozen bytes; an HTTP reply read as one says gigabytes.
MAX_GREETING = 1 << 20


def _check_greeting(scheduler: str, timeout: float) -> None:
    """Refuse, within ``timeout`` seconds, a ``tcp://`` address where no Dask scheduler answers. A
    scheduler speaks first: on connection it sends its handshake, a message whose first 8 bytes are its
    length. Dask's own client waited past its timeout for a server that says nothing (a dashboard's HTTP
    port: a sweep still waiting after 11 minutes), and read another server's bytes as a length of exabytes
    (MemoryError). Other schemes (tls://, inproc://) are left to Dask."""
    import socket
    import struct

    scheme, sep, rest = scheduler.partition("://")
    if sep and scheme != "tcp":
        return
    host, _, port = (rest if sep else scheduler).rpartition(":")
    host = host.strip("[]")
    deadline = time.monotonic() + timeout

    def receive(conn: socket.socket, count: int) -> bytes:
        got = b""
        while len(got) < count:
            conn.settimeout(max(0.01, deadline - time.monotonic()))
            data = conn.recv(min(count - len(got), 1 << 16))
            if not data:
                raise BadArgument(scheduler, "scheduler", "not a Dask scheduler: it closed the connection "
                                  "without a whole greeting")
            got += data
        return got

    try:
        with socket.create_connection((host, int(port)), timeout=timeout) as conn:
            (length,) = struct.unpack("<Q", receive(conn, 8))
            if not 0 < length <= MAX_GREETING:
                raise BadArgument(scheduler, "scheduler", "not a Dask scheduler: its first bytes are not a Dask "
                                  "greeting")
            receive(conn, length)  # the whole greeting, within the same time (a stall after its length too)
    except TimeoutError:
        raise BadArgument(scheduler, "scheduler", f"no Dask scheduler answered within {timeout:g} s (a scheduler "
                          "greets a client first; is this its dashboard's or another server's port?)") from None
    except (OSError, ValueError) as exc:
        problem = " ".join(str(exc).split())[:200] or type(exc).__name__
        raise BadArgument(scheduler, "scheduler", f"cannot reach the Dask scheduler: {problem}") from None


def _ignore_sigint() -> None:
    """Run on each embedded worker: Ctrl-C reaches the whole process group, and the command (not each
    worker, with a traceback) is the one to answer it, by closing the cluster."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)


#: Seconds :func:`close` waits for Dask to close a client and its embedded cluster before it kills the
#: cluster's worker processes itself.
CLOSE_TIMEOUT = 10.0


def close(client: Any, timeout: float = CLOSE_TIMEOUT) -> bool:
    """Close a client and, when the sweep made it, its cluster (its worker processes end).

    Bounded: Dask's close runs in a helper thread given ``timeout`` seconds. A cluster interrupted
    mid-task can take longer than that, or never finish (seen once after SIGTERM on a long run: the
    command did not exit); then the embedded cluster's worker processes are killed and the command
    goes on. Returns whether Dask's close finished in time.
    """
    import signal
    import threading

    cluster: Any = getattr(client, "cluster", None)
    embedded = cluster is not None and type(cluster).__name__ == "LocalCluster"

    closed: list[bool] = []

    def shut() -> None:
        try:
            client.close(timeout=timeout)
            if embedded:
                cluster.close(timeout=timeout)
            closed.append(True)
        except Exception:  # noqa: BLE001 - a close that fails is one that did not finish: handled below
            pass

    closer = threading.Thread(target=shut, name="close-dask", daemon=True)
    closer.start()
    interrupted: BaseException | None = None
    try:
        closer.join(timeout)
    except BaseException as exc:  # noqa: BLE001 - Ctrl-C or SIGTERM while closing: end the workers, then raise it
        interrupted = exc
    if embedded:
        # Closed here, or its workers killed below: Dask's own close at exit (an atexit hook) would only
        # close it again, and after a Ctrl-C during the first close it printed a traceback.
        cluster.shutdown_on_close = False
    if closed and interrupted is None:
        return True
    if not closed:
        for pid in getattr(client, "stratagem_worker_pids", []) if embedded else []:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, getattr(signal, "SIGKILL", signal.SIGTERM))  # Windows: SIGTERM is the kill
    if interrupted is not None:
        raise interrupted
    return False

"""The horizon driver: grow ``k`` until "a goal within ``k`` steps" is satisfiable, keeping the refutation.

Game-agnostic: a game supplies ``build(k)``, an object with the CNF of "a goal within ``k`` steps"
(``clauses``, ``num_vars``, ``comments``) and ``decode(model)``, which turns a satisfying assignment
into moves *and replays them through the game's rules engine* (a model bug must surface as an error,
never as an answer).

Each horizon is solved by CaDiCaL 1.9.5 (PySAT's ``cadical195``) with DRUP proof output. When horizon
``k`` is the first satisfiable one, the CNF and proof of horizon ``k - 1`` are the certificate that no
line of fewer than ``k`` steps exists (the formula says "within", so one refutation covers every
shorter length); ``stratagem verify`` re-checks that proof with the project's own checker. When even
the game's maximum length is unsatisfiable, that refutation proves there is no line at all.

PySAT cannot interrupt CaDiCaL, so a time limit runs each solve in a child process that is
stopped when the time is up; the result is then ``unknown`` with the horizons refuted so far. The child
is forked when the calling process runs a single thread (the cheapest way, nothing to copy). With other
threads alive a fork may copy a lock another thread holds (Python 3.12+ warns about it), so the child
is then a fresh interpreter started with ``subprocess`` (``python -c``, fork and exec in C, safe with
threads) that is sent its work as a pickle: some 0.1 s of CPU more per call (the interpreter's start and
PySAT's import), and no re-import of the caller's ``__main__`` (which multiprocessing's 'spawn' and
'forkserver' would do: a script without a main guard would run again). Work that does not pickle (a
lambda as :func:`incremental_search`'s builder), or names something of the caller's ``__main__`` (which
that interpreter, never running the caller's script, could not load), is forked as before. Either child
is killed with its parent (Linux's ``PR_SET_PDEATHSIG``). Either child runs with SIGINT blocked, so a
terminal's Ctrl-C is acted on by the parent alone, which kills it (one that reached a fresh interpreter
while it imported its work printed Python's traceback; a forked child it ended could be read as a
crash); it stays in the caller's process group, so Ctrl-Z stops it too. The CLI's status line on a
terminal is a thread, so there the child is a fresh interpreter; without a terminal the CLI runs one
thread and forks. On macOS, where a fork is unsafe even with one thread (the system's libraries), the
child is a fresh interpreter whenever the work pickles; on Windows, which has no fork (nor ``pass_fds``),
it is started by multiprocessing's 'spawn' (:func:`_spawned`).

Signals: PySAT catches Ctrl-C inside a solver call itself and raises ``pysolvers.error("Caught keyboard
interrupt")``; :func:`_cadical` turns that back into :class:`KeyboardInterrupt`, so the CLI reports
"interrupted" (exit 130) like anywhere else. PySAT gets out of CaDiCaL by ``longjmp``, so that solver
is never freed, and the command ends without Python's finalisation
(:func:`~stratagem.core.interrupt.abandon_native_state`); any other solver is freed with Ctrl-C held back
until PySAT has forgotten it (:func:`_delete`). SIGTERM (and SIGHUP) cannot reach Python code while CaDiCaL
runs in this process, so for the length of such a call it gets its default effect (the process ends at once; no file
is being written then). A child never reports an interruption itself: it exits quietly and the
parent, interrupted too or not, decides.

:func:`incremental_search` finds the shortest horizon faster on long games: one solver answers the
horizons in turn under assumptions and keeps what it learned (level-2 example, solo-1: horizon 9 refuted
in 23-37 s after the smaller ones, 84-94 s from scratch). Its refutations are not certificates; with
``prove`` it then refutes the plain ``k - 1`` formula from scratch with DRUP output, as above.

A refutation's proof is held as its DRUP text in one bytes object (:class:`~stratagem.solvers.drattext.DrupText`,
``len()`` its lines), made from the binary file CaDiCaL wrote once the solver is freed, never as PySAT's
list of one string a line (3 million lines took 265 MB as such a list, pickled whole from the child and
joined twice more): a child sends the text a piece at a time (:class:`_ProofFollows`), and the parent
gathers the pieces into one buffer.

Progress: given a ``progress`` callback, both drivers report :class:`SolverProgress` (the horizon being
solved, CaDiCaL's conflicts on it so far, the DRUP proof lines written so far, solver calls), measured,
not estimated: CaDiCaL is then called with a budget of :data:`CONFLICT_CHUNK` conflicts at a time and
called again, keeping what it learned, after each report. The budget is fixed (not a time), so a run
with a callback takes the same path whether or not anything is displayed; a run without one makes a
single call, as before.

Why one module of over 600 lines: it holds one concept, the horizon driver (one solve, the horizon
loop, the incremental loop), and most of its length is the child-process and signal handling those
loops share; split apart, each half would need the other's private protocol.
"""

from __future__ import annotations

import errno
import importlib
import io
import multiprocessing
import os
import pickle
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Generator, Iterator, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass, replace
from multiprocessing.connection import Connection
from typing import Any, Generic, Protocol, TypeVar

from pysat.solvers import Solver

from stratagem.core.interrupt import STOPPING, abandon_native_state, native_state_abandoned, signals_held
from stratagem.solvers.drattext import DrupText, drat_text, drat_text_chunks, gathered

M = TypeVar("M")
M_co = TypeVar("M_co", covariant=True)

SOLVER = "cadical195"

#: Conflicts CaDiCaL may spend in one call when progress is reported (see the module docstring): about
#: 10 s of search on the hard Strato formulas (the level-2 example's solo-1, horizon 9 from scratch:
#: 13,637 conflicts in 7 s). Formulas refuted in fewer conflicts, all the small ones, take one call,
#: exactly as without progress. Each new call restarts the search (keeping the learned clauses), so the
#: chunks are large: with chunks of 10,000 that formula took 15,811 conflicts and 9.7 s.
CONFLICT_CHUNK = 20_000


@dataclass(frozen=True)
class SolverProgress:
    """What the solver has done on the horizon it is answering.

    ``conflicts``: CaDiCaL's conflicts on this horizon so far (``None`` for CP-SAT, which reports
    nothing while it runs); ``proof_lines``: lines of DRUP proof written so far (``None`` when no proof
    is being written: under assumptions, or CP-SAT); ``calls``: solver calls
    finished before this one (the horizons answered so far, counting a certificate's refutation).
    """

    horizon: int
    conflicts: int | None
    proof_lines: int | None
    calls: int


#: Receives the reports of a running horizon search.
ProgressCallback = Callable[[SolverProgress], None]
#: A running solve's report: (conflicts so far, proof lines written so far or ``None``).
_Report = Callable[[int, int | None], None]


class HorizonModel(Protocol[M_co]):
    """The CNF of one horizon and how to read a line out of its models."""

    clauses: list[list[int]]
    comments: list[str]

    @property
    def num_vars(self) -> int: ...

    def decode(self, model: Sequence[int]) -> tuple[M_co, ...]: ...


#: The proof of a refutation without one (CP-SAT's infeasibility).
NO_PROOF = DrupText(b"", 0)


@dataclass(frozen=True)
class Refutation:
    """A CNF with its DRUP refutation: "no goal within ``horizon`` steps".

    ``proof`` is the DRUP text as one bytes object (:class:`~stratagem.solvers.drattext.DrupText`: ``len()``
    its lines, ``proof.data`` the bytes a file holds), not a list of lines: a refutation of millions of lines
    as Python strings took gigabytes (see :mod:`stratagem.solvers.drattext`)."""

    horizon: int
    num_vars: int
    clauses: list[list[int]]
    proof: DrupText
    comments: list[str]

    @property
    def proof_lines(self) -> int:
        """The lines of the DRUP proof."""
        return self.proof.lines


@dataclass(frozen=True)
class HorizonRun:
    """One solver call: the horizon, its answer (``None``: stopped), formula size and time."""

    horizon: int
    satisfiable: bool | None
    variables: int
    clauses: int
    proof_lines: int
    seconds: float


@dataclass(frozen=True)
class SatPlanResult(Generic[M]):
    """Outcome of the horizon search.

    ``status``: ``solved`` (``moves`` is shortest: ``refutation`` refutes horizon ``lower_bound - 1``),
    ``unsolvable`` (``refutation`` refutes the maximum length), ``unknown`` (stopped by the time limit;
    ``lower_bound`` is the last refuted horizon plus one, ``refutation`` that horizon's, if any).
    """

    status: str
    moves: tuple[M, ...] | None
    lower_bound: int
    refutation: Refutation | None
    runs: tuple[HorizonRun, ...]
    seconds: float
    stopped_by: str | None


def _pysat_interrupt(exc: BaseException) -> bool:
    """Whether ``exc`` is PySAT's report of Ctrl-C inside a solver call (``pysolvers.error``)."""
    return type(exc).__module__ == "pysolvers" and "interrupt" in str(exc).lower()


@contextmanager
def _cadical() -> Iterator[None]:
    """Around an in-process CaDiCaL call: Ctrl-C surfaces as :class:`KeyboardInterrupt`, and SIGTERM and
    SIGHUP, whose Python handlers could not run before the call returns, have their default effect
    meanwhile.

    When SIGINT is ignored (a command started with ``nohup`` or in the background of a script, or the
    forked solver of such a command), it stays ignored: PySAT installs its own SIGINT handler for the
    length of a solve whatever the disposition was, so Ctrl-C would otherwise stop the solver (and, in
    the forked child of a ``--time-limit`` run, kill it, which the parent took for a crash: exit 70).
    The signal is blocked for the call instead; once unblocked, its ignored disposition discards it."""
    restore: dict[int, Any] = {}
    blocked = False
    if threading.current_thread() is threading.main_thread():
        for number in STOPPING[1:]:  # SIGTERM and SIGHUP: the CLI's handlers of both would wait for the call
            current = signal.getsignal(number)
            if current not in (signal.SIG_DFL, signal.SIG_IGN, None):
                restore[number] = current
                signal.signal(number, signal.SIG_DFL)
        if signal.getsignal(signal.SIGINT) == signal.SIG_IGN and hasattr(signal, "pthread_sigmask"):  # not Windows
            blocked = signal.SIGINT not in signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    except Exception as exc:
        if _pysat_interrupt(exc):
            abandon_native_state()  # PySAT longjmp'ed out of CaDiCaL: free nothing more (core.interrupt)
            raise KeyboardInterrupt from None
        raise
    finally:
        for held, handler in restore.items():
            signal.signal(held, handler)
        if blocked:
            signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


class _ProofLines:
    """How many lines of DRUP proof a CaDiCaL solver has written so far.

    PySAT has CaDiCaL write its proof in binary DRAT to a temporary file (``get_proof`` converts it to
    text at the end). In that encoding every line ends in a zero byte and no other byte is zero (``a`` or
    ``d``, then literals as non-zero variable-length integers), so the zero bytes flushed to the file are
    the lines written. Each count reads only what was added since the last one. ``count`` is ``None``
    when this PySAT does not expose the file (the figure is then not reported rather than guessed).
    """

    def __init__(self, solver: Solver) -> None:
        inner = getattr(solver, "solver", None)
        self.file = getattr(inner, "prfile", None)
        self.handle = getattr(inner, "prfp", None)
        try:
            self.flush: Any = importlib.import_module("pysolvers").flushpr
        except (ImportError, AttributeError):
            self.flush = None
        self.offset = 0
        self.lines = 0

    def count(self) -> int | None:
        if self.file is None or self.handle is None or self.flush is None or not hasattr(os, "pread"):  # Windows
            return None
        self.flush(self.handle)
        descriptor = self.file.fileno()
        size = os.fstat(descriptor).st_size
        while self.offset < size:
            data = os.pread(descriptor, min(1 << 24, size - self.offset), self.offset)
            if not data:
                break
            self.lines += data.count(b"\0")
            self.offset += len(data)
        return self.lines


def _conflicts(solver: Solver) -> int:
    return int((solver.accum_stats() or {}).get("conflicts", 0))


def _chunks(solver: Solver, assumptions: list[int], lines: _ProofLines | None
            ) -> Generator[tuple[int, int | None], None, bool]:
    """Solve under ``assumptions`` :data:`CONFLICT_CHUNK` conflicts at a time, yielding (conflicts of
    this solve so far, proof lines written so far) after each call; returns the answer."""
    base = _conflicts(solver)
    while True:
        solver.conf_budget(CONFLICT_CHUNK)
        with _cadical():
            answer = solver.solve_limited(assumptions=assumptions)
        yield _conflicts(solver) - base, None if lines is None else lines.count()
        if answer is not None:
            return bool(answer)


#: A solve's answer: (satisfiable, model when satisfiable, DRUP proof when refuted).
Answer = tuple[bool, list[int] | None, DrupText | None]


def _solve(clauses: list[list[int]], report: _Report | None = None) -> Answer:
    """CaDiCaL on ``clauses`` in this process, the proof as text (:func:`_solve_binary`)."""
    sat, model, proof = _solve_binary(clauses, report)
    return sat, model, drat_text(proof) if isinstance(proof, bytes) else proof


def _solve_binary(clauses: list[list[int]], report: _Report | None = None
                  ) -> tuple[bool, list[int] | None, bytes | DrupText | None]:
    """CaDiCaL on ``clauses``: a refutation's proof as the binary DRAT CaDiCaL wrote, read once the solver is
    freed, to be made text (:func:`~stratagem.solvers.drattext.drat_text`) without the solver's memory beside
    it; as text where this PySAT does not expose the file (its ``get_proof()`` lines joined)."""
    solver = Solver(name=SOLVER, bootstrap_with=clauses, with_proof=True)
    proof: bytes | DrupText | None = None
    try:
        with _cadical():
            if report is None:
                sat = bool(solver.solve())
            else:
                chunks = _chunks(solver, [], _ProofLines(solver))
                while True:
                    try:
                        report(*next(chunks))
                    except StopIteration as stop:
                        sat = stop.value
                        break
        model = list(solver.get_model()) if sat else None
        if not sat:
            _check_proof_written(solver)
            proof = _binary_proof(solver)
    finally:
        _delete(solver)
    return sat, model, proof


def _binary_proof(solver: Solver) -> bytes | DrupText:
    """The binary DRAT proof CaDiCaL wrote (PySAT's temporary file, as its ``get_proof`` reads it), or where
    this PySAT does not expose that file, ``get_proof()``'s lines as text."""
    inner = getattr(solver, "solver", None)
    file = getattr(inner, "prfile", None)
    handle = getattr(inner, "prfp", None)
    try:
        flush = importlib.import_module("pysolvers").flushpr
    except (ImportError, AttributeError):
        flush = None
    if file is None or handle is None or flush is None:
        lines = list(solver.get_proof() or [])
        return DrupText("".join(f"{line}\n" for line in lines).encode(), len(lines))
    flush(handle)
    file.seek(0)
    return bytes(file.read())


#: Bytes free on the file system of CaDiCaL's proof file below which a proof cut short is put down to a
#: full disk (:func:`_check_proof_written`).
PROOF_ROOM = 1 << 20


def _check_proof_written(solver: Solver) -> None:
    """Raise :class:`OSError` naming the temporary directory if CaDiCaL's proof was not written whole.

    PySAT has CaDiCaL write its proof through a C stdio stream into a temporary file in the system's
    temporary directory (``TMPDIR``, often a small RAM-backed ``/tmp``; the level-2 example's refutation is
    1.17 million proof lines), and a write the disk refuses (full, over a quota, over the file size limit)
    is lost without a word: the DRUP checker then rejected the cut proof, which ``solve`` reported as an
    internal error (a bug, exit 70). The stream's error flag (``ferror``) says whether a write failed;
    where it cannot be read, less than :data:`PROOF_ROOM` bytes free on that file system is taken as the
    sign."""
    inner = getattr(solver, "solver", None)
    file = getattr(inner, "prfile", None)
    handle = getattr(inner, "prfp", None)
    if file is None or handle is None:
        return
    with suppress(ImportError, AttributeError):
        importlib.import_module("pysolvers").flushpr(handle)
    failed = _stream_failed(handle)
    room = os.fstatvfs(file.fileno()) if hasattr(os, "fstatvfs") else None
    full = room is not None and room.f_bavail * room.f_frsize < PROOF_ROOM
    if not (full if failed is None else failed):
        return
    written = os.fstat(file.fileno()).st_size
    where = f"the temporary directory {tempfile.gettempdir()}"
    if full:
        raise OSError(errno.ENOSPC, f"no room left in {where} for CaDiCaL's proof ({written:,} bytes written "
                      "before it filled up); set TMPDIR to a folder with room")
    raise OSError(errno.EIO, f"CaDiCaL's proof could not be written whole in {where} ({written:,} bytes "
                  "written; a quota or a file size limit?); set TMPDIR to a folder with room")


def _stream_failed(handle: Any) -> bool | None:
    """Whether the C stdio stream in PySAT's capsule ``handle`` (a ``FILE *``) has its error flag set;
    ``None`` where that cannot be read (no C library to ask, or a capsule of another kind)."""
    try:
        import ctypes

        pointer = ctypes.pythonapi.PyCapsule_GetPointer
        pointer.restype = ctypes.c_void_p
        pointer.argtypes = [ctypes.py_object, ctypes.c_char_p]
        stream = pointer(handle, None)
        libc = ctypes.CDLL(None)
        libc.ferror.restype = ctypes.c_int
        libc.ferror.argtypes = [ctypes.c_void_p]
        return bool(libc.ferror(stream)) if stream else None
    except (ImportError, OSError, AttributeError, ValueError, TypeError):
        return None


def _delete(solver: Solver) -> None:
    """Free ``solver``, with Ctrl-C and SIGTERM held back until PySAT has forgotten the pointer: a signal
    that arrived while CaDiCaL freed a large solver raised its exception between the free and
    ``self.cadical = None``, and the object's ``__del__`` freed it again at exit (``free(): double free``,
    SIGABRT, in some 1 in 10 interrupted runs). Not at all once a signal left CaDiCaL mid-call
    (:func:`~stratagem.core.interrupt.abandon_native_state`)."""
    if not native_state_abandoned():
        with signals_held():
            solver.delete()


@dataclass(frozen=True)
class _ChildReport:
    """A forked solver's report, sent to the parent before its answer."""

    conflicts: int
    proof_lines: int | None


def _quiet_exit_on_signal(exc: BaseException) -> None:
    """In a forked child: end at once, without multiprocessing's traceback, if ``exc`` is an interruption
    (Ctrl-C reaches the whole process group; SIGTERM and SIGHUP raise the CLI's ``Terminated``)."""
    if isinstance(exc, KeyboardInterrupt) or _pysat_interrupt(exc) or any(
            kind.__name__ == "Terminated" for kind in type(exc).__mro__):
        os._exit(1)


def _end_with_parent(parent: int) -> None:
    """In a child (Linux): be killed when the parent (process id ``parent``) dies, so that a CaDiCaL run
    whose parent was killed (a Dask worker, say) does not go on alone after the deadline only the parent
    kept."""
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        pr_set_pdeathsig = 1
        libc.prctl(pr_set_pdeathsig, 9)  # SIGKILL
    except (OSError, AttributeError, TypeError):  # not Linux (Windows: no CDLL(None)): the parent's kill at
        # the deadline is what there is
        pass
    if os.getppid() != parent:  # the parent died before the line above ran
        os._exit(1)


@dataclass(frozen=True)
class _ProofFollows:
    """A forked solver's answer when it refuted: the proof's text follows as raw messages (``send_bytes``),
    a piece at a time, then an empty one."""


def _child(conn: Any, parent: int, clauses: list[list[int]], reporting: bool) -> None:
    _end_with_parent(parent)
    try:
        def report(conflicts: int, proof_lines: int | None) -> None:
            conn.send(_ChildReport(conflicts, proof_lines))

        sat, model, proof = _solve_binary(clauses, report if reporting else None)
        if isinstance(proof, bytes):
            # The text goes as it is made, not pickled whole: neither process holds it twice.
            conn.send(_ProofFollows())
            for piece in drat_text_chunks(proof):
                conn.send_bytes(piece)
            conn.send_bytes(b"")
        else:
            conn.send((sat, model, proof))
        conn.close()
    except OSError as exc:  # the proof's disk filled up (_check_proof_written): the parent says so, once
        conn.send(exc)
        conn.close()
    except BaseException as exc:
        _quiet_exit_on_signal(exc)
        raise


def _threads() -> int:
    """The threads this process runs, as the system counts them (native ones too: a library's thread pool
    holds locks a fork would copy as well); Python's own count where ``/proc`` is not there."""
    try:
        return len(os.listdir("/proc/self/task"))
    except OSError:
        return threading.active_count()


class _Running(Protocol):
    """A started child: what :func:`_started` hands back besides the connection."""

    def is_alive(self) -> bool: ...

    def kill(self) -> None: ...

    def join(self) -> None: ...


class _Exec:
    """A child started as a fresh interpreter (:func:`_started`), seen through a multiprocessing
    ``Process``'s three methods."""

    def __init__(self, process: subprocess.Popen[bytes]) -> None:
        self.process = process

    def is_alive(self) -> bool:
        return self.process.poll() is None

    def kill(self) -> None:
        self.process.kill()

    def join(self) -> None:
        self.process.wait()


#: What a child started by ``python -c`` runs: read ``sys.path`` (so it imports the stratagem its parent
#: runs, wherever that came from), then the work, from the pipe whose descriptor is its first argument. A
#: pipe that ends early (the parent interrupted while writing, then killing its child) ends the child
#: without a word: Python's traceback of the EOFError reached the command's stderr under "interrupted".
_BOOT = ("import os, pickle, sys\n"
         "source = os.fdopen(int(sys.argv[1]), 'rb')\n"
         "try:\n"
         "    sys.path[:] = pickle.load(source)\n"
         "except (EOFError, pickle.UnpicklingError):\n"  # the parent stopped before sending it: say nothing
         "    os._exit(1)\n"
         "from stratagem.solvers.satplan import _exec_child\n"
         "_exec_child(source, int(sys.argv[2]), int(sys.argv[3]))\n")


def _exec_child(source: Any, answers: int, parent: int) -> None:
    """The body of a child started by ``python -c`` (:data:`_BOOT`): the work comes from ``source``, the
    answers go to descriptor ``answers``."""
    _end_with_parent(parent)
    try:
        ignore_sigint, target, args = pickle.load(source)
    except (EOFError, pickle.UnpicklingError):  # the parent was stopped (Ctrl-C) while writing: it decides
        os._exit(1)
    source.close()
    if ignore_sigint:  # as a forked child inherits it (see _cadical)
        signal.signal(signal.SIGINT, signal.SIG_IGN)
    target(Connection(answers, readable=False), parent, *args)
    os._exit(0)


@contextmanager
def _sigint_blocked() -> Iterator[None]:
    """SIGINT blocked in this thread for the length of the block, so that a child started in it (fork and
    exec copy the thread's signal mask) runs with SIGINT blocked: a terminal's Ctrl-C, sent to the whole
    process group, is the parent's to act on (it kills the child), and one that reached a fresh interpreter
    still importing its work printed Python's traceback. The child stays in the group, so Ctrl-Z still stops
    it with its parent. A SIGINT that comes meanwhile waits, or reaches another thread, as SIGINT may."""
    if not hasattr(signal, "pthread_sigmask"):  # not POSIX: the child hears Ctrl-C as before
        yield
        return
    held = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, held)


class _OwnModulesOnly(pickle.Pickler):
    """A pickler that refuses what the caller's ``__main__`` defines: a function or class of a script
    pickles by name, and the fresh interpreter (which never runs that script) could not load it, so its
    child died on an ``AttributeError`` before answering."""

    def reducer_override(self, obj: Any) -> Any:
        if getattr(obj, "__module__", None) == "__main__":
            raise pickle.PicklingError("defined in the caller's __main__")
        return NotImplemented  # pickled as usual (lists and integers, the clauses, do not come here)


def _payload(work: tuple[bool, Callable[..., None], tuple[Any, ...]]) -> bytes | None:
    """``work`` pickled for a fresh interpreter, or ``None`` when it must be forked: a lambda, a local
    function, or anything of the caller's ``__main__``."""
    buffer = io.BytesIO()
    try:
        _OwnModulesOnly(buffer, protocol=pickle.HIGHEST_PROTOCOL).dump(work)
    except (pickle.PicklingError, AttributeError, TypeError):
        return None
    return buffer.getvalue()


def _started(target: Callable[..., None], args: tuple[Any, ...]) -> tuple[Connection, _Running]:
    """Start ``target(connection, parent pid, *args)`` in a child process; return the end of the
    connection to read its messages from, and the child.

    Forked when this process runs one thread; otherwise a fresh interpreter (see the module docstring),
    unless ``target`` and ``args`` do not pickle for it (:func:`_payload`). On macOS, where a fork is
    unsafe (the system's libraries may hold a lock the child would inherit), a fresh interpreter whenever
    the work pickles. Where there is no fork (Windows), multiprocessing's 'spawn': asking for 'fork' there
    stopped every ``--method sat`` run with a time limit with an internal error."""
    if "fork" not in multiprocessing.get_all_start_methods():
        return _spawned(target, args)
    ignore_sigint = signal.getsignal(signal.SIGINT) == signal.SIG_IGN
    fresh = _threads() > 1 or sys.platform == "darwin"
    payload = _payload((ignore_sigint, target, args)) if fresh else None
    if payload is None:
        ctx = multiprocessing.get_context("fork")
        parent, child = ctx.Pipe(duplex=False)
        process = ctx.Process(target=target, args=(child, os.getpid(), *args), daemon=True)
        with _sigint_blocked():  # as the fresh interpreter below: the parent answers Ctrl-C, then kills it
            process.start()
        child.close()
        return parent, process
    work_r, work_w = os.pipe()
    answers_r, answers_w = os.pipe()
    try:
        with _sigint_blocked():
            started = subprocess.Popen(
                [sys.executable, "-c", _BOOT, str(work_r), str(answers_w), str(os.getpid())],
                pass_fds=(work_r, answers_w), stdin=subprocess.DEVNULL)
    except BaseException:
        for fd in (work_r, work_w, answers_r, answers_w):
            os.close(fd)
        raise
    os.close(work_r)
    os.close(answers_w)
    # The work is written by a thread of its own, so that the caller's deadline loop runs at once: a pipe
    # holds 64 KB, and the child reads the rest only once its interpreter has started and imported this
    # module (0.1-0.5 s), time the parent spent blocked here, past any deadline, before its loop began.
    threading.Thread(target=_send, args=(work_w, payload), name="sat-child-work", daemon=True).start()
    return Connection(answers_r, writable=False), _Exec(started)


def _spawned(target: Callable[..., None], args: tuple[Any, ...]) -> tuple[Connection, _Running]:
    """:func:`_started` where processes cannot be forked (Windows): multiprocessing's 'spawn', which
    imports the caller's ``__main__`` again in the child (the console script's and ``python -m
    stratagem``'s do nothing then). The child ignores Ctrl-C if the caller does, as a forked one would."""
    ctx = multiprocessing.get_context("spawn")
    parent, child = ctx.Pipe(duplex=False)
    ignore_sigint = signal.getsignal(signal.SIGINT) == signal.SIG_IGN
    process = ctx.Process(target=_spawned_child, args=(ignore_sigint, target, child, os.getpid(), *args),
                          daemon=True)
    process.start()
    child.close()
    return parent, process


def _spawned_child(ignore_sigint: bool, target: Callable[..., None], *args: Any) -> None:
    """The body of a spawned child (:func:`_spawned`)."""
    if ignore_sigint:
        signal.signal(signal.SIGINT, signal.SIG_IGN)
    target(*args)


def _send(descriptor: int, payload: bytes) -> None:
    """Write ``sys.path`` and ``payload`` to a fresh interpreter's work pipe, then close it. A child that
    ended first (killed at its deadline, or crashed) breaks the pipe: its connection's EOF says so."""
    try:
        with os.fdopen(descriptor, "wb") as work:
            pickle.dump(sys.path, work)
            work.write(payload)
    except OSError:
        pass


def solve_cnf(clauses: list[list[int]], seconds: float | None, report: _Report | None = None) -> Answer | None:
    """CaDiCaL on ``clauses``: (satisfiable, model, DRUP proof when refuted, as :class:`DrupText`),
    or ``None`` if ``seconds`` ran out first. With a limit it runs in a child process that is killed
    at the deadline, as PySAT cannot interrupt CaDiCaL 1.9.5 (see the module docstring).
    ``report(conflicts, proof_lines)`` is told what the solver has done every :data:`CONFLICT_CHUNK`
    conflicts and when it ends."""
    if seconds is None:
        return _solve(clauses, report)
    if seconds <= 0:
        return None
    deadline = time.perf_counter() + seconds
    parent, process = _started(_child, (clauses, report is not None))
    try:
        while _wait(parent, deadline):
            try:
                message: Any = parent.recv()
            except EOFError:
                raise RuntimeError("the CaDiCaL process ended without an answer (killed?)") from None
            if isinstance(message, _ChildReport):
                if report is not None:
                    report(message.conflicts, message.proof_lines)
                continue
            if isinstance(message, OSError):
                raise message
            if isinstance(message, _ProofFollows):
                return _proof_from(parent, deadline)
            answer: Answer = message
            return answer
        return None
    finally:
        if process.is_alive():
            process.kill()
        process.join()
        parent.close()


def _proof_from(parent: Connection, deadline: float) -> Answer | None:
    """A refutation's proof text as the child sends it (:class:`_ProofFollows`), gathered into one bytes
    object (:func:`~stratagem.solvers.drattext.gathered`); ``None`` if the deadline passes first."""
    timely = True

    def received() -> Iterator[bytes]:
        nonlocal timely
        while _wait(parent, deadline):
            try:
                piece = parent.recv_bytes()
            except EOFError:
                raise RuntimeError("the CaDiCaL process ended in the middle of its proof (killed?)") from None
            if not piece:
                return
            yield piece
        timely = False

    proof = gathered(received())
    return (False, None, proof) if timely else None


def horizon_search(
    build: Callable[[int], HorizonModel[M]],
    *,
    first: int,
    last: int,
    time_limit: float | None = None,
    progress: ProgressCallback | None = None,
    backend: str = "sat",
) -> SatPlanResult[M]:
    """Solve horizons ``first, first + 1, ... last`` until one is satisfiable.

    ``first`` should be a proven lower bound minus one (or 0), so that the first unsatisfiable
    horizon before the satisfiable one is solved and its refutation kept. ``last`` is the game's
    maximum length: refuting it proves that no line exists.

    ``backend="cpsat"`` solves each horizon with the model's own ``solve_cpsat(time_limit)`` (CP-SAT):
    the same search, but infeasibility comes without a certificate (``refutation`` keeps the horizon
    and formula size, with an empty proof).

    ``progress`` is told each horizon as it starts and, with CaDiCaL, its conflicts and proof lines
    as it runs (:class:`SolverProgress`).
    """
    started = time.perf_counter()
    runs: list[HorizonRun] = []
    refutation: Refutation | None = None
    lower = first
    cadical = backend != "cpsat"
    built = 0.0  # the last formula's building time: the next, one turn longer, takes at least as long

    def stopped() -> SatPlanResult[M]:
        return SatPlanResult("unknown", None, lower, refutation, tuple(runs), time.perf_counter() - started, "time")

    for k in range(first, last + 1):
        report: _Report | None = None
        if progress is not None:
            progress(SolverProgress(k, 0 if cadical else None, 0 if cadical else None, len(runs)))
            report = _reporter(progress, k, len(runs))
        # Building a horizon's formula cannot be interrupted (seconds on challenge 1, more on a loaded
        # machine): one that would not be built within the time left is not started, so that the limit
        # holds rather than being overrun by a build whose solve would get no time anyway.
        if time_limit is not None and time_limit - (time.perf_counter() - started) < built:
            return stopped()
        t_build = time.perf_counter()
        model_k = build(k)
        built = time.perf_counter() - t_build
        remaining = None if time_limit is None else time_limit - (time.perf_counter() - started)
        if remaining is not None and remaining <= 0:
            return stopped()
        t0 = time.perf_counter()
        answer: Answer | None
        if backend == "cpsat":
            sat_or_none, cp_assignment = model_k.solve_cpsat(remaining)  # type: ignore[attr-defined]
            answer = None if sat_or_none is None else (sat_or_none, cp_assignment, None)
        else:
            answer = solve_cnf(model_k.clauses, remaining, report)
        spent = time.perf_counter() - t0
        if answer is None:
            runs.append(HorizonRun(k, None, model_k.num_vars, len(model_k.clauses), 0, spent))
            return stopped()
        sat, model, proof = answer
        runs.append(HorizonRun(k, sat, model_k.num_vars, len(model_k.clauses), len(proof or ()), spent))
        if sat:
            assert model is not None
            moves = model_k.decode(model)
            if len(moves) != k and refutation is not None and refutation.horizon == k - 1:
                raise RuntimeError(f"horizon {k} decoded to a line of {len(moves)} steps after refuting {k - 1}")
            if refutation is None and k > 0:
                # Nothing below k was refuted (first > 0 without a proof): the line is not proven shortest.
                return SatPlanResult("unknown", moves, lower, None, tuple(runs), time.perf_counter() - started, None)
            return SatPlanResult("solved", moves, len(moves), refutation, tuple(runs),
                                 time.perf_counter() - started, None)
        refutation = Refutation(k, model_k.num_vars, model_k.clauses, NO_PROOF if proof is None else proof,
                                model_k.comments)
        lower = k + 1
    return SatPlanResult("unsolvable", None, lower, refutation, tuple(runs), time.perf_counter() - started, None)


def _reporter(progress: ProgressCallback, horizon: int, calls: int) -> _Report:
    """A running solve's reports, as :class:`SolverProgress` of ``horizon``."""
    def report(conflicts: int, proof_lines: int | None) -> None:
        progress(SolverProgress(horizon, conflicts, proof_lines, calls))

    return report


class OpenHorizonModel(HorizonModel[M_co], Protocol[M_co]):
    """A formula for every horizon up to ``horizon`` at once: :meth:`assumptions` picks one."""

    horizon: int

    def assumptions(self, k: int) -> list[int]: ...


def _incremental_steps(
    build_open: Callable[[int, int], OpenHorizonModel[M]],
    first: int,
    last: int,
    step: int,
    backend: str,
    remaining: Callable[[], float | None],
    reporting: bool = False,
) -> Iterator[HorizonRun | SolverProgress | tuple[int, tuple[M, ...]]]:
    """Each horizon's run in turn, then ``(k, moves)`` for the first satisfiable one (if any); with
    ``reporting``, CaDiCaL's :class:`SolverProgress` as it runs (``calls`` left 0 for the caller)."""
    lo = first
    while lo <= last:
        hi = min(last, lo + max(1, step) - 1)
        model = build_open(lo, hi)
        solver = Solver(name=SOLVER, bootstrap_with=model.clauses) if backend == "sat" else None
        try:
            for k in range(lo, hi + 1):
                t0 = time.perf_counter()
                assignment: list[int] | None = None
                sat: bool | None
                if solver is None:
                    sat, assignment = model.solve_cpsat(remaining(), assumptions=model.assumptions(k))  # type: ignore[attr-defined]
                elif reporting:
                    chunks = _chunks(solver, model.assumptions(k), None)
                    while True:
                        try:
                            conflicts, _ = next(chunks)
                        except StopIteration as stop:
                            sat = stop.value
                            break
                        yield SolverProgress(k, conflicts, None, 0)
                else:
                    with _cadical():
                        sat = bool(solver.solve(assumptions=model.assumptions(k)))
                if sat and solver is not None:
                    assignment = list(solver.get_model() or [])
                yield HorizonRun(k, sat, model.num_vars, len(model.clauses), 0, time.perf_counter() - t0)
                if sat is None:
                    return
                if sat:
                    assert assignment is not None
                    yield k, model.decode(assignment)
                    return
        finally:
            if solver is not None:
                _delete(solver)
        lo = hi + 1


def _wait(conn: Any, deadline: float) -> bool:
    """Whether ``conn`` has something to read before ``deadline`` (``time.perf_counter()`` seconds).

    Waits in steps of at most a day: the poll under ``Connection.poll`` takes its timeout in
    milliseconds as a C int, and a limit such as ``--time-limit 100000000`` would overflow it."""
    while True:
        left = deadline - time.perf_counter()
        if conn.poll(min(max(0.0, left), 86_400.0)):
            return True
        if left <= 86_400.0:
            return False


def _steps_child(conn: Any, parent: int, build_open: Callable[[int, int], OpenHorizonModel[Any]], first: int,
                 last: int, step: int, reporting: bool) -> None:
    _end_with_parent(parent)
    try:
        for item in _incremental_steps(build_open, first, last, step, "sat", lambda: None, reporting):
            conn.send(item)
        conn.send(None)
        conn.close()
    except BaseException as exc:
        _quiet_exit_on_signal(exc)
        raise


def _steps_within(build_open: Callable[[int, int], OpenHorizonModel[M]], first: int, last: int, step: int,
                  reporting: bool, seconds: float) -> Iterator[Any]:
    """CaDiCaL's :func:`_incremental_steps`, computed in a child process that is stopped when ``seconds``
    run out (then the last item is ``None``)."""
    deadline = time.perf_counter() + seconds
    parent, process = _started(_steps_child, (build_open, first, last, step, reporting))
    try:
        while True:
            if not _wait(parent, deadline):
                yield None
                return
            try:
                item = parent.recv()
            except EOFError:
                raise RuntimeError("the CaDiCaL process ended without an answer (killed?)") from None
            if item is None:
                return
            yield item
    finally:
        if process.is_alive():
            process.kill()
        process.join()
        parent.close()


def incremental_search(
    build_open: Callable[[int, int], OpenHorizonModel[M]],
    *,
    first: int,
    last: int,
    step: int = 4,
    time_limit: float | None = None,
    backend: str = "sat",
    prove: Callable[[int], HorizonModel[M]] | None = None,
    progress: ProgressCallback | None = None,
    prove_last: bool = True,
) -> SatPlanResult[M]:
    """The shortest horizon in ``first .. last``, found quickly: one solver answers several horizons.

    ``build_open(lo, hi)`` is a formula for every horizon ``lo <= k <= hi``; horizons are asked in
    increasing order under assumptions, so what the solver learns refuting ``k`` is kept for ``k + 1``
    (with ``backend="cpsat"`` the model is built once per window and re-solved under assumptions). When
    a window of ``step`` horizons is refuted, the next window is built. With a ``time_limit`` CaDiCaL
    runs in a child process (PySAT cannot interrupt it), stopped when the time is up; from a process
    with several threads that child is a fresh interpreter if ``build_open`` pickles (a module-level
    function or a :func:`functools.partial` of one), else a fork (see the module docstring).

    Refutations under assumptions are not certificates. ``status`` is ``solved`` when a satisfiable
    horizon ``k`` follows a refuted ``k - 1`` (or ``k == 0``); then, if ``prove`` is given, the plain
    formula ``prove(k - 1)`` is solved again from scratch with DRUP output and ``refutation`` holds that
    certificate (the same one :func:`horizon_search` keeps), otherwise ``refutation`` is ``None``.
    ``unsolvable``: every horizon up to ``last`` was refuted; with ``prove`` the certificate is the
    plain ``prove(last)`` refuted from scratch, as above (not with ``prove_last=False``: where ``last`` is no
    game's longest, as in Strato's designer mode, its refutation proves nothing worth the time). ``unknown``: stopped by
    ``time_limit`` (``lower_bound`` is one more than the last refuted horizon), or the first horizon was
    already satisfiable with ``first > 0`` (nothing shorter refuted: ``moves`` is not proven shortest).
    ``progress`` is told the horizon solved next, and with CaDiCaL its conflicts so far (and, for the
    certificate's refutation, the proof lines written so far) as it runs (:class:`SolverProgress`).
    """
    started = time.perf_counter()
    runs: list[HorizonRun] = []
    lower = first
    refuted = -1  # the last horizon refuted in this search

    def remaining() -> float | None:
        return None if time_limit is None else time_limit - (time.perf_counter() - started)

    def finish(status: str, moves: tuple[M, ...] | None, bound: int, ref: Refutation | None,
               stop: str | None) -> SatPlanResult[M]:
        return SatPlanResult(status, moves, bound, ref, tuple(runs), time.perf_counter() - started, stop)

    def certify(horizon: int) -> Refutation | None:
        """The plain formula of ``horizon`` refuted from scratch with DRUP output (``None``: time ran out)."""
        assert prove is not None
        report: _Report | None = None
        if progress is not None:
            progress(SolverProgress(horizon, 0, 0, len(runs)))
            report = _reporter(progress, horizon, len(runs))
        plain = prove(horizon)
        t0 = time.perf_counter()
        answer = solve_cnf(plain.clauses, remaining(), report)
        if answer is None:
            runs.append(HorizonRun(horizon, None, plain.num_vars, len(plain.clauses), 0, time.perf_counter() - t0))
            return None
        sat_again, _, proof = answer
        runs.append(HorizonRun(horizon, sat_again, plain.num_vars, len(plain.clauses), len(proof or ()),
                               time.perf_counter() - t0))
        if sat_again:
            raise RuntimeError(f"horizon {horizon} refuted under assumptions but satisfiable as a plain CNF")
        return Refutation(horizon, plain.num_vars, plain.clauses, NO_PROOF if proof is None else proof,
                          plain.comments)

    cadical = backend == "sat"
    if progress is not None:
        progress(SolverProgress(first, 0 if cadical else None, None, 0))
    left = remaining()
    steps: Iterator[Any]
    if cadical and left is not None:
        steps = _steps_within(build_open, first, last, step, progress is not None, left)
    else:
        steps = _incremental_steps(build_open, first, last, step, backend, remaining, progress is not None)
    found: tuple[int, tuple[M, ...]] | None = None
    for item in steps:
        if isinstance(item, SolverProgress):
            if progress is not None:
                progress(replace(item, calls=len(runs)))
            continue
        if item is None or (isinstance(item, HorizonRun) and item.satisfiable is None):
            if isinstance(item, HorizonRun):
                runs.append(item)
            return finish("unknown", None, lower, None, "time")
        if isinstance(item, HorizonRun):
            runs.append(item)
            if item.satisfiable is False:
                lower, refuted = item.horizon + 1, item.horizon
                if progress is not None:
                    progress(SolverProgress(lower, 0 if cadical else None, None, len(runs)))
            continue
        found = item
    if found is None:
        if prove is None or not prove_last:
            return finish("unsolvable", None, lower, None, None)
        certificate = certify(last)
        if certificate is None:
            return finish("unknown", None, lower, None, "time")
        return finish("unsolvable", None, lower, certificate, None)
    k, moves = found
    if len(moves) != k and refuted == k - 1:
        raise RuntimeError(f"horizon {k} decoded to a line of {len(moves)} steps after refuting {k - 1}")
    if k > 0 and refuted != k - 1:
        return finish("unknown", moves, lower, None, None)
    refutation = None
    if prove is not None and k > 0:
        refutation = certify(k - 1)
        if refutation is None:
            return finish("unknown", moves, lower, None, "time")
    return finish("solved", moves, len(moves), refutation, None)

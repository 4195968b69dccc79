"""Writing the files a command makes: records as canonical JSON, outputs checked before any work, and
every file written atomically, alone or with the others of one answer.

Records (lines, proofs, analyses) are JSON with sorted keys and no timestamps, so the same input always
gives byte-identical output. A file is written to a temporary file beside its target and renamed into
place, so a reader sees the old file or the new one, never half of one; the files of one answer (a proof
and the CNF and DRUP files it names, a record and its page) go in place together or not at all
(:func:`one_set`). Each output path is checked before the work starts (:func:`check_outputs`), and a
failed write is a full disk (exit 74) or bad input naming the file (:func:`write_error`).

Reading input files, with their limits, is :mod:`stratagem.core.io`.
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import re
import signal
import tempfile
from collections.abc import Callable, Iterator, Sequence
from contextvars import ContextVar
from pathlib import Path
from typing import Any, BinaryIO

from stratagem.core.errors import BadArgument, BadInput, check_termination
from stratagem.core.interrupt import STOPPING, signals_held

#: A lone UTF-16 surrogate: what Python decodes a byte of a file name that is not UTF-8 to (surrogateescape).
_SURROGATE = re.compile("[\ud800-\udfff]")


def utf8(text: str) -> bytes:
    """``text`` as the UTF-8 bytes of a file, a lone surrogate (a byte of a path that is not UTF-8) written as
    its ``\\uXXXX`` escape, which is how JSON spells it and reads it back: strict encoding stopped
    ``solve --proof``, ``--html``, ``export`` and ``sweep --out`` with an internal error (exit 70) on such a
    puzzle path, which the records and pages name."""
    return text.encode("utf-8", "backslashreplace")


def escape_surrogates(text: str) -> str:
    """JSON ``text`` with every lone surrogate written as its ``\\uXXXX`` escape (only string contents can
    hold one). A path that is not UTF-8 (``c\\xff.toml``, read as ``'c\\udcff.toml'``) made a record that
    UTF-8 cannot encode: ``solve --proof`` stopped with an internal error and ``--json`` wrote a byte that
    is not UTF-8. Escaped, the record is UTF-8 and reads back to the same path."""
    return _SURROGATE.sub(lambda match: f"\\u{ord(match.group()):04x}", text)


def dumps_record(record: dict[str, Any]) -> str:
    """The canonical JSON text of a record: sorted keys, two-space indent, trailing newline; non-ASCII
    characters as they are, lone surrogates escaped (:func:`escape_surrogates`)."""
    return escape_surrogates(json.dumps(record, sort_keys=True, indent=2, ensure_ascii=False)) + "\n"


def file_mode() -> int:
    """The permissions an ordinary ``open`` would give a new file: 0o666 less the process umask.

    ``mkstemp`` makes its files private (0o600); a record renamed into place from one would stay so,
    unlike every other file the user writes. (The umask is read by setting and restoring it.)"""
    mask = os.umask(0o022)
    os.umask(mask)
    return 0o666 & ~mask


def _same_file(one: str, other: str) -> bool:
    """Whether two paths name one file: by name, or through another spelling or a link. A path through a
    directory that is not there (``sub/../x`` with no ``sub``) names no file, though it resolves to one."""
    if not (Path(one).parent.is_dir() and Path(other).parent.is_dir()):
        return False
    with contextlib.suppress(OSError):  # a relative path asks for the working directory, which may be gone
        if Path(one).resolve() == Path(other).resolve():
            return True
    with contextlib.suppress(OSError):
        return os.path.samefile(one, other)
    return False


def check_not_an_input(path: str, inputs: Sequence[str], option: str) -> None:
    """Refuse an output path that is one of the command's input files (by name or as the same file through
    another name or a link): writing it would replace what the command reads, before anyone can compare."""
    for given in inputs:
        if _same_file(path, given):
            raise BadInput(path, option, f"is the input file {given}; give another file")


def check_outputs(outputs: Sequence[tuple[str | None, str]], inputs: Sequence[str]) -> None:
    """Refuse, before any work, each output (path, option) that cannot be written (:func:`check_writable`),
    that is one of the ``inputs``, or that another output names too (a ``--proof`` and an ``--html`` of one
    file: the page replaced the proof). ``None`` outputs are not asked for."""
    for number, (path, option) in enumerate(outputs):
        if path is None:
            continue
        check_not_an_input(path, inputs, option)
        for other, other_option in outputs[:number]:
            if other is not None and _same_file(path, other):
                raise BadInput(path, option, f"is also the {other_option} file; give each its own")
        check_writable(path, option)


def check_writable(path: str, option: str, appends: bool = False) -> None:
    """Refuse an output path that cannot be written, before any work is done.

    ``option`` names the command-line option (``--proof``, ``--out``) or the API's parameter (``table``;
    :class:`~stratagem.core.errors.BadArgument`) in the message. The path must be
    a file name (not empty, not a directory), must not be something a rename would clobber (a device,
    a pipe, a symbolic link such as ``/dev/stdout``), and its directory must exist and take a new file:
    that last part is tried for real, with a temporary file removed at once, because permission bits do
    not say whether a file system (``/proc``, a read-only mount) accepts it. ``appends``: the output is
    appended to the file a line at a time (a sweep's results), which the refusal of a pipe says. A file
    no one may write (mode 0444) is refused too: a rename replaces it whatever its mode, so a result kept
    read-only on purpose was silently replaced (and root's permission check passes every file).
    """
    if not path:
        raise BadArgument("<argument>", option, "an empty file name")
    target = Path(path)
    if target.is_dir():
        raise BadArgument(path, option, "is a directory; give a file name")
    if target.is_symlink() or (target.exists() and not target.is_file()):
        how = ("records are appended to it and read back on resume" if appends
               else "the output replaces the file it is written to")
        raise BadArgument(path, option, f"is not a regular file ({how})")
    if target.exists() and not target.stat().st_mode & 0o222:  # the rename would replace it all the same
        raise BadArgument(path, option, "is read-only (no one may write it), and the output would replace it: "
                          "make it writable (chmod u+w) or give another file")
    parent = target.parent
    if not parent.is_dir():
        problem = "is not a directory" if parent.exists() else "does not exist"
        raise BadArgument(path, option, f"cannot write: the directory {str(parent)!r} {problem}")
    if not target.is_absolute() and not working_directory_exists():
        raise BadArgument(path, option, GONE)
    failed = _probe(parent, f".{target.name}.")
    if failed is not None:
        raise BadArgument(path, option, f"cannot create a file in {str(parent)!r} ({failed.strerror or failed})")


#: Why a relative output path cannot be written when the working directory was removed.
GONE = ("cannot write: the current directory no longer exists (it was removed while the shell was in it); "
        "cd to one that does, or give a full path")


def working_directory_exists() -> bool:
    """Whether the working directory is still there: a shell left in a folder that was removed (``rm -r``
    from another window, a test run's temporary folder) can still start commands, and files named relative
    to it can then be neither made nor resolved (``os.getcwd`` fails: an internal error, exit 70)."""
    try:
        os.getcwd()
    except FileNotFoundError:
        return False
    return True


def check_writable_dir(path: str, option: str) -> None:
    """Refuse an output directory that cannot be made or written in, before any work is done.

    The directory may not exist yet (the command makes it); then its nearest existing ancestor must
    take new entries. As in :func:`check_writable`, that is tried with a temporary file."""
    if not path:
        raise BadArgument("<argument>", option, "an empty directory name")
    folder = Path(path)
    if folder.exists() and not folder.is_dir():
        raise BadArgument(path, option, "exists and is not a directory")
    if not folder.is_absolute() and not working_directory_exists():
        raise BadArgument(path, option, GONE)
    existing = folder
    while not existing.exists():
        existing = existing.parent
    if not existing.is_dir():
        raise BadArgument(path, option, f"cannot make the directory: {str(existing)!r} is not a directory")
    failed = _probe(existing, ".stratagem.")
    if failed is not None:
        raise BadArgument(path, option, f"cannot create a file in {str(existing)!r} ({failed.strerror or failed})")


#: The signals that end a run (Ctrl-C, and SIGTERM and SIGHUP, which ``stratagem`` turns into exceptions).
_STOPPING = set(STOPPING)


def _probe(directory: Path, prefix: str) -> OSError | None:
    """Whether ``directory`` takes a new file, tried with a temporary ``PREFIXXXXX.probe`` removed at once;
    the error when it does not. Ctrl-C, SIGTERM and SIGHUP wait until the probe is gone (held back, then raised as
    usual): a signal between its making and its removal left it behind."""
    with _stopping_blocked():
        try:
            fd, probe = tempfile.mkstemp(prefix=prefix, suffix=".probe", dir=directory)
        except OSError as exc:
            return exc
        os.close(fd)
        os.unlink(probe)
        return None


@contextlib.contextmanager
def _stopping_blocked() -> Iterator[None]:
    """Ctrl-C and SIGTERM blocked in this thread for the body; where signals cannot be blocked (Windows has
    no ``pthread_sigmask``: every command that writes a file stopped there with an internal error), their
    handlers are swapped instead (:func:`~stratagem.core.interrupt.signals_held`)."""
    if not hasattr(signal, "pthread_sigmask"):
        with signals_held():
            yield
        return
    held = signal.pthread_sigmask(signal.SIG_BLOCK, _STOPPING)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, held)


def write_atomic(path: str | Path, text: str | bytes) -> None:
    """Write ``text`` (or bytes, such as an image) to ``path``: readers see the old file or the whole new one.

    The text goes to a temporary file ``.NAME.XXXX`` beside ``path``, which then replaces it; if
    anything goes wrong, including an interruption (Ctrl-C, or SIGTERM, which ``stratagem`` turns into
    an exception), the temporary file is removed and ``path`` is untouched. The file gets the usual
    permissions (:func:`file_mode`). A file system error becomes :class:`BadInput` naming ``path``.
    """
    data = utf8(text) if isinstance(text, str) else text
    write_atomic_with(path, lambda handle: handle.write(data))


def write_atomic_with(path: str | Path, fill: Callable[[BinaryIO], object]) -> None:
    """:func:`write_atomic` of what ``fill`` writes to the binary handle it is given (a file too large to
    hold in memory first, such as a value table of millions of rows)."""
    tmp = _temporary_with(path, fill)
    pending = _PENDING.get()
    if pending is not None:  # inside one_set(): put in place with the set's other files
        pending.append((tmp, path))
        return
    try:
        check_termination()
        os.replace(tmp, path)
    except BaseException as exc:
        Path(tmp).unlink(missing_ok=True)
        if isinstance(exc, OSError):
            raise write_error(path, exc) from None
        raise


def write_atomic_files(files: Sequence[tuple[str | Path, str | bytes]]) -> None:
    """Write several files that belong together (a proof record and the CNF and DRUP proof it names by
    their SHA-256, a PDDL domain and its problem, a report's tables and plots) as one: readers see the old
    set or the whole new one.

    Each file's text goes to its own temporary file first (as :func:`write_atomic`); only when every one
    is whole are they renamed into place, in the order given (a record last, after the files it names),
    with Ctrl-C and SIGTERM held back until the last rename. A full disk, a failed write or an interruption
    before then removes every temporary file and leaves every earlier file untouched: writing them one by
    one, a disk that filled up at the second left a new CNF beside the old record, which then failed
    ``verify``. Errors are those of :func:`write_atomic`, naming the file that failed. (A rename that
    fails part way, in a directory that has just taken the temporary files, leaves those before it.)
    """
    with one_set():
        for path, text in files:
            write_atomic(path, text)


#: The files written so far inside :func:`one_set` (temporary name, target), waiting to be put in place.
_PENDING: ContextVar[list[tuple[str, str | Path]] | None] = ContextVar("stratagem_pending_writes", default=None)


@contextlib.contextmanager
def one_set() -> Iterator[None]:
    """Every file written atomically in the body (:func:`write_atomic`, :func:`write_atomic_with`,
    :func:`write_atomic_files`) is written to its temporary file as usual, but put in place only when the
    body ends without an exception: all of them together, with Ctrl-C and SIGTERM held back until the
    last rename. Otherwise none is, and every temporary file is removed.

    For the outputs of one answer written by different code (``solve --proof P --html H``: the library
    writes the record, the command the page): a full disk at the page replaced the proof and left the old
    page beside it (exit 74), where a failed run is to leave every earlier file untouched. Nested, the
    body's files belong to the outer set. The files are not there to be read back inside the body."""
    if _PENDING.get() is not None:
        yield
        return
    pending: list[tuple[str, str | Path]] = []
    token = _PENDING.set(pending)
    try:
        try:
            yield
        finally:
            _PENDING.reset(token)
        check_termination()
        with signals_held():
            while pending:
                tmp, path = pending[0]
                try:
                    os.replace(tmp, path)
                except OSError as exc:
                    raise write_error(path, exc) from None
                pending.pop(0)
    finally:
        for tmp, _ in pending:
            Path(tmp).unlink(missing_ok=True)


def _temporary_with(path: str | Path, fill: Callable[[BinaryIO], object]) -> str:
    """A temporary file ``.NAME.XXXX`` beside ``path`` holding what ``fill`` wrote, with the usual
    permissions (:func:`file_mode`); its name. On any failure it is removed, and an :class:`OSError`
    becomes the error :func:`write_atomic` raises (naming ``path``)."""
    target = Path(path)
    if not target.name:
        raise BadInput(str(path) or "<argument>", "", "not a file name")
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", dir=target.parent)
    except OSError as exc:
        raise write_error(path, exc) from None
    try:
        with os.fdopen(fd, "wb") as handle:
            os.fchmod(handle.fileno(), file_mode())
            fill(handle)
    except BaseException as exc:
        Path(tmp).unlink(missing_ok=True)
        if isinstance(exc, OSError):
            raise write_error(path, exc) from None
        raise
    return tmp


#: The errors of a write that failed for want of room or of a working device: not the input, not a bug
#: (``stratagem`` exits 74, "the output could not be written").
WRITE_FAILURES = (errno.ENOSPC, errno.EDQUOT, errno.EIO, errno.EFBIG)


def write_error(path: str | Path, exc: OSError) -> Exception:
    """What a failed write of ``path`` is: a full disk, a quota or an I/O error stays an :class:`OSError`
    (exit 74), naming the file; any other failure (a folder that is not there, no permission) is
    :class:`BadInput` (exit 2)."""
    if exc.errno in WRITE_FAILURES:
        return OSError(exc.errno, f"{path}: {exc.strerror or exc}")
    return BadInput(str(path), "", f"cannot write: {exc.strerror or exc}")

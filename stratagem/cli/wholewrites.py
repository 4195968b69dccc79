"""Standard output written whole, so that a reader who stops in the middle (``stratagem ... | head``) is
noticed: the console script installs it before any command prints (:func:`stratagem.cli.main.main`).

Kept apart from :mod:`stratagem.cli.output` (which loads rich) so that the entry point stays light.
"""

from __future__ import annotations

import errno
import io
import os
import sys
from typing import Any


class _WholeWrites(io.RawIOBase):
    """Standard output's file descriptor, written whole: a blocking write to a pipe whose reader leaves in
    the middle returns the bytes that went through, and Python's buffered writer then drops the rest
    without a word (``stratagem export ... | head -1`` exited 0). Writing on until all is written makes the
    next write fail with EPIPE, which the CLI reports as exit 141 like any other closed pipe."""

    def __init__(self, fd: int) -> None:
        super().__init__()
        self._fd = fd

    def writable(self) -> bool:
        return True

    def fileno(self) -> int:
        return self._fd

    def isatty(self) -> bool:
        return os.isatty(self._fd)

    def write(self, data: Any) -> int:
        view = memoryview(data).cast("B")
        done = 0
        while done < len(view):
            done += os.write(self._fd, view[done:])
        return done


class _Closed(io.TextIOBase):
    """Standard output when the process was started without one (``>&-``): writing fails as writing to a
    closed descriptor does, so a command that prints is told, and one that prints nothing is not."""

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        raise OSError(errno.EBADF, "standard output is closed")


def write_stdout_whole() -> None:
    """Replace ``sys.stdout`` (the console script's, before any command prints) by a UTF-8 text stream that
    writes LF as LF on every system, over :class:`_WholeWrites`, so that a reader who stops in the middle of
    the output is noticed (or by :class:`_Closed` when there is none). A Windows console is left as it is."""
    current = sys.stdout
    if current is None:
        sys.stdout = _Closed()
        return
    try:
        fd = current.fileno()
    except (AttributeError, OSError, ValueError):  # not a real file (captured, replaced): leave it
        return
    if type(getattr(getattr(current, "buffer", None), "raw", None)).__name__ == "_WindowsConsoleIO":
        # A Windows console, which Python writes to as text (its own Unicode call), not as bytes: there is no
        # reader to leave, and UTF-8 bytes written to its descriptor showed each '·' or '←' as two or three
        # characters of the console's code page
        return
    current.flush()
    # UTF-8 whatever the locale: the output is the same bytes everywhere (records and pages are UTF-8
    # files), where a Latin-1 locale or PYTHONIOENCODING=ascii ended `solve` in an internal error (exit 70)
    # at the first '·' or '←' of its drawing. LF whatever the system: Windows' newline is CR LF, which a
    # text stream writes for each LF unless told otherwise, and `--json > file` is to be the record's bytes
    sys.stdout = io.TextIOWrapper(io.BufferedWriter(_WholeWrites(fd)), encoding="utf-8", newline="\n",
                                  errors=current.errors, line_buffering=bool(current.line_buffering))


__all__ = ["write_stdout_whole"]

"""An interpreter made to look like Windows' to stratagem, for tests on Linux (tests/cli/test_qa65_portability.py).

The project is tested on Linux only; its users also run it on Windows and macOS. :data:`PRELUDE` is run
before stratagem is imported (``python -c PRELUDE + code``) and takes away what a Windows Python 3.11
does not have and stratagem reached for:

- the modules ``fcntl`` and ``resource`` (importing either fails), and a module ``msvcrt`` whose
  ``locking`` (Windows' lock of an open file) is played by ``flock``;
- ``signal.SIGHUP`` and ``signal.pthread_sigmask``;
- ``os.O_NONBLOCK``, ``os.set_blocking`` (Unix only before Python 3.12) and ``os.pread``;
- the 'fork' and 'forkserver' start methods of multiprocessing ('spawn' is the only one), and
  ``subprocess.Popen``'s ``pass_fds``;
- binary descriptors by default: Windows' ``os.open`` makes a text-mode descriptor unless given
  ``os.O_BINARY``, and the C library then writes every LF through it as CR LF and reads CR LF as LF.
  Here ``os.O_BINARY`` exists, and a descriptor opened without it translates so through ``os.write``,
  ``os.read`` and ``os.fdopen``;
- a text stream's newline: ``os.linesep`` is CR LF, and ``io.TextIOWrapper`` and ``open`` (Python's own,
  which read it, where the C ones have Windows' built in) write LF as CR LF unless given ``newline``.

It is a stand-in, not Windows: ``signal.SIGKILL`` stays (the standard library's own POSIX code kills
processes with it), and Windows' other differences (paths, file sharing, consoles) are not imitated.
"""

from __future__ import annotations

PRELUDE = r'''
import os
os.O_BINARY = 0x8000  # before tempfile is imported: tempfile adds it to its flags where it exists
import io, multiprocessing, signal, subprocess, sys, tempfile
import fcntl as _fcntl, types
_msvcrt = types.ModuleType("msvcrt")  # Windows' file lock, played by flock (both are the open file's)
_msvcrt.LK_UNLCK, _msvcrt.LK_NBLCK = 0, 2
def _locking(fd, mode, nbytes):
    try:
        _fcntl.flock(fd, (_fcntl.LOCK_EX | _fcntl.LOCK_NB) if mode == _msvcrt.LK_NBLCK else _fcntl.LOCK_UN)
    except BlockingIOError:
        raise PermissionError(13, "Permission denied") from None
_msvcrt.locking = _locking
sys.modules["msvcrt"] = _msvcrt
for _name in ("fcntl", "resource"):
    sys.modules[_name] = None
for _name in ("SIGHUP", "pthread_sigmask"):
    delattr(signal, _name)
for _name in ("O_NONBLOCK", "set_blocking", "pread"):
    delattr(os, _name)

_real_get_context = multiprocessing.get_context
def _get_context(method=None):
    if method in ("fork", "forkserver"):
        raise ValueError(f"cannot find context for {method!r}")
    return _real_get_context("spawn" if method is None else method)
multiprocessing.get_context = _get_context
multiprocessing.get_all_start_methods = lambda: ["spawn"]
multiprocessing.set_start_method("spawn", force=True)

_real_popen_init = subprocess.Popen.__init__
def _popen_init(self, *args, pass_fds=(), **kwargs):
    assert not pass_fds, "pass_fds not supported on Windows."
    _real_popen_init(self, *args, **kwargs)
subprocess.Popen.__init__ = _popen_init

_TEXT_MODE = set()
_real_open, _real_write, _real_read, _real_fdopen, _real_close = os.open, os.write, os.read, os.fdopen, os.close
def _open(path, flags, mode=0o777, *, dir_fd=None):
    fd = _real_open(path, flags & ~os.O_BINARY, mode, dir_fd=dir_fd)
    if not flags & os.O_BINARY:
        _TEXT_MODE.add(fd)
    return fd
def _write(fd, data):
    if fd in _TEXT_MODE:
        _real_write(fd, bytes(data).replace(b"\n", b"\r\n"))
        return len(data)
    return _real_write(fd, data)
def _read(fd, n):
    data = _real_read(fd, n)
    return data.replace(b"\r\n", b"\n") if fd in _TEXT_MODE else data
def _close(fd):
    _TEXT_MODE.discard(fd)
    _real_close(fd)
class _TextModeFile(io.RawIOBase):
    def __init__(self, fd):
        self.fd = fd
    def readable(self):
        return True
    def writable(self):
        return True
    def readinto(self, buffer):
        data = _read(self.fd, len(buffer))
        buffer[:len(data)] = data
        return len(data)
    def write(self, data):
        return _write(self.fd, data)
    def fileno(self):
        return self.fd
    def close(self):
        if not self.closed:
            _close(self.fd)
        super().close()
def _fdopen(fd, mode="r", buffering=-1, *args, **kwargs):
    if fd in _TEXT_MODE and "b" in mode:
        raw = _TextModeFile(fd)
        return io.BufferedReader(raw) if "r" in mode else io.BufferedWriter(raw)
    return _real_fdopen(fd, mode, buffering, *args, **kwargs)
os.open, os.write, os.read, os.fdopen, os.close = _open, _write, _read, _fdopen, _close

import _pyio, builtins
os.linesep = "\r\n"
# Python's own text streams read os.linesep when they write, as Windows' C ones are built to
io.TextIOWrapper = _pyio.TextIOWrapper
builtins.open = io.open = _pyio.open
'''

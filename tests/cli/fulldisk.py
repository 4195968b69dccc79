"""A full disk, faked: the temporary files stratagem writes its outputs through fail with ENOSPC."""

from __future__ import annotations

import errno
import os
from collections.abc import Callable
from typing import Any

import pytest

from stratagem.core import outputs as core_io


def full_disk_at(monkeypatch: pytest.MonkeyPatch, full: Callable[[int], bool] = lambda count: True) -> None:
    """The disk fills up at the temporary files whose number ``full(count)`` picks (counted from 1 in the
    order they are opened; by default every one): their writes fail with ENOSPC, as on a full disk, and
    the writes before went through."""
    real = os.fdopen
    count = [0]

    class Full:
        def __init__(self, handle: Any) -> None:
            self.handle = handle

        def __enter__(self) -> Full:
            return self

        def __exit__(self, *exc: object) -> None:
            self.handle.close()

        def fileno(self) -> int:
            return int(self.handle.fileno())

        def write(self, data: bytes) -> int:
            raise OSError(errno.ENOSPC, "No space left on device")

        def flush(self) -> None:
            self.handle.flush()

    def fdopen(fd: int, mode: str = "r", *args: Any, **kwargs: Any) -> Any:
        handle = real(fd, mode, *args, **kwargs)
        if "w" not in mode:
            return handle
        count[0] += 1
        return Full(handle) if full(count[0]) else handle

    monkeypatch.setattr(core_io.os, "fdopen", fdopen)

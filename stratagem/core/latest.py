"""A cache of the latest few values by key, for builds that a deadline may stop.

``functools.lru_cache`` would take every argument into its key, a deadline's stop test too, so a value
built under one deadline would never be found under the next; and it offers no way to say that a build
was cut short. :class:`Latest` keys on what the caller names, builds outside its lock (two threads may
build the same value; the last kept wins, and both are equal), and keeps nothing when the build raises,
so a build stopped by the clock leaves no half-made value behind.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Hashable
from typing import Generic, NamedTuple, TypeVar

V = TypeVar("V")


class CacheInfo(NamedTuple):
    """What ``lru_cache``'s ``cache_info`` says that a caller of :class:`Latest` may ask."""

    currsize: int
    maxsize: int


class Latest(Generic[V]):
    """The values of the :attr:`maxsize` keys used last (the least recently used goes first).

    With ``max_bytes``, the values kept also weigh at most that many bytes in all by ``size`` (each value
    weighed once, as it is kept), the least recently used going first; the value used last is always kept,
    whatever it weighs: its caller is using it."""

    def __init__(self, maxsize: int, max_bytes: int | None = None, size: Callable[[V], int] | None = None) -> None:
        if (max_bytes is None) != (size is None):
            raise ValueError("max_bytes and size go together")
        self.maxsize = maxsize
        self.max_bytes = max_bytes
        self._size = size
        self._kept: dict[Hashable, V] = {}
        self._bytes: dict[Hashable, int] = {}
        self._lock = threading.Lock()

    def get(self, key: Hashable, build: Callable[[], V]) -> V:
        """``key``'s value: the kept one, else ``build()``'s, then kept (unless ``build`` raises)."""
        with self._lock:
            value = self._kept.pop(key, None)
            if value is not None:
                self._kept[key] = value  # the latest used goes last
                return value
        value = build()
        weight = 0 if self._size is None else self._size(value)
        with self._lock:
            self._kept.pop(key, None)  # another thread's build of the same key: this one goes last
            self._kept[key] = value
            self._bytes[key] = weight
            while len(self._kept) > self.maxsize or (
                    self.max_bytes is not None and len(self._kept) > 1 and self.kept_bytes() > self.max_bytes):
                oldest = next(iter(self._kept))
                del self._kept[oldest], self._bytes[oldest]
        return value

    def kept_bytes(self) -> int:
        """The weight of the values kept (0 without ``size``)."""
        return sum(self._bytes.values())

    def cache_clear(self) -> None:
        with self._lock:
            self._kept.clear()
            self._bytes.clear()

    def cache_info(self) -> CacheInfo:
        with self._lock:
            return CacheInfo(len(self._kept), self.maxsize)

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
    """The values of the :attr:`maxsize` keys used last (the least recently used goes first)."""

    def __init__(self, maxsize: int) -> None:
        self.maxsize = maxsize
        self._kept: dict[Hashable, V] = {}
        self._lock = threading.Lock()

    def get(self, key: Hashable, build: Callable[[], V]) -> V:
        """``key``'s value: the kept one, else ``build()``'s, then kept (unless ``build`` raises)."""
        with self._lock:
            value = self._kept.pop(key, None)
            if value is not None:
                self._kept[key] = value  # the latest used goes last
                return value
        value = build()
        with self._lock:
            self._kept[key] = value
            while len(self._kept) > self.maxsize:
                del self._kept[next(iter(self._kept))]
        return value

    def cache_clear(self) -> None:
        with self._lock:
            self._kept.clear()

    def cache_info(self) -> CacheInfo:
        with self._lock:
            return CacheInfo(len(self._kept), self.maxsize)

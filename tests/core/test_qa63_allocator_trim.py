"""A library call after which the process is much bigger gives the C allocator's free memory back as it ends
(:mod:`stratagem.core.callcaches`).

glibc keeps the memory a search freed for reuse: after a six-turn Stack Attack ``analyze`` was dropped, the
process stayed 161 MB over its start, most of it free memory the allocator held, until ``malloc_trim(0)``
gave it back (44 MB after, 15 ms of CPU). The last open call now trims when the resident memory is
``callcaches.TRIM_BYTES`` or more above the last measure, and only then; where there is no glibc it changes
nothing.
"""

from __future__ import annotations

import ctypes
import platform
from collections.abc import Iterator
from functools import lru_cache

import pytest

from stratagem.core import callcaches

MB = 1 << 20


@pytest.fixture
def trims(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """The trims asked for (the allocator's own left alone), every call measured, from 100 MB resident."""
    asked: list[int] = []
    monkeypatch.setattr(callcaches, "trim_allocator", lambda: asked.append(1) or True)
    monkeypatch.setattr(callcaches, "MEASURE_SECONDS", 0.0)
    monkeypatch.setattr(callcaches, "_resident_after", 100 * MB)
    yield asked


def _resident(monkeypatch: pytest.MonkeyPatch, *readings: int | None) -> list[int | None]:
    """Make ``resident_bytes`` answer ``readings`` in turn; the list left shows how many were read."""
    left = list(readings)
    monkeypatch.setattr(callcaches, "resident_bytes", lambda: left.pop(0))
    return left


def test_a_call_that_left_the_process_bigger_by_the_threshold_trims_as_it_ends(
        monkeypatch: pytest.MonkeyPatch, trims: list[int]) -> None:
    left = _resident(monkeypatch, 100 * MB + callcaches.TRIM_BYTES, 101 * MB)  # as it ends, after the trim
    with callcaches.call_scope():
        with callcaches.call_scope():  # an inner call's end reads nothing and trims nothing
            pass
        assert trims == [] and len(left) == 2
    assert trims == [1] and left == [] and callcaches._resident_after == 101 * MB
    _resident(monkeypatch, 101 * MB + callcaches.TRIM_BYTES, 100 * MB)  # measured from after the trim
    with callcaches.call_scope():
        pass
    assert trims == [1, 1] and callcaches._resident_after == 100 * MB


def test_a_small_or_short_call_does_not_trim_nor_raise_the_mark(monkeypatch: pytest.MonkeyPatch,
                                                                 trims: list[int]) -> None:
    _resident(monkeypatch, 100 * MB + callcaches.TRIM_BYTES - 1)
    with callcaches.call_scope():
        pass
    assert trims == [] and callcaches._resident_after == 100 * MB  # the mark moves up only with a trim
    _resident(monkeypatch, 100 * MB + callcaches.TRIM_BYTES, 101 * MB)  # piled up over two calls: trimmed
    with callcaches.call_scope():
        pass
    assert trims == [1] and callcaches._resident_after == 101 * MB
    _resident(monkeypatch, 95 * MB)
    with callcaches.call_scope():
        pass
    assert trims == [1] and callcaches._resident_after == 95 * MB  # and down with any measure
    _resident(monkeypatch, None)  # no /proc: nothing known, nothing trimmed
    with callcaches.call_scope():
        pass
    assert trims == [1] and callcaches._resident_after == 95 * MB
    monkeypatch.setattr(callcaches, "MEASURE_SECONDS", 3600.0)
    left = _resident(monkeypatch, 900 * MB)
    with callcaches.call_scope():  # shorter than MEASURE_SECONDS: not even measured
        pass
    assert trims == [1] and left == [900 * MB]


def test_without_glibc_a_big_call_ends_as_before(monkeypatch: pytest.MonkeyPatch) -> None:
    def no_library(name: object) -> None:
        raise OSError(f"no C library {name!r}")

    monkeypatch.setattr(callcaches, "_trim", callcaches._NOT_LOOKED_UP)
    monkeypatch.setattr(ctypes, "CDLL", no_library)
    monkeypatch.setattr(callcaches, "MEASURE_SECONDS", 0.0)
    monkeypatch.setattr(callcaches, "_resident_after", 0)
    _resident(monkeypatch, 10 * callcaches.TRIM_BYTES)

    @callcaches.per_call
    @lru_cache(maxsize=4)
    def double(n: int) -> int:
        return 2 * n

    try:
        with callcaches.call_scope():
            assert double(4) == 8
        assert double.cache_info().currsize == 0  # the caches emptied all the same
        assert callcaches._trim is None and callcaches.trim_allocator() is False
        assert callcaches._resident_after == 10 * callcaches.TRIM_BYTES
    finally:
        callcaches._caches.remove(double)
    monkeypatch.setattr(callcaches, "_trim", callcaches._NOT_LOOKED_UP)

    class NoTrim:  # a C library without malloc_trim (musl, macOS)
        pass

    monkeypatch.setattr(ctypes, "CDLL", lambda name: NoTrim())
    assert callcaches.trim_allocator() is False


@pytest.mark.skipif(platform.system() != "Linux" or platform.libc_ver()[0] != "glibc", reason="glibc only")
def test_on_glibc_the_trim_is_malloc_trim_and_the_size_is_read() -> None:
    assert callcaches.trim_allocator() is True and callcaches._trim is not None
    resident = callcaches.resident_bytes()
    assert resident is not None and resident > MB

"""The compiled searches' scratch arrays kept for the next search are bounded in bytes, not only by shape.

A search's table doubles as it fills, and :func:`~stratagem.core.scratch.release` kept one array of every
size it passed through, so a process that had dropped every result still held them (45 MB after three
Card Clash analyses; a larger search, as much again as its table)."""

from __future__ import annotations

import gc
import weakref

import numpy as np
import pytest

from stratagem.core import scratch as scratch_module
from stratagem.core.scratch import KEEP_BYTES, release, scratch


@pytest.fixture(autouse=True)
def nothing_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    """Start from no kept array (other tests' searches leave some), and leave theirs as they were."""
    monkeypatch.setattr(scratch_module, "_FREE", {})
    monkeypatch.setattr(scratch_module, "_kept_bytes", 0, raising=False)


def test_a_doubling_table_leaves_at_most_the_budget_kept() -> None:
    shapes = [(4096 << i, 80) for i in range(5)]  # 2.6, 5.2, 10.5, 21 and 42 MB: a table that doubled four times
    made = [scratch(shape) for shape in shapes]
    alive = [weakref.ref(array) for array in made]
    release(made)
    del made
    gc.collect()
    kept = [ref() for ref in alive if ref() is not None]
    assert sum(array.nbytes for array in kept) <= KEEP_BYTES
    # the arrays handed back last are the ones kept, within the budget; the 42 MB one is over it
    assert [array.shape for array in kept] == [(16384, 80), (32768, 80)]
    assert scratch_module.kept_bytes() == sum(array.nbytes for array in kept)


def test_a_kept_array_is_handed_out_again_and_no_longer_counted() -> None:
    first = scratch((300, 1000))
    release([first])
    assert scratch_module.kept_bytes() == first.nbytes
    assert scratch((300, 1000)) is first
    assert scratch_module.kept_bytes() == 0
    assert scratch((300, 1000)) is not first  # taken: a fresh one


def test_at_most_keep_arrays_of_a_shape() -> None:
    arrays = [scratch((10, 10), np.int64) for _ in range(scratch_module.KEEP + 1)]
    release(arrays)
    assert scratch_module.kept_bytes() == scratch_module.KEEP * arrays[0].nbytes

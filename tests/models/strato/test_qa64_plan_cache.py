"""The hidden-information kernel's memory: its plan cache grows as it fills, and what it remembers never
changes an answer; its move buffers are resident only where written.

The cache (``HiddenSolo._plan_here``) starts at ``PLAN_FIRST_SLOTS`` slots and grows fourfold, emptied, each
time half its slots are filled, up to ``PLAN_SLOTS``; at that size a slot is overwritten. It began at its
full size, 2^20 slots, which made every pass of ``odds_interval`` fault in about 20 MB however small the
search (it keeps each pass's kernel). The kernel run interpreted, with a cache of 2 slots growing to 32,
gives the compiled kernel's values and states on the tiny positions, through growths and overwrites.
"""

from __future__ import annotations

import mmap

import numpy as np

from stratagem.models.strato.hidden.exact import PLAN_PLAYS, Solver
from stratagem.models.strato.hidden.game import HiddenStrato, format_hidden
from tests.models.strato.support import puzzle_challenge
from tests.models.strato.test_odds_kernel import OPTIONS, interpreted_kernel, tiny_positions


def test_a_small_growing_plan_cache_gives_the_compiled_values_and_states() -> None:
    interpreted = interpreted_kernel()
    interpreted.PLAN_FIRST_SLOTS, interpreted.PLAN_SLOTS = 2, 32
    sizes = []
    for name, state in tiny_positions()[:16]:
        game = HiddenStrato(puzzle_challenge(name), OPTIONS, state)
        compiled, small = Solver(game), Solver(game)
        small.kernel = interpreted.HiddenSolo(*small.kernel_args)
        small.kernel.set_plan(PLAN_PLAYS)
        assert small.solve().value == compiled.solve().value, format_hidden(state)
        assert small.kernel.stats()[0] == compiled.kernel.stats()[0], format_hidden(state)
        sizes.append((small.kernel.pc_vals.shape[0], small.kernel.pc_filled))
    assert max(size for size, _ in sizes) == 32  # grew to its cap ...
    assert any(size == 32 and filled > 16 for size, filled in sizes)  # ... and went on filling it there



def test_a_kernels_move_buffers_are_maps_of_their_own() -> None:
    """A kernel's move buffers (160 decisions of 2,048 rows: 31.5 MB of moves, more of states) are zeroed
    pages of their own (an anonymous map), resident only where a search writes them. ``np.zeros`` made them
    with ``calloc``, which zeroes page by page a block the heap serves again (glibc serves blocks of up to
    32 MB from the heap once large blocks have been freed): each kernel then held 37 MB resident, and
    test_odds_kernel's process reached 3.9-4.5 GB (857 MB now)."""
    interpreted = interpreted_kernel()
    name, state = tiny_positions()[0]
    solver = Solver(HiddenStrato(puzzle_challenge(name), OPTIONS, state))
    kernel = interpreted.HiddenSolo(*solver.kernel_args)
    for buffer in (kernel.np_states, kernel.np_moves, kernel.order, kernel.okey):
        base = buffer
        while isinstance(base, np.ndarray) and base.base is not None:
            base = base.base
        if isinstance(base, memoryview):
            base = base.obj
        assert isinstance(base, mmap.mmap) and not buffer.any()
    assert kernel.np_moves.shape == (interpreted.MAX_DECISIONS, interpreted.MAX_BRANCH, 12)

"""A* over packed Strato states, compiled (:mod:`search_kernel`, Cython): the same search as
``solvers.search.astar`` on :class:`~stratagem.models.strato.search.planning.StratoPlanning`, with far more
expansions per CPU second (results/strato-compiled.md and ``scripts/strato_compiled.py`` measure both).

The kernel (:func:`search_kernel.astar_run`) expands states in slices of :data:`SLICE` expansions, so
that the deadline and ``max_nodes`` are checked and progress is shown between slices (the clock is
read here, in Python; a slice takes a few milliseconds, and signals are handled between slices). The
heuristic is the larger of :mod:`heuristic`'s bound (the kernel's port of it) and, when a relaxation
bound of the start was computed, the relaxation's: for each goal row, the relaxed distance from the
start's image to a goal less the relaxed distance from the start's image to the state's image (the
triangle inequality in the relaxed graph; a relaxed layer recorded too deep only lowers it, and a
state not reached by the pruned relaxed search gets 0), combined over the goal rows as the bound
combines them. Both are admissible, so the search is optimal; its optimality claim is an exhaustive
search, never a certificate.

The open list is ordered by lowest ``f``, then deepest ``g`` (states on the ``f`` plateau nearest a
goal first), then the order states were first stored. Lost states are not stored. The line is
rebuilt through the rules engine: for each stored step, the engine's move that leads to the stored
state (a missing one would be a bug in the kernel, and raises).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence

import numpy as np

from stratagem.core.deadline import Deadline
from stratagem.models.strato.rules.notation import Move
from stratagem.models.strato.rules.position import WON, State
from stratagem.models.strato.rules.turns import StratoGame
from stratagem.models.strato.search import search_kernel as kernel
from stratagem.models.strato.search.packed import NUMBER, Packing, blank_last
from stratagem.models.strato.search.planning import StratoPlanning
from stratagem.models.strato.search.relaxation import RelaxationBound, RowRelaxation, image
from stratagem.models.strato.search.search_kernel import Relax
from stratagem.solvers.search import SOLVED, UNKNOWN, UNSOLVABLE, SearchResult, SearchStats

#: Expansions per call of the kernel between two readings of the clock (a few milliseconds).
SLICE = 256

#: States the search may store before it stops (``stopped_by`` "nodes"): about 60 bytes each, so at
#: most some 2 GB with the hash table.
MAX_STORED = 30_000_000


def relaxation_coding(relaxations: Sequence[RowRelaxation]) -> tuple[np.ndarray, np.ndarray]:
    """How the kernels code a table's image in each relaxation (as :func:`relaxation.image` does): the class
    of each weather (a row a relaxation, six columns in letter order, -1 for a weather it does not class) and
    the code of the first half-row of each length (``relaxation_kernel.half_offsets``, padded)."""
    from stratagem.models.strato.search.relaxation_kernel import half_offsets

    index = np.full((max(len(relaxations), 1), 6), -1, np.int64)
    offsets = np.zeros((max(len(relaxations), 1), 12), np.int64)
    for i, rel in enumerate(relaxations):
        for c, cls in enumerate(rel.classes):
            for weather in cls:
                index[i, NUMBER[weather]] = c
        offs = half_offsets(rel.k, rel.limit)
        offsets[i, : len(offs)] = offs
    return index, offsets


def relaxation_arrays(packing: Packing, bound: RelaxationBound | None) -> Relax:
    """The relaxation bound's searches as the kernel's ``relax`` argument (no rows: no relaxed term)."""
    searches = [] if bound is None or bound.stopped else list(bound.rows)
    n = len(searches)
    k = np.ones(max(n, 1), np.int64)
    goal_row = np.zeros(max(n, 1), np.int64)
    index, offsets = relaxation_coding([search.relaxation for search in searches])
    half_rows = np.ones(max(n, 1), np.int64)
    n_ends = np.zeros(max(n, 1), np.int64)
    end_base = np.ones(max(n, 1), np.int64)
    distance = np.full(max(n, 1), -1, np.int64)
    layer_start = np.zeros(max(n, 1), np.int64)
    parts = []
    at = 0
    for i, search in enumerate(searches):
        rel = search.relaxation
        goal_row[i] = rel.row
        k[i] = rel.k
        half_rows[i] = rel.half_rows
        n_ends[i] = rel.n_ends
        end_base[i] = rel.end_base
        usable = search.exact and search.distance is not None and search.start >= 0
        if search.distance is None:
            distance[i] = -1  # never: the row can never meet the goal
        elif usable:
            distance[i] = search.distance
        else:
            distance[i] = 0  # no relaxed information: contributes 0
        if usable:
            # the start's image must be where the kernel computes it
            assert image(rel, packing.rows_on_table) >= 0
            layer_start[i] = at
            parts.append(np.asarray(search.layers, np.int8))
            at += search.layers.shape[0]
    layers = np.concatenate(parts) if parts else np.full(1, -1, np.int8)
    if n and bound is not None:
        from itertools import combinations

        combos = np.array(list(combinations(range(n), bound.rows[0].challenge.rows_required)), np.int64)
        combos = combos.reshape(-1, bound.rows[0].challenge.rows_required)
        combine_max = bound.combine == "max"
    else:
        combos = np.zeros((0, 1), np.int64)
        combine_max = False
    return Relax(n, goal_row, index, k, offsets, half_rows, n_ends, end_base, distance, layers, layer_start,
                 combine_max, 0, combos)


def compiled_astar(game: StratoGame, *, time_limit: float | None = None, max_nodes: int | None = None,
                   progress: Callable[[int, int], None] | None = None, relaxation: RelaxationBound | None = None,
                   max_stored: int = MAX_STORED) -> SearchResult[State, Move]:
    """A* from ``game``'s start over :class:`StratoPlanning`'s states (see the module docstring), with
    the result type and limits of ``solvers.search.astar``. ``relaxation`` must be a bound of the start."""
    deadline = Deadline(time_limit)
    started = time.perf_counter()
    planning = StratoPlanning(game)
    packing = Packing(game, blank_last=blank_last(game))
    relax = relaxation_arrays(packing, relaxation)
    start = packing.vector(planning.start())
    arrays = kernel.astar_start(start, packing.spec, relax, 1 << 16)
    expanded = 0
    last_bound = -1
    stopped: str | None = None
    while True:
        budget = SLICE
        if max_nodes is not None:
            budget = min(budget, max(0, max_nodes - expanded))
        if deadline.expired():
            stopped = "time"
            break
        keys, g, h, parent, table, heap, counters = arrays
        arrays = kernel.astar_run(keys, g, h, parent, table, heap, counters, packing.spec, relax, budget, max_stored)
        counters = arrays[6]
        expanded = int(counters[2])
        if progress is not None and int(counters[4]) != last_bound:
            last_bound = int(counters[4])
            progress(last_bound, expanded)
        status = int(counters[5])
        if status != kernel.RUNNING:
            if status == kernel.FULL:
                stopped = "nodes"
            break
        if max_nodes is not None and expanded >= max_nodes:
            stopped = "nodes"
            break
    keys, g, _, parent, _, _, counters = arrays
    n_nodes = int(counters[0])
    per_g = np.bincount(g[:n_nodes]).tolist() if n_nodes else []
    stats = SearchStats(int(counters[2]), int(counters[3]), time.perf_counter() - started, tuple(per_g))
    bound = int(counters[4])
    status = int(counters[5])
    if status == kernel.SOLVED:
        node = int(counters[6])
        chain = []
        while node >= 0:
            chain.append(packing.key_state(keys[node]))
            node = int(parent[node])
        chain.reverse()
        chain[-1] = chain[-1]._replace(status=WON)  # keys hold the result "ongoing" (search_kernel.astar_run)
        moves = _line(planning, chain)
        return SearchResult("astar", SOLVED, moves, len(moves), stats, None)
    if status == kernel.EXHAUSTED:
        return SearchResult("astar", UNSOLVABLE, None, bound, stats, None)
    return SearchResult("astar", UNKNOWN, None, bound, stats, stopped or "nodes")


def _line(planning: StratoPlanning, chain: list[State]) -> tuple[Move, ...]:
    """The moves between the stored states, found by the rules engine (the first in its order)."""
    moves = []
    for here, there in zip(chain, chain[1:], strict=False):
        for move, after in planning.successors(here):
            if after == there:
                moves.append(move)
                break
        else:
            raise RuntimeError(f"the compiled search stored a step the rules do not allow: {here} -> {there}")
    return tuple(moves)

"""Optimal search over a :class:`~stratagem.core.game.SearchProblem` with unit step costs.

Three searches share one result type so that callers (the CLI, the proof writers, the tests) can
swap them freely:

* :func:`bfs` -- breadth-first, goal test at generation time. Needs no heuristic and records how
  many distinct states lie at each depth, which is the evidence printed when a puzzle turns out to
  have no solution at all.
* :func:`astar` -- A* on ``f = g + h``. Re-opens a state reached again with a smaller ``g``, so it
  stays optimal with a heuristic that is admissible but not consistent.
* :func:`idastar` -- iterative deepening on ``f``, with a per-iteration table of the best ``g``
  seen for each state so that transpositions are not searched twice.

Every search is deterministic: successors are taken in the order the problem gives them, ties are
broken by insertion order, and nothing is chosen by iterating over a set of states, so the same
problem gives the same move line on every run and under every ``PYTHONHASHSEED``.

Every search can be stopped by a wall-clock ``time_limit`` (seconds) or by ``max_nodes`` (number of
expansions, i.e. states whose successors were generated). A stopped search returns status
``"unknown"`` together with the lower bound on the optimal length it had proven by then, so a long
run that is cut off still yields a result that can be reported honestly.

The module knows nothing about any particular game.
"""

from __future__ import annotations

import heapq
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any, Generic

from stratagem.core.collector import no_cycle_collection
from stratagem.core.errors import StratagemError
from stratagem.core.game import M, S, SearchProblem

__all__ = [
    "SearchIncomplete",
    "SearchResult",
    "SearchStats",
    "astar",
    "bfs",
    "distance",
    "greedy",
    "idastar",
    "with_start",
]

#: Status of a search that found a goal; ``moves`` is an optimal line.
SOLVED = "solved"
#: Status of a search that exhausted every reachable state without meeting a goal.
UNSOLVABLE = "unsolvable"
#: Status of a greedy search that found a line it does not claim is shortest.
FOUND = "found"
#: Status of a search stopped by a limit before it could decide.
UNKNOWN = "unknown"

#: The clock is read once per this many expansions. One: an expansion generates and scores every
#: successor (on a Strato deal with several rows, a millisecond or more), so reading the clock (tens of
#: nanoseconds) each time costs nothing measurable, while once per 256 let a 2-second limit overrun by
#: seconds.
_CLOCK_EVERY = 1
#: ``progress`` is called at least once per this many expansions (as well as at each new bound).
_PROGRESS_EVERY = 4096

#: Progress callback: ``(bound_or_depth, expanded)``.
Progress = Callable[[int, int], None]


@dataclass(frozen=True)
class SearchStats:
    """Effort spent by one search.

    ``expanded`` counts states whose successors were generated; ``generated`` counts (move, state)
    pairs received from :meth:`SearchProblem.successors`, duplicates included; ``seconds`` is wall
    time.

    ``states_per_depth`` depends on the method:

    * ``bfs``: entry ``d`` is the number of distinct states first reached at depth ``d`` (the start
      is the one state at depth 0). When the status is ``"unsolvable"`` the tuple covers every
      reachable state, so its sum is the size of the reachable space -- the proof that it was
      exhausted. When solved, the last entry counts the states of the goal's depth generated before
      the goal was met; when stopped by a limit, the last entry counts the partly generated layer.
    * ``astar``: entry ``g`` is the number of distinct states whose best known distance from the
      start is ``g`` when the search ends. After exhausting the space these are the true distances,
      so the tuple then equals the one ``bfs`` reports.
    * ``idastar``: always empty; IDA* keeps no lasting record of the states it visits.
    """

    expanded: int
    generated: int
    seconds: float
    states_per_depth: tuple[int, ...]


@dataclass(frozen=True)
class SearchResult(Generic[S, M]):
    """Outcome of one search.

    ``method`` is ``"bfs"``, ``"astar"`` or ``"idastar"``; ``status`` is ``"solved"``,
    ``"unsolvable"`` or ``"unknown"``.

    ``moves`` is an optimal line from the start to a goal when solved, and ``None`` otherwise.

    ``lower_bound`` is a proven lower bound on the optimal number of moves:

    * solved: ``len(moves)``;
    * unknown: what the search had established when it stopped -- for ``bfs`` the deepest layer
      fully checked plus one, for ``astar`` the largest ``f`` it had seen at the front of the open
      list, for ``idastar`` the threshold of the iteration in progress (every smaller threshold was
      searched through without a goal);
    * unsolvable: the same quantity as for unknown, taken when the space ran out. No line of any
      length exists, so any number is a valid bound; this one records how deep the search got.

    ``stopped_by`` is ``None`` unless a limit stopped the search: then ``"time"``, ``"nodes"`` (expansions)
    or ``"states"`` (states held, :func:`astar`'s ``max_states``).
    """

    method: str
    status: str
    moves: tuple[M, ...] | None
    lower_bound: int
    stats: SearchStats
    stopped_by: str | None


class SearchIncomplete(StratagemError):
    """A search that had to finish (such as :func:`distance`) was stopped by a limit first."""

    def __init__(self, result: SearchResult[Any, Any]) -> None:
        self.result = result
        super().__init__(
            f"{result.method} stopped by its {result.stopped_by} limit after "
            f"{result.stats.expanded} expansions; optimal length is at least {result.lower_bound}"
        )


class _Budget:
    """The time and node limits of one search, checked cheaply before each expansion."""

    def __init__(self, time_limit: float | None, max_nodes: int | None) -> None:
        self.started = time.perf_counter()
        self.time_limit = time_limit
        self.max_nodes = max_nodes

    def stop_reason(self, expanded: int) -> str | None:
        """``"nodes"`` or ``"time"`` if the next expansion (number ``expanded + 1``) must not happen.

        The clock is only read when ``expanded`` is a multiple of :data:`_CLOCK_EVERY` (including
        0, so a limit of zero seconds stops before any work).
        """
        if self.max_nodes is not None and expanded >= self.max_nodes:
            return "nodes"
        if (
            self.time_limit is not None
            and expanded % _CLOCK_EVERY == 0
            and time.perf_counter() - self.started >= self.time_limit
        ):
            return "time"
        return None

    def elapsed(self) -> float:
        """Seconds since the search began."""
        return time.perf_counter() - self.started


def _line(parent_of: Callable[[S], tuple[S, M] | None], goal: S) -> tuple[M, ...]:
    """The moves from the start to ``goal``, by following parent pointers back to the start."""
    moves: list[M] = []
    step = parent_of(goal)
    while step is not None:
        parent, move = step
        moves.append(move)
        step = parent_of(parent)
    moves.reverse()
    return tuple(moves)


def bfs(
    problem: SearchProblem[S, M],
    *,
    time_limit: float | None = None,
    max_nodes: int | None = None,
    progress: Progress | None = None,
) -> SearchResult[S, M]:
    """Breadth-first search for a shortest line from ``problem.start()`` to a goal.

    The search goes layer by layer and tests each state for the goal as soon as it is first
    generated (the start included), so a goal at depth ``d`` is found after expanding only part of
    layer ``d - 1``. Each state is stored once, with its parent and the move that reached it.

    ``progress(depth, expanded)`` is called when the expansion of each layer begins and every few
    thousand expansions.
    """
    budget = _Budget(time_limit, max_nodes)
    expanded = 0
    generated = 0
    start = problem.start()
    parents: dict[S, tuple[S, M] | None] = {start: None}
    counts = [1]

    def result(status: str, moves: tuple[M, ...] | None, bound: int, stop: str | None) -> SearchResult[S, M]:
        layers = list(counts)
        while layers and layers[-1] == 0:
            layers.pop()
        stats = SearchStats(expanded, generated, budget.elapsed(), tuple(layers))
        return SearchResult("bfs", status, moves, bound, stats, stop)

    if problem.is_goal(start):
        return result(SOLVED, (), 0, None)

    layer = [start]
    depth = 0
    while layer:
        # Every state at depth <= ``depth`` is known and none is a goal.
        if progress is not None:
            progress(depth, expanded)
        counts.append(0)
        following: list[S] = []
        for state in layer:
            stop = budget.stop_reason(expanded)
            if stop is not None:
                return result(UNKNOWN, None, depth + 1, stop)
            expanded += 1
            if progress is not None and expanded % _PROGRESS_EVERY == 0:
                progress(depth, expanded)
            for move, child in problem.successors(state):
                generated += 1
                if child in parents:
                    continue
                parents[child] = (state, move)
                counts[-1] += 1
                if problem.is_goal(child):
                    return result(SOLVED, _line(parents.__getitem__, child), depth + 1, None)
                following.append(child)
        layer = following
        depth += 1
    # The last layer was expanded and produced nothing new: every reachable state has been seen.
    return result(UNSOLVABLE, None, depth, None)


def astar(
    problem: SearchProblem[S, M],
    *,
    time_limit: float | None = None,
    max_nodes: int | None = None,
    progress: Progress | None = None,
    max_states: int | None = None,
) -> SearchResult[S, M]:
    """A* search on ``f = g + h`` for a shortest line from ``problem.start()`` to a goal.

    The open list is ordered by ``(f, -g, insertion number)``: lowest ``f`` first, then the deepest
    state (it is likely nearer a goal), then first in first out, which makes the order total and
    independent of how states hash or compare. The goal test is made when a state is taken off the
    open list, as optimality requires.

    A state reached again with a smaller ``g`` gets its new ``g`` and parent and is put on the open
    list again, even if it was already expanded; its old entry is skipped when it surfaces. That
    keeps the result optimal with any admissible heuristic, consistent or not. Each state is stored
    once in the table of best ``g`` and parent.

    ``progress(f, expanded)`` is called when the largest ``f`` taken from the open list grows and
    every few thousand expansions.

    ``max_states`` caps the states held (the table of best ``g``), where ``max_nodes`` caps expansions: a
    problem of wide branching holds far more states than it expands. The search stops (``"states"``) before
    it would hold one more, in the middle of an expansion if need be; the bound it reports stands (each ``f``
    in it was the least on the open list when taken).

    The cycle collector is off while it searches (:func:`~stratagem.core.collector.no_cycle_collection`):
    its table and open list are tuples that refer down, yet the collector's passes walked them: A* on the level-2
    example's designer layout (stopped at 200,000 layouts) spent 3.3 of its 24.6 CPU s in them, 0.2 of 23.0
    with it off (medians of 3, old and new alternated, load 3.7-4.5).
    """
    with no_cycle_collection():
        return _astar(problem, time_limit, max_nodes, progress, max_states)


def _astar(problem: SearchProblem[S, M], time_limit: float | None, max_nodes: int | None,
           progress: Progress | None, max_states: int | None) -> SearchResult[S, M]:
    """:func:`astar`, with the cycle collector off."""
    budget = _Budget(time_limit, max_nodes)
    expanded = 0
    generated = 0
    start = problem.start()
    # state -> (best g known, (parent, move) or None for the start)
    best: dict[S, tuple[int, tuple[S, M] | None]] = {start: (0, None)}
    counter = 0
    start_f = problem.heuristic(start)
    open_list: list[tuple[int, int, int, S]] = [(start_f, 0, counter, start)]
    # At every moment the smallest f on the open list is at most the optimal length (there is an
    # open state on an optimal line with its true g), so the largest such minimum seen is a bound.
    bound = start_f
    if progress is not None:
        progress(bound, expanded)

    def parent_of(state: S) -> tuple[S, M] | None:
        return best[state][1]

    def result(status: str, moves: tuple[M, ...] | None, lower: int, stop: str | None) -> SearchResult[S, M]:
        per_g: list[int] = []
        for g, _ in best.values():
            if g >= len(per_g):
                per_g.extend([0] * (g + 1 - len(per_g)))
            per_g[g] += 1
        stats = SearchStats(expanded, generated, budget.elapsed(), tuple(per_g))
        return SearchResult("astar", status, moves, lower, stats, stop)

    while open_list:
        f, neg_g, _, state = open_list[0]
        g = -neg_g
        if best[state][0] != g:
            heapq.heappop(open_list)  # superseded by an entry with a smaller g
            continue
        if problem.is_goal(state):
            return result(SOLVED, _line(parent_of, state), g, None)
        if f > bound:
            bound = f
            if progress is not None:
                progress(bound, expanded)
        stop = budget.stop_reason(expanded)
        if stop is not None:
            return result(UNKNOWN, None, bound, stop)
        heapq.heappop(open_list)
        expanded += 1
        if progress is not None and expanded % _PROGRESS_EVERY == 0:
            progress(bound, expanded)
        child_g = g + 1
        for move, child in problem.successors(state):
            generated += 1
            known = best.get(child)
            if known is not None and known[0] <= child_g:
                continue
            if known is None and max_states is not None and len(best) >= max_states:
                return result(UNKNOWN, None, bound, "states")
            best[child] = (child_g, (state, move))
            counter += 1
            heapq.heappush(open_list, (child_g + problem.heuristic(child), -child_g, counter, child))
    return result(UNSOLVABLE, None, bound, None)


def idastar(
    problem: SearchProblem[S, M],
    *,
    time_limit: float | None = None,
    max_nodes: int | None = None,
    progress: Progress | None = None,
) -> SearchResult[S, M]:
    """IDA*: depth-first searches bounded by ``f = g + h``, raising the bound until a goal is met.

    The first threshold is ``h(start)``. Within one iteration a table keeps the smallest ``g`` at
    which each state was visited, and a state reached again with a ``g`` no smaller is pruned before
    anything else: the earlier visit already searched below it with at least as much room. A state
    whose ``f`` exceeds the threshold is cut off, and the next threshold is the smallest ``f`` among
    the cut-off states that were not visited later in the same iteration with a ``g`` at most the
    one they were cut at (those were searched below after all). So no threshold ever passes the
    optimal length, and the first goal met is optimal.

    If no cut-off state remains unvisited in that sense, every reachable state was visited and the
    puzzle has no solution. Counting every cut-off instead would keep raising the threshold until it
    exceeded the longest cycle-free detour the depth-first order happens to take, which on a
    finite space can take many times more iterations.

    The depth-first search keeps an explicit stack, so deep lines do not hit Python's recursion
    limit. ``max_nodes`` counts expansions over all iterations together.

    ``progress(threshold, expanded)`` is called at the start of each iteration and every few
    thousand expansions.
    """
    budget = _Budget(time_limit, max_nodes)
    expanded = 0
    generated = 0
    start = problem.start()

    def result(status: str, moves: tuple[M, ...] | None, lower: int, stop: str | None) -> SearchResult[S, M]:
        stats = SearchStats(expanded, generated, budget.elapsed(), ())
        return SearchResult("idastar", status, moves, lower, stats, stop)

    if problem.is_goal(start):
        return result(SOLVED, (), 0, None)

    threshold = problem.heuristic(start)
    while True:
        # No line shorter than ``threshold`` exists (earlier iterations searched them all).
        if progress is not None:
            progress(threshold, expanded)
        best_g: dict[S, int] = {start: 0}
        # state -> (smallest g at which the threshold cut it off in this iteration, f there)
        cut: dict[S, tuple[int, int]] = {}
        path: list[M] = []
        stop = budget.stop_reason(expanded)
        if stop is not None:
            return result(UNKNOWN, None, threshold, stop)
        expanded += 1
        stack: list[tuple[int, Iterator[tuple[M, S]]]] = [(0, iter(problem.successors(start)))]
        while stack:
            g, successors = stack[-1]
            step = next(successors, None)
            if step is None:
                stack.pop()
                if stack:  # the frame left was not the root's, so a move leads to it
                    path.pop()
                continue
            generated += 1
            move, child = step
            child_g = g + 1
            seen = best_g.get(child)
            if seen is not None and seen <= child_g:
                continue
            f = child_g + problem.heuristic(child)
            if f > threshold:
                earlier = cut.get(child)
                if earlier is None or child_g < earlier[0]:
                    cut[child] = (child_g, f)
                continue
            best_g[child] = child_g
            path.append(move)
            if problem.is_goal(child):
                return result(SOLVED, tuple(path), child_g, None)
            stop = budget.stop_reason(expanded)
            if stop is not None:
                return result(UNKNOWN, None, threshold, stop)
            expanded += 1
            if progress is not None and expanded % _PROGRESS_EVERY == 0:
                progress(threshold, expanded)
            stack.append((child_g, iter(problem.successors(child))))
        # A cut-off state later visited with a g no larger was searched below after all; only the
        # others would gain from a higher threshold.
        pending = [f for state, (g, f) in cut.items() if best_g.get(state, g + 1) > g]
        if not pending:
            return result(UNSOLVABLE, None, threshold, None)
        threshold = min(pending)


class _FromState(Generic[S, M]):
    """``problem`` with its start replaced by ``state``; everything else is delegated."""

    def __init__(self, problem: SearchProblem[S, M], state: S) -> None:
        self._problem = problem
        self._state = state

    def start(self) -> S:
        return self._state

    def successors(self, state: S) -> Iterable[tuple[M, S]]:
        return self._problem.successors(state)

    def is_goal(self, state: S) -> bool:
        return self._problem.is_goal(state)

    def heuristic(self, state: S) -> int:
        return self._problem.heuristic(state)


def greedy(
    problem: SearchProblem[S, M],
    *,
    time_limit: float | None = None,
    max_nodes: int | None = None,
    progress: Progress | None = None,
) -> SearchResult[S, M]:
    """Greedy best-first search: *some* line to a goal, fast, with no claim that it is shortest.

    The open list is ordered by ``(h, g, insertion number)``; each state is expanded at most once.
    Used as the anytime fallback when an optimal search is stopped by a limit, so that the user gets
    the best line found so far next to the proven lower bound. Status ``"found"`` carries a line that
    is not known to be optimal; ``"unsolvable"`` means the reachable space ran out (a full search).
    """
    budget = _Budget(time_limit, max_nodes)
    expanded = generated = 0
    start = problem.start()
    parent: dict[S, tuple[S, M] | None] = {start: None}
    counter = 0
    open_list: list[tuple[int, int, int, S]] = [(problem.heuristic(start), 0, counter, start)]

    def result(status: str, moves: tuple[M, ...] | None, stop: str | None) -> SearchResult[S, M]:
        stats = SearchStats(expanded, generated, budget.elapsed(), ())
        return SearchResult("greedy", status, moves, 0, stats, stop)

    while open_list:
        _, g, _, state = heapq.heappop(open_list)
        if problem.is_goal(state):
            return result(FOUND, _line(parent.__getitem__, state), None)
        stop = budget.stop_reason(expanded)
        if stop is not None:
            return result(UNKNOWN, None, stop)
        expanded += 1
        if progress is not None and expanded % _PROGRESS_EVERY == 0:
            progress(g, expanded)
        for move, child in problem.successors(state):
            generated += 1
            if child in parent:
                continue
            parent[child] = (state, move)
            counter += 1
            heapq.heappush(open_list, (problem.heuristic(child), g + 1, counter, child))
    return result(UNSOLVABLE, None, None)


def with_start(problem: SearchProblem[S, M], state: S) -> SearchProblem[S, M]:
    """The same puzzle searched from ``state`` instead of ``problem.start()``.

    Used to measure true distances from arbitrary states, e.g. to check that a heuristic never
    overestimates them.
    """
    return _FromState(problem, state)


def distance(
    problem: SearchProblem[S, M],
    state: S,
    *,
    time_limit: float | None = None,
    max_nodes: int | None = None,
) -> int | None:
    """Length of a shortest line from ``state`` to a goal (found by :func:`bfs`), or ``None`` if none.

    Raises :class:`SearchIncomplete` if a limit stops the search before it decides.
    """
    found = bfs(with_start(problem, state), time_limit=time_limit, max_nodes=max_nodes)
    if found.status == SOLVED:
        assert found.moves is not None
        return len(found.moves)
    if found.status == UNSOLVABLE:
        return None
    raise SearchIncomplete(found)

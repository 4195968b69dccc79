"""Tests of the game-agnostic optimal searches on toy puzzles defined here.

The toy puzzles are small enough that the truth is known independently: reachable sets are
flood-filled with plain Python sets, true distances come from a reverse breadth-first search, and
the 2x3 sliding puzzle has exactly 360 reachable positions from any start.
"""

from __future__ import annotations

import random
import subprocess
import sys
import textwrap
import time
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from stratagem.core.game import SearchProblem
from stratagem.solvers.search import (
    SearchIncomplete,
    SearchResult,
    astar,
    bfs,
    distance,
    idastar,
    with_start,
)

Search = Callable[..., SearchResult[Any, str]]
Puzzle = SearchProblem[Any, str]
METHODS: dict[str, Search] = {"bfs": bfs, "astar": astar, "idastar": idastar}
REPO = Path(__file__).resolve().parents[2]


# --- toy puzzles ---------------------------------------------------------------------------------


@dataclass
class IntPuzzle:
    """From ``begin`` reach ``target`` with moves among "+1", "*2", "-3", "+3", staying in 0..limit."""

    begin: int
    target: int
    limit: int = 200
    ops: tuple[str, ...] = ("+1", "*2", "-3")
    hint: str = "zero"  # "zero", "bound" (admissible, simple) or "patchy" (admissible, inconsistent)
    _exact: dict[int, int] = field(default_factory=dict, repr=False)

    def start(self) -> int:
        return self.begin

    def successors(self, state: int) -> Iterable[tuple[str, int]]:
        for op in self.ops:
            value = {"+1": state + 1, "*2": state * 2, "-3": state - 3, "+3": state + 3}[op]
            if 0 <= value <= self.limit:
                yield op, value

    def is_goal(self, state: int) -> bool:
        return state == self.target

    def heuristic(self, state: int) -> int:
        if self.hint == "zero":
            return 0
        if self.hint == "bound":
            return simple_bound(state, self.target)
        # True distance on multiples of 3, nothing elsewhere: admissible and far from consistent.
        if not self._exact:
            self._exact.update(reverse_distances(self))
        return self._exact.get(state, 0) if state % 3 == 0 else 0


def simple_bound(state: int, target: int) -> int:
    """Admissible for ops +1, *2, -3: going down needs -3 steps; going up at most doubles (or +1)."""
    if state > target:
        return -(-(state - target) // 3)
    steps = 0
    while state < target:
        state = max(state + 1, state * 2)
        steps += 1
    return steps


SLIDE_GOAL: tuple[int, ...] = (1, 2, 3, 4, 5, 0)
SLIDE_STEPS = {"U": -3, "D": 3, "L": -1, "R": 1}  # direction the blank moves on the 2x3 board


@dataclass
class SlidePuzzle:
    """The 2x3 sliding-tile puzzle; 0 is the blank, the goal is 1 2 3 / 4 5 _."""

    begin: tuple[int, ...]
    hint: str = "manhattan"

    def start(self) -> tuple[int, ...]:
        return self.begin

    def successors(self, state: tuple[int, ...]) -> Iterable[tuple[str, tuple[int, ...]]]:
        blank = state.index(0)
        row, col = divmod(blank, 3)
        for name, step in SLIDE_STEPS.items():
            if (name == "U" and row == 0) or (name == "D" and row == 1):
                continue
            if (name == "L" and col == 0) or (name == "R" and col == 2):
                continue
            cells = list(state)
            cells[blank], cells[blank + step] = cells[blank + step], 0
            yield name, tuple(cells)

    def is_goal(self, state: tuple[int, ...]) -> bool:
        return state == SLIDE_GOAL

    def heuristic(self, state: tuple[int, ...]) -> int:
        if self.hint == "zero":
            return 0
        total = 0
        for place, tile in enumerate(state):
            if tile:
                home = SLIDE_GOAL.index(tile)
                total += abs(place // 3 - home // 3) + abs(place % 3 - home % 3)
        return total


def scrambled(seed: int, steps: int) -> tuple[int, ...]:
    """A solvable 2x3 position: a seeded random walk of ``steps`` blank moves from the goal."""
    rng = random.Random(seed)
    state = SLIDE_GOAL
    for _ in range(steps):
        state = rng.choice(list(SlidePuzzle(state).successors(state)))[1]
    return state


def far_slides(count: int, at_least: int) -> list[tuple[SlidePuzzle, int]]:
    """The first ``count`` scrambles (by seed) whose optimal solution has ``at_least`` moves or more."""
    found: list[tuple[SlidePuzzle, int]] = []
    seed = 0
    while len(found) < count:
        problem = SlidePuzzle(scrambled(seed, 60))
        optimum = distance(problem, problem.start())
        assert optimum is not None
        if optimum >= at_least:
            found.append((problem, optimum))
        seed += 1
    return found


ODD_SLIDE: tuple[int, ...] = (2, 1, 3, 4, 5, 0)  # two tiles swapped: the other half of the permutations, no solution


def reachable(problem: Puzzle) -> set[Any]:
    """Every state reachable from the start (a plain flood fill, independent of the solvers)."""
    seen = {problem.start()}
    todo = [problem.start()]
    while todo:
        state = todo.pop()
        for _, child in problem.successors(state):
            if child not in seen:
                seen.add(child)
                todo.append(child)
    return seen


def reverse_distances(problem: IntPuzzle) -> dict[int, int]:
    """True distance to the target for every state of an IntPuzzle, by BFS over reversed moves."""
    parents: dict[int, list[int]] = {}
    for state in range(problem.limit + 1):
        for _, child in problem.successors(state):
            parents.setdefault(child, []).append(state)
    dist = {problem.target: 0} if 0 <= problem.target <= problem.limit else {}
    queue = deque(dist)
    while queue:
        state = queue.popleft()
        for parent in parents.get(state, []):
            if parent not in dist:
                dist[parent] = dist[state] + 1
                queue.append(parent)
    return dist


def replay(problem: Puzzle, moves: tuple[str, ...]) -> Any:
    """Play ``moves`` from the start, each one required to be among the successors; the end state."""
    state = problem.start()
    for move in moves:
        options = dict(problem.successors(state))
        assert move in options, f"{move!r} is not a legal move from {state!r}"
        state = options[move]
    return state


def comparable(result: SearchResult[Any, str]) -> tuple[object, ...]:
    """Everything in a result except the wall time."""
    stats = result.stats
    return (
        result.method,
        result.status,
        result.moves,
        result.lower_bound,
        result.stopped_by,
        stats.expanded,
        stats.generated,
        stats.states_per_depth,
    )


# --- optimality and agreement --------------------------------------------------------------------


def check_solved(problem: Puzzle, result: SearchResult[Any, str], length: int) -> None:
    assert result.status == "solved"
    assert result.stopped_by is None
    assert result.moves is not None
    assert len(result.moves) == length == result.lower_bound
    assert problem.is_goal(replay(problem, result.moves))


@settings(max_examples=60, deadline=None)
@given(begin=st.integers(0, 200), target=st.integers(0, 200), hint=st.sampled_from(["zero", "bound", "patchy"]))
def test_int_puzzle_all_methods_optimal(begin: int, target: int, hint: str) -> None:
    problem = IntPuzzle(begin, target, hint=hint)
    truth = reverse_distances(problem)[begin]
    for search in METHODS.values():
        check_solved(problem, search(problem), truth)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**6), steps=st.integers(0, 40), hint=st.sampled_from(["manhattan", "zero"]))
def test_slide_puzzle_all_methods_agree(seed: int, steps: int, hint: str) -> None:
    problem = SlidePuzzle(scrambled(seed, steps), hint=hint)
    results = {name: search(problem) for name, search in METHODS.items()}
    bfs_moves = results["bfs"].moves
    assert bfs_moves is not None
    assert len(bfs_moves) <= steps
    for result in results.values():
        check_solved(problem, result, len(bfs_moves))


def test_heuristics_used_here_are_admissible() -> None:
    # Checked with with_start/distance: h never exceeds the true distance anywhere.
    slide = SlidePuzzle(SLIDE_GOAL)
    for state in reachable(slide):
        true = distance(slide, state)
        assert true is not None
        assert slide.heuristic(state) <= true
    for hint in ("bound", "patchy"):
        ints = IntPuzzle(0, 137, hint=hint)
        exact = reverse_distances(ints)
        for state in range(ints.limit + 1):
            assert ints.heuristic(state) <= exact[state]


class CountingInts(IntPuzzle):
    """An IntPuzzle that counts how often each state is expanded."""

    def __init__(self, begin: int, target: int, hint: str) -> None:
        super().__init__(begin, target, hint=hint)
        self.expansions: dict[int, int] = {}
        self.heuristic(begin)  # builds the exact-distance table, which calls successors
        self.expansions.clear()

    def successors(self, state: int) -> Iterable[tuple[str, int]]:
        self.expansions[state] = self.expansions.get(state, 0) + 1
        return super().successors(state)


def test_astar_reopens_states_with_inconsistent_heuristic() -> None:
    # With "patchy" the first path found to some states is not their shortest; A* must still be
    # optimal, which needs such states expanded again. Over these starts that happens at least once.
    reopened = 0
    for begin in range(0, 201, 7):
        problem = CountingInts(begin, 101, hint="patchy")
        result = astar(problem)
        assert sum(problem.expansions.values()) == result.stats.expanded
        reopened += sum(1 for count in problem.expansions.values() if count > 1)
        check_solved(problem, result, reverse_distances(IntPuzzle(begin, 101))[begin])
    assert reopened > 0


def test_start_already_goal() -> None:
    for problem in (IntPuzzle(5, 5), SlidePuzzle(SLIDE_GOAL)):
        for name, search in METHODS.items():
            result = search(problem)
            assert result.method == name
            assert (result.status, result.moves, result.lower_bound) == ("solved", (), 0)
            assert result.stats.expanded == 0
    assert bfs(IntPuzzle(5, 5)).stats.states_per_depth == (1,)


def test_bfs_states_per_depth_when_solved() -> None:
    problem = IntPuzzle(0, 3, ops=("+1",))
    result = bfs(problem)
    assert result.moves == ("+1", "+1", "+1")
    assert result.stats.states_per_depth == (1, 1, 1, 1)
    assert result.stats.expanded == 3


# --- unsolvable instances -------------------------------------------------------------------------


UNSOLVABLE = [
    pytest.param(SlidePuzzle(ODD_SLIDE), id="slide-odd"),
    pytest.param(SlidePuzzle(ODD_SLIDE, hint="zero"), id="slide-odd-h0"),
    pytest.param(IntPuzzle(17, 201), id="target-out-of-range"),
    pytest.param(IntPuzzle(0, 7, limit=100, ops=("+3", "*2")), id="multiples-of-3"),
    pytest.param(IntPuzzle(50, 7, limit=100, ops=("+3", "*2")), id="no-way-down"),
]


@pytest.mark.parametrize("problem", UNSOLVABLE)
def test_unsolvable_all_methods(problem: Puzzle) -> None:
    size = len(reachable(problem))
    results = {name: search(problem) for name, search in METHODS.items()}
    for result in results.values():
        assert result.status == "unsolvable"
        assert result.moves is None
        assert result.stopped_by is None
    layers = results["bfs"].stats.states_per_depth
    assert layers and all(layers)
    assert sum(layers) == size
    assert results["bfs"].stats.expanded == size
    assert results["bfs"].lower_bound == len(layers)
    # After exhausting the space, A*'s g values are the true depths.
    assert results["astar"].stats.states_per_depth == layers
    assert results["idastar"].stats.states_per_depth == ()


def test_unsolvable_sizes_are_known() -> None:
    assert len(reachable(SlidePuzzle(ODD_SLIDE))) == 360
    assert sum(bfs(SlidePuzzle(ODD_SLIDE)).stats.states_per_depth) == 360
    assert sum(bfs(IntPuzzle(0, 7, limit=100, ops=("+3", "*2"))).stats.states_per_depth) == 34
    assert sum(bfs(IntPuzzle(17, 201)).stats.states_per_depth) == 201


def test_distance_and_with_start() -> None:
    problem = SlidePuzzle(scrambled(3, 30))
    assert distance(problem, SLIDE_GOAL) == 0
    assert distance(problem, ODD_SLIDE) is None
    for seed in range(15):
        state = scrambled(seed, 25)
        moved = with_start(problem, state)
        assert moved.start() == state
        found = bfs(moved)
        assert found.moves is not None
        assert distance(problem, state) == len(found.moves)
        assert problem.is_goal(replay(SlidePuzzle(state), found.moves))
    ints = IntPuzzle(0, 150)
    exact = reverse_distances(ints)
    for number in range(0, 201, 11):
        assert distance(ints, number) == exact[number]


def test_distance_raises_when_stopped() -> None:
    with pytest.raises(SearchIncomplete) as caught:
        distance(SlidePuzzle(SLIDE_GOAL), scrambled(1, 40), max_nodes=3)
    assert caught.value.result.status == "unknown"
    assert caught.value.result.stopped_by == "nodes"


# --- limits ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", list(METHODS))
def test_node_limit_gives_sound_lower_bound(name: str) -> None:
    search = METHODS[name]
    for problem, optimum in far_slides(6, 12):
        full = search(problem)
        assert full.status == "solved"
        previous = -1
        limits = sorted({0, 1, 2, 5, full.stats.expanded // 2, full.stats.expanded - 1})
        for limit in limits:
            result = search(problem, max_nodes=limit)
            assert result.status == "unknown"
            assert result.stopped_by == "nodes"
            assert result.moves is None
            assert result.stats.expanded == limit
            assert 0 <= result.lower_bound <= optimum
            assert result.lower_bound >= previous  # a longer run only proves more
            previous = result.lower_bound
        enough = search(problem, max_nodes=full.stats.expanded)
        assert comparable(enough) == comparable(full)


def test_astar_state_limit_holds_at_most_that_many_states_and_bounds_soundly() -> None:
    """``max_states`` caps the states A* holds (its table of best ``g``), not its expansions: ``reach
    --designer``'s par search keeps ``--max-nodes`` as the graph does (stop 65)."""
    for problem, optimum in far_slides(4, 12):
        full = astar(problem)
        held = sum(full.stats.states_per_depth)
        previous = -1
        for limit in sorted({1, 2, 7, held // 3, held // 2, held - 1}):
            result = astar(problem, max_states=limit)
            assert result.status == "unknown" and result.stopped_by == "states" and result.moves is None
            assert sum(result.stats.states_per_depth) <= limit
            assert previous <= result.lower_bound <= optimum
            previous = result.lower_bound
        assert comparable(astar(problem, max_states=held)) == comparable(full)


def test_node_limit_zero_bounds() -> None:
    problem = SlidePuzzle(scrambled(11, 40))
    h = problem.heuristic(problem.start())
    assert bfs(problem, max_nodes=0).lower_bound == 1
    assert astar(problem, max_nodes=0).lower_bound == h
    assert idastar(problem, max_nodes=0).lower_bound == h


def test_bfs_lower_bound_is_depth_fully_explored_plus_one() -> None:
    # Depth d has exactly one state (d), so after e expansions depths 0..e-1 are done.
    problem = IntPuzzle(0, 50, ops=("+1",))
    for limit in range(10):
        result = bfs(problem, max_nodes=limit)
        assert result.lower_bound == limit + 1
        assert result.lower_bound <= 50


def test_unsolvable_under_a_limit_is_unknown() -> None:
    problem = SlidePuzzle(ODD_SLIDE)
    for search in METHODS.values():
        result = search(problem, max_nodes=100)
        assert (result.status, result.stopped_by, result.moves) == ("unknown", "nodes", None)


@pytest.mark.parametrize("name", list(METHODS))
def test_time_limit(name: str) -> None:
    search = METHODS[name]
    solvable = SlidePuzzle(scrambled(5, 40))
    optimum = distance(solvable, solvable.start())
    assert optimum is not None
    instant = search(solvable, time_limit=0.0)
    assert (instant.status, instant.stopped_by, instant.moves) == ("unknown", "time", None)
    assert instant.stats.expanded == 0
    assert instant.lower_bound <= optimum
    # A huge space with no goal in it: only the clock can end the search.
    endless = IntPuzzle(1, -1, limit=10**12, ops=("+1", "*2", "+3"))
    began = time.perf_counter()
    result = search(endless, time_limit=0.1)
    spent = time.perf_counter() - began
    assert (result.status, result.stopped_by) == ("unknown", "time")
    assert result.stats.expanded > 0
    assert 0.1 <= result.stats.seconds <= spent < 2.0


# --- progress and determinism ---------------------------------------------------------------------


@dataclass
class Recorder:
    """A progress callback that keeps every call."""

    calls: list[tuple[int, int]]

    def __call__(self, bound: int, expanded: int) -> None:
        self.calls.append((bound, expanded))


def test_progress_reports_growing_bounds() -> None:
    problem = SlidePuzzle(scrambled(8, 40))
    optimum = distance(problem, problem.start())
    assert optimum is not None
    for name, search in METHODS.items():
        calls: list[tuple[int, int]] = []
        result = search(problem, progress=Recorder(calls))
        assert calls, name
        bounds = [bound for bound, _ in calls]
        counts = [done for _, done in calls]
        assert bounds == sorted(bounds) and counts == sorted(counts)
        assert bounds[-1] <= optimum
        assert counts[-1] <= result.stats.expanded
    calls = []
    bfs(problem, progress=Recorder(calls))
    assert [depth for depth, _ in calls] == list(
        range(optimum)
    )  # one call per layer expanded, nothing big enough for more


@pytest.mark.parametrize("name", list(METHODS))
def test_repeat_runs_are_identical(name: str) -> None:
    search = METHODS[name]
    for problem in (SlidePuzzle(scrambled(21, 40)), SlidePuzzle(ODD_SLIDE), IntPuzzle(3, 190, hint="patchy")):
        first, second = search(problem), search(problem)
        assert comparable(first) == comparable(second)
        limited = [comparable(search(problem, max_nodes=50)) for _ in range(2)]
        assert limited[0] == limited[1]


HASH_SCRIPT = textwrap.dedent(
    """
    from stratagem.solvers.search import astar, bfs, idastar

    class Words:
        # String states, so that set or dict order keyed by state would vary with the hash seed.
        def start(self):
            return "a"
        def successors(self, state):
            if len(state) < 7:
                for letter in "abc":
                    yield "+" + letter, state + letter
            yield "rot", state[1:] + state[:1]
            if len(state) > 1:
                yield "drop", state[:-1]
        def is_goal(self, state):
            return state == "cabcab"
        def heuristic(self, state):
            return 0

    for search in (bfs, astar, idastar):
        r = search(Words())
        print(search.__name__, r.status, r.moves, r.stats.expanded, r.stats.states_per_depth)
    """
)


def test_move_line_does_not_depend_on_hash_seed() -> None:
    outputs = []
    for seed in ("1", "2"):
        done = subprocess.run(
            [sys.executable, "-c", HASH_SCRIPT],
            cwd=REPO,
            env={"PYTHONHASHSEED": seed, "PATH": "", "PYTHONPATH": str(REPO)},
            capture_output=True,
            text=True,
            timeout=60,
            check=True,
        )
        outputs.append(done.stdout)
    assert outputs[0] == outputs[1]
    assert outputs[0].count("solved") == 3

"""Finding winning lines with the relaxation's help: exactly as long as its bound, or longer.

When the relaxation bound ``B`` of a deal (:mod:`relaxation`) equals its optimum, every optimal line
maps, turn by turn, onto shortest relaxed lines: after ``i`` turns, the image of the table in each goal
row's relaxation lies on a shortest relaxed line from the start's image, ``i`` relaxed turns from it
(with one goal row), or the goal rows' relaxed turns add up to ``i`` (rows that cannot interact, where
each turn is a turn of exactly one row). A depth-first search that keeps only such successors follows
the optimal lines and little else (:func:`guided_line`); it finds a line of ``B`` turns, or shows that
none exists (the bound is below the optimum).

Then :func:`bounded_line` searches for lines of at most ``B + 1``, ``B + 2``, ... turns, dropping every
position whose relaxed distance to a goal exceeds the turns left (one iteration of iterative-deepening
A* per horizon, with the relaxed distances as its heuristic, found on demand).

Both are ordinary searches over the rules engine: a line returned is a sequence of legal turns ending in
a won position. A verdict "no line within the horizon" is an exhaustive search over the pruned space,
sound because the relaxation bounds every line (docs/formats.md argues it); the caller reports it as
such, and ``verify`` repeats it for a ``relaxation-search`` certificate.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from itertools import combinations

from stratagem.models.strato.rules.notation import Move
from stratagem.models.strato.rules.position import State
from stratagem.models.strato.rules.turns import StratoGame
from stratagem.models.strato.search.planning import StratoPlanning
from stratagem.models.strato.search.relaxation import (
    GoalDistance,
    RelaxationBound,
    RelaxedSearch,
    combination,
    combine,
)

#: The clock is read once per this many expansions.
_CLOCK_EVERY = 64


@dataclass(frozen=True)
class GuidedResult:
    """``moves``: a winning line of ``bound`` turns, or ``None``; ``exhausted``: none exists (the search ran
    through its pruned space); otherwise it was stopped by its deadline or node limit."""

    moves: tuple[Move, ...] | None
    exhausted: bool
    expanded: int
    seconds: float


def supports(bound: RelaxationBound) -> bool:
    """Whether the guided search applies: a bound from exact relaxed searches, on one goal row or on rows
    whose distances add up, that some set of goal rows attains (not a bound raised to one turn for a goal
    already met but not yet declared)."""
    return (bound.bound is not None and bound.bound > 0 and all(s.exact for s in bound.rows)
            and (bound.combine == "sum" or len(bound.rows) >= 1 and _required(bound) == 1)
            and bool(_tight_sets(bound)))


def _required(bound: RelaxationBound) -> int:
    return bound.rows[0].challenge.rows_required if bound.rows else 0


def _tight_sets(bound: RelaxationBound) -> list[tuple[RelaxedSearch, ...]]:
    """The sets of goal rows whose combined distance is the bound: a line of that length meets the goal
    on one of them."""
    required = _required(bound)
    sets = []
    for chosen in combinations(bound.rows, required):
        distances = [s.distance for s in chosen]
        if any(d is None for d in distances):
            continue
        total = sum(d for d in distances if d is not None) if bound.combine == "sum" else max(
            d for d in distances if d is not None)
        if total == bound.bound:
            sets.append(chosen)
    return sets


def guided_line(game: StratoGame, bound: RelaxationBound, deadline: Callable[[], bool] | None = None,
                max_nodes: int | None = None) -> GuidedResult:
    """A winning line of exactly ``bound.bound`` turns, found by depth-first search over the rules engine
    keeping only successors on shortest relaxed lines (see the module docstring)."""
    started = time.perf_counter()
    assert bound.bound is not None and supports(bound)
    problem = StratoPlanning(game)
    target = bound.bound
    expanded = 0
    stopped = False
    for searches in _tight_sets(bound):
        dead: set[tuple[State, int]] = set()

        def fits(state: State, turns: int, searches: tuple[RelaxedSearch, ...] = searches) -> bool:
            """The cheap test: the images lie as many relaxed turns from the start as the line has turns."""
            layers = [s.layer(state.rows) for s in searches]
            if any(layer < 0 for layer in layers):
                return False
            if len(searches) == 1 or bound.combine == "max":
                return all(layer == turns for layer in layers)
            return sum(layers) == turns

        def on_line(state: State, searches: tuple[RelaxedSearch, ...] = searches) -> bool:
            """The full test (a relaxed search of its own, memoised): the images lie on shortest relaxed lines."""
            return all(s.on_shortest_line(state.rows) for s in searches)

        start = problem.start()
        if not (fits(start, 0) and on_line(start)):
            continue
        path: list[Move] = []
        # iterative depth-first search: a stack of successor iterators
        stack = [iter(_candidates(problem, start, 1, fits))]
        states = [start]
        while stack:
            if deadline is not None and expanded % _CLOCK_EVERY == 0 and deadline() or \
                    max_nodes is not None and expanded >= max_nodes:
                stopped = True
                break
            step = next(stack[-1], None)
            if step is None:
                stack.pop()
                dead.add((states.pop(), len(path)))
                if path:
                    path.pop()
                continue
            move, after = step
            turns = len(path) + 1
            if problem.is_goal(after):
                if turns == target:  # a win as long as the bound: a shortest line, on a shortest relaxed line
                    return GuidedResult(tuple(path) + (move,), False, expanded, time.perf_counter() - started)
                continue
            if turns >= target or (after, turns) in dead or not on_line(after):
                continue
            expanded += 1
            path.append(move)
            states.append(after)
            stack.append(iter(_candidates(problem, after, turns + 1, fits)))
        if stopped:
            break
    return GuidedResult(None, not stopped, expanded, time.perf_counter() - started)


def _candidates(problem: StratoPlanning, state: State, turns: int,
                fits: Callable[[State, int], bool]) -> list[tuple[Move, State]]:
    """The successors of ``state`` that can lie on a line of the bound's length, winning ones first."""
    out = [(move, after) for move, after in problem.successors(state) if problem.is_goal(after) or fits(after, turns)]
    out.sort(key=lambda step: not problem.is_goal(step[1]))
    return out


@dataclass(frozen=True)
class BoundedResult:
    """``moves``: a winning line of at most ``horizon`` turns (a shortest one when every shorter horizon was
    searched before), or ``None``; ``exhausted``: no winning line of at most ``horizon`` turns exists (the
    search ran through its whole pruned space); otherwise it was stopped by its deadline or node limit."""

    horizon: int
    moves: tuple[Move, ...] | None
    exhausted: bool
    expanded: int
    seconds: float


def goal_distances(game: StratoGame, bound: RelaxationBound) -> tuple[GoalDistance, ...]:
    """On-demand relaxed distances for the goal rows of ``bound`` (the relaxation bound of the start)."""
    start = game.initial_state()
    return tuple(GoalDistance(game.challenge, start.rows[s.relaxation.row], s.relaxation) for s in bound.rows)


def bounded_line(game: StratoGame, distances: tuple[GoalDistance, ...], horizon: int,
                 deadline: Callable[[], bool] | None = None, max_nodes: int | None = None) -> BoundedResult:
    """A winning line of at most ``horizon`` turns, or the proof by exhaustion that none exists.

    A depth-first search over the rules engine (one iteration of iterative-deepening A*) that drops
    every position from which the goal rows' relaxed distances (``distances``, see :func:`goal_distances`),
    combined as :func:`~relaxation.relaxation_bound` combines them, exceed the turns left: the
    relaxation bounds every line from that position, so no winning line within the horizon passes
    through it. A position already shown to have no win within as many turns or more is not searched
    again. This is what finds a line when the bound of the start is below the optimum, and what proves
    that the bound + 1, + 2, ... turns do not suffice; ``verify`` repeats it from the rules.
    """
    started = time.perf_counter()
    problem = StratoPlanning(game)
    required = game.challenge.rows_required
    how = combination([d.relaxation for d in distances])

    def estimate(state: State, rest: int) -> int:
        """The combined relaxed distance when it is at most ``rest``, else more than ``rest``."""
        values = [d.at_most(state.rows, rest) for d in distances]
        if not values:
            return 0
        least = combine(values, required, how)
        return rest + 1 if least is None else least

    start = problem.start()
    if problem.is_goal(start):
        return BoundedResult(horizon, (), False, 0, time.perf_counter() - started)
    if estimate(start, horizon) > horizon:
        return BoundedResult(horizon, None, True, 0, time.perf_counter() - started)
    dead: dict[State, int] = {}  # position -> most turns proven not to suffice from it
    expanded = 0
    path: list[Move] = []
    states = [start]
    stack = [iter(_bounded_candidates(problem, start, horizon - 1, estimate, deadline))]
    while stack:
        # the clock at every step: one expansion can take tens of milliseconds of relaxed searches
        if deadline is not None and deadline() or max_nodes is not None and expanded >= max_nodes:
            return BoundedResult(horizon, None, False, expanded, time.perf_counter() - started)
        step = next(stack[-1], None)
        if step is None:
            stack.pop()
            rest = horizon - len(path)
            state = states.pop()
            dead[state] = max(dead.get(state, -1), rest)
            if path:
                path.pop()
            continue
        move, after = step
        if problem.is_goal(after):
            return BoundedResult(horizon, tuple(path) + (move,), False, expanded, time.perf_counter() - started)
        rest = horizon - len(path) - 1
        if rest <= 0 or dead.get(after, -1) >= rest:
            continue
        expanded += 1
        path.append(move)
        states.append(after)
        stack.append(iter(_bounded_candidates(problem, after, rest - 1, estimate, deadline)))
    return BoundedResult(horizon, None, True, expanded, time.perf_counter() - started)


def _bounded_candidates(problem: StratoPlanning, state: State, rest: int, estimate: Callable[[State, int], int],
                        deadline: Callable[[], bool] | None) -> list[tuple[Move, State]]:
    """The successors of ``state`` from which a win may lie within ``rest`` more turns: winning ones first,
    then the nearest to a goal by the relaxation (the order only decides how soon a line is found). Past
    ``deadline`` the list is cut short, and the caller stops before reading it."""
    scored = []
    for move, after in problem.successors(state):
        if deadline is not None and deadline():
            break
        if problem.is_goal(after):
            scored.append((-1, move, after))
            continue
        value = estimate(after, rest)
        if value <= rest:
            scored.append((value, move, after))
    scored.sort(key=lambda item: item[0])
    return [(move, after) for _, move, after in scored]

"""A Stack Attack induction leaves nothing of its own behind once its caller drops the result.

Its nodes share the solutions of the small matrix games they meet (``solvers.matrix.saddle_solution``,
``two_by_two_solution``); those module caches kept the last search's solutions after its result was
dropped, a few hundred objects made at the search's peak, and with them 127 MB of the allocator's memory
after 2p-numbers-6-turns (287 MB stayed; 161 MB now, memory the allocator keeps for reuse)."""

from __future__ import annotations

import gc
import weakref
from pathlib import Path

import pytest

from stratagem.models.stackattack.engine import StackAttackEngine
from stratagem.models.stackattack.puzzle import load_position
from stratagem.solvers.matrix import saddle_solution, two_by_two_solution
from stratagem.solvers.simultaneous import solve_simultaneous

PUZZLE = Path(__file__).parents[3] / "puzzles" / "stackattack" / "2p-actions-3-turns.toml"


@pytest.mark.parametrize("engine", ["compiled", "reference"])
def test_a_dropped_induction_leaves_no_solution_behind(engine: str) -> None:
    position = load_position(PUZZLE)
    packed = StackAttackEngine.from_game(position.game).simultaneous() if engine == "compiled" else None
    result = solve_simultaneous(position.game, position.state, player=0, payoff="margin", packed=packed)
    solutions = [weakref.ref(node.solution) for node in result.nodes]
    assert len(solutions) > 20
    del result
    gc.collect()
    assert [ref for ref in solutions if ref() is not None] == []
    assert saddle_solution.cache_info().currsize == two_by_two_solution.cache_info().currsize == 0


def test_the_solutions_are_still_shared_within_one_search() -> None:
    position = load_position(PUZZLE)
    packed = StackAttackEngine.from_game(position.game).simultaneous()
    result = solve_simultaneous(position.game, position.state, player=0, payoff="margin", packed=packed)
    kinds = {}
    for node in result.nodes:
        if node.solution.method == "saddle point":
            kinds.setdefault((node.solution.value, node.solution.row, node.solution.col), []).append(node.solution)
    shared = [found for found in kinds.values() if len(found) > 1]
    assert shared and all(all(s is found[0] for s in found) for found in shared)

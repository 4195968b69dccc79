"""The Monte Carlo searches' shared base (``solvers/packed_playout.py``, stop 70) refuses an engine that breaks
its contract, with the search's own exception and a message naming what was wrong, rather than playing on
with a made-up move or outcome: a player to move with no legal move in a state the engine calls unfinished,
and a chance node whose outcomes' weights are not positive. Two toy engines broken on purpose show both, in
UCT, DUCT and PIMC's playouts (ISMCTS's are PIMC's class): a Nim pile of -1 (never empty, no counter to take)
and a Pig die whose faces all weigh 0.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from stratagem.core.packed_toys import PackedNim, PackedPig
from stratagem.solvers.packed_duct import DuctStopped, run_duct
from stratagem.solvers.packed_ismcts import Playouts, SearchStopped
from stratagem.solvers.packed_uct import UctStopped, run_uct

#: Nim, player 0 to move: one counter in pile 0, and a pile of -1 that the engine never calls empty. After the
#: only move the game is not over, and player 1 has nothing to take.
NO_MOVE = (PackedNim(3), [1, 0, -1, 0], "player 1 has no legal move in a non-terminal state")
#: Pig at its start (player 0 to roll or hold) with a die whose three faces weigh 0: a roll has no outcome.
NO_WEIGHT = (PackedPig(die=(0, 0, 0)), [0, 0, 0, 0, 4, 0], "a chance outcome with a weight that is not positive")


def _uct(game: Any, state: list[int]) -> None:
    run_uct(game, np.array(state, np.int64), iterations=20, seed=1)


def _duct(game: Any, state: list[int]) -> None:
    run_duct(game, np.array(state, np.int64), iterations=20, seed=1)


def _pimc(game: Any, state: list[int]) -> None:
    Playouts(game, None, 1, -1, 0.0).move_values(np.array(state, np.int64), 4, 1)


SEARCHES: dict[str, tuple[Callable[[Any, list[int]], None], type[ValueError]]] = {
    "uct": (_uct, UctStopped), "duct": (_duct, DuctStopped), "pimc": (_pimc, SearchStopped)}


@pytest.mark.parametrize("broken", [NO_MOVE, NO_WEIGHT], ids=["no legal move", "weights not positive"])
@pytest.mark.parametrize("name", sorted(SEARCHES))
def test_a_broken_engine_stops_each_search_with_its_own_exception(name: str,
                                                                  broken: tuple[Any, list[int], str]) -> None:
    search, stopped = SEARCHES[name]
    game, state, problem = broken
    with pytest.raises(stopped, match=problem):
        search(game, state)


def test_the_same_engines_unbroken_are_searched() -> None:
    """The guards fire on the breakage, not on the toys: a Nim pile of 0 and a die of weights 1:2:1 search."""
    for name in sorted(SEARCHES):
        search, _ = SEARCHES[name]
        search(PackedNim(3), [1, 0, 0, 0])
        search(PackedPig(), [0, 0, 0, 0, 4, 0])

"""What a DUCT search reports: its selection rules and its result at the root.

Apart from :mod:`stratagem.solvers.duct` so that the search over the reference engine and the compiled
search (:mod:`stratagem.solvers.compiled_duct`) share the result type without importing each other.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

__all__ = ["SELECTIONS", "DuctResult"]

#: Selection rules available at simultaneous nodes.
SELECTIONS = ("ucb1", "regret-matching", "exp3")

@dataclass(frozen=True)
class DuctResult:
    """What a DUCT search learnt about its root.

    For each player (index into every tuple): ``moves`` at the root, ``visits`` per move, ``strategy``
    (visit frequencies: the final mixed policy) and ``move_values`` (the player's mean return after
    choosing that move). At a simultaneous root every player has entries; at a decision root only the
    player to move does (the others' tuples are empty). ``values`` is each player's mean return over
    all iterations, the search's estimate of the root's value.
    """

    moves: tuple[tuple[Any, ...], ...]
    visits: tuple[tuple[int, ...], ...]
    strategy: tuple[tuple[float, ...], ...]
    move_values: tuple[tuple[float, ...], ...]
    values: tuple[float, ...]
    iterations: int

    def policy(self, player: int) -> dict[Any, float]:
        """``player``'s final mixed policy as move -> probability."""
        return dict(zip(self.moves[player], self.strategy[player], strict=True))

    def best_move(self, player: int) -> Any:
        """``player``'s most visited move (the first of equals)."""
        visits = self.visits[player]
        return self.moves[player][visits.index(max(visits))]

"""What a DUCT search accepts and reports: its selection rules, the arguments it refuses, and its result
at the root.

Apart from :mod:`stratagem.solvers.duct` so that the search over the reference engine and the compiled
search (:mod:`stratagem.solvers.compiled_duct`) share them without importing each other.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from stratagem.core.game import CHANCE, Game

__all__ = ["SELECTIONS", "DuctResult", "check_arguments"]

#: Selection rules available at simultaneous nodes.
SELECTIONS = ("ucb1", "regret-matching", "exp3")


def check_arguments(game: Game[Any, Any], state: Any, selection: str, iterations: int) -> None:
    """Raise ``ValueError`` for an unknown ``selection``, fewer than one iteration, or a root that is
    terminal or a chance node (a DUCT search starts at a simultaneous or decision node)."""
    if selection not in SELECTIONS:
        raise ValueError(f"selection must be one of {', '.join(SELECTIONS)}, not {selection!r}")
    if iterations < 1:
        raise ValueError("iterations must be at least 1")
    if game.is_terminal(state) or game.to_move(state) == CHANCE:
        raise ValueError("DUCT searches from a simultaneous or decision node, not a terminal or chance node")


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

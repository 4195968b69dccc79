"""What one Monte Carlo tree search reports: per root move and for the whole search."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Generic

from stratagem.core.game import M


@dataclass(frozen=True)
class MoveStats(Generic[M]):
    """What the search learned about one root move.

    ``mean`` is the average return of the root player over the ``visits`` iterations through the
    move (0.0 if never visited); ``proven_value`` is that player's proven return after the move
    (open UCT with the solver only), else None.
    """

    move: M
    notation: str
    visits: int
    mean: float
    proven_value: float | None

    def to_json(self) -> dict[str, Any]:
        return {
            "mean": self.mean,
            "move": self.notation,
            "proven_value": self.proven_value,
            "visits": self.visits,
        }


@dataclass(frozen=True)
class MctsResult(Generic[M]):
    """The outcome of one search from one position.

    * ``method``: ``"uct"`` or ``"ismcts"``; ``information``: ``"open"`` (the search saw the whole
      state) or ``"observation of player P"``.
    * ``player``: whose moves ``moves`` describes (the player to move, or the chosen player at a
      simultaneous root); ``moves`` in ``legal_moves`` (or ``player_moves``) order.
    * ``best_move``/``best_notation``: the recommended move (None at a terminal root).
    * ``iterations`` done and wall ``seconds`` spent.
    * ``proven``: the root's value is proven (open UCT with the solver, or a terminal root);
      ``value`` is then the proven returns per player and ``plies`` the length of the proven line
      the search found (not necessarily the shortest). Otherwise both are None.
    """

    method: str
    information: str
    player: int
    best_move: M | None
    best_notation: str | None
    moves: tuple[MoveStats[M], ...]
    iterations: int
    seconds: float
    proven: bool
    value: tuple[float, ...] | None
    plies: int | None

    def to_json(self) -> dict[str, Any]:
        """Plain JSON data (moves in legal order)."""
        return {
            "best_move": self.best_notation,
            "information": self.information,
            "iterations": self.iterations,
            "method": self.method,
            "moves": [m.to_json() for m in self.moves],
            "player": self.player,
            "plies": self.plies,
            "proven": self.proven,
            "seconds": self.seconds,
            "value": list(self.value) if self.value is not None else None,
        }


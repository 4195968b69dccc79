"""What one Monte Carlo tree search reports: per root move and for the whole search."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Generic

from stratagem.core.game import TERMINAL, M


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

    @classmethod
    def at_terminal(cls, method: str, returns: Sequence[Any]) -> MctsResult[Any]:
        """The result of a search from a terminal root: no move, no iteration, the game's ``returns`` as
        the proven value in 0 plies (reported as open information: nothing is left to hide)."""
        return cls(method, "open", TERMINAL, None, None, (), 0, 0.0, True, tuple(float(v) for v in returns), 0)

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



def unproven_root_pick(stats: Sequence[MoveStats[Any]], low: float) -> int:
    """The move an open search recommends when its root is not proven (and no root move is a proven win):
    of the moves not proven lost, the most visited unproven one, unless a proven move is worth at least
    that move's mean, then the best proven one. Visits alone are not enough with the solver: it stops
    visiting a proven child, so its visits freeze while an unproven sibling's grow, whatever their values
    (Stratatak's long-odds: B3B3 proven at 1/5 and R6 at 0 stopped at 126 and 143 visits, and B3, averaging
    -0.44, was recommended with 1,731). Both engines' searches pick by this rule."""
    safe = [i for i, s in enumerate(stats) if s.proven_value is None or s.proven_value > low]
    among = safe or list(range(len(stats)))
    unproven = [i for i in among if stats[i].proven_value is None]
    choices = [min(unproven, key=lambda i: (-stats[i].visits, -stats[i].mean, i))] if unproven else []
    choices += [i for i in among if stats[i].proven_value is not None]

    def worth(i: int) -> tuple[float, int, int]:
        value = stats[i].proven_value
        return (stats[i].mean if value is None else value, value is not None, -i)

    return max(choices, key=worth)

"""The Game protocol every rules engine implements, and the search view of a one-player puzzle.

Modelled on OpenSpiel's State API and pgx's immutable states: a game object holds the rules and the
options; states are immutable and hashable, and ``apply(state, move)`` returns a new state. That makes
duplicate detection, transposition tables and proof DAGs safe and simple.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence
from fractions import Fraction
from typing import Protocol, TypeVar

#: ``to_move`` value of a chance node.
CHANCE = -1
#: ``to_move`` value of a node where every player chooses at once.
SIMULTANEOUS = -2
#: ``to_move`` value of a terminal state.
TERMINAL = -3

S = TypeVar("S", bound=Hashable)
M = TypeVar("M", bound=Hashable)
M_co = TypeVar("M_co", bound=Hashable, covariant=True)


class Game(Protocol[S, M]):
    """Rules of one game with its options fixed."""

    name: str
    num_players: int

    def initial_state(self) -> S:
        """The start of play."""
        ...

    def to_move(self, state: S) -> int:
        """A player index, :data:`CHANCE`, :data:`SIMULTANEOUS` or :data:`TERMINAL`."""
        ...

    def legal_moves(self, state: S) -> Sequence[M]:
        """Every move the player to move may make, each listed once, in a fixed order."""
        ...

    def apply(self, state: S, move: M) -> S:
        """The state after ``move``; raises :class:`~stratagem.core.errors.IllegalMove` if not legal."""
        ...

    def chance_outcomes(self, state: S) -> Sequence[tuple[M, Fraction]]:
        """Outcomes of a chance node with their exact probabilities."""
        ...

    def is_terminal(self, state: S) -> bool:
        """True when play has ended."""
        ...

    def returns(self, state: S) -> tuple[float, ...]:
        """One number per player at a terminal state."""
        ...

    def format_move(self, state: S, move: M) -> str:
        """The move in the game's notation, as played from ``state``."""
        ...

    def parse_move(self, state: S, text: str) -> M:
        """Inverse of :meth:`format_move`; raises NotationError or IllegalMove."""
        ...

    def format_state(self, state: S) -> str:
        """The state in the game's notation."""
        ...

    def parse_state(self, text: str) -> S:
        """Inverse of :meth:`format_state`; raises NotationError."""
        ...


class SearchProblem(Protocol[S, M_co]):
    """A one-player puzzle as the search solvers see it: unit step costs and a goal test.

    ``heuristic`` must never overestimate the number of steps to the nearest goal (A*, IDA*).
    """

    def start(self) -> S:
        """The state search begins from."""
        ...

    def successors(self, state: S) -> Iterable[tuple[M_co, S]]:
        """Every (move, next state) pair, in a fixed order."""
        ...

    def is_goal(self, state: S) -> bool:
        """True when ``state`` is solved."""
        ...

    def heuristic(self, state: S) -> int:
        """A lower bound on the steps from ``state`` to a goal."""
        ...

"""The Game protocol every rules engine implements, and the search view of a one-player puzzle.

Modelled on OpenSpiel's State API and pgx's immutable states: a game object holds the rules and the
options; states are immutable and hashable, and ``apply(state, move)`` returns a new state. That makes
duplicate detection, transposition tables and proof DAGs safe and simple.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence
from fractions import Fraction
from random import Random
from typing import Any, Protocol, TypeVar, runtime_checkable

#: ``to_move`` value of a chance node.
CHANCE = -1
#: ``to_move`` value of a node where every player chooses at once.
SIMULTANEOUS = -2
#: ``to_move`` value of a terminal state.
TERMINAL = -3

S = TypeVar("S", bound=Hashable)
M = TypeVar("M", bound=Hashable)
M_co = TypeVar("M_co", bound=Hashable, covariant=True)
S_contra = TypeVar("S_contra", bound=Hashable, contravariant=True)


class EqualByRules:
    """A game that equals another of its class with the same rules from the same start (:meth:`_rules`), with
    a hash to match: a copy, a deep copy or a pickled game equals the game. Equality by identity made a
    Position or a deal holding a game unequal to itself after a pickle round trip (a worker's answer) or
    ``copy.deepcopy``."""

    def _rules(self) -> tuple[Any, ...]:
        """What tells this game from another of its class (each game says what)."""
        raise NotImplementedError

    def __eq__(self, other: object) -> bool:
        return other is self or (type(other) is type(self) and self._rules() == other._rules())

    def __hash__(self) -> int:
        return hash(self._rules())


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


# Optional capabilities. A solver checks for the one it needs (``isinstance`` against these
# runtime-checkable protocols) and refuses a game without it in a clear error, as OpenSpiel's
# algorithms check a game's type.


@runtime_checkable
class MoveOrdering(Protocol[S_contra, M]):
    """A game that can guess which moves are best, to make alpha-beta cut sooner."""

    def order_moves(self, state: S_contra, moves: Sequence[M]) -> Sequence[M]:
        """The same moves, most promising first for the player to move; must not add or drop any."""
        ...


@runtime_checkable
class Evaluation(Protocol[S_contra]):
    """A game with a heuristic for positions where a depth-limited search stops."""

    def evaluate(self, state: S_contra) -> tuple[float, ...]:
        """An estimate of :meth:`Game.returns`, one number per player, on the same scale."""
        ...


@runtime_checkable
class HiddenInformation(Protocol[S]):
    """A game where players do not see everything: observations and a sampler for PIMC/ISMCTS.

    States always hold the full truth (open information); what a player knows is
    ``observation(state, player)``, and ``sample_state`` draws a full state that the player cannot
    tell apart from ``state``: same observation, hidden parts resampled uniformly from what is
    consistent with it.
    """

    def observation(self, state: S, player: int) -> Hashable:
        """What ``player`` knows in ``state``; equal observations mean indistinguishable states."""
        ...

    def sample_state(self, state: S, player: int, rng: Random) -> S:
        """A state with ``observation(result, player) == observation(state, player)``."""
        ...


@runtime_checkable
class Simultaneous(Protocol[S_contra, M_co]):
    """A game with nodes where every player moves at once (``to_move(state) == SIMULTANEOUS``).

    At such a node ``legal_moves`` is not used; each player's options come from ``player_moves``
    and ``apply`` takes a joint move: a tuple with one move per player, indexed by player. A game
    may also offer ``format_player_move(state, player, move)`` for one player's part of a joint
    move; solvers and records use it when present (else ``format_move``).
    """

    def player_moves(self, state: S_contra, player: int) -> Sequence[M_co]:
        """The moves ``player`` may choose from at a simultaneous node."""
        ...

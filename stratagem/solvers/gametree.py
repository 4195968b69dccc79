"""What every minimax-family search shares: the result it returns, its limits and its engine.

The searches (:mod:`~stratagem.solvers.alphabeta`, :mod:`~stratagem.solvers.expectimax`,
:mod:`~stratagem.solvers.multiplayer`, the reference :mod:`~stratagem.solvers.plainminimax`) take
any :class:`~stratagem.core.game.Game` and return one :class:`MinimaxResult`, which says what was
established and under which assumption. This module holds that result, the status and assumption
labels, and :class:`Engine`: node counting, the time and node limits, progress reports, cycle
detection and move order.

Values
    A *value* is a number on the scale of :meth:`Game.returns`. With integer returns and
    :class:`~fractions.Fraction` probabilities every value is an exact ``int`` or ``Fraction``
    (chance nodes average with the probabilities the game gives); float returns give float values
    with the usual rounding. ``depth`` counts every ply: moves and chance outcomes alike.

Honesty of the result
    ``status`` is ``"solved"`` only when every line was searched to a terminal state (no depth
    horizon, no table entry from a shallower search was relied on). A depth-limited search that
    used the game's :meth:`~stratagem.core.game.Evaluation.evaluate` at its horizon is
    ``"heuristic"``. A search stopped by ``time_limit`` or ``max_nodes`` -- or depth-limited on a
    game without an evaluation -- is ``"unknown"``: ``value`` is ``None`` and ``estimate``, ``best_move``
    and ``pv`` come from the deepest completed iteration, as a best guess and not a claim.

Games must be finite and acyclic; a state repeated on the current line raises
:class:`~stratagem.core.errors.StratagemError`. No game is imported here.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic

from stratagem.core.deadline import Deadline
from stratagem.core.errors import RepeatingPosition, StratagemError
from stratagem.core.game import SIMULTANEOUS, Evaluation, Game, M, MoveOrdering, S
from stratagem.solvers.transposition import EXACT, LOWER, PROVEN, UPPER, TranspositionTable, TTStats

__all__ = [
    "ASSUME_MAXN",
    "ASSUME_OPEN",
    "ASSUME_PARANOID",
    "HEURISTIC",
    "NOT_RANKED",
    "SOLVED",
    "UNKNOWN",
    "MinimaxResult",
    "Progress",
    "TimeLimit",
]

#: Every line searched to its end: the value is exact.
SOLVED = "solved"
#: Depth-limited with the game's evaluation at the horizon: an estimate, not a proof.
HEURISTIC = "heuristic"
#: Stopped by a limit (or depth-limited without an evaluation): no value is claimed.
UNKNOWN = "unknown"
#: A root move :func:`rank_moves` did not search because the shared time limit had run out.
NOT_RANKED = "not ranked"

#: Two-player zero-sum search with every card known (the default of every analysis).
ASSUME_OPEN = "open information"
#: One player against the coalition of all the others, who minimise that player's return.
ASSUME_PARANOID = "paranoid"
#: Every player maximises their own return; ties go to the first move in the game's order.
ASSUME_MAXN = "max^n"

#: Progress callback: ``(depth_or_iteration, nodes)``.
Progress = Callable[[int, int], None]

#: A time limit: seconds from the start of the search, or a :class:`~stratagem.core.deadline.Deadline`
#: shared with other work (the limit of a whole command), or ``None`` for none.
TimeLimit = float | Deadline | None

Value = Any  # int | float | Fraction; Any keeps mixed arithmetic simple for mypy

#: Depth used for "no depth limit".
UNLIMITED = 1 << 20
#: Nodes between two looks at the clock. A node of these plain searches costs microseconds, a look some 0.2
#: microseconds; but a node whose evaluation is costly (a six-player STAKD start on the 64 x 64 lattice:
#: 15 ms) made 256 nodes several seconds, and analyze under --time-limit 0.5 ran 3.4 s.
_CLOCK_EVERY = 16


@dataclass(frozen=True)
class MinimaxResult(Generic[M]):
    """What a search established about one position.

    ``value`` is for ``player`` (the player to move at the root; for :func:`paranoid` the paranoid
    player; player 0 when the root is a chance node) and is ``None`` when ``status`` is
    ``"unknown"``. ``values`` has one value per player (two-player zero-sum: ``(v0, -v0)``; max^n:
    the max^n vector; paranoid: ``None``, since only ``player``'s guarantee is meaningful).
    ``distance`` counts plies to the result along the principal variation (``None`` with chance).
    ``pv`` stops at a terminal state, at a chance node (outcomes are not chosen), or at the depth
    limit. ``depth`` is the deepest completed iteration (``None``: unlimited). ``estimate`` is the
    deepest completed iteration's value even when nothing is claimed. ``nodes`` counts states
    visited, terminal ones included.
    """

    method: str
    status: str
    assumption: str
    player: int
    value: Value | None
    values: tuple[Value, ...] | None
    best_move: M | None
    pv: tuple[M, ...]
    distance: int | None
    depth: int | None
    nodes: int
    seconds: float
    tt: TTStats | None = None
    estimate: Value | None = None

    @property
    def solved(self) -> bool:
        return self.status == SOLVED

    def value_for(self, player: int) -> Value | None:
        """The value for ``player`` (``None`` if not known for that player)."""
        if self.values is not None:
            return self.values[player]
        return self.value if player == self.player else None


class Stop(Exception):
    """Raised inside a search when a limit is reached."""


def as_deadline(time_limit: TimeLimit) -> Deadline | None:
    """The deadline a search stops at: the one given, or ``time_limit`` seconds from now."""
    if time_limit is None or isinstance(time_limit, Deadline):
        return time_limit
    return Deadline(time_limit)


class Engine:
    """What every search shares: node counting, limits, progress, cycle detection, move order."""

    def __init__(self, game: Game[Any, Any], *, tt: TranspositionTable | None, ordering: bool,
                 time_limit: TimeLimit, max_nodes: int | None, progress: Progress | None,
                 progress_every: int) -> None:
        self.game = game
        self.tt = tt
        self.ordering = ordering and isinstance(game, MoveOrdering)
        self.evaluation = isinstance(game, Evaluation)
        self.started = time.perf_counter()
        self.deadline = as_deadline(time_limit)
        self.max_nodes = max_nodes
        self.progress = progress
        self.progress_every = max(1, progress_every)
        self.nodes = 0
        self.horizon = 0  # horizon leaves met or unproven table entries relied on
        self.iteration = 0
        self.limits_on = True
        self.path: set[Any] = set()
        #: Killer moves: by ply from the root (the length of the current line), the last two moves
        #: that refuted a sibling position (:meth:`cutoff`); tried right after the table's move.
        self.killers: dict[int, list[Any]] = {}

    def probe(self, state: Any, depth: int, alpha: Any, beta: Any) -> tuple[bool, Any, Any]:
        """Look ``state`` up in the table: (decided, its score, the stored best move).

        Decided when the entry was searched at least ``depth`` deep and its bound settles the window;
        relying on an entry that is not proven makes the result depend on a horizon.
        """
        tt = self.tt
        if tt is None:
            return False, None, None
        entry = tt.get(state)
        if entry is None:
            return False, None, None
        edepth, flag, score, tt_move = entry
        if edepth >= depth and (flag == EXACT or (flag == LOWER and score >= beta)
                                or (flag == UPPER and score <= alpha)):
            if edepth < PROVEN:
                self.horizon += 1
            tt.cutoffs += 1
            if state is getattr(self, "root", None):
                self.root_best = tt_move
            return True, score, tt_move
        return False, None, tt_move

    def tick(self) -> None:
        self.nodes += 1
        n = self.nodes
        if self.limits_on:
            if self.max_nodes is not None and n > self.max_nodes:
                raise Stop
            if self.deadline is not None and n % _CLOCK_EVERY == 0 and self.deadline.expired():
                raise Stop
        if self.progress is not None and n % self.progress_every == 0:
            self.progress(self.iteration, n)

    def enter(self, state: Any) -> None:
        if state in self.path:
            raise RepeatingPosition(f"{self.game.name}: position {self.game.format_state(state)} repeats on one "
                                    "line; the minimax searches need a game without cycles")
        self.path.add(state)

    def moves(self, state: Any, first: Any, ordered: bool = True) -> list[Any]:
        moves = list(self.game.legal_moves(state))
        if not moves:
            raise StratagemError(f"{self.game.name}: position {self.game.format_state(state)} is not "
                                 "terminal but has no legal move")
        if self.ordering and ordered:
            moves = list(self.game.order_moves(state, moves))  # type: ignore[attr-defined]
            killers = self.killers.get(len(self.path)) if self.limits_on else None
            if killers:
                # After the game's own first choice (its best guess, often a win or a forced reply).
                front = [k for k in killers if k != first and k != moves[0] and k in moves]
                if front:
                    moves = moves[:1] + front + [m for m in moves[1:] if m not in front]
        if first is not None and first in moves and moves[0] != first:
            moves.remove(first)
            moves.insert(0, first)
        return moves

    def cutoff(self, move: Any) -> None:
        """Note that ``move`` refuted the position being searched: a killer move for its ply.

        A move that refuted one position often refutes its siblings (the same reply to different
        moves), so it is tried early there. Only the order of the moves changes, never a value.
        """
        slots = self.killers.setdefault(len(self.path), [])
        if not slots or slots[0] != move:
            if move in slots:
                slots.remove(move)
            slots.insert(0, move)
            del slots[2:]

    def estimate(self, state: Any, player: int) -> Value:
        self.horizon += 1
        if self.evaluation:
            return self.game.evaluate(state)[player]  # type: ignore[attr-defined]
        return 0

    def seconds(self) -> float:
        return time.perf_counter() - self.started

    def tt_stats(self) -> TTStats | None:
        return self.tt.stats() if self.tt is not None else None


def status_for(proven: bool, evaluation: bool) -> str:
    """The status of a completed search: solved if proven, else heuristic with an evaluation, else unknown."""
    return SOLVED if proven else HEURISTIC if evaluation else UNKNOWN


def depth_schedule(depth: int | None, iterative: bool | None, limited: bool) -> range:
    """The depths to search: 1..``depth`` when deepening iteratively (by default with any limit), else one pass."""
    if depth is not None and depth < 1:
        raise ValueError("depth must be at least 1")
    last = UNLIMITED if depth is None else depth
    if iterative is None:
        iterative = limited or depth is not None
    return range(1 if iterative else last, last + 1)


def decision_player(game: Game[Any, Any], state: Any, what: str) -> int:
    """The player (or ``CHANCE``) to move at ``state``; simultaneous nodes are refused, naming ``what``."""
    mover = game.to_move(state)
    if mover == SIMULTANEOUS:
        raise StratagemError(f"{what} cannot search simultaneous-move nodes; use the matrix-game solver")
    return mover



def refusal(game: Any, problem: str) -> StratagemError:
    """A compiled search's refusal (its kernel's ``SearchRefused``), raised as the reference search raises
    it: a position met twice on one line is a :class:`RepeatingPosition` (the game can go on for ever as set
    up), any other a :class:`StratagemError` naming the game."""
    kind = RepeatingPosition if "repeats on one line" in problem else StratagemError
    return kind(f"{game.name}: {problem}")

def terminal_result(game: Game[S, M], state: S, method: str, assumption: str, player: int,
                    started: float) -> MinimaxResult[M]:
    """The result of searching a terminal position: its returns, solved, no move."""
    values = tuple(game.returns(state))
    return MinimaxResult(method, SOLVED, assumption, player, values[player], values, None, (), 0, 0, 1,
                         time.perf_counter() - started, None, values[player])

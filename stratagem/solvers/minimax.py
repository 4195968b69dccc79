"""Game-tree search for games of two or more players: the minimax family.

Every search takes any :class:`~stratagem.core.game.Game` and returns one
:class:`MinimaxResult`, which says what was established and under which assumption:

* :func:`plain_minimax` -- the reference: every node visited, no pruning, no table. Exact minimax
  values for two-player zero-sum games, expectimax at chance nodes. Tests check the fast searches
  against it.
* :func:`alphabeta` -- negamax alpha-beta for two-player zero-sum games without chance, with a
  transposition table, iterative deepening (by default when a depth, time or node limit is set)
  and move ordering (the table's move first, then the game's
  :meth:`~stratagem.core.game.MoveOrdering.order_moves` hint). Values carry the distance to
  the result: the winner prefers the fastest win, the loser the slowest loss.
* :func:`expectiminimax` -- two-player zero-sum games with chance nodes; alpha-beta at the players'
  nodes and Star1/Star2 pruning at chance nodes (Ballard 1983), which needs the bounds ``lo``/``hi``
  of every return.
* :func:`paranoid` -- three or more players: one player against the coalition of all the others,
  reduced to a two-sided search of that player's return (the same engine as expectiminimax).
* :func:`maxn` -- three or more players: max^n, every player maximises their own return.
* :func:`rank_moves` -- every root move with its value, best first, by any of the above.

Values
    A *value* is a number on the scale of :meth:`Game.returns`. With integer returns and
    :class:`~fractions.Fraction` probabilities every value is an exact ``int`` or ``Fraction``
    (chance nodes average with the probabilities the game gives); float returns give float values
    with the usual rounding. ``depth`` counts every ply: moves and chance outcomes alike.

Distance to the result (:func:`alphabeta`, :func:`plain_minimax` without chance)
    Internally a score is a pair ``(r, t)``: ``r`` the return for the player to move, ``t`` is
    ``-d`` for a result ``r > 0`` reached in ``d`` plies, ``+d`` for ``r < 0``, ``0`` for ``r == 0``;
    pairs compare lexicographically, so a higher return wins and, at equal returns, a faster win
    or a slower loss. Scores are relative to the node they belong to (the distance is counted
    from that node, not from the root), so a table entry is valid wherever the position recurs:
    this is the mate-distance adjustment, done once when a child's score is carried to its parent
    (:func:`_later`) and undone on the window passed down (:func:`_sooner`). Draws carry no
    distance; the reported ``distance`` of a draw is the length of the principal variation.

Bound cutoffs (mate-distance pruning)
    With the returns bounded by ``lo`` and ``hi``, no decision node can score better than a win
    worth ``hi`` on the next ply, nor worse than a loss worth ``lo`` on it. :func:`alphabeta` narrows
    every window to those scores: a node whose window lies outside them is decided without a visit,
    and a move reaching the best possible score ends its node's search (a win in one ends the
    root's). The expectiminimax engine does the same with the values ``lo`` and ``hi``. Exact values
    and distances are unchanged; only nodes that cannot matter are skipped.

Honesty of the result
    ``status`` is ``"solved"`` only when every line was searched to a terminal state (no depth
    horizon, no table entry from a shallower search was relied on). A depth-limited search that
    used the game's :meth:`~stratagem.core.game.Evaluation.evaluate` at its horizon is
    ``"heuristic"``. A search stopped by ``time_limit`` or ``max_nodes`` -- or depth-limited on a
    game without an evaluation -- is ``"unknown"``: ``value`` is ``None`` and ``estimate``, ``best_move``
    and ``pv`` come from the deepest completed iteration, as a best guess and not a claim.

Transposition table (:class:`TranspositionTable`)
    Bounded to ``tt_size`` entries in two tiers of half the size each. The *depth-preferred* tier
    keeps deep results: a new entry takes the place of the same state's entry if searched at
    least as deep, and when the tier is full it challenges the tier's oldest entry, replacing it
    (which is demoted to the other tier) only if searched at least as deep; a surviving oldest
    entry moves to the back, like a clock. What the depth-preferred tier refuses goes to the
    *always-replace* tier, which evicts its oldest entry (first in, first out). Proven entries
    count as infinitely deep. Both tiers are insertion-ordered dicts, so the policy, the node
    counts and the moves reported are the same on every run.

Games must be finite and acyclic; a state repeated on the current line raises
:class:`~stratagem.core.errors.StratagemError`. No game is imported here.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Generic

from stratagem.core.deadline import Deadline
from stratagem.core.errors import StratagemError
from stratagem.core.game import CHANCE, SIMULTANEOUS, Evaluation, Game, M, MoveOrdering, S

__all__ = [
    "ASSUME_MAXN",
    "ASSUME_OPEN",
    "ASSUME_PARANOID",
    "HEURISTIC",
    "NOT_RANKED",
    "SOLVED",
    "UNKNOWN",
    "MinimaxResult",
    "MoveValue",
    "Progress",
    "TTStats",
    "TranspositionTable",
    "alphabeta",
    "expectiminimax",
    "maxn",
    "paranoid",
    "plain_minimax",
    "rank_key",
    "rank_moves",
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
Score = tuple[Any, int]

#: Table depth of a proven entry: deeper than any search.
PROVEN = 1 << 30
#: Depth used for "no depth limit".
UNLIMITED = 1 << 20
EXACT, LOWER, UPPER = 0, 1, 2
NEG_INF: Score = (-math.inf, 0)
POS_INF: Score = (math.inf, 0)
_CLOCK_EVERY = 256
#: A margin below (above) a value, for the null-window test "is this child as good as v?".
_TINY = Fraction(1, 1 << 40)


@dataclass(frozen=True)
class TTStats:
    """Use of the transposition table: size, probes, hits, cutoffs it gave, stores, evictions."""

    capacity: int
    entries: int
    probes: int
    hits: int
    cutoffs: int
    stores: int
    evictions: int


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


class TranspositionTable:
    """Bounded two-tier table keyed by state; see the module docstring for the policy.

    An entry is ``(depth, flag, score, move)``: the remaining depth it was searched to (``PROVEN``
    when no horizon was met below it), whether ``score`` is exact or a lower/upper bound, and the
    best move found.
    """

    def __init__(self, max_entries: int = 1 << 20) -> None:
        if max_entries < 2:
            raise ValueError("a transposition table needs room for at least 2 entries")
        self.capacity = max_entries
        self._deep_cap = max_entries // 2
        self._recent_cap = max_entries - self._deep_cap
        self._deep: dict[Hashable, tuple[int, int, Any, Any]] = {}
        self._recent: dict[Hashable, tuple[int, int, Any, Any]] = {}
        self.probes = self.hits = self.cutoffs = self.stores = self.evictions = 0

    def __len__(self) -> int:
        return len(self._deep) + len(self._recent)

    def get(self, key: Hashable) -> tuple[int, int, Any, Any] | None:
        self.probes += 1
        entry = self._deep.get(key)
        if entry is None:
            entry = self._recent.get(key)
        if entry is not None:
            self.hits += 1
        return entry

    def put(self, key: Hashable, entry: tuple[int, int, Any, Any]) -> None:
        self.stores += 1
        depth = entry[0]
        old = self._deep.get(key)
        if old is not None:
            if depth >= old[0]:
                self._deep[key] = entry
                self._recent.pop(key, None)
            else:
                self._put_recent(key, entry)
            return
        if len(self._deep) < self._deep_cap:
            self._deep[key] = entry
            self._recent.pop(key, None)
            return
        victim_key = next(iter(self._deep))
        victim = self._deep.pop(victim_key)
        if depth >= victim[0]:
            self._deep[key] = entry
            self._recent.pop(key, None)
            self._put_recent(victim_key, victim)
        else:
            self._deep[victim_key] = victim  # survives, moves to the back
            self._put_recent(key, entry)

    def _put_recent(self, key: Hashable, entry: tuple[int, int, Any, Any]) -> None:
        if key in self._recent:
            del self._recent[key]
        elif len(self._recent) >= self._recent_cap:
            del self._recent[next(iter(self._recent))]
            self.evictions += 1
        self._recent[key] = entry

    def stats(self) -> TTStats:
        return TTStats(self.capacity, len(self), self.probes, self.hits, self.cutoffs, self.stores,
                       self.evictions)


class _Stop(Exception):
    """Raised inside a search when a limit is reached."""


def _deadline(time_limit: TimeLimit) -> Deadline | None:
    """The deadline a search stops at: the one given, or ``time_limit`` seconds from now."""
    if time_limit is None or isinstance(time_limit, Deadline):
        return time_limit
    return Deadline(time_limit)


def _sign(x: Any) -> int:
    return 1 if x > 0 else -1 if x < 0 else 0


def _later(s: Score) -> Score:
    """The same result seen one ply further from it: a win one ply slower, a loss one ply later."""
    return (s[0], s[1] - _sign(s[0]))


def _sooner(s: Score) -> Score:
    """Inverse of :func:`_later` (used on window bounds passed to a child)."""
    return (s[0], s[1] + _sign(s[0]))


def _neg(s: Score) -> Score:
    return (-s[0], -s[1])


#: A distance beyond any game: the ``t`` of "a loss, however late" (or "a win, however soon").
_FAR = 1 << 40


def _best_possible(hi: Value) -> Score:
    """The highest score a decision node can have when no return exceeds ``hi``: a win on the next ply."""
    return (hi, -1) if hi > 0 else (hi, 0) if hi == 0 else (hi, _FAR)


def _worst_possible(lo: Value) -> Score:
    """The lowest score a decision node can have when no return is below ``lo``: a loss on the next ply."""
    return (lo, 1) if lo < 0 else (lo, 0) if lo == 0 else (lo, -_FAR)


def _return_bounds(game: Game[Any, Any], lo: Value | None, hi: Value | None) -> tuple[Value, Value]:
    """``lo`` and ``hi`` if given, else the game's ``return_bounds`` (attribute or method), else -1 and 1."""
    if (lo is None) != (hi is None):
        raise ValueError("give both lo and hi, or neither")
    if lo is None:
        declared = getattr(game, "return_bounds", None)
        if declared is None:
            return (-1, 1)  # the convention of two-player zero-sum games: +1, -1 or 0
        lo, hi = declared() if callable(declared) else declared
    if not lo < hi:
        raise ValueError("lo must be below hi")
    return lo, hi


class _Engine:
    """What every search shares: node counting, limits, progress, cycle detection, move order."""

    def __init__(self, game: Game[Any, Any], *, tt: TranspositionTable | None, ordering: bool,
                 time_limit: TimeLimit, max_nodes: int | None, progress: Progress | None,
                 progress_every: int) -> None:
        self.game = game
        self.tt = tt
        self.ordering = ordering and isinstance(game, MoveOrdering)
        self.evaluation = isinstance(game, Evaluation)
        self.started = time.perf_counter()
        self.deadline = _deadline(time_limit)
        self.max_nodes = max_nodes
        self.progress = progress
        self.progress_every = max(1, progress_every)
        self.nodes = 0
        self.horizon = 0  # horizon leaves met or unproven table entries relied on
        self.iteration = 0
        self.limits_on = True
        self.path: set[Any] = set()

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
                raise _Stop
            if self.deadline is not None and n % _CLOCK_EVERY == 0 and self.deadline.expired():
                raise _Stop
        if self.progress is not None and n % self.progress_every == 0:
            self.progress(self.iteration, n)

    def enter(self, state: Any) -> None:
        if state in self.path:
            raise StratagemError(f"{self.game.name}: position {self.game.format_state(state)} repeats on one "
                                 "line; the minimax searches need a game without cycles")
        self.path.add(state)

    def moves(self, state: Any, first: Any, ordered: bool = True) -> list[Any]:
        moves = list(self.game.legal_moves(state))
        if not moves:
            raise StratagemError(f"{self.game.name}: position {self.game.format_state(state)} is not "
                                 "terminal but has no legal move")
        if self.ordering and ordered:
            moves = list(self.game.order_moves(state, moves))  # type: ignore[attr-defined]
        if first is not None and first in moves and moves[0] != first:
            moves.remove(first)
            moves.insert(0, first)
        return moves

    def estimate(self, state: Any, player: int) -> Value:
        self.horizon += 1
        if self.evaluation:
            return self.game.evaluate(state)[player]  # type: ignore[attr-defined]
        return 0

    def seconds(self) -> float:
        return time.perf_counter() - self.started

    def tt_stats(self) -> TTStats | None:
        return self.tt.stats() if self.tt is not None else None


def _status(proven: bool, evaluation: bool) -> str:
    return SOLVED if proven else HEURISTIC if evaluation else UNKNOWN


def _depths(depth: int | None, iterative: bool | None, limited: bool) -> range:
    if depth is not None and depth < 1:
        raise ValueError("depth must be at least 1")
    last = UNLIMITED if depth is None else depth
    if iterative is None:
        iterative = limited or depth is not None
    return range(1 if iterative else last, last + 1)


def _decision_player(game: Game[Any, Any], state: Any, what: str) -> int:
    mover = game.to_move(state)
    if mover == SIMULTANEOUS:
        raise StratagemError(f"{what} cannot search simultaneous-move nodes; use the matrix-game solver")
    return mover


def _terminal_result(game: Game[S, M], state: S, method: str, assumption: str, player: int,
                     started: float) -> MinimaxResult[M]:
    values = tuple(game.returns(state))
    return MinimaxResult(method, SOLVED, assumption, player, values[player], values, None, (), 0, 0, 1,
                         time.perf_counter() - started, None, values[player])


# ----------------------------------------------------------------------------------------------
# The reference


def plain_minimax(game: Game[S, M], state: S, depth: int | None = None) -> MinimaxResult[M]:
    """Minimax (expectimax at chance nodes) over the whole tree, no pruning and no table.

    For two-player zero-sum games. Without chance the value carries the distance to the result
    under the same preference as :func:`alphabeta`; with chance ``distance`` is ``None``. With a
    depth limit the game's evaluation (or 0 without one) stands in at the horizon and the status
    is ``"heuristic"``/``"unknown"`` if the horizon was reached.
    """
    started = time.perf_counter()
    if game.num_players != 2:
        raise StratagemError(f"plain_minimax needs a two-player zero-sum game; {game.name} has "
                             f"{game.num_players} players")
    evaluation = isinstance(game, Evaluation)
    counts = {"nodes": 0, "horizon": 0, "chance": 0}

    def value(s: S, left: int) -> Score:
        """Score for player 0: maximised by player 0, minimised by player 1."""
        counts["nodes"] += 1
        if game.is_terminal(s):
            return (game.returns(s)[0], 0)
        if left <= 0:
            counts["horizon"] += 1
            return (game.evaluate(s)[0] if evaluation else 0, 0)  # type: ignore[attr-defined]
        mover = _decision_player(game, s, "plain_minimax")
        if mover == CHANCE:
            counts["chance"] += 1
            return (sum(p * value(game.apply(s, o), left - 1)[0] for o, p in game.chance_outcomes(s)), 0)
        scores = [_later(value(game.apply(s, m), left - 1)) for m in game.legal_moves(s)]
        return max(scores) if mover == 0 else min(scores)

    limit = UNLIMITED if depth is None else depth
    if game.is_terminal(state):
        return _terminal_result(game, state, "plain", ASSUME_OPEN, 0, started)
    root_mover = game.to_move(state)
    player = 0 if root_mover == CHANCE else root_mover
    best_move: M | None = None
    pv: list[M] = []
    if root_mover == CHANCE:
        score = value(state, limit)
    else:
        moves = list(game.legal_moves(state))
        scores = [_later(value(game.apply(state, m), limit - 1)) for m in moves]
        score = max(scores) if root_mover == 0 else min(scores)
        best_move = moves[scores.index(score)]
        pv = [best_move]
        counts["nodes"] += 1
    v0 = score[0]
    proven = counts["horizon"] == 0
    distance = None if counts["chance"] or not proven else abs(score[1]) if v0 != 0 else None
    mine = v0 if player == 0 else -v0
    return MinimaxResult("plain", _status(proven, evaluation), ASSUME_OPEN, player,
                         mine if proven or evaluation else None, (v0, -v0) if proven or evaluation else None,
                         best_move, tuple(pv), distance, depth, counts["nodes"], time.perf_counter() - started,
                         None, mine)


# ----------------------------------------------------------------------------------------------
# Negamax alpha-beta with distance to the result


class _Negamax(_Engine):
    def __init__(self, game: Game[Any, Any], root: Any, lo: Value, hi: Value, **kwargs: Any) -> None:
        super().__init__(game, **kwargs)
        self.root = root
        self.root_best: Any = None
        self.lo: Any = lo
        self.hi: Any = hi
        self.best_possible = _best_possible(hi)
        self.worst_possible = _worst_possible(lo)
        # The best (worst) score a move to a non-terminal position can bring, whoever moves next.
        self.best_later = max(_later(self.best_possible), _later(_neg(self.worst_possible)))
        self.worst_later = min(_later(self.worst_possible), _later(_neg(self.best_possible)))

    def search(self, state: Any, depth: int, alpha: Score, beta: Score) -> Score:
        """Fail-soft negamax score of a decision node for its player to move."""
        # Bound cutoffs (mate-distance pruning): no score here beats a win on the next ply nor
        # falls below a loss on it. A window outside those is decided without a visit, and a move
        # reaching the best possible score ends the search of this node.
        best_possible, worst_possible = self.best_possible, self.worst_possible
        if alpha >= best_possible:
            return best_possible
        if beta <= worst_possible:
            return worst_possible
        if beta > best_possible:
            beta = best_possible
        if alpha < worst_possible:
            alpha = worst_possible
        self.tick()
        tt = self.tt
        hit, score, tt_move = self.probe(state, depth, alpha, beta)
        if hit:
            return score  # type: ignore[no-any-return]
        game = self.game
        me = game.to_move(state)
        horizon_before = self.horizon
        best, best_move, a = NEG_INF, None, alpha
        self.enter(state)
        try:
            if tt_move is not None:
                # The table's move first, before the (costly) ordering of the rest: a cutoff by it
                # saves generating and ordering the other moves.
                v = self.child(game.apply(state, tt_move), depth - 1, a, beta, me)
                best, best_move = v, tt_move
                if v > a:
                    a = v
            if a < beta:
                # When only a move that ends the game can fall inside the window, every other move
                # is decided without a visit: the game's move ordering would be wasted work.
                ordered = not (a >= self.best_later or beta <= self.worst_later)
                for move in self.moves(state, None, ordered):
                    if move == tt_move:
                        continue
                    v = self.child(game.apply(state, move), depth - 1, a, beta, me)
                    if v > best:
                        best, best_move = v, move
                        if v > a:
                            a = v
                            if a >= beta:
                                break
        finally:
            self.path.discard(state)
        if tt is not None:
            # A score at either end of what is possible is exact whatever the window.
            flag = (EXACT if best >= best_possible or best <= worst_possible
                    else UPPER if best <= alpha else LOWER if best >= beta else EXACT)
            tt.put(state, (PROVEN if self.horizon == horizon_before else depth, flag, best, best_move))
        if state is self.root:
            self.root_best = best_move
        return best

    def child(self, child: Any, depth: int, alpha: Score, beta: Score, me: int) -> Score:
        """Score of ``child`` for ``me`` (the parent's player), one ply further from the result."""
        game = self.game
        if game.is_terminal(child):
            self.tick()
            r = game.returns(child)[me]
            if not (self.lo <= r <= self.hi and self.lo <= -r <= self.hi):  # for either player
                self.out_of_bounds(r, child, "return")
            return (r, -1) if r > 0 else (r, 1) if r < 0 else (r, 0)
        if depth <= 0:
            self.tick()
            e = self.estimate(child, me)
            if not (self.lo <= e <= self.hi and self.lo <= -e <= self.hi):
                self.out_of_bounds(e, child, "evaluation")
            return _later((e, 0))
        mover = game.to_move(child)
        if mover == me:
            return _later(self.search(child, depth, _sooner(alpha), _sooner(beta)))
        if mover < 0:
            raise StratagemError(f"alphabeta met a {'chance' if mover == CHANCE else 'simultaneous'} node "
                                 f"({game.format_state(child)}); use expectiminimax for games with chance")
        return _later(_neg(self.search(child, depth, _neg(_sooner(beta)), _neg(_sooner(alpha)))))

    def out_of_bounds(self, v: Value, state: Any, what: str) -> None:
        raise StratagemError(f"{self.game.name}: {what} {v} at {self.game.format_state(state)} is outside the "
                             f"bounds [{self.lo}, {self.hi}] of the returns; give alphabeta the right lo and hi "
                             "(or the game a return_bounds)")

    def pv(self, state: Any, score: Score, depth: int, first: Any) -> list[Any]:
        """A line of moves that keeps the score ``score``, found by null-window tests."""
        line: list[Any] = []
        while depth > 0 and not self.game.is_terminal(state):
            me = self.game.to_move(state)
            below = (score[0], score[1] - 1)
            for move in self.moves(state, first):
                child = self.game.apply(state, move)
                if self.child(child, depth - 1, below, score, me) >= score:
                    break
            else:
                return line  # search instability at a heuristic horizon: stop the line here
            line.append(move)
            if self.game.is_terminal(child) or depth - 1 <= 0:
                break
            mover = self.game.to_move(child)
            score = _sooner(score) if mover == me else _neg(_sooner(score))
            state, depth, first = child, depth - 1, None
            if self.tt is not None:
                entry = self.tt.get(state)
                first = entry[3] if entry is not None else None
        return line


def alphabeta(game: Game[S, M], state: S, *, depth: int | None = None, lo: Value | None = None,
              hi: Value | None = None, use_tt: bool = True, tt_size: int = 1 << 20,
              tt: TranspositionTable | None = None, use_ordering: bool = True, iterative: bool | None = None,
              time_limit: TimeLimit = None, max_nodes: int | None = None,
              progress: Progress | None = None, progress_every: int = 10_000) -> MinimaxResult[M]:
    """Negamax alpha-beta value of ``state`` in a two-player zero-sum game without chance.

    ``depth=None`` searches until every line ends (iterative deepening stops at the first
    iteration that met no horizon, so the answer is proven); with a depth the game's evaluation
    stands in at the horizon. ``use_tt``/``tt_size``, ``use_ordering`` and ``iterative`` switch the
    enhancements (for benchmarks; the value never depends on them). ``iterative=None`` deepens
    iteratively when there is a depth, time or node limit (so a stopped search has a best move from
    a completed iteration) and searches in one pass otherwise, where re-searching would only cost.
    ``time_limit`` (seconds, or a :class:`~stratagem.core.deadline.Deadline` shared with other work)
    and ``max_nodes`` stop the search with status ``"unknown"``;
    ``progress(iteration, nodes)`` is called every ``progress_every`` nodes.

    ``lo`` and ``hi`` bound every return (and evaluation) of either player; by default the game's
    ``return_bounds`` if it declares them, else -1 and 1 (the returns of a two-player zero-sum game).
    They give the bound cutoffs: no node can do better than winning (``hi``) on the next ply, nor
    worse than losing (``lo``) on it, so a move reaching that ends the node's search. A return or
    evaluation seen outside them raises; pass ``-math.inf`` and ``math.inf`` to do without.
    ``tt`` is a table to use instead of a new one, e.g. shared by searches of related positions
    (entries are valid wherever a position recurs; use one table per game and bounds).
    """
    started = time.perf_counter()
    lo, hi = _return_bounds(game, lo, hi)
    if game.num_players != 2:
        raise StratagemError(f"alphabeta needs a two-player zero-sum game; {game.name} has {game.num_players} "
                             "players (use paranoid or maxn)")
    if game.is_terminal(state):
        return _terminal_result(game, state, "alphabeta", ASSUME_OPEN, 0, started)
    me = _decision_player(game, state, "alphabeta")
    if me == CHANCE:
        raise StratagemError("alphabeta: the position is a chance node; use expectiminimax")
    if not use_tt:
        tt = None
    elif tt is None:
        tt = TranspositionTable(tt_size)
    engine = _Negamax(game, state, lo, hi, tt=tt, ordering=use_ordering, time_limit=time_limit, max_nodes=max_nodes,
                      progress=progress, progress_every=progress_every)
    done: tuple[int, Score, bool, Any] | None = None
    try:
        for d in _depths(depth, iterative, time_limit is not None or max_nodes is not None):
            engine.iteration = d
            engine.horizon = 0
            score = engine.search(state, d, NEG_INF, POS_INF)
            done = (d, score, engine.horizon == 0, engine.root_best)
            if done[2]:
                break
    except _Stop:
        pass
    if done is None:
        return MinimaxResult("alphabeta", UNKNOWN, ASSUME_OPEN, me, None, None, None, (), None, None,
                             engine.nodes, engine.seconds(), engine.tt_stats())
    d, score, proven, best = done
    stopped = not proven and depth is not None and d < depth or not proven and depth is None
    status = UNKNOWN if stopped else _status(proven, engine.evaluation)
    engine.limits_on = False
    # Without a table a stopped search would pay for the line again; report the move alone.
    if status == UNKNOWN and tt is None:
        pv = [] if best is None else [best]
    else:
        pv = engine.pv(state, score, UNLIMITED if proven else d, best)
    r = score[0]
    claim = status != UNKNOWN
    distance = (abs(score[1]) if r != 0 else len(pv)) if proven else None
    values = ((r, -r) if me == 0 else (-r, r)) if claim else None
    return MinimaxResult("alphabeta", status, ASSUME_OPEN, me, r if claim else None, values,
                         pv[0] if pv else best, tuple(pv), distance, None if proven and depth is None else d,
                         engine.nodes, engine.seconds(), engine.tt_stats(), r)


# ----------------------------------------------------------------------------------------------
# Expectiminimax with Star1/Star2, and paranoid search


class _Expecti(_Engine):
    """Alpha-beta on the return of ``pov``: ``pov`` maximises, every other player minimises."""

    def __init__(self, game: Game[Any, Any], pov: int, lo: Value | None, hi: Value | None, star: int,
                 root: Any, **kwargs: Any) -> None:
        super().__init__(game, **kwargs)
        self.pov = pov
        self.lo: Any = lo
        self.hi: Any = hi
        self.star = star if lo is not None and hi is not None else 0
        self.root = root
        self.root_best: Any = None

    def checked(self, v: Value, state: Any) -> Value:
        if self.lo is not None and self.hi is not None and not self.lo <= v <= self.hi:
            raise StratagemError(f"{self.game.name}: value {v} at {self.game.format_state(state)} is outside "
                                 f"the declared bounds [{self.lo}, {self.hi}]")
        return v

    def value(self, state: Any, depth: int, alpha: Value, beta: Value) -> Value:
        """Fail-soft value of any node for ``pov``."""
        self.tick()
        game = self.game
        if game.is_terminal(state):
            return self.checked(game.returns(state)[self.pov], state)
        if depth <= 0:
            return self.checked(self.estimate(state, self.pov), state)
        lo, hi = self.lo, self.hi
        if lo is not None:
            # Bound cutoffs: no value lies outside [lo, hi], so a window beyond them is decided.
            if alpha >= hi:
                return hi
            if beta <= lo:
                return lo
        tt = self.tt
        hit, score, tt_move = self.probe(state, depth, alpha, beta)
        if hit:
            return score
        mover = _decision_player(game, state, "expectiminimax")
        horizon_before = self.horizon
        best_move = None
        self.enter(state)
        try:
            if mover == CHANCE:
                best = self.chance(state, depth, alpha, beta)
            else:
                best, best_move = self.decide(state, depth, alpha, beta, mover == self.pov, tt_move)
        finally:
            self.path.discard(state)
        if tt is not None:
            flag = UPPER if best <= alpha else LOWER if best >= beta else EXACT
            tt.put(state, (PROVEN if self.horizon == horizon_before else depth, flag, best, best_move))
        if state is self.root:
            self.root_best = best_move
        return best

    def decide(self, state: Any, depth: int, alpha: Value, beta: Value, maximise: bool,
               tt_move: Any) -> tuple[Value, Any]:
        best: Value = -math.inf if maximise else math.inf
        best_move = None
        if self.lo is not None:
            # A move reaching the highest (lowest) possible value ends a max (min) node's search.
            # The caller's flag uses its own window: a value cut here at hi or lo is exact anyway.
            alpha, beta = max(alpha, self.lo), min(beta, self.hi)
        for move in self.moves(state, tt_move):
            v = self.value(self.game.apply(state, move), depth - 1, alpha, beta)
            if maximise:
                if v > best:
                    best, best_move = v, move
                    alpha = max(alpha, v)
            elif v < best:
                best, best_move = v, move
                beta = min(beta, v)
            if alpha >= beta:
                break
        return best, best_move

    def chance(self, state: Any, depth: int, alpha: Value, beta: Value) -> Value:
        """Expected value, with Star1 windows and (``star == 2``) Star2 probing of each outcome."""
        game = self.game
        outcomes = list(game.chance_outcomes(state))
        children = [game.apply(state, o) for o, _ in outcomes]
        probs = [p for _, p in outcomes]
        if self.star == 0:
            return sum(p * self.value(c, depth - 1, -math.inf, math.inf) for c, p in zip(children, probs, strict=True))
        n = len(children)
        los: list[Value] = [self.lo] * n
        his: list[Value] = [self.hi] * n
        # Weighted bounds p_i * lo_i, p_i * hi_i and their sums, kept up to date as bounds tighten.
        wlo = [p * self.lo for p in probs]
        whi = [p * self.hi for p in probs]
        sums = [sum(wlo), sum(whi)]

        def tighten(i: int, lo: Value, hi: Value) -> None:
            if lo != los[i]:
                w = probs[i] * lo
                sums[0] += w - wlo[i]
                los[i], wlo[i] = lo, w
            if hi != his[i]:
                w = probs[i] * hi
                sums[1] += w - whi[i]
                his[i], whi[i] = hi, w

        def window(i: int) -> tuple[Value, Value]:
            """Child i's window: outside it the node's value is outside (alpha, beta) whatever the rest."""
            a = los[i] if alpha == -math.inf else max((alpha - sums[1] + whi[i]) / probs[i], los[i])
            b = his[i] if beta == math.inf else min((beta - sums[0] + wlo[i]) / probs[i], his[i])
            return a, b

        def cut() -> Value | None:
            if sums[1] <= alpha:
                return sums[1]
            return sums[0] if sums[0] >= beta else None

        if self.star >= 2 and depth >= 2:
            for i, child in enumerate(children):
                if game.is_terminal(child):
                    continue
                mover = game.to_move(child)
                if mover < 0:
                    continue
                a, b = window(i)
                if a >= b:
                    continue
                self.tick()
                self.enter(child)
                try:
                    entry = self.tt.get(child) if self.tt is not None else None
                    first = self.moves(child, entry[3] if entry is not None else None)[0]
                    w = self.value(game.apply(child, first), depth - 2, a, b)
                finally:
                    self.path.discard(child)
                if mover == self.pov and w > a:
                    tighten(i, max(los[i], w), his[i])  # a max node is worth at least its first move
                elif mover != self.pov and w < b:
                    tighten(i, los[i], min(his[i], w))  # a min node is worth at most its first move
                bound = cut()
                if bound is not None:
                    return bound
        for i, child in enumerate(children):
            bound = cut()
            if bound is not None:
                return bound
            if los[i] == his[i]:
                continue
            a, b = window(i)
            if a >= b:
                continue  # only float rounding gets here; the child is searched exactly below
            v = self.value(child, depth - 1, a, b)
            # Fail-soft: v <= a means value <= v, v >= b means value >= v, else value == v.
            tighten(i, v if v > a else los[i], v if v < b else his[i])
        bound = cut()
        if bound is not None:
            return bound
        for i, child in enumerate(children):  # only float rounding can leave a child open here
            if los[i] != his[i]:
                los[i] = self.value(child, depth - 1, -math.inf, math.inf)
        return sum(p * v for p, v in zip(probs, los, strict=True))

    def pv(self, state: Any, v: Value, depth: int) -> list[Any]:
        line: list[Any] = []
        while depth > 0 and not self.game.is_terminal(state):
            mover = self.game.to_move(state)
            if mover == CHANCE:
                break
            maximise = mover == self.pov
            entry = self.tt.get(state) if self.tt is not None else None
            for move in self.moves(state, entry[3] if entry is not None else None):
                child = self.game.apply(state, move)
                if maximise and self.value(child, depth - 1, v - _TINY, v) >= v:
                    break
                if not maximise and self.value(child, depth - 1, v, v + _TINY) <= v:
                    break
            else:
                break
            line.append(move)
            state, depth = child, depth - 1
        return line


def _numeric(method: str, assumption: str, game: Game[S, M], state: S, pov: int | None, lo: Value | None,
             hi: Value | None, star: int, depth: int | None, use_tt: bool, tt_size: int,
             table: TranspositionTable | None, use_ordering: bool, iterative: bool | None,
             time_limit: TimeLimit, max_nodes: int | None, progress: Progress | None,
             progress_every: int) -> MinimaxResult[M]:
    started = time.perf_counter()
    root_mover = _decision_player(game, state, method)
    player = pov if pov is not None else (0 if root_mover < 0 else root_mover)
    if game.is_terminal(state):
        result = _terminal_result(game, state, method, assumption, player, started)
        return result if method == "expectiminimax" else _paranoid_values(result)
    tt = None if not use_tt else table if table is not None else TranspositionTable(tt_size)
    engine = _Expecti(game, player, lo, hi, star, state, tt=tt, ordering=use_ordering, time_limit=time_limit,
                      max_nodes=max_nodes, progress=progress, progress_every=progress_every)
    done: tuple[int, Value, bool, Any] | None = None
    try:
        for d in _depths(depth, iterative, time_limit is not None or max_nodes is not None):
            engine.iteration = d
            engine.horizon = 0
            v = engine.value(state, d, -math.inf, math.inf)
            done = (d, v, engine.horizon == 0, engine.root_best)
            if done[2]:
                break
    except _Stop:
        pass
    if done is None:
        return MinimaxResult(method, UNKNOWN, assumption, player, None, None, None, (), None, None, engine.nodes,
                             engine.seconds(), engine.tt_stats())
    d, v, proven, best = done
    stopped = not proven and (depth is None or d < depth)
    status = UNKNOWN if stopped else _status(proven, engine.evaluation)
    engine.limits_on = False
    if status == UNKNOWN and tt is None:
        pv = [] if best is None else [best]
    else:
        pv = engine.pv(state, v, UNLIMITED if proven else d)
    claim = status != UNKNOWN
    values = None
    if claim and method == "expectiminimax":
        values = (v, -v) if player == 0 else (-v, v)
    return MinimaxResult(method, status, assumption, player, v if claim else None, values,
                         pv[0] if pv else best, tuple(pv), None, None if proven and depth is None else d,
                         engine.nodes, engine.seconds(), engine.tt_stats(), v)


def _paranoid_values(result: MinimaxResult[M]) -> MinimaxResult[M]:
    return MinimaxResult(result.method, result.status, result.assumption, result.player, result.value, None,
                         result.best_move, result.pv, result.distance, result.depth, result.nodes, result.seconds,
                         result.tt, result.estimate)


def expectiminimax(game: Game[S, M], state: S, *, lo: Value | None = None, hi: Value | None = None,
                   star: int = 2, depth: int | None = None, use_tt: bool = True, tt_size: int = 1 << 20,
                   tt: TranspositionTable | None = None, use_ordering: bool = True,
                   iterative: bool | None = None, time_limit: TimeLimit = None,
                   max_nodes: int | None = None, progress: Progress | None = None,
                   progress_every: int = 10_000) -> MinimaxResult[M]:
    """Expectiminimax value of ``state`` in a two-player zero-sum game with chance nodes.

    ``lo`` and ``hi`` bound every return (and evaluation) for the player to move at the root --
    for win/draw/loss games ``-1`` and ``1``; a value outside them raises. ``star`` selects the
    pruning at chance nodes: 0 none (every outcome with a full window; the only choice without
    bounds), 1 Star1 (windows derived from the bounds), 2 Star2 (Star1 after probing each outcome's
    first move). The value is exact: a ``Fraction`` with integer returns and Fraction
    probabilities. ``distance`` is ``None`` and the principal variation stops at the first chance
    node. Other parameters as in :func:`alphabeta` (a shared ``tt`` must only serve searches for the
    same player to move at the root, with the same bounds).
    """
    if game.num_players != 2:
        raise StratagemError(f"expectiminimax needs a two-player zero-sum game; {game.name} has "
                             f"{game.num_players} players (use paranoid or maxn)")
    if star not in (0, 1, 2):
        raise ValueError("star must be 0, 1 or 2")
    if (lo is None) != (hi is None) or (lo is not None and not lo < hi):
        raise ValueError("give both lo and hi, with lo < hi")
    return _numeric("expectiminimax", ASSUME_OPEN, game, state, None, lo, hi, star, depth, use_tt, tt_size, tt,
                    use_ordering, iterative, time_limit, max_nodes, progress, progress_every)


def paranoid(game: Game[S, M], state: S, player: int | None = None, *, lo: Value | None = None,
             hi: Value | None = None, star: int = 2, depth: int | None = None, use_tt: bool = True,
             tt_size: int = 1 << 20, tt: TranspositionTable | None = None, use_ordering: bool = True,
             iterative: bool | None = None,
             time_limit: TimeLimit = None, max_nodes: int | None = None, progress: Progress | None = None,
             progress_every: int = 10_000) -> MinimaxResult[M]:
    """What ``player`` (default: the player to move) can guarantee against all others together.

    The paranoid assumption (Sturtevant and Korf 2000): every other player minimises ``player``'s
    return, so the search is two-sided alpha-beta on that return, with expectation at chance nodes
    (Star1/Star2 when ``lo``/``hi`` bound the return). The result is labelled ``"paranoid"``;
    ``values`` is ``None`` since only ``player``'s guarantee is computed. A shared ``tt`` must only
    serve searches for the same ``player`` with the same bounds.
    """
    if star not in (0, 1, 2):
        raise ValueError("star must be 0, 1 or 2")
    if player is not None and not 0 <= player < game.num_players:
        raise ValueError(f"player {player} is not one of the {game.num_players} players")
    if (lo is None) != (hi is None) or (lo is not None and not lo < hi):
        raise ValueError("give both lo and hi, with lo < hi")
    result = _numeric("paranoid", ASSUME_PARANOID, game, state, player, lo, hi, star, depth, use_tt, tt_size, tt,
                      use_ordering, iterative, time_limit, max_nodes, progress, progress_every)
    return _paranoid_values(result)


# ----------------------------------------------------------------------------------------------
# max^n


class _MaxN(_Engine):
    def vector(self, state: Any, depth: int) -> tuple[Value, ...]:
        """The max^n vector of ``state``; ties go to the first move in the game's order."""
        self.tick()
        game = self.game
        if game.is_terminal(state):
            return tuple(game.returns(state))
        if depth <= 0:
            self.horizon += 1
            if self.evaluation:
                return tuple(game.evaluate(state))  # type: ignore[attr-defined]
            return (0,) * game.num_players
        if self.tt is not None:
            entry = self.tt.get(state)
            if entry is not None and entry[0] >= depth:
                if entry[0] < PROVEN:
                    self.horizon += 1
                self.tt.cutoffs += 1
                return entry[2]  # type: ignore[no-any-return]
        mover = _decision_player(game, state, "maxn")
        horizon_before = self.horizon
        self.enter(state)
        try:
            best_move = None
            if mover == CHANCE:
                total: list[Value] = [0] * game.num_players
                for o, p in game.chance_outcomes(state):
                    vec = self.vector(game.apply(state, o), depth - 1)
                    total = [t + p * x for t, x in zip(total, vec, strict=True)]
                best = tuple(total)
            else:
                best = ()
                for move in game.legal_moves(state):
                    vec = self.vector(game.apply(state, move), depth - 1)
                    if not best or vec[mover] > best[mover]:
                        best, best_move = vec, move
                if not best:
                    raise StratagemError(f"{game.name}: position {game.format_state(state)} is not terminal "
                                         "but has no legal move")
        finally:
            self.path.discard(state)
        if self.tt is not None:
            self.tt.put(state, (PROVEN if self.horizon == horizon_before else depth, EXACT, best, best_move))
        return best

    def best(self, state: Any, depth: int) -> Any:
        mover = self.game.to_move(state)
        best: tuple[Value, ...] = ()
        best_move = None
        for move in self.game.legal_moves(state):
            vec = self.vector(self.game.apply(state, move), depth - 1)
            if not best or vec[mover] > best[mover]:
                best, best_move = vec, move
        return best_move


def maxn(game: Game[S, M], state: S, *, depth: int | None = None, use_tt: bool = True, tt_size: int = 1 << 20,
         time_limit: TimeLimit = None, max_nodes: int | None = None, progress: Progress | None = None,
         progress_every: int = 10_000) -> MinimaxResult[M]:
    """The max^n vector of ``state`` (Luckhardt and Irani 1986): each player maximises their own return.

    No pruning (general-sum returns give no safe bound); the table only shares transpositions.
    Ties between moves go to the first in the game's legal order, which is part of the assumption,
    so results are labelled ``"max^n"``. Chance nodes average the vectors.
    """
    started = time.perf_counter()
    root_mover = _decision_player(game, state, "maxn")
    player = 0 if root_mover < 0 else root_mover
    if game.is_terminal(state):
        return _terminal_result(game, state, "maxn", ASSUME_MAXN, player, started)
    tt = TranspositionTable(tt_size) if use_tt else None
    engine = _MaxN(game, tt=tt, ordering=False, time_limit=time_limit, max_nodes=max_nodes, progress=progress,
                   progress_every=progress_every)
    limit = UNLIMITED if depth is None else depth
    engine.iteration = depth or 0
    try:
        vec = engine.vector(state, limit)
    except _Stop:
        return MinimaxResult("maxn", UNKNOWN, ASSUME_MAXN, player, None, None, None, (), None, None, engine.nodes,
                             engine.seconds(), engine.tt_stats())
    proven = engine.horizon == 0
    status = _status(proven, engine.evaluation)
    engine.limits_on = False
    line: list[Any] = []
    s, left = state, limit
    while left > 0 and not game.is_terminal(s) and game.to_move(s) >= 0:
        move = engine.best(s, left)
        line.append(move)
        s, left = game.apply(s, move), left - 1
    claim = status != UNKNOWN
    return MinimaxResult("maxn", status, ASSUME_MAXN, player, vec[player] if claim else None,
                         vec if claim else None, line[0] if line else None, tuple(line), None,
                         None if depth is None else depth, engine.nodes, engine.seconds(), engine.tt_stats(),
                         vec[player])


# ----------------------------------------------------------------------------------------------
# Every move at the root


@dataclass(frozen=True)
class MoveValue(Generic[M]):
    """One root move with its value for the player to move at the root, and what backs it.

    ``distance`` counts plies from the root (the move included) to the result; ``status`` and
    ``assumption`` are those of the search of the position after the move.
    """

    move: M
    value: Value | None
    distance: int | None
    status: str
    assumption: str


def rank_key(mv: MoveValue[Any]) -> tuple[int, Any, int]:
    """The order of :func:`rank_moves`: moves with a value first, the highest first; among wins the
    fastest, among losses the slowest (for re-sorting a ranking after a move's value became known)."""
    return _rank_key(mv)


def _rank_key(mv: MoveValue[Any]) -> tuple[int, Any, int]:
    if mv.value is None:
        return (1, 0, 0)
    d = mv.distance or 0
    # Higher value first; among wins the fastest, among losses the slowest.
    return (0, -mv.value, d if mv.value > 0 else -d if mv.value < 0 else 0)


def rank_moves(game: Game[S, M], state: S, search: Callable[..., MinimaxResult[M]] = alphabeta,
               **options: Any) -> list[MoveValue[M]]:
    """Every legal move at ``state`` with its value for the player to move, best first.

    Each move's position is searched on its own with ``search`` (:func:`alphabeta`,
    :func:`expectiminimax`, :func:`paranoid` or :func:`maxn`) and ``options``; ties keep the game's
    move order. A node limit applies to each move's search separately; a time limit (``time_limit``:
    seconds or a :class:`~stratagem.core.deadline.Deadline`) is one deadline for the whole ranking,
    so that ranking ``n`` moves never takes ``n`` times the limit: a move whose search has not begun
    when it has passed is listed with status :data:`NOT_RANKED` and no value. The searches of
    :func:`alphabeta`, :func:`expectiminimax` and :func:`paranoid` share one transposition table
    (one per player searched for), so what one move's search learnt about a position is not
    searched again under the next move; the values do not depend on it.
    """
    me = _decision_player(game, state, "rank_moves")
    if me < 0:
        raise StratagemError("rank_moves needs a position where a player is to move")
    if search is paranoid:
        options = {**options, "player": me}
    share = search in (alphabeta, expectiminimax, paranoid) and options.get("use_tt", True) \
        and options.get("tt") is None
    tables: dict[int, TranspositionTable] = {}
    label = ASSUME_PARANOID if search is paranoid else ASSUME_MAXN if search is maxn else ASSUME_OPEN
    deadline = _deadline(options.get("time_limit"))
    options = {**options, "time_limit": deadline}
    ranked: list[MoveValue[M]] = []
    for move in game.legal_moves(state):
        child = game.apply(state, move)
        if game.is_terminal(child):
            ranked.append(MoveValue(move, game.returns(child)[me], 1, SOLVED, label))
            continue
        if deadline is not None and deadline.expired():
            ranked.append(MoveValue(move, None, None, NOT_RANKED, label))
            continue
        if share:
            # Negamax scores are for the player to move at each node: one table serves every
            # search. Expectiminimax values are for the player to move at the searched root.
            mover = game.to_move(child)
            key = 0 if search is not expectiminimax else mover if mover >= 0 else 0
            table = tables.get(key)
            if table is None:
                table = tables[key] = TranspositionTable(options.get("tt_size", 1 << 20))
            result = search(game, child, **{**options, "tt": table})
        else:
            result = search(game, child, **options)
        distance = None if result.distance is None else result.distance + 1
        ranked.append(MoveValue(move, result.value_for(me), distance, result.status, result.assumption))
    return sorted(ranked, key=_rank_key)

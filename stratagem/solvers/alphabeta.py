"""Negamax alpha-beta: the exact value of a two-player zero-sum game without chance.

:func:`alphabeta` searches with a transposition table, iterative deepening (by default when a depth,
time or node limit is set) and move ordering (the table's move first, then the game's
:meth:`~stratagem.core.game.MoveOrdering.order_moves` hint), and returns the principal variation.
Values carry the distance to the result: the winner prefers the fastest win, the loser the slowest
loss. :func:`~stratagem.solvers.plainminimax.plain_minimax` is the reference it is tested against.

Distance to the result
    Internally a score is a pair ``(r, t)``: ``r`` the return for the player to move, ``t`` is
    ``-d`` for a result ``r > 0`` reached in ``d`` plies, ``+d`` for ``r < 0``, ``0`` for ``r == 0``;
    pairs compare lexicographically, so a higher return wins and, at equal returns, a faster win
    or a slower loss. Scores are relative to the node they belong to (the distance is counted
    from that node, not from the root), so a table entry is valid wherever the position recurs:
    this is the mate-distance adjustment, done once when a child's score is carried to its parent
    (:func:`later`) and undone on the window passed down (:func:`sooner`). Draws carry no
    distance; the reported ``distance`` of a draw is the length of the principal variation.

Bound cutoffs (mate-distance pruning)
    With the returns bounded by ``lo`` and ``hi``, no decision node can score better than a win
    worth ``hi`` on the next ply, nor worse than a loss worth ``lo`` on it. :func:`alphabeta` narrows
    every window to those scores: a node whose window lies outside them is decided without a visit,
    and a move reaching the best possible score ends its node's search (a win in one ends the
    root's). Exact values and distances are unchanged; only nodes that cannot matter are skipped.

Result status, limits and the table are described in :mod:`~stratagem.solvers.gametree` and
:mod:`~stratagem.solvers.transposition`. No game is imported here.
"""

from __future__ import annotations

import math
import time
from typing import Any

from stratagem.core.errors import StratagemError
from stratagem.core.game import CHANCE, Game, M, S
from stratagem.solvers.gametree import (
    ASSUME_OPEN,
    UNKNOWN,
    UNLIMITED,
    Engine,
    MinimaxResult,
    Progress,
    Stop,
    TimeLimit,
    Value,
    decision_player,
    depth_schedule,
    status_for,
    terminal_result,
)
from stratagem.solvers.transposition import EXACT, LOWER, PROVEN, UPPER, TranspositionTable

__all__ = ["alphabeta"]

#: A node's score for its player to move: ``(return, signed distance)``, see the module docstring.
Score = tuple[Any, int]
NEG_INF: Score = (-math.inf, 0)
POS_INF: Score = (math.inf, 0)


def _sign(x: Any) -> int:
    return 1 if x > 0 else -1 if x < 0 else 0


def later(s: Score) -> Score:
    """The same result seen one ply further from it: a win one ply slower, a loss one ply later."""
    return (s[0], s[1] - _sign(s[0]))


def sooner(s: Score) -> Score:
    """Inverse of :func:`later` (used on window bounds passed to a child)."""
    return (s[0], s[1] + _sign(s[0]))


def negate(s: Score) -> Score:
    """The same result for the other player: negamax's change of side."""
    return (-s[0], -s[1])


#: A distance beyond any game: the ``t`` of "a loss, however late" (or "a win, however soon").
_FAR = 1 << 40


def _best_possible(hi: Value) -> Score:
    """The highest score a decision node can have when no return exceeds ``hi``: a win on the next ply."""
    return (hi, -1) if hi > 0 else (hi, 0) if hi == 0 else (hi, _FAR)


def _worst_possible(lo: Value) -> Score:
    """The lowest score a decision node can have when no return is below ``lo``: a loss on the next ply."""
    return (lo, 1) if lo < 0 else (lo, 0) if lo == 0 else (lo, -_FAR)


def return_bounds(game: Game[Any, Any], lo: Value | None = None, hi: Value | None = None) -> tuple[Value, Value]:
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


class _Negamax(Engine):
    def __init__(self, game: Game[Any, Any], root: Any, lo: Value, hi: Value, **kwargs: Any) -> None:
        super().__init__(game, **kwargs)
        self.root = root
        self.root_best: Any = None
        self.lo: Any = lo
        self.hi: Any = hi
        self.best_possible = _best_possible(hi)
        self.worst_possible = _worst_possible(lo)
        # The best (worst) score a move to a non-terminal position can bring, whoever moves next.
        self.best_later = max(later(self.best_possible), later(negate(self.worst_possible)))
        self.worst_later = min(later(self.worst_possible), later(negate(self.best_possible)))

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
                                self.cutoff(move)
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
            return later((e, 0))
        mover = game.to_move(child)
        if mover == me:
            return later(self.search(child, depth, sooner(alpha), sooner(beta)))
        if mover < 0:
            raise StratagemError(f"alphabeta met a {'chance' if mover == CHANCE else 'simultaneous'} node "
                                 f"({game.format_state(child)}); use expectiminimax for games with chance")
        return later(negate(self.search(child, depth, negate(sooner(beta)), negate(sooner(alpha)))))

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
            score = sooner(score) if mover == me else negate(sooner(score))
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
    lo, hi = return_bounds(game, lo, hi)
    if game.num_players != 2:
        raise StratagemError(f"alphabeta needs a two-player zero-sum game; {game.name} has {game.num_players} "
                             "players (use paranoid or maxn)")
    if game.is_terminal(state):
        return terminal_result(game, state, "alphabeta", ASSUME_OPEN, 0, started)
    me = decision_player(game, state, "alphabeta")
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
        for d in depth_schedule(depth, iterative, time_limit is not None or max_nodes is not None):
            engine.iteration = d
            engine.horizon = 0
            score = engine.search(state, d, NEG_INF, POS_INF)
            done = (d, score, engine.horizon == 0, engine.root_best)
            if done[2]:
                break
    except Stop:
        pass
    if done is None:
        return MinimaxResult("alphabeta", UNKNOWN, ASSUME_OPEN, me, None, None, None, (), None, None,
                             engine.nodes, engine.seconds(), engine.tt_stats())
    d, score, proven, best = done
    stopped = not proven and depth is not None and d < depth or not proven and depth is None
    status = UNKNOWN if stopped else status_for(proven, engine.evaluation)
    engine.limits_on = False
    # A stopped search reports the move alone: its line re-searched the last finished iteration with the
    # limits off, which the table may no longer hold (or, without a table, does not hold at all).
    if status == UNKNOWN:
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


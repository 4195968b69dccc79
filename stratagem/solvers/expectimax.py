"""Expectiminimax: the exact value of a two-player zero-sum game with chance nodes.

:func:`expectiminimax` is alpha-beta at the players' nodes and Star1/Star2 pruning at chance nodes
(Ballard 1983), which needs the bounds ``lo``/``hi`` of every return. Its engine,
:class:`ExpectiSearch`, is alpha-beta on one player's return -- that player maximises, every other
player minimises -- so it also serves the paranoid search of :mod:`~stratagem.solvers.multiplayer`
and the proof trees of :mod:`~stratagem.solvers.prooftree`.

Bound cutoffs: no value lies outside ``[lo, hi]``, so a window beyond them is decided without a
visit and a move reaching ``hi`` (``lo``) ends a max (min) node's search. Values are exact: a
``Fraction`` with integer returns and Fraction probabilities. Result status and limits are described
in :mod:`~stratagem.solvers.gametree`. No game is imported here.
"""

from __future__ import annotations

import math
import time
from fractions import Fraction
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

__all__ = ["ExpectiSearch", "expectiminimax"]

#: A margin below (above) a value, for the null-window test "is this child as good as v?".
TINY = Fraction(1, 1 << 40)


class ExpectiSearch(Engine):
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
        mover = decision_player(game, state, "expectiminimax")
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
                if maximise and self.value(child, depth - 1, v - TINY, v) >= v:
                    break
                if not maximise and self.value(child, depth - 1, v, v + TINY) <= v:
                    break
            else:
                break
            line.append(move)
            state, depth = child, depth - 1
        return line


def numeric_search(method: str, assumption: str, game: Game[S, M], state: S, pov: int | None, lo: Value | None,
                   hi: Value | None, star: int, depth: int | None, use_tt: bool, tt_size: int,
                   table: TranspositionTable | None, use_ordering: bool, iterative: bool | None,
                   time_limit: TimeLimit, max_nodes: int | None, progress: Progress | None,
                   progress_every: int) -> MinimaxResult[M]:
    """Iteratively deepened :class:`ExpectiSearch` for ``pov`` (default: the player to move, or player 0
    at a chance node), labelled ``method`` and ``assumption``: the body of :func:`expectiminimax` and of
    :func:`~stratagem.solvers.multiplayer.paranoid`, which differ only in whose return is searched."""
    started = time.perf_counter()
    root_mover = decision_player(game, state, method)
    player = pov if pov is not None else (0 if root_mover < 0 else root_mover)
    if game.is_terminal(state):
        # The caller drops ``values`` for the paranoid search (only ``player``'s guarantee is meaningful).
        return terminal_result(game, state, method, assumption, player, started)
    tt = None if not use_tt else table if table is not None else TranspositionTable(tt_size)
    engine = ExpectiSearch(game, player, lo, hi, star, state, tt=tt, ordering=use_ordering, time_limit=time_limit,
                      max_nodes=max_nodes, progress=progress, progress_every=progress_every)
    done: tuple[int, Value, bool, Any] | None = None
    try:
        for d in depth_schedule(depth, iterative, time_limit is not None or max_nodes is not None):
            engine.iteration = d
            engine.horizon = 0
            v = engine.value(state, d, -math.inf, math.inf)
            done = (d, v, engine.horizon == 0, engine.root_best)
            if done[2]:
                break
    except Stop:
        pass
    if done is None:
        return MinimaxResult(method, UNKNOWN, assumption, player, None, None, None, (), None, None, engine.nodes,
                             engine.seconds(), engine.tt_stats())
    d, v, proven, best = done
    stopped = not proven and (depth is None or d < depth)
    status = UNKNOWN if stopped else status_for(proven, engine.evaluation)
    engine.limits_on = False
    # A stopped search reports the move alone: its line re-searched the last finished iteration with the limits
    # off, past the deadline (a 6-player STAKD paranoid search under time_limit=8 returned after 13.7-14.1 s).
    pv = ([] if best is None else [best]) if status == UNKNOWN else engine.pv(state, v, UNLIMITED if proven else d)
    claim = status != UNKNOWN
    values = None
    if claim and method == "expectiminimax":
        values = (v, -v) if player == 0 else (-v, v)
    return MinimaxResult(method, status, assumption, player, v if claim else None, values,
                         pv[0] if pv else best, tuple(pv), None, None if proven and depth is None else d,
                         engine.nodes, engine.seconds(), engine.tt_stats(), v)


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
    return numeric_search("expectiminimax", ASSUME_OPEN, game, state, None, lo, hi, star, depth, use_tt, tt_size, tt,
                    use_ordering, iterative, time_limit, max_nodes, progress, progress_every)

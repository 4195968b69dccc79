"""Searches for three or more players: paranoid and max^n.

* :func:`paranoid` -- one player against the coalition of all the others, reduced to a two-sided
  search of that player's return (the engine of :mod:`~stratagem.solvers.expectimax`).
* :func:`maxn` -- max^n, every player maximises their own return.

Both also accept two-player games and chance nodes. Result status and limits are described in
:mod:`~stratagem.solvers.gametree`. No game is imported here.
"""

from __future__ import annotations

import time
from typing import Any

from stratagem.core.errors import StratagemError
from stratagem.core.game import CHANCE, Game, M, S
from stratagem.solvers.expectimax import numeric_search
from stratagem.solvers.gametree import (
    ASSUME_MAXN,
    ASSUME_PARANOID,
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
from stratagem.solvers.transposition import EXACT, PROVEN, TranspositionTable

__all__ = ["maxn", "paranoid"]


def _paranoid_values(result: MinimaxResult[M]) -> MinimaxResult[M]:
    """``result`` without ``values``: under the paranoid assumption only the player's guarantee means anything."""
    return MinimaxResult(result.method, result.status, result.assumption, result.player, result.value, None,
                         result.best_move, result.pv, result.distance, result.depth, result.nodes, result.seconds,
                         result.tt, result.estimate)


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
    result = numeric_search("paranoid", ASSUME_PARANOID, game, state, player, lo, hi, star, depth, use_tt, tt_size, tt,
                      use_ordering, iterative, time_limit, max_nodes, progress, progress_every)
    return _paranoid_values(result)



class _MaxN(Engine):
    #: The position searched from, and its best move in the last pass that finished it.
    root: Any = None
    root_best: Any = None

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
                if state is self.root:
                    self.root_best = entry[3]
                return entry[2]  # type: ignore[no-any-return]
        mover = decision_player(game, state, "maxn")
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
                if state is self.root:
                    self.root_best = best_move  # what a pass stopped later still names
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
         iterative: bool | None = None, time_limit: TimeLimit = None, max_nodes: int | None = None,
         progress: Progress | None = None, progress_every: int = 10_000) -> MinimaxResult[M]:
    """The max^n vector of ``state`` (Luckhardt and Irani 1986): each player maximises their own return.

    No pruning (general-sum returns give no safe bound); the table only shares transpositions.
    Ties between moves go to the first in the game's legal order, which is part of the assumption,
    so results are labelled ``"max^n"``. Chance nodes average the vectors.

    With a limit (time or nodes) the search deepens iteratively by default (``iterative``), as the
    two-sided searches do: a search stopped before the whole tree is searched names the best move of
    the deepest pass it finished (the game's evaluation, or zeros, at that pass's horizon), with status
    ``unknown``, instead of no move at all. Subtrees a pass searched to their ends are kept in the table,
    so the pass that finishes costs about what one pass would. A ``depth`` deepens to it as well; with
    neither a limit nor a depth it searches in one pass.
    """
    started = time.perf_counter()
    root_mover = decision_player(game, state, "maxn")
    player = 0 if root_mover < 0 else root_mover
    if game.is_terminal(state):
        return terminal_result(game, state, "maxn", ASSUME_MAXN, player, started)
    tt = TranspositionTable(tt_size) if use_tt else None
    engine = _MaxN(game, tt=tt, ordering=False, time_limit=time_limit, max_nodes=max_nodes, progress=progress,
                   progress_every=progress_every)
    engine.root = state
    done: tuple[int, tuple[Value, ...], bool, Any] | None = None
    try:
        for d in depth_schedule(depth, iterative, time_limit is not None or max_nodes is not None):
            engine.iteration = d if d < UNLIMITED else 0
            engine.horizon = 0
            vec = engine.vector(state, d)
            done = (d, vec, engine.horizon == 0, engine.root_best)
            if done[2]:
                break
    except Stop:
        pass
    if done is None:
        return MinimaxResult("maxn", UNKNOWN, ASSUME_MAXN, player, None, None, None, (), None, None, engine.nodes,
                             engine.seconds(), engine.tt_stats())
    limit, vec, proven, best = done
    stopped = not proven and (depth is None or limit < depth)
    status = UNKNOWN if stopped else status_for(proven, engine.evaluation)
    engine.limits_on = False
    line: list[Any] = []
    if not stopped:
        s, left = state, limit
        while left > 0 and not game.is_terminal(s) and game.to_move(s) >= 0:
            move = engine.best(s, left)
            line.append(move)
            s, left = game.apply(s, move), left - 1
    claim = status != UNKNOWN
    return MinimaxResult("maxn", status, ASSUME_MAXN, player, vec[player] if claim else None,
                         vec if claim else None, line[0] if line else best, tuple(line), None,
                         None if proven and depth is None else limit, engine.nodes, engine.seconds(),
                         engine.tt_stats(), vec[player])

"""The reference minimax search: every node visited, no pruning, no table.

:func:`plain_minimax` gives exact minimax values for two-player zero-sum games (expectimax at chance
nodes) by the plainest possible means, so that the fast searches (:func:`~stratagem.solvers.alphabeta.
alphabeta`, :func:`~stratagem.solvers.expectimax.expectiminimax`) can be tested against it. It is
exponential in the depth: for tests and small positions only.
"""

from __future__ import annotations

import time

from stratagem.core.errors import StratagemError
from stratagem.core.game import CHANCE, Evaluation, Game, M, S
from stratagem.solvers.alphabeta import Score, later
from stratagem.solvers.gametree import (
    ASSUME_OPEN,
    UNLIMITED,
    MinimaxResult,
    decision_player,
    status_for,
    terminal_result,
)

__all__ = ["plain_minimax"]


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
        mover = decision_player(game, s, "plain_minimax")
        if mover == CHANCE:
            counts["chance"] += 1
            return (sum(p * value(game.apply(s, o), left - 1)[0] for o, p in game.chance_outcomes(s)), 0)
        scores = [later(value(game.apply(s, m), left - 1)) for m in game.legal_moves(s)]
        return max(scores) if mover == 0 else min(scores)

    limit = UNLIMITED if depth is None else depth
    if game.is_terminal(state):
        return terminal_result(game, state, "plain", ASSUME_OPEN, 0, started)
    root_mover = game.to_move(state)
    player = 0 if root_mover == CHANCE else root_mover
    best_move: M | None = None
    pv: list[M] = []
    if root_mover == CHANCE:
        score = value(state, limit)
    else:
        moves = list(game.legal_moves(state))
        scores = [later(value(game.apply(state, m), limit - 1)) for m in moves]
        score = max(scores) if root_mover == 0 else min(scores)
        best_move = moves[scores.index(score)]
        pv = [best_move]
        counts["nodes"] += 1
    v0 = score[0]
    proven = counts["horizon"] == 0
    distance = None if counts["chance"] or not proven else abs(score[1]) if v0 != 0 else None
    mine = v0 if player == 0 else -v0
    return MinimaxResult("plain", status_for(proven, evaluation), ASSUME_OPEN, player,
                         mine if proven or evaluation else None, (v0, -v0) if proven or evaluation else None,
                         best_move, tuple(pv), distance, depth, counts["nodes"], time.perf_counter() - started,
                         None, mine)


"""A baseline STAKD player for ``stratagem play stakd``.

``greedy``: last placer wins, so a player wants the opponents to run out of plays first. Greedy picks
the placement that leaves the next player to move the fewest legal plays (a placement that leaves
none wins at once), ties broken at random.
"""

from __future__ import annotations

from random import Random

from stratagem.models.stakd.position import Move, State
from stratagem.models.stakd.rules import StakdGame


def greedy_move(game: StakdGame, state: State, rng: Random) -> Move:
    """The placement that leaves the next player to move the fewest replies."""
    moves = list(game.legal_moves(state))
    best: list[Move] = []
    fewest = None
    for move in moves:
        after = game.apply(state, move)
        replies = 0 if game.is_terminal(after) else len(game.legal_moves(after))
        if fewest is None or replies < fewest:
            fewest, best = replies, [move]
        elif replies == fewest:
            best.append(move)
    return rng.choice(best)

"""A baseline STAKD player for ``stratagem play stakd``.

``greedy`` reads two rules. The last player to place wins (a Bomber cannot win), and a player with no
legal play is out for the round, so the game is won by still having pieces that fit when the others
have none. The structure only narrows as it rises (no overhang; a layer connects), and a Uni may
start a new layer only when its owner holds nothing but Unis and Bombers. So big pieces are playable
only early, and a hand left with Quads or Trios strands its Unis too. Greedy therefore plays its
biggest kind that has a legal placement (Bases, Quads, Trios, Duos, Unis, then the Bomber, the order
of :data:`~stratagem.models.stakd.pieces.KINDS`), and among those placements the one that leaves it
the most legal placements against the others' (a placement that ends play in its favour first), ties
broken at random. Measured by ``stratagem bench stakd`` (results/stakd.md).
"""

from __future__ import annotations

from random import Random

from stratagem.models.stakd.pieces import KIND_INDEX
from stratagem.models.stakd.position import Move, State
from stratagem.models.stakd.rules import StakdGame

#: The score of a placement that ends play: above any mobility difference.
DECIDED = 1_000_000


def mobility_margin(game: StakdGame, state: State, player: int) -> int:
    """``player``'s legal placements on the structure minus the other players' (those not out)."""
    margin = 0
    for p, hand in enumerate(state.hands):
        if not state.out[p]:
            count = len(game.moves_for(state.layers, hand))
            margin += count if p == player else -count
    return margin


def greedy_move(game: StakdGame, state: State, rng: Random) -> Move:
    """The biggest kind first; among its placements the best mobility margin (see the module docstring)."""
    me = state.to_move
    moves = list(game.legal_moves(state))
    biggest = min(KIND_INDEX[move.kind] for move in moves)
    best: list[Move] = []
    top = None
    for move in moves:
        if KIND_INDEX[move.kind] != biggest:
            continue
        after = game.apply(state, move)
        score = (int(DECIDED * game.returns(after)[me]) if game.is_terminal(after)
                 else mobility_margin(game, after, me))
        if top is None or score > top:
            top, best = score, [move]
        elif score == top:
            best.append(move)
    return rng.choice(best)

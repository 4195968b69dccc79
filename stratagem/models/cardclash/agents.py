"""The greedy Card Clash agent: take a square when it can, block one when it must, else build.

A baseline for ``stratagem play``: one ply of tactics and a simple heuristic, no search.
"""

from __future__ import annotations

import random

from stratagem.models.cardclash.position import Move, State
from stratagem.models.cardclash.rules import CardClashGame
from stratagem.models.cardclash.threats import Context, effect, threat_count


def greedy_move(game: CardClashGame, state: State, rng: random.Random) -> Move:
    """The greedy choice in ``state`` (ties broken by ``rng``).

    1. A move that makes a square of the mover's colour wins at once: take one.
    2. If the other players hold square-completing moves, pick the move that leaves them the fewest
       (a block), never one that hands another player a square.
    3. Otherwise build: most own threats, then the highest square potential, avoiding gifts.
    """
    moves = game.legal_moves(state)
    if len(moves) == 1:
        return moves[0]
    context = Context(state, game.rules)
    effects = [(move, effect(state, move, game.rules, context)) for move in moves]
    wins = [move for move, e in effects if e.wins]
    if wins:
        return rng.choice(wins)
    safe = [(move, e) for move, e in effects if not e.gifts] or effects
    others = [p for p in range(state.players) if p != state.to_move]
    if threat_count(state.board, state, others, game.rules) > 0:
        fewest = min(e.opponent_threats for _, e in safe)
        return rng.choice([move for move, e in safe if e.opponent_threats == fewest])
    best = max((-e.opponent_threats, e.own_threats, e.potential_gain) for _, e in safe)
    return rng.choice([move for move, e in safe if (-e.opponent_threats, e.own_threats, e.potential_gain) == best])

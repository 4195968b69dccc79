"""The greedy Stratatak agent (issue 5: "greedy (largest winning play)")."""

from __future__ import annotations

import random

from stratagem.core.game import CHANCE
from stratagem.models.stratatak.plays import ATTACKER, battle_winner, fighters
from stratagem.models.stratatak.position import DEFEND, State
from stratagem.models.stratatak.rules import Move, StratatakGame


def greedy_move(game: StratatakGame, state: State, rng: random.Random) -> Move:
    """The largest winning play, ties broken at random.

    Defender: among the plays that win the battle, the one with the most cards (then the fewest
    Fighters, to keep strength); with no winning play, the most cards with the fewest Fighters (the
    loser draws back up anyway). Attacker (who cannot know whether a play wins): the most cards, then
    the most Fighters. At a chance node: an outcome drawn with its probability.
    """
    if game.to_move(state) == CHANCE:
        outcomes = game.chance_outcomes(state)
        return rng.choices([o for o, _ in outcomes], weights=[float(p) for _, p in outcomes])[0]
    moves = list(game.legal_moves(state))
    if state.phase == DEFEND:
        winning = [m for m in moves if battle_winner(state.table, m) != ATTACKER]
        pool = winning or moves
        best = max((len(m), -fighters(m)) for m in pool)
        choices = [m for m in pool if (len(m), -fighters(m)) == best]
    else:
        best = max((len(m), fighters(m)) for m in moves)
        choices = [m for m in moves if (len(m), fighters(m)) == best]
    return rng.choice(choices)

"""Playouts: a leaf valued by playing on to the end (or to a cut-off), and chance outcomes drawn with
their exact probabilities. Used by :mod:`stratagem.solvers.mcts` and by PIMC's evaluator."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from fractions import Fraction
from random import Random
from typing import Any

from stratagem.core.errors import UnsupportedGame
from stratagem.core.game import CHANCE, SIMULTANEOUS, Evaluation, Game, M, Simultaneous

#: A playout policy: ``policy(game, state, rng) -> move`` for the player to move in ``state``.
RolloutPolicy = Callable[[Any, Any, Random], Any]


def sample_outcome(outcomes: Sequence[tuple[M, Fraction]], rng: Random) -> M:
    """One outcome drawn with its exact probability.

    Draws an integer below the common denominator, so the probabilities are honoured exactly and the
    draw is reproducible for a given ``rng`` state.
    """
    if not outcomes:
        raise UnsupportedGame("a chance node lists no outcomes")
    probabilities = [Fraction(p) for _, p in outcomes]
    denominator = math.lcm(*(p.denominator for p in probabilities))
    ticket = rng.randrange(denominator)
    for (outcome, _), p in zip(outcomes, probabilities, strict=True):
        ticket -= int(p * denominator)
        if ticket < 0:
            return outcome
    raise UnsupportedGame(f"chance probabilities sum to {sum(probabilities)}, not 1")


def playout(
    game: Game[Any, Any],
    state: Any,
    rng: Random,
    *,
    policy: RolloutPolicy | None = None,
    limit: int | None = None,
    value_range: tuple[float, float] = (-1.0, 1.0),
) -> tuple[float, ...]:
    """The returns at the end of one playout from ``state``.

    Moves are uniformly random (or ``policy``'s), chance outcomes follow their probabilities, and at a
    simultaneous node every player picks uniformly from ``player_moves``. After ``limit`` plies the
    state is scored by the game's ``evaluate`` if it has one, else every player gets the middle of
    ``value_range``.
    """
    plies = 0
    while not game.is_terminal(state):
        if limit is not None and plies >= limit:
            if isinstance(game, Evaluation):
                return tuple(float(v) for v in game.evaluate(state))
            middle = (value_range[0] + value_range[1]) / 2
            return (middle,) * game.num_players
        mover = game.to_move(state)
        if mover == CHANCE:
            move = sample_outcome(game.chance_outcomes(state), rng)
        elif mover == SIMULTANEOUS:
            move = tuple(rng.choice(list(player_moves(game, state, p))) for p in range(game.num_players))
        elif policy is not None:
            move = policy(game, state, rng)
        else:
            moves = game.legal_moves(state)
            move = moves[rng.randrange(len(moves))]
        state = game.apply(state, move)
        plies += 1
    return tuple(float(v) for v in game.returns(state))


def player_moves(game: Game[Any, Any], state: Any, player: int) -> Sequence[Any]:
    """A player's own moves at a simultaneous node (refused when the game has none there)."""
    if not isinstance(game, Simultaneous):
        raise UnsupportedGame(f"game {game.name!r} reached a simultaneous node but has no player_moves")
    moves = game.player_moves(state, player)
    if not moves:
        raise UnsupportedGame(f"player {player} has no moves at a simultaneous node of {game.name!r}")
    return moves


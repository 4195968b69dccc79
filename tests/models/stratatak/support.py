"""Helpers for the Stratatak tests: a tiny exact solver that does not use stratagem.solvers.

``bounds(game, state, plies)`` is depth-limited expectiminimax (player 1 maximises, player 2
minimises, chance nodes average with their exact probabilities) run twice: once scoring an unfinished
leaf as a loss for player 1, once as a win. Every real value lies between the two, so when they agree
the position's open-analysis value is proven exactly, whatever happens after the horizon.
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

from stratagem.core.game import CHANCE
from stratagem.models.stratatak.position import State
from stratagem.models.stratatak.rules import StratatakGame

PUZZLES = Path(__file__).resolve().parents[3] / "puzzles" / "stratatak"


def _value(game: StratatakGame, state: State, plies: int, leaf: Fraction, memo: dict[tuple[State, int], Fraction]
           ) -> Fraction:
    if game.is_terminal(state):
        return Fraction(int(game.returns(state)[0]))
    if plies == 0:
        return leaf
    key = (state, plies)
    if key in memo:
        return memo[key]
    mover = game.to_move(state)
    if mover == CHANCE:
        value = sum(
            (p * _value(game, game.apply(state, o), plies - 1, leaf, memo) for o, p in game.chance_outcomes(state)),
            Fraction(0),
        )
    else:
        values = (_value(game, game.apply(state, m), plies - 1, leaf, memo) for m in game.legal_moves(state))
        value = max(values) if mover == 0 else min(values)
    memo[key] = value
    return value


def bounds(game: StratatakGame, state: State, plies: int) -> tuple[Fraction, Fraction]:
    """(lower, upper) bound of player 1's value within ``plies`` plies (chance draws count as plies)."""
    lo = _value(game, state, plies, Fraction(-1), {})
    hi = _value(game, state, plies, Fraction(1), {})
    return lo, hi


def solve(game: StratatakGame, state: State, max_plies: int = 12) -> Fraction | None:
    """The exact value for player 1 if some horizon up to ``max_plies`` proves it, else None."""
    for plies in range(1, max_plies + 1):
        lo, hi = bounds(game, state, plies)
        if lo == hi:
            return lo
    return None


def move_values(game: StratatakGame, state: State, plies: int) -> dict[str, tuple[Fraction, Fraction]]:
    """Bounds of player 1's value after each legal move, by move notation."""
    return {game.format_move(state, m): bounds(game, game.apply(state, m), plies - 1) for m in game.legal_moves(state)}

"""The minimax family in one import: the public names of the game-tree searches.

Each concept has its own module, and new code imports from there:

* :mod:`~stratagem.solvers.gametree` -- :class:`MinimaxResult`, the status and assumption labels,
  limits and the engine every search shares;
* :mod:`~stratagem.solvers.transposition` -- :class:`TranspositionTable`;
* :mod:`~stratagem.solvers.plainminimax` -- :func:`plain_minimax`, the reference without pruning;
* :mod:`~stratagem.solvers.alphabeta` -- :func:`alphabeta`, two players without chance;
* :mod:`~stratagem.solvers.expectimax` -- :func:`expectiminimax`, two players with chance (Star1/Star2);
* :mod:`~stratagem.solvers.multiplayer` -- :func:`paranoid` and :func:`maxn`, three or more players;
* :mod:`~stratagem.solvers.ranking` -- :func:`rank_moves`, every root move with its value.

This module only re-exports them, so that code written against the one-module layout keeps working.
"""

from __future__ import annotations

from stratagem.solvers.alphabeta import alphabeta
from stratagem.solvers.expectimax import expectiminimax
from stratagem.solvers.gametree import (
    ASSUME_MAXN,
    ASSUME_OPEN,
    ASSUME_PARANOID,
    HEURISTIC,
    NOT_RANKED,
    SOLVED,
    UNKNOWN,
    MinimaxResult,
    Progress,
    TimeLimit,
)
from stratagem.solvers.multiplayer import maxn, paranoid
from stratagem.solvers.plainminimax import plain_minimax
from stratagem.solvers.ranking import MoveValue, rank_key, rank_moves
from stratagem.solvers.transposition import TranspositionTable, TTStats

__all__ = [
    "ASSUME_MAXN",
    "ASSUME_OPEN",
    "ASSUME_PARANOID",
    "HEURISTIC",
    "NOT_RANKED",
    "SOLVED",
    "UNKNOWN",
    "MinimaxResult",
    "MoveValue",
    "Progress",
    "TTStats",
    "TimeLimit",
    "TranspositionTable",
    "alphabeta",
    "expectiminimax",
    "maxn",
    "paranoid",
    "plain_minimax",
    "rank_key",
    "rank_moves",
]

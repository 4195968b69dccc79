"""Stack Attack's stage games (the matrix game at each simultaneous node of the exact backward
induction) by our exact LP and by OpenSpiel's ``lp_solver``."""

from __future__ import annotations

import statistics
from dataclasses import dataclass
from typing import Any

import numpy as np
import pyspiel

from stratagem.openspiel.peers.games import cpu


@dataclass(frozen=True)
class StagePeer:
    """Stage games of one position's backward induction, solved by both LPs."""

    stage_games: int
    measured: int
    largest: tuple[int, int]
    ours_seconds: float
    theirs_seconds: float
    ours_certified: int
    largest_difference: float


def stage_peer(game: Any, state: Any, limit: int, *, repeats: int = 3) -> StagePeer:
    """The first ``limit`` stage games (in the order the induction solves them) by both LPs, timed
    ``repeats`` times (median of the totals)."""
    from open_spiel.python.algorithms import lp_solver

    from stratagem.solvers.matrix import solve_matrix
    from stratagem.solvers.simultaneous import solve_each_player, solve_simultaneous

    if game.num_players == 2:
        results = [solve_simultaneous(game, state, player=0, payoff="margin")]
    else:
        results = list(solve_each_player(game, state, payoff="own"))
    matrices = [node.matrix for result in results for node in result.nodes]
    chosen = matrices[:limit]
    ours_totals, theirs_totals = [], []
    certified = 0
    difference = 0.0
    for _ in range(repeats):
        ours = theirs = 0.0
        certified = 0
        for matrix in chosen:
            started = cpu()
            solution = solve_matrix(matrix)
            ours += cpu() - started
            certified += solution.certified
            payoff = np.array([[float(x) for x in row] for row in matrix])
            started = cpu()
            spiel = pyspiel.create_matrix_game(payoff.tolist(), (-payoff).tolist())
            value = lp_solver.solve_zero_sum_matrix_game(spiel)[2]
            theirs += cpu() - started
            difference = max(difference, abs(float(solution.value) - float(value)))
        ours_totals.append(ours)
        theirs_totals.append(theirs)
    largest = max(((len(m), len(m[0])) for m in chosen), key=lambda rc: rc[0] * rc[1], default=(0, 0))
    return StagePeer(len(matrices), len(chosen), largest, statistics.median(ours_totals),
                     statistics.median(theirs_totals), certified, difference)

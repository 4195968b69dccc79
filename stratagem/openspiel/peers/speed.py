"""UCT speed: our plain UCT against OpenSpiel's ``MCTSBot`` from one position, simulations per
CPU-second (median of repeats)."""

from __future__ import annotations

import statistics
from collections.abc import Hashable
from dataclasses import dataclass
from typing import Any

from stratagem.analysis import return_bounds
from stratagem.openspiel.peers.bots import mcts_bot
from stratagem.openspiel.peers.games import cpu, has_chance, open_game
from stratagem.solvers.mcts import uct


@dataclass(frozen=True)
class SpeedPeer:
    """Simulations per CPU-second of both searches from one position (medians of ``repeats``)."""

    simulations: int
    repeats: int
    ours_rate: float
    theirs_rate: float
    ours_proven: bool
    theirs_solved: bool

    @property
    def ratio(self) -> float:
        """Our rate over OpenSpiel's."""
        return self.ours_rate / self.theirs_rate if self.theirs_rate > 0 else float("inf")


def uct_speed(game: Any, state: Hashable, simulations: int, *, repeats: int = 3, seed: int = 0) -> SpeedPeer:
    """Plain UCT and ``MCTSBot`` from ``state``, each ``simulations`` iterations, ``repeats`` times.

    A search whose root gets proven (solved) stops early; its rate counts the simulations it did.
    """
    low, high = return_bounds(game)
    chance = has_chance(game)
    ours, theirs = [], []
    proven = solved = False
    for r in range(repeats):
        started = cpu()
        result = uct(game, state, iterations=simulations, seed=seed + r, guided=False,
                     value_range=(float(low), float(high)))
        ours.append(result.iterations / max(cpu() - started, 1e-9))
        proven = proven or result.proven
        spiel = open_game(game, state, chance=chance)
        bot = mcts_bot(spiel, simulations, None, seed + r, float(high - low))
        started = cpu()
        root = bot.mcts_search(spiel.new_initial_state())
        theirs.append(root.explore_count / max(cpu() - started, 1e-9))
        solved = solved or root.outcome is not None
    return SpeedPeer(simulations, repeats, statistics.median(ours), statistics.median(theirs), proven, solved)

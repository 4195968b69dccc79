"""OpenSpiel's ``MCTSBot`` set up as our UCT is: the same exploration rule and the same leaf value
(a random playout, cut after ``limit`` plies and scored by the engine's evaluation)."""

from __future__ import annotations

from typing import Any

import numpy as np
from open_spiel.python.algorithms import mcts as spiel_mcts

from stratagem.core.game import Evaluation
from stratagem.openspiel.adapter import OpenPositionGame
from stratagem.solvers.mcts import DEFAULT_EXPLORATION


class LeafEvaluator(spiel_mcts.Evaluator):  # type: ignore[misc]
    """``MCTSBot``'s leaf value as our UCT computes it: a random playout through OpenSpiel's state
    API, cut after ``limit`` plies and then scored by the engine's evaluation (its ``evaluate``; the
    middle of the return range when it has none)."""

    def __init__(self, limit: int | None, random_state: np.random.RandomState, middle: float = 0.0) -> None:
        self.limit = limit
        self.random_state = random_state
        self.middle = middle

    def evaluate(self, state: Any) -> np.ndarray:
        working = state.clone()
        plies = 0
        while not working.is_terminal():
            if self.limit is not None and plies >= self.limit:
                game = working.engine.game
                if isinstance(game, Evaluation) or hasattr(game, "evaluate"):
                    return np.array([float(v) for v in game.evaluate(working.engine_state)])
                return np.full(len(working.returns()), self.middle)
            if working.is_chance_node():
                actions, probs = zip(*working.chance_outcomes(), strict=True)
                working.apply_action(int(self.random_state.choice(actions, p=probs)))
            else:
                working.apply_action(int(self.random_state.choice(working.legal_actions())))
            plies += 1
        return np.array(working.returns())

    def prior(self, state: Any) -> list[tuple[int, float]]:
        if state.is_chance_node():
            return list(state.chance_outcomes())
        actions = state.legal_actions(state.current_player())
        return [(a, 1.0 / len(actions)) for a in actions]


def mcts_bot(spiel: OpenPositionGame, simulations: int, limit: int | None, seed: int, spread: float) -> Any:
    """``MCTSBot`` with the exploration constant of our UCT: ours scales means into [0, 1] before
    adding ``sqrt(2) * sqrt(ln N / n)``; OpenSpiel adds ``c * sqrt(ln N / n)`` to raw means, so
    ``c = sqrt(2) * (high - low)`` is the same rule."""
    random_state = np.random.RandomState(seed % 2**32)
    return spiel_mcts.MCTSBot(spiel, DEFAULT_EXPLORATION * spread, simulations,
                              LeafEvaluator(limit, random_state), solve=True, random_state=random_state)

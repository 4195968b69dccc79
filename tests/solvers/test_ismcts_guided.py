"""Guided ISMCTS: the ``ismcts`` agent and :func:`ismcts` take ``mcts``'s guided-search options."""

from __future__ import annotations

from typing import Any

import pytest

from stratagem.models.cardclash.rules import CardClashGame
from stratagem.solvers.agents import IsmctsAgent, make_agent
from stratagem.solvers.mcts import ismcts


class Spy:
    """Card Clash, counting the leaf evaluations and the states applied; everything else passed through."""

    def __init__(self, game: CardClashGame) -> None:
        self._game = game
        self.evaluations = 0
        self.applied = 0
        self.name = game.name
        self.num_players = game.num_players
        self.rollout_limit = game.rollout_limit

    def evaluate(self, state: Any) -> tuple[float, ...]:
        self.evaluations += 1
        return self._game.evaluate(state)

    def apply(self, state: Any, move: Any) -> Any:
        self.applied += 1
        return self._game.apply(state, move)

    # Named, not only passed through: from Python 3.12 ``isinstance`` with a runtime-checkable protocol
    # (HiddenInformation, which ismcts asks for) looks the methods up statically, past ``__getattr__``.
    def observation(self, state: Any, player: int) -> Any:
        return self._game.observation(state, player)

    def sample_state(self, state: Any, player: int, rng: Any) -> Any:
        return self._game.sample_state(state, player, rng)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._game, name)


def start() -> tuple[CardClashGame, Any]:
    game = CardClashGame(2, seed=3)
    return game, game.initial_state()


def test_guided_ismcts_values_new_leaves_by_the_games_declared_cut_off() -> None:
    game, state = start()
    assert game.rollout_limit == 0
    guided, plain = Spy(game), Spy(game)
    ismcts(guided, state, iterations=40, seed=1, guided=True)  # type: ignore[arg-type]
    ismcts(plain, state, iterations=40, seed=1)  # type: ignore[arg-type]
    assert guided.evaluations == 40  # one evaluation per new leaf, no playout
    assert plain.evaluations == 0 and plain.applied > guided.applied  # playouts to the end


def test_guided_ismcts_widens_the_root_in_the_games_order() -> None:
    game, state = start()
    while len(game.legal_moves(state)) <= 8:  # a few plies in, where there is a choice to widen over
        state = game.apply(state, game.legal_moves(state)[0])
    moves = list(game.order_moves(state, game.legal_moves(state)))
    result = ismcts(game, state, iterations=12, seed=1, guided=True, widening=1.0)
    tried = [s.move for s in result.moves if s.visits > 0]
    assert 1 <= len(tried) <= 4  # at most 1 * sqrt(12 + 1) moves considered
    # the first ones in the game's order (one's own moves are the same in every determinisation)
    assert set(tried) <= set(moves[:len(tried)])
    plain = ismcts(game, state, iterations=12, seed=1)
    assert sum(s.visits > 0 for s in plain.moves) > len(tried)  # unguided: every move once first


def test_the_ismcts_agent_passes_guided_options_and_refuses_reuse() -> None:
    game, state = start()
    agent = make_agent("ismcts", iterations=30, guided=False, widening=3.0, rollout_limit=4)
    assert isinstance(agent, IsmctsAgent)
    assert agent.params["guided"] is False and agent.params["widening"] == 3.0 and "reuse" not in agent.params
    assert IsmctsAgent(iterations=20).guided is True  # the default, as mcts
    with pytest.raises(ValueError, match="reuse"):
        IsmctsAgent(iterations=20, reuse=True)
    import random

    assert agent.choose(game, state, random.Random(0)) in game.legal_moves(state)

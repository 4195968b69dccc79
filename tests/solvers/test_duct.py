"""Tests of decoupled UCT on the simultaneous-move toys, against their exact solutions."""

from __future__ import annotations

import random
from typing import Any

import pytest
from simtoys import GoofspielGame, OddOneOutGame, PenniesGame

from stratagem.solvers.duct import SELECTIONS, DuctAgent, duct
from stratagem.solvers.simultaneous import solve_simultaneous

WEIGHTED = {("H", "H"): 2, ("H", "T"): 0, ("T", "H"): 0, ("T", "T"): 1}


@pytest.mark.parametrize("selection", SELECTIONS)
def test_duct_on_matching_pennies_approaches_half_half(selection: str) -> None:
    # The unique equilibrium of matching pennies is (1/2, 1/2) for both players, value 0.
    game = PenniesGame(1)
    result = duct(game, game.initial_state(), iterations=4000, seed=7, selection=selection)
    for player in (0, 1):
        assert result.moves[player] == ("H", "T")
        assert sum(result.visits[player]) == 4000
        assert result.strategy[player][0] == pytest.approx(0.5, abs=0.06)
    assert result.values[0] == pytest.approx(0.0, abs=0.1)
    assert result.values[0] == pytest.approx(-result.values[1])


@pytest.mark.parametrize("selection", SELECTIONS)
def test_duct_value_on_weighted_pennies_is_near_the_exact_value(selection: str) -> None:
    game = PenniesGame(1, WEIGHTED)
    exact = float(solve_simultaneous(game, game.initial_state()).value)  # 2/3
    result = duct(game, game.initial_state(), iterations=4000, seed=3, selection=selection)
    assert result.values[0] == pytest.approx(exact, abs=0.15)
    assert result.policy(0)["T"] > result.policy(0)["H"]  # the equilibrium plays T with 2/3


@pytest.mark.parametrize("selection", SELECTIONS)
def test_duct_is_deterministic_per_seed(selection: str) -> None:
    game = GoofspielGame(3)
    state = game.apply(game.initial_state(), 2)
    first = duct(game, state, iterations=300, seed=11, selection=selection)
    again = duct(game, state, iterations=300, seed=11, selection=selection)
    other = duct(game, state, iterations=300, seed=12, selection=selection)
    assert first == again
    assert first != other


def test_duct_handles_decision_and_chance_nodes_below_and_at_the_root() -> None:
    # After player 0 loses the first turn it may accept -1 or gamble for -1/2 on average (see
    # test_simultaneous), so a search from that decision node prefers to gamble.
    game = PenniesGame(2, gamble=True)
    state = game.apply(game.initial_state(), ("H", "T"))
    assert game.to_move(state) == 0
    result = duct(game, state, iterations=2000, seed=5)
    assert result.moves == (("accept", "gamble"), ())
    assert result.best_move(0) == "gamble"
    assert result.move_values[0][1] > result.move_values[0][0]


def test_duct_with_three_players_gives_each_a_distribution() -> None:
    game = OddOneOutGame(2)
    result = duct(game, game.initial_state(), iterations=500, seed=1, selection="exp3")
    assert len(result.strategy) == 3
    for player in range(3):
        assert sum(result.strategy[player]) == pytest.approx(1.0)
    assert sum(result.values) == pytest.approx(0.0)  # the toy is zero-sum over three players


def test_duct_refuses_bad_options_and_chance_roots() -> None:
    game = GoofspielGame(3)
    with pytest.raises(ValueError, match="selection"):
        duct(game, game.apply(game.initial_state(), 1), selection="ucb2")
    with pytest.raises(ValueError, match="chance"):
        duct(game, game.initial_state())


def test_rollout_limit_cuts_playouts_with_evaluate() -> None:
    game = PenniesGame(6, WEIGHTED)
    calls: list[Any] = []
    original = game.evaluate

    def counting(state: Any) -> tuple[float, ...]:
        calls.append(state)
        return original(state)

    game.evaluate = counting  # type: ignore[method-assign]
    duct(game, game.initial_state(), iterations=50, seed=2, rollout_limit=1)
    assert calls


def test_agent_plays_legal_moves_reproducibly() -> None:
    game = PenniesGame(2, gamble=True)
    agent = DuctAgent(200)
    assert agent.name == "duct"
    state = game.initial_state()
    picks = [agent.choose_simultaneous(game, state, p, random.Random(9)) for p in (0, 1)]
    assert all(move in ("H", "T") for move in picks)
    fresh = DuctAgent(200)
    assert fresh.choose_simultaneous(game, state, 0, random.Random(9)) == picks[0]
    decision = game.apply(state, ("H", "T"))
    assert DuctAgent(1000).choose(game, decision, random.Random(4)) == "gamble"

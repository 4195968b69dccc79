"""Tests of perfect-information Monte Carlo on hand-checkable hidden-information toys."""

from __future__ import annotations

import random
from collections.abc import Hashable
from functools import cache
from typing import Any

import pytest
from mcts_toys import PASS_VALUE, GuessGame, GuessState
from toygames import NimGame, NimState

from stratagem.solvers.mcts import UnsupportedGame
from stratagem.solvers.pimc import PimcResult, pimc, rollout_evaluator


class CyclingGuess(GuessGame):
    """A GuessGame whose sampler deals the cards 0, 1, 2, 0, 1, 2, ... in turn (ignoring ``rng``)
    and records what it dealt, so the samples -- and PIMC's averages -- are known in advance."""

    def __init__(self, card: int = 0, bonus_on: int | None = None) -> None:
        super().__init__(card, bonus_on)
        self.dealt: list[GuessState] = []

    def sample_state(self, state: GuessState, player: int, rng: random.Random) -> GuessState:
        sample = state._replace(card=len(self.dealt) % 3)
        self.dealt.append(sample)
        return sample


def _never_called(game: Any, state: Any, rng: random.Random) -> tuple[float, ...]:
    raise AssertionError("every state after a move is terminal: the evaluator must not be called")


def test_pimc_averages_each_move_over_the_samples_where_it_is_legal() -> None:
    game = CyclingGuess(card=0, bonus_on=0)
    result = pimc(game, game.initial_state(), _never_called, samples=6, seed=0)
    assert result.samples == 6 and result.player == 0
    by_move = {m.notation: m for m in result.moves}
    # Cards dealt: 0, 1, 2, 0, 1, 2. Each guess is right in 2 samples (+1) and wrong in 4 (-1):
    # (2 - 4) / 6 = -1/3.
    for card in (0, 1, 2):
        assert by_move[f"guess-{card}"].count == 6
        assert by_move[f"guess-{card}"].mean == pytest.approx(-1 / 3)
    assert by_move["pass"].count == 6 and by_move["pass"].mean == pytest.approx(PASS_VALUE)
    # "bonus" is legal only when the card is 0: 2 of the 6 samples, +1 each time.
    assert by_move["bonus"].count == 2 and by_move["bonus"].mean == 1.0
    assert result.best_notation == "bonus"
    assert [m.notation for m in result.moves] == ["guess-0", "guess-1", "guess-2", "pass", "bonus"]


def test_pimc_prefers_pass_when_no_bonus_exists() -> None:
    game = CyclingGuess(card=2)
    result = pimc(game, game.initial_state(), _never_called, samples=9, seed=0)
    assert result.best_notation == "pass"
    assert result.information == "observation of player 0"


def test_pimc_reports_only_moves_legal_in_the_real_state() -> None:
    # The real card is 1, so "bonus" (legal when the card is 0) is not player 0's option, even
    # though it is legal in a third of the samples.
    game = CyclingGuess(card=1, bonus_on=0)
    result = pimc(game, game.initial_state(), _never_called, samples=6, seed=0)
    assert "bonus" not in [m.notation for m in result.moves]
    assert result.best_notation == "pass"


def test_pimc_samples_are_consistent_with_the_observation() -> None:
    game = CyclingGuess(card=0)
    real = game.initial_state()
    pimc(game, real, _never_called, samples=5, seed=0)
    assert len(game.dealt) == 5
    assert all(game.observation(s, 0) == game.observation(real, 0) for s in game.dealt)


class OpenNim(NimGame):
    """Nim dressed as a hidden-information game with nothing hidden, so PIMC can run on it and its
    per-state evaluator can be an exact solver."""

    def observation(self, state: NimState, player: int) -> Hashable:
        return state

    def sample_state(self, state: NimState, player: int, rng: random.Random) -> NimState:
        return state


def test_pimc_plugs_in_an_exact_solver_as_evaluator() -> None:
    game = OpenNim((1, 2, 3))
    calls: list[tuple[NimState, int]] = []

    def solve(g: Any, state: NimState, rng: random.Random) -> tuple[float, ...]:
        @cache
        def win_for_mover(s: NimState) -> bool:
            return any(not win_for_mover(g.apply(s, m)) for m in g.legal_moves(s)) if any(s.piles) else False

        calls.append((state, rng.getrandbits(32)))
        winner = state.player if win_for_mover(state) else 1 - state.player
        return (1.0, -1.0) if winner == 0 else (-1.0, 1.0)

    state = game.initial_state()  # nim-sum 1 ^ 2 ^ 3 = 0: every move loses
    result = pimc(game, state, solve, samples=2, seed=3)
    assert all(m.mean == -1.0 and m.count == 2 for m in result.moves)
    winning = pimc(game, NimState((1, 2, 2), 0), solve, samples=1, seed=3)
    assert winning.best_notation == "1-1"  # leaves (0, 2, 2), nim-sum 0
    # Within one sample every move's evaluation gets the same random stream (common random numbers).
    first_sample = calls[: len(game.legal_moves(state))]
    assert len({draw for _, draw in first_sample}) == 1


def test_pimc_is_deterministic_per_seed() -> None:
    game = OpenNim((2, 3))
    state = game.initial_state()

    def run(seed: int) -> PimcResult[Any]:
        return pimc(game, state, rollout_evaluator(3), samples=4, seed=seed)

    assert run(5).moves == run(5).moves
    assert any(run(s).moves != run(5).moves for s in range(4))


def test_pimc_refuses_open_games_and_non_decision_states() -> None:
    game = NimGame((1, 2))
    with pytest.raises(UnsupportedGame):
        pimc(game, game.initial_state(), _never_called, samples=1)
    guess = GuessGame()
    with pytest.raises(UnsupportedGame):
        pimc(guess, GuessState(0, "pass"), _never_called, samples=1)


def test_a_time_limit_is_asked_between_the_moves_of_a_sample_which_counts_whole_or_not_at_all() -> None:
    """PIMC asked its clock only between samples, so one slow sample overran the limit (Stratatak's pimc
    agent on the reference engine: 2.25-2.8 s under a 1-s limit); a sample cut short is left out whole."""
    import time

    game = OpenNim((1, 2, 3))
    state = game.initial_state()
    moves = len(game.legal_moves(state))

    def slow(g: Any, s: NimState, rng: random.Random) -> tuple[float, ...]:
        time.sleep(0.05)
        return (0.0, 0.0)

    started = time.perf_counter()
    result = pimc(game, state, slow, time_limit=0.12, seed=0)
    took = time.perf_counter() - started
    assert took < 0.12 + 0.05 + 0.04, took  # one evaluation past the limit at most, not a whole sample
    assert result.samples == 0 and all(m.count == 0 for m in result.moves)  # the first sample was cut short
    assert moves * 0.05 > 0.12  # (a whole sample takes longer than the limit)

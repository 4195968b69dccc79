"""Tests of UCT with MCTS-Solver backups and of SO-ISMCTS, on the reference toy games.

The truth is computed independently here: :func:`exhaustive_value` is plain minimax (expectimax at
chance nodes) over the whole tree, with no pruning and no table, written for these tests only.
"""

from __future__ import annotations

import random
from collections.abc import Hashable
from fractions import Fraction
from functools import cache
from typing import Any

import pytest
from mcts_toys import DominanceGame, GuessGame, GuessState
from toygames import CoinRowGame, NimGame, PigGame, TicTacToeGame, random_nim, random_positions

from stratagem.core.game import CHANCE
from stratagem.solvers.mcts import MctsResult, UnsupportedGame, ismcts, sample_outcome, uct


def exhaustive_value(game: Any, state: Hashable) -> float:
    """Player 0's minimax (expectimax at chance) value of ``state`` in a two-player zero-sum game."""

    @cache
    def value(s: Hashable) -> float:
        if game.is_terminal(s):
            return float(game.returns(s)[0])
        mover = game.to_move(s)
        if mover == CHANCE:
            return sum(float(p) * value(game.apply(s, o)) for o, p in game.chance_outcomes(s))
        values = [value(game.apply(s, m)) for m in game.legal_moves(s)]
        return max(values) if mover == 0 else min(values)

    return value(state)


def comparable(result: MctsResult[Any]) -> dict[str, Any]:
    """The result without its wall-clock time."""
    data = result.to_json()
    del data["seconds"]
    return data


# --------------------------------------------------------------------------------------------------
# MCTS-Solver


def test_solver_proves_nim_values_and_plays_a_winning_move() -> None:
    rng = random.Random(5)
    checked = 0
    for _ in range(12):
        game = random_nim(rng, piles=3, most=3)
        state = game.initial_state()
        if game.is_terminal(state):
            continue
        result = uct(game, state, iterations=20_000, seed=checked)
        truth = exhaustive_value(game, state)
        assert result.proven, game.piles
        assert result.value is not None and result.value[0] == truth
        assert result.best_move is not None
        after = game.apply(state, result.best_move)
        # The chosen move keeps the proven value (a win stays a win).
        assert exhaustive_value(game, after) == truth
        checked += 1
    assert checked >= 8


def test_solver_proves_tictactoe_positions_with_draws() -> None:
    game = TicTacToeGame()
    positions = [s for s in random_positions(game, random.Random(11), 40, 8) if s.count(".") <= 5]
    values = set()
    for i, state in enumerate(positions[:12]):
        result = uct(game, state, iterations=20_000, seed=i)
        truth = exhaustive_value(game, state)
        assert result.proven, state
        mover = 0 if state.count("X") == state.count("O") else 1
        assert result.value is not None and result.value[0] == truth
        if not game.is_terminal(state):
            assert result.player == mover and result.best_move is not None
            assert exhaustive_value(game, game.apply(state, result.best_move)) == truth
        values.add(truth)
    assert 0.0 in values and len(values) >= 2  # draws and decided games both covered


def test_solver_proves_expected_value_through_chance_nodes() -> None:
    game = PigGame(target=3, turns=3)
    state = game.initial_state()
    result = uct(game, state, iterations=100_000, seed=3)
    assert result.proven
    assert result.value is not None
    assert result.value[0] == pytest.approx(exhaustive_value(game, state), abs=1e-12)
    assert result.iterations < 100_000  # a proven root stops the search early


def test_proven_root_reports_each_proven_move_value() -> None:
    game = NimGame((1, 2))
    result = uct(game, game.initial_state(), iterations=5_000, seed=0)
    assert result.proven and result.value == (1.0, -1.0)
    # 2-1 leaves (1, 1): the only winning move (nim-sum 0); the proof needs only that one child.
    assert result.best_notation == "2-1"
    by_move = {m.notation: m for m in result.moves}
    assert by_move["2-1"].proven_value == 1.0


def test_terminal_root_is_proven_with_its_returns() -> None:
    game = NimGame((0, 0))
    result = uct(game, game.initial_state(), iterations=10)
    assert result.proven and result.best_move is None and result.iterations == 0
    assert result.value == (-1.0, 1.0)


# --------------------------------------------------------------------------------------------------
# UCT


def test_uct_without_solver_picks_the_immediate_win() -> None:
    game = TicTacToeGame()
    state = "XX.OO...."  # X to move; cell 3 wins, anything else lets O win at cell 6
    result = uct(game, state, iterations=3_000, seed=1, solver=False)
    assert not result.proven
    assert result.best_notation == "3"
    best = max(result.moves, key=lambda m: m.visits)
    assert best.notation == "3" and best.mean > 0.9


def test_uct_blocks_the_opponent_win() -> None:
    game = TicTacToeGame()
    state = "XX..O...."  # O to move: must block at cell 3
    result = uct(game, state, iterations=5_000, seed=2)
    assert result.best_notation == "3"


def test_same_seed_same_result_and_seeds_differ() -> None:
    game = TicTacToeGame()
    state = game.initial_state()
    first = uct(game, state, iterations=600, seed=42)
    again = uct(game, state, iterations=600, seed=42)
    assert comparable(first) == comparable(again)
    others = [comparable(uct(game, state, iterations=600, seed=s)) for s in range(3)]
    assert any(o["moves"] != comparable(first)["moves"] for o in others)


def test_iteration_and_time_budgets() -> None:
    game = TicTacToeGame()
    result = uct(game, game.initial_state(), iterations=123, seed=0)
    assert result.iterations == 123
    assert sum(m.visits for m in result.moves) == 123
    timed = uct(game, game.initial_state(), time_limit=0.05, seed=0)
    assert timed.iterations > 0 and timed.seconds < 2.0
    with pytest.raises(ValueError):
        uct(game, game.initial_state())


def test_three_players_use_their_own_returns_and_prove_nothing() -> None:
    game = CoinRowGame((9, 1, 1, 1, 1, 2), num_players=3)
    result = uct(game, game.initial_state(), iterations=2_000, seed=0, value_range=(0.0, 15.0))
    assert not result.proven and result.value is None
    assert result.best_notation == "L"  # take the 9
    left = next(m for m in result.moves if m.notation == "L")
    assert left.mean >= 9.0  # player 0's own return, not player 1's or 2's


def test_simultaneous_root_uses_decoupled_choices() -> None:
    game = DominanceGame()
    result = uct(game, game.initial_state(), iterations=2_000, seed=0, player=0)
    assert result.player == 0 and [m.notation for m in result.moves] == ["a", "b"]
    assert result.best_notation == "a"  # a strictly dominates b
    assert not result.proven
    with pytest.raises(UnsupportedGame):
        uct(game, game.initial_state(), iterations=10)  # whose moves? player not given


def test_sample_outcome_honours_exact_probabilities() -> None:
    outcomes = [("one", Fraction(1, 4)), ("two", Fraction(1, 2)), ("three", Fraction(1, 4))]

    class Tickets(random.Random):
        """Hands out the tickets 0, 1, 2, 3 in turn (common denominator 4)."""

        def __init__(self) -> None:
            super().__init__(0)
            self.next_ticket = 0

        def randrange(self, start: int, stop: int | None = None, step: int = 1) -> int:
            assert (start, stop) == (4, None)
            ticket = self.next_ticket
            self.next_ticket += 1
            return int(ticket)

    tickets = Tickets()
    drawn = [sample_outcome(outcomes, tickets) for _ in range(4)]
    # Ticket 0 -> one (1/4 of the range), 1 and 2 -> two (2/4), 3 -> three (1/4).
    assert drawn == ["one", "two", "two", "three"]


# --------------------------------------------------------------------------------------------------
# ISMCTS


def test_ismcts_passes_where_open_uct_peeks_at_the_card() -> None:
    game = GuessGame(card=1)
    state = game.initial_state()
    open_result = uct(game, state, iterations=500, seed=0)
    assert open_result.information == "open"
    assert open_result.best_notation == "guess-1" and open_result.proven
    hidden = ismcts(game, state, iterations=3_000, seed=0)
    assert hidden.information == "observation of player 0"
    assert not hidden.proven
    # Seen by player 0 a guess is worth 1/3 - 2/3 = -1/3 < 0.2 for passing.
    assert hidden.best_notation == "pass"
    guesses = [m for m in hidden.moves if m.notation.startswith("guess")]
    assert all(m.mean == pytest.approx(-1 / 3, abs=0.25) for m in guesses if m.visits >= 50)


class _RecordingGuess(GuessGame):
    """A GuessGame whose sampler never deals the real card (still consistent with player 0's
    observation), and which records every state a move is applied to."""

    def __init__(self) -> None:
        super().__init__(card=0)
        self.samples: list[GuessState] = []
        self.applied: list[GuessState] = []

    def sample_state(self, state: GuessState, player: int, rng: random.Random) -> GuessState:
        sample = state._replace(card=rng.choice((1, 2)))
        self.samples.append(sample)
        return sample

    def apply(self, state: GuessState, move: str) -> GuessState:
        self.applied.append(state)
        return super().apply(state, move)


def test_ismcts_only_searches_observation_consistent_samples() -> None:
    game = _RecordingGuess()
    real = game.initial_state()
    result = ismcts(game, real, iterations=400, seed=7)
    assert len(game.samples) == result.iterations == 400
    assert {s.card for s in game.samples} == {1, 2}
    assert all(game.observation(s, 0) == game.observation(real, 0) for s in game.samples)
    # The real card (0) never reaches the search: every move is applied to a sample.
    assert game.applied and all(s.card != 0 for s in game.applied)
    assert result.best_notation == "pass"


def test_ismcts_is_deterministic_per_seed() -> None:
    game = GuessGame(card=2)
    state = game.initial_state()
    assert comparable(ismcts(game, state, iterations=300, seed=1)) == comparable(
        ismcts(game, state, iterations=300, seed=1)
    )


def test_ismcts_refuses_open_games() -> None:
    game = NimGame((1, 2))
    with pytest.raises(UnsupportedGame):
        ismcts(game, game.initial_state(), iterations=10)


def test_search_refuses_a_chance_root() -> None:
    game = PigGame()
    rolling = game.apply(game.initial_state(), "roll")
    with pytest.raises(UnsupportedGame):
        uct(game, rolling, iterations=10)

"""Rounds, dealing, scores and the end of the game (seed sections 1, 3, 10-13; docs/rules/stackattack.md)."""

from __future__ import annotations

from fractions import Fraction
from random import Random

import pytest

from stratagem.core.game import CHANCE, SIMULTANEOUS, TERMINAL
from stratagem.models.stackattack.cards import HAND_SIZE, ROWS
from stratagem.models.stackattack.notation import DEAL, Choice
from stratagem.models.stackattack.puzzle import dealt_round
from stratagem.models.stackattack.rules import Options, StackAttackGame

from .support import play, position


def test_seed_setup_deals_ten_cards_each_then_four_row_cards() -> None:
    game = StackAttackGame(3)
    state = game.initial_state()
    assert game.to_move(state) == CHANCE
    outcomes = game.chance_outcomes(state)
    assert len(outcomes) == 64 and sum(p for _, p in outcomes) == 1
    assert all(p == Fraction(1, 64) for _, p in outcomes)
    rng = Random(5)
    deals = 0
    while game.to_move(state) == CHANCE:
        outcomes = game.chance_outcomes(state)
        assert len(outcomes) == 64 - deals  # each remaining card equally likely
        state = game.apply(state, rng.choice(outcomes)[0])
        deals += 1
    assert deals == 3 * HAND_SIZE + ROWS
    assert [len(h) for h in state.hands] == [HAND_SIZE] * 3
    assert all(len(row) == 1 for row in state.rows)
    assert game.to_move(state) == SIMULTANEOUS and game.turn_number(state) == 1


def test_seed_a_round_is_ten_turns() -> None:
    game = StackAttackGame(2, Options(scope="round"))
    state = dealt_round(game, Random(1))
    turns = 0
    while not game.is_terminal(state):
        if game.to_move(state) == SIMULTANEOUS:
            assert game.turn_number(state) == turns + 1
            turns += 1
            state = game.apply(state, tuple(h[0] for h in state.hands))
        else:
            state = game.apply(state, game.legal_moves(state)[0])
    assert turns == HAND_SIZE and not any(state.hands)


def test_seed_round_end_adds_penalties_and_scores_carry_over() -> None:
    # Last turn of round 1: player 1's 7 is the sixth card and takes 1.2.3.4.6 (5 points).
    game, state = position("1.2.3.4.6/20/30/40 7/50 -/11 10/3 1")
    over = play(game, state, "7,50")
    assert game.round_over(over) and game.to_move(over) == CHANCE
    assert game.totals(over) == (15, 8)  # 10 + 5; 3 + 11's purple 5
    # The first deal of round 2 scores the round and clears the table; remaining row cards
    # (7, 20, 30, 40.50) are collected by no one.
    nxt = game.apply(over, Choice(DEAL, 42))
    assert nxt.round == 2 and nxt.scores == (15, 8)
    assert nxt.taken == ((), ()) and nxt.rows == ((), (), (), ())
    assert nxt.hands == ((42,), ())
    assert game.totals(nxt) == (15, 8)
    assert len(game.chance_outcomes(over)) == 64  # a new round reshuffles all 64 cards


def test_seed_game_ends_at_64_and_lowest_total_wins() -> None:
    game, state = position("1.2.3.4.6/20/30/40 7/50 -/- 60/10 1")
    over = play(game, state, "7,50")
    assert game.totals(over) == (65, 10)
    assert game.is_terminal(over) and game.to_move(over) == TERMINAL
    assert game.returns(over) == (-65.0, -10.0)
    assert game.winners(over) == [1]


def test_seed_64_is_checked_only_at_the_end_of_a_round() -> None:
    game, state = position("1.2.3.4.6/20/30/40 7.9/50.51 -/- 60/10 1")
    mid = play(game, state, "7,50")
    assert game.totals(mid) == (65, 10)
    assert not game.is_terminal(mid) and game.to_move(mid) == SIMULTANEOUS


def test_seed_below_64_at_round_end_a_new_round_is_dealt() -> None:
    game, state = position("1.2.3.4.6/20/30/40 7/50 -/- 58/10 1")
    over = play(game, state, "7,50")
    assert game.totals(over) == (63, 10) and game.to_move(over) == CHANCE


def test_ruling_scope_round_ends_play_with_the_round() -> None:
    game, state = position("1.2.3.4.6/20/30/40 7/50 -/- 0/0 1", scope="round")
    over = play(game, state, "7,50")
    assert game.is_terminal(over) and game.returns(over) == (-5.0, 0.0)
    assert game.penalty_difference(over, 0) == -5 and game.penalty_difference(over, 1) == 5


def test_engine_penalty_difference_with_three_players_is_against_the_others_mean() -> None:
    game, state = position("10/20/30/40 1/2/3 5/12.22/- 0/0/0 1")
    assert game.totals(state) == (2, 6, 0)  # 5 green 2; 12 pink 1 + 22 purple 5
    assert game.penalty_difference(state, 0) == Fraction(6 + 0, 2) - 2


@pytest.mark.parametrize("players", [1, 7])
def test_seed_two_to_six_players(players: int) -> None:
    with pytest.raises(ValueError, match="2 to 6"):
        StackAttackGame(players)


def test_seed_six_players_use_the_whole_deck() -> None:
    game = StackAttackGame(6)
    state = dealt_round(game, Random(2))
    used = set().union(*state.rows, *state.hands)
    assert used == set(range(1, 65))

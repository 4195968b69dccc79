"""Threats (threats.py): squares a move completes, opponents' threats, threat-aware move ordering and
the greedy agent (agents.py), on concrete battlefields."""

from __future__ import annotations

import random

from stratagem.models.cardclash.agents import greedy_move
from stratagem.models.cardclash.battlefield import parse_board
from stratagem.models.cardclash.position import Move
from stratagem.models.cardclash.threats import Rules, completing_moves, effect
from tests.models.cardclash.support import game_at

PLAIN = Rules(6, 6, False)
VARIANT = Rules(6, 6, True)


def test_engine_completing_moves_on_an_empty_fourth_cell() -> None:
    assert completing_moves(parse_board("r2,r3/r4,."), "r", "56", PLAIN) == [Move("5", 1, 1), Move("6", 1, 1)]


def test_engine_completing_moves_follow_the_stacking_rules() -> None:
    # Only the Major may go on the blue Sergeant.
    assert completing_moves(parse_board("r2,r3/r4,b3"), "r", "24", PLAIN) == [Move("4", 1, 1)]
    # A Miner closes the stack: no square through it.
    assert completing_moves(parse_board("r2,r3/r4,bXbB"), "r", "46", PLAIN) == []


def test_seed_variant_cancellation_that_uncovers_own_card_completes_a_square() -> None:
    board = parse_board("r2,r3/r4,b6r5")
    assert completing_moves(board, "r", "6", VARIANT) == [Move("6", 1, 1)]
    assert completing_moves(board, "r", "6", PLAIN) == []
    assert completing_moves(parse_board("r2,r3/r4,b6b5"), "r", "6", VARIANT) == []


def test_engine_effect_marks_a_gift() -> None:
    game, state = game_at("b2,b3/b4,b6b5 6,4 -,- 1", strategic=True)
    e = effect(state, Move("6", 1, 1), game.rules)
    assert e.gifts and not e.wins


def test_engine_order_puts_squares_first_then_blocks() -> None:
    # Red completes (1,1); blue threatens (2,1).
    game, state = game_at("r2,r3,.,./r4,.,.,b2/.,.,b3,b4 56,2 -,- 1")
    ordered = game.order_moves(state, game.legal_moves(state))
    assert set(ordered[:2]) == {Move("5", 1, 1), Move("6", 1, 1)}
    assert set(ordered[2:4]) == {Move("5", 2, 1), Move("6", 2, 1)}
    assert sorted(ordered) == sorted(game.legal_moves(state))


def test_engine_order_puts_blocks_first_without_a_square() -> None:
    game, state = game_at("r2,.,.,./.,.,.,bB/.,.,bB,bX 5,2 -,- 1")  # blue cards red cannot cover
    assert game.order_moves(state, game.legal_moves(state))[0] == Move("5", 2, 1)


def test_engine_greedy_takes_a_square_when_it_can() -> None:
    game, state = game_at("r2,r3,.,./r4,.,.,b2/.,.,b3,b4 56,2 -,- 1")
    for seed in range(5):
        assert greedy_move(game, state, random.Random(seed)) in (Move("5", 1, 1), Move("6", 1, 1))


def test_engine_greedy_blocks_when_it_must() -> None:
    game, state = game_at("r2,.,.,./.,.,.,bB/.,.,bB,bX 5,2 -,- 1")  # blue cards red cannot cover
    for seed in range(5):
        assert greedy_move(game, state, random.Random(seed)) == Move("5", 2, 1)


def test_engine_greedy_never_hands_over_a_square_when_it_can_avoid_it() -> None:
    # Red's Marshal could cancel blue's and uncover blue's fourth card; red lays it elsewhere.
    game, state = game_at("b2,b3/b4,b6b5 6,4 -,- 1", strategic=True)
    for seed in range(5):
        assert greedy_move(game, state, random.Random(seed)) != Move("6", 1, 1)


def test_engine_incremental_effect_matches_a_fresh_count_after_the_move() -> None:
    """effect() updates only the blocks around the changed cell; compare with counting from scratch."""
    from stratagem.models.cardclash.battlefield import squares
    from stratagem.models.cardclash.cards import COLOURS
    from stratagem.models.cardclash.rules import CardClashGame
    from stratagem.models.cardclash.threats import Context, threat_count

    checked = 0
    for strategic in (False, True):
        game = CardClashGame(3, width=4, height=4, strategic=strategic, seed=5)
        rng = random.Random(5)
        state = game.initial_state()
        while not game.is_terminal(state):
            context = Context(state, game.rules)
            mover = state.to_move
            others = [p for p in range(3) if p != mover]
            for move in game.legal_moves(state):
                e = effect(state, move, game.rules, context)
                after = game.apply(state, move)
                hand = state.hands[mover].replace(move.rank, "", 1) + state.piles[mover][:1]
                assert e.opponent_threats == threat_count(after.board, state, others, game.rules)
                assert e.own_threats == len(completing_moves(after.board, COLOURS[mover], hand, game.rules))
                assert e.wins == (COLOURS[mover] in squares(after.board))
                checked += 1
            state = game.apply(state, rng.choice(game.legal_moves(state)))
    assert checked > 100

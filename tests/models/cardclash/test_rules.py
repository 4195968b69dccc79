"""Turns, the end of a round, scoring with its tie-breaks, the strategic variant, hidden information
and rounds with flags (rules.py), each on a concrete battlefield."""

from __future__ import annotations

import random

import pytest

from stratagem.core.errors import IllegalMove
from stratagem.core.game import TERMINAL, Evaluation, HiddenInformation, MoveOrdering
from stratagem.models.cardclash.battlefield import format_board
from stratagem.models.cardclash.position import PASS, Move, format_state, parse_state
from stratagem.models.cardclash.rules import CardClashGame, cards_of, deal, full_army
from tests.models.cardclash.support import game_at


# -- setup and turns ------------------------------------------------------------------------------
@pytest.mark.parametrize("players", range(2, 7))
def test_seed_each_player_shuffles_own_army_and_draws_four(players: int) -> None:
    state = deal(players, random.Random(players))
    assert [len(h) for h in state.hands] == [4] * players
    assert [len(p) for p in state.piles] == [13] * players
    assert cards_of(state) == full_army(players)
    assert state.board == ()


def test_seed_player_draws_from_own_pile_after_placing() -> None:
    game, state = game_at("r2 34,56 5B,6 1")
    after = game.apply(state, Move("3", 0, 0))
    assert after.hands == ("45", "56") and after.piles == ("B", "6")


def test_seed_no_draw_when_own_pile_is_empty() -> None:
    game, state = game_at("r2 34,56 -,6 1")
    after = game.apply(state, Move("3", 0, 0))
    assert after.hands == ("4", "56") and after.piles == ("", "6")


def test_seed_play_passes_to_the_left() -> None:
    game, state = game_at("r2 3,4,5 -,-,- 3")
    assert game.apply(state, Move("5", 0, 0)).to_move == 0


def test_seed_exactly_one_card_from_hand() -> None:
    game, state = game_at("r2 34,56 -,- 1")
    with pytest.raises(IllegalMove):
        game.apply(state, Move("6", 0, 0))  # red holds no Marshal


def test_engine_legal_moves_list_each_rank_once_in_order() -> None:
    game, state = game_at("r2 33,4 -,- 1")
    moves = game.legal_moves(state)
    assert len(moves) == len(set(moves)) == 5  # one Sergeant, five places (on the Scout, four sides)


def test_ruling_player_without_placement_passes_and_keeps_hand() -> None:
    # A 2x2 table filled with stacks closed by Miners: nothing can be laid anywhere.
    game, state = game_at("rXbB,bXrB/bXrB,rXbB 3,4 5,6 1", width=2, height=2)
    assert game.legal_moves(state) == [PASS]
    after = game.apply(state, PASS)
    assert after.hands == state.hands and after.piles == state.piles
    assert after.to_move == 1 and after.passes == 1 and not after.winners


def test_ruling_may_not_pass_with_a_placement() -> None:
    game, state = game_at("r2 3,4 -,- 1")
    with pytest.raises(IllegalMove):
        game.apply(state, PASS)


def test_ruling_everybody_passing_ends_the_round_with_scoring() -> None:
    game, state = game_at("rXbB,bXrB/bXrB,rXbB 3,4 5,6 1", width=2, height=2)
    end = game.apply(game.apply(state, PASS), PASS)
    assert game.is_terminal(end) and game.to_move(end) == TERMINAL
    assert end.winners == (0, 1)  # two visible cards each, no numbers: all tied win together


# -- the square ----------------------------------------------------------------------------------
def test_seed_square_of_own_colour_wins_the_round() -> None:
    game, state = game_at("r2,r3/r4,. 5,6 B,B 1")
    after = game.apply(state, Move("5", 1, 1))
    assert after.winners == (0,) and game.returns(after) == (1.0, -1.0)
    assert game.legal_moves(after) == []


def test_seed_square_may_use_a_card_laid_on_a_stack() -> None:
    game, state = game_at("r2,r3/r4,b5r2 6,6 -,- 1")
    assert game.apply(state, Move("6", 1, 1)).winners == (0,)


def test_seed_square_is_won_even_when_made_by_another_players_move() -> None:
    # Strategic variant: red cancels the blue Marshal with its own and uncovers blue's fourth card.
    game, state = game_at("b2,b3/b4,b6b5 6,4 -,- 1", strategic=True)
    after = game.apply(state, Move("6", 1, 1))
    assert format_board(after.board) == "b2,b3/b4,b5" and after.winners == (1,)
    assert game.returns(after) == (-1.0, 1.0)


def test_ruling_several_squares_the_mover_wins_if_among_them() -> None:
    # A composed position where blue already shows a square; red completes one of its own.
    game, state = game_at("b2,b3,r2,r3/b4,b5,r4,. 5,6 -,- 1")
    assert game.apply(state, Move("5", 3, 1)).winners == (0,)


def test_ruling_several_squares_else_the_first_in_turn_order_after_the_mover() -> None:
    # Three players; red moves elsewhere while blue (2) and green (3) both show a square: blue wins.
    game, state = game_at("g2,g3,b2,b3/g4,g5,b4,b5 5,6,6 -,-,- 1")
    assert game.apply(state, Move("5", 0, -1)).winners == (1,)
    # With green (3) to move, red (1) comes before blue (2) in turn order after green.
    game, state = game_at("r2,r3,b2,b3/r4,r5,b4,b5 5,6,6 -,-,- 3")
    assert game.apply(state, Move("6", 0, -1)).winners == (0,)


def test_engine_three_player_square_returns_plus_one_minus_one() -> None:
    game, state = game_at("r2,r3/r4,. 5,6,6 -,-,- 1")
    after = game.apply(state, Move("5", 1, 1))
    assert game.returns(after) == (1.0, -1.0, -1.0)


# -- all cards played: scoring and tie-breaks ----------------------------------------------------
def test_seed_all_cards_played_visible_cards_score_a_point_each() -> None:
    # Red lays its last card; red shows three cards, blue one (the red Sergeant under blue's is hidden).
    game, state = game_at("r2,b4r3/r4,. 5,- -,- 1")
    end = game.apply(state, Move("5", 1, 1))
    assert end.winners == (0,) and game.returns(end) == (1.0, -1.0)


def test_seed_covered_cards_do_not_score() -> None:
    # Blue's Marshal lies under a red Spy. Red lays its last card: red shows two cards, blue one. Were
    # the covered Marshal counted, blue would tie on points and win the first tie-break (8 against 4).
    game, state = game_at("r1b6,b2 3,- -,- 1")
    end = game.apply(state, Move("3", 2, 0))
    assert end.winners == (0,)


def test_seed_tie_break_one_sum_of_numbers_bombs_and_miners_count_nothing() -> None:
    # Red: Bomb + General = 5 (2 cards); blue: Sergeant + Sergeant = 6 (2 cards): blue wins.
    game, state = game_at("rB,b3,b3 5,- -,- 1")
    end = game.apply(state, Move("5", 3, 0))
    assert end.winners == (1,)


def test_seed_tie_break_two_highest_rank_on_the_table() -> None:
    # Red: Marshal + Spy = 7; blue: Major + Sergeant = 7; red shows the highest rank.
    game, state = game_at("r1,b4,b3 6,- -,- 1")
    end = game.apply(state, Move("6", 3, 0))
    assert end.winners == (0,)


def test_seed_tie_break_three_all_tied_players_win_together() -> None:
    game, state = game_at("r3,b4,b3 4,- -,- 1")
    end = game.apply(state, Move("4", 3, 0))
    assert end.winners == (0, 1) and game.returns(end) == (0.0, 0.0)


def test_engine_co_winners_among_three_get_plus_one_the_rest_minus_one() -> None:
    game, state = game_at("r3,b4,b3,g2 4,-,- -,-,- 1")
    end = game.apply(state, Move("4", 4, 0))
    assert end.winners == (0, 1) and game.returns(end) == (1.0, 1.0, -1.0)


# -- strategic variant ---------------------------------------------------------------------------
def test_seed_variant_example_bombs_then_marshals_cancel() -> None:
    # The seed's example with five players (purple = 5, yellow = 4, green = 3): purple Marshal on a
    # yellow Scout, a green Bomb on top; a purple Bomb cancels the green one, a yellow Marshal the
    # purple one, and the yellow Scout shows again.
    game, state = game_at("gBp6y2 -,-,-,6,B -,-,-,-,- 5", strategic=True)
    after = game.apply(state, Move("B", 0, 0))
    assert format_board(after.board) == "p6y2" and after.removed == "gBpB"
    after = game.apply(after._replace(to_move=3), Move("6", 0, 0))
    assert format_board(after.board) == "y2" and after.removed == "gBy6p6pB"


def test_seed_variant_same_value_not_allowed_without_the_variant() -> None:
    game, state = game_at("b6b2 6,- -,- 1")
    assert Move("6", 0, 0) not in game.legal_moves(state)


def test_seed_variant_miner_and_bomb_cancel() -> None:
    game, state = game_at("bBr4 X,- -,- 1", strategic=True)
    assert format_board(game.apply(state, Move("X", 0, 0)).board) == "r4"
    game, state = game_at("bBr4 X,- -,- 1")
    assert format_board(game.apply(state, Move("X", 0, 0)).board) == "rXbBr4"


def test_seed_variant_cards_left_unconnected_stay() -> None:
    game, state = game_at("r3,b2,r4 2,5 -,- 1", strategic=True)
    after = game.apply(state, Move("2", 1, 0))
    assert format_board(after.board) == "r3,.,r4"
    # The gap is still a place next to a card.
    assert Move("5", 1, 0) in game.legal_moves(after)


def test_seed_variant_emptied_edge_cell_leaves_the_battlefield() -> None:
    game, state = game_at("b2,r3 2,5 -,- 1", strategic=True)
    assert format_board(game.apply(state, Move("2", 0, 0)).board) == "r3"


def test_seed_variant_peeking_under_each_top_card_is_observed() -> None:
    # Two positions that differ only in the card under the top card.
    a, b = "b6r2,r3 4,5 -,- 1", "b6r4,r3 4,5 -,- 1"
    plain = CardClashGame(2)
    variant = CardClashGame(2, strategic=True)
    assert plain.observation(parse_state(a), 0) == plain.observation(parse_state(b), 0)
    assert variant.observation(parse_state(a), 0) != variant.observation(parse_state(b), 0)


# -- hidden information --------------------------------------------------------------------------
def test_engine_observation_hides_other_hands_and_piles() -> None:
    game = CardClashGame(2)
    a, b = parse_state("r2 34,56 5B,6 1"), parse_state("r2 34,5B 56,6 1")
    assert game.observation(a, 0) == game.observation(b, 0)
    assert game.observation(a, 1) != game.observation(b, 1)


@pytest.mark.parametrize("strategic", [False, True])
def test_engine_sample_state_keeps_observation_and_cards(strategic: bool) -> None:
    game = CardClashGame(3, strategic=strategic, width=5, height=5)
    rng = random.Random(7)
    state = game.initial_state()
    for _ in range(25):
        state = game.apply(state, rng.choice(game.legal_moves(state)))
        if game.is_terminal(state):
            break
    for player in range(3):
        sample = game.sample_state(state, player, rng)
        assert game.observation(sample, player) == game.observation(state, player)
        assert cards_of(sample) == full_army(3)


@pytest.mark.parametrize("player", [0, 1])
def test_engine_sample_state_of_a_puzzle_with_part_of_each_army_keeps_its_cards(player: int) -> None:
    # A puzzle position holds only some of each army: the hidden cards are the ones in the position
    # (the rest of the army is not in play), so a sample neither adds nor loses a card.
    game, state = game_at("b5,rBb3,./b1,b6r2,r4/r1,.,. 4X,33 65,2X 1")
    rng = random.Random(3)
    for _ in range(20):
        sample = game.sample_state(state, player, rng)
        assert game.observation(sample, player) == game.observation(state, player)
        assert sorted(cards_of(sample)) == sorted(cards_of(state))


def test_engine_capabilities_are_declared() -> None:
    game = CardClashGame(2)
    assert isinstance(game, MoveOrdering) and isinstance(game, Evaluation) and isinstance(game, HiddenInformation)


def test_engine_evaluation_is_on_the_returns_scale() -> None:
    game, state = game_at("r2,r3/r4,. 5,6 -,- 2")
    values = game.evaluate(state)
    assert values[0] > values[1] and all(-1 < v < 1 for v in values)


# -- rounds and flags ----------------------------------------------------------------------------
def test_seed_round_winner_takes_a_flag_and_next_round_is_dealt() -> None:
    game = CardClashGame(2, rounds=3)
    won = parse_state("r2,r3/r4,r5 -,- -,- 2 won=1")
    assert game.flags_after(won) == (1, 0) and not game.match_over(won)
    nxt = game.next_round(won, random.Random(1))
    assert nxt.round == 2 and nxt.flags == (1, 0) and nxt.to_move == 1 and cards_of(nxt) == full_army(2)


def test_seed_match_ends_when_every_flag_is_handed_out() -> None:
    game = CardClashGame(2, rounds=3)
    won = parse_state("r2,r3/r4,r5 -,- -,- 1 round=3 flags=1,1 won=1")
    assert game.match_over(won) and game.match_winners(won) == (0,)
    with pytest.raises(ValueError):
        game.next_round(won, random.Random(1))


def test_seed_most_flags_win_together_when_tied() -> None:
    game = CardClashGame(3, rounds=2)
    won = parse_state("g2,g3/g4,g5 -,-,- -,-,- 1 round=2 flags=1,0,0 won=3")
    assert game.match_winners(won) == (0, 2)


def test_engine_setup_round_trips_through_game_from_setup() -> None:
    from stratagem.models.cardclash.puzzle import game_from_setup

    game = CardClashGame(4, width=5, height=4, strategic=True, rounds=2, seed=9)
    again = game_from_setup(game.setup(), "<test>")
    assert again.setup() == game.setup()
    assert format_state(again.initial_state()) == format_state(game.initial_state())


@pytest.mark.parametrize(("width", "height"), [(1, 6), (6, 1), (103, 6), (6, 103)])
def test_game_refuses_a_table_no_square_fits_or_no_army_fills(width: int, height: int) -> None:
    # A square is 2x2 (rule text); every file refused a one-wide table, the game itself took it.
    with pytest.raises(ValueError, match="2x2 to 102x102"):
        CardClashGame(2, width=width, height=height)

"""Every rule of the STAKD seed and every STAKD ruling, each with a concrete position where the rule
allows a play and one where it forbids it. Positions are drawn in tests/models/stakd/support.py."""

from __future__ import annotations

import pytest

from stratagem.core.errors import IllegalMove
from stratagem.core.game import TERMINAL
from stratagem.models.stakd.notation import parse_move, parse_state
from stratagem.models.stakd.pieces import BOX, PIECE_SETS, player_set
from stratagem.models.stakd.rules import StakdGame

from .support import TWO_BASES, layer_of, legal, moves, position

# -- Step 1: the Base layer -------------------------------------------------------------------


def test_ruling_first_base_goes_at_the_canonical_place() -> None:
    game, state = position("- B2U1 1")
    assert moves(game, state) == ["B@3,1h"]  # the 11x3 lattice's centre, horizontal
    with pytest.raises(IllegalMove, match="the first Base goes at B@3,1h"):
        game.apply(state, parse_move("B@0,0h"))


def test_seed_the_first_piece_is_a_base() -> None:
    game, state = position("- D1U1 1")
    assert moves(game, state) == []
    assert game.is_terminal(state)  # the only player is out at once


def test_seed_a_base_touches_another_base_with_at_least_two_nodes() -> None:
    # 15x3 lattice: the first Base covers x 5..9 of row 1.
    game, state = position("1B@5,1h B1 1", 15, 3)
    assert legal(game, state, "B@8,0h")  # overlaps x 8, 9: two touching node pairs
    assert not legal(game, state, "B@9,0h")  # overlaps x 9 only: one pair
    assert not legal(game, state, "B@10,1h")  # end to end: one pair
    # Derivation: rows 0 and 2, anchors x = 2..8 (overlap 2 to 5 nodes) -> 2 x 7 placements.
    assert len(moves(game, state)) == 14
    with pytest.raises(IllegalMove, match="at least two Nodes"):
        game.apply(state, parse_move("B@9,0h"))


def test_seed_bases_cannot_stack() -> None:
    game, state = position("1B@3,1h B1D1 1")
    assert all(m.startswith("B@") for m in moves(game, state))  # a Base in hand must go on layer 0 first
    game, state = position(TWO_BASES + "/1Q@0,0h B1U1 1")
    assert not any(m.startswith("B@") for m in moves(game, state))
    with pytest.raises(IllegalMove, match="Bases cannot stack|below the current layer"):
        game.apply(state, parse_move("B@3,0h"))


def test_engine_orientations_and_the_lattice_edge_are_explained() -> None:
    game, state = position("1B@3,1h D1U1 1")
    with pytest.raises(IllegalMove, match="a Uni takes orientation no letter"):
        game.apply(state, parse_move("U@3,1h"))
    with pytest.raises(IllegalMove, match="a Duo takes orientation h or v"):
        game.apply(state, parse_move("D@3,1"))
    with pytest.raises(IllegalMove, match="not on the 11x3 lattice"):
        game.apply(state, parse_move("D@10,1h"))
    with pytest.raises(IllegalMove, match="holds no Quad"):
        game.apply(state, parse_move("Q@3,1h"))


def test_ruling_only_bases_go_on_the_bottom_layer() -> None:
    game, state = position("1B@3,1h D1 1")
    assert moves(game, state) == ["D@3,1h", "D@4,1h", "D@5,1h", "D@6,1h"]
    assert {layer_of(game, state, m) for m in moves(game, state)} == {1}


# -- Step 2: stacking ----------------------------------------------------------------------------


def test_seed_no_overhang() -> None:
    game, state = position("1B@3,1h D1 1")
    assert legal(game, state, "D@6,1h")  # nodes 6, 7 both on the Base (x 3..7)
    assert not legal(game, state, "D@7,1h")  # node 8 overhangs
    with pytest.raises(IllegalMove, match="overhangs"):
        game.apply(state, parse_move("D@3,0v"))


def test_seed_first_piece_of_a_layer_goes_anywhere_on_top() -> None:
    game, state = position(TWO_BASES + " D1 1")
    # Derivation: on Base A (row 0, x 0..4) D@0..3,0h; on Base B (row 1, x 3..7) D@3..6,1h; across both
    # D@3,0v and D@4,0v: ten placements, none needing to touch anything.
    assert len(moves(game, state)) == 10


def test_seed_later_pieces_connect_by_at_least_one_node() -> None:
    game, state = position(TWO_BASES + "/1D@0,0h U1D1 1")
    assert legal(game, state, "U@2,0")  # touches the Duo at (1,0)
    with pytest.raises(IllegalMove, match="does not connect"):
        game.apply(state, parse_move("U@4,0"))  # on Base A, but touches nothing on layer 1
    assert moves(game, state) == ["U@2,0"]


def test_seed_one_piece_type_per_piece_below() -> None:
    game, state = position(TWO_BASES + "/1D@0,0h D1T1 1")
    assert legal(game, state, "T@2,0h")  # another type on Base A: allowed
    assert not legal(game, state, "D@2,0h")  # a second Duo on Base A: not allowed
    with pytest.raises(IllegalMove, match="one piece type per piece below"):
        game.apply(state, parse_move("D@2,0h"))


def test_ruling_a_piece_resting_on_several_counts_for_each() -> None:
    game, state = position(TWO_BASES + "/1D@3,0v D1T1 1")  # the Duo rests on Base A and Base B
    assert moves(game, state) == ["T@0,0h", "T@4,1h"]  # no second Duo on A or on B
    with pytest.raises(IllegalMove, match="one piece type"):
        game.apply(state, parse_move("D@4,1h"))
    game, state = position(TWO_BASES + "/1D@0,0h D1T1 1")
    assert not legal(game, state, "D@2,0v") and not legal(game, state, "D@4,0v")  # partly on A


def test_seed_no_duplicate_stacking() -> None:
    game, state = position("1B@3,1h/1T@3,1h;1D@6,1h T1 1")
    assert moves(game, state) == ["T@4,1h", "T@5,1h"]  # staggered Trios; T@3,1h is the same position
    with pytest.raises(IllegalMove, match="identical shapes"):
        game.apply(state, parse_move("T@3,1h"))


def test_seed_a_uni_never_stacks_on_a_uni() -> None:
    game, state = position("1B@3,1h/1U@3,1;1Q@4,1h U1 1")
    assert moves(game, state) == ["U@4,1", "U@5,1", "U@6,1", "U@7,1"]


# -- Blue Bombers ---------------------------------------------------------------------------------


def test_seed_a_bomber_may_go_on_a_piece_that_already_carries_others() -> None:
    game, state = position(TWO_BASES + "/1T@0,0h U1D1X1 1")
    assert legal(game, state, "X@3,0")  # Base A already carries the Trio


def test_seed_a_bomber_terminates_the_piece_below() -> None:
    game, state = position(TWO_BASES + "/1T@0,0h;1X@3,0 U1D1 1")
    assert not legal(game, state, "U@4,0")  # on Base A, touching the Bomber: A is terminated
    assert legal(game, state, "U@3,1") and legal(game, state, "D@3,1h")  # next to the Bomber, on Base B
    with pytest.raises(IllegalMove, match="terminated by a Bomber"):
        game.apply(state, parse_move("U@4,0"))


def test_ruling_pieces_on_the_terminated_piece_stay_and_nothing_rests_on_it_even_partly() -> None:
    game, state = position(TWO_BASES + "/1T@0,0h;1X@3,0 U1D1 1")
    assert state.layers[1][0].kind == "T"  # the Trio placed before the Bomber stays
    assert not legal(game, state, "D@4,0v")  # (4,0) on terminated A, (4,1) on B
    with pytest.raises(IllegalMove, match="terminated"):
        game.apply(state, parse_move("D@4,0v"))


def test_seed_pieces_can_be_placed_on_top_of_a_bomber() -> None:
    game, state = position("1B@0,0h/1T@0,0h;1X@3,0 Q1D1 1", 5, 1)
    assert moves(game, state) == ["Q@0,0h", "D@0,0h", "D@1,0h", "D@2,0h"]  # Q@0,0h and D@2,0h cover the Bomber


def test_seed_only_one_bomber_per_layer() -> None:
    game, state = position(TWO_BASES + "/1T@0,0h;1X@3,0 U1X1 1")
    assert moves(game, state) == ["U@3,1"]
    with pytest.raises(IllegalMove, match="one Bomber"):
        game.apply(state, parse_move("X@3,1"))


def test_seed_never_start_a_new_layer_with_a_bomber() -> None:
    game, state = position("1B@3,1h/1T@3,1h;1D@6,1h X1 1")  # layer 1 is full: only a new layer is left
    assert moves(game, state) == []
    game, state = position("1B@3,1h/1T@3,1h;1D@6,1h X1U1 1")
    with pytest.raises(IllegalMove, match="never be started with a Bomber"):
        game.apply(state, parse_move("X@3,1"))


# -- Step 3: new layers ---------------------------------------------------------------------------

FOUR_BASES = "1B@9,3h;1B@9,2h;1B@9,4h;1B@9,1h"  # a 5x4 block on the 23x7 lattice
FIVE_ON_LAYER_1 = "1D@9,1h;1D@9,2h;1D@9,3h;1D@9,4h;1U@11,1"


def test_seed_six_pieces_before_a_new_layer() -> None:
    game, state = position(f"{FOUR_BASES}/{FIVE_ON_LAYER_1} D1T1 1", 23, 7)
    assert moves(game, state) == ["T@12,1v", "T@11,2h", "T@11,2v", "T@11,3h", "T@11,4h"]
    assert {layer_of(game, state, m) for m in moves(game, state)} == {1}
    with pytest.raises(IllegalMove, match="needs 6"):
        game.apply(state, parse_move("D@9,1v"))
    game, state = position(f"{FOUR_BASES}/{FIVE_ON_LAYER_1};1U@11,2 D1T1 1", 23, 7)
    assert layer_of(game, state, "D@9,1v") == 2  # six pieces: a new layer may start
    assert layer_of(game, state, "T@11,3h") == 1  # and the current layer is still open


def test_seed_a_new_layer_may_start_early_when_no_play_is_left_on_the_current_one() -> None:
    game, state = position("1B@3,1h/1T@3,1h;1D@6,1h T1 1")  # two pieces, layer 1 full
    assert {layer_of(game, state, m) for m in moves(game, state)} == {2}


def test_seed_a_uni_starts_a_layer_only_when_nothing_but_unis_is_in_hand() -> None:
    game, state = position("1B@3,1h/1T@3,1h;1D@6,1h U1D1 1")
    assert moves(game, state) == ["D@3,1h", "D@4,1h", "D@5,1h"]
    with pytest.raises(IllegalMove, match="Uni"):
        game.apply(state, parse_move("U@3,1"))
    game, state = position("1B@3,1h/1T@3,1h;1D@6,1h U1X1 1")  # Unis and Bombers only: a Uni may start
    assert moves(game, state) == ["U@3,1", "U@4,1", "U@5,1", "U@6,1", "U@7,1"]


def test_seed_no_play_below_the_current_layer() -> None:
    game, state = position(TWO_BASES + "/1Q@0,0h/1D@1,0h U1 1")
    assert moves(game, state) == ["U@0,0", "U@3,0"]  # U@3,1 would fit layer 1 beside the Quad
    assert {layer_of(game, state, m) for m in moves(game, state)} == {2}
    with pytest.raises(IllegalMove, match="below the current layer"):
        game.apply(state, parse_move("U@3,1"))


# -- Steps 4-5: out, winning ----------------------------------------------------------------------


def test_seed_bases_are_laid_first_in_turn_order() -> None:
    game = StakdGame(2)
    state = game.initial_state()
    owners = []
    for _ in range(4):
        owners.append(state.to_move)
        assert all(m.kind == "B" for m in game.legal_moves(state))
        state = game.apply(state, game.legal_moves(state)[0])
    assert owners == [0, 1, 0, 1]
    assert not any(m.kind == "B" for m in game.legal_moves(state))


def test_seed_turns_pass_in_order_one_piece_each() -> None:
    game = StakdGame(3)
    state = game.initial_state()
    seen = []
    for _ in range(6):
        seen.append(state.to_move)
        state = game.apply(state, game.legal_moves(state)[0])
    assert seen == [0, 1, 2, 0, 1, 2]
    assert state.num_placed() == 6


def test_seed_a_player_with_no_play_is_out_for_the_rest_of_the_round() -> None:
    # Player 2 holds only a Bomber, which cannot start layer 1: out at once; player 1 plays on.
    game, state = position("1B@3,1h;2B@0,0h D2,X1 2")
    assert state.out == (False, True) and game.to_move(state) == 0
    state = game.apply(state, parse_move("D@2,0h"))
    # X@4,0 would now be a legal Bomber play, but player 2 is out for the round.
    assert state.out == (False, True) and state.to_move == 0
    state = game.apply(state, parse_move("D@3,1h"))
    assert game.is_terminal(state) and game.returns(state) == (1.0, -1.0)


def test_seed_out_players_stay_out() -> None:
    game, state = position("1B@3,1h;2B@0,0h D2,X1 1 out:2")
    state = game.apply(state, parse_move("D@2,0h"))
    assert state.to_move == 0 and state.out == (False, True)
    fresh, start = position("1B@3,1h;2B@0,0h D2,X1 1")
    after = fresh.apply(start, parse_move("D@2,0h"))
    assert after.to_move == 1 and fresh.legal_moves(after)  # not out: the same play is open to player 2


def test_seed_the_last_player_to_place_wins() -> None:
    game, state = position("1B@3,1h;2B@0,0h D1,D1 1")
    state = game.apply(state, parse_move("D@2,0h"))
    state = game.apply(state, parse_move("D@3,1h"))  # touches the Duo at (3,0)
    assert game.is_terminal(state) and game.to_move(state) == TERMINAL
    assert game.returns(state) == (-1.0, 1.0)


def test_ruling_a_bomber_cannot_win() -> None:
    game, state = position("1B@3,1h;2B@0,0h D1,X1 1")
    state = game.apply(state, parse_move("D@2,0h"))
    state = game.apply(state, parse_move("X@4,0"))  # player 2 places last, with a Bomber
    assert game.is_terminal(state)
    assert state.last_placer() == 1 and state.last_non_bomber_placer() == 0
    assert game.returns(state) == (1.0, -1.0)


def test_seed_solo_is_won_by_placing_every_piece() -> None:
    game, state = position("1B@3,1h D1 1")
    assert game.returns(game.apply(state, parse_move("D@3,1h"))) == (1.0,)
    game, state = position("1B@3,1h/1T@3,1h D1X1 1")
    state = game.apply(state, parse_move("D@6,1h"))  # layer 1 full; the Bomber cannot start layer 2
    assert game.is_terminal(state) and game.returns(state) == (-1.0,)


# -- Setup ----------------------------------------------------------------------------------------


def test_seed_piece_sets_by_player_count() -> None:
    assert player_set(1) == (2, 4, 6, 10, 16, 1)  # order B Q T D U X
    assert player_set(2) == (2, 2, 4, 8, 12, 2)
    assert player_set(3) == player_set(4) == (1, 1, 2, 4, 6, 2)
    with pytest.raises(ValueError):
        player_set(7)


def test_ruling_five_and_six_players_use_the_assumed_set_which_the_box_holds() -> None:
    assert player_set(5) == player_set(6) == (1, 1, 1, 2, 4, 1)  # seed gives Base 1, Uni 4; rest assumed
    for players, pieces in PIECE_SETS.items():
        for kind, n in pieces.items():
            assert n * players <= BOX[kind], (players, kind)


def test_engine_game_starts_from_the_seed_sets_on_an_empty_table() -> None:
    for players in range(1, 7):
        game = StakdGame(players)
        state = game.initial_state()
        assert state.layers == () and state.hands == (player_set(players),) * players
        assert parse_state(game.format_state(state)) == state

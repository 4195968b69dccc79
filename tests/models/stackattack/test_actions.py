"""Action cards (seed sections 8-9, docs/rules/stackattack.md), each with a concrete turn.

Default action cards: Shield 8 and 40, Block 16 and 48, Decreasing 24 and 56, Switch 32 and 64.
"""

from __future__ import annotations

import pytest

from stratagem.core.errors import NotationError
from stratagem.core.game import SIMULTANEOUS

from .support import options_of, play, position, rows_text


# -- Block ---------------------------------------------------------------------------------------
def test_seed_block_player_picks_a_row_and_nobody_places_there() -> None:
    game, state = position("10/20/30/40 16.2/45.46 -/- 0/0 1")
    mid = play(game, state, "16,45")
    assert game.to_move(mid) == 0 and game.pending(mid) == "block"
    assert options_of(game, mid) == ["B1", "B2", "B3", "B4"]
    mid = play(game, mid, "B4")
    assert mid.blocked == (3,)
    # 16 goes after 10 as usual; 45 belongs after 40 but row 4 is blocked: player 2 takes an open row.
    assert game.to_move(mid) == 1 and game.pending(mid) == "take"
    assert options_of(game, mid) == ["T1", "T2", "T3"]
    after = play(game, mid, "T3")
    assert rows_text(after) == ["10.16", "20", "45", "40"]
    assert after.taken == ((), (30,))


def test_seed_block_applies_to_its_own_player_too() -> None:
    # "No one can place a card there this round, including you": the 48 belongs after 40, which its
    # own player blocked, so player 1 takes an open row.
    game, state = position("10/20/30/40 48.2/21.22 -/- 0/0 1")
    mid = play(game, state, "48,21", "B4")
    assert game.to_move(mid) == 0 and game.pending(mid) == "take"
    assert options_of(game, mid) == ["T1", "T2", "T3"]
    after = play(game, mid, "T1")
    assert rows_text(after) == ["48", "20.21", "30", "40"]
    assert after.taken == ((10,), ())


def test_ruling_card_lower_than_every_row_cannot_take_a_blocked_row() -> None:
    game, state = position("10/20/30/40 16.2/5.46 -/- 0/0 1")
    mid = play(game, state, "16,5", "B2")
    assert game.to_move(mid) == 1
    assert options_of(game, mid) == ["T1", "T3", "T4"]


def test_ruling_block_lasts_for_the_turn_only() -> None:
    game, state = position("10/20/30/40 16.2/45.46 -/- 0/0 1")
    after = play(game, state, "16,45", "B4", "T3")
    assert after.blocked == () and game.to_move(after) == SIMULTANEOUS
    # Next turn 46 goes after 45 (row 3), and nothing stops a card going on row 4.
    nxt = play(game, after, "2,46")
    assert game.to_move(nxt) == 0  # the 2 is lower than every row: all four rows are open again
    assert options_of(game, nxt) == ["T1", "T2", "T3", "T4"]


def test_ruling_block_may_pick_a_row_already_blocked() -> None:
    # Two Blocks: the second may pick the first one's row again (one blocked row), or another.
    game, state = position("10/20/30/41 16.2.3/48.4.5/50.6.7 -/-/- 0/0/0 1")
    mid = play(game, state, "16,48,50", "B4")
    assert game.to_move(mid) == 1 and options_of(game, mid) == ["B1", "B2", "B3", "B4"]
    after = play(game, mid, "B4")
    assert after.blocked == (3,)
    # 16 goes after 10; the Block 48 belongs after 41, blocked: player 2 takes an open row.
    assert game.to_move(after) == 1 and options_of(game, after) == ["T1", "T2", "T3"]


# -- Shield ----------------------------------------------------------------------------------------
def test_seed_shield_may_be_the_sixth_card_without_taking() -> None:
    game, state = position("1.2.3.4.6/20/30/50 8.9/60.61 -/- 0/0 1")
    after = play(game, state, "8,60")
    assert rows_text(after) == ["1.2.3.4.6.8", "20", "30", "50.60"]
    assert after.taken == ((), ())
    # A plain card on that row then takes all six.
    nxt = play(game, after, "9,61")
    assert rows_text(nxt) == ["9", "20", "30", "50.60.61"]
    assert nxt.taken == ((1, 2, 3, 4, 6, 8), ())


def test_seed_shield_lower_than_every_row_goes_in_any_row_without_taking() -> None:
    game, state = position("10/20/30/50 8.9/60.61 -/- 0/0 1")
    mid = play(game, state, "8,60")
    assert game.to_move(mid) == 0 and game.pending(mid) == "shield"
    assert options_of(game, mid) == ["P1", "P2", "P3", "P4"]
    after = play(game, mid, "P2")
    assert rows_text(after) == ["10", "20.8", "30", "50.60"]
    assert after.taken == ((), ())


# -- Decreasing ----------------------------------------------------------------------------------
def test_seed_decreasing_resolves_highest_first() -> None:
    game, state = position("10/20/30/40 24.1/45.2/44.3 -/-/- 0/0/0 1")
    after = play(game, state, "24,45,44")
    # Highest first: 45 after 40; then 44 after 30 (row 4 now ends in 45); then 24 after 20.
    assert rows_text(after) == ["10", "20.24", "30.44", "40.45"]


def test_seed_several_decreasing_reverse_only_once() -> None:
    game, state = position("10/20/30/40 24.1/56.2/44.3 -/-/- 0/0/0 1")
    after = play(game, state, "24,56,44")
    # Still highest first (reversing twice would be lowest first: 40.44.56 in row 4).
    assert rows_text(after) == ["10", "20.24", "30.44", "40.56"]


# -- Switch ----------------------------------------------------------------------------------------
def test_seed_switch_must_swap_with_another_players_card() -> None:
    # Two players: the swap partner is forced. Player 1 now holds the 5 and must take a row.
    game, state = position("10/20/30/40 32.1/5.2 -/- 0/0 1")
    mid = play(game, state, "32,5")
    assert mid.played == (5, 32)
    assert game.to_move(mid) == 0 and game.pending(mid) == "take"
    after = play(game, mid, "T4")
    assert rows_text(after) == ["10", "20", "30.32", "5"]
    assert after.taken == ((40,), ())


def test_ruling_switch_player_chooses_whose_card_to_take() -> None:
    game, state = position("10/20/30/40 32.1/5.2/60.3 -/-/- 0/0/0 1")
    mid = play(game, state, "32,5,60")
    assert game.to_move(mid) == 0 and game.pending(mid) == "switch"
    assert options_of(game, mid) == ["S5", "S60"]
    mid = play(game, mid, "S60")
    assert mid.played == (60, 5, 32)
    assert game.to_move(mid) == 1  # player 2's 5 is lower than every row
    after = play(game, mid, "T1")
    assert rows_text(after) == ["5", "20", "30.32", "40.60"]
    assert after.taken == ((), (10,), ())


def test_seed_two_switches_lower_first_even_under_decreasing_and_back() -> None:
    game, state = position("10/20/30/40 32.1/64.2/24.3 -/-/- 0/0/0 1")
    mid = play(game, state, "32,64,24")
    # The 32 activates first although the 24 (Decreasing) makes placement highest first.
    assert mid.activate == (32, 64) and mid.place == (64, 32, 24)
    assert game.to_move(mid) == 0 and options_of(game, mid) == ["S64", "S24"]
    mid = play(game, mid, "S64")
    assert mid.played == (64, 32, 24)
    # Player 1 now holds the 64 and activates it: the card can be switched back.
    assert game.to_move(mid) == 0 and options_of(game, mid) == ["S32", "S24"]
    after = play(game, mid, "S32")
    assert after.played == () and game.to_move(after) == SIMULTANEOUS
    assert rows_text(after) == ["10", "20.24", "30.32", "40.64"]


# -- Interactions ------------------------------------------------------------------------------------
def test_seed_block_then_switch_only_the_card_is_switched_not_the_action() -> None:
    # Block 16 (player 1) activates first and closes row 3; Switch 32 (player 2) then swaps with the 16.
    game, state = position("10/20/30/40 16.1/32.2 -/- 0/0 1")
    mid = play(game, state, "16,32")
    assert game.to_move(mid) == 0 and game.pending(mid) == "block"
    mid = play(game, mid, "B3")
    assert mid.played == (32, 16) and mid.blocked == (2,)
    # Player 2 places the 16 (row 1); player 1's 32 belongs after 30, the row player 1 blocked.
    assert game.to_move(mid) == 0 and options_of(game, mid) == ["T1", "T2", "T4"]
    after = play(game, mid, "T2")
    assert rows_text(after) == ["10.16", "32", "30", "40"]
    assert after.taken == ((20,), ())


def test_ruling_switch_before_block_gives_the_block_to_the_new_holder() -> None:
    # Switch 32 is lower, so it swaps first: player 1 then holds the Block 48 and picks the row.
    game, state = position("10/20/30/40 32.1/48.2 -/- 0/0 1")
    mid = play(game, state, "32,48")
    assert mid.played == (48, 32)
    assert game.to_move(mid) == 0 and game.pending(mid) == "block"


def test_seed_multiple_action_cards_all_apply() -> None:
    # Block 16 (player 2) closes row 4; Shield 40 (player 1) belongs after 35, blocked, so it goes in
    # any open row without taking; Decreasing 24 (player 3) makes placement highest first.
    game, state = position("10/20/30/35 40.1/16.2/24.3 -/-/- 0/0/0 1")
    mid = play(game, state, "40,16,24")
    assert mid.place == (40, 24, 16)
    mid = play(game, mid, "B4")
    assert game.to_move(mid) == 0 and options_of(game, mid) == ["P1", "P2", "P3"]
    after = play(game, mid, "P1")
    # Then 24 goes after 20. The rows now end 40, 24, 30, 35: the 16 is lower than every row, so
    # player 2 takes one of the open rows.
    assert rows_text(after)[:2] == ["10.40", "20.24"]
    assert game.to_move(after) == 1 and options_of(game, after) == ["T1", "T2", "T3"]
    done = play(game, after, "T3")
    assert rows_text(done) == ["10.40", "20.24", "16", "35"]
    assert done.taken == ((), (30,), ())


def test_seed_actions_activate_lowest_first_even_under_decreasing() -> None:
    # Block 48, Switch 32, Decreasing 56: placement is highest first, activation still lowest first.
    game, state = position("10/20/30/40 48.1/32.2/56.3 -/-/- 0/0/0 1")
    mid = play(game, state, "48,32,56")
    assert mid.activate == (32, 48) and mid.place == (56, 48, 32)
    assert game.to_move(mid) == 1 and game.pending(mid) == "switch"
    mid = play(game, mid, "S56")
    assert mid.played == (48, 56, 32)
    assert game.to_move(mid) == 0 and game.pending(mid) == "block"
    after = play(game, mid, "B1")
    # 56 goes after 40; 48 after 30 (row 4 now ends in 56); 32 after 20 (row 3 now ends in 48).
    # Row 1 is blocked, but no card needed it.
    assert rows_text(after) == ["10", "20.32", "30.48", "40.56"]


def test_a_row_falls_only_where_a_shield_went_at_its_end() -> None:
    """A Shield lower than every row goes at the end of any row, so the row falls there; any other card
    goes after the highest lower last card, so a row of ``12.5`` without a Shield (analysed before) is no
    position of play."""
    game, state = position("10/20/30/50 8.9/60.61 -/- 0/0 1")
    after = play(game, play(game, state, "8,60"), "P2")
    assert rows_text(after) == ["10", "20.8", "30", "50.60"]
    assert game.parse_state(game.format_state(after)) == after  # the fallen row is read back
    with pytest.raises(NotationError, match="row 1: card 5 follows 12: a card goes after a lower last card"):
        game.parse_state("12.5/20/25/33 6/45 -/- 0/0 1")

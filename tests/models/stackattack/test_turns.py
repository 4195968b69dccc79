"""One concrete turn per rule of the seed (sections 4-7) and per ruling on numbers-only play.

Default deck (docs/rules/stackattack.md): pink 1 for most cards, green 2 for multiples of 5, blue 3 for multiples of
10, purple 5 for multiples of 11, red 8 for 55; action cards 8/40 Shield, 16/48 Block, 24/56
Decreasing, 32/64 Switch. Tests that are about plain numbers avoid the action numbers.
"""

from __future__ import annotations

import pytest

from stratagem.core.errors import IllegalMove
from stratagem.core.game import SIMULTANEOUS
from stratagem.models.stackattack.notation import parse_move
from stratagem.models.stackattack.rules import designated_row

from .support import options_of, play, position, rows_text


def test_seed_placement_rule_example_50_goes_after_47() -> None:
    # Seed section 5: rows ending 12, 28, 47, 63; a 50 goes after the 47.
    game, state = position("12/28/47/63 50.51/30.31 -/- 0/0 1")
    assert designated_row(state.rows, 50) == 2
    after = play(game, state, "50,30")
    assert rows_text(after) == ["12", "28.30", "47.50", "63"]
    assert game.to_move(after) == SIMULTANEOUS
    assert after.hands == ((51,), (31,))


def test_seed_cards_resolve_lowest_first() -> None:
    # 44 goes after 40 first, then 45 after 44. Highest first would put 45 after 40 and 44 after 30.
    game, state = position("10/20/30/40 45.46/44.47 -/- 0/0 1")
    after = play(game, state, "45,44")
    assert rows_text(after) == ["10", "20", "30", "40.44.45"]


def test_seed_sixth_card_takes_the_five_and_starts_the_row() -> None:
    game, state = position("1.2.3.4.6/20/30/40 7.9/50.51 -/- 0/0 1")
    after = play(game, state, "7,50")
    assert rows_text(after) == ["7", "20", "30", "40.50"]
    assert after.taken == ((1, 2, 3, 4, 6), ())
    assert game.round_penalties(after) == (5, 0)  # five pink cards


def test_seed_each_card_fully_resolved_before_the_next_sixth_card_made_by_earlier_card() -> None:
    # 6 becomes the fifth card of row 1; then 7 would be the sixth, so player 2 takes the five.
    game, state = position("1.2.3.4/20/30/60 6.9/7.12 -/- 0/0 1")
    after = play(game, state, "6,7")
    assert rows_text(after) == ["7", "20", "30", "60"]
    assert after.taken == ((), (1, 2, 3, 4, 6))


def test_seed_card_lower_than_every_row_its_player_chooses_the_row_to_take() -> None:
    game, state = position("10/20.21/30/41 3.9/50.51 -/- 0/0 1")
    mid = play(game, state, "3,50")
    assert game.to_move(mid) == 0  # player 1 decides before the 50 is placed
    assert game.pending(mid) == "take"
    assert options_of(game, mid) == ["T1", "T2", "T3", "T4"]
    after = play(game, mid, "T2")
    assert rows_text(after) == ["10", "3", "30", "41.50"]
    assert after.taken == ((20, 21), ())
    assert game.round_penalties(after) == (4, 0)  # 20 blue 3 + 21 pink 1


def test_seed_every_player_reveals_one_card_from_own_hand() -> None:
    game, state = position("10/20/30/40 45.46/44.47 -/- 0/0 1")
    assert game.to_move(state) == SIMULTANEOUS
    assert game.player_moves(state, 0) == [45, 46]
    assert game.player_moves(state, 1) == [44, 47]
    with pytest.raises(IllegalMove):
        game.apply(state, (44, 45))
    with pytest.raises(IllegalMove):
        game.apply(state, (45,))
    assert len(game.legal_moves(state)) == 4  # every joint reveal


def test_ruling_numbers_only_option_turns_action_numbers_into_plain_cards() -> None:
    # actions = false: 16 is no Block and 32 no Switch; they are placed as plain numbers.
    game, state = position("10/20/30/40 16.2/32.3 -/- 0/0 1", actions=False)
    after = play(game, state, "16,32")
    assert game.to_move(after) == SIMULTANEOUS
    assert rows_text(after) == ["10.16", "20", "30.32", "40"]
    assert game.deck.actions == ()
    # With actions (default) the same reveal asks the Block's player for a row.
    game2, state2 = position("10/20/30/40 16.2/32.3 -/- 0/0 1")
    assert game2.pending(play(game2, state2, "16,32")) == "block"


def test_engine_decision_with_one_option_is_made_automatically() -> None:
    # Two rows are blocked in the position; a card lower than every open row has choices 1 and 2...
    game, state = position("10/20/30/40 6/51 -/- 0/0 1 >5/50 *- =5.50 #3.4")
    assert options_of(game, state) == ["T1", "T2"]
    # ... while with three rows blocked the only open row is taken without a decision node.
    game, state = position("10/20/30/40 6/51 -/- 0/0 1 >5/50 *- =5.50 #2.3.4")
    assert options_of(game, state) == ["T1"]
    after = play(game, state, "T1")
    # 5 takes row 1 and starts it; 50's row (40) is blocked and row 1 is the only open row, so
    # player 2 takes the 5 without being asked.
    assert after.taken == ((10,), (5,))
    assert game.to_move(after) == SIMULTANEOUS


def test_engine_illegal_decision_names_the_legal_ones() -> None:
    game, state = position("10/20/30/41 3.9/50.51 -/- 0/0 1")
    mid = play(game, state, "3,50")
    with pytest.raises(IllegalMove, match="legal: T1, T2, T3, T4"):
        game.apply(mid, parse_move("B1"))
    with pytest.raises(IllegalMove):
        game.parse_move(mid, "T9")

"""Rules audit (session 65): seed sentences of Stack Attack that no test decided on its own, each with a
turn where the sentence changes the result, on the rules engine and the compiled engine alike
(docs/rules/stackattack.md names each test)."""

from __future__ import annotations

import pytest

from stratagem.core.errors import NotationError
from stratagem.core.game import SIMULTANEOUS
from stratagem.models.stackattack import compiled_engine
from tests.packed_check import check_state

from .support import options_of, play, position, rows_text


def test_seed_a_row_taken_by_choice_is_resolved_before_the_next_card_is_placed() -> None:
    # "Each card is fully resolved before the next card is played." Player 1's 5 is lower than every row
    # and takes the row its player picks; the 7 is placed after that, so it follows the 5 in whichever
    # row the 5 now starts (placed at the same time, it too would be lower than every row).
    game, state = position("10/20/30/40 5.9/7.12 -/- 0/0 1")
    mid = play(game, state, "5,7")
    assert game.to_move(mid) == 0 and options_of(game, mid) == ["T1", "T2", "T3", "T4"]
    engine = compiled_engine(game)
    assert check_state(game, engine, mid) == 4
    after = play(game, mid, "T4")
    assert rows_text(after) == ["10", "20", "30", "5.7"] and after.taken == ((40,), ())
    after = play(game, mid, "T1")
    assert rows_text(after) == ["5.7", "20", "30", "40"] and after.taken == ((10,), ())
    assert game.to_move(after) == SIMULTANEOUS


def test_seed_a_shield_put_at_the_end_of_a_row_is_that_rows_last_card() -> None:
    # "Place the card on the row whose last card has the highest number that is still lower than the
    # played card." A Shield lower than every row goes at the end of a row of its player's choice; the 9
    # revealed with it then goes after the Shield (the row's last card), not after the 10.
    game, state = position("10/20/30/50 8.1/9.2 -/- 0/0 1")
    mid = play(game, state, "8,9")
    assert options_of(game, mid) == ["P1", "P2", "P3", "P4"]
    assert check_state(game, compiled_engine(game), mid) == 4
    after = play(game, mid, "P2")
    assert rows_text(after) == ["10", "20.8.9", "30", "50"] and after.taken == ((), ())


def test_seed_a_position_with_a_sixth_card_that_did_not_take_the_row_is_refused() -> None:
    # "If your card would become the 6th card in a row, take the 5 cards already in that row": played
    # on a row of five, the 11 takes it and starts the row, so a row 1.2.8.9.10.11 (the Shield 8 earlier
    # in the row does not shield the 11) is no position of play. A position file read it.
    game, state = position("1.2.8.9.10/20/30/41 11.12/50.51 -/- 0/0 1")
    after = play(game, state, "11,50")
    assert rows_text(after)[0] == "11" and after.taken == ((1, 2, 8, 9, 10), ())
    with pytest.raises(NotationError, match="card 6 is 11: only a Shield may go beyond 5"):
        game.parse_state("1.2.8.9.10.11/20/30/41 12/51 -/- 0/0 1")
    # Shields as 6th and 7th card are read: play puts them there.
    game, state = position("1.2.3.4.6/41/42/43 8.9/40.44 -/- 0/0 1")
    after = play(game, state, "8,40")
    assert rows_text(after)[0] == "1.2.3.4.6.8.40" and after.taken == ((), ())
    assert game.parse_state(game.format_state(after)) == after

"""The battlefield (battlefield.py): placement next to a card or on a stack, the table bound, squares,
normalisation and the battlefield notation."""

from __future__ import annotations

import pytest

from stratagem.core.errors import IllegalMove, NotationError
from stratagem.models.cardclash.battlefield import (
    format_board,
    make_board,
    parse_board,
    place,
    squares,
    targets,
)
from stratagem.models.cardclash.position import Move
from tests.models.cardclash.support import game_at


def test_seed_first_card_goes_in_the_middle() -> None:
    game, state = game_at("- 2,3 -,- 1")
    assert game.legal_moves(state) == [Move("2", 0, 0)]


def test_seed_card_goes_next_to_a_card_along_a_full_side() -> None:
    # A red Scout alone: a Sergeant may go on it or on any of its four sides, never diagonally.
    board = parse_board("r2")
    assert targets(board, "3", 6, 6, False) == [(0, -1), (-1, 0), (0, 0), (1, 0), (0, 1)]


def test_seed_no_diagonal_placement() -> None:
    game, state = game_at("r2 4,3 -,- 1")
    with pytest.raises(IllegalMove):
        game.apply(state, Move("4", 1, 1))
    with pytest.raises(IllegalMove):
        game.apply(state, Move("4", -1, -1))


def test_seed_card_may_not_float_away_from_the_battlefield() -> None:
    game, state = game_at("r2 4,3 -,- 1")
    with pytest.raises(IllegalMove):
        game.apply(state, Move("4", 2, 0))


def test_seed_may_stack_on_own_cards() -> None:
    game, state = game_at("r2 4,3 -,- 1")
    after = game.apply(state, Move("4", 0, 0))
    assert format_board(after.board) == "r4r2"


def test_seed_may_stack_on_other_colours() -> None:
    game, state = game_at("b2 4,3 -,- 1")
    assert format_board(game.apply(state, Move("4", 0, 0)).board) == "r4b2"


def test_ruling_table_bound_limits_the_bounding_box() -> None:
    # A 2x2 table with two cards side by side: the row may not grow to three, but a row may be added.
    board = parse_board("r2,b2")
    cells = targets(board, "B", 2, 2, False)
    assert (-1, 0) not in cells and (2, 0) not in cells
    assert (0, -1) in cells and (1, 1) in cells


def test_ruling_table_bound_is_an_option() -> None:
    game, state = game_at("r2,b3,r4 5,5 -,- 1", width=3, height=6)
    assert Move("5", 3, 0) not in game.legal_moves(state)
    game, state = game_at("r2,b3,r4 5,5 -,- 1", width=4, height=6)
    assert Move("5", 3, 0) in game.legal_moves(state)


def test_ruling_table_bound_has_width_and_height() -> None:
    # A 3 wide, 2 high table: a third row is refused even though the box would be 3x3.
    game, state = game_at("r2,b3,r4/b2,.,. 5,5 -,- 1", width=3, height=2)
    assert all(m.y in (0, 1) for m in game.legal_moves(state))


def test_seed_square_is_two_by_two_of_one_colour() -> None:
    assert squares(parse_board("r2,r3/r4,r5")) == {"r": [(0, 0)]}
    assert squares(parse_board("r2,r3/r4,b5")) == {}


def test_seed_covered_cards_do_not_make_a_square() -> None:
    # The bottom-right red Sergeant is covered by a blue Marshal.
    assert squares(parse_board("r2,r3/r4,b6r3")) == {}
    assert squares(parse_board("r2,r3/r4,r6b3")) == {"r": [(0, 0)]}


def test_seed_diagonal_or_straight_lines_are_not_squares() -> None:
    assert squares(parse_board("r2,r3,r4,r5")) == {}
    assert squares(parse_board("r2,b3/b4,r5")) == {}


def test_engine_battlefield_is_normalised_to_its_bounding_box() -> None:
    board, _ = place(parse_board("r2"), -1, 0, "b3", False)
    assert format_board(board) == "b3,r2"
    assert make_board({(5, 7): ("r2",), (6, 7): ("b2",)}) == parse_board("r2,b2")


@pytest.mark.parametrize("text", ["-", "r2", "r2,b3/.,gBp6y2", ".,r6/bX,.", "r1r6,.,./.,.,b2"])
def test_engine_battlefield_notation_round_trips(text: str) -> None:
    assert format_board(parse_board(text)) == text


@pytest.mark.parametrize("text", ["r2,.", "./r2", "r2,b3/r4", "q2", "r7", "r", "", "r2,,b3"])
def test_engine_malformed_battlefield_raises(text: str) -> None:
    with pytest.raises(NotationError):
        parse_board(text)

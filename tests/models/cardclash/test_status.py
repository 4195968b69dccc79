"""A position's winners (``won=``) are never trusted: the table decides who has won the round.

Issue 16's forgery: a proof tree whose start carries ``won=1`` was certified with no square on the
table. Every case is on the 4x4 table of ``puzzles/cardclash/square-in-1.toml``, whose red move
``r1@2,0`` completes a square of red top cards.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from stratagem.core.errors import BadInput, NotationError
from stratagem.models.cardclash.puzzle import load_position
from stratagem.models.cardclash.rules import CardClashGame, result_problem, round_winners

GAME = CardClashGame(2, width=4, height=4)
#: Red to move, no square yet.
OPEN = "b5,rBb3,./b1,r2,r4 14,26 B,3 1"
#: After red's r1@2,0: red shows a square, blue is to move.
SQUARE = "b5,rBb3,r1/b1,r2,r4 4B,26 -,3 2"
#: Every card played: red's Marshal and blue's General are visible, red scores more (one card each,
#: 6 against 5 in the first tie-break).
SPENT = "r6,b5 -,- -,- 1"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (OPEN + " won=1", "the position says won=1 but no colour shows a 2x2 square and cards are left to play"),
        (OPEN + " won=2", "says won=2 but no colour shows a 2x2 square"),
        (SQUARE + " won=2", "says won=2 but red shows a 2x2 square: won=1"),
        (SPENT + " won=2", "says won=2 but every card is played, so the round is scored: won=1"),
        (SQUARE + " passes=1 won=1", "a square ends the round at once"),
    ],
)
def test_ruling_written_winners_the_table_does_not_make_are_refused(text: str, message: str) -> None:
    with pytest.raises(NotationError, match=message):
        GAME.parse_state(text)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (SQUARE, "names no winner but red shows a 2x2 square: won=1"),
        (SPENT, "names no winner but every card is played, so the round is scored: won=1"),
        ("r6,b5 1,2 -,- 1 passes=2", "every player has passed, so the round is scored: won=1"),
    ],
)
def test_ruling_winners_the_table_makes_must_be_written(text: str, message: str) -> None:
    with pytest.raises(NotationError, match=message):
        GAME.parse_state(text)


def test_ruling_winners_the_table_makes_read_and_round_trip() -> None:
    for text in (SQUARE + " won=1", SPENT + " won=1", OPEN):
        state = GAME.parse_state(text)
        assert GAME.format_state(state) == text
        assert state.winners == round_winners(state) and result_problem(state) is None


def test_engine_a_move_that_wins_gives_the_winners_the_table_shows() -> None:
    state = GAME.parse_state(OPEN)
    after = GAME.apply(state, GAME.parse_move(state, "r1@2,0"))
    assert after.winners == (0,) == round_winners(after)
    assert GAME.format_state(after) == SQUARE + " won=1"


def test_engine_a_position_file_with_forged_winners_is_bad_input(tmp_path: Path) -> None:
    path = tmp_path / "forged.toml"
    path.write_text(f'game = "cardclash"\n[options]\nwidth = 4\nheight = 4\n[position]\nstate = "{OPEN} won=1"\n')
    with pytest.raises(BadInput, match="says won=1 but no colour shows a 2x2 square"):
        load_position(path)

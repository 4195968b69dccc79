"""Who is out (``out:``) is never trusted: it decides who places last, and so who wins.

A player goes out when their turn finds no legal play for the hand they still hold, after their own
last piece (seed "If you cannot make a play you are out"); a player to move who is not out has a play.
Positions on the solo lattice of tests/models/stakd/support.py, two players.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from stratagem.core.errors import BadInput, IllegalMove, NotationError
from stratagem.models.stakd.notation import parse_move
from stratagem.models.stakd.puzzle import load_position

from .support import position

GAME, _ = position("1B@3,1h;2B@0,0h D2,X1 1 out:2")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        # Player 2's Duo could start layer 1 since their Base went down: never without a play.
        ("1B@3,1h;2B@0,0h D2,D1 1 out:2", "says player 2 is out, but their hand has had a legal play at every "
                                          "moment since their last piece"),
        # Everyone out would end play with player 2 as the last placer.
        ("1B@3,1h;2B@0,0h D2,D1 1 out:1,2", "says player 1 is out"),
        # Player 2 holds only a Bomber, which never starts a layer: the turn passes them by.
        ("1B@3,1h;2B@0,0h D2,X1 2", "player 2 is to move but has no legal play"),
    ],
)
def test_seed_out_is_what_the_rules_make_of_the_table_and_hands(text: str, message: str) -> None:
    with pytest.raises(NotationError, match=message):
        GAME.parse_state(text)


def test_seed_a_player_out_for_want_of_a_play_reads_and_round_trips() -> None:
    text = "1B@3,1h;2B@0,0h D2,X1 1 out:2"
    state = GAME.parse_state(text)
    assert state.out == (False, True) and GAME.format_state(state) == text


def test_engine_an_illegal_first_piece_on_an_empty_table_is_an_illegal_move() -> None:
    # Issue 16: why_illegal indexed the occupancy of a layer that does not exist yet.
    game, state = position("- B2Q4T6D10U16X1 1")
    with pytest.raises(IllegalMove, match="U@5,1: the first piece of the game is a Base"):
        game.apply(state, parse_move("U@5,1"))
    assert game.why_illegal(state, parse_move("D@0,0h")) == "D@0,0h: the first piece of the game is a Base"


def test_engine_a_position_file_with_a_forged_out_is_bad_input(tmp_path: Path) -> None:
    path = tmp_path / "forged.toml"
    path.write_text('game = "stakd"\n[options]\nwidth = 11\nheight = 3\n'
                    '[position]\nstate = "1B@3,1h;2B@0,0h D2,D1 1 out:2"\n')
    with pytest.raises(BadInput, match="says player 2 is out"):
        load_position(path)

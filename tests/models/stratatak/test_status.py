"""A Stratatak position's result is never trusted: ``W`` needs the table to show the win, and the
battle-limit count ``bN`` (whose ``b0`` with turn ``X`` is an undecided game, a draw) exists only under
the ``battle_limit`` option, counting down from it."""

from __future__ import annotations

import pytest

from stratagem.core.errors import NotationError
from stratagem.models.stratatak.cards import Options
from stratagem.models.stratatak.position import STOPPED
from stratagem.models.stratatak.rules import StratatakGame

UNLIMITED = StratatakGame()
LIMITED = StratatakGame(Options(battle_limit=6))
STOPPED_TEXT = "B7,G2G3G4G5G6G7 G8 B8B9R1G1 - X2 b0"


def test_ruling_an_undecided_stop_without_the_battle_limit_option_is_refused() -> None:
    with pytest.raises(NotationError, match="b0: battles are counted only under the battle_limit option"):
        UNLIMITED.parse_state(STOPPED_TEXT)


def test_ruling_a_count_above_the_battle_limit_is_refused() -> None:
    with pytest.raises(NotationError, match="b7: more battles left than the battle limit 6"):
        LIMITED.parse_state("B7B8,G1G2G3G4G5G6G7 G8 B9R1 - A2 b7")


def test_ruling_an_undecided_stop_under_the_battle_limit_reads_and_round_trips() -> None:
    state = LIMITED.parse_state(STOPPED_TEXT)
    assert state.phase == STOPPED and LIMITED.returns(state) == (0, 0)
    assert LIMITED.format_state(state) == STOPPED_TEXT


def test_seed_a_written_win_needs_the_winner_with_an_empty_hand() -> None:
    # Seed "Winning the Game": a player wins on emptying their hand in a battle they win.
    with pytest.raises(NotationError, match="a won game needs its winner"):
        UNLIMITED.parse_state("B7,G2G3 G8 B8B9R1G1 - W1")
    state = UNLIMITED.parse_state("-,G2G3 G8 B8B9R1G1 - W1")
    assert UNLIMITED.returns(state) == (1, -1)

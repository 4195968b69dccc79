"""Stack Attack positions carry no result flag: the end is derived from the hands and the totals. The
carried scores that decide it are checked: a score that already reached the end score means the game
ended before this round could be dealt."""

from __future__ import annotations

import pytest

from stratagem.core.errors import NotationError
from stratagem.models.stackattack.cards import END_SCORE
from stratagem.models.stackattack.rules import StackAttackGame

GAME = StackAttackGame(2)
ROUND_2 = "3.7.9.12/20.22.23/33.35.38/44.45.47.50 16.32.52/14.40.51 1.2.5/6.10 {}/0 2"


def test_seed_a_carried_score_at_the_end_score_is_refused() -> None:
    with pytest.raises(NotationError, match=f"player 1 carries {END_SCORE} points: the game ended"):
        GAME.parse_state(ROUND_2.format(END_SCORE))
    state = GAME.parse_state(ROUND_2.format(END_SCORE - 1))
    assert state.scores == (END_SCORE - 1, 0) and not GAME.is_terminal(state)

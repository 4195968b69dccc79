"""The hidden-pile notation takes ASCII digits only (QA 56): '²' is a digit to str.isdigit() but not to
int(), so a value-table row, a policy record or ``odds --position`` with '²' for the player to move, and
an announcement '!²L', crashed with an internal error instead of a notation error."""

from __future__ import annotations

import pytest

from stratagem.core.errors import NotationError
from stratagem.models.strato.hidden.game import parse_hidden, parse_play


@pytest.mark.parametrize("text", ["RRWR(RW)WWRW RRR {WRR} ² - play", "RRWR(RW)WWRW RRR {WRR} ١ - play"])
def test_a_player_to_move_in_other_digits_is_a_notation_error(text: str) -> None:
    with pytest.raises(NotationError, match="player to move|printable ASCII"):
        parse_hidden(text)


def test_an_announcement_in_other_digits_is_a_notation_error() -> None:
    with pytest.raises(NotationError):
        parse_play("!²L")
    assert parse_play("!1L") is not None


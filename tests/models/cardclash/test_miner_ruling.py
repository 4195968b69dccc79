"""The ruling of 2026-12-01 (docs/rules/cardclash.md): in the ``strategic`` variant "same value" means
every value, the Miner's X included. A Miner may go on a visible Miner (one laid first on an empty
table) and both are removed; "closes the stack" is the base game's Miner on a Bomb, which the variant
replaces. In the base game nothing goes on a Miner."""

from __future__ import annotations

import pytest

from stratagem.core.errors import IllegalMove
from stratagem.models.cardclash.cards import stacking
from stratagem.models.cardclash.rules import CardClashGame

#: Red's Miner, laid first on the empty table; blue (to move) holds a Miner and a Scout.
MINER_FIRST = "rX 2,2X -,- 2"


def test_ruling_variant_a_miner_on_a_visible_miner_removes_both() -> None:
    assert stacking("X", "X", True) == "cancel"
    game = CardClashGame(2, strategic=True)
    state = game.parse_state(MINER_FIRST)
    move = game.parse_move(state, "bX@0,0")
    assert move in game.legal_moves(state)
    after = game.apply(state, move)
    assert after.board == () and after.removed == "rXbX"
    assert game.format_state(after) == "- 2,2 -,- 1 out=rXbX"


def test_ruling_variant_only_a_miner_goes_on_a_miner() -> None:
    assert [upper for upper in "123456B" if stacking(upper, "X", True)] == []


def test_ruling_base_game_nothing_goes_on_a_miner() -> None:
    assert stacking("X", "X", False) is None
    game = CardClashGame(2)
    state = game.parse_state(MINER_FIRST)
    assert all((m.x, m.y) != (0, 0) for m in game.legal_moves(state))
    with pytest.raises(IllegalMove, match="may not be laid at 0,0"):
        game.apply(state, game.parse_move(state, "bX@0,0"))

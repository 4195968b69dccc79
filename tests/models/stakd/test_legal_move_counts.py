"""Legal-move-count regression over fixed positions, and perft-style counts of move sequences, as in
python-chess's perft tests. The small counts are derived in comments; the perft numbers are regression
values recorded from the engine after its move generator was cross-checked against the rule-by-rule
checker (test_playouts.py)."""

from __future__ import annotations

import pytest

from stratagem.models.stakd.position import State
from stratagem.models.stakd.rules import StakdGame

from .support import TWO_BASES, position


def perft(game: StakdGame, state: State, depth: int) -> int:
    if depth == 0 or game.is_terminal(state):
        return 1
    return sum(perft(game, game.apply(state, m), depth - 1) for m in game.legal_moves(state))


@pytest.mark.parametrize(
    ("text", "width", "height", "count"),
    [
        ("- B2Q4T6D10U16X1 1", 11, 3, 1),  # only the canonical first Base
        # Second Base: rows 0 and 2, anchors x = 0..6 (overlap >= 2 with x 3..7) -> 14.
        ("1B@3,1h B1Q4T6D10U16X1 1", 11, 3, 14),
        # Stacking starts: Quads on Base A at x 0, 1 (h); on B at x 3, 4 -> 4; Trios 3 + 3 -> 6;
        # Duos 4 + 4 on one Base each + D@3,0v, D@4,0v across -> 10; Unis may not start a layer. 20 in all.
        (TWO_BASES + " Q4T6D10U16X1 1", 11, 3, 20),
        ("1B@9,3h;2B@8,4h;1B@11,2h;2B@6,2h Q2T4D8U12X2,Q2T4D8U12X2 1", 23, 7, 55),
        # Base A is terminated; on Base B only x 5..7 are free and only T@5,1h, U@5,1 touch the Duo (a
        # second Duo on B and a second Bomber on the layer are barred).
        ("1B@3,1h;1B@0,0h/1T@0,0h;1X@3,0;1D@3,1h T2D3U5X1 1", 11, 3, 2),
    ],
)
def test_engine_legal_move_counts(text: str, width: int, height: int, count: int) -> None:
    game, state = position(text, width, height)
    assert len(game.legal_moves(state)) == count


def test_engine_perft_from_the_solo_start() -> None:
    game = StakdGame(1)
    state = game.initial_state()
    assert [perft(game, state, d) for d in range(4)] == [1, 1, 14, 298]


def test_engine_perft_from_the_two_player_start() -> None:
    game = StakdGame(2)
    state = game.initial_state()
    assert [perft(game, state, d) for d in range(4)] == [1, 1, 14, 220]

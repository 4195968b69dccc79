"""Rules audit (session 56): seed sentences of STAKD Elite checked where no other test exercised the
sentence itself (docs/rules/stakd.md names each test)."""

from __future__ import annotations

import random

from stratagem.models.stakd.notation import format_move
from stratagem.models.stakd.pieces import BOX, KINDS, PIECE_SETS
from stratagem.models.stakd.rules import StakdGame

from .support import position


def test_seed_game_contents_are_104_pieces() -> None:
    # "Game contents: 104 pieces": Base x8, Uni x32, Duo x24, Trio x16, Quad x8, Bomber x16.
    assert BOX == {"B": 8, "U": 32, "D": 24, "T": 16, "Q": 8, "X": 16}
    assert sum(BOX.values()) == 104
    # Every player count's sets come out of one box (the 5-6 row partly assumed, by ruling).
    for players, pieces in PIECE_SETS.items():
        assert all(pieces[kind] * players <= BOX[kind] for kind in KINDS), players


def test_seed_you_can_never_draw_new_pieces_and_cannot_pass() -> None:
    # "You can never draw new pieces and you cannot pass your turn": along random two- and three-player
    # rounds every move is a placement of a piece the mover holds, every hand only shrinks, and a
    # player whose turn comes with no placement is out (the turn never stays with a player without one).
    for players, seed in ((2, 1), (3, 2)):
        game = StakdGame(players)
        state = game.initial_state()
        rng = random.Random(seed)
        while not game.is_terminal(state):
            p = game.to_move(state)
            moves = game.legal_moves(state)
            assert moves, "the player to move always has a placement"
            move = rng.choice(moves)
            after = game.apply(state, move)
            for q in range(players):
                shrink = [a - b for a, b in zip(state.hands[q], after.hands[q], strict=True)]
                assert all(d >= 0 for d in shrink)
                assert sum(shrink) == (1 if q == p else 0)
            state = after
        assert all(state.out)


def test_engine_order_moves_sorts_by_kind_then_new_layer_first() -> None:
    # docs: Bombers first, then Bases, then bigger pieces before smaller; within a kind, moves that
    # start a new layer before moves on the current one (the kind decides first).
    bases = "1B@9,3h;1B@9,2h;1B@9,4h;1B@9,1h"
    layer_1 = "1D@9,1h;1D@9,2h;1D@9,3h;1D@9,4h;1U@11,1;1U@11,2"  # six pieces: a new layer may start
    game, state = position(f"{bases}/{layer_1} D1T1X1 1", 23, 7)
    ordered = list(game.order_moves(state, game.legal_moves(state)))
    assert sorted(ordered) == sorted(game.legal_moves(state))
    kinds_layers = [(m.kind, m.layer) for m in ordered]
    runs = [key for i, key in enumerate(kinds_layers) if i == 0 or kinds_layers[i - 1] != key]
    assert runs == [("X", 1), ("T", 2), ("T", 1), ("D", 2)]
    assert format_move(ordered[0]) == "X@12,1"

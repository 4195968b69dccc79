"""Seeded random and greedy playouts: cards are conserved, every state is consistent, rounds end."""

from __future__ import annotations

import random

import pytest

from stratagem.models.cardclash.agents import greedy_move
from stratagem.models.cardclash.battlefield import board_problem, size, squares
from stratagem.models.cardclash.cards import COLOURS
from stratagem.models.cardclash.rules import CardClashGame, cards_of, full_army


@pytest.mark.parametrize("players", range(2, 7))
@pytest.mark.parametrize("strategic", [False, True])
def test_engine_random_playouts_conserve_cards(players: int, strategic: bool) -> None:
    for seed in range(4):
        game = CardClashGame(players, strategic=strategic, seed=seed)
        rng = random.Random(seed)
        state = game.initial_state()
        plies = 0
        while not game.is_terminal(state):
            moves = game.legal_moves(state)
            state = game.apply(state, rng.choice(moves))
            plies += 1
            assert cards_of(state) == full_army(players)
            w, h = size(state.board)
            assert w <= game.width and h <= game.height
            assert all(len(hand) <= 4 for hand in state.hands)
            assert board_problem(state.board, strategic) is None  # a position file's check never refuses play
            assert game.position_problem(state) is None
        assert plies <= players * 17 * 2  # every placement uses a card; passes come in short runs
        shown = squares(state.board)
        if shown:
            assert all(COLOURS[w] in shown for w in state.winners)


@pytest.mark.parametrize("strategic", [False, True])
def test_engine_greedy_playouts_conserve_cards(strategic: bool) -> None:
    for seed in range(3):
        game = CardClashGame(3, strategic=strategic, seed=seed, width=5, height=5)
        rng = random.Random(seed)
        state = game.initial_state()
        while not game.is_terminal(state):
            state = game.apply(state, greedy_move(game, state, rng))
            assert cards_of(state) == full_army(3)


def test_engine_small_table_rounds_end_by_scoring_or_passing() -> None:
    # On a 2x2 table most cards cannot be placed: rounds end when every player passes in a row.
    for seed in range(5):
        game = CardClashGame(2, width=2, height=2, seed=seed)
        rng = random.Random(seed)
        state = game.initial_state()
        while not game.is_terminal(state):
            state = game.apply(state, rng.choice(game.legal_moves(state)))
        assert state.winners and sum(game.returns(state)) == 0.0


@pytest.mark.parametrize(("board", "strategic", "fragment"), [
    ("r2,./.,b3", False, "the card at 1,1 is not joined to 0,0 by full sides"),
    ("r2b6", False, "has r2 on b6"),
    ("rXb6", True, "has rX on b6"),
    ("rXbB", True, "has rX on bB"),  # in the variant a Miner on a Bomb removes both
    ("r6r6", True, "2 x r6 \\(an army has 1\\)"),  # an army holds one r6: checked before the stack
    ("r5bX", False, "has r5 on bX"),  # nothing goes on a Miner
])
def test_a_battlefield_no_play_leaves_is_refused(board: str, strategic: bool, fragment: str) -> None:
    """A position file's corner-touching cards, a 2 on a 6 or a Miner on a 6 were analysed, and their proofs
    certified: the stacking rules and "never detached" hold for composed positions too."""
    from stratagem.core.errors import NotationError

    game = CardClashGame(2, strategic=strategic)
    text = f"{board} 4,1 -,- 1"
    with pytest.raises(NotationError, match=fragment):
        game.parse_state(text)


@pytest.mark.parametrize(("board", "strategic"), [("r2,./.,b3", True), ("rXbB,b3", False), ("r1b6r5", False)])
def test_a_battlefield_play_can_leave_is_read(board: str, strategic: bool) -> None:
    """Cards apart after the variant's removals stay (seed); a Miner closes a Bomb's stack; a Spy on a Marshal."""
    game = CardClashGame(2, strategic=strategic)
    assert game.position_problem(game.parse_state(f"{board} 4,1 -,- 1")) is None

"""The fast move generation of Card Clash (targets of every rank read from one pass over the
battlefield; a card placed by changing one cell) against naive definitions straight from the rules,
on every battlefield met in seeded random rounds."""

from __future__ import annotations

from random import Random

import pytest

from stratagem.models.cardclash.battlefield import (
    NEIGHBOURS,
    Board,
    Coord,
    fits,
    make_board,
    place,
    stacks,
    targets,
    targets_by_rank,
)
from stratagem.models.cardclash.cards import COLOURS, RANKS, stacking
from stratagem.models.cardclash.rules import CardClashGame


def naive_targets(board: Board, rank: str, width: int, height: int, strategic: bool) -> list[Coord]:
    """Every cell around and on the battlefield, kept when the rules allow the card there."""
    if not board:
        return [(0, 0)]
    grid = stacks(board)
    found = []
    for y in range(-1, height + 1):
        for x in range(-1, width + 1):
            if (x, y) in grid:
                ok = stacking(rank, grid[(x, y)][0][1], strategic) is not None
            else:
                ok = (any((x + dx, y + dy) in grid for dx, dy in NEIGHBOURS)
                      and fits([*grid, (x, y)], width, height))
            if ok:
                found.append((x, y))
    return found


def naive_place(board: Board, x: int, y: int, card: str, strategic: bool) -> tuple[Board, tuple[str, ...]]:
    """The whole battlefield rebuilt and normalised after the card goes down."""
    grid = stacks(board)
    below = grid.get((x, y), ())
    if not below:
        grid[(x, y)] = (card,)
        return make_board(grid), ()
    effect = stacking(card[1], below[0][1], strategic)
    if effect is None:
        raise ValueError("not allowed")
    if effect == "cancel":
        grid[(x, y)] = below[1:]
        return make_board(grid), (card, below[0])
    grid[(x, y)] = (card, *below)
    return make_board(grid), ()


def boards(strategic: bool, players: int, seeds: range) -> list[Board]:
    met = []
    for seed in seeds:
        game = CardClashGame(players, seed=seed, strategic=strategic)
        rng = Random(seed)
        state = game.initial_state()
        while not game.is_terminal(state):
            met.append(state.board)
            moves = game.legal_moves(state)
            state = game.apply(state, moves[rng.randrange(len(moves))])
    return met


@pytest.mark.parametrize(("strategic", "players"), [(False, 2), (True, 2), (True, 3)])
def test_targets_and_place_equal_their_naive_definitions(strategic: bool, players: int) -> None:
    checked = 0
    for board in boards(strategic, players, range(3)):
        for width, height in ((6, 6), (4, 4), (5, 7)):
            if not fits(stacks(board), width, height):
                continue  # a table smaller than the battlefield: no round reaches it
            by_rank = targets_by_rank(board, RANKS, width, height, strategic)
            for rank, found in zip(RANKS, by_rank, strict=True):
                assert found == naive_targets(board, rank, width, height, strategic)
                assert targets(board, rank, width, height, strategic) == found
        for rank in RANKS:
            for x, y in naive_targets(board, rank, 6, 6, strategic):
                card = COLOURS[players - 1] + rank
                assert place(board, x, y, card, strategic) == naive_place(board, x, y, card, strategic)
                checked += 1
    assert checked > 300

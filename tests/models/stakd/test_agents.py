"""The STAKD greedy baseline: legal, deterministic for a seed, and playing its biggest kind first.

Its strength against random is a bench figure (results/stakd.md, ``stratagem bench stakd``), not a
test assertion."""

from __future__ import annotations

from random import Random

from stratagem.models.stakd.agents import greedy_move, mobility_margin
from stratagem.models.stakd.pieces import KIND_INDEX
from stratagem.models.stakd.rules import StakdGame


def _playout(game: StakdGame, seed: int) -> list[str]:
    """Greedy for every seat from the start, each move checked legal; the moves in notation."""
    rng = Random(seed)
    state = game.initial_state()
    played = []
    while not game.is_terminal(state):
        move = greedy_move(game, state, rng)
        assert move in game.legal_moves(state)
        played.append(game.format_move(state, move))
        state = game.apply(state, move)
    return played


def test_engine_greedy_plays_legal_moves_to_the_end_and_is_deterministic_for_a_seed() -> None:
    game = StakdGame(2)
    first = _playout(game, 7)
    assert first == _playout(StakdGame(2), 7) and len(first) > 20


def test_engine_greedy_plays_its_biggest_kind_first() -> None:
    game = StakdGame(2)
    state = game.initial_state()
    rng = Random(0)
    for _ in range(12):
        moves = game.legal_moves(state)
        move = greedy_move(game, state, rng)
        assert KIND_INDEX[move.kind] == min(KIND_INDEX[m.kind] for m in moves)
        state = game.apply(state, move)


def test_engine_greedy_keeps_the_best_mobility_margin_among_its_biggest_kind() -> None:
    game = StakdGame(2)
    state = game.initial_state()
    rng = Random(3)
    checked = 0
    while not game.is_terminal(state):  # a seeded random playout; greedy is asked at every position
        moves = game.legal_moves(state)
        biggest = min(KIND_INDEX[m.kind] for m in moves)
        after = {m: game.apply(state, m) for m in moves if KIND_INDEX[m.kind] == biggest}
        if not any(game.is_terminal(a) for a in after.values()):
            margins = {m: mobility_margin(game, a, state.to_move) for m, a in after.items()}
            if len(set(margins.values())) > 1:  # the choice matters here
                assert margins[greedy_move(game, state, Random(0))] == max(margins.values())
                checked += 1
        state = game.apply(state, moves[rng.randrange(len(moves))])
    assert checked > 0

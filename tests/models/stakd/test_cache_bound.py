"""STAKD's move-generation caches stay bounded however long an engine lives (one 40-game MCTS match
once grew them to about 3.8 GB: ``place`` filled the structure cache past the bound ``support`` kept)."""

from __future__ import annotations

from random import Random

import pytest

from stratagem.models.stakd import rules
from stratagem.models.stakd.rules import StakdGame
from stratagem.solvers.mcts import uct


def test_caches_never_pass_their_limit_and_moves_are_unchanged(monkeypatch: pytest.MonkeyPatch) -> None:
    reference = StakdGame(2)
    monkeypatch.setattr(rules, "CACHE_LIMIT", 40)
    bounded = StakdGame(2)
    rng = Random(5)
    structures = set()
    for _ in range(3):  # three random games on one engine
        state, same = bounded.initial_state(), reference.initial_state()
        while not bounded.is_terminal(state):
            moves = bounded.legal_moves(state)
            assert moves == reference.legal_moves(same)
            move = moves[rng.randrange(len(moves))]
            state, same = bounded.apply(state, move), reference.apply(same, move)
            structures.add(state.layers)
            assert len(bounded._support) <= 40 and len(bounded._moves) <= 40
        assert state == same
    assert len(structures) > 40  # the games met more structures than the bounded engine may keep


def test_a_search_on_a_bounded_engine_finds_what_it_finds_unbounded(monkeypatch: pytest.MonkeyPatch) -> None:
    free = uct(StakdGame(2), StakdGame(2).initial_state(), iterations=60, seed=2)
    monkeypatch.setattr(rules, "CACHE_LIMIT", 25)
    game = StakdGame(2)
    bounded = uct(game, game.initial_state(), iterations=60, seed=2)
    assert bounded.best_move == free.best_move and bounded.moves == free.moves
    assert len(game._support) <= 25 and len(game._moves) <= 25

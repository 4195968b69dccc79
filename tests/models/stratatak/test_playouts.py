"""Invariants over seeded random playouts (seed "After Each Battle", FAQ on drawing; docs/rules/stratatak.md):
cards are conserved, hands refill to the hand size when the loser draws, every state passes the
position checks and round-trips, and a game that ends has a winner with an empty hand."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from stratagem.core.game import CHANCE
from stratagem.models.stratatak.agents import greedy_move
from stratagem.models.stratatak.cards import ADDON, WILDCARD, Options
from stratagem.models.stratatak.position import ATTACK, DEFEND, DRAW, OVER, format_state, parse_state
from stratagem.models.stratatak.rules import StratatakGame, check_position, deal


@pytest.mark.parametrize("star_mode", [WILDCARD, ADDON])
@pytest.mark.parametrize("hand_size", [7, 3])
@pytest.mark.parametrize("seed", range(4))
def test_engine_random_playouts_keep_the_invariants(seed: int, hand_size: int, star_mode: str) -> None:
    game = StratatakGame(Options(star_mode=star_mode, hand_size=hand_size))
    rng = random.Random(seed)
    # Even seeds: a seeded deal with the pile in a known order; odd: a fresh game dealt by chance.
    state = deal(game.options, rng) if seed % 2 == 0 else game.initial_state()
    cards = Counter(state.all_cards())
    for _ in range(500):
        assert Counter(state.all_cards()) == cards
        assert check_position(state, game.options) is None, format_state(state)
        assert parse_state(format_state(state)) == state
        assert hash(state) == hash(parse_state(format_state(state)))
        if game.is_terminal(state):
            assert state.phase == OVER and not state.hands[state.winner]
            break
        mover = game.to_move(state)
        if mover == CHANCE:
            outcomes = game.chance_outcomes(state)
            assert sum(p for _, p in outcomes) == 1 and all(p > 0 for _, p in outcomes)
            state = game.apply(state, rng.choice(outcomes)[0])
            continue
        moves = game.legal_moves(state)
        assert moves and len(set(moves)) == len(moves)
        move = greedy_move(game, state, rng) if rng.random() < 0.5 else rng.choice(list(moves))
        before = state
        state = game.apply(state, move)
        if before.phase == DEFEND and state.phase == ATTACK:
            loser = state.attacker
            # The loser drew up to the hand size unless the pile and the discards ran out.
            if len(state.hands[loser]) < hand_size:
                assert not state.pile and not state.shuffled and not state.discard
            # The winner did not draw: its hand is what it held minus what it played.
            winner = 1 - loser
            expected = Counter(before.hands[winner]) - (Counter(move) if winner == before.defender else Counter())
            assert Counter(state.hands[winner]) == expected
        if state.phase == DRAW:
            assert not state.pile and len(state.shuffled) > hand_size - len(state.hands[state.attacker]) > 0


def test_engine_greedy_games_end() -> None:
    game = StratatakGame()
    ended = 0
    for seed in range(5):
        rng = random.Random(seed)
        state = deal(game.options, rng)
        for _ in range(2000):
            if game.is_terminal(state):
                ended += 1
                break
            state = game.apply(state, greedy_move(game, state, rng))
    assert ended == 5

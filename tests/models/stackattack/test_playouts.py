"""Seeded random playouts: cards and penalties are conserved, notation round-trips on every state,
hidden-information sampling keeps the observation."""

from __future__ import annotations

from random import Random

import pytest

from stratagem.core.game import CHANCE, SIMULTANEOUS, Evaluation, HiddenInformation, Simultaneous
from stratagem.models.stackattack.agents import random_move
from stratagem.models.stackattack.cards import HAND_SIZE, ROWS
from stratagem.models.stackattack.notation import format_move, parse_move
from stratagem.models.stackattack.position import State
from stratagem.models.stackattack.rules import Options, StackAttackGame


def _cards_in_play(state: State) -> list[int]:
    return [c for group in (*state.rows, *state.hands, *state.taken, state.place) for c in group]


def _playout(game: StackAttackGame, seed: int) -> int:
    rng = Random(seed)
    state = game.initial_state()
    steps = 0
    while not game.is_terminal(state):
        before_totals = game.totals(state)
        before_taken = [set(t) for t in state.taken]
        move = random_move(game, state, rng)
        assert game.parse_move(state, game.format_move(state, move)) == move
        new_round = game.round_over(state)
        state = game.apply(state, move)
        assert game.parse_state(game.format_state(state)) == state
        cards = _cards_in_play(state)
        assert len(cards) == len(set(cards)), "a card is in two places"
        if not state.dealing:
            assert len(cards) == game.num_players * HAND_SIZE + ROWS, "a dealt card went missing"
        if new_round:
            assert state.scores == before_totals  # the round's penalties are carried over exactly
        else:
            gained = [game.deck.total(set(t) - b) for t, b in zip(state.taken, before_taken, strict=True)]
            assert all(set(t) >= b for t, b in zip(state.taken, before_taken, strict=True))
            assert [a - b for a, b in zip(game.totals(state), before_totals, strict=True)] == gained
        steps += 1
    return steps


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_engine_random_full_games_conserve_cards_and_penalties(players: int) -> None:
    game = StackAttackGame(players)
    assert _playout(game, players) > 0
    assert isinstance(game, Simultaneous) and isinstance(game, HiddenInformation) and isinstance(game, Evaluation)


@pytest.mark.parametrize("seed", range(3))
def test_engine_random_numbers_only_games_conserve_cards_and_penalties(seed: int) -> None:
    assert _playout(StackAttackGame(4, Options(actions=False)), seed) > 0


def test_engine_sample_state_keeps_the_observation_and_deals_unseen_cards() -> None:
    game = StackAttackGame(4)
    rng = Random(3)
    state = game.initial_state()
    checked = 0
    while not game.is_terminal(state) and checked < 60:
        if game.to_move(state) != CHANCE:
            for player in range(4):
                sample = game.sample_state(state, player, rng)
                assert game.observation(sample, player) == game.observation(state, player)
                assert sample.hands[player] == state.hands[player]
                cards = _cards_in_play(sample)
                assert len(cards) == len(set(cards))
                assert set(cards) <= set(game.deck.numbers())
            checked += 1
        state = game.apply(state, random_move(game, state, rng))


def test_engine_samples_spread_over_the_unseen_cards() -> None:
    game = StackAttackGame(2, Options(scope="round"))
    rng = Random(9)
    state = game.initial_state()
    while game.to_move(state) != SIMULTANEOUS:
        state = game.apply(state, random_move(game, state, rng))
    unseen = set(game.unseen(state, 0))
    assert len(unseen) == 64 - 10 - 4
    seen_in_samples: set[int] = set()
    for _ in range(40):
        seen_in_samples |= set(game.sample_state(state, 0, rng).hands[1])
    assert seen_in_samples <= unseen and len(seen_in_samples) > 30


def test_engine_move_texts_parse_back() -> None:
    for text in ("37", "37,12,5", "T2", "P4", "B1", "S41", "D64"):
        move = parse_move(text)
        assert format_move(move) == text

"""Property-based round trips of the OpenSpiel adapters (QA 60; docs/openspiel.md): a game's string
(``str(game)``, which ``serialize_game_and_state`` writes) loads back to the same game, a serialized state
comes back with the same position and history, every legal action has its own text, and the states',
observations', information states' and actions' strings are the same under two hash seeds. Strato games
played from a position of two or more hands could not come back: OpenSpiel's game string separates
parameters by commas, so ``position=... RS,WW ...`` was read back as an unknown parameter 'WW ...'; the
game now keeps its hands separated by ``;`` and reads either."""

from __future__ import annotations

import functools
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

pyspiel = pytest.importorskip("pyspiel")

import stratagem.openspiel  # noqa: E402  (registers the games)
from stratagem.loading import StratoDeal, load  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
STRATO = tuple(sorted(str(p.relative_to(ROOT)) for p in (ROOT / "puzzles" / "strato").glob("*.toml")))
CONFIGS = (
    *stratagem.openspiel.GAMES,
    "stratagem_strato(players=2,seed=3)",
    "stratagem_strato(information=open,players=4,seed=9)",
    "stratagem_stakd(players=3)",
    "stratagem_stratatak(star_mode=addon,battle_limit=8,hand_size=5)",
    "stratagem_stackattack(players=3,actions=False)",
    "stratagem_cardclash(players=3,strategic=True)",
)
RUNS = settings(deadline=None, derandomize=True, max_examples=30,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def _step(state: Any, rng: random.Random) -> None:
    if state.is_chance_node():
        outcomes, probs = zip(*state.chance_outcomes(), strict=True)
        state.apply_action(rng.choices(outcomes, probs)[0])
    elif state.is_simultaneous_node():
        state.apply_actions([rng.choice(state.legal_actions(p)) for p in range(state.num_players())])
    else:
        state.apply_action(rng.choice(state.legal_actions()))


def _check_round_trip(game: Any, rng: random.Random, steps: int) -> None:
    """The game's string loads back to it; along ``steps`` random actions the state serializes back equal and
    every legal action has its own text."""
    again = pyspiel.load_game(str(game))
    assert str(again) == str(game) and again.get_parameters() == game.get_parameters()
    state = game.new_initial_state()
    for _ in range(steps):
        back_game, back = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))
        assert str(back_game) == str(game)
        assert str(back) == str(state) and back.history() == state.history(), str(state)
        if state.is_terminal():
            return
        if not state.is_chance_node():
            players = range(game.num_players()) if state.is_simultaneous_node() else [state.current_player()]
            for player in players:
                texts = [state.action_to_string(player, a) for a in state.legal_actions(player)]
                assert len(set(texts)) == len(texts), texts
        _step(state, rng)


@functools.cache
def _position(path: str, seed: int, players: int, moves: int) -> str:
    """A position of the puzzle's challenge: its seeded deal played ``moves`` random moves on (to a start of
    a turn with full hands, as a position parameter must be: the deal's start if none is)."""
    deal = load(ROOT / path, deal=seed, players=players)
    assert isinstance(deal, StratoDeal)
    game, state = deal.game, deal.start
    rng = random.Random(seed)
    chosen = state
    for _ in range(moves):
        if game.is_terminal(state):
            break
        state = game.apply(state, rng.choice(game.legal_moves(state)))
        if not game.is_terminal(state) and (not state.pile or all(len(h) == len(deal.start.hands[0])
                                                                  for h in state.hands)):
            chosen = state
    return game.format_state(chosen)


@RUNS
@given(st.sampled_from(STRATO), st.integers(0, 2**20), st.integers(1, 4), st.integers(0, 6),
       st.sampled_from(("hidden", "open")), st.integers(0, 2**16))
def test_a_strato_game_from_a_position_serializes_back(path: str, seed: int, players: int, moves: int,
                                                      information: str, walk: int) -> None:
    position = _position(path, seed, players, moves)
    game = pyspiel.load_game("stratagem_strato", {"puzzle": path, "position": position, "information": information})
    _check_round_trip(game, random.Random(walk), 12)


@pytest.mark.parametrize("config", CONFIGS)
def test_every_game_string_loads_back_and_every_state_serializes_back(config: str) -> None:
    _check_round_trip(pyspiel.load_game(config), random.Random(config), 25)


def test_a_position_of_two_hands_is_kept_with_its_hands_apart_and_read_either_way() -> None:
    written = "RW(RW)SW/WT(ST)WR RS,WW TSTTRRTSTWSSTSWWSRRTRSRT 1 -"
    game = pyspiel.load_game("stratagem_strato", {"puzzle": "puzzles/strato/challenge-1.toml", "position": written})
    assert game.get_parameters()["position"] == written.replace(",", ";")
    back_game, back = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game,
                                                                                           game.new_initial_state()))
    assert str(back_game) == str(game) and str(back) == str(game.new_initial_state())
    assert str(pyspiel.load_game(str(game)).new_initial_state()) == str(game.new_initial_state())


_STRINGS = """
import hashlib, random, sys
import pyspiel, stratagem.openspiel
digest = hashlib.sha256()
for config in sys.argv[1:]:
    game, rng = pyspiel.load_game(config), random.Random(config)
    state = game.new_initial_state()
    while not state.is_terminal():
        digest.update(str(state).encode())
        for player in range(game.num_players()):
            digest.update(state.observation_string(player).encode())
            digest.update(state.information_state_string(player).encode())
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            state.apply_action(rng.choices(outcomes, probs)[0])
        elif state.is_simultaneous_node():
            state.apply_actions([rng.choice(state.legal_actions(p)) for p in range(game.num_players())])
        else:
            actions = state.legal_actions()
            digest.update(" ".join(state.action_to_string(state.current_player(), a) for a in actions).encode())
            state.apply_action(rng.choice(actions))
print(digest.hexdigest())
"""


def test_the_games_strings_are_the_same_under_two_hash_seeds() -> None:
    import os
    import subprocess
    import sys

    runs = [subprocess.run([sys.executable, "-c", _STRINGS, *CONFIGS], capture_output=True, text=True, timeout=300,
                           check=True, env={**os.environ, "PYTHONHASHSEED": seed}).stdout for seed in ("1", "2")]
    assert runs[0] == runs[1] and len(runs[0].strip()) == 64

"""The OpenSpiel games used as a researcher would: tensor calls, refusals, information states over random play,
and docs/api.md's notation example."""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parents[2]


def _pyspiel() -> Any:
    pyspiel = pytest.importorskip("pyspiel")
    import stratagem.openspiel  # noqa: F401  (registers the games)

    return pyspiel


@pytest.mark.parametrize("name", ["stratagem_strato", "stratagem_stakd", "stratagem_stratatak", "stratagem_stackattack",
                                  "stratagem_cardclash"])
def test_tensor_calls_say_there_is_no_tensor(name: str) -> None:
    """The types declare no tensors; asking for one once gave [] (an empty tensor) instead of saying so."""
    pyspiel = _pyspiel()
    game = pyspiel.load_game(name)
    state = game.new_initial_state()
    with pytest.raises(ValueError, match=f"{name} provides no observation_tensor"):
        state.observation_tensor(0)
    with pytest.raises(ValueError, match=f"{name} provides no information_state_tensor"):
        state.information_state_tensor(0)
    with pytest.raises(ValueError, match="provides no observation_tensor"):
        game.observation_tensor_shape()
    with pytest.raises(ValueError, match="provides no information_state_tensor"):
        game.information_state_tensor_size()
    assert state.observation_string(0) and state.information_state_string(0)  # the strings are unaffected


@pytest.mark.parametrize(("params", "message"), [
    ({"strict_effect": True}, "stratagem_strato: strict_effect: hidden-information Strato needs strict_effect off"),
    ({"puzzle": "no-such-puzzle.toml"}, "stratagem_strato: puzzle: no-such-puzzle.toml: no such file"),
])
def test_strato_refusals_are_value_errors_naming_the_parameter(params: dict[str, object], message: str) -> None:
    """Once an UnsupportedGame and a BadInput naming neither the game nor the parameter, where every other
    refusal of the five games is a ValueError naming both."""
    pyspiel = _pyspiel()
    with pytest.raises(ValueError, match=re.escape(message)):
        pyspiel.load_game("stratagem_strato", params)


@pytest.mark.parametrize("name", ["stratagem_strato(players=2,seed=3)", "stratagem_stakd(players=3)",
                                  "stratagem_stratatak(max_count=4,hand_size=3,battle_limit=6)",
                                  "stratagem_stackattack(cards=30)", "stratagem_cardclash(width=3,height=3)"])
def test_random_play_keeps_openspiels_promises(name: str) -> None:
    """Over random games: one information state means one set of legal actions (what CFR relies on), chance
    outcomes sum to 1, decisions stay within max_game_length, rewards add up to the returns."""
    pyspiel = _pyspiel()
    game = pyspiel.load_game(name)
    players = game.num_players()
    rng = random.Random(55)
    seen: dict[tuple[int, str], list[int]] = {}
    for _ in range(4):
        state = game.new_initial_state()
        decisions = 0
        rewards = [0.0] * players
        while not state.is_terminal():
            if state.is_chance_node():
                actions, probs = zip(*state.chance_outcomes(), strict=True)
                assert sum(probs) == pytest.approx(1.0)
                state.apply_action(rng.choices(actions, probs)[0])
            else:
                movers = range(players) if state.is_simultaneous_node() else [state.current_player()]
                for p in movers:
                    key = (p, state.information_state_string(p))
                    assert seen.setdefault(key, state.legal_actions(p)) == state.legal_actions(p), key
                if state.is_simultaneous_node():
                    state.apply_actions([rng.choice(state.legal_actions(p)) for p in movers])
                else:
                    state.apply_action(rng.choice(state.legal_actions()))
                decisions += 1
            rewards = [r + x for r, x in zip(rewards, state.rewards(), strict=True)]
        assert decisions <= game.max_game_length()
        assert rewards == pytest.approx(state.returns())


def test_api_md_shows_the_stratatak_notation_in_full() -> None:
    """docs/api.md's comment on the Lone Star position once left out its battles-left field (`b4`)."""
    import stratagem
    from stratagem.loading import Position

    line = next(line for line in (REPO / "docs" / "api.md").read_text(encoding="utf-8").splitlines()
                if line.startswith("text = position.game.format_state(position.state)"))
    position = stratagem.load(str(REPO / "puzzles" / "stratatak" / "lone-star.toml"))
    assert isinstance(position, Position)
    assert line.split("# ", 1)[1] == position.game.format_state(position.state)


def test_a_simultaneous_node_asks_for_each_players_actions() -> None:
    """``legal_actions()`` without a player at Stack Attack's reveal once listed the hand that player -2 indexes
    (player 2's of three), and ``apply_action`` there failed in the engine's words."""
    pyspiel = _pyspiel()
    game = pyspiel.load_game("stratagem_stackattack(players=3)")
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.legal_actions()[0])
    assert state.is_simultaneous_node()
    with pytest.raises(ValueError, match=r"legal_actions\(player\) for each"):
        state.legal_actions()
    with pytest.raises(ValueError, match="apply_actions with one action per player"):
        state.apply_action(state.legal_actions(0)[0])
    state.apply_actions([state.legal_actions(p)[0] for p in range(3)])  # the way that works


@pytest.mark.parametrize("name", ["stratagem_cardclash", "stratagem_stackattack"])
def test_apply_actions_away_from_a_simultaneous_node_is_refused(name: str) -> None:
    """Once a bare AssertionError inside the engine (Card Clash, at its first deal)."""
    pyspiel = _pyspiel()
    game = pyspiel.load_game(name)
    state = game.new_initial_state()
    assert state.is_chance_node()
    with pytest.raises(ValueError, match="apply_actions is for a simultaneous node; here chance moves"):
        state.apply_actions([0] * game.num_players())

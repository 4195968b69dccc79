"""The OpenSpiel games as an AI researcher meets them (QA pass 57): action names asked for with a player id
that is no player, and positions given as a parameter checked as a puzzle file's are."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest


def _pyspiel() -> Any:
    pyspiel = pytest.importorskip("pyspiel")
    import stratagem.openspiel  # noqa: F401  (registers the games)

    return pyspiel


def test_action_to_string_at_a_simultaneous_node_asks_for_the_player() -> None:
    """``action_to_string(action)`` at Stack Attack's reveal (the player -2, OpenSpiel's simultaneous id) once
    named the card ``p-1:1``, a player that does not exist; each player's own name is unchanged."""
    pyspiel = _pyspiel()
    state = pyspiel.load_game("stratagem_stackattack").new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.legal_actions()[0])
    assert state.is_simultaneous_node()
    action = state.legal_actions(0)[0]
    needs = "stackattack: action_to_string needs the player whose action it is (0 to 1)"
    with pytest.raises(ValueError, match=re.escape(needs)):
        state.action_to_string(action)
    assert state.action_to_string(0, action) == f"p1:{action + 1}"


@pytest.mark.parametrize(("name", "player", "second"), [("stratagem_cardclash", 2, "b1@-1,0"),
                                                        ("stratagem_cardclash", 10, "b1@-1,0"),
                                                        ("stratagem_stackattack", 2, "p2:2"),
                                                        ("stratagem_stakd", -4, "B@0,0v")])
def test_action_to_string_for_no_player_is_refused(name: str, player: int, second: str) -> None:
    """Player 2 of a two-player Card Clash once laid a green card (``g1@-1,0``), player 10 raised an IndexError
    and Stack Attack wrote ``p3:2``: a number that is no player (nor chance, -1) is a ValueError saying so."""
    pyspiel = _pyspiel()
    state = pyspiel.load_game(name).new_initial_state()
    with pytest.raises(ValueError, match=re.escape(f"{player} is not a player of {name.removeprefix('stratagem_')} "
                                                   "(0 to 1, or -1 for a chance outcome)")):
        state.action_to_string(player, 1)
    assert state.action_to_string(1, 1) == second  # the second player's action 1 is named as before


@pytest.mark.parametrize("information", ["hidden", "open"])
def test_a_position_with_a_short_hand_and_cards_in_the_pile_is_refused(information: str) -> None:
    """A puzzle file's position deal with a hand short of the hand size while the pile holds cards is refused
    (every play is followed by a draw); the same position given as OpenSpiel's ``position`` parameter loaded
    and was played (solo challenge 0: the hand is three cards, here two with three in the pile)."""
    pyspiel = _pyspiel()
    short = "RRWR(RW)WWRW RR WRR 1 -"
    with pytest.raises(ValueError, match=re.escape(
            f"stratagem_strato: position {short!r}: player 1 holds 2 card(s) while the draw pile holds 3: a hand is "
            "3 card(s) until the pile runs out")):
        pyspiel.load_game("stratagem_strato", {"position": short, "information": information})
    # Once the pile is empty a hand shrinks with every play: that position loads.
    state = pyspiel.load_game("stratagem_strato", {"position": "RRWR(RW)WWRW RR - 1 -",
                                                   "information": information}).new_initial_state()
    assert str(state).startswith("RRWR(RW)WWRW RR ")


@pytest.mark.parametrize(("params", "message"), [
    ({"players": 1}, "stratagem_stackattack: players: Stack Attack is played by 2 to 6 players, not 1"),
    ({"scope": "match"}, "stratagem_stackattack: scope: one of game, round, not 'match'"),
    ({"cards": 23}, "stratagem_stackattack: cards: 2 players need 24 (a hand each and one card a row), not 23"),
    ({"players": 6, "cards": 63}, "stratagem_stackattack: cards: 6 players need 64"),
])
def test_stack_attack_refusals_name_the_parameter(params: dict[str, object], message: str) -> None:
    """Every other game's refusal names the parameter; Stack Attack's were the engine's words alone ('Stack
    Attack is played by 2 to 6 players, not 1', '2 players need 24 cards, the deck has 23')."""
    pyspiel = _pyspiel()
    with pytest.raises(ValueError, match=re.escape(message)):
        pyspiel.load_game("stratagem_stackattack", params)
    assert pyspiel.load_game("stratagem_stackattack", {"players": 6, "cards": 64}).num_players() == 6


@pytest.mark.parametrize(("params", "message"), [
    ({"information": "secret"}, "stratagem_strato: information: hidden or open, not 'secret'"),
    ({"players": 5}, "stratagem_strato: players: Strato is played by 1 to 4 players, not 5"),
    ({"seed": -5}, "stratagem_strato: seed: -5 is not a deal's seed"),
    ({"puzzle": "puzzles/strato/challenge-1.toml", "deal": "solo-9"},
     "stratagem_strato: deal: puzzles/strato/challenge-1.toml has no deal 'solo-9' (deals: solo-3, solo-1,"),
])
def test_strato_refusals_name_the_parameter(params: dict[str, object], message: str,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """The puzzle, position and rules options were named in their refusals; these four were not."""
    monkeypatch.chdir(Path(__file__).resolve().parents[2])
    pyspiel = _pyspiel()
    with pytest.raises(ValueError, match=re.escape(message)):
        pyspiel.load_game("stratagem_strato", params)

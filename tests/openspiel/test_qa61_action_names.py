"""Every action id of an OpenSpiel game has a name of its own (QA 61).

``state.action_to_string`` named 2,116 ids of ``stratagem_strato`` ``!1L`` or ``!1R``: every id whose card
code is 6 (a Redraw's announcement names no card), whatever its redraw flag and target, though only the
announcement itself (redraw 1, target 0) is ever legal. OpenSpiel reads a name back among the legal actions
only (``StringToAction``), so play was right; but a name is how a log, a bot or a person tells actions apart,
and an id that can never be played was shown as the announcement. Now only the announcement is ``!1L``; the
other ids say they are never played, and every name in a game's range is distinct."""

from __future__ import annotations

import collections
import random

import pytest

pyspiel = pytest.importorskip("pyspiel")
import stratagem.openspiel  # noqa: E402,F401  (registers the games)


def _first_decision(game: object) -> object:
    state = game.new_initial_state()  # type: ignore[attr-defined]
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    return state


@pytest.mark.parametrize(("name", "params"), [
    ("stratagem_strato", {"players": 2}), ("stratagem_strato", {"information": "open"}),
    ("stratagem_cardclash", {}), ("stratagem_stratatak", {}), ("stratagem_stakd", {}),
    ("stratagem_stackattack", {}),
])
def test_every_action_id_has_a_name_of_its_own(name: str, params: dict[str, object]) -> None:
    game = pyspiel.load_game(name, params)
    state = _first_decision(game)
    player = max(state.current_player(), 0)
    names = collections.Counter(state.action_to_string(player, a) for a in range(game.num_distinct_actions()))
    assert [(text, n) for text, n in names.items() if n > 1] == []


def test_the_announcement_keeps_its_name_and_reads_back() -> None:
    game = pyspiel.load_game("stratagem_strato", {"players": 2})
    rng = random.Random(61)
    announced = 0
    for _ in range(12):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0])
                continue
            player = state.current_player()
            for action in state.legal_actions():
                text = state.action_to_string(player, action)
                assert state.string_to_action(text) == action
                announced += text in ("!1L", "!1R")
            state.apply_action(rng.choice(state.legal_actions()))
    assert announced

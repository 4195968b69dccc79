"""A Strato game's puzzle path and deal name come back from OpenSpiel's game string (QA 61; docs/openspiel.md).

The game string (``stratagem_strato(deal=...,puzzle=...)``), which ``serialize_game_and_state`` writes and
``load_game`` and ``deserialize_game_and_state`` read, has no escape. A puzzle path with a comma, an ``=`` or
a parenthesis, or a deal named ``7`` or ``True`` (a TOML deal name is any string), made a game that played but
whose serialized state could not be read back ("Unknown parameter 'b/c.toml,seed=1,...'", "Missing closing
bracket", "Wrong type for parameter deal"). Such a value is now kept as ``quoted:`` and its percent-escapes,
which the game reads back.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

pyspiel = pytest.importorskip("pyspiel")

import stratagem.openspiel  # noqa: E402, F401  (registers the games)
from stratagem.openspiel.strato import QUOTED, for_game_string, from_game_string  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]

DEALS = """game = "strato"
[challenge]
name = "c"
weathers = "RW"
rows = 1
limit = 6
players = 1
[challenge.goal]
left = "RRRR"
right = "WWWW"
"""


def _round_trip(game: Any) -> None:
    """The game's string loads back to the same game, and a state one action in comes back equal."""
    state = game.new_initial_state()
    state.apply_action(state.legal_actions()[0])
    back_game, back = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))
    assert str(back_game) == str(game) and back_game.get_parameters() == game.get_parameters()
    assert str(back) == str(state) and back.history() == state.history()
    assert str(pyspiel.load_game(str(game)).new_initial_state()) == str(game.new_initial_state())


@pytest.mark.parametrize("folder", ["a,b", "p(1", "e)q", "e=q", "x%2Cy", "quoted:z", "a (b)"])
def test_a_puzzle_path_the_game_string_cannot_carry_comes_back(tmp_path: Path, folder: str) -> None:
    path = tmp_path / folder / "c.toml"
    path.parent.mkdir()
    shutil.copy(ROOT / "puzzles/strato/challenge-1.toml", path)
    game = pyspiel.load_game("stratagem_strato", {"puzzle": str(path), "information": "open"})
    _round_trip(game)
    kept = game.get_parameters()["puzzle"]
    assert from_game_string(kept) == str(path)
    plain = not any(ch in str(path) for ch in ",=()") and not str(path).startswith(QUOTED)
    assert kept == str(path) if plain else kept.startswith(QUOTED)


@pytest.mark.parametrize("name", ["7", "-7", "7.5", "True", "false", "a,b", "x (y)", "k=v", "100%", "quoted:q",
                                  "1e5", "solo 1"])
def test_a_deal_name_the_game_string_cannot_carry_comes_back(tmp_path: Path, name: str) -> None:
    path = tmp_path / "deals.toml"
    path.write_text(DEALS + f'[[deals]]\nname = "{name}"\nseed = 7\n[[deals]]\nname = "other"\nseed = 8\n',
                    encoding="utf-8")
    # A name that itself begins with quoted: is given quoted (docs/openspiel.md); any other as it is.
    given = for_game_string(name) if name.startswith(QUOTED) else name
    game = pyspiel.load_game("stratagem_strato", {"puzzle": str(path), "deal": given, "information": "hidden"})
    _round_trip(game)
    assert from_game_string(game.get_parameters()["deal"]) == name
    other = pyspiel.load_game("stratagem_strato", {"puzzle": str(path), "deal": "other", "information": "hidden"})
    assert str(other.new_initial_state()) != str(game.new_initial_state())  # the deal named, not the first


@pytest.mark.parametrize("value", ["", "puzzles/strato/challenge-1.toml", "a,b", "(", ")", "=", "%", "%2C", "7",
                                   "+7", "-1.5", ".", "-", "True", "true", "False", "false", "quoted:", "quoted:x",
                                   "x)", "a=b,c=d", "é,ü"])
def test_a_spelling_reads_back_through_openspiel_as_the_same_string(value: str) -> None:
    spelt = for_game_string(value)
    assert from_game_string(spelt) == value
    if value:  # OpenSpiel's own reader gives the spelling back as a string, not a number, a truth or a game
        assert pyspiel.game_parameters_from_string(f"g(deal={spelt},x=1)") == {"name": "g", "deal": spelt, "x": 1}


def test_a_quoted_path_given_directly_is_read_unquoted() -> None:
    path = ROOT / "puzzles/strato/challenge-1.toml"
    plain = pyspiel.load_game("stratagem_strato", {"puzzle": str(path)})
    quoted = pyspiel.load_game("stratagem_strato", {"puzzle": QUOTED + str(path).replace("/", "%2F")})
    assert str(plain) == str(quoted) and str(plain.new_initial_state()) == str(quoted.new_initial_state())

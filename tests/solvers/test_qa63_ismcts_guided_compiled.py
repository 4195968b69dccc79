"""Guided ISMCTS on the compiled engine (stop 63): :func:`~stratagem.solvers.compiled_ismcts.ismcts_compiled`
with ``guided=True`` takes the game's compiled guide (Card Clash's, Stratatak's), as compiled UCT does, and
``play`` runs a guided ``ismcts`` agent there by default. Before, compiled ISMCTS was plain only, so the
default (guided) ``ismcts`` agent searched on the Python engine and ``play`` said so in a hint.

- With the evaluation at every new leaf and no chance node in the tree (Card Clash has none; a Stratatak
  determinisation knows its draw pile's order), the compiled and the reference searches visit alike, move
  for move, on several positions and seeds (``tests/guide_checks.py``).
- The guided search is deterministic; its kernel interpreted gives what it gives compiled (random playouts
  cut by the guide's evaluation, so the stream and the guide are both exercised); a guide of another
  engine is refused.
- ``play``: a guided ``ismcts`` agent runs compiled, guided, with no hint; on Card Clash (which declares
  the evaluation cut-off 0) the match is the reference engine's game for game. The hint stays for a game
  with a compiled engine and no compiled guide.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from stratagem.engines import compiled_engine, resolve
from stratagem.models.cardclash.rules import CardClashGame
from stratagem.models.stratatak.rules import StratatakGame, deal
from stratagem.solvers.compiled_ismcts import ismcts_compiled
from tests.guide_checks import assert_guided_ismcts_agrees
from tests.interpreted import interpreted_package, run_json


def _cardclash(seed: int) -> tuple[CardClashGame, Any]:
    """A non-terminal Card Clash position: random plies from a fresh deal of a random game."""
    rng = random.Random(seed)
    while True:
        game = CardClashGame(rng.choice((2, 3)), strategic=rng.random() < 0.5, seed=rng.randrange(10**9))
        state = game.initial_state()
        for _ in range(rng.randrange(30)):
            if game.is_terminal(state):
                break
            state = game.apply(state, rng.choice(game.legal_moves(state)))
        if not game.is_terminal(state):
            return game, state


def _stratatak(seed: int) -> tuple[StratatakGame, Any]:
    """A Stratatak deal after ``seed`` attacks or defences (with one, the defender is to play)."""
    game = StratatakGame()
    state = deal(game.options, random.Random(40 + seed))
    for _ in range(seed):
        state = game.apply(state, game.legal_moves(state)[seed * 3])
    return game, state


def _compiled_here(game: Any) -> None:
    if resolve(game, "compiled").name != "compiled":
        pytest.skip("no compiled engine here")


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_guided_compiled_ismcts_visits_as_the_reference_does_on_cardclash(seed: int) -> None:
    game, state = _cardclash(seed)
    _compiled_here(game)
    assert_guided_ismcts_agrees(game, state, seed)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_guided_compiled_ismcts_visits_as_the_reference_does_on_stratatak(seed: int) -> None:
    game, state = _stratatak(seed)
    _compiled_here(game)
    assert_guided_ismcts_agrees(game, state, seed)


def test_guided_compiled_ismcts_takes_the_declared_cut_off_and_is_deterministic() -> None:
    """Card Clash declares ``rollout_limit`` 0: guided, with none given, the compiled search values new
    leaves by the evaluation as ``ismcts(guided=True)`` does (the same visits); Stratatak declares none,
    and its random playouts to the end give the same search for the same seed."""
    from stratagem.solvers.mcts import ismcts

    game, state = _cardclash(7)
    _compiled_here(game)
    fast = ismcts_compiled(game, compiled_engine(game), state, iterations=200, seed=3, guided=True)
    slow = ismcts(game, state, iterations=200, seed=3, guided=True)
    assert [(s.notation, s.visits) for s in fast.moves] == [(s.notation, s.visits) for s in slow.moves]
    game, state = _stratatak(1)
    engine = compiled_engine(game)
    runs = [ismcts_compiled(game, engine, state, iterations=300, seed=5, guided=True) for _ in range(2)]
    assert [(s.visits, s.mean) for s in runs[0].moves] == [(s.visits, s.mean) for s in runs[1].moves]
    assert runs[0].iterations == 300 and sum(s.visits for s in runs[0].moves) == 300


def test_a_guide_of_another_engine_is_refused() -> None:
    from stratagem.models.stratatak.cards import Options
    from stratagem.solvers.compiled_uct import compiled_guide
    from stratagem.solvers.packed_ismcts import IsmctsSearch

    game = StratatakGame()
    other = StratatakGame(Options(max_count=4))
    guide = compiled_guide(other, compiled_engine(other))
    with pytest.raises(ValueError, match="another engine's"):
        IsmctsSearch(compiled_engine(game), None, 0, 1, 1.4, -1.0, 1.0, -1, 16, guide, 2.0)


_SCRIPT = """
import json, random
import numpy as np
from stratagem.models.stratatak.rules import StratatakGame, deal
from stratagem.models.stratatak.engine import StratatakEngine
from stratagem.models.stratatak import guide as guide_module
from stratagem.solvers import packed_ismcts
from stratagem.solvers.compiled_uct import compiled_guide
game = StratatakGame()
engine = StratatakEngine.from_game(game)
guide = compiled_guide(game, engine)
state = deal(game.options, random.Random(41))
rng = random.Random(2)
rows = np.array([engine.encode(game.sample_state(state, 0, rng)) for _ in range(300)], np.int64)
search = packed_ismcts.IsmctsSearch(engine, None, 0, 7, 1.4, -1.0, 1.0, 4, 16, guide, 2.0)
done = search.run(rows, -1.0)
root = {k: v.tolist() for k, v in search.root(False).items()}
print(json.dumps({"compiled": [packed_ismcts.__file__.endswith(".so"), guide_module.__file__.endswith(".so")],
                  "done": done, "size": search.size(), "root": root}))
"""


def test_the_guided_kernel_interpreted_searches_as_compiled(tmp_path: Path) -> None:
    """Random playouts cut after 4 plies by the guide's evaluation: the stream and the guide both at work."""
    interpreted = run_json(_SCRIPT, interpreted_package(tmp_path))
    assert interpreted["compiled"] == [False, False]
    here = run_json(_SCRIPT, None)
    if not all(here["compiled"]):
        pytest.skip("the compiled core is not built here: nothing to compare the interpreted kernel with")
    assert interpreted == {**here, "compiled": [False, False]}
    assert here["done"] == 300 and sum(here["root"]["visits"]) == 300 and len(here["root"]["visits"]) > 1


@pytest.mark.parametrize(("name", "game"), [("cardclash", CardClashGame(2)), ("stratatak", StratatakGame())])
def test_play_runs_guided_ismcts_compiled_by_default_with_no_hint(name: str, game: Any) -> None:
    from stratagem.matches import play

    _compiled_here(game)
    said: list[str] = []
    result = play(name, ["ismcts:iterations=30", "random"], games=1, seed=1, max_plies=8, hint=said.append)
    params = result.agents[0].params
    assert params["engine"] == "compiled" and params["guided"] is True and "reuse" not in params
    assert said == []


def test_play_of_guided_ismcts_on_cardclash_is_the_reference_engines_match() -> None:
    """Card Clash has no chance node and declares the evaluation cut-off: the compiled guided agent plays
    the reference agent's moves, so the match is the same but for where it ran."""
    from stratagem.matches import play

    _compiled_here(CardClashGame(2))
    specs = ["ismcts:iterations=40", "random"]
    compiled = play("cardclash", specs, games=2, seed=3, max_plies=12).to_json()
    reference = play("cardclash", specs, games=2, seed=3, max_plies=12, engine="reference").to_json()
    assert compiled["agents"][0]["params"].pop("engine") == "compiled"
    assert "engine" not in reference["agents"][0]["params"]
    assert compiled == reference


def test_the_hint_stays_for_a_game_with_no_compiled_guide(monkeypatch: pytest.MonkeyPatch) -> None:
    from stratagem.matches import play

    _compiled_here(StratatakGame())
    monkeypatch.delattr(StratatakGame, "compiled_guide")
    said: list[str] = []
    result = play("stratatak", ["ismcts:iterations=5", "random"], games=1, max_plies=4, hint=said.append)
    assert "engine" not in result.agents[0].params  # stayed on the Python engine
    assert len(said) == 1 and said[0].startswith("ismcts (the first agent) searches guided")
    assert "no compiled guide" in said[0] and "guided=false" in said[0]

"""Stratatak's compiled guidance (``guide.StratatakGuide``) against the reference's knowledge, and the
guided compiled UCT against the guided reference UCT.

- On random positions of random games (both star modes, several decks and hand sizes, battle limits; the
  deal, reshuffles and chance draws included) the guide's keys sort the legal plays exactly as
  ``StratatakGame.order_moves`` does, attacks and defences, and its evaluation equals
  ``StratatakGame.evaluate`` float for float (a finished game's: its returns). The sample must be one
  where the ordering and the evaluation say something (checked), and a guide with one key changed fails.
- With the evaluation at every new leaf (``rollout_limit=0``) and a known draw pile (no chance node in
  reach), guided UCT uses no randomness, so the compiled search and ``uct(guided=True)`` must visit the
  same plays the same number of times: they do. By default (the game declares no cut-off) the compiled
  search plays random playouts to the end, as the reference does.
- The kernel run interpreted gives what it gives compiled.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from stratagem.core.game import CHANCE
from stratagem.models.stratatak import compiled_engine
from stratagem.models.stratatak.cards import Options
from stratagem.models.stratatak.guide import StratatakGuide
from stratagem.models.stratatak.position import State
from stratagem.models.stratatak.rules import StratatakGame, deal
from stratagem.solvers.compiled_uct import compiled_guide, uct_compiled
from stratagem.solvers.mcts import DEFAULT_EXPLORATION, sample_outcome
from tests.guide_checks import (
    assert_guided_searches_agree,
    assert_play_runs_guided_mcts_compiled,
    interpreted_and_compiled,
    wrong_keys_caught,
)

#: Decks and rules to draw from: the shipped one, small decks that reshuffle often, few or no Stars.
OPTIONS = (Options(), Options(star_mode="addon"), Options(max_count=4, copies=1, stars=2, hand_size=5),
           Options(max_count=3, copies=2, stars=0, hand_size=4), Options(max_count=6, copies=3, stars=1),
           Options(max_count=5, copies=1, stars=3, hand_size=6, star_mode="addon", battle_limit=6))


def _positions(seed: int, count: int) -> list[tuple[StratatakGame, State]]:
    """``count`` decision positions (a player to play) met along random games of random options."""
    rng = random.Random(seed)
    found: list[tuple[StratatakGame, State]] = []
    while len(found) < count:
        game = StratatakGame(rng.choice(OPTIONS))
        state = game.initial_state()
        for _ in range(rng.randrange(10, 200)):
            if game.is_terminal(state):
                break
            if game.to_move(state) == CHANCE:
                state = game.apply(state, sample_outcome(game.chance_outcomes(state), rng))
                continue
            if rng.random() < 0.2:
                found.append((game, state))
            state = game.apply(state, rng.choice(game.legal_moves(state)))
    return found[:count]


def _guide_order(guide: StratatakGuide, vector: Any, records: Any, moves: list[Any]) -> list[Any]:
    keys = guide.move_keys(vector, records)
    assert keys is not None
    return [move for _, _, move in sorted(zip(keys, range(len(moves)), moves, strict=True))]


def _check(count: int, seed: int) -> tuple[int, int, int]:
    """Compare on ``count`` positions; how many attacks and how many defences had an ordering other than
    the legal order, and how many positions a non-zero evaluation."""
    attacks = defences = valued = 0
    for game, state in _positions(seed, count):
        engine = compiled_engine(game)
        guide = compiled_guide(game, engine)
        assert isinstance(guide, StratatakGuide)
        vector = engine.encode(state)
        records = engine.legal_moves(vector)
        moves = [engine.decode_move(vector, r) for r in records]
        assert moves == list(game.legal_moves(state))
        reference = list(game.order_moves(state, moves))
        assert _guide_order(guide, vector, records, moves) == reference, game.format_state(state)
        assert guide.values(vector) == game.evaluate(state), game.format_state(state)
        if reference != moves:
            attacks += state.phase == "A"
            defences += state.phase == "D"
        valued += any(v != 0 for v in game.evaluate(state))
    return attacks, defences, valued


def test_guide_equals_the_reference_ordering_and_evaluation() -> None:
    attacks, defences, valued = _check(400, 1)
    assert attacks > 120 and defences > 120 and valued > 200  # the sample is one where the guidance says something


@pytest.mark.slow
def test_guide_equals_the_reference_on_many_positions() -> None:
    _check(5000, 2)


def test_a_wrong_key_is_caught() -> None:
    """The comparison can fail: the guide's keys with the first play's key raised order differently."""
    tried, caught = wrong_keys_caught(_positions(3, 80))
    assert tried > 40 and caught == tried


def test_evaluation_of_a_finished_game_is_its_returns() -> None:
    rng = random.Random(4)
    ends = set()
    for options in OPTIONS * 3:
        game = StratatakGame(options)
        engine = compiled_engine(game)
        guide = compiled_guide(game, engine)
        assert guide is not None
        state = game.initial_state()
        while not game.is_terminal(state):
            if game.to_move(state) == CHANCE:
                state = game.apply(state, sample_outcome(game.chance_outcomes(state), rng))
            else:
                state = game.apply(state, rng.choice(game.legal_moves(state)))
        assert guide.values(engine.encode(state)) == game.returns(state)
        ends.add(game.returns(state))
    assert ends == {(1, -1), (-1, 1), (0, 0)}  # won by either player, and stopped at the battle limit


def test_the_guide_declares_nothing_and_refuses_another_engine() -> None:
    """No cut-off and no exploration constant: the guided search plays to the end with the default
    constant, as ``uct(guided=True)`` does on the reference engine; the guide of another deck's engine is
    refused; the compiled searches keep the engine's own attack ordering (``order_for``)."""
    from stratagem.core.packed_order import order_for

    game = StratatakGame()
    engine = compiled_engine(game)
    guide = compiled_guide(game, engine)
    assert guide is not None and guide.rollout_limit == -1 and guide.exploration == 0.0
    assert type(order_for(game, engine)).__name__ == "StratatakOrder"
    with pytest.raises(ValueError, match="not a Stratatak game's"):
        StratatakGuide.for_engine(compiled_engine(StratatakGame(Options(max_count=4))), game)
    state = deal(game.options, random.Random(2))
    default = uct_compiled(game, engine, state, iterations=200, seed=3)
    explicit = uct_compiled(game, engine, state, iterations=200, seed=3, exploration=DEFAULT_EXPLORATION)
    assert [(s.visits, s.mean) for s in default.moves] == [(s.visits, s.mean) for s in explicit.moves]


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_guided_compiled_uct_visits_as_the_reference_does(seed: int) -> None:
    """With the evaluation at every new leaf and the draw pile's order known, the two searches agree
    visit for visit, attacks and defences."""
    game = StratatakGame()
    state = deal(game.options, random.Random(40 + seed))
    for _ in range(seed):  # an attack on the table: the defender to play
        state = game.apply(state, game.legal_moves(state)[seed * 3])
    assert_guided_searches_agree(game, state, seed=seed)


_SCRIPT = """
import json, random
from stratagem.core.game import CHANCE
from stratagem.models.stratatak.rules import StratatakGame
from stratagem.models.stratatak.engine import StratatakEngine
from stratagem.models.stratatak import guide as guide_module
from stratagem.solvers import packed_uct
from stratagem.solvers.compiled_uct import compiled_guide
from stratagem.solvers.mcts import sample_outcome
game = StratatakGame()
engine = StratatakEngine.from_game(game)
guide = compiled_guide(game, engine)
rng = random.Random(3)
state = game.initial_state()
keys, values, root = [], [], None
while not game.is_terminal(state) and len(keys) < 60:
    if game.to_move(state) == CHANCE:
        state = game.apply(state, sample_outcome(game.chance_outcomes(state), rng))
        continue
    vector = engine.encode(state)
    keys.append(guide.move_keys(vector, engine.legal_moves(vector)))
    values.append(guide.values(vector))
    root = vector if len(keys) == 20 else root
    state = game.apply(state, rng.choice(game.legal_moves(state)))
vector = root
run = packed_uct.run_uct(engine, vector, iterations=300, seed=5, guide=guide, widening=2.0, rollout_limit=6)
run = {k: (v.tolist() if hasattr(v, "tolist") else v) for k, v in run.items() if k not in ("seconds", "proven")}
print(json.dumps({"compiled": [packed_uct.__file__.endswith(".so"), guide_module.__file__.endswith(".so")],
                  "keys": keys, "values": values, "run": run}))
"""


def test_interpreted_and_compiled_guidance_search_identically(tmp_path: Path) -> None:
    interpreted, here = interpreted_and_compiled(_SCRIPT, tmp_path)
    assert interpreted["run"] == here["run"]
    assert np.asarray(here["run"]["visits"]).sum() > 0


def test_play_runs_guided_mcts_on_the_compiled_engine_by_default() -> None:
    """With a compiled guide, ``play``'s default engine for a guided ``mcts`` agent is the compiled one
    (it stayed on the Python engine, about 150 times slower a move), and the tree is kept between moves."""
    assert_play_runs_guided_mcts_compiled("stratatak", StratatakGame(), max_plies=40)

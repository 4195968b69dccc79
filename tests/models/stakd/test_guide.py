"""STAKD's compiled guidance (``guide.StakdGuide``) against the reference's knowledge, and the guided
compiled UCT against the guided reference UCT.

- Along random rounds from every shipped position and every fresh start (1 to 6 players, two lattices)
  the guide's keys sort the legal placements exactly as ``StakdGame.order_moves`` does and its evaluation
  (mobility; solo, the pieces placed) equals ``StakdGame.evaluate`` float for float, a finished round's
  being its returns. The sample must be one where the ordering and the evaluation say something
  (checked), and a guide with one key changed fails.
- STAKD has no chance: with the evaluation at every new leaf (``rollout_limit=0``) guided UCT uses no
  randomness, so the compiled search and ``uct(guided=True)`` must visit the same placements the same
  number of times: they do. By default (the game declares no cut-off) the compiled search plays random
  playouts to the end, as the reference does.
- The kernel run interpreted gives what it gives compiled.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from stratagem.engines import compiled_engine
from stratagem.models.stakd.geometry import square_lattice
from stratagem.models.stakd.guide import StakdGuide
from stratagem.models.stakd.position import State
from stratagem.models.stakd.puzzle import load_position
from stratagem.models.stakd.rules import StakdGame
from stratagem.solvers.compiled_uct import compiled_guide, uct_compiled
from stratagem.solvers.mcts import DEFAULT_EXPLORATION
from tests.guide_checks import (
    assert_guided_searches_agree,
    assert_play_runs_guided_mcts_compiled,
    interpreted_and_compiled,
    wrong_keys_caught,
)

from .support import PUZZLES


def _starts() -> list[tuple[StakdGame, State]]:
    """Every shipped position and every fresh start (1 to 6 players, and two on a tighter lattice)."""
    found = []
    for path in sorted(PUZZLES.glob("*.toml")):
        loaded = load_position(path)
        found.append((loaded.game, loaded.state))
    games = [StakdGame(players) for players in range(1, 7)] + [StakdGame(2, square_lattice(13, 5))]
    return found + [(game, game.initial_state()) for game in games]


def _positions(seed: int, rounds: int) -> list[tuple[StakdGame, State]]:
    """Every position met along ``rounds`` random rounds from each start (terminal ones included)."""
    rng = random.Random(seed)
    found: list[tuple[StakdGame, State]] = []
    for game, start in _starts():
        for _ in range(rounds):
            state = start
            found.append((game, state))
            while not game.is_terminal(state):
                state = game.apply(state, rng.choice(game.legal_moves(state)))
                found.append((game, state))
    return found


def _guide_order(guide: StakdGuide, vector: Any, records: Any, moves: list[Any]) -> list[Any]:
    keys = guide.move_keys(vector, records)
    assert keys is not None
    return [move for _, _, move in sorted(zip(keys, range(len(moves)), moves, strict=True))]


def _check(seed: int, rounds: int) -> tuple[int, int, int]:
    """Compare along the rounds; how many positions had an ordering other than the legal order, how many a
    non-zero evaluation, and how many were finished."""
    reordered = valued = finished = 0
    engines: dict[int, tuple[Any, StakdGuide]] = {}
    for game, state in _positions(seed, rounds):
        if id(game) not in engines:
            engine = compiled_engine(game)
            guide = compiled_guide(game, engine)
            assert isinstance(guide, StakdGuide)
            engines[id(game)] = (engine, guide)
        engine, guide = engines[id(game)]
        vector = engine.encode(state)
        if game.is_terminal(state):
            assert guide.values(vector) == game.returns(state), game.format_state(state)
            finished += 1
            continue
        records = engine.legal_moves(vector)
        moves = [engine.decode_move(vector, r) for r in records]
        assert moves == list(game.legal_moves(state))
        reference = list(game.order_moves(state, moves))
        assert _guide_order(guide, vector, records, moves) == reference, game.format_state(state)
        assert guide.values(vector) == game.evaluate(state), game.format_state(state)
        reordered += reference != moves
        valued += any(v != 0 for v in game.evaluate(state))
    return reordered, valued, finished


def test_guide_equals_the_reference_ordering_and_evaluation() -> None:
    reordered, valued, finished = _check(1, 3)
    assert reordered > 150 and valued > 600 and finished > 30  # the guidance says something


@pytest.mark.slow
def test_guide_equals_the_reference_on_many_positions() -> None:
    _check(2, 40)


def test_a_wrong_key_is_caught() -> None:
    """The comparison can fail: the guide's keys with the first placement's key raised order differently."""
    tried, caught = wrong_keys_caught(_positions(3, 1))
    assert tried > 40 and caught == tried


def test_the_guide_declares_nothing_and_refuses_another_game() -> None:
    """No cut-off and no exploration constant: the guided search plays to the end with the default
    constant, as ``uct(guided=True)`` does on the reference engine; another game's engine is refused."""
    game = StakdGame(2)
    engine = compiled_engine(game)
    guide = compiled_guide(game, engine)
    assert guide is not None and guide.rollout_limit == -1 and guide.exploration == 0.0
    with pytest.raises(ValueError, match="not this STAKD game's"):
        StakdGuide.for_engine(compiled_engine(StakdGame(2, square_lattice(13, 5))), game)
    with pytest.raises(ValueError, match="not this STAKD game's"):
        StakdGuide.for_engine(compiled_engine(StakdGame(3)), game)
    state = game.initial_state()
    default = uct_compiled(game, engine, state, iterations=200, seed=3)
    explicit = uct_compiled(game, engine, state, iterations=200, seed=3, exploration=DEFAULT_EXPLORATION)
    assert [(s.visits, s.mean) for s in default.moves] == [(s.visits, s.mean) for s in explicit.moves]


@pytest.mark.parametrize(("players", "plies"), [(2, 2), (2, 6), (3, 3)])
def test_guided_compiled_uct_visits_as_the_reference_does(players: int, plies: int) -> None:
    """With the evaluation at every new leaf, the two searches agree visit for visit (no chance)."""
    game = StakdGame(players)
    rng = random.Random(players * 10 + plies)
    state = game.initial_state()
    for _ in range(plies):
        state = game.apply(state, rng.choice(game.legal_moves(state)))
    assert_guided_searches_agree(game, state, seed=plies)


_SCRIPT = """
import json, random
from stratagem.models.stakd.rules import StakdGame
from stratagem.models.stakd.engine import StakdEngine
from stratagem.models.stakd import guide as guide_module
from stratagem.solvers import packed_uct
from stratagem.solvers.compiled_uct import compiled_guide
game = StakdGame(3)
engine = StakdEngine.from_game(game)
guide = compiled_guide(game, engine)
rng = random.Random(3)
state = game.initial_state()
keys, values, root = [], [], None
while not game.is_terminal(state):
    vector = engine.encode(state)
    keys.append(guide.move_keys(vector, engine.legal_moves(vector)))
    values.append(guide.values(vector))
    root = vector if len(keys) == 5 else root
    state = game.apply(state, rng.choice(game.legal_moves(state)))
values.append(guide.values(engine.encode(state)))
run = packed_uct.run_uct(engine, root, iterations=200, seed=5, guide=guide, widening=2.0, rollout_limit=4)
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
    (it stayed on the Python engine), the tree kept between moves, and no hint is given."""
    assert_play_runs_guided_mcts_compiled("stakd", StakdGame(2), max_plies=6)

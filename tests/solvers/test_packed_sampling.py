"""The compiled sampling searches: DUCT (solvers/packed_duct.py, compiled_duct.py) and SO-ISMCTS and PIMC
(solvers/packed_ismcts.py, compiled_ismcts.py), on the games' compiled engines against the Python searches
on the reference engines.

The compiled and Python searches draw from different random streams, so they are compared on what does
not depend on the stream: the moves listed (the reference's, in its order), the exact values of moves
that end the game, and estimates that converge (DUCT's values on small Stack Attack endgames, the move
chosen where one move is obviously best). Each search is deterministic for a seed, byte for byte, and the
kernels run interpreted (no compiled module) give exactly what they give compiled (checked in a fresh
interpreter on a copy of the package without its extension modules).
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from random import Random
from typing import Any

import numpy as np
import pytest

from stratagem.analysis import analyze
from stratagem.engines import resolve
from stratagem.loading import load_position
from stratagem.matches import _on_engine as on_engine
from stratagem.matches import make_agents
from stratagem.solvers.compiled_duct import duct_compiled, simultaneous_part
from stratagem.solvers.compiled_ismcts import ismcts_compiled, pimc_compiled, pimc_simultaneous_compiled
from stratagem.solvers.duct import duct
from stratagem.solvers.mcts import ismcts
from stratagem.solvers.packed_duct import run_duct
from stratagem.solvers.packed_ismcts import IsmctsSearch
from stratagem.solvers.pimc import pimc, rollout_evaluator
from tests.interpreted import interpreted_package, run_json

SHIELD = "puzzles/stackattack/2p-actions-shield-2-turns.toml"
NUMBERS = "puzzles/stackattack/2p-numbers-3-turns.toml"
SQUARE = "puzzles/cardclash/square-in-1.toml"
DEFENCE = "puzzles/cardclash/defence-holds.toml"


def _loaded(path: str) -> tuple[Any, Any, Any]:
    loaded = load_position(path)
    engine = resolve(loaded.game, "compiled").engine
    if engine is None:
        pytest.skip("the compiled core is not built here")
    return loaded.game, loaded.state, engine


def _plain(found: dict[str, Any]) -> Any:
    """A run's result as JSON data, without the wall time."""
    def clean(x: Any) -> Any:
        if isinstance(x, np.ndarray):
            return x.tolist()
        if isinstance(x, list | tuple):
            return [clean(y) for y in x]
        if isinstance(x, dict):
            return {k: clean(v) for k, v in x.items() if k != "seconds"}
        return x

    return clean(found)


# -- DUCT --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("path", [SHIELD, NUMBERS])
def test_duct_lists_the_reference_moves_and_converges_to_the_same_values(path: str) -> None:
    game, state, engine = _loaded(path)
    for seed in (1, 2):
        fast = duct_compiled(game, engine, state, iterations=3000, seed=seed)
        slow = duct(game, state, iterations=3000, seed=seed)
        assert fast.moves == slow.moves == tuple(tuple(game.player_moves(state, p)) for p in range(2))
        assert fast.iterations == 3000 and all(sum(v) == 3000 for v in fast.visits)
        for p in range(2):
            assert sum(fast.strategy[p]) == pytest.approx(1.0)
            assert fast.values[p] == pytest.approx(slow.values[p], rel=0.02)
        # Player 1's most visited card is the same (its first card is far the best in both endgames).
        assert fast.best_move(0) == slow.best_move(0)


def test_duct_is_deterministic_per_seed_for_every_selection() -> None:
    game, state, engine = _loaded(SHIELD)
    vector = engine.encode(state)
    for selection in ("ucb1", "regret-matching", "exp3"):
        runs = [_plain(run_duct(engine, vector, simultaneous=simultaneous_part(engine), iterations=500, seed=seed,
                                selection=selection)) for seed in (7, 7, 8)]
        assert runs[0] == runs[1]
        assert runs[0] != runs[2]
        strategy = duct_compiled(game, engine, state, iterations=500, seed=7, selection=selection).strategy
        assert all(sum(s) == pytest.approx(1.0) for s in strategy)


def test_duct_refuses_what_it_cannot_search() -> None:
    game, state, engine = _loaded(SHIELD)
    with pytest.raises(ValueError, match="selection"):
        duct_compiled(game, engine, state, iterations=10, selection="softmax")
    with pytest.raises(ValueError, match="at least 1"):
        duct_compiled(game, engine, state, iterations=0)


def test_duct_rollout_limit_uses_the_engines_evaluation() -> None:
    # Stack Attack's compiled engine evaluates as the rules engine does (minus each total), so a playout
    # cut after 0 plies scores a new leaf by the evaluation on both engines: the same first values.
    game, state, engine = _loaded(NUMBERS)
    fast = duct_compiled(game, engine, state, iterations=2000, seed=3, rollout_limit=0)
    slow = duct(game, state, iterations=2000, seed=3, rollout_limit=0)
    for p in range(2):
        assert fast.values[p] == pytest.approx(slow.values[p], rel=0.05)


# -- ISMCTS and PIMC ---------------------------------------------------------------------------------


def test_ismcts_lists_the_real_moves_and_finds_the_square() -> None:
    game, state, engine = _loaded(SQUARE)
    wins = {game.format_move(state, m) for m in game.legal_moves(state) if game.is_terminal(game.apply(state, m))}
    for seed in (1, 2, 3):
        fast = ismcts_compiled(game, engine, state, iterations=300, seed=seed)
        slow = ismcts(game, state, iterations=300, seed=seed)
        assert [m.notation for m in fast.moves] == [m.notation for m in slow.moves]
        assert sum(m.visits for m in fast.moves) == fast.iterations == 300
        assert fast.best_notation in wins and slow.best_notation in wins
        assert fast.information == slow.information == "observation of player 0"


def test_ismcts_is_deterministic_per_seed_and_matches_on_a_harder_position() -> None:
    game, state, engine = _loaded(DEFENCE)
    first = ismcts_compiled(game, engine, state, iterations=1500, seed=4)
    again = ismcts_compiled(game, engine, state, iterations=1500, seed=4)
    assert replace(first, seconds=0.0) == replace(again, seconds=0.0)
    other = ismcts_compiled(game, engine, state, iterations=1500, seed=5)
    assert [m.visits for m in first.moves] != [m.visits for m in other.moves]
    slow = ismcts(game, state, iterations=1500, seed=4)
    assert first.best_notation == slow.best_notation  # one move stands out (see analyze's report)


def test_ismcts_at_a_simultaneous_root_reports_the_observers_cards() -> None:
    game, state, engine = _loaded(NUMBERS)
    found = ismcts_compiled(game, engine, state, iterations=400, seed=2, player=1, value_range=(-60.0, 0.0))
    assert [m.move for m in found.moves] == list(game.player_moves(state, 1))
    assert sum(m.visits for m in found.moves) == 400
    search = IsmctsSearch(engine, simultaneous_part(engine), 1, 9, 1.4, -60.0, 0.0, -1, 16)
    rows = np.array([engine.encode(game.sample_state(state, 1, Random(i))) for i in range(50)])
    assert search.run(rows, -1.0) == 50
    assert search.size() == 51


def test_pimc_values_moves_that_end_the_game_exactly_as_the_reference() -> None:
    game, state, engine = _loaded(SQUARE)
    ending = {game.format_move(state, m): float(game.returns(game.apply(state, m))[0])
              for m in game.legal_moves(state) if game.is_terminal(game.apply(state, m))}
    assert ending
    for seed in (1, 2):
        fast = pimc_compiled(game, engine, state, samples=12, seed=seed)
        slow = pimc(game, state, rollout_evaluator(1), samples=12, seed=seed)
        assert [m.notation for m in fast.moves] == [m.notation for m in slow.moves]
        assert [m.count for m in fast.moves] == [m.count for m in slow.moves]
        for ours, theirs in zip(fast.moves, slow.moves, strict=True):
            if ours.notation in ending:
                assert ours.mean == theirs.mean == ending[ours.notation]
        again = pimc_compiled(game, engine, state, samples=12, seed=seed)
        assert replace(fast, seconds=0.0) == replace(again, seconds=0.0)


def test_pimc_at_a_simultaneous_node_values_every_own_card() -> None:
    game, state, engine = _loaded(NUMBERS)
    own, totals = pimc_simultaneous_compiled(game, engine, state, 0, Random(3), samples=6, rollouts=2)
    assert own == list(game.player_moves(state, 0))
    assert len(totals) == len(own) and all(t <= 0 for t in totals)  # penalties only
    assert (own, totals) == pimc_simultaneous_compiled(game, engine, state, 0, Random(3), samples=6, rollouts=2)


# -- analyze and play ----------------------------------------------------------------------------------


def test_analyze_runs_duct_and_ismcts_on_the_engine_asked_for() -> None:
    _loaded(NUMBERS)
    compiled = analyze(NUMBERS, "duct", iterations=500, seed=1)
    reference = analyze(NUMBERS, "duct", iterations=500, seed=1, engine="reference")
    assert compiled.engine == "compiled" and reference.engine == "reference"
    compiled = analyze(DEFENCE, "ismcts", as_player=1, iterations=300, seed=1)
    reference = analyze(DEFENCE, "ismcts", as_player=1, iterations=300, seed=1, engine="reference")
    assert compiled.engine == "compiled" and reference.engine == "reference"
    assert compiled.status == reference.status == "estimate"


def test_play_gives_the_engine_to_the_agents_whose_search_it_runs() -> None:
    game, _, engine = _loaded(NUMBERS)
    specs = ["duct:iterations=10", "pimc:samples=2", "ismcts:iterations=10", "ismcts:iterations=10:guided=false",
             "duct:iterations=10:rollout_limit=3", "lowest"]
    default = on_engine(game, make_agents("stackattack", specs), None, None)
    assert [getattr(a, "engine", None) is not None for a in default] == [True, True, False, True, False, False]
    asked = on_engine(game, make_agents("stackattack", specs), "compiled", None)
    assert [getattr(a, "engine", None) is not None for a in asked] == [True, True, True, True, True, False]
    assert all(getattr(a, "engine", None) is None
               for a in on_engine(game, make_agents("stackattack", specs), "reference", None))
    assert type(default[0].engine) is type(engine)  # type: ignore[attr-defined]


# -- the kernels interpreted ---------------------------------------------------------------------------

_SCRIPT = """
import json
from random import Random
import numpy as np
from stratagem.loading import load_position
from stratagem.solvers import packed_duct, packed_ismcts
from stratagem.solvers.compiled_duct import simultaneous_part
from stratagem.solvers.compiled_ismcts import pimc_compiled

def plain(x):
    if isinstance(x, np.ndarray):
        return x.tolist()
    if isinstance(x, (list, tuple)):
        return [plain(y) for y in x]
    if isinstance(x, dict):
        return {k: plain(v) for k, v in x.items() if k != "seconds"}
    return x

import sys
root = sys.argv[1]
loaded = load_position(root + "/puzzles/stackattack/2p-actions-shield-2-turns.toml")
game, state = loaded.game, loaded.state
engine = __import__("stratagem.models.stackattack", fromlist=["x"]).compiled_engine(game)
out = {"compiled": packed_duct.__file__.endswith(".so") and packed_ismcts.__file__.endswith(".so")}
sp = simultaneous_part(engine)
out["duct"] = [plain(packed_duct.run_duct(engine, engine.encode(state), simultaneous=sp, iterations=150, seed=s,
                                          selection=sel)) for s, sel in ((1, "ucb1"), (2, "exp3"))]
search = packed_ismcts.IsmctsSearch(engine, sp, 0, 5, 1.4, -40.0, 0.0, -1, 16)
rows = np.array([engine.encode(game.sample_state(state, 0, Random(i))) for i in range(80)])
search.run(rows, -1.0)
out["ismcts"] = plain(search.root(True))
walker = packed_ismcts.Playouts(engine, sp, 3, -1, 0.0)
out["pimc"] = plain(walker.own_move_values(rows[0], 0, 3))
square = load_position(root + "/puzzles/cardclash/square-in-1.toml")
cengine = __import__("stratagem.models.cardclash", fromlist=["x"]).compiled_engine(square.game)
found = pimc_compiled(square.game, cengine, square.state, samples=3, seed=2)
out["square"] = [(m.notation, m.count, m.mean) for m in found.moves]
print(json.dumps(out))
"""


def test_interpreted_and_compiled_kernels_search_identically(tmp_path: Path) -> None:
    interpreted = run_json(_SCRIPT, interpreted_package(tmp_path), str(Path.cwd()))
    assert interpreted["compiled"] is False
    here = run_json(_SCRIPT, None, str(Path.cwd()))
    if not here["compiled"]:
        pytest.skip("the compiled core is not built here: nothing to compare the interpreted kernels with")
    assert interpreted == {**here, "compiled": False}

"""UCT with MCTS-Solver compiled over a PackedGame (solvers/packed_uct.py) and its reference-engine face
(solvers/compiled_uct.py), on the toy engines of core/packed_toys.py against the toy reference games.

The compiled search and the Python search (``uct(guided=False)``) draw from different random streams, so
they are compared on what does not depend on the stream: proven values, and the value of the move chosen
once the root is proven. The kernel run interpreted (no compiled module) must give exactly what it gives
compiled: that is checked in a fresh interpreter on a copy of the package without its extension modules.
"""

from __future__ import annotations

import math
import time
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from toygames import NimGame, PigGame

from stratagem import engines
from stratagem.analysis import analyze
from stratagem.core.errors import UnsupportedGame
from stratagem.core.packed_toys import PackedNim, PackedPig
from stratagem.solvers.alphabeta import alphabeta
from stratagem.solvers.compiled_uct import uct_compiled
from stratagem.solvers.expectimax import expectiminimax
from stratagem.solvers.mcts import uct
from stratagem.solvers.packed_uct import UctStopped, run_uct
from tests.interpreted import interpreted_package, run_json

PIG_VALUE = Fraction(5919, 16384)  # expectiminimax's exact value of the default Pig start


def _plain(found: dict[str, Any]) -> dict[str, Any]:
    """A run's result as JSON-comparable data (NaN as None), without the wall time."""
    def clean(x: Any) -> Any:
        if isinstance(x, float) and math.isnan(x):
            return None
        if isinstance(x, list):
            return [clean(y) for y in x]
        return x

    return {k: clean(v.tolist() if hasattr(v, "tolist") else list(v) if isinstance(v, tuple) else v)
            for k, v in found.items() if k != "seconds"}


def test_pig_is_proven_to_the_exact_value_on_both_engines() -> None:
    game, engine = PigGame(), PackedPig()
    state = game.initial_state()
    assert expectiminimax(game, state).value == PIG_VALUE
    compiled = uct_compiled(game, engine, state, iterations=400_000, seed=3)
    reference = uct(game, state, iterations=400_000, seed=3, guided=False)
    assert compiled.proven and reference.proven
    assert compiled.value is not None and reference.value is not None
    assert compiled.value[0] == pytest.approx(float(PIG_VALUE), abs=1e-12)
    assert compiled.value == pytest.approx(reference.value, abs=1e-12)
    assert compiled.iterations < 400_000  # stopped by the proof
    # The chosen move is the one whose proven value is the root's.
    chosen = next(m for m in compiled.moves if m.move == compiled.best_move)
    assert chosen.proven_value == pytest.approx(compiled.value[0], abs=1e-12)
    assert [m.move for m in compiled.moves] == list(game.legal_moves(state))


@pytest.mark.parametrize("piles", [(1, 2), (1, 2, 3), (2, 2, 1)])
def test_nim_values_match_alphabeta(piles: tuple[int, ...]) -> None:
    game, engine = NimGame(piles), PackedNim(len(piles))
    state = game.initial_state()
    exact = alphabeta(game, state).value
    result = uct_compiled(game, engine, state, iterations=200_000, seed=1)
    assert result.proven and result.value is not None
    assert result.value[0] == exact
    reference = uct(game, state, iterations=200_000, seed=1, guided=False)
    assert reference.proven and reference.value == result.value
    if exact == 1:  # a winning move was chosen: its proven value is a win
        chosen = next(m for m in result.moves if m.move == result.best_move)
        assert chosen.proven_value == 1
        assert result.best_move is not None
        assert alphabeta(game, game.apply(state, result.best_move)).value == -1


def test_same_seed_same_search_other_seed_other_search() -> None:
    engine = PackedNim(3)
    start = PackedNim(3).encode(NimGame((3, 4, 5)).initial_state())
    first = _plain(run_uct(engine, start, iterations=3000, seed=7))
    again = _plain(run_uct(engine, start, iterations=3000, seed=7))
    other = _plain(run_uct(engine, start, iterations=3000, seed=8))
    assert first == again
    assert first != other
    assert first["iterations"] == 3000 and first["nodes"] == 3001
    assert sum(first["visits"]) == 3000  # every iteration went through one root move


def test_budgets_and_bad_options() -> None:
    game, engine = NimGame((3, 4, 5)), PackedNim(3)
    state = game.initial_state()
    nothing = uct_compiled(game, engine, state, iterations=0)
    assert nothing.iterations == 0 and len(nothing.moves) == 12
    assert all(m.visits == 0 for m in nothing.moves)
    started = time.perf_counter()
    timed = run_uct(PackedNim(3, 200), PackedNim(3, 200).encode(NimGame((150, 160, 170)).initial_state()),
                    time_limit=0.3)
    assert time.perf_counter() - started < 0.3 * 1.2 + 1
    assert timed["iterations"] > 0
    with pytest.raises(ValueError):
        run_uct(engine, engine.encode(state))
    with pytest.raises(ValueError):
        run_uct(engine, engine.encode(state), iterations=-1)
    with pytest.raises(ValueError):
        run_uct(engine, engine.encode(state), iterations=10, value_range=(1.0, 1.0))
    rolling = PigGame().initial_state()._replace(rolling=True)
    with pytest.raises(UnsupportedGame):
        uct_compiled(PigGame(), PackedPig(), rolling, iterations=10)


def test_rollout_limit_scores_the_middle() -> None:
    engine = PackedNim(3)
    start = engine.encode(NimGame((3, 4, 5)).initial_state())
    cut = run_uct(engine, start, iterations=12, seed=2, rollout_limit=0)
    # The 12 root moves are each tried once and valued at once: 0, the middle of (-1, 1) (none ends the game).
    assert cut["visits"].tolist() == [1] * 12
    assert all(t == 0.0 for row in cut["totals"] for t in row)
    full = run_uct(engine, start, iterations=12, seed=2)
    assert any(t != 0.0 for row in full["totals"] for t in row)


def test_weights_that_are_not_positive_stop_the_search() -> None:
    """A playout that meets a chance node whose weights sum to 0 stops the search with UctStopped. The
    draw below the total is a C function: before it could raise, its ZeroDivisionError was printed as
    unraisable and lost, and the search went on with a made-up outcome."""
    engine = PackedPig(die=(0, 0, 0))
    start = engine.encode(PigGame().initial_state())
    with pytest.raises(UctStopped, match="not positive"):
        run_uct(engine, start, iterations=50, seed=0)
    with pytest.raises(UnsupportedGame, match="not positive"):
        uct_compiled(PigGame(), engine, PigGame().initial_state(), iterations=50, seed=0)


_SCRIPT = """
import json, math, sys
from stratagem.core.packed_toys import PackedNim, PackedPig
from stratagem.solvers import packed_uct
runs = []
nim = PackedNim(3)
runs.append(packed_uct.run_uct(nim, [3, 4, 5, 0], iterations=300, seed=5))
pig = PackedPig()
runs.append(packed_uct.run_uct(pig, [0, 0, 0, 0, 4, 0], iterations=300, seed=5))
def clean(x):
    if isinstance(x, float) and math.isnan(x):
        return None
    if isinstance(x, list):
        return [clean(y) for y in x]
    return x
out = [{k: clean(v.tolist() if hasattr(v, "tolist") else list(v) if isinstance(v, tuple) else v)
        for k, v in r.items() if k != "seconds"} for r in runs]
print(json.dumps({"compiled": packed_uct.__file__.endswith(".so"), "runs": out}))
"""


def test_interpreted_and_compiled_kernels_search_identically(tmp_path: Path) -> None:
    interpreted = run_json(_SCRIPT, interpreted_package(tmp_path))
    assert interpreted["compiled"] is False
    here = run_json(_SCRIPT, None)
    if not here["compiled"]:
        pytest.skip("the compiled core is not built here: nothing to compare the interpreted kernel with")
    assert interpreted["runs"] == here["runs"]


class _Pig(PigGame):
    """Pig as ``analyze`` takes a game: with its options (none)."""

    def setup(self) -> dict[str, Any]:
        return {}


def test_analyze_mcts_runs_on_the_engine_asked_for(monkeypatch: pytest.MonkeyPatch) -> None:
    game = _Pig()
    state = game.initial_state()
    monkeypatch.setattr(engines, "compiled_engine", lambda g: PackedPig() if isinstance(g, PigGame) else None)
    if engines.resolve(game, "compiled").core_missing:  # without a compiler analyze rightly runs the reference
        pytest.skip("the compiled core is not built here")
    compiled = analyze((game, state), "mcts", iterations=400_000, seed=1)
    reference = analyze((game, state), "mcts", iterations=400_000, seed=1, engine="reference")
    assert compiled.engine == "compiled" and reference.engine == "reference"
    assert compiled.engine_note == "" and reference.engine_note == ""
    assert compiled.status == reference.status == "solved"
    assert float(compiled.value) == pytest.approx(float(reference.value), abs=1e-9)  # type: ignore[arg-type]
    # Without an engine for the game, compiled falls back quietly by default and says so when asked by name.
    monkeypatch.setattr(engines, "compiled_engine", lambda g: None)
    quiet = analyze((game, state), "mcts", iterations=200, seed=1)
    assert quiet.engine == "reference" and quiet.engine_note == ""
    asked = analyze((game, state), "mcts", iterations=200, seed=1, engine="compiled")
    assert asked.engine == "reference" and "no compiled engine" in asked.engine_note
    exact = analyze((game, state), "expecti", engine="compiled")
    # expecti has a compiled search now (packed_expectimax), but this game has no engine: said so, by name.
    assert exact.engine == "reference" and "pig has no compiled engine" in exact.engine_note


def test_tic_tac_toe_engine_and_its_draw() -> None:
    from stratagem.core.packed_toys import PackedTicTacToe
    from stratagem.solvers.perft import perft

    engine = PackedTicTacToe()
    start = [0] * 10
    assert [perft(engine, start, depth) for depth in range(6)] == [1, 9, 72, 504, 3024, 15120]
    assert perft(engine, start, 9) == 255168  # every game of noughts and crosses
    found = run_uct(engine, start, iterations=300_000, seed=0)
    assert found["value"] == (0.0, 0.0)  # MCTS-Solver proves the draw


def test_a_kept_tree_goes_on_only_on_the_engine_it_was_searched_on() -> None:
    """``run_uct(tree=...)`` keeps its search for the engine object that search ran on, compared as an
    object (it was keyed by ``id(engine)``, which the kept search made safe only by holding the engine):
    another engine of the same game at the same packed state starts afresh and searches as with no tree;
    the search's own engine goes on from the kept tree."""
    first, second = PackedNim(3), PackedNim(3)
    start = first.encode(NimGame((3, 4, 5)).initial_state())
    tree: dict[str, Any] = {}
    run_uct(first, start, iterations=500, seed=7, tree=tree)
    on_second = _plain(run_uct(second, start, iterations=500, seed=7, tree=tree))
    assert (tree.get("fresh"), tree.get("reused")) == (2, None)
    assert on_second == _plain(run_uct(second, start, iterations=500, seed=7))
    again = _plain(run_uct(second, start, iterations=500, seed=7, tree=tree))
    assert tree["reused"] == 1 and again["nodes"] > on_second["nodes"]  # the kept tree grew

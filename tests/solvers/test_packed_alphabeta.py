"""Alpha-beta with a table compiled over a PackedGame (solvers/packed_alphabeta.py) and its reference-engine
face (solvers/compiled_alphabeta.py), held to the Python alpha-beta on the toy Nim engine: the same value
and the same distance on every position, a principal variation that the reference engine plays to a result
worth that value in that many plies, and the same answers interpreted as compiled.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from toygames import NimGame, PigGame

from stratagem.core.deadline import Deadline
from stratagem.core.errors import StratagemError
from stratagem.core.packed_toys import PackedNim, PackedPig
from stratagem.solvers.alphabeta import alphabeta
from stratagem.solvers.compiled_alphabeta import alphabeta_compiled
from stratagem.solvers.gametree import SOLVED, UNKNOWN
from stratagem.solvers.packed_alphabeta import solve
from tests.interpreted import interpreted_package, run_json


def _positions(count: int, seed: int) -> list[tuple[int, ...]]:
    rng = random.Random(seed)
    found: list[tuple[int, ...]] = []
    while len(found) < count:
        piles = tuple(rng.randrange(0, 5) for _ in range(rng.randrange(1, 4)))
        if any(piles):
            found.append(piles)
    return found


@pytest.mark.parametrize("piles", _positions(40, 11))
def test_value_distance_and_line_as_the_python_search(piles: tuple[int, ...]) -> None:
    game, engine = NimGame(piles), PackedNim(len(piles))
    state = game.initial_state()
    python = alphabeta(game, state)
    compiled = alphabeta_compiled(game, engine, state)
    assert compiled.status == python.status == SOLVED
    assert (compiled.value, compiled.values, compiled.distance) == (python.value, python.values, python.distance)
    # The line is played by the reference engine and ends where the distance says, with the value.
    here = state
    for move in compiled.pv:
        here = game.apply(here, move)
    assert game.is_terminal(here) and len(compiled.pv) == compiled.distance
    assert game.returns(here)[0] == compiled.value
    assert compiled.best_move == compiled.pv[0]
    # With a limit (never reached) the search deepens iteratively: the same value and distance.
    deepened = alphabeta_compiled(game, engine, state, max_nodes=10**7)
    assert (deepened.status, deepened.value, deepened.distance) == (SOLVED, python.value, python.distance)


def test_limits_stop_without_a_claim() -> None:
    game, engine = NimGame((5, 6, 7)), PackedNim(3)
    state = game.initial_state()
    stopped = alphabeta_compiled(game, engine, state, max_nodes=50)
    assert stopped.status == UNKNOWN and stopped.value is None and stopped.values is None
    assert stopped.nodes == 51
    # With a limit the search deepens iteratively: its best move so far is a completed iteration's (a guess).
    assert stopped.best_move in game.legal_moves(state) and stopped.pv == (stopped.best_move,)
    first = alphabeta_compiled(game, engine, state, max_nodes=1)
    assert first.status == UNKNOWN and first.best_move is None  # not even the first iteration completed
    # A limit that is not reached: the iterative search's value and distance are the single pass's.
    limited = alphabeta_compiled(game, engine, state, max_nodes=10**7)
    unlimited = alphabeta_compiled(game, engine, state)
    assert (limited.status, limited.value, limited.distance) == (SOLVED, unlimited.value, unlimited.distance)
    assert limited.distance == alphabeta(game, state).distance
    late = alphabeta_compiled(game, engine, state, time_limit=Deadline(0.0))
    assert late.status == UNKNOWN
    seen: list[int] = []
    alphabeta_compiled(game, engine, state, progress=lambda depth, nodes: seen.append(nodes), progress_every=100)
    assert seen and seen[0] == 100


def test_a_limit_reached_while_the_line_is_found_stops_the_call() -> None:
    """The line is found after the value by null-window tests along it, whose nodes count against the
    limits. A node limit falling there escaped as SearchStopped, so ``stratagem analyze --method alphabeta
    --max-nodes N`` died with an internal error for such N (QA 59 fuzz: a STAKD endgame, N=95). Every limit
    now gives solved or unknown."""
    game, engine = NimGame((2, 3)), PackedNim(2)
    state = game.initial_state()
    whole = alphabeta_compiled(game, engine, state, max_nodes=10**7)
    assert whole.status == SOLVED
    for limit in range(1, whole.nodes + 1):
        found = alphabeta_compiled(game, engine, state, max_nodes=limit)
        assert found.status in (SOLVED, UNKNOWN), limit
        if found.status == SOLVED:
            assert (found.value, found.pv) == (whole.value, whole.pv)


def test_refusals() -> None:
    pig, packed = PigGame(), PackedPig()
    with pytest.raises(StratagemError, match="chance"):
        alphabeta_compiled(pig, packed, pig.initial_state())
    with pytest.raises(StratagemError, match="outside the bounds"):
        alphabeta_compiled(NimGame((1, 2)), PackedNim(2), NimGame((1, 2)).initial_state(), lo=0, hi=1)
    with pytest.raises(ValueError):
        solve(PackedNim(2), [1, 2, 0], lo=1, hi=1)


def test_a_small_table_gives_the_same_answers() -> None:
    engine = PackedNim(3)
    start = engine.encode(NimGame((4, 5, 6)).initial_state())
    big = solve(engine, start)
    small = solve(engine, start, table_bits=2)
    assert (big["value"], big["distance"]) == (small["value"], small["distance"])
    assert small["nodes"] > big["nodes"]


_SCRIPT = """
import json
from stratagem.core.packed_toys import PackedNim
from stratagem.solvers import packed_alphabeta
found = packed_alphabeta.solve(PackedNim(3), [2, 3, 4, 0], table_bits=4)
line = [[list(map(int, s)), list(map(int, m))] for s, m in found.pop("pv")]
found.pop("seconds")
print(json.dumps({"compiled": packed_alphabeta.__file__.endswith(".so"), "found": found, "line": line}))
"""


def test_interpreted_and_compiled_kernels_search_identically(tmp_path: Path) -> None:
    interpreted = run_json(_SCRIPT, interpreted_package(tmp_path))
    assert interpreted["compiled"] is False
    here = run_json(_SCRIPT, None)
    if not here["compiled"]:
        pytest.skip("the compiled core is not built here: nothing to compare the interpreted kernel with")
    assert interpreted["found"] == here["found"] and interpreted["line"] == here["line"]

"""The compiled expectiminimax, paranoid and max^n searches (solvers/packed_expectimax.py,
solvers/packed_maxn.py and their reference-engine faces compiled_expectimax.py, compiled_maxn.py) held to
the Python searches (solvers/expectimax.py, solvers/multiplayer.py): the same exact values (fractions
where chance makes them) on the toy Pig engine with every Star setting, on every shipped endgame with
chance or with three or more players whose Python search is quick, and on random positions of Stratatak,
STAKD and Card Clash with 2-4 players; lines the reference engine plays; limits that claim nothing; and
the same answers interpreted as compiled.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from toygames import PigGame

from stratagem.core.deadline import Deadline
from stratagem.core.errors import StratagemError
from stratagem.core.game import CHANCE
from stratagem.core.packed_toys import PackedPig
from stratagem.engines import resolve
from stratagem.loading import load_position
from stratagem.matches import new_game
from stratagem.models.stratatak.puzzle import game_from_setup as stratatak_game
from stratagem.solvers.alphabeta import return_bounds
from stratagem.solvers.compiled_expectimax import expectiminimax_compiled, paranoid_compiled
from stratagem.solvers.compiled_maxn import maxn_compiled
from stratagem.solvers.expectimax import expectiminimax
from stratagem.solvers.gametree import SOLVED, UNKNOWN
from stratagem.solvers.multiplayer import maxn, paranoid
from stratagem.solvers.packed_expectimax import solve
from tests.interpreted import interpreted_package, run_json

ROOT = Path(__file__).resolve().parents[2]


def _pig_positions() -> list[tuple[int, int]]:
    return [(target, turns) for target in (2, 4, 5) for turns in (1, 3, 5)]


@pytest.mark.parametrize(("target", "turns"), _pig_positions())
@pytest.mark.parametrize("star", [0, 1, 2])
def test_pig_values_are_the_python_searches(target: int, turns: int, star: int) -> None:
    game, engine = PigGame(target, turns), PackedPig(target, turns)
    state = game.initial_state()
    python = expectiminimax(game, state, lo=-1, hi=1, star=star)
    compiled = expectiminimax_compiled(game, engine, state, lo=-1, hi=1, star=star)
    assert compiled.status == python.status == SOLVED
    assert (compiled.value, compiled.values) == (python.value, python.values)
    for player in (0, 1):
        assert paranoid_compiled(game, engine, state, player, star=star).value == paranoid(
            game, state, player, lo=-1, hi=1, star=star).value
    # The line (up to the first chance node) is legal on the reference engine.
    here = state
    for move in compiled.pv:
        assert game.to_move(here) >= 0
        here = game.apply(here, move)
    assert compiled.best_move == (compiled.pv[0] if compiled.pv else None)
    vector = maxn_compiled(game, engine, state)
    assert vector.values == maxn(game, state).values


def test_pig_from_chance_and_mid_game_positions() -> None:
    game, engine = PigGame(5, 4), PackedPig(5, 4)
    rng = random.Random(3)
    checked = 0
    for _ in range(40):
        state = game.initial_state()
        for _ in range(rng.randrange(0, 8)):
            if game.is_terminal(state):
                break
            if game.to_move(state) == CHANCE:
                state = game.apply(state, rng.choice([o for o, _ in game.chance_outcomes(state)]))
            else:
                state = game.apply(state, rng.choice(list(game.legal_moves(state))))
        if game.is_terminal(state):
            continue
        assert expectiminimax_compiled(game, engine, state).value == expectiminimax(game, state, lo=-1, hi=1).value
        checked += 1
    assert checked > 20


def test_limits_stop_without_a_claim() -> None:
    game, engine = PigGame(6, 6), PackedPig(6, 6)
    state = game.initial_state()
    stopped = expectiminimax_compiled(game, engine, state, max_nodes=50)
    assert stopped.status == UNKNOWN and stopped.value is None and stopped.values is None
    assert stopped.nodes == 51
    assert expectiminimax_compiled(game, engine, state, time_limit=Deadline(0.0)).status == UNKNOWN
    assert maxn_compiled(game, engine, state, max_nodes=10).status == UNKNOWN
    seen: list[int] = []
    expectiminimax_compiled(game, engine, state, progress=lambda depth, nodes: seen.append(nodes), progress_every=100)
    assert seen and seen[0] == 100


def test_a_limit_reached_while_the_line_is_found_stops_the_call() -> None:
    """The line is found after the value by re-searching the moves along it, and those nodes count against
    the limits. A node limit falling there (between the search's nodes and the whole call's) escaped as
    SearchStopped, so ``stratagem analyze --method expecti --max-nodes N`` (or paranoid, maxn) died with an
    internal error for such N (QA 59 fuzz: a STAKD endgame). Every limit now gives solved or unknown."""
    game, engine = PigGame(2, 3), PackedPig(2, 3)
    state = game.initial_state()
    for search in (expectiminimax_compiled, maxn_compiled):
        whole = search(game, engine, state)
        assert whole.status == SOLVED
        for limit in range(1, whole.nodes + 1):
            found = search(game, engine, state, max_nodes=limit)
            assert found.status in (SOLVED, UNKNOWN), (search.__name__, limit)
            if found.status == SOLVED:
                assert found.values == whole.values and found.pv == whole.pv


def test_refusals() -> None:
    game, engine = PigGame(3, 3), PackedPig(3, 3)
    with pytest.raises(StratagemError, match="outside the bounds"):
        expectiminimax_compiled(game, engine, game.initial_state(), lo=0, hi=1)
    with pytest.raises(ValueError):
        solve(engine, engine.encode(game.initial_state()), 0, lo=1, hi=1)
    with pytest.raises(ValueError):
        solve(engine, engine.encode(game.initial_state()), 2)


def test_a_small_table_gives_the_same_values() -> None:
    engine = PackedPig(5, 5)
    start = engine.encode(PigGame(5, 5).initial_state())
    big = solve(engine, start, 0)
    small = solve(engine, start, 0, table_bits=2)
    assert big["value"] == small["value"]
    assert small["nodes"] > big["nodes"]


# -- the games' engines ---------------------------------------------------------------------------------

def _shipped(kind: str) -> list[str]:
    """Shipped positions with chance below the root (``chance``) or three or more players (``many``)."""
    found = []
    for game_dir in ("stratatak", "cardclash", "stakd"):
        for path in sorted((ROOT / "puzzles" / game_dir).glob("*.toml")):
            position = load_position(str(path))
            if kind == "many" and position.game.num_players > 2:
                found.append(str(path))
            if kind == "chance" and position.game.num_players == 2 and game_dir == "stratatak":
                found.append(str(path))
    return found


def _name(path: str) -> str:
    return "/".join(Path(path).parts[-2:])


@pytest.mark.parametrize("path", _shipped("chance"), ids=_name)
def test_stratatak_endgames_are_the_python_values(path: str) -> None:
    position = load_position(path)
    game, state = position.game, position.state
    choice = resolve(game, "compiled")
    if choice.core_missing:  # an install without a compiler: nothing to hold to the Python values
        pytest.skip("the compiled core is not built here")
    engine = choice.engine
    assert engine is not None
    python = expectiminimax(game, state, lo=-1, hi=1)
    compiled = expectiminimax_compiled(game, engine, state)
    assert compiled.status == python.status == SOLVED
    assert compiled.value == python.value and compiled.values == python.values
    assert compiled.best_move in game.legal_moves(state)


@pytest.mark.parametrize("path", _shipped("many"), ids=_name)
def test_many_player_endgames_are_the_python_values(path: str) -> None:
    position = load_position(path)
    game, state = position.game, position.state
    choice = resolve(game, "compiled")
    if choice.core_missing:  # an install without a compiler: nothing to hold to the Python values
        pytest.skip("the compiled core is not built here")
    engine = choice.engine
    assert engine is not None
    low, high = return_bounds(game)
    mover = game.to_move(state)
    python = paranoid(game, state, lo=low, hi=high)
    compiled = paranoid_compiled(game, engine, state)
    assert (compiled.status, compiled.value, compiled.player) == (python.status, python.value, python.player)
    assert compiled.values is None and compiled.best_move in game.legal_moves(state)
    assert compiled.player == mover


def _random_positions(game: Any, count: int, seed: int, solvable: Any) -> list[Any]:
    """Decision positions a few plies before the end of random games (random moves, chance outcomes drawn
    by their probabilities) that ``solvable(state)`` accepts, one per game."""
    rng = random.Random(seed)
    found: list[Any] = []
    for _ in range(count * 6):
        state = game.initial_state()
        seen: list[Any] = []
        while not game.is_terminal(state):
            mover = game.to_move(state)
            if mover == CHANCE:
                outcomes = list(game.chance_outcomes(state))
                state = game.apply(state, rng.choices([o for o, _ in outcomes], [float(p) for _, p in outcomes])[0])
                continue
            seen.append(state)
            state = game.apply(state, rng.choice(list(game.legal_moves(state))))
        back = rng.randrange(1, 9)
        if len(seen) >= back and solvable(seen[-back]):
            found.append(seen[-back])
        if len(found) >= count:
            break
    return found


def _quick(game: Any, search: Any, limit: int) -> Any:
    def accept(state: Any) -> bool:
        return bool(search(game, state, limit).status == SOLVED)
    return accept


@pytest.mark.parametrize(("name", "players"), [("stratatak", 2), ("stakd", 2), ("stakd", 3), ("stakd", 4),
                                               pytest.param("cardclash", 3, marks=pytest.mark.slow)])  # 14 s
def test_random_positions_are_the_python_values(name: str, players: int) -> None:
    # Stratatak within a battle limit (an analysis horizon), as its endgames are: unlimited, a random
    # game's lines run past the kernels' 512 plies (the analysis then searches in Python).
    game = new_game(name, players) if name != "stratatak" else stratatak_game({"battle_limit": 6}, "options")
    engine = resolve(game, "compiled").engine
    if engine is None:
        pytest.skip(f"{name} with {players} players has no compiled engine here")
    low, high = return_bounds(game)
    if players == 2:
        def python(g: Any, s: Any, limit: int | None = None) -> Any:
            return expectiminimax(g, s, lo=low, hi=high, max_nodes=limit)
    else:
        def python(g: Any, s: Any, limit: int | None = None) -> Any:
            return paranoid(g, s, lo=low, hi=high, max_nodes=limit)
    positions = _random_positions(game, 4, players, _quick(game, python, 2000))
    assert len(positions) >= 3
    ties = 0
    for state in positions:
        reference = python(game, state)
        if players == 2:
            compiled = expectiminimax_compiled(game, engine, state)
        else:
            compiled = paranoid_compiled(game, engine, state)
        assert (compiled.status, compiled.value) == (reference.status, reference.value), game.format_state(state)
        if players > 2:  # every player's guarantee, and max^n, where the Python search is quick
            for player in range(players):
                slow = paranoid(game, state, player, lo=low, hi=high, max_nodes=5000)
                if slow.status == SOLVED:
                    assert paranoid_compiled(game, engine, state, player).value == slow.value
            slow = maxn(game, state, max_nodes=5000)
            if slow.status == SOLVED:
                # The tie rule (ties go to the first move in the legal order, the compiled engines listing
                # the reference's order) is part of max^n's answer: the same move and line, not just values.
                fast = maxn_compiled(game, engine, state)
                assert fast.values == slow.values
                assert (fast.best_move, fast.pv) == (slow.best_move, slow.pv), game.format_state(state)
                ties += 1
    assert players == 2 or ties > 0  # max^n's move was compared somewhere


# -- interpreted and compiled -----------------------------------------------------------------------------

_SCRIPT = """
import json
from stratagem.core.packed_toys import PackedPig
from stratagem.solvers import packed_expectimax, packed_maxn
engine = PackedPig(5, 4)
start = [0, 0, 0, 0, 4, 0]  # scores, points at risk, player, turns left, die rolling
out = {"compiled": packed_expectimax.__file__.endswith(".so") and packed_maxn.__file__.endswith(".so")}
for star in (0, 1, 2):
    found = packed_expectimax.solve(engine, start, 0, star=star, table_bits=5)
    out[star] = [str(found["value"]), found["nodes"], found["hits"], [[list(map(int, s)), list(map(int, m))]
                                                                        for s, m in found["pv"]]]
vector = packed_maxn.solve(engine, start, table_bits=5)
out["maxn"] = [[str(v) for v in vector["vector"]], vector["nodes"], vector["hits"]]
print(json.dumps(out))
"""


def test_interpreted_and_compiled_kernels_search_identically(tmp_path: Path) -> None:
    interpreted = run_json(_SCRIPT, interpreted_package(tmp_path))
    assert interpreted.pop("compiled") is False
    here = run_json(_SCRIPT, None)
    if not here.pop("compiled"):
        pytest.skip("the compiled core is not built here: nothing to compare the interpreted kernel with")
    assert interpreted == here

"""Stratatak's compiled move-ordering hint (``engine.StratatakOrder``, a ``core.packed_order.MoveOrder``).

- At every attack reached from the shipped endgames and from seeded deals under random options, the hint's
  keys sort the legal plays exactly as the reference's ``order_moves`` does; defences and chance draws have
  no hint (the search's own order stands there).
- The compiled searches with the hint find the same values (and alpha-beta the same distances) as without
  it, on every shipped endgame, and visit fewer nodes in total; run-of-reds, searched by expectiminimax,
  visits no more nodes than the reference search with the game's ordering.
- The interpreted kernels and engine (the whole tree without its compiled modules) search run-of-reds and
  attacker-only-one-way exactly as the compiled ones: same value, nodes and principal variation.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from stratagem.core.game import CHANCE
from stratagem.models.stratatak.cards import Options
from stratagem.models.stratatak.engine import StratatakEngine
from stratagem.models.stratatak.position import ATTACK
from stratagem.models.stratatak.puzzle import load_position
from stratagem.models.stratatak.rules import StratatakGame, deal
from stratagem.solvers import packed_alphabeta, packed_expectimax
from stratagem.solvers.expectimax import expectiminimax
from tests.interpreted import interpreted_package, run_json

from .support import PUZZLES

ENDGAMES = sorted(PUZZLES.glob("*.toml"))


def _walk(game: StratatakGame, state: Any, limit: int, rng: random.Random) -> list[Any]:
    """Up to ``limit`` decision states below ``state`` (depth first, children shuffled)."""
    found: list[Any] = []
    stack = [state]
    while stack and len(found) < limit:
        here = stack.pop()
        if game.is_terminal(here):
            continue
        if game.to_move(here) == CHANCE:
            stack.extend(game.apply(here, outcome) for outcome, _ in game.chance_outcomes(here))
            continue
        found.append(here)
        children = [game.apply(here, move) for move in game.legal_moves(here)]
        rng.shuffle(children)
        stack.extend(children)
    return found


def _check_order(game: StratatakGame, states: list[Any]) -> int:
    engine = StratatakEngine(game)
    hint = engine.move_order()
    attacks = 0
    for state in states:
        moves = list(game.legal_moves(state))
        vector = engine.encode(state)
        records = engine.legal_moves(vector)
        assert [engine.decode_move(vector, r) for r in records] == moves
        keys = hint.move_keys(vector, records)
        if state.phase != ATTACK:
            assert keys is None, game.format_state(state)
            continue
        attacks += 1
        assert keys is not None
        ordered = [moves[i] for i in sorted(range(len(moves)), key=lambda i: (keys[i], i))]
        assert ordered == list(game.order_moves(state, moves)), game.format_state(state)
    return attacks


@pytest.mark.parametrize("path", ENDGAMES, ids=lambda p: p.stem)
def test_hint_orders_attacks_as_the_reference_on_the_endgames(path: Path) -> None:
    loaded = load_position(path)
    assert _check_order(loaded.game, _walk(loaded.game, loaded.state, 400, random.Random(0))) > 0


def test_hint_orders_attacks_as_the_reference_on_random_deals() -> None:
    rng = random.Random(28)
    attacks = 0
    for _ in range(12):
        options = Options(star_mode=rng.choice(["wildcard", "addon"]), hand_size=rng.choice([3, 4, 5, 7]),
                          battle_limit=rng.choice([2, 3]))
        game = StratatakGame(options)
        attacks += _check_order(game, _walk(game, game.limited(deal(options, rng)), 150, rng))
    assert attacks > 100


def _solve(path: Path, ordering: bool) -> tuple[Any, int]:
    loaded = load_position(path)
    engine = StratatakEngine(loaded.game)
    vector = engine.encode(loaded.state)
    try:
        found = packed_alphabeta.solve(engine, vector, ordering=ordering)
        return (found["value"], found["distance"]), found["nodes"]
    except packed_alphabeta.SearchRefused:  # chance below the root: expectiminimax
        mover = loaded.game.to_move(loaded.state)
        found = packed_expectimax.solve(engine, vector, max(mover, 0), ordering=ordering)
        return found["value"], found["nodes"]


def test_hint_keeps_every_value_and_saves_nodes() -> None:
    with_hint = without = 0
    for path in ENDGAMES:
        value, nodes = _solve(path, True)
        plain, plain_nodes = _solve(path, False)
        assert value == plain, path.stem
        with_hint += nodes
        without += plain_nodes
    assert with_hint < without


def test_run_of_reds_searches_no_more_nodes_than_the_reference() -> None:
    loaded = load_position(PUZZLES / "run-of-reds.toml")
    value, nodes = _solve(PUZZLES / "run-of-reds.toml", True)
    reference = expectiminimax(loaded.game, loaded.state)
    assert value == reference.value == 1
    assert nodes <= reference.nodes


_SCRIPT = """
import json, sys
from stratagem.models.stratatak.engine import StratatakEngine
from stratagem.models.stratatak.puzzle import load_position
from stratagem.solvers import packed_alphabeta, packed_expectimax
out = {"compiled": all(m.__file__.endswith(".so") for m in (packed_alphabeta, packed_expectimax))}
for name in ("run-of-reds", "attacker-only-one-way"):
    loaded = load_position(sys.argv[1] + "/" + name + ".toml")
    engine = StratatakEngine(loaded.game)
    vector = engine.encode(loaded.state)
    if name == "run-of-reds":
        found = packed_expectimax.solve(engine, vector, 0)
        found["value"] = str(found["value"])
    else:
        found = packed_alphabeta.solve(engine, vector)
    found["pv"] = [[list(map(int, s)), list(map(int, m))] for s, m in found["pv"]]
    found.pop("seconds")
    out[name] = found
print(json.dumps(out))
"""


def test_interpreted_and_compiled_search_identically_with_the_hint(tmp_path: Path) -> None:
    interpreted = run_json(_SCRIPT, interpreted_package(tmp_path), str(PUZZLES))
    assert interpreted.pop("compiled") is False
    here = run_json(_SCRIPT, None, str(PUZZLES))
    if not here.pop("compiled"):
        pytest.skip("the compiled core is not built here: nothing to compare the interpreted kernels with")
    assert interpreted == here


def test_order_for_takes_the_engine_s_ordering_else_the_game_s_guide() -> None:
    from stratagem.core.packed_order import MoveOrder, order_for

    loaded = load_position(PUZZLES / "run-of-reds.toml")
    engine = StratatakEngine(loaded.game)
    assert type(order_for(loaded.game, engine)).__name__ == "StratatakOrder"

    class Guided:  # a game handing over an ordering for an engine without its own
        def __init__(self, found: Any) -> None:
            self.found = found

        def compiled_guide(self, engine: Any) -> Any:
            return self.found

    plain = object()  # an engine without move_order
    order = MoveOrder(engine)
    assert order_for(Guided(order), plain) is order
    assert order_for(Guided("not an ordering"), plain) is None
    assert order_for(Guided(None), plain) is None
    assert order_for(object(), plain) is None

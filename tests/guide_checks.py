"""Checks every game's compiled guide (``game.compiled_guide(engine)``, a ``core/packed_guide.Guide``)
shares with the others: that its tests can fail, that guided compiled UCT searches as the reference
``uct(guided=True)`` does (and guided compiled ISMCTS as ``ismcts(guided=True)``, where the game hides
something), and that ``play`` runs a guided ``mcts`` agent compiled by default.

Card Clash's, Stratatak's and STAKD's guide tests each carried their own copy of these; one copy here
keeps the three held to the same standard.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import pytest

from stratagem.engines import compiled_engine, resolve
from stratagem.solvers.compiled_uct import compiled_guide, uct_compiled
from stratagem.solvers.mcts import uct
from tests.interpreted import interpreted_package, run_json


def wrong_keys_caught(positions: Iterable[tuple[Any, Any]]) -> tuple[int, int]:
    """Of the positions (terminal ones skipped) whose guide keys are not all equal, how many there were
    and in how many the keys with the least one raised above the rest sort the moves otherwise than the
    game's ``order_moves``: a comparison of orders that can fail."""
    tried = caught = 0
    for game, state in positions:
        if game.is_terminal(state):
            continue
        engine = compiled_engine(game)
        guide = compiled_guide(game, engine)
        assert guide is not None
        vector = engine.encode(state)
        records = engine.legal_moves(vector)
        moves = [engine.decode_move(vector, r) for r in records]
        keys = guide.move_keys(vector, records)
        if keys is None or len(set(keys)) < 2:
            continue
        tried += 1
        wrong = list(keys)
        wrong[keys.index(min(keys))] = max(keys) + 1
        order = [m for _, _, m in sorted(zip(wrong, range(len(moves)), moves, strict=True))]
        caught += order != list(game.order_moves(state, moves))
    return tried, caught


def interpreted_and_compiled(script: str, folder: Any) -> tuple[dict[str, Any], dict[str, Any]]:
    """What ``script`` prints (JSON with ``compiled``, ``keys`` and ``values``) run on the package as plain
    Python (a copy in ``folder``) and as built, the guide's keys and values already held equal; skipped
    where the kernels are not compiled here (nothing to compare with)."""
    interpreted = run_json(script, interpreted_package(folder))
    assert interpreted["compiled"] == [False, False]
    here = run_json(script, None)
    if not all(here["compiled"]):
        pytest.skip("the compiled core is not built here: nothing to compare the interpreted kernels with")
    assert interpreted["keys"] == here["keys"] and interpreted["values"] == here["values"]
    return interpreted, here


def assert_guided_searches_agree(game: Any, state: Any, seed: int, iterations: int = 300) -> None:
    """With the evaluation at every new leaf (``rollout_limit=0``, no randomness left), guided compiled UCT
    visits the moves as ``uct(guided=True)`` does, visit for visit; unguided, it is another search."""
    engine = compiled_engine(game)
    fast = uct_compiled(game, engine, state, iterations=iterations, seed=seed, rollout_limit=0)
    slow = uct(game, state, iterations=iterations, seed=seed, rollout_limit=0)
    assert [(s.notation, s.visits, s.proven_value) for s in fast.moves] == [
        (s.notation, s.visits, s.proven_value) for s in slow.moves]
    assert [s.mean for s in fast.moves] == pytest.approx([s.mean for s in slow.moves], abs=1e-12)
    assert fast.best_move == slow.best_move
    plain = uct_compiled(game, engine, state, iterations=iterations, seed=seed, rollout_limit=0, guided=False)
    assert [s.visits for s in plain.moves] != [s.visits for s in fast.moves]


def assert_play_runs_guided_mcts_compiled(name: str, game: Any, max_plies: int) -> None:
    """``play``'s default engine for a guided ``mcts`` agent is the compiled one where the game hands over a
    compiled guide, with the tree kept between moves, and no hint is given."""
    from stratagem.matches import play

    if resolve(game, "compiled").name != "compiled":
        pytest.skip("no compiled engine here")
    said: list[str] = []
    result = play(name, ["mcts:iterations=50", "random"], games=1, seed=1, max_plies=max_plies, hint=said.append)
    params = result.agents[0].params
    assert params["engine"] == "compiled" and params["guided"] is True and params["reuse"] is True
    assert said == []


def assert_guided_ismcts_agrees(game: Any, state: Any, seed: int, iterations: int = 300) -> None:
    """With the evaluation at every new leaf (``rollout_limit=0``) and no chance node within the tree, guided
    ISMCTS draws nothing but its determinisations, and the compiled search is fed the very ones
    ``ismcts(guided=True)`` draws from ``Random(seed)``: the two visit the same moves the same number of
    times, with the same means; unguided, the compiled search is another one (untried moves at random)."""
    from stratagem.solvers.compiled_ismcts import ismcts_compiled
    from stratagem.solvers.mcts import ismcts

    engine = compiled_engine(game)
    assert compiled_guide(game, engine) is not None
    fast = ismcts_compiled(game, engine, state, iterations=iterations, seed=seed, rollout_limit=0, guided=True)
    slow = ismcts(game, state, iterations=iterations, seed=seed, rollout_limit=0, guided=True)
    assert fast.iterations == slow.iterations == iterations
    assert [(s.notation, s.visits) for s in fast.moves] == [(s.notation, s.visits) for s in slow.moves]
    assert [s.mean for s in fast.moves] == pytest.approx([s.mean for s in slow.moves], abs=1e-12)
    assert fast.best_move == slow.best_move
    assert sum(s.visits > 0 for s in fast.moves) > 1  # a comparison that says something: more than one move tried
    plain = ismcts_compiled(game, engine, state, iterations=iterations, seed=seed, rollout_limit=0)
    assert [s.visits for s in plain.moves] != [s.visits for s in fast.moves]

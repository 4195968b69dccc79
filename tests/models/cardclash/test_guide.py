"""Card Clash's compiled guidance (``guide.CardClashGuide``) against the reference's knowledge, and the
guided compiled UCT against the guided reference UCT.

- On random positions (2 to 4 players, both variants, several tables; the dealt game's decision and
  waiting-draw states too) the guide's keys sort the legal moves exactly as ``threats.order`` does
  (``order_moves``) and its evaluation equals ``CardClashGame.evaluate`` float for float. The default run
  checks a sample of about 300 positions, ``-m slow`` about 4,000. The sample must be one where the
  ordering and the evaluation say something (checked), and a guide with one key changed fails.
- Guided UCT on Card Clash uses no randomness at all (the order is the game's, a leaf is valued by the
  evaluation, there are no chance nodes), so the compiled search and ``uct(guided=True)`` must visit the
  same moves the same number of times: they do, move for move.
- Same seed, same search; the kernels run interpreted give what they give compiled.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from stratagem.core.game import CHANCE
from stratagem.models.cardclash import compiled_engine
from stratagem.models.cardclash.guide import EXPLORATION, CardClashGuide
from stratagem.models.cardclash.position import State
from stratagem.models.cardclash.rules import CardClashGame
from stratagem.models.cardclash.threats import effect
from stratagem.openspiel.cardclash import DealtCardClash
from stratagem.solvers.compiled_uct import compiled_guide, uct_compiled
from stratagem.solvers.mcts import SearchTree, sample_outcome, uct
from tests.guide_checks import interpreted_and_compiled, wrong_keys_caught

TABLES = ((6, 6), (4, 4), (3, 5), (8, 3))


def _positions(seed: int, count: int) -> list[tuple[CardClashGame, State]]:
    """``count`` random non-terminal positions of random games (random plies from a fresh deal)."""
    rng = random.Random(seed)
    found: list[tuple[CardClashGame, State]] = []
    while len(found) < count:
        width, height = rng.choice(TABLES)
        game = CardClashGame(rng.randint(2, 4), width=width, height=height, strategic=rng.random() < 0.5,
                             seed=rng.randrange(10**9))
        state = game.initial_state()
        for _ in range(rng.randrange(45)):
            if game.is_terminal(state):
                break
            state = game.apply(state, rng.choice(game.legal_moves(state)))
        if not game.is_terminal(state):
            found.append((game, state))
    return found


def _guide_order(guide: CardClashGuide, vector: Any, records: Any, moves: list[Any]) -> list[Any]:
    keys = guide.move_keys(vector, records)
    assert keys is not None
    return [move for _, _, move in sorted(zip(keys, range(len(moves)), moves, strict=True))]


def _check(count: int, seed: int) -> tuple[int, int]:
    """Compare on ``count`` positions; how many had an ordering other than the legal order, and how many a
    non-zero evaluation."""
    reordered = valued = 0
    for game, state in _positions(seed, count):
        engine = compiled_engine(game)
        guide = compiled_guide(game, engine)
        assert isinstance(guide, CardClashGuide)
        vector = engine.encode(state)
        records = engine.legal_moves(vector)
        moves = [engine.decode_move(vector, r) for r in records]
        assert moves == game.legal_moves(state)
        reference = list(game.order_moves(state, moves))
        assert _guide_order(guide, vector, records, moves) == reference, game.format_state(state)
        assert guide.values(vector) == game.evaluate(state), game.format_state(state)
        reordered += reference != moves
        valued += any(v != 0 for v in game.evaluate(state))
    return reordered, valued


def test_guide_equals_the_reference_ordering_and_evaluation() -> None:
    reordered, valued = _check(300, 1)
    assert reordered > 200 and valued > 250  # the sample is one where the guidance says something


@pytest.mark.slow
def test_guide_equals_the_reference_on_many_positions() -> None:
    _check(4000, 2)


def test_guide_on_the_dealt_game() -> None:
    rng = random.Random(5)
    game = DealtCardClash(CardClashGame(2))
    engine = compiled_engine(game)
    guide = compiled_guide(game, engine)
    assert guide is not None
    checked = 0
    for _ in range(12):
        table = game.initial_state()
        while game.to_move(table) >= 0 or game.to_move(table) == CHANCE:
            mover = game.to_move(table)
            vector = engine.encode(table)
            if mover == CHANCE:
                if guide.values(vector) is not None and table.state.board:
                    assert guide.values(vector) == game.evaluate(table)
                table = game.apply(table, sample_outcome(game.chance_outcomes(table), rng))
                continue
            records = engine.legal_moves(vector)
            moves = [engine.decode_move(vector, r) for r in records]
            assert moves == list(game.legal_moves(table))
            assert _guide_order(guide, vector, records, moves) == list(game.order_moves(table, moves))
            assert guide.values(vector) == game.evaluate(table)
            checked += 1
            table = game.apply(table, rng.choice(moves))
    assert checked > 100


def test_a_wrong_key_is_caught() -> None:
    """The comparison can fail: the guide's keys with the best move's key raised order differently."""
    tried, caught = wrong_keys_caught(_positions(3, 40))
    assert tried > 30 and caught == tried


def test_evaluation_of_a_finished_round_is_its_returns() -> None:
    for game, state in _positions(4, 30):
        engine = compiled_engine(game)
        guide = compiled_guide(game, engine)
        assert guide is not None
        while not game.is_terminal(state):
            state = game.apply(state, game.legal_moves(state)[0])
        assert guide.values(engine.encode(state)) == game.returns(state)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_guided_compiled_uct_visits_as_the_reference_does(seed: int) -> None:
    """No randomness in guided UCT on Card Clash: the two searches must agree visit for visit."""
    game, state = _positions(10 + seed, 1)[0]
    engine = compiled_engine(game)
    fast = uct_compiled(game, engine, state, iterations=300, seed=seed, exploration=0.8)
    slow = uct(game, state, iterations=300, seed=seed, exploration=0.8)
    assert [(s.notation, s.visits, s.proven_value) for s in fast.moves] == [
        (s.notation, s.visits, s.proven_value) for s in slow.moves]
    assert [s.mean for s in fast.moves] == pytest.approx([s.mean for s in slow.moves], abs=1e-12)
    assert fast.best_move == slow.best_move
    # by default the compiled search takes the exploration constant the guide declares
    declared = uct_compiled(game, engine, state, iterations=300, seed=seed)
    assert [s.visits for s in declared.moves] == [
        s.visits for s in uct_compiled(game, engine, state, iterations=300, seed=seed, exploration=EXPLORATION).moves]
    # unguided, the compiled search is another (plain) one
    plain = uct_compiled(game, engine, state, iterations=300, seed=seed, guided=False)
    assert [s.visits for s in plain.moves] != [s.visits for s in fast.moves]


def test_guided_compiled_uct_is_deterministic_and_proves_a_won_position() -> None:
    game, state = _positions(20, 1)[0]
    engine = compiled_engine(game)
    first = uct_compiled(game, engine, state, iterations=500, seed=4)
    again = uct_compiled(game, engine, state, iterations=500, seed=4)
    assert [(s.visits, s.mean) for s in first.moves] == [(s.visits, s.mean) for s in again.moves]
    # a square in one for the player to move: the search proves the win
    game, state = _square_in_one()
    found = uct_compiled(game, compiled_engine(game), state, iterations=2000, seed=0)
    assert found.proven and found.value is not None and found.value[found.player] == 1.0


def _square_in_one() -> tuple[CardClashGame, State]:
    """A random two-player position (MCTS-Solver is for two) whose player to move can complete a square."""
    for game, state in _positions(30, 400):
        if game.num_players != 2:
            continue
        moves = game.legal_moves(state)
        if effect(state, game.order_moves(state, moves)[0], game.rules).wins:
            return game, state
    raise AssertionError("no square-in-one among the random positions")


_SCRIPT = """
import json, random
from stratagem.models.cardclash.rules import CardClashGame
from stratagem.models.cardclash.engine import CardClashEngine
from stratagem.models.cardclash import guide as guide_module
from stratagem.solvers import packed_uct
from stratagem.solvers.compiled_uct import compiled_guide
game = CardClashGame(2, seed=11)
state = game.initial_state()
rng = random.Random(3)
for _ in range(8):
    state = game.apply(state, rng.choice(game.legal_moves(state)))
engine = CardClashEngine.from_game(game)
vector = engine.encode(state)
guide = compiled_guide(game, engine)
runs = [packed_uct.run_uct(engine, vector, iterations=400, seed=5, guide=guide, widening=2.0),
        packed_uct.run_uct(engine, vector, iterations=400, seed=5)]
tree = {}
first = packed_uct.run_uct(engine, vector, iterations=400, seed=5, guide=guide, widening=2.0, tree=tree)
child = engine.successor(vector, first["records"][0])
grandchild = engine.successor(child, engine.legal_moves(child)[0])
runs.append(packed_uct.run_uct(engine, grandchild, iterations=400, seed=6, guide=guide, widening=2.0, tree=tree))
runs.append({"reused": tree["reused"]})
out = [{k: (v.tolist() if hasattr(v, "tolist") else v) for k, v in r.items() if k not in ("seconds", "proven")}
       for r in runs]
print(json.dumps({"compiled": [packed_uct.__file__.endswith(".so"), guide_module.__file__.endswith(".so")],
                  "keys": guide.move_keys(vector, engine.legal_moves(vector)), "values": guide.values(vector),
                  "runs": out}))
"""


def test_interpreted_and_compiled_guidance_search_identically(tmp_path: Path) -> None:
    interpreted, here = interpreted_and_compiled(_SCRIPT, tmp_path)
    assert interpreted["runs"] == here["runs"]
    assert np.asarray(here["runs"][0]["visits"]).sum() > 0
    assert here["runs"][-1] == {"reused": 1}


def test_tree_reuse_visits_as_the_reference_does() -> None:
    """Through a whole round, the compiled search keeping its tree between moves and ``uct`` with a
    :class:`SearchTree` visit the same moves the same number of times at every move (no randomness)."""
    game = CardClashGame(2, seed=21)
    engine = compiled_engine(game)
    state = game.initial_state()
    kept: dict[str, Any] = {}
    reference = SearchTree()
    moves = 0
    while not game.is_terminal(state) and moves < 16:
        fast = uct_compiled(game, engine, state, iterations=400, seed=moves, exploration=0.8, tree=kept)
        slow = uct(game, state, iterations=400, seed=moves, exploration=0.8, tree=reference)
        assert [(s.notation, s.visits, s.proven_value) for s in fast.moves] == [
            (s.notation, s.visits, s.proven_value) for s in slow.moves], moves
        assert fast.iterations == slow.iterations
        assert fast.best_move is not None
        state = game.apply(state, fast.best_move)
        moves += 1
    assert kept["reused"] == reference.reused and kept["reused"] >= moves - 2
    assert kept["fresh"] == reference.fresh == 1
    # another game's position is not found below the kept root: a fresh search, the tree replaced
    other = CardClashGame(2, seed=99)
    uct_compiled(other, engine, other.initial_state(), iterations=50, seed=0, tree=kept)
    assert kept["fresh"] == 2


def test_the_agent_keeps_a_compiled_tree_only_when_guided() -> None:
    """The mcts agent on a compiled engine keeps its tree for a guided search (Card Clash's, STAKD's), not
    for a plain one (``guided=false``: the plain agent measured no better with it in results/mcts.md)."""
    from stratagem.engines import compiled_engine as engine_of
    from stratagem.matches import new_game
    from stratagem.solvers.agents import MctsAgent

    for game, guided in ((CardClashGame(2, seed=3), True), (new_game("stakd", 2), True),
                         (new_game("stakd", 2), False)):
        engine = engine_of(game)
        if engine is None:
            continue
        kept = guided
        agent = MctsAgent(iterations=200, engine=engine, guided=guided)
        state = game.initial_state()
        for _ in range(2):
            state = game.apply(state, agent.choose(game, state, random.Random(1)))
        assert ("search" in agent.compiled_tree) == kept

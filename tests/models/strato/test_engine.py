"""Strato's compiled engine behind the compiled layer's interface (``search_kernel.StratoEngine``, a
``core.packed.PackedGame``) against the rules engine, move for move.

- Perft: the number of leaves of the game tree cut at a depth, counted in C by ``solvers.perft`` through
  the interface, equals the same count over the rules engine (its ``plays`` and ``is_terminal``), from
  shipped deals and from deals of every weather, Fog, Storm and Cloud, two and three rows, both rules
  options and 1, 2 and 4 players.
- On states of random playouts: the legal move records, decoded, are the engine's moves in its order;
  each successor, decoded, is the engine's state after it; terminal and returns are the engine's; a
  state's key hash does not depend on how the state was reached; an illegal record is refused.
"""

from __future__ import annotations

import random

import pytest

from stratagem.core.packed import PackedGame
from stratagem.models.strato.rules.challenge import Challenge, Options
from stratagem.models.strato.rules.deal import seeded_deal
from stratagem.models.strato.rules.position import ONGOING, State
from stratagem.models.strato.rules.turns import StratoGame
from stratagem.models.strato.search.packed import Packing
from stratagem.models.strato.search.search_kernel import StratoEngine
from stratagem.solvers.perft import perft

from .support import make_challenge, puzzle_challenge

VARIANTS: dict[str, tuple[Challenge, Options]] = {
    "challenge-0": (puzzle_challenge("challenge-0"), Options()),
    "challenge-1": (puzzle_challenge("challenge-1"), Options()),
    "level-2": (puzzle_challenge("level-2-example"), Options()),
    "rw-strict-crossing": (make_challenge(limit=5, left="RRR", right="WW"),
                           Options(strict_effect=True, wind_crosses_tornado=True)),
    "fw-st": (make_challenge(weathers="FWST", pairs=("FW", "ST"), limit=4, left="<<", right=">", rows_required=1),
              Options()),
    "rt-fc": (make_challenge(weathers="RTFC", pairs=("RT", "FC"), limit=4, left="<", right=">", rows_required=2),
              Options()),
    "three-rows": (make_challenge(weathers="RWFCST", pairs=("RW", "FC", "ST"), limit=5, left="<<?", right=">",
                                  rows_required=1), Options()),
}


def reference_perft(game: StratoGame, state: State, depth: int) -> int:
    """Perft over the rules engine: leaves of the tree cut at ``depth`` (a terminal state is a leaf)."""
    if depth == 0 or game.is_terminal(state):
        return 1
    return sum(reference_perft(game, after, depth - 1) for _, after in game.plays(state))


def _engine(name: str, seed: int, players: int) -> tuple[StratoGame, StratoEngine]:
    challenge, options = VARIANTS[name]
    game = StratoGame(challenge, options, seeded_deal(challenge, seed, players))
    return game, StratoEngine(Packing(game))


def test_the_engine_is_a_packed_game() -> None:
    game, engine = _engine("challenge-0", 1, 1)
    assert isinstance(engine, PackedGame)
    assert engine.players == 1 and engine.key_width == len(game.initial_state().rows) + 1
    assert engine.decode(engine.encode(game.initial_state())) == game.initial_state()


@pytest.mark.parametrize(("name", "players", "depth"), [
    ("challenge-0", 1, 3), ("challenge-1", 2, 2), ("level-2", 4, 2), ("rw-strict-crossing", 1, 3),
    ("fw-st", 2, 2), ("rt-fc", 1, 2), ("three-rows", 4, 2)])
def test_perft_equals_the_rules_engine(name: str, players: int, depth: int) -> None:
    game, engine = _engine(name, 7, players)
    start = game.initial_state()
    counts = [perft(engine, engine.encode(start), d) for d in range(depth + 1)]
    assert counts == [reference_perft(game, start, d) for d in range(depth + 1)]
    assert counts[-1] > counts[0]


def _walk(game: StratoGame, rng: random.Random, steps: int) -> list[State]:
    out, state = [], game.initial_state()
    for _ in range(steps):
        out.append(state)
        ongoing = [after for _, after in game.plays(state) if after.status == ONGOING]
        if not ongoing:
            break
        state = rng.choice(ongoing)
    return out


#: Three rows of six weathers give some 1,500 moves a game, each successor's end checked by the rules engine
#: (7 CPU s for three games): one game by default; the slow run plays all three (the three-rows perft above
#: runs by default too).
@pytest.mark.parametrize(("name", "games"), [
    *[(name, 3) for name in sorted(VARIANTS) if name != "three-rows"],
    ("three-rows", 1), pytest.param("three-rows", 3, marks=pytest.mark.slow)])
def test_moves_successors_and_results_equal_the_rules_engine(name: str, games: int) -> None:
    rng = random.Random(f"engine-{name}")
    checked = 0
    for _ in range(games):
        game, engine = _engine(name, rng.randrange(10**6), rng.choice((1, 2, 4)))
        for state in _walk(game, rng, 12):
            vector = engine.encode(state)
            records = engine.legal_moves(vector)
            expected = game.plays(state)
            assert [engine.decode_move(vector, r) for r in records] == [m for m, _ in expected]
            for record, (_, after) in zip(records, expected, strict=True):
                assert engine.decode(engine.successor(vector, record)) == after
                outcome = engine.outcome(engine.successor(vector, record))
                assert outcome == (None if not game.is_terminal(after) else game.returns(after))
                checked += 1
            assert engine.player(vector) == state.to_move
            assert engine.key_hash(vector) == engine.key_hash(engine.encode(engine.decode(vector)))
    assert checked > 100


def test_an_illegal_move_record_is_refused() -> None:
    game, engine = _engine("challenge-0", 1, 1)
    vector = engine.encode(game.initial_state())
    record = engine.legal_moves(vector)[0].copy()
    record[1] = 3  # a row the deal does not have
    with pytest.raises(ValueError, match="not a legal Strato move"):
        engine.successor(vector, record)


def test_different_states_hash_apart() -> None:
    game, engine = _engine("challenge-1", 3, 2)
    hashes = {engine.key_hash(engine.encode(s)) for s in _walk(game, random.Random(5), 30)}
    states = set(_walk(game, random.Random(5), 30))
    assert len(hashes) == len(states) > 10

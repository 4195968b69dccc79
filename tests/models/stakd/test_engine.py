"""STAKD's compiled engine (``engine.StakdEngine``, a ``core.packed.PackedGame``) against the rules
engine, move for move (tests/packed_check.py says what is compared at each state).

- Random playouts from every shipped position and from the start of 1 (solo) to 6 players, on the
  default lattices and on a smaller one: identical legal-move sets (and order), successors (the turn
  passed on, players found without a play marked out), terminal results and returns. The default run
  compares a sample (about 20,000 transitions compiled); ``-m slow`` compares at least 10^6. Each
  sample must have met the rules that rarely fire: new layers (after six pieces and early, for want of
  a play), Bombers, a Uni starting a layer, players going out, a round ended with a Bomber, solo won
  and lost.
- Perft through the C interface equals perft over the rules engine.
- A deliberately wrong engine (one legal move dropped, a wrong successor, a wrong result) fails the
  comparison; illegal move records are refused; the interpreted engine (no compiled core) gives the
  same answers as the compiled one.
"""

from __future__ import annotations

import random
import time
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from stratagem.bench.engines import reference_playouts
from stratagem.core.packed import PackedGame
from stratagem.models.stakd import compiled_engine
from stratagem.models.stakd import engine as engine_module
from stratagem.models.stakd.engine import StakdEngine
from stratagem.models.stakd.geometry import square_lattice
from stratagem.models.stakd.notation import parse_move
from stratagem.models.stakd.position import Move, State
from stratagem.models.stakd.puzzle import load_position
from stratagem.models.stakd.rules import StakdGame
from stratagem.solvers.perft import perft, random_playouts
from tests.interpreted import interpreted_package, run_json
from tests.packed_check import check_state, reference_perft

from .support import PUZZLES, TWO_BASES, position

COMPILED = engine_module.__file__.endswith(".so")
SHIPPED = sorted(PUZZLES.glob("*.toml"))


def fresh_games() -> list[tuple[str, StakdGame]]:
    """The start of every player count on its default lattice, and two players on a tighter one."""
    found = [(f"start-{players}", StakdGame(players)) for players in range(1, 7)]
    found.append(("start-2-13x5", StakdGame(2, square_lattice(13, 5))))
    return found


def starts() -> list[tuple[str, StakdGame, State]]:
    """Every shipped position and every fresh start."""
    found = []
    for path in SHIPPED:
        loaded = load_position(path)
        found.append((path.stem, loaded.game, loaded.state))
    for name, game in fresh_games():
        found.append((name, game, game.initial_state()))
    return found


class Coverage:
    """What a sample of transitions met: the rare rules must have been compared, not only the common."""

    def __init__(self) -> None:
        self.count: Counter[str] = Counter()

    def __call__(self, state: State, move: Move, after: State) -> None:
        self.count["transitions"] += 1
        self.count[f"players-{len(state.hands)}"] += 1
        new_layer = move.layer == len(state.layers) and bool(state.layers)
        if new_layer:
            self.count["new layer"] += 1
            if len(state.layers[-1]) < 6:
                self.count["new layer early"] += 1
            if move.kind == "U":
                self.count["uni starts a layer"] += 1
        if move.kind == "X":
            self.count["bomber"] += 1
        if sum(after.out) > sum(state.out) and not all(after.out):
            self.count["a player goes out"] += 1
        if all(after.out):
            if len(after.hands) == 1:
                self.count["solo won" if not any(after.hands[0]) else "solo lost"] += 1
            elif after.layers[-1][-1].kind == "X":
                self.count["ended by a bomber"] += 1


def sample(transitions: int, seed: str) -> Coverage:
    """Compare random playouts, alternately from the shipped positions and from fresh starts, until
    ``transitions`` transitions were compared."""
    rng = random.Random(seed)
    shipped = [s for s in starts() if not s[0].startswith("start-")]
    fresh = [s for s in starts() if s[0].startswith("start-")]
    engines: dict[int, StakdEngine] = {}
    coverage = Coverage()
    done = 0
    turn = 0
    while done < transitions:
        _, game, state = (shipped if turn % 2 == 0 else fresh)[(turn // 2) % len(shipped if turn % 2 == 0 else fresh)]
        turn += 1
        engine = engines.setdefault(id(game), StakdEngine.from_game(game))
        while True:
            order = [engine.decode_move(None, r) for r in engine.legal_moves(engine.encode(state))]
            assert order == game.legal_moves(state), "the engine lists the legal moves in another order"
            done += check_state(game, engine, state, coverage)
            if game.is_terminal(state):
                break
            state = game.apply(state, rng.choice(game.legal_moves(state)))
    return coverage


def _assert_covered(coverage: Coverage) -> None:
    for rule in ("new layer", "new layer early", "uni starts a layer", "bomber", "a player goes out",
                 "ended by a bomber", "solo won", "solo lost", *(f"players-{n}" for n in range(1, 7))):
        assert coverage.count[rule] > 0, f"the sample never met: {rule} ({dict(coverage.count)})"


def test_the_engine_is_a_packed_game_found_by_the_registry() -> None:
    game = StakdGame(3)
    engine = compiled_engine(game)
    assert isinstance(engine, StakdEngine) and isinstance(engine, PackedGame)
    assert (engine.players, engine.move_width) == (3, 2)
    pieces = 3 * sum(game.initial_state().hands[0])
    assert engine.width == 6 + 3 + pieces
    assert engine.max_moves == sum(len(game.geometry.placements[k]) for k in "BQTDUX")
    assert engine.decode(engine.encode(game.initial_state())) == game.initial_state()


def test_moves_successors_and_results_equal_the_rules_engine_on_a_sample() -> None:
    started = time.process_time()
    coverage = sample(20_000 if COMPILED else 1_000, "stakd-engine-sample")
    assert coverage.count["transitions"] >= (20_000 if COMPILED else 1_000)
    if COMPILED:
        _assert_covered(coverage)
    assert time.process_time() - started < 30


@pytest.mark.slow
def test_moves_successors_and_results_equal_the_rules_engine_on_a_million_transitions() -> None:
    started = time.process_time()
    coverage = sample(1_000_000, "stakd-engine-million")
    _assert_covered(coverage)
    print(f"\ncompared {coverage.count['transitions']} transitions in {time.process_time() - started:.0f} CPU s:"
          f" {dict(coverage.count)}")


@pytest.mark.parametrize("name", [name for name, _, _ in starts()])
def test_perft_equals_the_rules_engine(name: str) -> None:
    game, state = next((g, s) for n, g, s in starts() if n == name)
    engine = StakdEngine.from_game(game)
    depth = 3 if name.startswith("start-") else 4
    counts = [perft(engine, engine.encode(state), d) for d in range(depth + 1)]
    assert counts == [reference_perft(game, state, d) for d in range(depth + 1)]


def test_perft_equals_the_rules_engine_deep_in_playouts() -> None:
    rng = random.Random("stakd-perft-deep")
    compared = 0
    for _ in range(10 if COMPILED else 3):
        _, game = rng.choice(fresh_games())
        state = game.initial_state()
        for _ in range(rng.randrange(4, 40)):
            if game.is_terminal(state):
                break
            state = game.apply(state, rng.choice(game.legal_moves(state)))
        engine = StakdEngine.from_game(game)
        assert perft(engine, engine.encode(state), 2) == reference_perft(game, state, 2)
        compared += 1
    assert compared >= 3


def test_random_playouts_in_c_are_the_games_the_reference_replays() -> None:
    for players in (1, 2, 4):
        game = StakdGame(players)
        engine = StakdEngine.from_game(game)
        transitions, totals = random_playouts(engine, engine.encode(game.initial_state()), 3, seed=11)
        assert transitions > 3 * players * 5
        assert (transitions, [int(t) for t in totals]) == reference_playouts(game, game.initial_state(), 3, 11)


# -- the comparison catches a wrong engine -------------------------------------------------------------
class DropsAMove(StakdEngine):
    """Forgets the last legal move wherever there are two or more."""

    def legal_moves(self, vector: Any) -> Any:
        moves = super().legal_moves(vector)
        return moves[:-1] if len(moves) > 1 else moves


class WrongSuccessor(StakdEngine):
    """Forgets to take the piece from the hand."""

    def successor(self, vector: Any, record: Any) -> Any:
        after = super().successor(vector, record)
        hands = slice(6, 6 + self.players)  # the hands (engine.py's layout)
        after[hands] = np.asarray(vector)[hands]
        return after


class WrongResult(StakdEngine):
    """Gives a finished round to nobody."""

    def outcome(self, vector: Any) -> Any:
        result = super().outcome(vector)
        return None if result is None else (0,) * self.players


@pytest.mark.parametrize("double", [DropsAMove, WrongSuccessor, WrongResult])
def test_a_wrong_engine_fails_the_comparison(double: type[StakdEngine]) -> None:
    game = load_position(PUZZLES / "endgame-2p-bomber.toml").game
    right = StakdEngine.from_game(game)
    start = game.initial_state()
    wrong = double(2, game.geometry, len(start.pieces_in_order()) + sum(map(sum, start.hands)))
    rng = random.Random(1)
    state = start
    failed = False
    while not game.is_terminal(state) and not failed:
        check_state(game, right, state)
        try:
            check_state(game, wrong, state)
        except AssertionError:
            failed = True
        state = game.apply(state, rng.choice(game.legal_moves(state)))
    if not failed:  # the round's end is compared at the terminal state
        check_state(game, right, state)
        with pytest.raises(AssertionError):
            check_state(game, wrong, state)


def test_illegal_move_records_are_refused() -> None:
    game, state = position(f"{TWO_BASES} Q1D2U3X1 1")
    engine = StakdEngine.from_game(game)
    vector = engine.encode(state)
    legal = {tuple(r) for r in engine.legal_moves(vector)}
    for text, layer in (("T@0,0h", 1), ("Q@5,1h", 1), ("X@0,0", 1), ("U@0,0", 1), ("Q@0,0h", 2), ("D@0,0h", 0)):
        record = np.append(engine.encode_move(parse_move(text))[:1], layer)
        assert tuple(record) not in legal
        with pytest.raises(ValueError, match="not a legal STAKD move"):
            engine.successor(vector, record)
    with pytest.raises(ValueError, match="no such placement"):
        engine.successor(vector, np.array([engine.max_moves, 1], np.int64))
    over = StakdGame(1, start=State((), ((0, 0, 0, 0, 1, 0),), 0, (False,)))
    done = StakdEngine(1, over.geometry, 1)
    with pytest.raises(ValueError, match="after the end"):
        done.successor(done.encode(over.initial_state()), np.array([0, 0], np.int64))


def test_the_key_hash_tells_states_apart() -> None:
    rng = random.Random(3)
    game = StakdGame(2)
    engine = StakdEngine.from_game(game)
    states = {game.initial_state()}
    frontier = [game.initial_state()]
    while len(states) < 400 and frontier:
        state = frontier.pop(rng.randrange(len(frontier)))
        for move in game.legal_moves(state):
            after = game.apply(state, move)
            if after not in states:
                states.add(after)
                frontier.append(after)
    assert len({engine.key_hash(engine.encode(s)) for s in states}) == len(states)


# -- the interpreted engine ----------------------------------------------------------------------------
DIGEST = """
import hashlib, json, random
from stratagem.models.stakd import engine as module
from stratagem.models.stakd.engine import StakdEngine
from stratagem.models.stakd.rules import StakdGame
from stratagem.solvers.perft import perft
digest = hashlib.sha256()
for seed, players in enumerate((1, 2, 3)):
    game = StakdGame(players)
    engine = StakdEngine.from_game(game)
    rng = random.Random(seed)
    vector = engine.encode(game.initial_state())
    digest.update(str(perft(engine, vector, 3)).encode())
    while engine.outcome(vector) is None:
        moves = engine.legal_moves(vector)
        digest.update(moves.tobytes())
        vector = engine.successor(vector, moves[rng.randrange(len(moves))])
        digest.update(vector.tobytes())
    digest.update(str(engine.outcome(vector)).encode())
print(json.dumps({"compiled": module.__file__.endswith(".so"), "digest": digest.hexdigest()}))
"""


def test_the_interpreted_engine_answers_as_the_compiled_one(tmp_path: Path) -> None:
    if not COMPILED:
        pytest.skip("the compiled core is not built: this run is the interpreted one")
    pure, fast = run_json(DIGEST, interpreted_package(tmp_path)), run_json(DIGEST, None)
    assert (pure["compiled"], fast["compiled"]) == (False, True)
    assert pure["digest"] == fast["digest"]

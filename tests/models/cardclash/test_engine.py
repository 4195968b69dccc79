"""Card Clash's compiled engine (``engine.CardClashEngine``, a ``core.packed.PackedGame``) against the
rules engine, move for move (tests/packed_check.py says what is compared at each state).

- Random playouts from every shipped position and from random deals of 2 to 6 players, both variants
  and several tables: identical legal-move sets (and order), successors, terminal results and returns.
  The default run compares a sample (about 30,000 transitions compiled); ``-m slow`` compares at least
  10^6. Each sample must have met the rules that rarely fire: passes, cancellations, a cell emptied by
  one, squares, rounds scored when the cards run out and when everybody passed.
- Perft through the C interface equals perft over the rules engine, from the shipped positions, from
  deals and from states deep in playouts.
- The dealt game (``openspiel.cardclash.DealtCardClash``: the deal and every draw as chance nodes)
  against ``engine.DealtCardClashEngine`` the same way, chance weights as exact probabilities included.
- A deliberately wrong engine (one legal move dropped, a wrong successor, a wrong result, wrong chance
  weights) fails the comparison; illegal move records are refused; the interpreted engine (no compiled core) gives the
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
from stratagem.core.game import CHANCE as GAME_CHANCE
from stratagem.core.packed import PackedGame
from stratagem.models.cardclash import compiled_engine
from stratagem.models.cardclash import engine as engine_module
from stratagem.models.cardclash.engine import CardClashEngine, DealtCardClashEngine, stack_words
from stratagem.models.cardclash.position import PASS, Move, State, parse_state
from stratagem.models.cardclash.puzzle import load_position
from stratagem.models.cardclash.rules import CardClashGame
from stratagem.solvers.perft import perft, random_playouts
from tests.interpreted import interpreted_package, run_json
from tests.packed_check import check_state, reference_perft

from .support import PUZZLES

COMPILED = engine_module.__file__.endswith(".so")
SHIPPED = sorted(PUZZLES.glob("*.toml"))
TABLES = ((6, 6), (4, 4), (3, 5), (8, 3))


def random_game(rng: random.Random) -> CardClashGame:
    """A fresh deal: 2 to 6 players, either variant, one of :data:`TABLES`."""
    width, height = rng.choice(TABLES)
    return CardClashGame(rng.randint(2, 6), width=width, height=height, strategic=rng.random() < 0.5,
                         seed=rng.randrange(10**9))


def starts() -> list[tuple[str, CardClashGame, State]]:
    """Every shipped position, and a deal of every player count and variant on the default table."""
    found = []
    for path in SHIPPED:
        position = load_position(path)
        found.append((path.stem, position.game, position.state))
    for players in range(2, 7):
        for strategic in (False, True):
            game = CardClashGame(players, strategic=strategic, seed=players)
            found.append((f"deal-{players}-{strategic}", game, game.initial_state()))
    return found


class Coverage:
    """What a sample of transitions met: the rare rules must have been compared, not only the common."""

    def __init__(self) -> None:
        self.count: Counter[str] = Counter()

    def __call__(self, state: State, move: Move, after: State) -> None:
        self.count["transitions"] += 1
        self.count[f"players-{state.players}"] += 1
        if move == PASS:
            self.count["pass"] += 1
        if len(after.removed) > len(state.removed):
            self.count["cancel"] += 1
            if len(after.board) < len(state.board):
                self.count["cell emptied"] += 1
        if move != PASS and (move.x < 0 or move.y < 0):
            self.count["grows left or up"] += 1
        if after.winners:
            if move == PASS:
                self.count["all passed"] += 1
            elif not any(after.hands) and not any(after.piles):
                self.count["cards ran out"] += 1
            else:
                self.count["square"] += 1


def sample(transitions: int, seed: str) -> Coverage:
    """Compare random playouts, alternately from the shipped starts and from random deals, until
    ``transitions`` transitions were compared."""
    rng = random.Random(seed)
    fixed = starts()
    coverage = Coverage()
    done = 0
    turn = 0
    while done < transitions:
        if turn % 2 == 0:
            _, game, state = fixed[(turn // 2) % len(fixed)]
        else:
            game = random_game(rng)
            state = game.initial_state()
        turn += 1
        engine = CardClashEngine.from_game(game)
        while True:
            order = [engine.decode_move(None, r) for r in engine.legal_moves(engine.encode(state))]
            assert order == game.legal_moves(state), "the engine lists the legal moves in another order"
            done += check_state(game, engine, state, coverage)
            if game.is_terminal(state):
                break
            state = game.apply(state, rng.choice(game.legal_moves(state)))
    return coverage


def _assert_covered(coverage: Coverage) -> None:
    for rule in ("pass", "cancel", "cell emptied", "grows left or up", "all passed", "cards ran out", "square",
                 *(f"players-{n}" for n in range(2, 7))):
        assert coverage.count[rule] > 0, f"the sample never met: {rule} ({dict(coverage.count)})"


def test_the_engine_is_a_packed_game_found_by_the_registry() -> None:
    game = CardClashGame(3, width=5, height=4, strategic=True, seed=2)
    engine = compiled_engine(game)
    assert isinstance(engine, CardClashEngine) and isinstance(engine, PackedGame)
    assert (engine.players, engine.move_width) == (3, 3)
    assert stack_words(3) == 3  # 6 * (3 + 1) + 2 = 26 cards, ten a word
    assert engine.width == 6 + 5 * 3 + 5 * 4 * (2 + 3)
    assert engine.decode(engine.encode(game.initial_state())) == game.initial_state()
    assert compiled_engine(CardClashGame(2, width=100, height=100)) is None  # beyond MAX_CELLS


def test_moves_successors_and_results_equal_the_rules_engine_on_a_sample() -> None:
    started = time.process_time()
    coverage = sample(30_000 if COMPILED else 1_500, "cardclash-engine-sample")
    assert coverage.count["transitions"] >= (30_000 if COMPILED else 1_500)
    if COMPILED:
        _assert_covered(coverage)
    assert time.process_time() - started < 30


@pytest.mark.slow
def test_moves_successors_and_results_equal_the_rules_engine_on_a_million_transitions() -> None:
    started = time.process_time()
    coverage = sample(1_000_000, "cardclash-engine-million")
    _assert_covered(coverage)
    print(f"\ncompared {coverage.count['transitions']} transitions in {time.process_time() - started:.0f} CPU s:"
          f" {dict(coverage.count)}")


@pytest.mark.parametrize(("name", "depth"), [(name, 3) for name, _, _ in starts()])
def test_perft_equals_the_rules_engine(name: str, depth: int) -> None:
    game, state = next((g, s) for n, g, s in starts() if n == name)
    engine = CardClashEngine.from_game(game)
    counts = [perft(engine, engine.encode(state), d) for d in range(depth + 1)]
    assert counts == [reference_perft(game, state, d) for d in range(depth + 1)]


def test_perft_equals_the_rules_engine_deep_in_playouts() -> None:
    rng = random.Random("cardclash-perft-deep")
    compared = 0
    for _ in range(12 if COMPILED else 3):
        game = random_game(rng)
        state = game.initial_state()
        for _ in range(rng.randrange(4, 30)):
            if game.is_terminal(state):
                break
            state = game.apply(state, rng.choice(game.legal_moves(state)))
        engine = CardClashEngine.from_game(game)
        assert perft(engine, engine.encode(state), 2) == reference_perft(game, state, 2)
        compared += 1
    assert compared >= 3


def test_random_playouts_in_c_are_the_games_the_reference_replays() -> None:
    for players, strategic in ((2, False), (3, True), (6, False)):
        game = CardClashGame(players, strategic=strategic, seed=players)
        engine = CardClashEngine.from_game(game)
        transitions, totals = random_playouts(engine, engine.encode(game.initial_state()), 5, seed=7)
        assert transitions > 5 * players * 4
        assert (transitions, [int(t) for t in totals]) == reference_playouts(game, game.initial_state(), 5, 7)


# -- the dealt game: the deal and every draw as chance nodes ---------------------------------------------
def dealt_sample(transitions: int, seed: str) -> Counter[str]:
    """Compare random playouts of :class:`~stratagem.openspiel.cardclash.DealtCardClash` (2 to 6 players,
    both variants, two tables; chance outcomes drawn by their probabilities) until ``transitions``
    transitions (moves and chance outcomes) were compared; what the sample met."""
    from stratagem.openspiel.cardclash import DealtCardClash

    rng = random.Random(seed)
    met: Counter[str] = Counter()
    while met["transitions"] < transitions:
        width, height = rng.choice(((6, 6), (4, 4)))
        game = DealtCardClash(CardClashGame(rng.randint(2, 6), width=width, height=height,
                                            strategic=rng.random() < 0.5))
        engine = compiled_engine(game)
        assert isinstance(engine, DealtCardClashEngine)
        table = game.initial_state()
        while True:
            met["transitions"] += check_state(game, engine, table)
            if game.is_terminal(table):
                met["ends"] += 1
                break
            if game.to_move(table) == GAME_CHANCE:
                met["draws" if table.pending is not None else "deals"] += 1
                outcomes = game.chance_outcomes(table)
                table = game.apply(table, rng.choices([m for m, _ in outcomes], [float(p) for _, p in outcomes])[0])
            else:
                table = game.apply(table, rng.choice(game.legal_moves(table)))
    return met


def test_the_dealt_engine_equals_the_dealt_game_on_a_sample() -> None:
    pytest.importorskip("pyspiel")
    met = dealt_sample(15_000 if COMPILED else 1_000, "dealt-cardclash-sample")
    assert met["deals"] > 0 and met["draws"] > 0 and met["ends"] > 0


@pytest.mark.slow
def test_the_dealt_engine_equals_the_dealt_game_on_a_million_transitions() -> None:
    pytest.importorskip("pyspiel")
    started = time.process_time()
    met = dealt_sample(1_000_000, "dealt-cardclash-million")
    print(f"\ncompared {met['transitions']} transitions of the dealt game in {time.process_time() - started:.0f} "
          f"CPU s: {dict(met)}")


def test_dealt_perft_equals_the_dealt_game() -> None:
    pytest.importorskip("pyspiel")
    from stratagem.openspiel.cardclash import DealtCardClash

    rng = random.Random("dealt-perft")
    for players, strategic in ((2, False), (3, True)):
        game = DealtCardClash(CardClashGame(players, width=4, height=4, strategic=strategic))
        engine = DealtCardClashEngine.from_game(game)
        table = game.initial_state()
        assert [perft(engine, engine.encode(table), d) for d in range(4)] == \
            [reference_perft(game, table, d) for d in range(4)]
        for _ in range(4 * players + rng.randrange(6)):  # past the deal, to a card waiting for its draw
            if game.to_move(table) == GAME_CHANCE:
                table = game.apply(table, rng.choice([m for m, _ in game.chance_outcomes(table)]))
            else:
                table = game.apply(table, rng.choice(game.legal_moves(table)))
        assert perft(engine, engine.encode(table), 3) == reference_perft(game, table, 3)


def test_dealt_random_playouts_in_c_are_the_games_the_reference_replays() -> None:
    # Chance outcomes drawn by their weights over the gcd: the same draws as the reference's probabilities.
    pytest.importorskip("pyspiel")
    from stratagem.openspiel.cardclash import DealtCardClash

    for players, strategic in ((2, False), (4, True)):
        game = DealtCardClash(CardClashGame(players, strategic=strategic))
        engine = DealtCardClashEngine.from_game(game)
        transitions, totals = random_playouts(engine, engine.encode(game.initial_state()), 4, seed=3)
        assert transitions > 4 * players * 17
        assert (transitions, [int(t) for t in totals]) == reference_playouts(game, game.initial_state(), 4, 3)


class WrongWeights(DealtCardClashEngine):
    """Deals and draws the first rank of a pile twice as often as it should."""

    def chance_outcomes(self, vector: Any) -> Any:
        records, weights = super().chance_outcomes(vector)
        weights[0] *= 2
        return records, weights


def test_wrong_chance_weights_fail_the_comparison() -> None:
    pytest.importorskip("pyspiel")
    from stratagem.openspiel.cardclash import DealtCardClash

    game = DealtCardClash(CardClashGame(2))
    check_state(game, DealtCardClashEngine.from_game(game), game.initial_state())
    with pytest.raises(AssertionError, match="chance outcomes"):
        check_state(game, WrongWeights(2, table=type(game.initial_state())), game.initial_state())


# -- the comparison catches a wrong engine -------------------------------------------------------------
class DropsAMove(CardClashEngine):
    """Forgets the last legal move wherever there are two or more."""

    def legal_moves(self, vector: Any) -> Any:
        moves = super().legal_moves(vector)
        return moves[:-1] if len(moves) > 1 else moves


class WrongSuccessor(CardClashEngine):
    """Forgets to draw: the successor of a card laid keeps the pile."""

    def successor(self, vector: Any, record: Any) -> Any:
        after = super().successor(vector, record)
        if record[0] >= 0:
            piles = slice(6 + 2 * self.players, 6 + 4 * self.players)  # piles and their lengths (engine.py)
            after[piles] = np.asarray(vector)[piles]
        return after


class WrongResult(CardClashEngine):
    """Gives every finished round to nobody."""

    def outcome(self, vector: Any) -> Any:
        result = super().outcome(vector)
        return None if result is None else (0,) * self.players


@pytest.mark.parametrize("double", [DropsAMove, WrongSuccessor, WrongResult])
def test_a_wrong_engine_fails_the_comparison(double: type[CardClashEngine]) -> None:
    game = CardClashGame(2, width=4, height=4, seed=5)
    right = CardClashEngine.from_game(game)
    wrong = double(2, 4, 4, False)
    rng = random.Random(1)
    state = game.initial_state()
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
    game = CardClashGame(2, width=3, height=3, start=parse_state("r6,b5 2346,25BX 1,3 1"))
    engine = CardClashEngine.from_game(game)
    vector = engine.encode(game.initial_state())
    for record, why in (([-1, 0, 0], "may not pass"), ([6, 2, 0], "holds no such card"),
                        ([1, 0, 2], "no card along a side"), ([3, 0, 0], "stacking rules forbid"),
                        ([1, 2, 1], "no card along a side"), ([1, 3, 0], "off the table")):
        if why == "off the table":  # the table is 3 wide: a fourth column is refused
            vector = engine.encode(parse_state("r6,b5,r2 2346,25BX 1,3 1"))
        with pytest.raises(ValueError, match=why):
            engine.successor(vector, np.array(record, np.int64))
    over = engine.encode(game.apply(parse_state("r6,r5/r4,. 2346,25BX -,- 1"), Move("2", 1, 1)))
    with pytest.raises(ValueError, match="after the end"):
        engine.successor(over, np.array([0, 0, 0], np.int64))


@pytest.mark.parametrize("strategic", [False, True])
def test_stacks_as_deep_as_play_builds_them(strategic: bool) -> None:
    # Rising runs joined by a Spy on a Marshal: with two Spies a stack reaches 6 + 6 + 2 cards and more
    # (the first random million transitions found one deeper than ten).
    text = "b6b5b4b3b2b1r6r5r4r3r2r1,r2 BX,2 B,- 1"
    game = CardClashGame(2, width=3, height=3, strategic=strategic, start=parse_state(text))
    engine = CardClashEngine.from_game(game)
    state = game.initial_state()
    line = [Move("B", 0, 0), Move("2", 0, 1), Move("X", 0, 0), PASS, Move("B", 0, 0)]
    for move in line:
        if game.is_terminal(state) or move not in game.legal_moves(state):
            break
        assert check_state(game, engine, state) > 0
        state = game.apply(state, move)
    assert max(len(c.stack) for c in state.board) >= 13
    check_state(game, engine, state)


def test_states_beyond_the_engine_are_refused_not_truncated() -> None:
    engine = CardClashEngine(2, 4, 4, False)
    with pytest.raises(ValueError, match="table"):
        engine.encode(parse_state("r6,r5,r4,r3,r2 2346,25BX -,- 1"))
    with pytest.raises(ValueError, match="stack of 21 cards"):
        engine.encode(parse_state("r1" * 21 + " 2,2 -,- 1"))
    with pytest.raises(ValueError, match="square"):
        engine.encode(State(parse_state("r6,r5/r4,r3 2,2 -,- 2").board, ("2", "2"), ("", ""), 1))


def test_the_key_hash_tells_states_apart() -> None:
    rng = random.Random(3)
    game = CardClashGame(3, strategic=True, seed=11)
    engine = CardClashEngine.from_game(game)
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
import hashlib, json, random, sys
from stratagem.models.cardclash import engine as module
from stratagem.models.cardclash.engine import CardClashEngine
from stratagem.models.cardclash.rules import CardClashGame
from stratagem.solvers.perft import perft
digest = hashlib.sha256()
for seed, (players, strategic) in enumerate([(2, False), (3, True), (5, True)]):
    game = CardClashGame(players, width=4, height=4, strategic=strategic, seed=seed)
    engine = CardClashEngine.from_game(game)
    rng = random.Random(seed)
    vector = engine.encode(game.initial_state())
    digest.update(str(perft(engine, vector, 2)).encode())
    while engine.outcome(vector) is None:
        moves = engine.legal_moves(vector)
        digest.update(moves.tobytes())
        vector = engine.successor(vector, moves[rng.randrange(len(moves))])
        digest.update(vector.tobytes())
    digest.update(str(engine.outcome(vector)).encode())
from stratagem.models.cardclash.engine import DealtCardClashEngine
from stratagem.openspiel.cardclash import DealtCardClash
from stratagem.solvers.perft import random_playouts
dealt_game = DealtCardClash(CardClashGame(3, width=4, height=4, strategic=True))
dealt = DealtCardClashEngine.from_game(dealt_game)
start = dealt.encode(dealt_game.initial_state())
digest.update(str(perft(dealt, start, 3)).encode())
done, totals = random_playouts(dealt, start, 3, 5)
digest.update(f"{done} {list(totals)}".encode())
print(json.dumps({"compiled": module.__file__.endswith(".so"), "digest": digest.hexdigest()}))
"""


def test_the_interpreted_engine_answers_as_the_compiled_one(tmp_path: Path) -> None:
    if not COMPILED:
        pytest.skip("the compiled core is not built: this run is the interpreted one")
    pure, fast = run_json(DIGEST, interpreted_package(tmp_path)), run_json(DIGEST, None)
    assert (pure["compiled"], fast["compiled"]) == (False, True)
    assert pure["digest"] == fast["digest"]

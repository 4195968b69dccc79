"""Stack Attack's compiled engine (``engine.StackAttackEngine``, a ``core.packed.PackedGame``) and the
backward induction walked over it, against the rules engine (tests/packed_check.py says what is compared
at each state).

- Random playouts from every shipped position and from random games of 2 to 6 players, with and without
  action cards, in both scopes, from the deal and from dealt rounds: identical legal-move sets (and
  order: the reference's), successors, terminal results and returns, chance outcomes and weights. At a
  reveal with more joint moves than :data:`FULL_JOINT` (four to six players early in a round) the legal
  moves are counted and a sample of joint moves is compared. The default run compares a sample; ``-m
  slow`` at least 10^6 transitions. Each sample must have met the rules that rarely fire (Block, Switch,
  Shield, Decreasing, a take by choice, a new round dealt, the game's end at 64).
- Perft through the C interface equals perft over the rules engine.
- A deliberately wrong engine (a move dropped, a wrong successor, a wrong deck) fails the comparison;
  illegal move records are refused; the interpreted engine gives the same answers as the compiled one.
- The induction over the compiled engine writes the same certificates as over the rules engine (every
  shipped endgame of up to three turns by default, the five-turn ones under ``-m slow``), stops at the same
  node count, and its certificates pass ``verify``'s check on the rules engine; ``analyze`` runs ``lp`` on
  the compiled engine in round scope and on the rules engine in game scope. Distinct states have distinct
  transposition keys.
"""

from __future__ import annotations

import itertools
import json
import random
import time
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from stratagem.core.game import CHANCE, SIMULTANEOUS
from stratagem.core.packed import PackedGame
from stratagem.models.stackattack import compiled_engine
from stratagem.models.stackattack import engine as engine_module
from stratagem.models.stackattack.engine import StackAttackEngine
from stratagem.models.stackattack.notation import Choice
from stratagem.models.stackattack.puzzle import dealt_round, load_position
from stratagem.models.stackattack.rules import Options, StackAttackGame
from stratagem.solvers.boundproof import bound_proof, check_bound_proof
from stratagem.solvers.matrixproof import check_matrix_proof, matrix_proof
from stratagem.solvers.perft import perft
from stratagem.solvers.simultaneous import InductionStopped, solve_each_player, solve_simultaneous
from tests.interpreted import interpreted_package, run_json
from tests.packed_check import check_state, reference_perft

from .support import PUZZLES

COMPILED = engine_module.__file__.endswith(".so")
SHIPPED = sorted(PUZZLES.glob("*.toml"))
#: Reveals with more joint moves than this are compared on a sample of them.
FULL_JOINT = 400
#: Joint moves compared at a larger reveal.
SAMPLED_JOINT = 25


def random_game(rng: random.Random, players: int | None = None) -> StackAttackGame:
    """2 to 6 players, actions on or off, either scope (a variant deck now and then)."""
    n = players or rng.randint(2, 6)
    extra: dict[str, Any] = {}
    if rng.random() < 0.2:  # a deck of the configuration: more cards, another Shield, moved penalties
        extra = {"cards": 70, "shield": (8, 40, 66), "penalties": ((55, 1), (7, 8))}
    return StackAttackGame(n, Options(actions=rng.random() < 0.75, scope=rng.choice(("game", "round")), **extra))


def starts(rng: random.Random) -> list[tuple[str, StackAttackGame, Any]]:
    """Every shipped position; a dealt round, a fresh deal and a round that may end the game (carried
    scores of 50-63) of every player count."""
    found = []
    for path in SHIPPED:
        position = load_position(path)
        found.append((path.stem, position.game, position.state))
    for n in range(2, 7):
        game = random_game(rng, n)
        ending = StackAttackGame(n, Options(actions=rng.random() < 0.5))  # scores near the end of the game
        dealt = dealt_round(ending, rng)
        found.append((f"{n}p-ending", ending, dealt._replace(scores=tuple(rng.randint(50, 63) for _ in range(n)))))
        found.append((f"{n}p-dealt", game, dealt_round(game, rng)))
    for n in range(2, 7):
        game = random_game(rng, n)
        found.append((f"{n}p-deal", game, game.initial_state()))
    return found


def check(game: StackAttackGame, engine: StackAttackEngine, state: Any, rng: random.Random,
          seen: Counter[str]) -> int:
    """:func:`check_state`, or at a large reveal its sampled form; the transitions compared."""
    def note(before: Any, move: Any, after: Any) -> None:
        if isinstance(move, Choice):
            seen[move.kind] += 1
            if move.kind == "D" and not before.dealing:
                seen["new round"] += 1
        elif isinstance(move, tuple) and any(game.action_of[c] == "decreasing" for c in move):
            seen["decreasing"] += 1
        if game.is_terminal(after) and game.options.scope == "game":
            seen["game end"] += 1

    if game.to_move(state) != SIMULTANEOUS or np.prod([len(h) for h in state.hands]) <= FULL_JOINT:
        done = check_state(game, engine, state, note)
        if game.to_move(state) >= 0 or game.to_move(state) == SIMULTANEOUS:  # the reference's order too
            vector = engine.encode(state)
            assert [engine.decode_move(vector, r) for r in engine.legal_moves(vector)] == \
                list(game.legal_moves(state))
        return done
    vector = engine.encode(state)
    assert engine.decode(vector) == state
    assert engine.player(vector) == SIMULTANEOUS and engine.outcome(vector) is None
    if np.prod([len(h) for h in state.hands]) <= 10**4:
        records = engine.legal_moves(vector)
        assert sorted(engine.decode_move(vector, r) for r in records) == sorted(itertools.product(*state.hands))
    for _ in range(SAMPLED_JOINT):
        move = tuple(rng.choice(hand) for hand in state.hands)
        after = game.apply(state, move)
        assert engine.decode(engine.successor(vector, engine.encode_move(move))) == after, (state, move)
        note(state, move, after)
    return SAMPLED_JOINT


def next_state(game: StackAttackGame, state: Any, rng: random.Random) -> Any:
    """A random successor on the rules engine (a chance outcome by its probability)."""
    if game.to_move(state) == CHANCE:
        return game.apply(state, rng.choice(game.chance_outcomes(state))[0])
    if game.to_move(state) == SIMULTANEOUS:
        return game.apply(state, tuple(rng.choice(hand) for hand in state.hands))
    return game.apply(state, rng.choice(game.legal_moves(state)))


def compare_playouts(seed: int, transitions: int, max_plies: int = 400) -> tuple[int, Counter[str]]:
    """Random playouts from every start until ``transitions`` transitions are compared; the count and
    the rules met."""
    rng = random.Random(seed)
    seen: Counter[str] = Counter()
    done = 0
    while done < transitions:
        for _, game, start in starts(rng):
            engine = compiled_engine(game)
            state, plies = start, 0
            while not game.is_terminal(state) and plies < max_plies:
                done += check(game, engine, state, rng, seen)
                state = next_state(game, state, rng)
                plies += 1
            done += check(game, engine, state, rng, seen)
            if done >= transitions:
                break
    return done, seen


RARE = ("B", "S", "P", "T", "D", "decreasing", "new round", "game end")


def test_the_engine_is_a_packed_game() -> None:
    position = load_position(PUZZLES / "2p-actions-5-turns.toml")
    engine = compiled_engine(position.game)
    assert isinstance(engine, PackedGame) and isinstance(engine, StackAttackEngine)
    assert engine.players == 2 and engine.move_width == 3
    assert engine.decode(engine.encode(position.state)) == position.state


def test_moves_successors_results_and_chance_equal_the_rules_engine() -> None:
    done, seen = compare_playouts(28, 10_000, max_plies=120)
    assert done >= 10_000
    missing = [rule for rule in RARE if not seen[rule]]
    assert not missing, f"the sample met no {missing}: {seen}"


@pytest.mark.slow
def test_a_million_transitions_equal_the_rules_engine() -> None:
    started = time.process_time()
    done, seen = compare_playouts(1028, 1_000_000)
    print(f"\n{done:,} Stack Attack transitions compared in {time.process_time() - started:.0f} CPU s: {dict(seen)}")
    assert done >= 1_000_000
    assert all(seen[rule] for rule in RARE)


@pytest.mark.parametrize("name", ["2p-actions-3-turns", "2p-numbers-5-turns", "3p-actions-2-turns",
                                  "4p-numbers-2-turns", "2p-actions-shield-2-turns"])
def test_perft_from_shipped_positions_equals_the_rules_engine(name: str) -> None:
    position = load_position(PUZZLES / f"{name}.toml")
    engine = compiled_engine(position.game)
    vector = engine.encode(position.state)
    depth = 3 if position.game.num_players == 2 else 2
    counts = [perft(engine, vector, d) for d in range(depth + 1)]
    assert counts == [reference_perft(position.game, position.state, d) for d in range(depth + 1)]
    assert counts[-1] > counts[1] > 1


@pytest.mark.parametrize("players", [2, 3, 4])
def test_perft_from_deals_and_deep_states_equals_the_rules_engine(players: int) -> None:
    rng = random.Random(players)
    game = StackAttackGame(players, Options(scope="game"))
    state = game.initial_state()
    assert [perft(compiled_engine(game), compiled_engine(game).encode(state), d) for d in range(3)] == \
        [reference_perft(game, state, d) for d in range(3)]
    state = dealt_round(game, rng)
    for _ in range(rng.randrange(20, 60)):  # deep in the round, or at the next deal
        if game.is_terminal(state):
            break
        state = next_state(game, state, rng)
    engine = compiled_engine(game)
    depth = 2 if players < 4 else 1
    assert perft(engine, engine.encode(state), depth) == reference_perft(game, state, depth)


class DroppedMove(StackAttackEngine):
    """Wrong on purpose: one legal move left out wherever there are two or more."""

    def legal_moves(self, vector: Any) -> Any:
        moves = super().legal_moves(vector)
        return moves[:-1] if len(moves) > 1 else moves


class WrongSuccessor(StackAttackEngine):
    """Wrong on purpose: after a take by choice, the first card of row 1 is one higher."""

    def successor(self, vector: Any, record: Any) -> Any:
        out = super().successor(vector, record)
        if record[0] == 1:  # TAKE
            out[1] += 1
        return out


def _walk_until_fails(game: StackAttackGame, engine: Any, seed: int) -> None:
    rng = random.Random(seed)
    seen: Counter[str] = Counter()
    for _ in range(40):
        state = dealt_round(game, rng)
        while not game.is_terminal(state):
            check(game, engine, state, rng, seen)
            state = next_state(game, state, rng)
        check(game, engine, state, rng, seen)


@pytest.mark.parametrize("wrong", ["dropped move", "wrong successor", "wrong deck"])
def test_a_wrong_engine_fails_the_comparison(wrong: str) -> None:
    game = StackAttackGame(2, Options(scope="round"))
    if wrong == "dropped move":
        engine: Any = DroppedMove(game)
    elif wrong == "wrong successor":
        engine = WrongSuccessor(game)
    else:  # the engine's deck has card 55 worth 1 point (the reference's: 8)
        engine = StackAttackEngine(StackAttackGame(2, Options(scope="round", penalties=((55, 1),))))
    with pytest.raises(AssertionError):
        _walk_until_fails(game, engine, 5)


def test_illegal_move_records_are_refused() -> None:
    position = load_position(PUZZLES / "2p-actions-5-turns.toml")
    engine = compiled_engine(position.game)
    vector = engine.encode(position.state)
    theirs = position.state.hands[1][0]
    with pytest.raises(ValueError, match="does not hold"):
        engine.successor(vector, engine.encode_move((theirs, theirs)))
    with pytest.raises(ValueError, match="joint reveal"):
        engine.successor(vector, engine.encode_move(Choice("T", 1)))
    rng = random.Random(3)
    game = StackAttackGame(2, Options())
    state = dealt_round(game, rng)
    while game.to_move(state) < 0:
        state = next_state(game, state, rng) if not game.is_terminal(state) else dealt_round(game, rng)
    engine = compiled_engine(game)
    decision = engine.encode(state)
    with pytest.raises(ValueError, match="not a legal choice"):
        engine.successor(decision, engine.encode_move(Choice("S", 99)))


def _results(game: StackAttackGame, state: Any, packed: Any, **options: Any) -> list[Any]:
    if game.num_players == 2:
        return [solve_simultaneous(game, state, player=0, payoff="margin", packed=packed, **options)]
    return list(solve_each_player(game, state, payoff="own", packed=packed, **options))


def _same_certificates(name: str, **options: Any) -> None:
    position = load_position(PUZZLES / f"{name}.toml")
    game, state = position.game, position.state
    packed = compiled_engine(game).simultaneous()
    reference = _results(game, state, None, **options)
    compiled = _results(game, state, packed, **options)
    assert [r.value for r in compiled] == [r.value for r in reference]
    assert [r.evaluated_leaves for r in compiled] == [r.evaluated_leaves for r in reference]
    assert [matrix_proof(game, r) for r in compiled] == [matrix_proof(game, r) for r in reference]
    # the bound certificate: the compiled walk's parts (found over its memo) are the rules engine walk's
    assert [bound_proof(game, r) for r in compiled] == [bound_proof(game, r) for r in reference]
    for result in compiled:
        verdict = check_matrix_proof(game, state, matrix_proof(game, result))
        assert verdict.valid, verdict.reason
        verdict = check_bound_proof(game, state, json.loads(json.dumps(bound_proof(game, result))))
        assert verdict.valid, verdict.reason


@pytest.mark.parametrize("name", [p.stem for p in SHIPPED if "5-turns" not in p.stem and "6-turns" not in p.stem])
def test_the_compiled_induction_writes_the_reference_certificates(name: str) -> None:
    _same_certificates(name)


@pytest.mark.slow
@pytest.mark.parametrize("name", ["2p-numbers-5-turns", "2p-actions-5-turns"])
def test_the_compiled_induction_writes_the_reference_certificates_of_five_turns(name: str) -> None:
    _same_certificates(name)


def test_depth_limited_induction_and_node_limit_match_the_reference() -> None:
    _same_certificates("2p-actions-3-turns", depth=1)
    _same_certificates("3p-numbers-3-turns", depth=2)
    position = load_position(PUZZLES / "2p-numbers-5-turns.toml")
    packed = compiled_engine(position.game).simultaneous()
    stops = []
    for walker in (None, packed):
        with pytest.raises(InductionStopped) as stopped:
            _results(position.game, position.state, walker, max_nodes=3_000)
        stops.append((stopped.value.nodes, stopped.value.solved))
    assert stops[0] == stops[1] and stops[0][1] > 0


def test_the_game_scope_has_no_compiled_induction() -> None:
    from stratagem.analysis.lp import packed_induction

    assert packed_induction(compiled_engine(StackAttackGame(2, Options(scope="game")))) is None
    assert packed_induction(compiled_engine(StackAttackGame(2, Options(scope="round")))) is not None
    assert packed_induction(None) is None


DIGEST = """
import hashlib, json, random
from stratagem.models.stackattack import engine as module
from stratagem.models.stackattack.engine import StackAttackEngine
from stratagem.models.stackattack.puzzle import load_position
from stratagem.models.stackattack.rules import Options, StackAttackGame
from stratagem.solvers.matrixproof import matrix_proof
from stratagem.solvers.perft import perft, random_playouts
from stratagem.solvers.simultaneous import solve_simultaneous
digest = hashlib.sha256()
for seed, (players, actions) in enumerate([(2, True), (3, False), (5, True)]):
    game = StackAttackGame(players, Options(actions=actions))
    engine = StackAttackEngine.from_game(game)
    vector = engine.encode(game.initial_state())
    digest.update(str(perft(engine, vector, 2)).encode())
    digest.update(str(random_playouts(engine, vector, 2, seed)).encode())
position = load_position("PUZZLE")
packed = StackAttackEngine.from_game(position.game).simultaneous()
result = solve_simultaneous(position.game, position.state, player=0, payoff="margin", packed=packed)
digest.update(json.dumps(matrix_proof(position.game, result)).encode())
from stratagem.solvers.boundproof import bound_proof
digest.update(json.dumps(bound_proof(position.game, result)).encode())
print(json.dumps({"compiled": module.__file__.endswith(".so"), "digest": digest.hexdigest()}))
"""


# 18 s: the engine run as plain Python in a child process (the compiled one is held to the reference above)
@pytest.mark.slow
def test_the_interpreted_engine_answers_as_the_compiled_one(tmp_path: Path) -> None:
    if not COMPILED:
        pytest.skip("the compiled core is not built: this run is the interpreted one")
    script = DIGEST.replace("PUZZLE", str(PUZZLES / "2p-actions-3-turns.toml"))
    pure, fast = run_json(script, interpreted_package(tmp_path)), run_json(script, None)
    assert (pure["compiled"], fast["compiled"]) == (False, True)
    assert pure["digest"] == fast["digest"]


def test_analyze_runs_lp_on_the_compiled_engine_where_it_can() -> None:
    from stratagem.analysis import analyze
    from stratagem.analysis.methods import engine_for

    position = load_position(PUZZLES / "2p-actions-3-turns.toml")
    if engine_for(position.game, "lp", "compiled").core_missing:
        pytest.skip("the compiled core is not built: analyze runs on the reference engine")
    compiled = analyze((position.game, position.state), method="lp", engine="compiled")
    reference = analyze((position.game, position.state), method="lp", engine="reference")
    assert (compiled.engine, reference.engine) == ("compiled", "reference")
    assert compiled.players == reference.players and compiled.value == reference.value and compiled.solved
    game_scope = StackAttackGame(2, Options(scope="game"))
    choice = engine_for(game_scope, "lp", "compiled")
    assert choice.name == "reference" and "no compiled induction" in choice.note


def test_different_states_have_different_keys() -> None:
    rng = random.Random(11)
    keys: dict[int, Any] = {}
    states: set[Any] = set()
    for players in (2, 3, 6):
        game = StackAttackGame(players, Options(scope="game"))
        engine = compiled_engine(game)
        state = game.initial_state()
        while len(states) < 1000 * players:
            if game.is_terminal(state):
                state = dealt_round(game, rng)._replace(scores=tuple(rng.randint(0, 63) for _ in range(players)))
            states.add(state)
            keys.setdefault(engine.key_hash(engine.encode(state)), state)
            state = next_state(game, state, rng)
    assert len(keys) == len(states) >= 6000

"""Stratatak's compiled engine (``engine.StratatakEngine``, a ``core.packed.PackedGame``) against the rules
engine, move for move (tests/packed_check.py says what is compared at each state).

- Random playouts from every shipped position, from seeded deals and from fresh games dealt by chance,
  under random options (both ``star_mode`` readings, hand sizes, battle limits, decks of other counts,
  copies and Stars): identical legal-move sets (and order: the reference's play order), successors,
  terminal results and returns, chance outcomes and weights. The default run compares a sample; ``-m
  slow`` at least 10^6 transitions. Each sample must have met the rules that rarely fire: a reshuffle, a
  chance draw, a Strataclash, a win, a stop at the battle limit, the deal.
- Perft through the C interface equals perft over the rules engine.
- A deliberately wrong engine (a move dropped, a wrong successor, a wrong deck, a defence said to be
  quiet) fails the comparison;
  illegal move records are refused; the interpreted engine gives the same answers as the compiled one.
"""

from __future__ import annotations

import random
import time
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from stratagem.core.game import CHANCE
from stratagem.core.packed import PackedGame
from stratagem.models.stratatak import compiled_engine
from stratagem.models.stratatak import engine as engine_module
from stratagem.models.stratatak.cards import Options
from stratagem.models.stratatak.engine import StratatakEngine
from stratagem.models.stratatak.plays import battle_winner, fighters
from stratagem.models.stratatak.position import DEAL, DRAW, OVER, STOPPED, State
from stratagem.models.stratatak.puzzle import load_position
from stratagem.models.stratatak.rules import StratatakGame, deal
from stratagem.solvers.perft import perft
from tests.interpreted import interpreted_package, run_json
from tests.packed_check import check_state, reference_perft

from .support import PUZZLES

COMPILED = engine_module.__file__.endswith(".so")
SHIPPED = sorted(PUZZLES.glob("*.toml"))


def random_options(rng: random.Random) -> Options:
    return Options(star_mode=rng.choice(("wildcard", "addon")), hand_size=rng.choice((7, 7, 3, 5)),
                   battle_limit=rng.choice((0, 0, 3, 6)), max_count=rng.choice((9, 9, 5, 12)),
                   stars=rng.choice((6, 6, 0, 2)), copies=rng.choice((2, 2, 1, 3)))


def starts(rng: random.Random) -> list[tuple[StratatakGame, State]]:
    """Every shipped position; seeded deals and fresh games (dealt by chance) under random options."""
    found = []
    for path in SHIPPED:
        position = load_position(path)
        found.append((position.game, position.state))
    for _ in range(8):
        options = random_options(rng)
        game = StratatakGame(options)
        found.append((game, game.limited(deal(options, rng))))
        found.append((game, game.initial_state()))
    return found


def check(game: StratatakGame, engine: StratatakEngine, state: State, seen: Counter[str]) -> int:
    """:func:`check_state`, and the plays in the reference's order; the transitions compared."""
    def note(before: State, move: Any, after: State) -> None:
        seen[after.phase] += 1
        if before.phase == DEAL:
            seen["deal"] += 1
        if after.shuffled and not before.shuffled and before.phase != DEAL:
            seen["reshuffle"] += 1
        if before.table and fighters(before.table) == fighters(move):
            seen["strataclash " + battle_winner(before.table, move)] += 1

    done = check_state(game, engine, state, note)
    if game.to_move(state) >= 0:
        vector = engine.encode(state)
        assert [engine.decode_move(vector, r) for r in engine.legal_moves(vector)] == list(game.legal_moves(state))
    return done


def compare_playouts(seed: int, transitions: int, max_plies: int = 300) -> tuple[int, Counter[str]]:
    """Random playouts from every start until ``transitions`` transitions are compared."""
    rng = random.Random(seed)
    seen: Counter[str] = Counter()
    done = 0
    while done < transitions:
        for game, start in starts(rng):
            engine = compiled_engine(game)
            state, plies = start, 0
            while not game.is_terminal(state) and plies < max_plies:
                done += check(game, engine, state, seen)
                if game.to_move(state) == CHANCE:
                    state = game.apply(state, rng.choice(game.chance_outcomes(state))[0])
                else:
                    state = game.apply(state, rng.choice(list(game.legal_moves(state))))
                plies += 1
            done += check(game, engine, state, seen)
            if done >= transitions:
                break
    return done, seen


RARE = (DRAW, OVER, STOPPED, "deal", "reshuffle", "strataclash attacker", "strataclash defender")


def test_the_engine_is_a_packed_game() -> None:
    position = load_position(PUZZLES / "reshuffle-gamble.toml")
    engine = compiled_engine(position.game)
    assert isinstance(engine, PackedGame) and isinstance(engine, StratatakEngine)
    assert engine.players == 2
    assert engine.decode(engine.encode(position.state)) == position.state


def test_moves_successors_results_and_chance_equal_the_rules_engine() -> None:
    done, seen = compare_playouts(28, 20_000)
    assert done >= 20_000
    missing = [rule for rule in RARE if not seen[rule]]
    assert not missing, f"the sample met no {missing}: {seen}"


@pytest.mark.slow
def test_a_million_transitions_equal_the_rules_engine() -> None:
    started = time.process_time()
    done, seen = compare_playouts(1028, 1_000_000)
    print(f"\n{done:,} Stratatak transitions compared in {time.process_time() - started:.0f} CPU s: {dict(seen)}")
    assert done >= 1_000_000
    assert all(seen[rule] for rule in RARE)


@pytest.mark.parametrize("path", SHIPPED, ids=[p.stem for p in SHIPPED])
def test_perft_from_shipped_positions_equals_the_rules_engine(path: Path) -> None:
    position = load_position(path)
    engine = compiled_engine(position.game)
    vector = engine.encode(position.state)
    counts = [perft(engine, vector, d) for d in range(5)]
    assert counts == [reference_perft(position.game, position.state, d) for d in range(5)]
    assert counts[-1] > counts[1]


@pytest.mark.parametrize("seed", range(4))
def test_perft_from_deals_equals_the_rules_engine(seed: int) -> None:
    rng = random.Random(seed)
    options = random_options(rng)
    game = StratatakGame(options)
    for state in (game.limited(deal(options, rng)), game.initial_state()):
        engine = compiled_engine(game)
        depth = 2 if state.phase == DEAL else 3
        assert perft(engine, engine.encode(state), depth) == reference_perft(game, state, depth)


class DroppedMove(StratatakEngine):
    """Wrong on purpose: the last legal play left out wherever there are two or more."""

    def legal_moves(self, vector: Any) -> Any:
        moves = super().legal_moves(vector)
        return moves[:-1] if len(moves) > 1 else moves


class WrongSuccessor(StratatakEngine):
    """Wrong on purpose: after a single-card defence, one more Blue 1 in player 1's hand."""

    def successor(self, vector: Any, record: Any) -> Any:
        out = super().successor(vector, record)
        if record[0] == 0 and record[1] == 1 and self.decode(vector).phase == "D":
            out[0] += 1
        return out


class QuietDefence(StratatakEngine):
    """Wrong on purpose: says no move can end the game at a defence too (where the battle's end may)."""

    def is_quiet(self, vector: Any) -> bool:
        return True


@pytest.mark.parametrize("wrong", ["dropped move", "wrong successor", "wrong deck", "quiet defence"])
def test_a_wrong_engine_fails_the_comparison(wrong: str) -> None:
    game = StratatakGame(Options())
    engine: Any
    if wrong == "dropped move":
        engine = DroppedMove(game)
    elif wrong == "wrong successor":
        engine = WrongSuccessor(game)
    elif wrong == "quiet defence":
        engine = QuietDefence(game)
    else:  # the engine's Stars may only be added to plays legal without them
        engine = StratatakEngine(StratatakGame(Options(star_mode="addon")))
    rng = random.Random(7)
    with pytest.raises(AssertionError):
        for _ in range(20):
            state = game.limited(deal(game.options, rng))
            for _ in range(200):
                check_state(game, engine, state, None)
                if game.is_terminal(state):
                    break
                if game.to_move(state) == CHANCE:
                    state = game.apply(state, rng.choice(game.chance_outcomes(state))[0])
                else:
                    state = game.apply(state, rng.choice(list(game.legal_moves(state))))


def test_illegal_move_records_are_refused() -> None:
    position = load_position(PUZZLES / "run-of-reds.toml")  # R5R6R8R8,B7G8 ... A1
    engine = compiled_engine(position.game)
    vector = engine.encode(position.state)
    with pytest.raises(ValueError, match="not in the hand"):
        engine.successor(vector, engine.encode_move(("B7",)))
    with pytest.raises(ValueError, match="not a Single, Run or Set"):
        engine.successor(vector, engine.encode_move(("R5", "R8")))
    with pytest.raises(ValueError, match="pass"):
        engine.successor(vector, engine.encode_draw("R5"))
    reshuffle = load_position(PUZZLES / "reshuffle-gamble.toml")
    game, state = reshuffle.game, reshuffle.state
    rng = random.Random(1)
    while game.to_move(state) != CHANCE:
        state = game.apply(state, rng.choice(list(game.legal_moves(state))))
        assert not game.is_terminal(state)
    missing = next(card for card in ("B1", "B2", "B3", "G1", "G2") if card not in state.shuffled)
    with pytest.raises(ValueError, match="drawn"):
        compiled_engine(game).successor(compiled_engine(game).encode(state), compiled_engine(game).encode_draw(missing))


DIGEST = """
import hashlib, json, random
from stratagem.models.stratatak import engine as module
from stratagem.models.stratatak.cards import Options
from stratagem.models.stratatak.engine import StratatakEngine
from stratagem.models.stratatak.rules import StratatakGame, deal
from stratagem.solvers.perft import perft, random_playouts
digest = hashlib.sha256()
for seed, options in enumerate([Options(battle_limit=6), Options(star_mode="addon", hand_size=3, battle_limit=8)]):
    game = StratatakGame(options)
    engine = StratatakEngine.from_game(game)
    for state in (game.limited(deal(options, random.Random(seed))), game.initial_state()):
        vector = engine.encode(state)
        digest.update(str(perft(engine, vector, 2)).encode())
        digest.update(str(random_playouts(engine, vector, 20, seed)).encode())
print(json.dumps({"compiled": module.__file__.endswith(".so"), "digest": digest.hexdigest()}))
"""


def test_the_interpreted_engine_answers_as_the_compiled_one(tmp_path: Path) -> None:
    if not COMPILED:
        pytest.skip("the compiled core is not built: this run is the interpreted one")
    pure, fast = run_json(DIGEST, interpreted_package(tmp_path)), run_json(DIGEST, None)
    assert (pure["compiled"], fast["compiled"]) == (False, True)
    assert pure["digest"] == fast["digest"]


def test_different_states_have_different_keys_and_equal_states_equal_keys() -> None:
    """The transposition key packs the state into lanes (``StratatakEngine.pack``): states met in random
    play from every start, under random decks (hence lane widths), each get their own key hash; and the
    known pile's slots past its top, which the engine never reads, do not change the key."""
    rng = random.Random(5)
    for game, start in starts(rng):
        engine = compiled_engine(game)
        keys: dict[int, State] = {}
        states: set[State] = set()
        state = start
        for _ in range(400):
            if game.is_terminal(state):
                state = start
            states.add(state)
            found = keys.setdefault(engine.key_hash(engine.encode(state)), state)
            assert found == state, f"two states share a key: {found} and {state}"
            moves = game.chance_outcomes(state) if game.to_move(state) == CHANCE else None
            state = game.apply(state, rng.choice(moves)[0] if moves else rng.choice(list(game.legal_moves(state))))
        assert len(keys) == len(states)
        vector = engine.encode(start)
        messy = vector.copy()
        pile = 5 * (3 * game.options.max_count + 1)  # the known pile's length word (the module docstring)
        messy[pile + 1 + int(vector[pile]): engine.width - 9] = 7  # its slots past the top
        assert engine.key_hash(messy) == engine.key_hash(vector)
        later = vector.copy()
        later[-1] += 1  # battles left: a word of its own
        assert engine.key_hash(later) != engine.key_hash(vector)


def test_a_state_of_more_cards_than_the_deck_is_refused() -> None:
    game = StratatakGame(Options(max_count=3, copies=1, stars=0))
    state = game.initial_state()
    crowded = state._replace(discard=("B1",))  # the whole deck is still in the shuffled pile
    with pytest.raises(ValueError, match="more than the deck's 9"):
        compiled_engine(game).encode(crowded)

"""The compiled ISMCTS and PIMC draw their determinisations through each game's packed sampler (stop 66).

Before, every determinisation was a reference state (``game.sample_state``) packed by ``engine.encode``:
about half of a guided 1,000-iteration ISMCTS decision on Card Clash. Now Card Clash, Stratatak and
Stack Attack hand over ``game.packed_sampler(engine, state, player)`` (``models/<game>/sampling.py``),
which writes the same rows from the same calls on the generator, and ``core/shuffles.py`` shuffles as
``random.Random.shuffle`` does, draw for draw, without its Python call per card.

- Row for row and state for state: on the shipped positions of the three games and on positions of
  random play with several player counts, options (the strategic variant; covered stacks redrawn until
  they obey the stacking rules) and phases (Stratatak's draws), for every player and several seeds, the
  sampler's rows are ``engine.encode(game.sample_state(...))``'s and the generator ends in the same state.
- The searches' answers are unchanged: compiled ISMCTS (guided and plain), PIMC and PIMC at a
  simultaneous node give what they give with the reference's sampling, and draw through the sampler
  (asked for once a search).
- Where the sampler cannot promise the reference's rows it is not used: another engine, a game whose
  ``sample_state`` is not the rules engine's, a sampler that fails its check.
"""

from __future__ import annotations

import glob
from random import Random
from typing import Any

import numpy as np
import pytest

from stratagem.core.game import SIMULTANEOUS
from stratagem.core.shuffles import AGREES, LONGEST, shuffler
from stratagem.engines import resolve
from stratagem.loading import load_position
from stratagem.matches import new_game
from stratagem.models.cardclash.rules import CardClashGame
from stratagem.solvers.compiled_ismcts import (
    Determinisations,
    ismcts_compiled,
    pimc_compiled,
    pimc_simultaneous_compiled,
)
from stratagem.solvers.mcts import sample_outcome

GAMES = ("cardclash", "stratatak", "stackattack")


def _walk(game: Any, state: Any, plies: int, seed: int) -> list[Any]:
    """The positions of ``plies`` random plies from ``state`` (chance and simultaneous nodes included)."""
    rng = Random(seed)
    found = []
    for _ in range(plies):
        if game.is_terminal(state):
            break
        found.append(state)
        mover = game.to_move(state)
        if mover == SIMULTANEOUS:
            state = game.apply(state, tuple(rng.choice(list(game.player_moves(state, q)))
                                            for q in range(game.num_players)))
        elif mover < 0:
            state = game.apply(state, sample_outcome(game.chance_outcomes(state), rng))
        else:
            state = game.apply(state, rng.choice(list(game.legal_moves(state))))
    return found


def _positions(name: str, every: int = 3) -> list[tuple[Any, Any, Any]]:
    """(game, state, engine): the shipped positions of ``name`` and some plies after each, and positions of
    random play from fresh deals of several player counts and options (every ``every``-th ply; a third as
    many of six players, whose sampling in the reference is slow)."""
    if name == "cardclash":
        games: list[Any] = [CardClashGame(2, seed=1), CardClashGame(3, seed=2),
                            CardClashGame(2, strategic=True, seed=3), CardClashGame(4, strategic=True, seed=4),
                            CardClashGame(6, width=8, height=8, seed=5)]
    else:
        games = [new_game(name, p) for p in ((2,) if name == "stratatak" else (2, 3, 4))]
    found = []
    for i, game in enumerate(games):
        step = every * (3 if game.num_players == 6 else 1)
        found += [(game, s) for k, s in enumerate(_walk(game, game.initial_state(), 60, i)) if k % step == 0]
    for path in sorted(glob.glob(f"puzzles/{name}/*.toml")):
        loaded = load_position(path)
        found += [(loaded.game, s) for s in _walk(loaded.game, loaded.state, 8, 7)]
    out = []
    for game, state in found:
        engine = resolve(game, "compiled").engine
        if engine is None:
            pytest.skip("the compiled core is not built here")
        out.append((game, state, engine))
    return out


class _Counting(Random):
    """A generator that counts its shuffles (a subclass: the shuffler hands it its own ``shuffle``)."""

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self.shuffles = 0

    def shuffle(self, x: Any) -> None:  # type: ignore[override]
        self.shuffles += 1
        super().shuffle(x)


@pytest.mark.parametrize("name", GAMES)
def test_the_packed_sampler_gives_the_reference_rows_from_the_same_draws(name: str) -> None:
    redrawn = 0
    for game, state, engine in _positions(name):
        for player in range(game.num_players):
            sampler = game.packed_sampler(engine, state, player)
            assert sampler is not None
            for seed in (0, 1):
                theirs, mine = Random(seed), Random(seed)
                want = np.array([engine.encode(game.sample_state(state, player, theirs)) for _ in range(2)])
                got = sampler.rows(mine, 2)
                assert got.dtype == np.int64 and np.array_equal(got, want)
                assert mine.getstate() == theirs.getstate()
            if name == "cardclash":  # a draw whose covered stacks broke the stacking rules was redrawn
                counting = _Counting(5)
                game.sample_state(state, player, counting)
                redrawn += counting.shuffles > game.num_players + 1
    assert name != "cardclash" or redrawn > 0


def test_the_shuffler_shuffles_as_random_does_draw_for_draw() -> None:
    assert AGREES
    for seed in (0, 1, 2):
        theirs, mine = Random(seed), Random(seed)
        shuffle = shuffler(mine)
        for length in [*range(70), 200, LONGEST, LONGEST + 1, 3000]:
            a, b = list(range(length)), list(range(length))
            theirs.shuffle(a)
            shuffle(b)
            assert a == b and theirs.getstate() == mine.getstate()
    counting = _Counting(1)
    assert shuffler(counting) == counting.shuffle  # a generator of its own: its own shuffle


def _without_sampler(monkeypatch: pytest.MonkeyPatch, game: Any) -> None:
    monkeypatch.setattr(type(game), "packed_sampler", lambda self, engine, state, player: None)


def _handed(monkeypatch: pytest.MonkeyPatch, game: Any) -> list[Any]:
    """A list of what ``game.packed_sampler`` hands over, call by call."""
    handed: list[Any] = []
    real = type(game).packed_sampler

    def recorded(self: Any, engine: Any, state: Any, player: int) -> Any:
        handed.append(real(self, engine, state, player))
        return handed[-1]

    monkeypatch.setattr(type(game), "packed_sampler", recorded)
    return handed


def _answers(game: Any, state: Any, engine: Any) -> list[Any]:
    """Every compiled sampling search's answer at ``state`` (visits and means in full), for two seeds."""
    mover = game.to_move(state)
    found: list[Any] = []
    for seed in (0, 1):
        player = 0 if mover == SIMULTANEOUS else None
        for guided in (True, False):
            result = ismcts_compiled(game, engine, state, iterations=300, seed=seed, player=player, guided=guided)
            found.append((result.best_move, [(m.notation, m.visits, m.mean) for m in result.moves]))
        if mover == SIMULTANEOUS:
            rng = Random(seed)
            found.append((pimc_simultaneous_compiled(game, engine, state, 1, rng, samples=8, rollouts=2),
                          rng.random()))
        else:
            result = pimc_compiled(game, engine, state, samples=8, rollouts=2, seed=seed)
            found.append((result.best_move, [(m.notation, m.count, m.mean) for m in result.moves]))
    return found


@pytest.mark.parametrize("path", [
    "puzzles/cardclash/square-in-7.toml", "puzzles/cardclash/strategic-in-5.toml",
    "puzzles/cardclash/three-players.toml",
    "puzzles/stratatak/run-of-reds.toml", "puzzles/stratatak/reshuffle-gamble.toml",
    "puzzles/stackattack/3p-actions-2-turns.toml", "puzzles/stackattack/2p-numbers-5-turns.toml"])
def test_the_searches_answer_as_with_the_reference_sampling_and_draw_through_the_sampler(
        path: str, monkeypatch: pytest.MonkeyPatch) -> None:
    loaded = load_position(path)
    game, state, engine = loaded.game, loaded.state, resolve(loaded.game, "compiled").engine
    if engine is None:
        pytest.skip("the compiled core is not built here")
    handed = _handed(monkeypatch, game)
    fast = _answers(game, state, engine)
    assert len(handed) == len(fast) and None not in handed  # asked once a search, and used
    with monkeypatch.context() as patch:
        _without_sampler(patch, game)
        assert _answers(game, state, engine) == fast


def test_the_sampler_is_not_used_where_it_cannot_promise_the_reference_rows(monkeypatch: pytest.MonkeyPatch) -> None:
    game = CardClashGame(2, seed=1)
    state = _walk(game, game.initial_state(), 7, 0)[-1]
    engine, player = resolve(game, "compiled").engine, game.to_move(state)
    if engine is None:
        pytest.skip("the compiled core is not built here")

    class Redealt(CardClashGame):
        def sample_state(self, state: Any, player: int, rng: Random) -> Any:
            return super().sample_state(state, player, rng)

    assert Redealt(2, seed=1).packed_sampler(engine, state, player) is None
    stratatak = new_game("stratatak", 2)
    assert game.packed_sampler(resolve(stratatak, "compiled").engine, state, player) is None
    from stratagem.models.cardclash import sampling

    monkeypatch.setattr(sampling.PackedDeals, "_draw", lambda self, shuffle: [0] * len(self.index))
    assert game.packed_sampler(engine, state, player) is None
    draws = Determinisations(game, engine, state, player)
    theirs, mine = Random(3), Random(3)
    want = [engine.encode(game.sample_state(state, player, theirs)) for _ in range(2)]
    assert np.array_equal(draws.rows(mine, 2), want) and mine.getstate() == theirs.getstate()

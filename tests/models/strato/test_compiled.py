"""The compiled search (packed.py, search_kernel.py, compiled_search.py) against the rules engine.

- Moves: on random states reached by random playouts (every weather, Fog and Storm across two and three
  rows, Cloud, ``strict_effect``, ``wind_crosses_tornado``, 1, 2 and 4 players), the compiled move
  generator gives exactly the engine's ``plays``: the same moves in the same order, the same states
  after them, the result included; its bound equals :func:`heuristic.lower_bound`; packing a state and
  unpacking it gives it back.
- Search: the compiled A*'s optimum equals breadth-first search's on seeded deals of small challenges,
  with and without the relaxation in its heuristic, and its line replays through the engine to a win.
  Its optimality is an exhaustive search: ``solve`` records it as such, never as a certificate.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

from stratagem.models.strato.rules.challenge import Challenge, CountGoal, Options
from stratagem.models.strato.rules.deal import seeded_deal
from stratagem.models.strato.rules.position import LOST, ONGOING, WON, State
from stratagem.models.strato.rules.turns import StratoGame
from stratagem.models.strato.search.compiled_search import compiled_astar
from stratagem.models.strato.search.heuristic import lower_bound
from stratagem.models.strato.search.packed import Packing, compiled_lower_bound, compiled_plays
from stratagem.models.strato.search.planning import StratoPlanning
from stratagem.models.strato.search.relaxation import relaxation_bound
from stratagem.models.strato.solve import solve
from stratagem.solvers.search import SOLVED, UNSOLVABLE, bfs

from .support import make_challenge, puzzle_challenge

CHALLENGES: dict[str, tuple[Challenge, Options]] = {
    "challenge-0": (puzzle_challenge("challenge-0"), Options()),
    "challenge-1": (puzzle_challenge("challenge-1"), Options()),
    "level-2": (puzzle_challenge("level-2-example"), Options()),
    "rw-crossing": (make_challenge(limit=5, left="RRR", right="WW"), Options(wind_crosses_tornado=True)),
    "rw-strict": (make_challenge(limit=5, left="RRR", right="WW"), Options(strict_effect=True)),
    "rc-counts": (make_challenge(weathers="RC", pairs=("RC",), limit=5, left=CountGoal(3, (("R", 2), (">", 1))),
                                 right=">>"), Options()),
    "fw-st": (make_challenge(weathers="FWST", pairs=("FW", "ST"), limit=4, left="<<", right=">", rows_required=1),
              Options()),
    "rt-fc-both": (make_challenge(weathers="RTFC", pairs=("RT", "FC"), limit=4, left="<", right=">", rows_required=2),
                   Options()),
    "three-rows": (make_challenge(weathers="RWFCST", pairs=("RW", "FC", "ST"), limit=5, left="<<?", right=">",
                                  rows_required=1, tornadoes=""), Options()),
    "three-rows-strict-crossing": (make_challenge(weathers="RWFCST", pairs=("RW", "FC", "ST"), limit=4,
                                                  left="<<", right=">>", rows_required=2),
                                   Options(strict_effect=True, wind_crosses_tornado=True)),
}


def _walk(game: StratoGame, rng: random.Random, steps: int) -> list[State]:
    """States along a random playout (any move, lost ones included, is a state to compare; the walk
    itself only goes on through ongoing states)."""
    out = []
    state = game.initial_state()
    for _ in range(steps):
        out.append(state)
        plays = [after for _, after in game.plays(state) if after.status == ONGOING]
        if not plays:
            break
        state = rng.choice(plays)
    return out


def _transitions(names: list[str], deals: int, steps: int) -> int:
    checked = 0
    for name in names:
        challenge, options = CHALLENGES[name]
        rng = random.Random(f"compiled-{name}")
        for _ in range(deals):
            players = rng.choice((1, 2, 4))
            game = StratoGame(challenge, options, seeded_deal(challenge, rng.randrange(10**6), players))
            packing = Packing(game)
            for state in _walk(game, rng, steps):
                expected = game.plays(state)
                assert compiled_plays(packing, state) == expected, (name, state)
                assert compiled_lower_bound(packing, state) == lower_bound(challenge, state), (name, state)
                checked += len(expected)
    return checked


def test_compiled_moves_equal_the_engine() -> None:
    assert _transitions(sorted(CHALLENGES), deals=2, steps=8) > 1_500


@pytest.mark.slow
def test_compiled_moves_equal_the_engine_many() -> None:
    assert _transitions(sorted(CHALLENGES), deals=40, steps=30) >= 100_000


def test_the_planning_view_forgets_the_last_weather() -> None:
    """Without Cloud the A* packs states with the last weather blanked, as StratoPlanning does."""
    challenge, options = CHALLENGES["challenge-1"]
    game = StratoGame(challenge, options, seeded_deal(challenge, 5, 2))
    packing = Packing(game, blank_last=True)
    planning = StratoPlanning(game)
    for state in _walk(game, random.Random(3), 10):
        state = state._replace(last="")
        expected = [(move, after._replace(last="")) for move, after in game.plays(state)]
        assert compiled_plays(packing, state) == expected
        assert [s for _, s in planning.successors(state)] == \
            list(dict.fromkeys(s for _, s in expected if s.status != LOST))


def test_packing_round_trip() -> None:
    from stratagem.models.strato.search import search_kernel as kernel

    challenge, options = CHALLENGES["three-rows"]
    game = StratoGame(challenge, options, seeded_deal(challenge, 11, 4))
    packing = Packing(game)
    key = np.empty(packing.layout.rows + 1, np.int64)
    seen = 0
    for state in _walk(game, random.Random(1), 25):
        for _, after in game.plays(state):
            if after.status == LOST:
                continue
            kernel.pack(packing.vector(after), packing.spec, key)
            assert packing.key_state(key) == after
            seen += 1
    assert seen > 100


# -- A* against breadth-first search -----------------------------------------------------------------
SEARCH_CHALLENGES: dict[str, tuple[Challenge, Options]] = {
    "challenge-0": (puzzle_challenge("challenge-0"), Options()),
    "rw-rr-ww": (make_challenge(limit=5, left="RR", right="WW"), Options()),
    "rw-symbolic": (make_challenge(limit=5, left="<<<", right=">>"), Options()),
    "rw-crossing": (make_challenge(limit=5, left="RRR", right="WW"), Options(wind_crosses_tornado=True)),
    "rw-strict": (make_challenge(limit=5, left="RRR", right="WW"), Options(strict_effect=True)),
    "st-ss-tt": (make_challenge(weathers="ST", pairs=("ST",), limit=5, left="SS", right="TT"), Options()),
    "rc-counts": (make_challenge(weathers="RC", pairs=("RC",), limit=5, left=CountGoal(3, (("R", 2),)), right=">>"),
                  Options()),
    "two-rows-rw-sc": (make_challenge(weathers="RWSC", pairs=("RW", "SC"), limit=4, left="<<", right=">",
                                      rows_required=1), Options()),
    "two-rows-fw-st": (make_challenge(weathers="FWST", pairs=("FW", "ST"), limit=4, left="<<", right=">",
                                      rows_required=1), Options()),
    "two-rows-rt-fc-both": (make_challenge(weathers="RTFC", pairs=("RT", "FC"), limit=4, left="<", right=">",
                                           rows_required=2), Options()),
    "fc-unsolvable": (make_challenge(weathers="FC", pairs=("FC",), limit=5, left="FF", right="CC"), Options()),
}


#: Challenges whose deals breadth-first search decides in well under a second (the default run).
QUICK = ("challenge-0", "fc-unsolvable", "rc-counts", "rw-crossing", "rw-rr-ww", "rw-strict", "rw-symbolic",
         "st-ss-tt", "two-rows-fw-st", "two-rows-rw-sc")


def _search_deals(count: int, seed: str, names: tuple[str, ...] = tuple(sorted(SEARCH_CHALLENGES))
                  ) -> list[tuple[str, int, int]]:
    rng = random.Random(seed)
    return [(names[i % len(names)], rng.choice((1, 2, 4)), rng.randrange(10**6)) for i in range(count)]


def _agree(name: str, players: int, seed: int, cap: int) -> str:
    challenge, options = SEARCH_CHALLENGES[name]
    game = StratoGame(challenge, options, seeded_deal(challenge, seed, players))
    plain = bfs(StratoPlanning(game), max_nodes=cap)
    if plain.status not in (SOLVED, UNSOLVABLE):
        return "skipped"
    bound = relaxation_bound(challenge, options, game.initial_state())
    for relaxation in (None, bound):
        found = compiled_astar(game, relaxation=relaxation)
        assert found.status == plain.status, (name, players, seed, relaxation is not None)
        if plain.status == SOLVED:
            assert found.moves is not None and plain.moves is not None
            assert len(found.moves) == len(plain.moves), (name, players, seed)
            state = game.initial_state()
            for move in found.moves:
                state = game.apply(state, move)
            assert state.status == WON
    return plain.status


def test_compiled_astar_equals_bfs() -> None:
    results = [_agree(name, players, seed, 5_000) for name, players, seed in _search_deals(10, "astar-bfs", QUICK)]
    assert results.count(SOLVED) >= 6 and UNSOLVABLE in results


@pytest.mark.slow
def test_compiled_astar_equals_bfs_many() -> None:
    results = [_agree(name, players, seed, 200_000) for name, players, seed in _search_deals(250, "astar-bfs-slow")]
    assert results.count(SOLVED) >= 150


def test_solve_astar_runs_compiled_and_claims_an_exhaustive_search() -> None:
    challenge, options = SEARCH_CHALLENGES["challenge-0"]
    game = StratoGame(challenge, options, seeded_deal(challenge, 2, 1))
    solution = solve(game, "astar")
    python: Any = bfs(StratoPlanning(game))
    assert solution.status == SOLVED and len(solution.moves) == len(python.moves)
    assert solution.stats["engine"] == "compiled"
    assert solution.evidence["kind"] == "exhaustive-search" and solution.evidence["certificate"] is False
    assert "exhaustive search" in solution.optimality

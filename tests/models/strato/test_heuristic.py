"""Admissibility of the A*/IDA* lower bound (heuristic.py): ``lower_bound`` never exceeds the true
number of turns to victory, measured by breadth-first search (solvers/search.py ``distance`` /
``with_start``) on states reached by random playouts from seeded deals of small challenges."""

from __future__ import annotations

import random

import pytest

from stratagem.models.strato.rules.challenge import Challenge, Options
from stratagem.models.strato.rules.deal import seeded_deal
from stratagem.models.strato.rules.position import LOST, ONGOING, WON, State, format_state, parse_state
from stratagem.models.strato.rules.turns import StratoGame
from stratagem.models.strato.search.heuristic import lower_bound
from stratagem.models.strato.search.planning import StratoPlanning
from stratagem.solvers.search import SearchIncomplete, bfs, distance, with_start

from .support import make_challenge, puzzle_challenge

SMALL: dict[str, tuple[Challenge, Options]] = {
    "challenge-0": (puzzle_challenge("challenge-0"), Options()),
    "rw-limit5-rrr": (make_challenge(limit=5, left="RRR", right="WWW"), Options()),
    "rt-limit5-rr": (make_challenge(weathers="RT", pairs=("RT",), limit=5, left="RR", right="TT"), Options()),
    "sw-limit4-ss": (make_challenge(weathers="SW", pairs=("SW",), limit=4, left="SS", right="WW"), Options()),
    "rw-crossing": (make_challenge(limit=5, left="<<<", right=">>"), Options(wind_crosses_tornado=True)),
    "rw-strict": (make_challenge(limit=5, left="RRR", right="WW"), Options(strict_effect=True)),
    "two-rows": (
        make_challenge(weathers="RWSC", pairs=("RW", "SC"), limit=4, left="<<", right=">", rows_required=1),
        Options(),
    ),
}


def _random_states(game: StratoGame, rng: random.Random, count: int) -> list[State]:
    """States along a random playout that avoids moves that lose at once."""
    states = []
    state = game.initial_state()
    while len(states) < count:
        successors = list(StratoPlanning(game).successors(state))
        if not successors or state.status != ONGOING:
            break
        state = rng.choice(successors)[1]
        states.append(state)
    return states


#: (deals, random states per deal, BFS expansion cap) per challenge: two rows branch widely.
BUDGET = {"two-rows": (3, 4, 120)}


@pytest.mark.parametrize("name", sorted(SMALL))
def test_engine_lower_bound_never_exceeds_the_bfs_distance(name: str) -> None:
    challenge, options = SMALL[name]
    deals, per_deal, cap = BUDGET.get(name, (6, 4, 300))
    rng = random.Random(name)
    checked = 0
    for _ in range(deals):
        players = rng.choice((1, 2, 4))
        game = StratoGame(challenge, options, seeded_deal(challenge, rng.randrange(10**6), players))
        problem = StratoPlanning(game)
        for state in [game.initial_state(), *_random_states(game, rng, per_deal)]:
            # The same rows and hands with a draw pile cut short: any state must satisfy the bound,
            # and these are cheap to search to the end.
            short = state._replace(pile=state.pile[: rng.randrange(4)])
            for probe in (state, short):
                try:
                    true = distance(problem, probe, max_nodes=cap)
                except SearchIncomplete:
                    continue
                if true is None:
                    continue
                assert lower_bound(challenge, probe) <= true, format_state(probe)
                checked += 1
    assert checked >= 5


@pytest.mark.parametrize("name", sorted(set(SMALL) - {"two-rows"}))
def test_engine_lower_bound_is_admissible_along_optimal_lines(name: str) -> None:
    challenge, options = SMALL[name]
    seeds = (2,) if name == "challenge-0" else (0, 1, 2)
    for seed in seeds:
        game = StratoGame(challenge, options, seeded_deal(challenge, seed, 1 + seed))
        found = bfs(StratoPlanning(game), max_nodes=3000)
        if found.moves is None:
            continue
        state = game.initial_state()
        for done, move in enumerate(found.moves):
            # The rest of an optimal line is an optimal line: the true distance is what is left.
            assert lower_bound(challenge, state) <= len(found.moves) - done, format_state(state)
            state = game.apply(state, move)
        assert state.status == WON and lower_bound(challenge, state) == 0


def test_engine_bfs_distance_from_a_state_on_an_optimal_line_is_what_is_left() -> None:
    challenge, options = SMALL["rw-limit5-rrr"]
    game = StratoGame(challenge, options, seeded_deal(challenge, 1, 2))
    problem = StratoPlanning(game)
    line = bfs(problem).moves
    assert line is not None
    state = game.initial_state()
    for done, move in enumerate(line):
        assert bfs(with_start(problem, state)).lower_bound == len(line) - done
        state = game.apply(state, move)


def test_engine_lower_bound_of_the_challenge_0_setup() -> None:
    # Supply: 4 R and 4 W needed, 2 and 2 on the table -> 4 turns; length: 2 + 2 cards short -> 2 turns.
    challenge = puzzle_challenge("challenge-0")
    assert lower_bound(challenge, parse_state("RW(RW)RW RWW WWRRWRWRRWR 1 -")) == 4


def test_engine_lower_bound_length_term_counts_two_cards_per_turn() -> None:
    # Only R cards on the table, plenty of them: the length shortfall 0 + 4 = 4 gives 2 turns.
    challenge = make_challenge(limit=6, left="RR", right="RRRR")
    assert lower_bound(challenge, parse_state("RRRRRR(RW) RRR RRR 1 -")) == 2


def test_engine_lower_bound_at_least_one_until_won() -> None:
    challenge = puzzle_challenge("challenge-0")
    met_but_not_declared = parse_state("RRRR(RW)WWWW RRW W 1 -")
    assert lower_bound(challenge, met_but_not_declared) == 1
    assert lower_bound(challenge, met_but_not_declared._replace(status=WON)) == 0
    assert lower_bound(challenge, met_but_not_declared._replace(status=LOST)) == 0


def test_engine_lower_bound_takes_the_cheapest_set_of_rows() -> None:
    challenge = make_challenge(weathers="RWSC", pairs=("RW", "SC"), left="<<", right=">>", rows_required=1)
    state = parse_state("(RW)/SS(SC)CC RRW W 1 -")
    assert lower_bound(challenge, state) == 1

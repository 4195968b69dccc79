"""SAT, CP-SAT and A* agree on the optimal length of every shipped deal and of random seeded deals.

Issue 3's acceptance: "BFS, SAT and CP-SAT agree on solvability and optimal length on every shipped deal
and on at least 50 random seeded deals of each challenge". Three independent answers per deal:

* **SAT**: what ``solve --method sat`` runs: the incremental horizon search (one CaDiCaL instance,
  horizons under assumptions) from below the heuristic's bound up, then the plain formula of one turn
  less than the line refuted from scratch, and that DRUP refutation checked by the project's checker
  (on the fast shipped deals and random challenge-0 deals; elsewhere see ``CERTIFIED``).
  The line is decoded and replayed by the rules engine inside ``StratoCNF.decode`` and replayed again.
* **CP-SAT**: the same horizon model solved by CP-SAT at two horizons: "a win within ``k - 1`` turns"
  must be INFEASIBLE (CP-SAT alone) and "within ``k``" feasible (searched from SAT's line as a hint),
  which fixes CP-SAT's optimum at ``k`` (the formula says *within*, so one infeasible horizon covers
  every shorter one). Its line is replayed too.
* **A***: exhaustive best-first search with the admissible bound of :mod:`heuristic` (an exact
  optimum by admissibility; on challenge 0 it expands fewer states than BFS, which
  ``test_search_agreement.py`` compares it with). BFS itself cannot finish on challenge 1 or the
  level-2 example: their spaces hold millions of states at depth 7-10.

Which deals run where: the default run covers every shipped deal of challenge 0, challenge 1's solo-3 and
three random challenge-0 deals; everything else is marked ``slow`` (seconds to minutes each on 2 cores).
A* must finish on the deals of ``ASTAR_SHIPPED``; elsewhere it gets ``ASTAR_BUDGET`` expansions and,
when stopped, its proven lower bound must not exceed the optimum SAT and CP-SAT agree on.
"""

from __future__ import annotations

from functools import cache

import pytest

from stratagem.models.strato.encodings.cpsat import StratoCPSAT
from stratagem.models.strato.encodings.sat import StratoCNF, max_turns
from stratagem.models.strato.rules.challenge import Challenge, Options
from stratagem.models.strato.rules.deal import seeded_deal
from stratagem.models.strato.rules.notation import Move
from stratagem.models.strato.rules.position import WON
from stratagem.models.strato.rules.puzzle import load_puzzle
from stratagem.models.strato.rules.turns import StratoGame
from stratagem.models.strato.search.heuristic import lower_bound
from stratagem.models.strato.search.planning import StratoPlanning
from stratagem.models.strato.solve import SAT_WARM_UP, SAT_WINDOW
from stratagem.solvers import drup_compiled
from stratagem.solvers.drup import check_drup_data
from stratagem.solvers.satplan import incremental_search
from stratagem.solvers.search import astar

from .support import PUZZLES

PUZZLE_NAMES = ("challenge-0", "challenge-1", "level-2-example")

#: Shipped deals whose three answers take a few seconds together (measured on 2 cores; the rest take
#: from 10 s to several minutes each).
FAST_SHIPPED = {
    *(("challenge-0", name) for name in ("solo-1", "solo-2", "solo-3", "duo-1", "duo-2", "duo-3",
                                          "four-1", "four-2", "four-3")),
    ("challenge-1", "solo-3"),
}


@cache
def _puzzle(name: str):  # type: ignore[no-untyped-def]
    return load_puzzle(PUZZLES / f"{name}.toml")


def _challenge(name: str) -> Challenge:
    return _puzzle(name).challenge  # type: ignore[no-any-return]


#: Shipped deals on which A* finishes (measured: see the report); it must, and must agree.
ASTAR_SHIPPED = {
    *(("challenge-0", name) for name in ("solo-1", "solo-2", "solo-3", "duo-1", "duo-2", "duo-3",
                                          "four-1", "four-2", "four-3")),
    *(("challenge-1", name) for name in ("solo-3", "duo-3", "four-2", "four-3")),
}
#: Expansions A* gets elsewhere (10-30 s on these deals).
ASTAR_BUDGET = 5_000

SHIPPED = [(name, deal.name) for name in PUZZLE_NAMES for deal in _puzzle(name).deals]

#: Random deals: seeds from 200 on, players 1, 2 and 4 in turn, 51 per challenge.
RANDOM = [(players, seed) for seed in range(200, 217) for players in (1, 2, 4)]


def _replays_to_victory(game: StratoGame, moves: tuple[Move, ...]) -> bool:
    state = game.initial_state()
    for move in moves:
        if state.status == WON:
            return False
        state = game.apply(state, move)
    return state.status == WON


#: Seconds SAT, and then CP-SAT, get on a random deal before the deal is reported undecided (skipped,
#: with the bound reached). With encoding 2 some random deals were as hard as challenge 1's shared layout
#: (seed 205 solo: SAT undecided after 25 min); with encoding 3 all 51 challenge-1 deals took 8-333 s a
#: deal for all three answers together, and with encoding 4 6-400 s (all 51 agree; run beside other jobs).
RANDOM_BUDGET = 300.0


def sat_optimum(game: StratoGame, certify: bool = True, budget: float | None = None) -> tuple[Move, ...]:
    """SAT's optimal line as ``solve --method sat`` finds it, with its certificate checked.

    The first satisfiable horizon after a refuted one (incremental search); with ``certify``, then the
    plain formula of one turn less refuted from scratch with DRUP output, and that refutation checked by
    the project's DRUP checker. Without it the refutation under assumptions is the solver's answer, not
    a certificate (see :data:`CERTIFIED`).
    """
    start = game.initial_state()
    first = max(0, lower_bound(game.challenge, start) - 1)
    result = incremental_search(lambda lo, hi: StratoCNF(game, hi, open_from=lo),
                                first=max(0, first - SAT_WARM_UP), last=max_turns(start), step=SAT_WINDOW,
                                prove=(lambda k: StratoCNF(game, k)) if certify else None, time_limit=budget)
    if result.status == "unknown" and result.stopped_by == "time":
        found = f", a line of {len(result.moves)} turns found" if result.moves else ""
        pytest.skip(f"undecided: SAT refuted {result.lower_bound - 1} turns{found} in {budget:g} s (not agreement)")
    assert result.status == "solved", (result.status, result.runs)
    assert result.moves is not None and _replays_to_victory(game, result.moves)
    if certify and result.moves:
        refutation = result.refutation
        assert refutation is not None and refutation.horizon == len(result.moves) - 1
        proof = "".join(f"{line}\n" for line in refutation.proof).encode()
        verdict, _ = check_drup_data(refutation.clauses, proof, "CaDiCaL's proof")
        assert verdict.valid, verdict.reason
    return result.moves


def cpsat_confirms(game: StratoGame, line: tuple[Move, ...], budget: float | None = None) -> None:
    """CP-SAT: no win within ``k - 1`` turns (alone), a win within ``k`` (hinted with SAT's line of ``k``).

    The hint only guides CP-SAT's search (its own model still decides; without it finding a 10-turn win
    on a level-2 deal takes CP-SAT minutes); the infeasibility of ``k - 1``, which makes ``k`` optimal,
    is CP-SAT's own.
    """
    k = len(line)
    if k > 0:
        below, _ = StratoCPSAT(game, k - 1).solve_cpsat(budget)
        if below is None:
            pytest.skip(f"undecided: CP-SAT did not refute {k - 1} turns in {budget:g} s (SAT: {k}; not agreement)")
        assert below is False, f"CP-SAT finds a win within {k - 1} turns"
    model = StratoCPSAT(game, k)
    model.hint_line(line)
    found, assignment = model.solve_cpsat(budget)
    if found is None:
        pytest.skip(f"undecided: CP-SAT found no win within {k} turns in {budget:g} s (SAT: {k}; not agreement)")
    assert found is True and assignment is not None, f"CP-SAT finds no win within {k} turns"
    moves = model.decode(assignment)
    assert len(moves) <= k and _replays_to_victory(game, moves)


def astar_agrees(game: StratoGame, k: int, max_nodes: int | None) -> bool:
    """A* finds a line of ``k`` turns; or, stopped by ``max_nodes``, its proven bound is at most ``k``.

    Returns whether A* finished. Without ``max_nodes`` it must finish.
    """
    result = astar(StratoPlanning(game), max_nodes=max_nodes)
    if result.status != "solved":
        assert max_nodes is not None and result.status == "unknown", result.status
        assert result.lower_bound <= k, (result.lower_bound, k)
        return False
    assert result.moves is not None and _replays_to_victory(game, result.moves)
    assert len(result.moves) == k
    return True


#: Where SAT's answer in the agreement tests comes with a checked certificate: the fast shipped deals
#: (and random challenge-0 deals). Elsewhere SAT's answer is the incremental refutation under
#: assumptions, cross-checked by CP-SAT and A*: a certificate (the plain formula of one turn less refuted
#: from scratch, then checked) took 2-4 s on challenge 1's long shipped deals but 1-15 minutes a deal on
#: level 2 (encoding 3, 2 shared cores). The decided shipped deals' certificates are checked one deal at
#: a time in ``test_engine_sat_certificate_of_each_long_shipped_deal_checks`` (slow).
CERTIFIED = FAST_SHIPPED


def _agree(game: StratoGame, astar_nodes: int | None, certify: bool, budget: float | None = None) -> None:
    line = sat_optimum(game, certify, budget)
    cpsat_confirms(game, line, budget)
    astar_agrees(game, len(line), astar_nodes)


#: Shipped deals no method decided in the measurements behind this file (none since encoding 4).
#: Challenge 1's shared layout (solo-1, duo-1, four-1) was here until encoding 4: SAT found 11-turn
#: lines at once, but "a win within 10 turns" stayed undecided after 1500 s of SAT with encoding 3.
#: Encoding 4 (the room bound) refutes it, and this test passed on all three with encoding 4: solo-1
#: in 27 min, duo-1 in 18 min, four-1 in 13 min (SAT, CP-SAT and A* together; 2 shared cores). They are
#: the slowest deals here.
UNDECIDED: set[tuple[str, str]] = set()


def _shipped_param(name: str, deal: str) -> object:
    marks: tuple[pytest.MarkDecorator, ...] = () if (name, deal) in FAST_SHIPPED else (pytest.mark.slow,)
    if (name, deal) in UNDECIDED:
        marks = (pytest.mark.skip(reason="no method decides this deal within the measured hours (issue 3)"),)
    return pytest.param(name, deal, marks=marks, id=f"{name}-{deal}")


@pytest.mark.parametrize(("name", "deal"), [_shipped_param(name, deal) for name, deal in SHIPPED])
def test_engine_sat_and_cpsat_agree_on_every_shipped_deal_and_astar_where_it_finishes(name: str, deal: str) -> None:
    puzzle = _puzzle(name)
    spec = next(d for d in puzzle.deals if d.name == deal)
    # A* must finish where it was measured to; elsewhere it gets a budget and its bound must not
    # contradict the optimum.
    _agree(puzzle.game(spec), None if (name, deal) in ASTAR_SHIPPED else ASTAR_BUDGET, (name, deal) in CERTIFIED)


def test_engine_every_shipped_deal_and_fifty_random_deals_per_challenge_are_listed() -> None:
    assert len(SHIPPED) == sum(len(_puzzle(name).deals) for name in PUZZLE_NAMES) == 27
    assert len(RANDOM) >= 50


#: Random challenge-0 deals in the default run (the rest are ``slow``: about 3 s each).
DEFAULT_RANDOM_CHALLENGE_0 = RANDOM[:3]


def _random_param(name: str, players: int, seed: int) -> object:
    fast = name == "challenge-0" and (players, seed) in DEFAULT_RANDOM_CHALLENGE_0
    marks = () if fast else (pytest.mark.slow,)
    return pytest.param(name, players, seed, marks=marks, id=f"{name}-p{players}-s{seed}")


@pytest.mark.parametrize(
    ("name", "players", "seed"),
    [_random_param("challenge-0", players, seed) for players, seed in RANDOM],
)
def test_engine_cpsat_agrees_with_sat_on_random_challenge_0_deals(name: str, players: int, seed: int) -> None:
    # A* against SAT on random challenge-0 deals is test_sat.py's; here CP-SAT joins them.
    challenge = _challenge(name)
    game = StratoGame(challenge, Options(), seeded_deal(challenge, seed, players))
    cpsat_confirms(game, sat_optimum(game))


@pytest.mark.parametrize(
    ("name", "players", "seed"),
    [_random_param(name, players, seed) for name in ("challenge-1", "level-2-example") for players, seed in RANDOM],
)
def test_engine_sat_cpsat_agree_and_astar_does_not_contradict_on_random_deals(
    name: str, players: int, seed: int
) -> None:
    challenge = _challenge(name)
    _agree(StratoGame(challenge, Options(), seeded_deal(challenge, seed, players)), ASTAR_BUDGET, certify=False,
           budget=RANDOM_BUDGET)


@pytest.mark.slow
@pytest.mark.parametrize(
    ("name", "players", "seed"),
    [pytest.param(name, players, seed, id=f"{name}-p{players}-s{seed}")
     for name in ("challenge-1", "level-2-example") for players, seed in RANDOM],
)
def test_engine_sat_certificate_of_each_random_deal_checks(name: str, players: int, seed: int) -> None:
    """The certificate of SAT's optimum on the random deals the agreement test above decides without one.

    The search's time is bounded by the agreement test's budget (a deal it leaves undecided is skipped);
    the check of the refutation is not, and uses the compiled checker on large proofs. Measured with
    encoding 4, one deal at a time beside other jobs on 2 cores: all 51 challenge-1 deals passed (4-415 s
    a deal) and all 51 level-2 deals (15-136 s a deal).
    """
    challenge = _challenge(name)
    game = StratoGame(challenge, Options(), seeded_deal(challenge, seed, players))
    assert sat_optimum(game, certify=True, budget=RANDOM_BUDGET)


#: Shipped deals whose certificate only the compiled DRUP checker gets through in reasonable time:
#: challenge 1's shared layout. CaDiCaL refutes "a win within 10 turns" with 18,028,442 proof lines for
#: solo-1, 10,108,339 for duo-1 and 10,009,906 for four-1. The compiled checker verified them in 25, 9
#: and 17 min (1,570,577, 845,209 and 1,002,841 lemmas checked), beside two or three other jobs on 2
#: cores; this test passed on duo-1 in 21 min and four-1 in 19. The pure-Python reference checked about 36 lemmas a
#: second on solo-1's, which is about 100 hours. Without the compiled core these are skipped.
NEEDS_COMPILED = {("challenge-1", "solo-1"), ("challenge-1", "duo-1"), ("challenge-1", "four-1")}

LONG_SHIPPED = [
    pytest.param(name, deal, id=f"{name}-{deal}", marks=(
        pytest.mark.skipif(not drup_compiled.available(), reason="a proof of millions of lines needs the compiled "
                           "DRUP checker, and the compiled core is not built"),
    ) if (name, deal) in NEEDS_COMPILED else ())
    for name, deal in SHIPPED if (name, deal) not in UNDECIDED | CERTIFIED
]


@pytest.mark.slow
@pytest.mark.parametrize(("name", "deal"), LONG_SHIPPED)
def test_engine_sat_certificate_of_each_long_shipped_deal_checks(name: str, deal: str) -> None:
    """The certificate ``solve --method sat`` writes, on the shipped deals it takes minutes for."""
    puzzle = _puzzle(name)
    game = puzzle.game(next(d for d in puzzle.deals if d.name == deal))
    assert len(sat_optimum(game, certify=True)) >= 7


@pytest.mark.slow
@pytest.mark.parametrize(
    ("name", "players", "seed"),
    [pytest.param(name, players, seed, id=f"{name}-p{players}-s{seed}")
     for name in ("challenge-1", "level-2-example") for players, seed in RANDOM],
)
def test_engine_the_relaxation_pipeline_agrees_with_sat_on_random_deals(name: str, players: int, seed: int) -> None:
    """``solve`` (auto: the relaxation bound, its guided line and its pruned search first) finds SAT's
    optimum, and a relaxation certificate, where it gives one, checks: the bound recomputes to what it
    claims, and either equals the line's length or the pruned search of the horizon below it, repeated,
    finds no line."""
    from stratagem.models.strato.search.relaxation import relaxation_bound
    from stratagem.models.strato.solve import solve

    challenge = _challenge(name)
    game = StratoGame(challenge, Options(), seeded_deal(challenge, seed, players))
    solution = solve(game, "auto", RANDOM_BUDGET, fallback=False)
    if not solution.optimal:
        pytest.skip(f"undecided within {RANDOM_BUDGET:g} s: {solution.optimality}")
    assert _replays_to_victory(game, solution.moves)
    if solution.evidence["kind"] in ("relaxation-bound", "relaxation-search"):
        again = relaxation_bound(challenge, Options(), game.initial_state(),
                                 track_ends=solution.evidence["ends"] == "tracked")
        assert again.bound == solution.evidence["bound"]
        if solution.evidence["kind"] == "relaxation-bound":
            assert again.bound == len(solution.moves)
        else:  # the search pruned by the relaxation, repeated: no line up to the horizon
            from stratagem.models.strato.search.guided import bounded_line, goal_distances

            horizon = solution.evidence["horizon"]
            assert horizon == len(solution.moves) - 1
            repeated = bounded_line(game, goal_distances(game, again), horizon)
            assert repeated.exhausted and repeated.moves is None
    assert len(sat_optimum(game, certify=False, budget=RANDOM_BUDGET)) == len(solution.moves)

"""The SAT model against breadth-first search: same solvability, same optimal length, checked proofs.

Every satisfying assignment is decoded and replayed by the rules engine inside ``StratoCNF.decode``
(a transition the engine does not allow raises), and every refutation is re-checked with the
project's DRUP checker.
"""

from __future__ import annotations

from functools import cache

import pytest

from stratagem.models.strato.encodings.sat import StratoCNF, max_turns
from stratagem.models.strato.rules.challenge import Options
from stratagem.models.strato.rules.deal import seeded_deal
from stratagem.models.strato.rules.notation import Move
from stratagem.models.strato.rules.position import WON, State
from stratagem.models.strato.rules.turns import StratoGame
from stratagem.models.strato.search.compiled_search import compiled_astar
from stratagem.models.strato.search.planning import StratoPlanning
from stratagem.solvers.drup import check_drup_data
from stratagem.solvers.satplan import SolverProgress, horizon_search, incremental_search
from stratagem.solvers.search import SearchResult, bfs

from .support import puzzle_challenge
from .test_search_agreement import CHALLENGES, DEALS, HEAVY_DEALS, deal_params


def sat_solve(game: StratoGame):  # type: ignore[no-untyped-def]
    start = game.initial_state()
    return horizon_search(lambda k: StratoCNF(game, k), first=0, last=max_turns(start))


def _check_refutation(result) -> None:  # type: ignore[no-untyped-def]
    """The refutation's DRUP text checked as ``verify`` checks a proof file's (``check_drup_data``: the text
    parsed straight into the checker's arrays, three times as fast as reading it into Python tuples first;
    the Python reader and checker are held to it in test_drup.py)."""
    ref = result.refutation
    assert ref is not None
    verdict, _ = check_drup_data(ref.clauses, "".join(f"{line}\n" for line in ref.proof).encode(), "CaDiCaL's proof")
    assert verdict.valid, verdict.reason


@cache
def _reference(name: str, players: int, seed: int) -> tuple[StratoGame, SearchResult[State, Move]]:
    """The seeded deal of ``CHALLENGES[name]`` and its breadth-first search (50,000 nodes), found once a
    process: the SAT and CP-SAT comparisons ask for the same deals."""
    challenge, options = CHALLENGES[name]
    game = StratoGame(challenge, options, seeded_deal(challenge, seed, players))
    return game, bfs(StratoPlanning(game), max_nodes=50_000)


def _agree(game: StratoGame, reference: SearchResult[State, Move]) -> None:
    assert reference.status in ("solved", "unsolvable")
    result = sat_solve(game)
    assert result.status == reference.status
    _check_refutation(result)
    if reference.status == "solved":
        assert result.moves is not None
        assert len(result.moves) == len(reference.moves or ()) == result.lower_bound
        assert result.refutation is not None and result.refutation.horizon == len(result.moves) - 1
        state = game.initial_state()
        for move in result.moves:
            state = game.apply(state, move)
        assert state.status == WON
    else:
        assert result.refutation is not None and result.refutation.horizon == max_turns(game.initial_state())


@pytest.mark.parametrize(("name", "players", "seed"), deal_params(DEALS, HEAVY_DEALS))
def test_engine_sat_agrees_with_bfs_on_small_challenges(name: str, players: int, seed: int) -> None:
    _agree(*_reference(name, players, seed))


CHALLENGE_0_SEEDS = [(players, seed) for players in (1, 2, 4) for seed in range(100, 117)]


def test_engine_fifty_random_challenge_0_deals_are_compared() -> None:
    assert len(CHALLENGE_0_SEEDS) >= 50


@pytest.mark.parametrize(("players", "seed"), CHALLENGE_0_SEEDS)
def test_engine_sat_agrees_with_astar_on_random_challenge_0_deals(players: int, seed: int) -> None:
    """The optimum by A* on the compiled engine (0.3 CPU s for the 51 deals; the rules engine's A* took 20 s):
    the compiled A* is held to the rules engine's breadth-first search in test_compiled.py (10 deals by
    default, 250 in the slow run), and SAT itself to that search on the 87 deals above."""
    challenge = puzzle_challenge("challenge-0")
    game = StratoGame(challenge, Options(), seeded_deal(challenge, seed, players))
    reference = compiled_astar(game)
    start = game.initial_state()
    result = horizon_search(lambda k: StratoCNF(game, k), first=max(0, len(reference.moves or ()) - 2),
                            last=max_turns(start))
    assert result.status == reference.status == "solved"
    assert len(result.moves or ()) == len(reference.moves or ())
    _check_refutation(result)


def test_engine_decoding_refuses_a_model_the_rules_do_not_allow() -> None:
    from stratagem.models.strato.encodings.sat import EncodingError

    challenge = puzzle_challenge("challenge-0")
    game = StratoGame(challenge, Options(), seeded_deal(challenge, 1, 1))
    cnf = StratoCNF(game, 5)
    from pysat.solvers import Solver

    with Solver(name="cadical195", bootstrap_with=cnf.clauses) as solver:
        assert solver.solve()
        model = solver.get_model()
    # Tamper with the model: claim the first turn plays a card at the other end.
    play0, play1 = cnf.var("play", 0, 0), cnf.var("play", 0, 1)
    tampered = [(-lit if abs(lit) in (play0, play1) else lit) for lit in model]
    with pytest.raises(EncodingError):
        cnf.decode(tampered)


CPSAT_DEALS = DEALS[::3]


@pytest.mark.parametrize(("name", "players", "seed"), deal_params(CPSAT_DEALS))
def test_engine_cpsat_agrees_with_bfs_on_small_challenges(name: str, players: int, seed: int) -> None:
    from stratagem.models.strato.encodings.cpsat import StratoCPSAT

    game, reference = _reference(name, players, seed)
    start = game.initial_state()
    result = horizon_search(lambda k: StratoCPSAT(game, k), first=0, last=max_turns(start), backend="cpsat")
    assert result.status == reference.status
    if reference.status == "solved":
        assert len(result.moves or ()) == len(reference.moves or ())


def test_engine_the_cnf_of_a_record_is_the_cnf_of_its_puzzle() -> None:
    """verify rebuilds the CNF from a record's setup: it must come out byte for byte as solve built it."""
    import json

    from stratagem.loading import game_from_record
    from stratagem.models.strato.rules.position import format_state
    from stratagem.models.strato.rules.puzzle import load_puzzle
    from stratagem.solvers.dimacs import write_dimacs

    from .support import PUZZLES

    for path in sorted(PUZZLES.glob("*.toml")):
        puzzle = load_puzzle(path)
        game = puzzle.game(puzzle.deals[0])
        setup = json.loads(json.dumps(puzzle.setup(), sort_keys=True))
        rebuilt, _ = game_from_record("strato", setup, format_state(game.initial_state()), str(path))
        for horizon in (0, 2):
            a, b = StratoCNF(game, horizon), StratoCNF(rebuilt, horizon)
            assert write_dimacs(a.clauses, a.num_vars, a.comments) == write_dimacs(b.clauses, b.num_vars, b.comments)


INCREMENTAL_DEALS = DEALS[::4]


@pytest.mark.parametrize(("name", "players", "seed"), deal_params(INCREMENTAL_DEALS))
def test_engine_incremental_search_agrees_with_the_plain_horizon_search_and_certifies_alike(
    name: str, players: int, seed: int
) -> None:
    """``solve --method sat`` runs the incremental driver: same answer, same kind of checked certificate."""
    challenge, options = CHALLENGES[name]
    game = StratoGame(challenge, options, seeded_deal(challenge, seed, players))
    last = max_turns(game.initial_state())
    plain = sat_solve(game)
    seen: list[SolverProgress] = []
    result = incremental_search(lambda lo, hi: StratoCNF(game, hi, open_from=lo), first=0, last=last, step=3,
                                prove=lambda k: StratoCNF(game, k), progress=seen.append)
    assert result.status == plain.status
    assert len(result.moves or ()) == len(plain.moves or ()) and result.lower_bound == plain.lower_bound
    assert result.refutation is not None and plain.refutation is not None
    assert result.refutation.horizon == plain.refutation.horizon
    assert result.refutation.clauses == plain.refutation.clauses  # the plain formula, not the open one
    _check_refutation(result)
    # Horizons in increasing order under assumptions (no proof), then the certificate's horizon, solved
    # again as a plain formula while its proof is written.
    search = [report.horizon for report in seen if report.proof_lines is None]
    assert search == sorted(search) and search[0] == 0
    assert {report.horizon for report in seen if report.proof_lines is not None} == {result.refutation.horizon}
    assert seen[-1].proof_lines == len(result.refutation.proof)


def test_engine_incremental_search_without_prove_claims_no_certificate_and_stops_on_time() -> None:
    challenge = puzzle_challenge("challenge-0")
    game = StratoGame(challenge, Options(), seeded_deal(challenge, 1, 1))
    last = max_turns(game.initial_state())
    build = lambda lo, hi: StratoCNF(game, hi, open_from=lo)  # noqa: E731
    result = incremental_search(build, first=0, last=last)
    assert result.status == "solved" and result.refutation is None and result.moves
    k = len(result.moves)
    # Starting at the optimum: nothing shorter was refuted, so the line is not claimed shortest.
    late = incremental_search(build, first=k, last=last)
    assert late.status == "unknown" and late.moves is not None and len(late.moves) == k
    # No time at all: unknown, no line, no refutation.
    stopped = incremental_search(build, first=0, last=last, time_limit=0.0, prove=lambda h: StratoCNF(game, h))
    assert stopped.status == "unknown" and stopped.moves is None and stopped.refutation is None
    assert stopped.stopped_by == "time"


def test_engine_decoding_stops_at_a_win_the_model_does_not_mark() -> None:
    """``vic`` is only implied by the goal, so a model may play on through a won position without
    setting ``done``; the line ends where the rules engine says the game is won (found on challenge 1
    at horizon 22, where the decoder used to raise)."""
    from pysat.solvers import Solver

    challenge = puzzle_challenge("challenge-0")
    game = StratoGame(challenge, Options(), seeded_deal(challenge, 1, 1))
    line = sat_solve(game).moves or ()
    won = game.initial_state()
    for move in line:
        won = game.apply(won, move)
    assert won.status == WON
    k = len(line)
    cnf = StratoCNF(game, k + 2)
    # The model must reach the won rows at turn k, say nothing of a win there, and play on.
    at_win = [
        cnf.S(k, 2 * r + side, j, w) * (1 if j < len(row.half(side)) and row.half(side)[j] == w else -1)
        for r, row in enumerate(won.rows) for side in (0, 1) for j in range(cnf.limit) for w in cnf.weathers
    ]
    with Solver(name="cadical195", bootstrap_with=cnf.clauses) as solver:
        assert solver.solve(assumptions=at_win + [-cnf.var("done", t) for t in range(k + 2)])
        model = solver.get_model()
    moves = cnf.decode(model)
    assert len(moves) == k
    state = game.initial_state()
    for move in moves:
        state = game.apply(state, move)
    assert state.status == WON

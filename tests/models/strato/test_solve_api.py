"""The solve pipeline of stratagem.models.strato.solve as a library call (the README shows stratagem.solve over it)."""

from __future__ import annotations

from stratagem.core.records import Line
from stratagem.models.strato.rules.notation import format_move
from stratagem.models.strato.rules.position import format_state
from stratagem.models.strato.rules.puzzle import load_puzzle
from stratagem.models.strato.search.relaxation import relaxation_bound
from stratagem.models.strato.solve import solve, write_proof

from .support import PUZZLES


def test_a_relaxation_certificate_is_what_the_rules_give_again() -> None:
    puzzle = load_puzzle(PUZZLES / "challenge-1.toml")
    game = puzzle.game(puzzle.find_deal("solo-3"))
    solution = solve(game)
    assert (solution.status, len(solution.moves), solution.evidence["kind"]) == ("solved", 7, "relaxation-bound")
    assert solution.claim() == {"solvable": True, "length": 7, "optimal": True, "information": "open"}
    # the certificate is what the rules give again
    again = relaxation_bound(game.challenge, game.options, game.initial_state(),
                             track_ends=solution.evidence["ends"] == "tracked")
    assert again.bound == 7


def test_methods_agree_and_one_deadline_covers_them(tmp_path) -> None:
    puzzle = load_puzzle(PUZZLES / "challenge-0.toml")
    game = puzzle.game(puzzle.find_deal("duo-2"))
    lengths = {method: len(solve(game, method, time_limit=60).moves) for method in ("relaxed", "astar", "sat")}
    assert set(lengths.values()) == {5}
    solution = solve(game, "relaxed")
    line = Line("strato", puzzle.setup(), format_state(game.initial_state()),
                tuple(format_move(m) for m in solution.moves), "won")
    write_proof(str(tmp_path / "p.json"), solution, line)
    assert (tmp_path / "p.json").read_text().count('"relaxation-bound"') == 1
    stopped = solve(game, "bfs", time_limit=0.0)
    assert stopped.status == "unknown" and not stopped.optimal

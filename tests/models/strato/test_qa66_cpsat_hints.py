"""CP-SAT's hints of a line are integers, which every OR-Tools the project claims (9.8 and newer) takes.

At stop 66 the project was tested with the lowest version each floor allows: OR-Tools 9.8 (under the
protobuf pip gives it today) refused ``AddHint(var, True)`` ("PartialVariableAssignment.values: Expected
an int, got a boolean"), and every hinted CP-SAT solve failed. ``StratoCPSAT`` hinted each literal with a
bool; it now gives 0 or 1. The model's ``AddHint`` is watched here, so the check needs no old OR-Tools.
"""

from __future__ import annotations

from typing import Any

from stratagem.models.strato.encodings.cpsat import StratoCPSAT
from stratagem.models.strato.rules.deal import seeded_deal
from stratagem.models.strato.rules.puzzle import load_puzzle
from stratagem.models.strato.rules.turns import StratoGame
from stratagem.models.strato.search.planning import StratoPlanning
from stratagem.solvers.search import bfs

from .support import PUZZLES


def test_a_hinted_line_gives_cp_sat_integers_not_bools() -> None:
    puzzle = load_puzzle(PUZZLES / "challenge-0.toml")
    game = StratoGame(puzzle.challenge, puzzle.options, seeded_deal(puzzle.challenge, 2, 1))
    found = bfs(StratoPlanning(game), max_nodes=50_000)
    assert found.status == "solved" and found.moves
    model = StratoCPSAT(game, len(found.moves))
    hints: list[Any] = []
    real = model.model.AddHint
    model.model.AddHint = lambda var, value: (hints.append(value), real(var, value))[1]
    model.hint_line(found.moves)
    assert hints and {type(value) for value in hints} == {int}
    assert set(hints) == {0, 1}
    assert model.solve_cpsat(30)[0] is True

"""The PDDL export against the rules engine: Fast Downward's optimal plan cost is the optimal length.

Needs the ``planners`` extra (``up-fast-downward`` ships a Fast Downward build); skipped without it.
Marked ``slow`` (one-row deals 30-110 s each, two-row deals one to three CPU-minutes each): run with
``python -m pytest -m slow``. On two-row deals both variants run: ``astar(lmcut())`` (what the alias
``seq-opt-lmcut`` runs) on the axiom-free export and ``astar(blind())`` on the default one; each plan is
read back into moves by the rules engine and must win in as many turns as it costs.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from stratagem.models.strato.encodings.pddl import EFFECT_ACTIONS, domain, plan_moves, problem
from stratagem.models.strato.rules.deal import seeded_deal
from stratagem.models.strato.rules.position import WON
from stratagem.models.strato.rules.turns import StratoGame
from stratagem.models.strato.search.planning import StratoPlanning
from stratagem.solvers.fast_downward import plan
from stratagem.solvers.search import bfs

from .test_search_agreement import CHALLENGES

fast_downward = pytest.importorskip("up_fast_downward")
FD = Path(os.path.dirname(fast_downward.__file__)) / "downward" / "fast-downward.py"

CASES = [
    ("rw-rr-ww", 1, 0), ("rw-rr-ww", 2, 1), ("st-ss-tt", 1, 0), ("rt-rr-tt", 2, 2), ("sw-ss-ww", 1, 1),
    ("rc-counts", 1, 0), ("rc-counts", 4, 2), ("rw-symbolic", 1, 2), ("rw-crossing", 1, 0), ("rw-strict", 2, 1),
    ("fc-unsolvable", 1, 2),
]
#: Small two-row deals (challenge, players, seed; optimum 2-3): two with rain/wind and sun/cloud rows, three
#: with fog and storm (cards change rows), and one duo.
TWO_ROW_CASES = [
    ("two-rows-rw-sc", 1, 1), ("two-rows-rw-sc", 1, 3), ("two-rows-fw-st", 1, 1), ("two-rows-fw-st", 1, 3),
    ("two-rows-fw-st-goal", 1, 5), ("two-rows-rw-sc", 2, 1),
]


def plan_cost(game: StratoGame, folder: Path) -> int | None:
    (folder / "domain.pddl").write_text(domain(game))
    (folder / "problem.pddl").write_text(problem(game))
    done = subprocess.run(
        [sys.executable, str(FD), "--plan-file", str(folder / "plan"), str(folder / "domain.pddl"),
         str(folder / "problem.pddl"), "--search", "astar(blind())"],
        capture_output=True, text=True, cwd=folder, timeout=300, check=False,
    )
    found = re.search(r"Plan cost: (\d+)", done.stdout)
    if found:
        return int(found.group(1))
    # Fast Downward's exit code 11: the task is proven unsolvable (a complete search found no plan).
    assert done.returncode == 11, done.stdout[-2000:] + done.stderr[-2000:]
    return None


@pytest.mark.slow
@pytest.mark.parametrize(("name", "players", "seed"), CASES, ids=[f"{n}-p{p}-s{s}" for n, p, s in CASES])
def test_engine_fast_downward_cost_is_the_optimal_length(name: str, players: int, seed: int, tmp_path: Path) -> None:
    challenge, options = CHALLENGES[name]
    game = StratoGame(challenge, options, seeded_deal(challenge, seed, players))
    reference = bfs(StratoPlanning(game))
    cost = plan_cost(game, tmp_path)
    if reference.status == "unsolvable":
        assert cost is None
    else:
        assert cost == len(reference.moves or ())



def _replayed_turns(game: StratoGame, lines: list[str]) -> int:
    """The plan read back into moves by the rules engine; it must end in victory. Returns its turns."""
    state = game.initial_state()
    moves = plan_moves(game, lines)
    for move in moves:
        assert state.status != WON
        state = game.apply(state, move)
    assert state.status == WON
    return len(moves)


@pytest.mark.slow
@pytest.mark.parametrize(("name", "players", "seed"), TWO_ROW_CASES,
                         ids=[f"{n}-p{p}-s{s}" for n, p, s in TWO_ROW_CASES])
def test_two_row_fast_downward_lmcut_and_blind_costs_are_the_optimal_length(name: str, players: int,
                                                                               seed: int) -> None:
    challenge, options = CHALLENGES[name]
    game = StratoGame(challenge, options, seeded_deal(challenge, seed, players))
    reference = bfs(StratoPlanning(game))
    assert reference.status == "solved" and reference.moves is not None
    optimum = len(reference.moves)
    runs = {
        "lmcut": plan(domain(game, axiom_free=True), problem(game, axiom_free=True), "astar(lmcut())", 900),
        "blind": plan(domain(game), problem(game), "astar(blind())", 900),
    }
    for config, run in runs.items():
        assert run.status == "solved", (config, run.message)
        assert run.cost == optimum, config
        assert _replayed_turns(game, run.plan) == optimum, config
    # A plan whose effect names a place no card holds is not a line of the rules: plan_moves refuses it.
    lines = runs["lmcut"].plan
    # (Effect actions only: the check actions of no-effect-fog/-wind, fog-scan-* and wind-*-scan, are not read.)
    effect = next((i for i, line in enumerate(lines) if line.strip("()").split()[0] in EFFECT_ACTIONS), None)
    if effect is not None:
        words = lines[effect].strip("()").split()
        place = next(i for i, word in enumerate(words) if i > 0 and word.startswith("p") and word[1:].isdigit())
        words[place] = f"p{challenge.limit + 2}"  # the outermost place, empty whenever a card resolves
        forged = [*lines[:effect], "(" + " ".join(words) + ")", *lines[effect + 1 :]]
        with pytest.raises(ValueError, match="legal moves"):
            plan_moves(game, forged)

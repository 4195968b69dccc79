"""The PDDL export against the rules engine: Fast Downward's optimal plan cost is the optimal length.

Needs the ``planners`` extra (``up-fast-downward`` ships a Fast Downward build); skipped without it.
Marked ``slow`` (about 8 minutes in all): run with ``python -m pytest -m slow``.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from stratagem.models.strato.deal import seeded_deal
from stratagem.models.strato.pddl import domain, problem
from stratagem.models.strato.planning import StratoPlanning
from stratagem.models.strato.rules import StratoGame
from stratagem.solvers.search import bfs

from .test_search_agreement import CHALLENGES

fast_downward = pytest.importorskip("up_fast_downward")
FD = Path(os.path.dirname(fast_downward.__file__)) / "downward" / "fast-downward.py"

CASES = [
    ("rw-rr-ww", 1, 0), ("rw-rr-ww", 2, 1), ("st-ss-tt", 1, 0), ("rt-rr-tt", 2, 2), ("sw-ss-ww", 1, 1),
    ("rc-counts", 1, 0), ("rc-counts", 4, 2), ("rw-symbolic", 1, 2), ("rw-crossing", 1, 0), ("rw-strict", 2, 1),
    ("fc-unsolvable", 1, 2),
]
# Two-row deals are left out: Fast Downward's translation of the quantified effects takes longer than
# the five minutes a test may take there (the one-row cases take 30-110 s each, hence `slow`).


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


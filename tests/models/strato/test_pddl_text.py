"""The PDDL export's text, checked without a planner (the Fast Downward cross-check is in test_pddl.py)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from stratagem.models.strato.challenge import Options
from stratagem.models.strato.deal import seeded_deal
from stratagem.models.strato.pddl import domain, problem
from stratagem.models.strato.puzzle import load_puzzle
from stratagem.models.strato.rules import StratoGame

from .support import PUZZLES, make_challenge


def test_quantifiers_never_capture_an_action_parameter() -> None:
    # A forall/exists binding a name the action already has shadows the parameter: before this was
    # fixed, fog-move's half-row lengths were never updated on two-row deals (its length effects bound
    # ?a and ?b, the names of its two half-rows).
    challenge = make_challenge(weathers="RWFC", pairs=("RW", "FC"), limit=4, left="<<", right=">")
    text = domain(StratoGame(challenge, Options(), seeded_deal(challenge, 1, 1)))
    actions = text.split("(:action ")[1:]
    assert any(action.startswith("fog") for action in actions)
    for action in actions:
        name = action.split()[0]
        params = set(re.findall(r"\?[\w-]+", action.split(":parameters", 1)[1].split(")", 1)[0]))
        for binder in re.findall(r"\((?:forall|exists) \(([^)]*)\)", action):
            bound = set(re.findall(r"\?[\w-]+", binder))
            assert not bound & params, (name, sorted(bound & params))


@pytest.mark.parametrize("puzzle", ["challenge-0", "challenge-1", "level-2-example"])
def test_unified_planning_reads_the_export(puzzle: str, tmp_path: Path) -> None:
    reader = pytest.importorskip("unified_planning.io").PDDLReader
    loaded = load_puzzle(PUZZLES / f"{puzzle}.toml")
    game = loaded.game(loaded.deals[0])
    (tmp_path / "domain.pddl").write_text(domain(game))
    (tmp_path / "problem.pddl").write_text(problem(game))
    parsed = reader().parse_problem(str(tmp_path / "domain.pddl"), str(tmp_path / "problem.pddl"))
    names = {action.name for action in parsed.actions}
    assert {"play", "redraw", "fog-move", "fog-swap", "storm", "wind-near", "rain-near", "sun", "end-turn"} <= names

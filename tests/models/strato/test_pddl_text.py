"""The PDDL export's text, checked without a planner (the Fast Downward cross-check is in test_pddl.py)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from stratagem.models.strato.encodings.pddl import domain, problem
from stratagem.models.strato.rules.challenge import Options
from stratagem.models.strato.rules.deal import seeded_deal
from stratagem.models.strato.rules.puzzle import load_puzzle
from stratagem.models.strato.rules.turns import StratoGame

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


READ_CASES = [
    ("challenge-0", False), ("challenge-0", True), ("level-2-example", False), ("level-2-example", True),
    pytest.param("challenge-1", False, marks=pytest.mark.slow),
    pytest.param("challenge-1", True, marks=pytest.mark.slow),
]


@pytest.mark.parametrize(("puzzle", "axiom_free"), READ_CASES)
def test_unified_planning_reads_the_export(puzzle: str, axiom_free: bool, tmp_path: Path) -> None:
    # challenge-0 has one row, level-2-example and challenge-1 two.
    reader = pytest.importorskip("unified_planning.io").PDDLReader
    loaded = load_puzzle(PUZZLES / f"{puzzle}.toml")
    game = loaded.game(loaded.deals[0])
    (tmp_path / "domain.pddl").write_text(domain(game, axiom_free=axiom_free))
    (tmp_path / "problem.pddl").write_text(problem(game, axiom_free=axiom_free))
    parsed = reader().parse_problem(str(tmp_path / "domain.pddl"), str(tmp_path / "problem.pddl"))
    names = {action.name for action in parsed.actions}
    assert {"play", "redraw", "fog-move", "fog-swap", "storm", "wind-near", "rain-near", "sun", "end-turn"} <= names
    features = parsed.kind.features
    if axiom_free:  # what Fast Downward's lmcut refuses: derived predicates and conditional effects
        assert not features & {"UNIVERSAL_CONDITIONS", "CONDITIONAL_EFFECTS", "FORALL_EFFECTS"}, features
        assert {"claim", "close-step", "open-step", "limit-ok", "no-effect-storm", "storm-scan-end"} <= names
    else:
        assert {"UNIVERSAL_CONDITIONS", "CONDITIONAL_EFFECTS"} <= features


@pytest.mark.parametrize("strict", [False, True])
def test_axiom_free_text_has_no_quantified_effect_or_universal_condition(strict: bool) -> None:
    challenge = make_challenge(weathers="FWST", pairs=("FW", "ST"), limit=4, left="<<", right=">")
    game = StratoGame(challenge, Options(strict_effect=strict), seeded_deal(challenge, 1, 1))
    free = domain(game, axiom_free=True)
    for word in ("forall", "when", "imply", ":derived"):
        assert f"({word}" not in free, word
    assert "(forall" in domain(game) and "(when" in domain(game)
    assert "(:goal (won))" in problem(game, axiom_free=True)
    assert ("no-effect-fog" in free) is not strict

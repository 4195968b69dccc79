"""The PDDL export's text, checked without a planner (the Fast Downward cross-check is in test_pddl.py)."""

from __future__ import annotations

import re

from stratagem.models.strato.challenge import Options
from stratagem.models.strato.deal import seeded_deal
from stratagem.models.strato.pddl import domain
from stratagem.models.strato.rules import StratoGame

from .support import make_challenge


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

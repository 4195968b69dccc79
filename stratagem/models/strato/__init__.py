"""Strato: the cooperative weather-row puzzle (rules: docs/rules/strato.md).

The package is four rooms and the pipeline beside them:

- :mod:`.rules`: what a card, a table, a move and a turn are -- the reference engine ``verify`` uses;
- :mod:`.search`: the one-player search problem, its bounds (the relaxation certificate among them)
  and the compiled A*;
- :mod:`.encodings`: SAT, CP-SAT and PDDL models of a deal;
- :mod:`.hidden`: the game with the draw pile hidden, its exact odds and its agents;
- :mod:`.solve` (the whole pipeline: a line, its claim, its evidence) and :mod:`.designer` (what a
  challenge's table can become).

Rules never import the other rooms. The names most callers need are importable from here, loaded on
first use so that ``import stratagem.models.strato`` stays cheap.
"""

from __future__ import annotations

import importlib
from typing import Any

#: Public names and the module each lives in.
_PUBLIC = {
    "StratoGame": "rules.turns",
    "Move": "rules.notation",
    "parse_move": "rules.notation",
    "format_move": "rules.notation",
    "State": "rules.position",
    "Row": "rules.position",
    "parse_state": "rules.position",
    "format_state": "rules.position",
    "Challenge": "rules.challenge",
    "Options": "rules.challenge",
    "seeded_deal": "rules.deal",
    "StratoPlanning": "search.planning",
    "HiddenStrato": "hidden.game",
    "Solution": "solve",
    "write_proof": "solve",
}

__all__ = sorted(_PUBLIC)


def __getattr__(name: str) -> Any:
    """Load a public name from its module on first use."""
    module = _PUBLIC.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{module}"), name)
    globals()[name] = value
    return value

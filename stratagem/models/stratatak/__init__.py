"""Stratatak (rules: docs/rules/stratatak.md): battles of Singles, Runs and Sets between an Attacker and a Defender.

Modules: ``cards`` (card codes, the deck as configuration), ``plays`` (legal plays, Fighters, the
Strataclash table), ``position`` (states and their notation), ``rules`` (:class:`StratatakGame`),
``puzzle`` (position files), ``render`` (``stratagem show``) and ``agents`` (the greedy agent).
"""

from typing import Any


def compiled_engine(game: Any) -> Any:
    """The compiled engine of a reference Stratatak game (docs/design.md, section 4): every option is
    covered, so never None for a Stratatak game."""
    from stratagem.models.stratatak.engine import StratatakEngine

    return StratatakEngine.from_game(game)

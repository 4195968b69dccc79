"""Stratego Card Clash: the 2x2-square card game (rules: docs/rules/cardclash.md).

Modules, read top-down: :mod:`cards` (ranks, the 17-card army, colours, the stacking rules),
:mod:`battlefield` (stacks per cell, placement, the table bound, squares), :mod:`position` (states,
moves and their notation), :mod:`threats` (squares a move completes, opponents' threats),
:mod:`rules` (turns, end of a round, scoring, the Game protocol and its capabilities),
:mod:`agents` (the greedy agent), :mod:`puzzle` (position files), :mod:`render` (the grid drawing).
"""

from typing import Any


def compiled_engine(game: Any) -> Any:
    """The compiled engine (a :class:`~stratagem.core.packed.PackedGame`) of a Card Clash game, or None
    when its table is larger than the engine takes (docs/design.md, section 4).

    A :class:`~stratagem.models.cardclash.rules.CardClashGame` gets a
    :class:`~stratagem.models.cardclash.engine.CardClashEngine`; the dealt game with its shuffles as
    chance (:class:`~stratagem.openspiel.cardclash.DealtCardClash`) a
    :class:`~stratagem.models.cardclash.engine.DealtCardClashEngine`.
    """
    from stratagem.models.cardclash.engine import CardClashEngine, DealtCardClashEngine

    try:
        if type(game).__name__ == "DealtCardClash":
            return DealtCardClashEngine.from_game(game)
        return CardClashEngine.from_game(game)
    except ValueError:
        return None

"""STAKD Elite: the stacking game of pieces on nodes (rules: docs/rules/stakd.md).

Modules, read top-down: :mod:`pieces` (kinds, piece sets by player count), :mod:`geometry` (the lattice
of nodes and piece shapes as data, footprints as bit sets), :mod:`position` (pieces, moves, states),
:mod:`notation` (text notation), :mod:`rules` (placement rules, turns, the Game protocol),
:mod:`search` (exhaustive solo search, the reference the constraint models are checked against),
:mod:`puzzle` (position files), :mod:`render` (text drawing of the layers).
"""

from typing import Any


def compiled_engine(game: Any) -> Any:
    """The compiled engine (:class:`~stratagem.models.stakd.engine.StakdEngine`, a
    :class:`~stratagem.core.packed.PackedGame`) of a :class:`~stratagem.models.stakd.rules.StakdGame`, or
    None when the game is beyond it (docs/design.md, section 4)."""
    from stratagem.models.stakd.engine import StakdEngine

    try:
        return StakdEngine.from_game(game)
    except ValueError:
        return None


def compiled_guide(game: Any, engine: Any) -> Any:
    """The compiled guide (:class:`~stratagem.models.stakd.guide.StakdGuide`) of ``game`` over its compiled
    ``engine``. Found here, as the engine is, rather than imported by the rules module: ``verify`` loads
    the rules (its ``--recheck`` runs the solo search) and must reach no compiled kernel, even unused."""
    from stratagem.models.stakd.guide import StakdGuide

    return StakdGuide.for_engine(engine, game)

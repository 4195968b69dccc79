"""STAKD Elite: the stacking game of pieces on nodes (rules: docs/rules/stakd.md).

Modules, read top-down: :mod:`pieces` (kinds, piece sets by player count), :mod:`geometry` (the lattice
of nodes and piece shapes as data, footprints as bit sets), :mod:`position` (pieces, moves, states),
:mod:`notation` (text notation), :mod:`rules` (placement rules, turns, the Game protocol),
:mod:`search` (exhaustive solo search, the reference the constraint models are checked against),
:mod:`puzzle` (position files), :mod:`render` (text drawing of the layers).
"""

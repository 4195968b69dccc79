"""Strato: the cooperative weather-row puzzle (rules: docs/rules/strato.md).

Modules, read top-down: :mod:`cards` (weathers and tornadoes), :mod:`position` (rows, states and their
notation), :mod:`challenge` (challenge cards and victory conditions), :mod:`actions` (the six weather
actions), :mod:`status` (the end of a turn: won, lost or going on), :mod:`rules` (turns, the Game protocol),
:mod:`notation` (moves), :mod:`deal` (setup), :mod:`puzzle` (puzzle files), :mod:`heuristic` (admissible lower
bounds for A*/IDA*), :mod:`relaxation` (the table-only relaxation bound, a certificate; its compiled search in
:mod:`relaxation_kernel`), :mod:`guided` (a line exactly as long as that bound), :mod:`solve` (the whole
pipeline: a line, its claim, its evidence).
"""

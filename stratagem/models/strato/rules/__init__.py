"""Strato's rules: what a card, a table, a move and a turn are (rules text: docs/rules/strato.md).

Read top-down: :mod:`.cards` (weathers and tornadoes), :mod:`.position` (rows, states and their
notation), :mod:`.challenge` (challenge cards and victory conditions), :mod:`.actions` (the six weather
actions), :mod:`.status` (the end of a turn: won, lost or going on), :mod:`.turns` (turns and the Game
protocol), :mod:`.notation` (moves), :mod:`.deal` (setup) and :mod:`.puzzle` (puzzle files).

This room is the reference engine that ``verify`` replays with: it imports nothing from the search,
the encodings or hidden information (``tests/test_imports.py`` keeps it so).
"""

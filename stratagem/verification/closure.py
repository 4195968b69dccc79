"""A no-win certificate of designer mode, checked: a set of layouts that holds the start, is closed under
designer mode's moves and holds no winning table.

Designer mode has no longest game (a weather is always at hand), so no refutation of one horizon says that a
layout never wins. A closed set does: every designer line starts in the set and never leaves it (each move of
a layout in the set leads to a layout in the set), and no layout in the set meets the goal, so no line ever
wins, however long. ``reach --designer --proof`` writes the complete designer graph's layouts as that set when
the graph holds no win (``no_win_certificate``, ``NAME.layouts.gz`` beside the report, one layout a line in
designer mode's notation). The check is local: the layouts are read, and each one's moves are made again with
designer mode's rules (:class:`~stratagem.models.strato.designer_rules.DesignerRules`, plain Python), never a
search; a layout the set lists beyond those reachable is checked alike (the argument needs none, and reach
writes none).
"""

from __future__ import annotations

from dataclasses import dataclass

from stratagem.core.deadline import Deadline
from stratagem.core.errors import BadInput, NotationError
from stratagem.models.strato.designer_rules import DesignerRules, Layout
from stratagem.models.strato.rules.notation import format_move

__all__ = ["MAX_LAYOUTS", "MAX_LINE", "ClosureCheck", "check_closure", "read_layouts"]

#: The most layouts a certificate may list (reach's default state limit is 200,000; a graph of 20 million
#: would hold tens of GB) and the longest line (a layout of 4 rows of 9 cards a half-row is under 100 characters).
MAX_LAYOUTS = 20_000_000
MAX_LINE = 1_000

#: How many layouts are checked between two looks at the clock.
CLOCK_EVERY = 256


@dataclass(frozen=True)
class ClosureCheck:
    """What the check found: ``problem`` (``None``: the set is closed, holds the start and no win),
    ``stopped`` (the deadline passed first: nothing is proven), and the layouts checked."""

    problem: str | None
    stopped: bool
    checked: int


def read_layouts(rules: DesignerRules, text: str, source: str, place: str) -> list[Layout]:
    """The layouts of a certificate's text, one a line in order; a line that is not a layout of ``rules``'s
    notation is :class:`BadInput` naming ``source``, ``place`` and the line."""
    lines = text.splitlines()
    if len(lines) > MAX_LAYOUTS:
        raise BadInput(source, place, f"more than {MAX_LAYOUTS:,} layouts")
    layouts = []
    for k, line in enumerate(lines, start=1):
        if len(line) > MAX_LINE:
            raise BadInput(source, f"{place} line {k}", f"longer than {MAX_LINE} characters: not a layout")
        try:
            layouts.append(rules.parse_state(line))
        except NotationError as exc:
            raise BadInput(source, f"{place} line {k}", f"not a layout: {exc}") from None
    return layouts


def check_closure(rules: DesignerRules, layouts: list[Layout], deadline: Deadline) -> ClosureCheck:
    """Whether ``layouts`` holds ``rules``'s start, no winning table, and every layout each of its layouts'
    designer moves leads to (see the module docstring); the first failure in words, naming its line."""
    members = set(layouts)
    if rules.start() not in members:
        return ClosureCheck(f"the layout's start {rules.format_state(rules.start())} is not among its layouts",
                            False, 0)
    for k, layout in enumerate(layouts, start=1):
        if rules.is_goal(layout):
            return ClosureCheck(f"line {k}, {rules.format_state(layout)}, meets the goal", False, k)
    for k, layout in enumerate(layouts, start=1):
        if (k - 1) % CLOCK_EVERY == 0 and deadline.expired():
            return ClosureCheck(None, True, k - 1)
        for move, after in rules.successors(layout):
            if after not in members:
                return ClosureCheck(f"line {k}, {rules.format_state(layout)}: {format_move(move)} leads to "
                                    f"{rules.format_state(after)}, which is not among its layouts", False, k)
    return ClosureCheck(None, False, len(layouts))

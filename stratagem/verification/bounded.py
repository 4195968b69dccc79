"""The horizon search of a ``relaxation-search`` certificate, repeated by ``verify`` over the rules engine.

A plain depth-first enumeration of every line of up to ``horizon`` turns from the start, move by move
as the rules engine (:class:`~stratagem.models.strato.rules.turns.StratoGame`) lists them, that drops a
position when its table's relaxed distance to a goal (in the start's relaxations, :mod:`.relaxed`,
combined over the goal rows as the bound is) exceeds the turns left. By the relaxation's key lemma
(docs/formats.md) no winning line within the horizon passes through a dropped position, so a search
that runs to its end without a win shows that none exists. A position already searched with as many
turns left or more is not searched again. Nothing here comes from the solver's searches.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from stratagem.models.strato.rules.notation import Move
from stratagem.models.strato.rules.position import ONGOING, WON, Row, State
from stratagem.models.strato.rules.turns import StratoGame
from stratagem.verification.relaxed import GoalDistances, Stopped, combine


@dataclass(frozen=True)
class HorizonSearch:
    """``line``: a win of at most the horizon's turns, or ``None``; ``exhausted``: the search ran to its end
    (so, without a line, no win exists within the horizon); ``expanded``: positions expanded."""

    line: tuple[Move, ...] | None
    exhausted: bool
    expanded: int


class _Limit(Exception):
    """The node limit or the deadline stopped the search."""


def win_within(game: StratoGame, distances: GoalDistances, how: str, horizon: int, max_nodes: int,
               stop: Callable[[], bool] | None = None,
               progress: Callable[[int, int], None] | None = None) -> HorizonSearch:
    """Search every line of up to ``horizon`` turns from ``game``'s start, pruned by ``distances`` (the goal
    rows' relaxed distances, combined by ``how``, ``"sum"`` or ``"max"``); ``progress`` is told the horizon
    and the positions expanded so far, every 256."""
    required = game.challenge.rows_required
    done: dict[State, int] = {}  # position -> turns left with which it was searched in full, without a win
    expanded = 0

    every_row = how == "sum" and required == len(distances.views)

    def far(rows: tuple[Row, ...], left: int) -> bool:
        """Whether every set of goal rows is more than ``left`` relaxed turns from a goal."""
        n = len(distances.views)
        if every_row and n > 1:
            # every goal row is needed and their distances add: each row is searched only as deep as the
            # others' lower bounds leave room for (a row farther than that makes the sum exceed ``left``)
            lower = [distances.at_least(i, rows) for i in range(n)]
            for i in range(n):
                room = left - (sum(lower) - lower[i])
                if room < lower[i]:
                    return True
                lower[i] = distances.at_most(i, rows, room)
                if lower[i] > room:
                    return True
            return False
        values = [distances.at_most(i, rows, left) for i in range(n)]
        combined = combine(values, required, how)
        return combined is None or combined > left

    def search(state: State, left: int) -> list[Move] | None:
        nonlocal expanded
        if done.get(state, -1) >= left:
            return None
        if expanded >= max_nodes or (stop is not None and stop()):
            raise _Limit
        expanded += 1
        if progress is not None and expanded % 256 == 0:
            progress(horizon, expanded)
        for move, after in game.plays(state):
            if after.status == WON:
                return [move]
            if after.status != ONGOING or left <= 1 or far(after.rows, left - 1):
                continue
            found = search(after, left - 1)
            if found is not None:
                return [move, *found]
        done[state] = left
        return None

    start = game.initial_state()
    if horizon <= 0 or start.status != ONGOING:
        return HorizonSearch(None, True, 0)
    try:
        line = search(start, horizon)
    except (_Limit, Stopped):
        return HorizonSearch(None, False, expanded)
    return HorizonSearch(tuple(line) if line is not None else None, True, expanded)

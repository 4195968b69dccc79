"""Strato with open information as a one-player search problem.

The solver knows every hand and the order of the draw pile and chooses every player's play, like a
double-dummy analysis in bridge; every result built on this is labelled "open information".
Successors with identical resulting states are merged (the first move in the engine's order is kept):
two target choices that leave the same table, hands and pile are the same for every future. When no
Cloud is in play, the last played weather (which only a Cloud reads) is blanked in the searched
states, so positions that differ only in it merge too; the moves found are the same either way.
"""

from __future__ import annotations

from collections.abc import Iterator

from stratagem.models.strato.rules.cards import CLOUD
from stratagem.models.strato.rules.notation import Move
from stratagem.models.strato.rules.position import LOST, ONGOING, WON, Row, State
from stratagem.models.strato.rules.turns import StratoGame
from stratagem.models.strato.search.heuristic import lower_bound


class StratoPlanning:
    """:class:`~stratagem.core.game.SearchProblem` view of a Strato deal: reach a won state."""

    def __init__(self, game: StratoGame, start: State | None = None) -> None:
        self.game = game
        self._clouds = CLOUD in game.challenge.weathers
        first = start if start is not None else game.initial_state()
        self._start = first if self._clouds else first._replace(last="")
        # The bound depends on the rows alone (for an unfinished game): compute it once per rows.
        self._bounds: dict[tuple[Row, ...], int] = {}

    def start(self) -> State:
        return self._start

    def successors(self, state: State) -> Iterator[tuple[Move, State]]:
        seen: set[State] = set()
        for move, after in self.game.plays(state):
            if after.last and not self._clouds:
                after = State(after.rows, after.hands, after.pile, after.to_move, "", after.status)
            if after.status == LOST or after in seen:
                continue
            seen.add(after)
            yield move, after

    def is_goal(self, state: State) -> bool:
        return state.status == WON

    def heuristic(self, state: State) -> int:
        if state.status != ONGOING:
            return lower_bound(self.game.challenge, state)
        bound = self._bounds.get(state.rows)
        if bound is None:
            bound = self._bounds[state.rows] = lower_bound(self.game.challenge, state)
        return bound

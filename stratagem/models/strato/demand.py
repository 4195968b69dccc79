"""Demands: cards a win needs in one zone of the table, and the only plays that can bring one there.

A demand is read off the victory condition when the rows that must meet it are forced (every eligible
row is needed): the goal rows need ``need`` cards of the weathers ``weathers`` (a set U of needed
weathers, their needs summed). Counting how such cards can arrive gives a bound that ties the turns
still to play to the cards they play:

- A turn puts one card on the table, the played one, and its action never adds a card (Sun discards
  one; Wind, Rain, Fog and Storm move cards). Wind, Rain and Sun act on the played row only; only Fog
  and Storm (or a Cloud resolving as one) move a card from one row to another, and they move it by
  *playing* a Fog, Storm or Cloud card.
- So, for U with none of those movers in it (or with no Fog or Storm able to act at all), a U card
  enters the goal rows only on a turn that plays a U card into a goal row, or plays a mover card
  anywhere; at most one a turn. For U with a mover in it, the count is taken over the whole table,
  which gains a U card only when a U card is played.
- When no Fog or Storm can act, no card ever changes rows, and each goal row is its own zone, entered
  only by a U card played into that row.

Whatever the line, then: U cards in the zone now, plus the turns still to play that are *entries*,
is at least ``need`` when the game is won. :mod:`sat` states that at every turn (the demand bound),
and ``tests/models/strato/test_demand.py`` checks the entry rule against the rules engine on random
playouts.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations

from stratagem.models.strato.cards import CLOUD, FOG, STORM
from stratagem.models.strato.challenge import Challenge
from stratagem.models.strato.position import Row, State


@dataclass(frozen=True)
class Demand:
    """``need`` cards of ``weathers`` in the rows ``rows`` (``None``: anywhere on the table)."""

    rows: tuple[int, ...] | None
    weathers: tuple[str, ...]
    need: int
    #: Cards whose play may move a card of ``weathers`` into ``rows`` from another row.
    movers: tuple[str, ...]

    def count(self, rows: Sequence[Row]) -> int:
        """Cards of the demanded weathers in the zone."""
        zone = rows if self.rows is None else [rows[r] for r in self.rows]
        return sum(1 for row in zone for card in row.left + row.right if card in self.weathers)

    def enters(self, card: str, row: int) -> bool:
        """Whether playing ``card`` into row ``row`` can raise :meth:`count` (by one at most)."""
        if self.rows is None:
            return card in self.weathers
        return card in self.movers or (card in self.weathers and row in self.rows)


def can_cross(state: State) -> bool:
    """Whether a card may still change rows: a Fog or Storm left to play, or one for a Cloud to copy."""
    return bool({FOG, STORM} & (set("".join(state.hands)) | set(state.pile) | {state.last}))


def demands(challenge: Challenge, state: State) -> tuple[Demand, ...]:
    """Every demand of ``challenge`` from ``state``; none unless the goal rows are forced."""
    goal = challenge.goal
    eligible = tuple(r for r, row in enumerate(state.rows) if goal.eligible(row))
    if not eligible or len(eligible) != challenge.rows_required:
        return ()
    playable = set("".join(state.hands)) | set(state.pile)
    movers = tuple(sorted({FOG, STORM, CLOUD} & playable)) if can_cross(state) else ()
    zones = [eligible] + ([(r,) for r in eligible] if not movers and len(eligible) > 1 else [])
    out: list[Demand] = []
    for zone in zones:
        need: Counter[str] = Counter()
        for r in zone:
            for _, half_goal in goal.halves():
                need.update(half_goal.needs(state.rows[r]))
        weathers = sorted(need)
        for size in range(1, len(weathers) + 1):
            for chosen in combinations(weathers, size):
                local = not set(movers) & set(chosen)
                out.append(Demand(zone if local else None, chosen, sum(need[w] for w in chosen),
                                  movers if local else ()))
    return tuple(out)

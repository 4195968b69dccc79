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
- A Storm brings a U card into the zone only by swapping it in from the outer end of a half-row
  outside the zone, and not from the half-row the Storm was played at (the Storm is that end). So a
  Storm play is an entry only if such an end holds a U card before the play.

Whatever the line, then: U cards in the zone now, plus the turns still to play that are *entries*,
is at least ``need`` when the game is won. :mod:`sat` states that at every turn (the demand bound),
and ``tests/models/strato/test_demand.py`` checks the entry rule against the rules engine on random
playouts.

**Room.** A goal zone also has only so many places (its half-rows times the card limit), and a card
that is not of U takes one of them. Count the zone's *room* as twice its U cards plus its empty
places. In a won position the U cards reach the need and fit in the zone, so room >= 2 * need. A turn
raises room by one at most, and only if it is an entry (a U card played into the zone fills a place
and adds a U card: +1; a card of another weather played there: -1, and at most 0 if it is a Sun
that then discards one; Wind and Rain only move cards within their row). It raises room by two only
by also *doubling*: a mover played outside the zone that swaps a U card in for another card (Storm,
with the same U end as above; Fog; Cloud as either), or a Sun or Cloud of U played into the zone
that then discards a card. This ties the cards that must leave the zone to the turns left, which the
need alone does not: a goal row crowded with other weathers cannot be won by playing U cards into
it alone, as it runs out of places. Only the zone with every needed weather (the strongest count)
gets the room bound, only when U has no mover in it, and only when other weathers are in play
(without them room is U cards plus places, and the bound follows from the demand bound).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations

from stratagem.models.strato.rules.cards import CLOUD, FOG, STORM, SUN
from stratagem.models.strato.rules.challenge import Challenge
from stratagem.models.strato.rules.position import Row, State


@dataclass(frozen=True)
class Demand:
    """``need`` cards of ``weathers`` in the rows ``rows`` (``None``: anywhere on the table)."""

    rows: tuple[int, ...] | None
    weathers: tuple[str, ...]
    need: int
    #: Cards whose play may move a card of ``weathers`` into ``rows`` from another row.
    movers: tuple[str, ...]
    #: Whether ``weathers`` is every weather the zone needs, has no mover, and other weathers are in
    #: play: the zone gets the room bound (see the module docstring).
    full: bool = False

    @property
    def doubles(self) -> tuple[str, ...]:
        """Cards whose play may raise :meth:`room` by two: the movers, and a Sun or Cloud of U."""
        return tuple(sorted(set(self.movers) | ({SUN, CLOUD} & set(self.weathers))))

    def count(self, rows: Sequence[Row]) -> int:
        """Cards of the demanded weathers in the zone."""
        zone = rows if self.rows is None else [rows[r] for r in self.rows]
        return sum(1 for row in zone for card in row.left + row.right if card in self.weathers)

    def room(self, rows: Sequence[Row], limit: int) -> int:
        """Twice the zone's cards of U plus its empty places (a zone of goal rows only)."""
        assert self.rows is not None
        cards = sum(len(rows[r].left) + len(rows[r].right) for r in self.rows)
        return 2 * self.count(rows) + 2 * limit * len(self.rows) - cards

    def enters(self, state: State, card: str, row: int, side: int) -> bool:
        """Whether playing ``card`` at ``side`` of row ``row`` from ``state`` can raise :meth:`count`
        (by one at most) or :meth:`room` (by one, or two if it :meth:`doubles` too)."""
        if self.rows is None:
            return card in self.weathers
        if card in self.movers:
            return card != STORM or self.storm_brings(state, row, side)
        return card in self.weathers and row in self.rows

    def doubles_on(self, state: State, card: str, row: int, side: int) -> bool:
        """Whether playing ``card`` at ``side`` of row ``row`` from ``state`` can raise :meth:`room`
        by two."""
        return card in self.doubles and (card != STORM or self.storm_brings(state, row, side))

    def storm_brings(self, state: State, row: int, side: int) -> bool:
        """Whether a Storm played at ``side`` of row ``row`` finds a U card at the outer end of a
        half-row outside the zone (other than the one it is played at), the only card it can bring."""
        assert self.rows is not None
        return any(half and half[-1] in self.weathers
                   for r, other in enumerate(state.rows) if r not in self.rows
                   for s, half in enumerate((other.left, other.right)) if (r, s) != (row, side))


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
                # The room bound needs cards of other weathers: with none in play it follows from the
                # demand bound (room = U cards + places), so it is left out.
                full = local and size == len(weathers) and bool(set(challenge.weathers) - set(chosen))
                out.append(Demand(zone if local else None, chosen, sum(need[w] for w in chosen),
                                  movers if local else (), full=full))
    return tuple(out)

"""An admissible lower bound on the turns a Strato position needs to reach victory.

The bound is the largest of three counts, each of which no turn can shrink by more than the stated
amount, minimised over the sets of rows that could be the ones meeting the goal (the winning position
meets it on *some* set of ``rows_required`` eligible rows, and for that set every count below holds):

1. **Supply.** The goal needs ``need[w]`` cards of weather ``w`` in the chosen half-rows; the table
   holds ``table[w]``. A turn puts exactly one card on the table (the played one) and no action ever
   adds a card (Sun removes one, the others move cards), so ``sum_w max(0, need[w] - table[w])`` falls
   by at most 1 per turn. Sharper, counted in the chosen rows only: a card enters those rows as the
   played card, or moved from another row by Fog or Storm (or a Cloud resolving as one), and then the
   played card is a Fog, Storm or Cloud. So for the needed weathers other than those three (all of
   them when no Fog or Storm can act), ``sum_w max(0, need[w] - rows[w])`` also falls by at most 1 per
   turn: on challenge 1 the rain and wind cards lying in the storm/sun row count for nothing.
4. **Rows apart.** When no Fog or Storm can still act (none in a hand or the pile, and the last
   weather, which a Cloud would copy, is neither), no card ever changes rows, and each turn plays its
   card into one row and acts on that row only. The turns then split by row, and the chosen rows need
   at least the *sum* of their own bounds: each row's own supply (cards of the row count, not the
   table's), its own length shortfall halved, and one turn for a row that does not meet the goal yet.
2. **Length.** A goal half-row must hold at least the goal's length. A turn lengthens one half-row by
   the played card, and its action moves at most one card from one half-row into another (Rain, Fog
   into an empty place, Wind across the tornado with that option; swaps change no length). The sum of
   length shortfalls therefore falls by at most 2 per turn: ``ceil(shortfall / 2)``.
3. **Not yet won.** Victory is only declared at the end of a turn, so an unfinished game needs >= 1.

Admissibility is also tested against breadth-first distances on random positions
(``tests/models/strato/test_heuristic.py``).
"""

from __future__ import annotations

from collections import Counter
from itertools import combinations

from stratagem.models.strato.rules.cards import CLOUD, FOG, STORM
from stratagem.models.strato.rules.challenge import Challenge
from stratagem.models.strato.rules.position import ONGOING, WON, Row, State
from stratagem.models.strato.search.demand import can_cross


def _row_bound(challenge: Challenge, row: Row) -> int:
    """Turns that must be played in ``row`` for it to meet the goal, when no card can change rows."""
    goal = challenge.goal
    if goal.met(row):
        return 0
    have = Counter(row.left + row.right)
    need: Counter[str] = Counter()
    shortfall = 0
    for side, half_goal in goal.halves():
        need.update(half_goal.needs(row))
        shortfall += max(0, half_goal.length() - len(row.half(side)))
    supply = sum(max(0, n - have[w]) for w, n in need.items())
    return max(supply, (shortfall + 1) // 2, 1)


def lower_bound(challenge: Challenge, state: State) -> int:
    """Turns still needed to win from ``state`` (never more than the true number)."""
    if state.status == WON:
        return 0
    if state.status != ONGOING:
        return 0  # dead ends are not expanded; any value is admissible for a state with no goal below
    rows = state.rows
    table: Counter[str] = Counter()
    for row in rows:
        table.update(row.left)
        table.update(row.right)
    goal = challenge.goal
    # Fog and Storm are the only actions that move a card from one row to another; only cards still to
    # be played act (a Cloud acts as the last weather played).
    cross = can_cross(state)
    movers = {FOG, STORM, CLOUD} if cross else set()
    eligible = [r for r, row in enumerate(rows) if goal.eligible(row)]
    best = None
    for chosen in combinations(eligible, challenge.rows_required):
        need: Counter[str] = Counter()
        shortfall = 0
        here: Counter[str] = Counter()
        for r in chosen:
            row = rows[r]
            here.update(row.left)
            here.update(row.right)
            for side, half_goal in goal.halves():
                need.update(half_goal.needs(row))
                shortfall += max(0, half_goal.length() - len(row.half(side)))
        supply = sum(max(0, n - table[w]) for w, n in need.items())
        local = sum(max(0, n - here[w]) for w, n in need.items() if w not in movers)
        bound = max(supply, local, (shortfall + 1) // 2, 1)
        if not cross:
            bound = max(bound, sum(_row_bound(challenge, rows[r]) for r in chosen))
        if best is None or bound < best:
            best = bound
    return best if best is not None else 1

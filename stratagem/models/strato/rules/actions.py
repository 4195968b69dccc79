"""The six weather actions: every target choice of a played card, and the rows it leaves.

Each function receives the rows *after* the card was placed and the place of the played card, and
yields every target choice that changes something, with the resulting rows (:func:`outcomes` lists
them). Common constraints from the seed, enforced here for every action:

- "The target of the action cannot be the card that has just been played." -> ``played`` is never a
  target;
- "Tornadoes can never be moved." -> tornadoes are not cards of a half-row, so no action sees them;
- "An empty space ... move the cards in the direction of the tornado" / "make room ... towards the
  outside" -> half-rows are strings read outward from the tornado; removing a character closes the
  gap toward the tornado and inserting one pushes the rest outward;
- "Actions must change something." -> choices that leave every row as it was are dropped.

A target is a tuple of :class:`Coord`: ``(card,)`` for Sun; ``(from, to)`` for a card that moves (Wind,
Rain, Fog into an empty place; ``to`` is where the card ends up); ``(a, b)`` for two cards that
exchange places (Fog, Storm). Each outcome says which of the last two it is.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from stratagem.models.strato.rules.cards import CLOUD, FOG, RAIN, STORM, SUN, WIND
from stratagem.models.strato.rules.challenge import Options
from stratagem.models.strato.rules.position import Coord, Row

Target = tuple[Coord, ...]
Rows = tuple[Row, ...]
Outcome = tuple[Target, Rows, bool]


def _replace(rows: Rows, r: int, side: int, cards: str) -> Rows:
    return rows[:r] + (rows[r].with_half(side, cards),) + rows[r + 1 :]


def wind(rows: Rows, played: Coord, options: Options) -> Iterator[Outcome]:
    """Move a card of the wind's row one or more steps away from the wind's end.

    Steps are swaps with neighbours that never involve a tornado: a card in the wind's half-row moves
    inward, a card in the far half-row moves outward. With ``wind_crosses_tornado`` a card of the
    wind's half-row may instead be reinserted anywhere in the far half-row.
    """
    r, near_side, _ = played
    far_side = 1 - near_side
    row = rows[r]
    near, far = row.half(near_side), row.half(far_side)
    for p in range(len(near)):
        if p == played.dist:
            continue
        card = near[p]
        for q in range(p):
            moved = near[:q] + card + near[q:p] + near[p + 1 :]
            if moved != near:
                target = (Coord(r, near_side, p), Coord(r, near_side, q))
                yield (target, _replace(rows, r, near_side, moved), False)
        if options.wind_crosses_tornado:
            rest = near[:p] + near[p + 1 :]
            for q in range(len(far) + 1):
                new_far = far[:q] + card + far[q:]
                new_rows = _replace(_replace(rows, r, near_side, rest), r, far_side, new_far)
                yield ((Coord(r, near_side, p), Coord(r, far_side, q)), new_rows, False)
    for p in range(len(far)):
        card = far[p]
        for q in range(p + 1, len(far)):
            moved = far[:p] + far[p + 1 : q + 1] + card + far[q + 1 :]
            if moved != far:
                target = (Coord(r, far_side, p), Coord(r, far_side, q))
                yield (target, _replace(rows, r, far_side, moved), False)


def rain(rows: Rows, played: Coord, options: Options) -> Iterator[Outcome]:
    """Take the card at the row's opposite end and insert it next to either tornado of the row."""
    r, near_side, _ = played
    far_side = 1 - near_side
    row = rows[r]
    far = row.half(far_side)
    if not far:
        return
    card, rest = far[-1], far[:-1]
    source = Coord(r, far_side, len(far) - 1)
    for side in (0, 1):
        if side == far_side:
            new_far = card + rest
            if new_far != far:
                yield ((source, Coord(r, side, 0)), _replace(rows, r, far_side, new_far), False)
        else:
            new_rows = _replace(_replace(rows, r, far_side, rest), r, side, card + row.half(side))
            yield ((source, Coord(r, side, 0)), new_rows, False)


def sun(rows: Rows, played: Coord, options: Options) -> Iterator[Outcome]:
    """Discard any card of the sun's row (out of the game)."""
    r = played.row
    row = rows[r]
    for side in (0, 1):
        cards = row.half(side)
        for i in range(len(cards)):
            if (side, i) == (played.side, played.dist):
                continue
            yield ((Coord(r, side, i),), _replace(rows, r, side, cards[:i] + cards[i + 1 :]), False)


def fog(rows: Rows, played: Coord, options: Options) -> Iterator[Outcome]:
    """Swap two cards of one column in two rows, or move a card into the column's empty place.

    A column is (side, distance from the tornado) across rows. A card moved into an empty place closes
    toward that row's tornado, i.e. it is appended at that half-row's outer end, where its target says
    it lands.
    """
    for side in (0, 1):
        for r1 in range(len(rows)):
            for r2 in range(r1 + 1, len(rows)):
                a, b = rows[r1].half(side), rows[r2].half(side)
                for d in range(max(len(a), len(b))):
                    ca, cb = Coord(r1, side, d), Coord(r2, side, d)
                    if played in (ca, cb):
                        continue
                    if d < len(a) and d < len(b):
                        if a[d] != b[d]:
                            swapped = _replace(rows, r1, side, a[:d] + b[d] + a[d + 1 :])
                            swapped = _replace(swapped, r2, side, b[:d] + a[d] + b[d + 1 :])
                            yield ((ca, cb), swapped, True)
                    elif d < len(a):
                        moved = _replace(rows, r1, side, a[:d] + a[d + 1 :])
                        landing = Coord(r2, side, len(b))
                        yield ((ca, landing), _replace(moved, r2, side, b + a[d]), False)
                    else:
                        moved = _replace(rows, r2, side, b[:d] + b[d + 1 :])
                        landing = Coord(r1, side, len(a))
                        yield ((cb, landing), _replace(moved, r1, side, a + b[d]), False)


def storm(rows: Rows, played: Coord, options: Options) -> Iterator[Outcome]:
    """Swap two cards that each sit at an outer end of a row (one row's two ends, or two rows)."""
    ends = [
        Coord(r, side, len(row.half(side)) - 1)
        for r, row in enumerate(rows)
        for side in (0, 1)
        if row.half(side)
    ]
    ends = [end for end in ends if end != played]
    for i, x in enumerate(ends):
        for y in ends[i + 1 :]:
            cx = rows[x.row].half(x.side)[-1]
            cy = rows[y.row].half(y.side)[-1]
            if cx == cy:
                continue
            new = _replace(rows, x.row, x.side, rows[x.row].half(x.side)[:-1] + cy)
            new = _replace(new, y.row, y.side, new[y.row].half(y.side)[:-1] + cx)
            yield ((x, y), new, True)


ACTIONS: dict[str, Callable[[Rows, Coord, Options], Iterator[Outcome]]] = {
    WIND: wind,
    RAIN: rain,
    SUN: sun,
    FOG: fog,
    STORM: storm,
}


def resolved_weather(card: str, last: str) -> str:
    """The weather a played card acts as: itself, or for Cloud the last card's (``""``: no action)."""
    return last if card == CLOUD else card


def outcomes(action: str, rows: Rows, played: Coord, options: Options) -> list[Outcome]:
    """Every changing target choice of ``action`` (a resolved weather, or ``""`` for none)."""
    return list(each_outcome(action, rows, played, options))


def each_outcome(action: str, rows: Rows, played: Coord, options: Options) -> Iterator[Outcome]:
    """:func:`outcomes` one at a time, in the same order: a caller after one target stops at it (a value
    table's check plays one move of each table, and a Wind's every target was a fifth of that check)."""
    if not action:
        return iter(())
    return ACTIONS[action](rows, played, options)

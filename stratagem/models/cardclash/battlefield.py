"""The battlefield: stacks of cards on a grid, placement, the table bound and 2x2 squares.

A battlefield is a tuple of :class:`Cell` (column ``x`` to the right, row ``y`` downwards, and the
stack, top card first), sorted by row then column. Only the shape matters, not where it lies on the
table, so a battlefield is always *normalised*: its leftmost column is 0 and its top row is 0. A move
names a cell in the current battlefield's coordinates, so a card laid left of column 0 or above row 0
is at ``x = -1`` or ``y = -1``; after it the battlefield is normalised again. Equal shapes therefore
give equal states, which is what transposition tables want.

Notation: rows top to bottom separated by ``/``, cells left to right separated by ``,``; a cell is
``.`` when empty, else its stack top card first (``gBp6y2``: a green Bomb on a purple Marshal on a
yellow Scout); the empty battlefield is ``-``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import NamedTuple

from stratagem.core.errors import NotationError
from stratagem.models.cardclash.cards import COLOURS, RANKS, stacking

Coord = tuple[int, int]
Stack = tuple[str, ...]


class Cell(NamedTuple):
    """One occupied place of the battlefield: column, row and the stack, top card first."""

    x: int
    y: int
    stack: Stack


Board = tuple[Cell, ...]

EMPTY: Board = ()
NEIGHBOURS = ((1, 0), (-1, 0), (0, 1), (0, -1))  # edge-adjacent only: never diagonal (seed "A.")


def make_board(stacks: Mapping[Coord, Stack]) -> Board:
    """The normalised battlefield holding ``stacks`` (empty stacks are left out)."""
    filled = {xy: s for xy, s in stacks.items() if s}
    if not filled:
        return EMPTY
    x0 = min(x for x, _ in filled)
    y0 = min(y for _, y in filled)
    return tuple(sorted((Cell(x - x0, y - y0, s) for (x, y), s in filled.items()), key=lambda c: (c.y, c.x)))


def stacks(board: Board) -> dict[Coord, Stack]:
    """The battlefield as a mapping from (x, y) to its stack."""
    return {(c.x, c.y): c.stack for c in board}


def tops(board: Board) -> dict[Coord, str]:
    """The visible card of every occupied cell: only top cards are seen and count (seed, scoring)."""
    return {(c.x, c.y): c.stack[0] for c in board}


def size(board: Board) -> tuple[int, int]:
    """Width and height of the battlefield's bounding box (0, 0 when empty)."""
    if not board:
        return 0, 0
    return max(c.x for c in board) + 1, max(c.y for c in board) + 1


def fits(occupied: Iterable[Coord], width: int, height: int) -> bool:
    """True when the cells fit in a ``width`` x ``height`` box: the table bound (docs/rules/cardclash.md)."""
    cells = list(occupied)
    if not cells:
        return True
    xs = [x for x, _ in cells]
    ys = [y for _, y in cells]
    return max(xs) - min(xs) < width and max(ys) - min(ys) < height


def targets(board: Board, rank: str, width: int, height: int, strategic: bool) -> list[Coord]:
    """Every cell a card of ``rank`` may go to, sorted by row then column.

    The first card goes "in the middle of the table", which for a normalised battlefield is (0, 0).
    Later cards go on a stack the stacking rules allow (seed "B."), or on an empty cell that touches an
    occupied cell along a full side (seed "A.") without the battlefield outgrowing the table.
    """
    return targets_by_rank(board, (rank,), width, height, strategic)[0]


def targets_by_rank(board: Board, ranks: Iterable[str], width: int, height: int,
                    strategic: bool) -> list[list[Coord]]:
    """:func:`targets` of each of ``ranks`` (in that order), the battlefield read once: the empty cells
    a card may go to are the same for every rank; only the stacks it may go on differ.

    A normalised battlefield spans columns 0..w-1, so an empty neighbour keeps it within the table
    when it lies in columns 0..width-1, or in column -1 while w < width (and likewise for rows)."""
    if not board:
        return [[(0, 0)] for _ in ranks]
    occupied: set[Coord] = set()
    w = h = 0
    for c in board:
        occupied.add((c.x, c.y))
        if c.x >= w:
            w = c.x + 1
        if c.y >= h:
            h = c.y + 1
    low_x = -1 if w < width else 0
    low_y = -1 if h < height else 0
    empty: list[tuple[int, int]] = []  # (row, column): tuples that sort in row-major order as they are
    seen: set[Coord] = set()
    for x, y in occupied:  # any order: the cells found are sorted below
        for dx, dy in NEIGHBOURS:
            xy = (x + dx, y + dy)
            if xy in occupied or xy in seen:
                continue
            seen.add(xy)
            if low_x <= xy[0] < width and low_y <= xy[1] < height:
                empty.append((xy[1], xy[0]))
    empty.sort()
    table = STACKS_ON[strategic]
    found = []
    for rank in ranks:
        allowed = table[rank]
        cells = sorted([(c.y, c.x) for c in board if c.stack[0][1] in allowed] + empty)
        found.append([(x, y) for y, x in cells])
    return found


#: STACKS_ON[strategic][upper]: the ranks a card of rank ``upper`` may be laid on (:func:`stacking`).
STACKS_ON = {strategic: {upper: frozenset(lower for lower in RANKS if stacking(upper, lower, strategic) is not None)
                         for upper in RANKS}
             for strategic in (False, True)}


def place(board: Board, x: int, y: int, card: str, strategic: bool) -> tuple[Board, tuple[str, ...]]:
    """Lay ``card`` at (x, y) without checking adjacency or the bound (see :func:`targets`).

    Returns the new normalised battlefield and the cards taken off the table: with the strategic
    variant a card laid on one of the same value, or a Miner laid on a Bomb, removes both, and the card
    underneath shows again. A stack that empties leaves its cell empty; cards that no longer touch the
    rest simply stay where they are (seed, variant). Raises ValueError if stacking is not allowed.

    The battlefield is changed in place of the one cell where it can be (the result is what
    :func:`make_board` would build): a stack grows or shrinks, or a new cell goes in row-major order,
    every cell shifted by one when it lies left of column 0 or above row 0. Only a stack that empties
    rebuilds the whole battlefield, since the box may shrink.
    """
    for i, cell in enumerate(board):
        if cell.x == x and cell.y == y:
            below = cell.stack
            effect = stacking(card[1], below[0][1], strategic)
            if effect is None:
                raise ValueError(f"{card} may not be laid on {below[0]}")
            if effect == "cancel":
                if len(below) == 1:
                    grid = stacks(board)
                    del grid[(x, y)]
                    return make_board(grid), (card, below[0])
                return board[:i] + (Cell(x, y, below[1:]),) + board[i + 1:], (card, below[0])
            return board[:i] + (Cell(x, y, (card, *below)),) + board[i + 1:], ()
    dx, dy = (1 if x < 0 else 0), (1 if y < 0 else 0)
    cells = list(board) if not (dx or dy) else [Cell(c.x + dx, c.y + dy, c.stack) for c in board]
    new = Cell(x + dx, y + dy, (card,))
    key = (new.y, new.x)
    at = len(cells)
    for i, cell in enumerate(cells):
        if (cell.y, cell.x) > key:
            at = i
            break
    cells.insert(at, new)
    return tuple(cells), ()


def board_problem(board: Board, strategic: bool) -> str | None:
    """Why no play leaves ``board``, or None. Every stack is a run of ordinary stackings, bottom to top (a
    card goes on a stack only by the stacking rules, and the variant's cancellations take off the top two,
    leaving the run below); without the strategic variant the cards form one battlefield joined by full
    sides (each card is laid against one, seed "A.", and only the variant's removals can leave cards apart).
    A composed position may hold fewer cards than a game (docs/rules/cardclash.md), not these shapes."""
    for cell in board:
        for upper, lower in zip(cell.stack, cell.stack[1:], strict=False):
            if stacking(upper[1], lower[1], strategic) != "stack":
                return (f"the stack at {cell.x},{cell.y} ({format_stack(cell.stack)}, top first) has {upper} on "
                        f"{lower}, which the stacking rules never leave there")
    if strategic or not board:
        return None
    occupied = {(cell.x, cell.y) for cell in board}
    first = (board[0].x, board[0].y)
    joined, frontier = {first}, [first]
    while frontier:
        x, y = frontier.pop()
        for dx, dy in NEIGHBOURS:
            if (x + dx, y + dy) in occupied and (x + dx, y + dy) not in joined:
                joined.add((x + dx, y + dy))
                frontier.append((x + dx, y + dy))
    if len(joined) < len(occupied):
        apart = min(occupied - joined, key=lambda xy: (xy[1], xy[0]))
        return (f"the card at {apart[0]},{apart[1]} is not joined to {first[0]},{first[1]} by full sides: each card is "
                "laid against one, and only the strategic variant takes cards away")
    return None


def squares(board: Board) -> dict[str, list[Coord]]:
    """Colour letter -> top-left corners of its 2x2 squares of visible top cards (seed "Doel")."""
    top = tops(board)
    found: dict[str, list[Coord]] = {}
    for (x, y), card in sorted(top.items(), key=lambda item: (item[0][1], item[0][0])):
        colour = card[0]
        if all(top.get(xy, " ")[0] == colour for xy in ((x + 1, y), (x, y + 1), (x + 1, y + 1))):
            found.setdefault(colour, []).append((x, y))
    return found


# -- notation ---------------------------------------------------------------------------------------
_CARD_RE = re.compile(rf"[{COLOURS}][{RANKS}]")


def format_stack(stack: Stack) -> str:
    """``gBp6y2``: the stack top card first, ``.`` when empty."""
    return "".join(stack) if stack else "."


def parse_stack(text: str) -> Stack:
    """Inverse of :func:`format_stack`."""
    if text == ".":
        return ()
    if len(text) % 2 or not text:
        raise NotationError(f"stack {text!r} is not a run of two-character cards such as gBp6y2 (or . for empty)")
    cards = tuple(text[i : i + 2] for i in range(0, len(text), 2))
    for card in cards:
        if not _CARD_RE.fullmatch(card):
            raise NotationError(
                f"card {card!r} in stack {text!r} is not a colour ({COLOURS}) followed by a rank ({RANKS})"
            )
    return cards


def format_board(board: Board) -> str:
    """Rows top to bottom separated by ``/``, cells separated by ``,``; ``-`` when empty."""
    if not board:
        return "-"
    grid = stacks(board)
    w, h = size(board)
    return "/".join(",".join(format_stack(grid.get((x, y), ())) for x in range(w)) for y in range(h))


def parse_board(text: str) -> Board:
    """Inverse of :func:`format_board`; the text must be normalised (no empty outer row or column)."""
    if text == "-":
        return EMPTY
    grid: dict[Coord, Stack] = {}
    rows = text.split("/")
    widths = set()
    for y, row in enumerate(rows):
        cells = row.split(",")
        widths.add(len(cells))
        for x, cell in enumerate(cells):
            stack = parse_stack(cell)
            if stack:
                grid[(x, y)] = stack
    if len(widths) != 1:
        raise NotationError(f"battlefield {text!r}: every row needs the same number of cells")
    board = make_board(grid)
    if size(board) != (widths.pop(), len(rows)):
        raise NotationError(f"battlefield {text!r} has an empty outer row or column; leave it out")
    return board

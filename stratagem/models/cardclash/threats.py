"""Squares a move completes and the threats a player faces: the tactics behind move ordering.

A *threat* of a colour is a move that would complete a 2x2 square of that colour at once: a card of
its owner's hand laid on the fourth cell of a 2x2 block whose other three cells already show that
colour. A move changes one cell only, so every square a move makes has the changed cell as the fourth
cell of such a block; :func:`completing_moves` finds them all exactly (the strategic variant's
cancellations included: the card uncovered decides).

The work is done on a *grid* (a dict from cell to stack) that a move changes in one cell without
re-normalising, because counting threats does not care where the battlefield lies; this keeps move
ordering cheap enough to run at every node of a search.
"""

from __future__ import annotations

from typing import NamedTuple

from stratagem.models.cardclash.battlefield import Board, Coord, Stack, stacks
from stratagem.models.cardclash.cards import COLOURS, RANKS, stacking
from stratagem.models.cardclash.position import PASS, Move, State

Grid = dict[Coord, Stack]
_CORNERS = ((0, 0), (-1, 0), (0, -1), (-1, -1))  # top-left corners of the four blocks holding a cell
_BLOCK = ((0, 0), (1, 0), (0, 1), (1, 1))


class Rules(NamedTuple):
    """The options placement depends on (kept apart from the game to avoid an import cycle)."""

    width: int
    height: int
    strategic: bool


def _colour(grid: Grid, xy: Coord) -> str:
    stack = grid.get(xy)
    return stack[0][0] if stack else ""


def grid_fourth_cells(grid: Grid, colour: str) -> list[Coord]:
    """Cells that would complete a square of ``colour``: the odd one out of a 2x2 block showing three."""
    found: list[Coord] = []
    seen: set[Coord] = set()
    for (x, y), stack in grid.items():
        if stack[0][0] != colour:
            continue
        for cx, cy in _CORNERS:
            corner = (x + cx, y + cy)
            if corner in seen:
                continue
            seen.add(corner)
            others = [(corner[0] + dx, corner[1] + dy) for dx, dy in _BLOCK]
            odd = [xy for xy in others if _colour(grid, xy) != colour]
            if len(odd) == 1 and odd[0] not in found:
                found.append(odd[0])
    return found


def grid_completions(grid: Grid, colour: str, hand: str, strategic: bool) -> list[tuple[str, Coord]]:
    """(rank, cell) pairs of ``hand`` that complete a square of ``colour`` on ``grid``."""
    out: list[tuple[str, Coord]] = []
    ranks = sorted(set(hand), key=RANKS.index)
    for xy in grid_fourth_cells(grid, colour):
        under = grid.get(xy)
        for rank in ranks:
            if not under:
                out.append((rank, xy))
                continue
            effect = stacking(rank, under[0][1], strategic)
            if effect == "stack" or (effect == "cancel" and len(under) > 1 and under[1][0] == colour):
                out.append((rank, xy))
    return out


def completing_moves(board: Board, colour: str, hand: str, rules: Rules) -> list[Move]:
    """Every move of a player of ``colour`` holding ``hand`` after which ``colour`` shows a square."""
    return [Move(rank, x, y) for rank, (x, y) in grid_completions(stacks(board), colour, hand, rules.strategic)]


def threat_count(board: Board, state: State, players: list[int], rules: Rules) -> int:
    """How many square-completing moves ``players`` hold on ``board`` with their hands in ``state``."""
    grid = stacks(board)
    return sum(len(grid_completions(grid, COLOURS[p], state.hands[p], rules.strategic)) for p in players)


def potential(board: Board, colour: str) -> int:
    """A smooth measure of how close ``colour`` is to squares: over 2x2 blocks holding no other colour,
    the number of its cards squared."""
    colours = {(c.x, c.y): c.stack[0][0] for c in board}
    corners = {(x + cx, y + cy) for x, y in colours for cx, cy in _CORNERS}
    return sum(_potential_of(colours, [(x + dx, y + dy) for dx, dy in _BLOCK], colour) for x, y in corners)


class Effect(NamedTuple):
    """What a move does tactically, from the mover's point of view (for ordering and the greedy agent)."""

    wins: bool  # the mover shows a square afterwards (and so wins, docs/rules/cardclash.md)
    gifts: bool  # another player shows a new square afterwards (strategic cancellations only)
    opponent_threats: int  # square-completing moves the other players hold afterwards
    own_threats: int  # square-completing moves the mover holds afterwards (with the hand after drawing)
    potential_gain: int  # change of the mover's square potential in the blocks around the cell


def _odd_cells(colours: dict[Coord, str], colour: str, corners: set[Coord]) -> dict[Coord, Coord]:
    """Block corner -> the odd cell, for the blocks at ``corners`` that show ``colour`` three times."""
    out: dict[Coord, Coord] = {}
    for a, b in corners:
        cells = ((a, b), (a + 1, b), (a, b + 1), (a + 1, b + 1))
        odd = [xy for xy in cells if colours.get(xy) != colour]
        if len(odd) == 1:
            out[(a, b)] = odd[0]
    return out


def _cell_completions(stack: Stack | None, colour: str, hand: str, strategic: bool) -> int:
    """How many distinct ranks of ``hand`` laid on ``stack`` leave ``colour`` on top there."""
    count = 0
    for rank in set(hand):
        if not stack:
            count += 1
            continue
        effect = stacking(rank, stack[0][1], strategic)
        if effect == "stack" or (effect == "cancel" and len(stack) > 1 and stack[1][0] == colour):
            count += 1
    return count


class Context:
    """What every move of one state shares: the grid, its colours and each player's three-of-four blocks.

    A move changes one cell, so only the four blocks around it change; :func:`effect` recomputes
    those and reuses the rest, and caches completions at unchanged cells.
    """

    def __init__(self, state: State, rules: Rules) -> None:
        self.state = state
        self.rules = rules
        self.grid = stacks(state.board)
        self.colours = {xy: s[0][0] for xy, s in self.grid.items()}
        self.odd: list[dict[Coord, Coord]] = []
        for p in range(state.players):
            colour = COLOURS[p]
            corners = {(x + cx, y + cy) for (x, y), c in self.colours.items() if c == colour for cx, cy in _CORNERS}
            self.odd.append(_odd_cells(self.colours, colour, corners))
        self.cache: dict[tuple[str, str, Coord], int] = {}
        self._far: dict[tuple[int, str, Coord], tuple[set[Coord], int]] = {}
        self._around: dict[tuple[Coord, str], tuple[bool, bool, int, list[list[Coord]]]] = {}

    def completions(self, colour: str, hand: str, cell: Coord) -> int:
        """:func:`_cell_completions` at an unchanged ``cell`` of the state, cached."""
        key = (colour, hand, cell)
        count = self.cache.get(key)
        if count is None:
            count = self.cache[key] = _cell_completions(self.grid.get(cell), colour, hand, self.rules.strategic)
        return count

    def threats_now(self, p: int, hand: str) -> int:
        """Square-completing moves of player ``p`` holding ``hand`` in the state itself (no change)."""
        colour = COLOURS[p]
        return sum(self.completions(colour, hand, cell) for cell in set(self.odd[p].values()))

    def far(self, p: int, hand: str, changed: Coord) -> tuple[set[Coord], int]:
        """The odd cells of player ``p``'s three-of-four blocks that do not hold ``changed`` (a change
        there leaves them as they are), and the completions of ``hand`` at them; cached."""
        key = (p, hand, changed)
        found = self._far.get(key)
        if found is None:
            x, y = changed
            near = {(x + cx, y + cy) for cx, cy in _CORNERS}
            cells = {cell for corner, cell in self.odd[p].items() if corner not in near}
            colour = COLOURS[p]
            found = self._far[key] = (cells, sum(self.completions(colour, hand, cell) for cell in cells))
        return found

    def around(self, mover: int, changed: Coord, shows: str) -> tuple[bool, bool, int, list[list[Coord]]]:
        """What a change of the cell ``changed`` to show the colour ``shows`` (``""``: empty) does in
        the four blocks holding it: whether the mover and another player show a square there, the
        change of the mover's square potential, and each player's odd cells among those blocks."""
        key = (changed, shows)
        found = self._around.get(key)
        if found is not None:
            return found
        x, y = changed
        old = self.colours
        local = {(a, b): old.get((a, b), "") for a in (x - 1, x, x + 1) for b in (y - 1, y, y + 1)}
        before = local[changed]
        local[changed] = shows
        colour = COLOURS[mover]
        wins = gifts = False
        gain = 0
        blocks = [((a, b), (a + 1, b), (a, b + 1), (a + 1, b + 1))
                  for a, b in ((x, y), (x - 1, y), (x, y - 1), (x - 1, y - 1))]
        for block in blocks:
            seen = [local[cell] for cell in block]
            first = seen[0]
            if first and seen[1] == first and seen[2] == first and seen[3] == first:
                if first == colour:
                    wins = True
                else:
                    gifts = True
            gain += _potential_seen(seen, colour)
            seen[block.index(changed)] = before
            gain -= _potential_seen(seen, colour)
        odd_cells: list[list[Coord]] = []
        for p in range(self.state.players):
            pc = COLOURS[p]
            cells: list[Coord] = []
            for block in blocks:
                odd = [cell for cell in block if local[cell] != pc]
                if len(odd) == 1 and odd[0] not in cells:
                    cells.append(odd[0])
            odd_cells.append(cells)
        found = self._around[key] = (wins, gifts, gain, odd_cells)
        return found

    def threats_after(self, p: int, hand: str, changed: Coord, stack: Stack, near_odd: list[Coord]) -> int:
        """:meth:`threats` for a change of the cell ``changed`` to ``stack``, given player ``p``'s odd
        cells ``near_odd`` in the four blocks holding it after the change (see :meth:`around`)."""
        far, total = self.far(p, hand, changed)
        colour = COLOURS[p]
        for cell in near_odd:
            if cell in far:
                continue
            if cell == changed:
                total += _cell_completions(stack, colour, hand, self.rules.strategic)
            else:
                total += self.completions(colour, hand, cell)
        return total

    def threats(self, p: int, hand: str, changed: Coord, grid: Grid, colours: dict[Coord, str]) -> int:
        """Square-completing moves of player ``p`` holding ``hand`` after ``changed`` took its new stack."""
        colour = COLOURS[p]
        near = {(changed[0] + cx, changed[1] + cy) for cx, cy in _CORNERS}
        cells = {cell for corner, cell in self.odd[p].items() if corner not in near}
        cells.update(_odd_cells(colours, colour, near).values())
        total = 0
        for cell in cells:
            if cell == changed:
                total += _cell_completions(grid.get(cell), colour, hand, self.rules.strategic)
                continue
            total += self.completions(colour, hand, cell)
        return total


def effect(state: State, move: Move, rules: Rules, context: Context | None = None) -> Effect:
    """The tactical :class:`Effect` of a legal ``move`` in ``state`` (``context``: the state's, if built)."""
    ctx = Context(state, rules) if context is None else context
    mover = state.to_move
    colour = COLOURS[mover]
    if move == PASS:
        others = [p for p in range(state.players) if p != mover]
        grid = ctx.grid
        return Effect(False, False, threat_count(state.board, state, others, rules),
                      len(grid_completions(grid, colour, state.hands[mover], rules.strategic)), 0)
    xy = (move.x, move.y)
    under = ctx.grid.get(xy, ())
    if under and stacking(move.rank, under[0][1], rules.strategic) == "cancel":
        stack = under[1:]  # both cards go; the card below (if any) shows again
    else:
        stack = (colour + move.rank, *under)
    wins, gifts, gain, near_odd = ctx.around(mover, xy, stack[0][0] if stack else "")
    hand = state.hands[mover].replace(move.rank, "", 1) + state.piles[mover][:1]
    return Effect(
        wins=wins,
        gifts=gifts,
        opponent_threats=sum(
            ctx.threats_after(p, state.hands[p], xy, stack, near_odd[p]) for p in range(state.players) if p != mover
        ),
        own_threats=ctx.threats_after(mover, hand, xy, stack, near_odd[mover]),
        potential_gain=gain,
    )


def _potential_seen(seen: list[str], colour: str) -> int:
    """:func:`_potential_of` of a block given the colours it shows (``""`` for empty)."""
    mine = 0
    for c in seen:
        if c == colour:
            mine += 1
        elif c:
            return 0
    return mine * mine


def _potential_of(colours: dict[Coord, str], block: list[Coord], colour: str) -> int:
    seen = [colours.get(xy, "") for xy in block]
    if any(c and c != colour for c in seen):
        return 0
    mine = seen.count(colour)
    return mine * mine


def order(state: State, moves: list[Move], rules: Rules) -> list[Move]:
    """Threat-aware move ordering: squares first, then blocks, then threats, then the rest.

    Buckets: (0) moves that make the mover's square; (1) moves that leave the other players fewer
    square-completing moves than they have now (blocks), fewest first; (2) moves that create threats
    of the mover's own; (3) the rest, by potential gained; (4) moves that hand another player a square
    (only possible with the strategic variant's cancellations). Stable within a key.
    """
    ctx = Context(state, rules)
    before = sum(ctx.threats_now(p, state.hands[p]) for p in range(state.players) if p != state.to_move)

    def key(item: tuple[int, Move]) -> tuple[int, int, int, int]:
        index, move = item
        e = effect(state, move, rules, ctx)
        if e.wins:
            bucket = 0
        elif e.gifts:
            bucket = 4
        elif e.opponent_threats < before:
            bucket = 1
        elif e.own_threats > 0:
            bucket = 2
        else:
            bucket = 3
        return bucket, e.opponent_threats, -(e.own_threats * 100 + e.potential_gain), index

    return [move for _, move in sorted(enumerate(moves), key=key)]

# mypy: disallow-untyped-decorators=False
"""Card Clash's compiled engine: one round over packed states, behind :class:`~stratagem.core.packed.PackedGame`.

The rules are :mod:`stratagem.models.cardclash.rules`' (the reference, docs/rules/cardclash.md), both
the base game and the strategic variant, 2 to 6 players, any table up to :data:`MAX_CELLS` cells. A
round has no chance states: the deal happens before it and every draw pile is part of the open state.
This module is a kernel (compiled at install, see ``setup.py``); uncompiled it runs as plain Python
with the same results.

A packed state is ``6 + 5 * players + W * H * (2 + K)`` words (``n`` players, table ``W`` x ``H``, ``K``
words of stack a cell, :func:`stack_words`):

============================ =====================================================================
slot                         content
============================ =====================================================================
0                            the player to move (as the reference state records it, also at the end)
1                            how many players have passed in a row
2                            the winners as a bit set (0 while the round goes on)
3, 4                         the battlefield's bounding box, width and height (0, 0 when empty)
5                            the round number
6 .. 6+n-1                   flags won so far per player (-1 in every slot: the state had none)
6+n .. 6+2n-1                each hand: eight 4-bit counts, rank ``r`` (``123456BX`` order) at bit 4r
6+2n .. 6+3n-1               each draw pile: 3-bit ranks, the top card in the lowest bits
6+3n .. 6+4n-1               each draw pile's length
6+4n .. 6+5n-1               cards the variant took off the table, per colour, as a hand is packed
then W * H words             the top card of each cell (x, y) at ``y * W + x``, as a 6-bit code
                             ``colour * 8 + rank + 1`` (0: empty): all that play looks at
then W * H words             each cell's stack height
then W * H * K words         each cell's stack, bottom card first, ten 6-bit codes a word
============================ =====================================================================

The battlefield is normalised as the reference's is: its leftmost column is 0 and its top row 0, so a
card laid at column or row -1 shifts every cell by one, and a cell emptied by a cancellation may shrink
the box. :meth:`CardClashEngine.encode` refuses stacks deeper than play can build (:func:`stack_words`),
hands or removed counts above 15, piles above 21 cards, and a round still going on with a square on the
table (play never reaches one; the engine looks for a new square only around the cell a move changed).

Listing moves marks the cells a card may go to in a scratch array of the engine's own, so one engine
serves one search at a time. A move record is ``(rank, x, y)``: rank 0-7 in ``123456BX`` order and the
cell in the battlefield's coordinates as the reference's
:class:`~stratagem.models.cardclash.position.Move`, or ``(-1, 0, 0)`` for a pass.
:meth:`CardClashEngine.legal` lists them in the reference's order (ranks, then cells row by row).
Returns are the reference's: +1 to the winners and -1 to the others, 0 to all when all win.

Why one module of over 600 lines: it is one concept, Card Clash's rules over packed states (the
compiled twin of the rules engine, both of its games, held to it move for move); its functions share the
state layout and call one another at C level, which Cython inlines only within one module.
"""

from __future__ import annotations

from typing import Any, cast

import cython
import numpy as np

if cython.compiled:
    from cython.cimports.stratagem.core.packed import CHANCE, PackedGame
else:
    from stratagem.core.packed import CHANCE, PackedGame

#: The largest table (cells) the engine takes: a state carries every cell of the table.
MAX_CELLS = 4096
MOVE_WIDTH = 3

TO_MOVE = cython.declare(cython.Py_ssize_t, 0)
PASSES = cython.declare(cython.Py_ssize_t, 1)
WINNERS = cython.declare(cython.Py_ssize_t, 2)
BOX_W = cython.declare(cython.Py_ssize_t, 3)
BOX_H = cython.declare(cython.Py_ssize_t, 4)
ROUND = cython.declare(cython.Py_ssize_t, 5)
FLAGS = cython.declare(cython.Py_ssize_t, 6)

SPY = cython.declare(cython.longlong, 0)
MARSHAL = cython.declare(cython.longlong, 5)
BOMB = cython.declare(cython.longlong, 6)
MINER = cython.declare(cython.longlong, 7)
PASS_RANK = cython.declare(cython.longlong, -1)

_RANKS = "123456BX"
_COLOURS = "rbgypo"


@cython.cfunc
@cython.inline
@cython.exceptval(check=False)
def _effect(upper: cython.longlong, lower: cython.longlong, strategic: cython.bint) -> cython.int:
    """:func:`~stratagem.models.cardclash.cards.stacking` on rank numbers: 0 forbidden, 1 stack, 2 cancel."""
    if strategic and (upper == lower or (upper == MINER and lower == BOMB)):
        return 2
    if lower == MINER:
        return 0
    if upper == SPY:
        return 1 if lower == MARSHAL else 0
    if upper <= MARSHAL:
        return 1 if lower <= MARSHAL and lower < upper else 0
    if upper == BOMB:
        return 1 if lower <= MARSHAL else 0
    return 1 if lower == BOMB else 0


@cython.cfunc
@cython.inline
@cython.exceptval(check=False)
def _top(state: cython.longlong[::1], ob: cython.Py_ssize_t, tw: cython.Py_ssize_t, w: cython.Py_ssize_t,
         h: cython.Py_ssize_t, x: cython.Py_ssize_t, y: cython.Py_ssize_t) -> cython.longlong:
    """The top card code of cell (x, y), 0 when it is empty or outside the box."""
    if x < 0 or y < 0 or x >= w or y >= h:
        return 0
    return state[ob + y * tw + x] & 63


@cython.cfunc
@cython.exceptval(check=False)
def _square_at(state: cython.longlong[::1], ob: cython.Py_ssize_t, tw: cython.Py_ssize_t, w: cython.Py_ssize_t,
               h: cython.Py_ssize_t, x: cython.Py_ssize_t, y: cython.Py_ssize_t) -> cython.longlong:
    """The colour of a 2x2 square of top cards that cell (x, y) is part of, or -1."""
    code: cython.longlong = _top(state, ob, tw, w, h, x, y)
    if code == 0:
        return -1
    colour: cython.longlong = (code - 1) >> 3
    x0: cython.Py_ssize_t
    y0: cython.Py_ssize_t
    a: cython.longlong
    b: cython.longlong
    c: cython.longlong
    d: cython.longlong
    for y0 in range(y - 1, y + 1):
        for x0 in range(x - 1, x + 1):
            a = _top(state, ob, tw, w, h, x0, y0)
            b = _top(state, ob, tw, w, h, x0 + 1, y0)
            c = _top(state, ob, tw, w, h, x0, y0 + 1)
            d = _top(state, ob, tw, w, h, x0 + 1, y0 + 1)
            if (a != 0 and b != 0 and c != 0 and d != 0 and (a - 1) >> 3 == colour and (b - 1) >> 3 == colour
                    and (c - 1) >> 3 == colour and (d - 1) >> 3 == colour):
                return colour
    return -1


@cython.cfunc
@cython.exceptval(check=False)
def _scored(state: cython.longlong[::1], ob: cython.Py_ssize_t, tw: cython.Py_ssize_t,
            n: cython.Py_ssize_t) -> cython.longlong:
    """:func:`~stratagem.models.cardclash.rules.scored_winners` as a bit set: most visible cards, then
    the largest sum of numbers on them, then the highest number; players still tied win together."""
    w: cython.Py_ssize_t = state[BOX_W]
    h: cython.Py_ssize_t = state[BOX_H]
    best: cython.longlong = -1
    mask: cython.longlong = 0
    p: cython.Py_ssize_t
    x: cython.Py_ssize_t
    y: cython.Py_ssize_t
    code: cython.longlong
    rank: cython.longlong
    points: cython.longlong
    total: cython.longlong
    high: cython.longlong
    key: cython.longlong
    for p in range(n):
        points = 0
        total = 0
        high = 0
        for y in range(h):
            for x in range(w):
                code = state[ob + y * tw + x] & 63
                if code == 0 or (code - 1) >> 3 != p:
                    continue
                points += 1
                rank = (code - 1) & 7
                if rank <= MARSHAL:
                    total += rank + 1
                    if rank + 1 > high:
                        high = rank + 1
        key = points * 1000000 + total * 1000 + high
        if key > best:
            best = key
            mask = cython.cast(cython.longlong, 1) << p
        elif key == best:
            mask |= cython.cast(cython.longlong, 1) << p
    return mask


@cython.cclass
class CardClashEngine(PackedGame):  # type: ignore[misc]
    """One round of Card Clash with the given options as a :class:`~stratagem.core.packed.PackedGame`
    (the module docstring gives the layout); :meth:`from_game` builds it from a
    :class:`~stratagem.models.cardclash.rules.CardClashGame`."""

    table_w: cython.Py_ssize_t
    table_h: cython.Py_ssize_t
    strategic: cython.bint
    o_hands: cython.Py_ssize_t
    o_piles: cython.Py_ssize_t
    o_plen: cython.Py_ssize_t
    o_removed: cython.Py_ssize_t
    o_board: cython.Py_ssize_t
    o_depth: cython.Py_ssize_t
    o_stack: cython.Py_ssize_t
    stack_words: cython.Py_ssize_t
    _window: cython.longlong[::1]
    _scratch: cython.longlong[:, ::1]

    def __init__(self, players: int, width: int = 6, height: int = 6, strategic: bool = False,
                 extra: int = 0) -> None:
        """``extra``: words a subclass keeps after the round's (:class:`DealtCardClashEngine`)."""
        if not 2 <= players <= 6:
            raise ValueError(f"Card Clash is played by 2 to 6 players, not {players}")
        if width < 1 or height < 1 or width * height > MAX_CELLS:
            raise ValueError(f"the compiled engine takes tables of 1 to {MAX_CELLS} cells, not {width}x{height}")
        max_moves = 8 * (width + 1) * (height + 1) + 1
        cells = width * height
        words = stack_words(players)
        PackedGame.__init__(self, 6 + 5 * players + cells * (2 + words) + extra, MOVE_WIDTH, max_moves, players)
        self.table_w = width
        self.table_h = height
        self.strategic = strategic
        self.o_hands = 6 + players
        self.o_piles = 6 + 2 * players
        self.o_plen = 6 + 3 * players
        self.o_removed = 6 + 4 * players
        self.o_board = 6 + 5 * players
        self.o_depth = self.o_board + cells
        self.o_stack = self.o_depth + cells
        self.stack_words = words
        self._window = np.zeros((width + 2) * (height + 2), np.int64)
        self._scratch = np.zeros((max_moves, MOVE_WIDTH), np.int64)

    @staticmethod
    def from_game(game: Any) -> CardClashEngine:
        """The engine of a :class:`~stratagem.models.cardclash.rules.CardClashGame` (its players, table and
        variant; the flags played for do not change a round). ValueError when the table is too large."""
        return CardClashEngine(game.num_players, game.width, game.height, game.strategic)

    # -- stacks --------------------------------------------------------------------------------------
    @cython.cfunc
    @cython.boundscheck(False)
    @cython.wraparound(False)
    @cython.initializedcheck(False)
    @cython.exceptval(-1, check=False)
    def _push(self, state: cython.longlong[::1], c: cython.Py_ssize_t, code: cython.longlong) -> cython.int:
        """Lay the card ``code`` on top of cell ``c``'s stack."""
        d: cython.Py_ssize_t = state[self.o_depth + c]
        if d >= 10 * self.stack_words:
            raise ValueError(f"a stack deeper than the compiled engine holds ({10 * self.stack_words} cards)")
        state[self.o_stack + c * self.stack_words + d // 10] |= code << (6 * (d % 10))
        state[self.o_depth + c] = d + 1
        state[self.o_board + c] = code
        return 0

    @cython.cfunc
    @cython.boundscheck(False)
    @cython.wraparound(False)
    @cython.initializedcheck(False)
    @cython.exceptval(check=False)
    def _pop(self, state: cython.longlong[::1], c: cython.Py_ssize_t) -> cython.void:
        """Take the top card off cell ``c``'s stack (it has one); the card below shows."""
        d: cython.Py_ssize_t = state[self.o_depth + c] - 1
        base: cython.Py_ssize_t = self.o_stack + c * self.stack_words
        state[base + d // 10] &= ~(cython.cast(cython.longlong, 63) << (6 * (d % 10)))
        state[self.o_depth + c] = d
        if d == 0:
            state[self.o_board + c] = 0
        else:
            state[self.o_board + c] = (state[base + (d - 1) // 10] >> (6 * ((d - 1) % 10))) & 63

    @cython.cfunc
    @cython.boundscheck(False)
    @cython.wraparound(False)
    @cython.initializedcheck(False)
    @cython.exceptval(check=False)
    def _move_cell(self, state: cython.longlong[::1], src: cython.Py_ssize_t, dst: cython.Py_ssize_t) -> cython.void:
        """Move cell ``src``'s stack to cell ``dst`` and leave ``src`` empty."""
        k: cython.Py_ssize_t
        words: cython.Py_ssize_t = self.stack_words
        state[self.o_board + dst] = state[self.o_board + src]
        state[self.o_depth + dst] = state[self.o_depth + src]
        state[self.o_board + src] = 0
        state[self.o_depth + src] = 0
        for k in range(words):
            state[self.o_stack + dst * words + k] = state[self.o_stack + src * words + k]
            state[self.o_stack + src * words + k] = 0

    @cython.cfunc
    @cython.boundscheck(False)
    @cython.wraparound(False)
    @cython.initializedcheck(False)
    @cython.exceptval(check=False)
    def _renormalise(self, state: cython.longlong[::1]) -> cython.void:
        """Shift the battlefield so its leftmost column and top row are 0 again, and set the box."""
        tw: cython.Py_ssize_t = self.table_w
        ob: cython.Py_ssize_t = self.o_board
        w: cython.Py_ssize_t = state[BOX_W]
        h: cython.Py_ssize_t = state[BOX_H]
        x0: cython.Py_ssize_t = w
        y0: cython.Py_ssize_t = h
        x1: cython.Py_ssize_t = -1
        y1: cython.Py_ssize_t = -1
        x: cython.Py_ssize_t
        y: cython.Py_ssize_t
        for y in range(h):
            for x in range(w):
                if state[ob + y * tw + x] != 0:
                    if x < x0:
                        x0 = x
                    if x > x1:
                        x1 = x
                    if y < y0:
                        y0 = y
                    if y > y1:
                        y1 = y
        if x1 < 0:
            state[BOX_W] = 0
            state[BOX_H] = 0
            return
        if x0 > 0 or y0 > 0:  # every occupied cell moves up and to the left, nearest the corner first
            for y in range(y0, y1 + 1):
                for x in range(x0, x1 + 1):
                    if state[ob + y * tw + x] != 0:
                        self._move_cell(state, y * tw + x, (y - y0) * tw + x - x0)
        state[BOX_W] = x1 - x0 + 1
        state[BOX_H] = y1 - y0 + 1

    # -- the C-level interface -------------------------------------------------------------------
    @cython.cfunc
    @cython.exceptval(-3, check=False)
    def to_move(self, state: cython.longlong[::1]) -> cython.Py_ssize_t:
        return state[TO_MOVE]

    @cython.cfunc
    @cython.boundscheck(False)
    @cython.wraparound(False)
    @cython.initializedcheck(False)
    @cython.exceptval(-1, check=False)
    def _placements(self, state: cython.longlong[::1], moves: cython.longlong[:, ::1]) -> cython.Py_ssize_t:
        """Write every card-laying move of the player to move (the reference's ``placements``)."""
        p: cython.Py_ssize_t = state[TO_MOVE]
        hand: cython.longlong = state[self.o_hands + p]
        w: cython.Py_ssize_t = state[BOX_W]
        h: cython.Py_ssize_t = state[BOX_H]
        tw: cython.Py_ssize_t = self.table_w
        ob: cython.Py_ssize_t = self.o_board
        count: cython.Py_ssize_t = 0
        r: cython.longlong
        if hand == 0:
            return 0
        if w == 0:
            for r in range(8):
                if (hand >> (4 * r)) & 15:
                    moves[count, 0] = r
                    moves[count, 1] = 0
                    moves[count, 2] = 0
                    count += 1
            return count
        # The window of cells a card may go to: the box and one cell around it where the table allows.
        low_x: cython.Py_ssize_t = -1 if w < tw else 0
        low_y: cython.Py_ssize_t = -1 if h < self.table_h else 0
        high_x: cython.Py_ssize_t = w if w < tw else w - 1
        high_y: cython.Py_ssize_t = h if h < self.table_h else h - 1
        ww: cython.Py_ssize_t = high_x - low_x + 1
        window: cython.longlong[::1] = self._window
        x: cython.Py_ssize_t
        y: cython.Py_ssize_t
        i: cython.Py_ssize_t = 0
        code: cython.longlong
        for y in range(low_y, high_y + 1):
            for x in range(low_x, high_x + 1):
                code = _top(state, ob, tw, w, h, x, y)
                if code != 0:
                    window[i] = 2 + ((code - 1) & 7)  # an occupied cell: its top rank + 2
                elif (_top(state, ob, tw, w, h, x - 1, y) != 0 or _top(state, ob, tw, w, h, x + 1, y) != 0
                      or _top(state, ob, tw, w, h, x, y - 1) != 0 or _top(state, ob, tw, w, h, x, y + 1) != 0):
                    window[i] = 1  # an empty cell along a full side of a card
                else:
                    window[i] = 0
                i += 1
        cells: cython.Py_ssize_t = i
        mark: cython.longlong
        strategic: cython.bint = self.strategic
        for r in range(8):
            if not (hand >> (4 * r)) & 15:
                continue
            for i in range(cells):
                mark = window[i]
                if mark == 0 or (mark >= 2 and _effect(r, mark - 2, strategic) == 0):
                    continue
                moves[count, 0] = r
                moves[count, 1] = low_x + i % ww
                moves[count, 2] = low_y + i // ww
                count += 1
        return count

    @cython.cfunc
    @cython.exceptval(-1, check=False)
    def legal(self, state: cython.longlong[::1], moves: cython.longlong[:, ::1]) -> cython.Py_ssize_t:
        if state[WINNERS] != 0:
            return 0
        count: cython.Py_ssize_t = self._placements(state, moves)
        if count == 0:
            moves[0, 0] = PASS_RANK
            moves[0, 1] = 0
            moves[0, 2] = 0
            count = 1
        return count

    @cython.cfunc
    @cython.boundscheck(False)
    @cython.wraparound(False)
    @cython.initializedcheck(False)
    @cython.exceptval(-1, check=False)
    def apply(self, state: cython.longlong[::1], move: cython.longlong[::1], out: cython.longlong[::1]) -> cython.int:
        i: cython.Py_ssize_t
        for i in range(self.width):
            out[i] = state[i]
        if state[WINNERS] != 0:
            raise ValueError("a Card Clash move after the end of the round")
        n: cython.Py_ssize_t = self.players
        p: cython.Py_ssize_t = state[TO_MOVE]
        nxt: cython.Py_ssize_t = (p + 1) % n
        r: cython.longlong = move[0]
        out[TO_MOVE] = nxt
        if r == PASS_RANK:
            if self._placements(state, self._scratch) > 0:
                raise ValueError("a Card Clash player who can lay a card may not pass")
            out[PASSES] = state[PASSES] + 1
            if out[PASSES] >= n:
                out[WINNERS] = _scored(out, self.o_board, self.table_w, n)
            return 0
        tw: cython.Py_ssize_t = self.table_w
        th: cython.Py_ssize_t = self.table_h
        ob: cython.Py_ssize_t = self.o_board
        w: cython.Py_ssize_t = state[BOX_W]
        h: cython.Py_ssize_t = state[BOX_H]
        x: cython.Py_ssize_t = move[1]
        y: cython.Py_ssize_t = move[2]
        hand: cython.longlong = state[self.o_hands + p]
        if not 0 <= r <= 7 or not (hand >> (4 * r)) & 15:
            raise ValueError("not a legal Card Clash move: the player holds no such card")
        # Where the card goes: the first card at (0, 0); else a stack it may go on, or an empty cell along
        # a full side of a card that keeps the box within the table (the reference's _is_target).
        code: cython.longlong = p * 8 + r + 1
        top: cython.longlong = _top(state, ob, tw, w, h, x, y)
        effect: cython.int = 1
        if w == 0:
            if x != 0 or y != 0:
                raise ValueError("not a legal Card Clash move: the first card goes at 0,0")
        elif top != 0:
            effect = _effect(r, (top - 1) & 7, self.strategic)
            if effect == 0:
                raise ValueError("not a legal Card Clash move: the stacking rules forbid it")
        elif (x < (-1 if w < tw else 0) or x > (w if w < tw else w - 1) or y < (-1 if h < th else 0)
              or y > (h if h < th else h - 1)
              or not (_top(state, ob, tw, w, h, x - 1, y) != 0 or _top(state, ob, tw, w, h, x + 1, y) != 0
                      or _top(state, ob, tw, w, h, x, y - 1) != 0 or _top(state, ob, tw, w, h, x, y + 1) != 0)):
            raise ValueError("not a legal Card Clash move: no card along a side, or off the table")
        # The hand gives the card and draws the top of the own pile.
        hand -= cython.cast(cython.longlong, 1) << (4 * r)
        if state[self.o_plen + p] > 0:
            hand += cython.cast(cython.longlong, 1) << (4 * (state[self.o_piles + p] & 7))
            out[self.o_piles + p] = state[self.o_piles + p] >> 3
            out[self.o_plen + p] = state[self.o_plen + p] - 1
        out[self.o_hands + p] = hand
        out[PASSES] = 0
        lower: cython.longlong
        x2: cython.Py_ssize_t
        y2: cython.Py_ssize_t
        if w == 0:
            self._push(out, 0, code)
            out[BOX_W] = 1
            out[BOX_H] = 1
            x = 0
            y = 0
        elif top != 0:
            if effect == 1:
                self._push(out, y * tw + x, code)
            else:  # the strategic variant's cancellation: both cards off the table, the one below shows
                lower = top - 1
                out[self.o_removed + p] += cython.cast(cython.longlong, 1) << (4 * r)
                out[self.o_removed + (lower >> 3)] += cython.cast(cython.longlong, 1) << (4 * (lower & 7))
                self._pop(out, y * tw + x)
                if out[ob + y * tw + x] == 0:
                    self._renormalise(out)  # a square cannot appear where a cell emptied
                    x = -2
        else:
            if x < 0:  # a new column on the left: every cell one to the right
                for y2 in range(h):
                    for x2 in range(w - 1, -1, -1):
                        if out[ob + y2 * tw + x2] != 0:
                            self._move_cell(out, y2 * tw + x2, y2 * tw + x2 + 1)
                x = 0
                w += 1
            if y < 0:  # a new row on top: every row one down
                for y2 in range(h - 1, -1, -1):
                    for x2 in range(w):
                        if out[ob + y2 * tw + x2] != 0:
                            self._move_cell(out, y2 * tw + x2, (y2 + 1) * tw + x2)
                y = 0
                h += 1
            if x >= w:
                w = x + 1
            if y >= h:
                h = y + 1
            self._push(out, y * tw + x, code)
            out[BOX_W] = w
            out[BOX_H] = h
        # A square of one colour through the changed cell wins the round (the mover's own, or the
        # colour it uncovered: one colour at most); else a round with every card played is scored.
        colour: cython.longlong = -1
        if x >= 0:
            colour = _square_at(out, ob, tw, out[BOX_W], out[BOX_H], x, y)
        if colour >= 0:
            out[WINNERS] = cython.cast(cython.longlong, 1) << colour
            return 0
        for i in range(n):
            if out[self.o_hands + i] != 0 or out[self.o_plen + i] != 0:
                return 0
        out[WINNERS] = _scored(out, ob, tw, n)
        return 0

    @cython.cfunc
    @cython.exceptval(-1, check=False)
    def terminal(self, state: cython.longlong[::1], returns: cython.longlong[::1]) -> cython.bint:
        winners: cython.longlong = state[WINNERS]
        if winners == 0:
            return False
        n: cython.Py_ssize_t = self.players
        everyone: cython.bint = winners == (cython.cast(cython.longlong, 1) << n) - 1
        p: cython.Py_ssize_t
        for p in range(n):
            if everyone:
                returns[p] = 0
            else:
                returns[p] = 1 if (winners >> p) & 1 else -1
        return True

    # -- the reference engine's values -----------------------------------------------------------
    def encode(self, state: Any) -> Any:
        """The reference's :class:`~stratagem.models.cardclash.position.State` as a packed vector
        (ValueError when it is beyond this engine: other player count, larger box or stack, ...)."""
        n = self.players
        if len(state.hands) != n or len(state.piles) != n:
            raise ValueError(f"the state has {len(state.hands)} players, the engine {n}")
        v = np.zeros(self.width, np.int64)
        v[TO_MOVE] = state.to_move
        v[PASSES] = state.passes
        for p in state.winners:
            v[WINNERS] |= 1 << p
        w = max((c.x for c in state.board), default=-1) + 1
        h = max((c.y for c in state.board), default=-1) + 1
        if w > self.table_w or h > self.table_h:
            raise ValueError(f"the battlefield is {w}x{h}, the table {self.table_w}x{self.table_h}")
        v[BOX_W] = w
        v[BOX_H] = h
        v[ROUND] = state.round
        if state.flags and len(state.flags) != n:
            raise ValueError(f"the state has flags for {len(state.flags)} players, not {n}")
        for p in range(n):
            v[FLAGS + p] = state.flags[p] if state.flags else -1
            v[self.o_hands + p] = _counts(state.hands[p], "hand")
            pile = state.piles[p]
            if len(pile) > 21:
                raise ValueError(f"a draw pile of {len(pile)} cards; the compiled engine holds 21")
            v[self.o_piles + p] = sum(_RANKS.index(rank) << (3 * i) for i, rank in enumerate(pile))
            v[self.o_plen + p] = len(pile)
            gone = "".join(state.removed[k + 1] for k in range(0, len(state.removed), 2)
                           if state.removed[k] == _COLOURS[p])
            v[self.o_removed + p] = _counts(gone, "set of removed cards")
        if any(_COLOURS.index(state.removed[k]) >= n for k in range(0, len(state.removed), 2)):
            raise ValueError("a removed card of no player's colour")
        for cell in state.board:
            if len(cell.stack) > 10 * self.stack_words:
                raise ValueError(f"a stack of {len(cell.stack)} cards; the compiled engine holds "
                                 f"{10 * self.stack_words} with {n} players")
            c = cell.y * self.table_w + cell.x
            for d, card in enumerate(reversed(cell.stack)):
                colour = _COLOURS.index(card[0])
                if colour >= n:
                    raise ValueError(f"card {card} belongs to no player")
                code = colour * 8 + _RANKS.index(card[1]) + 1
                v[self.o_stack + c * self.stack_words + d // 10] |= code << (6 * (d % 10))
            v[self.o_depth + c] = len(cell.stack)
            card = cell.stack[0]
            v[self.o_board + c] = _COLOURS.index(card[0]) * 8 + _RANKS.index(card[1]) + 1
        if not state.winners:
            for cell in state.board:
                if _square_at(v, self.o_board, self.table_w, w, h, cell.x, cell.y) >= 0:
                    raise ValueError("the round goes on with a square on the table (play never reaches that)")
        return v

    def decode(self, vector: Any) -> Any:
        """The reference's state a packed vector stands for."""
        from stratagem.models.cardclash.battlefield import Cell
        from stratagem.models.cardclash.position import State

        v = np.asarray(vector, np.int64)
        n = self.players
        cells = []
        for y in range(int(v[BOX_H])):
            for x in range(int(v[BOX_W])):
                c = y * self.table_w + x
                stack = []
                for d in range(int(v[self.o_depth + c]) - 1, -1, -1):
                    code = ((int(v[self.o_stack + c * self.stack_words + d // 10]) >> (6 * (d % 10))) & 63) - 1
                    stack.append(_COLOURS[code >> 3] + _RANKS[code & 7])
                if stack:
                    cells.append(Cell(x, y, tuple(stack)))
        hands = tuple(_ranks(int(v[self.o_hands + p])) for p in range(n))
        piles = tuple("".join(_RANKS[(int(v[self.o_piles + p]) >> (3 * i)) & 7] for i in range(int(v[self.o_plen + p])))
                      for p in range(n))
        removed = "".join(_COLOURS[p] + rank for p in range(n) for rank in _ranks(int(v[self.o_removed + p])))
        winners = tuple(p for p in range(n) if (int(v[WINNERS]) >> p) & 1)
        flags = () if v[FLAGS] < 0 else tuple(int(v[FLAGS + p]) for p in range(n))
        return State(tuple(cells), hands, piles, int(v[TO_MOVE]), int(v[PASSES]), removed, winners,
                     int(v[ROUND]), flags)

    def decode_move(self, state: Any, record: Any) -> Any:
        """The reference's :class:`~stratagem.models.cardclash.position.Move` of a move record."""
        from stratagem.models.cardclash.position import PASS, Move

        rank = int(record[0])
        return PASS if rank == PASS_RANK else Move(_RANKS[rank], int(record[1]), int(record[2]))

    def encode_move(self, move: Any) -> Any:
        """The move record of the reference's move (inverse of :meth:`decode_move`)."""
        if not move.rank:
            return np.array([PASS_RANK, 0, 0], np.int64)
        return np.array([_RANKS.index(move.rank), move.x, move.y], np.int64)


def _counts(ranks: str, what: str) -> int:
    """Ranks packed as eight 4-bit counts."""
    word = 0
    for r, rank in enumerate(_RANKS):
        count = ranks.count(rank)
        if count > 15:
            raise ValueError(f"{count} cards of one rank in a {what}; the compiled engine holds 15")
        word |= count << (4 * r)
    return word


def _ranks(word: int) -> str:
    """Inverse of :func:`_counts`: the ranks in ``123456BX`` order."""
    return "".join(rank * ((word >> (4 * r)) & 15) for r, rank in enumerate(_RANKS))


def stack_words(players: int) -> int:
    """Words a cell's stack takes, ten 6-bit cards a word. A stack is a chain of cards each laid on the
    one below by the stacking rules (a cancellation only takes the top off): runs of rising numbers,
    each after the first begun by a Spy on a Marshal, then a Bomb and a Miner. With one Spy per colour
    that is at most ``6 * (players + 1) + 2`` cards."""
    return (6 * (players + 1) + 2 + 9) // 10


@cython.cfunc
@cython.inline
@cython.exceptval(check=False)
def _without(pile: cython.longlong, length: cython.longlong, rank: cython.longlong) -> cython.longlong:
    """The pile (3-bit ranks, top first) without its first card of ``rank``; -1 when it holds none."""
    i: cython.longlong
    low: cython.longlong
    for i in range(length):
        if (pile >> (3 * i)) & 7 == rank:
            low = pile & ((cython.cast(cython.longlong, 1) << (3 * i)) - 1)
            return low | ((pile >> (3 * (i + 1))) << (3 * i))
    return -1


@cython.cclass
class DealtCardClashEngine(CardClashEngine):
    """Card Clash as :class:`~stratagem.openspiel.cardclash.DealtCardClash` plays it: the deal and every
    draw are chance nodes whose outcomes are the ranks left in the pile, weighted by their copies.

    Four more words follow a round's state: whether a laid card waits for its draw, and that move
    (rank, x, y). Dealing lasts while no card was laid (the table is empty and no card was taken off it)
    and the hands hold fewer than four cards each (the first player short of four receives); a card laid
    waits for its draw unless it ends the round or its owner's pile is empty (the reference then applies
    it with the pile's first card, which changes nothing that matters). A chance outcome's record is
    ``(rank, 0, 0)``.
    """

    o_pending: cython.Py_ssize_t
    _tmp: cython.longlong[::1]
    _record: cython.longlong[::1]
    _weights: cython.longlong[::1]
    #: The dealt game's state type (round state, waiting card), taken from the game by :meth:`from_game`:
    #: the dealt game lives beside the OpenSpiel adapters, which a game's package does not import.
    table: object

    def __init__(self, players: int, width: int = 6, height: int = 6, strategic: bool = False,
                 table: object = None) -> None:
        CardClashEngine.__init__(self, players, width, height, strategic, 4)
        self.table = table
        self.o_pending = self.width - 4
        self._tmp = np.zeros(self.width, np.int64)
        self._record = np.zeros(MOVE_WIDTH, np.int64)
        self._weights = np.zeros(self.max_moves, np.int64)

    @staticmethod
    def from_game(game: Any) -> DealtCardClashEngine:
        """The engine of a :class:`~stratagem.openspiel.cardclash.DealtCardClash` (its ``rules``' options)."""
        rules = game.rules
        return DealtCardClashEngine(rules.num_players, rules.width, rules.height, rules.strategic,
                                    type(game.initial_state()))

    @cython.cfunc
    @cython.exceptval(check=False)
    def _receiver(self, state: cython.longlong[::1]) -> cython.Py_ssize_t:
        """The player dealt the next card, or -1 when the deal is over (the reference's ``dealing``): a
        card was laid once the battlefield holds one or the variant took cards off it (a battlefield
        emptied by cancellations after piles ran out has hands short of four, and is no deal)."""
        if state[BOX_W] != 0:
            return -1
        total: cython.longlong = 0
        first: cython.Py_ssize_t = -1
        p: cython.Py_ssize_t
        r: cython.Py_ssize_t
        size: cython.longlong
        for p in range(self.players):
            if state[self.o_removed + p] != 0:
                return -1
        for p in range(self.players):
            size = 0
            for r in range(8):
                size += (state[self.o_hands + p] >> (4 * r)) & 15
            total += size
            if size < 4 and first < 0:
                first = p
        return first if total < 4 * self.players else -1

    @cython.cfunc
    @cython.exceptval(-3, check=False)
    def to_move(self, state: cython.longlong[::1]) -> cython.Py_ssize_t:
        if state[self.o_pending] != 0 or self._receiver(state) >= 0:
            return CHANCE
        return state[TO_MOVE]

    @cython.cfunc
    @cython.exceptval(-1, check=False)
    def chance(self, state: cython.longlong[::1], moves: cython.longlong[:, ::1],
               weights: cython.longlong[::1]) -> cython.Py_ssize_t:
        p: cython.Py_ssize_t = state[TO_MOVE] if state[self.o_pending] != 0 else self._receiver(state)
        if p < 0:
            return 0
        pile: cython.longlong = state[self.o_piles + p]
        length: cython.longlong = state[self.o_plen + p]
        count: cython.Py_ssize_t = 0
        r: cython.longlong
        i: cython.longlong
        copies: cython.longlong
        for r in range(8):
            copies = 0
            for i in range(length):
                if (pile >> (3 * i)) & 7 == r:
                    copies += 1
            if copies:
                moves[count, 0] = r
                moves[count, 1] = 0
                moves[count, 2] = 0
                weights[count] = copies
                count += 1
        return count

    @cython.cfunc
    @cython.exceptval(-1, check=False)
    def legal(self, state: cython.longlong[::1], moves: cython.longlong[:, ::1]) -> cython.Py_ssize_t:
        if state[WINNERS] != 0 and state[self.o_pending] == 0:
            return 0
        if self.to_move(state) == CHANCE:  # as the reference, the outcomes are the moves there
            return self.chance(state, moves, self._weights)
        return CardClashEngine.legal(self, state, moves)

    @cython.cfunc
    @cython.exceptval(-1, check=False)
    def apply(self, state: cython.longlong[::1], move: cython.longlong[::1], out: cython.longlong[::1]) -> cython.int:
        i: cython.Py_ssize_t
        op: cython.Py_ssize_t = self.o_pending
        r: cython.longlong = move[0]
        p: cython.Py_ssize_t
        rest: cython.longlong
        if state[op] != 0:  # the waiting card's draw: rank r goes on top of the pile, then the card is laid
            p = state[TO_MOVE]
            rest = _without(state[self.o_piles + p], state[self.o_plen + p], r) if 0 <= r <= 7 else -1
            if rest < 0:
                raise ValueError("not a rank the pile holds")
            for i in range(self.width):
                self._tmp[i] = state[i]
            self._tmp[self.o_piles + p] = (rest << 3) | r
            for i in range(4):
                self._tmp[op + i] = 0
            for i in range(MOVE_WIDTH):
                self._record[i] = state[op + 1 + i]
            return CardClashEngine.apply(self, self._tmp, self._record, out)
        p = self._receiver(state)
        if p >= 0:  # the deal: rank r from the pile to the hand
            rest = _without(state[self.o_piles + p], state[self.o_plen + p], r) if 0 <= r <= 7 else -1
            if rest < 0:
                raise ValueError("not a rank the pile holds")
            for i in range(self.width):
                out[i] = state[i]
            out[self.o_piles + p] = rest
            out[self.o_plen + p] = state[self.o_plen + p] - 1
            out[self.o_hands + p] = state[self.o_hands + p] + (cython.cast(cython.longlong, 1) << (4 * r))
            return 0
        CardClashEngine.apply(self, state, move, out)
        p = state[TO_MOVE]
        if r == PASS_RANK or out[WINNERS] != 0 or state[self.o_plen + p] == 0:
            return 0
        for i in range(self.width):  # the card waits for its draw
            out[i] = state[i]
        out[op] = 1
        for i in range(MOVE_WIDTH):
            out[op + 1 + i] = move[i]
        return 0

    def encode(self, state: Any) -> Any:
        """A :class:`~stratagem.openspiel.cardclash.Table` (round state and waiting card) as a packed vector."""
        v = CardClashEngine.encode(self, state.state)
        if state.pending is not None:
            v[self.o_pending:self.o_pending + 4] = [1, *CardClashEngine.encode_move(self, state.pending)]
        return v

    def decode(self, vector: Any) -> Any:
        """The :class:`~stratagem.openspiel.cardclash.Table` a packed vector stands for (an engine made
        without :meth:`from_game` has no table type and cannot decode)."""
        if self.table is None:
            raise ValueError("this engine was not made from a dealt game: it has no table type to decode into")
        v = np.asarray(vector, np.int64)
        pending = None
        if v[self.o_pending]:
            pending = CardClashEngine.decode_move(self, None, v[self.o_pending + 1:self.o_pending + 4])
        return cast(Any, self.table)(CardClashEngine.decode(self, v), pending)

    def decode_move(self, state: Any, record: Any) -> Any:
        """A rank drawn or dealt at a chance state, else the round's move."""
        if state is not None and self.player(state) == CHANCE:
            return _RANKS[int(record[0])]
        return CardClashEngine.decode_move(self, state, record)


__all__ = ["MAX_CELLS", "MOVE_WIDTH", "CardClashEngine", "DealtCardClashEngine", "stack_words"]

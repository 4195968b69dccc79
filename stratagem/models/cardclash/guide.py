# mypy: disallow-untyped-decorators=False
"""Card Clash's guidance for the compiled UCT: the reference's threat ordering and evaluation over packed
states, behind :class:`~stratagem.core.packed_guide.Guide`.

The twin, key for key and value for value, of what guided MCTS uses on the reference engine:

* :meth:`CardClashGuide.keys` -- :func:`stratagem.models.cardclash.threats.order`: each move's tactical
  :func:`~stratagem.models.cardclash.threats.effect` (a square of the mover's, a square handed to another
  player, the other players' square-completing moves afterwards, the mover's own with the hand after the
  draw, the change of the mover's square potential around the cell) sorted by the same key, bucket
  first; one integer a move, ties to the legal order;
* :meth:`CardClashGuide.evaluate` -- :meth:`~stratagem.models.cardclash.rules.CardClashGame.evaluate`:
  ``0.9 * tanh`` of a player's strength (half a point per square-completing move, 0.05 per point of
  square potential and per visible card) over the others' mean, computed in the same order so that the
  floats are the same;
* ``rollout_limit`` 0, the game's declared cut-off: a new leaf is valued by the evaluation alone;
* ``exploration`` 0.5 (:data:`EXPLORATION`), measured: the evaluation's values differ by hundredths
  between good and poor moves, and with ``sqrt(2)`` a search of thousands of iterations spread its visits
  almost evenly over the root's moves and chose among near-ties (against greedy, ten seeded pairs at
  10,000 iterations a move: 12-0-8 with ``sqrt(2)``, 20-0-0 with 0.5 and with 0.25; at 1,500 iterations
  ``sqrt(2)`` still won 20-0-0, as the few hundred iterations of the reference engine do).

The reference computes a move's effect from the cells around it and caches the rest; here the threats
are counted over the whole window after writing the changed cell into a padded copy of the table's tops
(a move changes one cell, so the two count the same 3-of-4 blocks; ``tests/models/cardclash/test_guide.py``
holds them equal on random positions). The stacking rule is the engine's (:mod:`.engine`'s ``_effect``),
repeated here because a C function of another kernel is reachable only through a ``.pxd`` the engine does
not have. Works on both engines of :mod:`.engine` (the dealt engine's words follow the round's).
This module is a kernel (compiled at install, see ``setup.py``).
"""

from __future__ import annotations

import cython
import numpy as np

if cython.compiled:
    from cython.cimports.libc.math import tanh
    from cython.cimports.stratagem.core.packed import PackedGame
    from cython.cimports.stratagem.core.packed_guide import Guide
else:
    from math import tanh

    from stratagem.core.packed import PackedGame
    from stratagem.core.packed_guide import Guide

from stratagem.models.cardclash.engine import stack_words

_BOX_W = cython.declare(cython.Py_ssize_t, 3)
_BOX_H = cython.declare(cython.Py_ssize_t, 4)
_WINNERS = cython.declare(cython.Py_ssize_t, 2)
_TO_MOVE = cython.declare(cython.Py_ssize_t, 0)
_SPY = cython.declare(cython.longlong, 0)
_MARSHAL = cython.declare(cython.longlong, 5)
_BOMB = cython.declare(cython.longlong, 6)
_MINER = cython.declare(cython.longlong, 7)
#: The window's margin: a move may change a cell one outside the box, and a block holding it starts one
#: further out.
_PAD = cython.declare(cython.Py_ssize_t, 2)
#: The exploration constant the guide declares for guided UCT (see the module docstring).
EXPLORATION = 0.5
#: A key's parts: bucket, then the other players' threats, then the mover's gain (offset to stay positive).
_BUCKET = cython.declare(cython.longlong, 1 << 48)
_THREATS = cython.declare(cython.longlong, 1 << 32)
_OFFSET = cython.declare(cython.longlong, 1 << 31)


@cython.cfunc
@cython.inline
@cython.exceptval(check=False)
def _stacking(upper: cython.longlong, lower: cython.longlong, strategic: cython.bint) -> cython.int:
    """:func:`~stratagem.models.cardclash.cards.stacking` on rank numbers: 0 forbidden, 1 stack, 2 cancel."""
    if strategic and (upper == lower or (upper == _MINER and lower == _BOMB)):
        return 2
    if lower == _MINER:
        return 0
    if upper == _SPY:
        return 1 if lower == _MARSHAL else 0
    if upper <= _MARSHAL:
        return 1 if lower <= _MARSHAL and lower < upper else 0
    if upper == _BOMB:
        return 1 if lower <= _MARSHAL else 0
    return 1 if lower == _BOMB else 0


@cython.cfunc
@cython.inline
@cython.exceptval(check=False)
def _potential_block(a: cython.longlong, b: cython.longlong, c: cython.longlong, d: cython.longlong,
                     colour: cython.longlong) -> cython.longlong:
    """:func:`~stratagem.models.cardclash.threats._potential_seen` of a block's four top codes."""
    mine: cython.longlong = 0
    code: cython.longlong
    k: cython.Py_ssize_t
    for k in range(4):
        code = a if k == 0 else b if k == 1 else c if k == 2 else d
        if code != 0:
            if (code - 1) >> 3 == colour:
                mine += 1
            else:
                return 0
    return mine * mine


@cython.cclass
class CardClashGuide(Guide):  # type: ignore[misc]
    """The guidance over the packed states of a Card Clash engine of ``players`` players on a ``width`` x
    ``height`` table (``strategic``: the variant); the layout is :mod:`.engine`'s."""

    players: cython.Py_ssize_t
    table_w: cython.Py_ssize_t
    strategic: cython.bint
    o_hands: cython.Py_ssize_t
    o_piles: cython.Py_ssize_t
    o_plen: cython.Py_ssize_t
    o_board: cython.Py_ssize_t
    o_depth: cython.Py_ssize_t
    o_stack: cython.Py_ssize_t
    stack_words: cython.Py_ssize_t
    # the window: tops, the card under each top, heights; ``ww`` wide for the state last loaded
    top: cython.longlong[::1]
    second: cython.longlong[::1]
    depth: cython.longlong[::1]
    seen: cython.longlong[::1]
    stamp: cython.longlong
    ww: cython.Py_ssize_t
    w: cython.Py_ssize_t
    h: cython.Py_ssize_t
    strength: cython.double[::1]

    def __init__(self, game: PackedGame, players: int, width: int, height: int, strategic: bool) -> None:
        Guide.__init__(self, game, 0, EXPLORATION)
        cells = width * height
        if game.width < 6 + 5 * players + cells * (2 + stack_words(players)):
            raise ValueError("the engine's states are smaller than a Card Clash round of these options")
        self.players = players
        self.table_w = width
        self.strategic = strategic
        self.o_hands = 6 + players
        self.o_piles = 6 + 2 * players
        self.o_plen = 6 + 3 * players
        self.o_board = 6 + 5 * players
        self.o_depth = self.o_board + cells
        self.o_stack = self.o_depth + cells
        self.stack_words = stack_words(players)
        room = (width + 2 * _PAD) * (height + 2 * _PAD)
        self.top = np.zeros(room, np.int64)
        self.second = np.zeros(room, np.int64)
        self.depth = np.zeros(room, np.int64)
        self.seen = np.zeros(room, np.int64)
        self.stamp = 0
        self.strength = np.zeros(players, np.float64)

    @staticmethod
    def for_engine(engine: PackedGame, rules: object) -> CardClashGuide:
        """The guide of ``engine`` for a :class:`~stratagem.models.cardclash.rules.CardClashGame` ``rules``."""
        return CardClashGuide(engine, int(rules.num_players), int(rules.width),  # type: ignore[attr-defined]
                              int(rules.height), bool(rules.strategic))  # type: ignore[attr-defined]

    # -- the window ------------------------------------------------------------------------------
    @cython.cfunc
    @cython.inline
    @cython.exceptval(check=False)
    def _at(self, x: cython.Py_ssize_t, y: cython.Py_ssize_t) -> cython.Py_ssize_t:
        """The window index of cell (x, y), ``-_PAD <= x < w + _PAD`` (likewise y)."""
        return (y + _PAD) * self.ww + x + _PAD

    @cython.cfunc
    @cython.exceptval(check=False)
    def _card(self, state: cython.longlong[::1], c: cython.Py_ssize_t, d: cython.Py_ssize_t) -> cython.longlong:
        """The code of the card ``d`` from the bottom of cell ``c``'s stack."""
        return (state[self.o_stack + c * self.stack_words + d // 10] >> (6 * (d % 10))) & 63

    @cython.cfunc
    @cython.exceptval(-1, check=False)
    def _load(self, state: cython.longlong[::1]) -> cython.int:
        """Copy the tops, the cards under them and the heights of ``state`` into a window padded by
        ``_PAD`` empty cells on every side."""
        w: cython.Py_ssize_t = state[_BOX_W]
        h: cython.Py_ssize_t = state[_BOX_H]
        tw: cython.Py_ssize_t = self.table_w
        x: cython.Py_ssize_t
        y: cython.Py_ssize_t
        i: cython.Py_ssize_t
        c: cython.Py_ssize_t
        d: cython.longlong
        self.w = w
        self.h = h
        self.ww = w + 2 * _PAD
        for i in range((w + 2 * _PAD) * (h + 2 * _PAD)):
            self.top[i] = 0
            self.second[i] = 0
            self.depth[i] = 0
        for y in range(h):
            for x in range(w):
                c = y * tw + x
                i = self._at(x, y)
                d = state[self.o_depth + c]
                self.top[i] = state[self.o_board + c]
                self.depth[i] = d
                if d > 1:
                    self.second[i] = self._card(state, c, d - 2)
        return 0

    @cython.cfunc
    @cython.exceptval(check=False)
    def _shows(self, i: cython.Py_ssize_t, colour: cython.longlong) -> cython.bint:
        """Whether window cell ``i`` shows ``colour`` on top."""
        code: cython.longlong = self.top[i]
        return code != 0 and (code - 1) >> 3 == colour

    @cython.cfunc
    @cython.exceptval(check=False)
    def _completions(self, i: cython.Py_ssize_t, colour: cython.longlong, hand: cython.longlong) -> cython.longlong:
        """:func:`~stratagem.models.cardclash.threats._cell_completions` at window cell ``i``: the distinct
        ranks of ``hand`` (4-bit counts) that laid there leave ``colour`` on top."""
        count: cython.longlong = 0
        r: cython.longlong
        effect: cython.int
        for r in range(8):
            if (hand >> (4 * r)) & 15 == 0:
                continue
            if self.depth[i] == 0:
                count += 1
                continue
            effect = _stacking(r, (self.top[i] - 1) & 7, self.strategic)
            if effect == 1 or (effect == 2 and self.depth[i] > 1 and (self.second[i] - 1) >> 3 == colour):
                count += 1
        return count

    @cython.cfunc
    @cython.exceptval(-1, check=False)
    def _threats(self, colour: cython.longlong, hand: cython.longlong) -> cython.longlong:
        """:func:`~stratagem.models.cardclash.threats.grid_completions`' count on the window: over every
        2x2 block showing ``colour`` three times, its odd cell once, times the ranks that complete it."""
        total: cython.longlong = 0
        a: cython.Py_ssize_t
        b: cython.Py_ssize_t
        i: cython.Py_ssize_t
        mine: cython.Py_ssize_t
        odd: cython.Py_ssize_t
        cell: cython.Py_ssize_t
        k: cython.Py_ssize_t
        self.stamp += 1
        for b in range(-_PAD, self.h + 1):
            for a in range(-_PAD, self.w + 1):
                i = self._at(a, b)
                mine = 0
                odd = -1
                for k in range(4):
                    cell = i + (k & 1) + (k >> 1) * self.ww
                    if self._shows(cell, colour):
                        mine += 1
                    else:
                        odd = cell
                if mine == 3 and self.seen[odd] != self.stamp:
                    self.seen[odd] = self.stamp
                    total += self._completions(odd, colour, hand)
        return total

    @cython.cfunc
    @cython.exceptval(-1, check=False)
    def _potential(self, colour: cython.longlong) -> cython.longlong:
        """:func:`~stratagem.models.cardclash.threats.potential` on the window."""
        total: cython.longlong = 0
        a: cython.Py_ssize_t
        b: cython.Py_ssize_t
        i: cython.Py_ssize_t
        for b in range(-1, self.h):
            for a in range(-1, self.w):
                i = self._at(a, b)
                total += self._block_potential(i, colour)
        return total

    @cython.cfunc
    @cython.exceptval(check=False)
    def _block_potential(self, j: cython.Py_ssize_t, colour: cython.longlong) -> cython.longlong:
        """:func:`_potential_block` of the block whose top-left cell is window cell ``j``."""
        return _potential_block(self.top[j], self.top[j + 1], self.top[j + self.ww], self.top[j + self.ww + 1],
                                colour)

    @cython.cfunc
    @cython.exceptval(check=False)
    def _square(self, j: cython.Py_ssize_t) -> cython.longlong:
        """The colour the block whose top-left cell is window cell ``j`` shows four times, or -1."""
        first: cython.longlong = self.top[j]
        if first == 0:
            return -1
        colour: cython.longlong = (first - 1) >> 3
        if self._shows(j + 1, colour) and self._shows(j + self.ww, colour) and self._shows(j + self.ww + 1, colour):
            return colour
        return -1

    # -- the guide ---------------------------------------------------------------------------------
    @cython.cfunc
    @cython.exceptval(-1, check=False)
    def evaluate(self, state: cython.longlong[::1], out: cython.double[::1]) -> cython.int:
        n: cython.Py_ssize_t = self.players
        p: cython.Py_ssize_t
        i: cython.Py_ssize_t
        winners: cython.longlong = state[_WINNERS]
        own: cython.longlong
        points: cython.longlong
        total: cython.double
        rest: cython.double
        if winners != 0:  # the reference's returns
            for p in range(n):
                if winners == (cython.cast(cython.longlong, 1) << n) - 1:
                    out[p] = 0.0
                else:
                    out[p] = 1.0 if (winners >> p) & 1 else -1.0
            return 1
        self._load(state)
        for p in range(n):
            own = self._threats(p, state[self.o_hands + p])
            points = 0
            for i in range(self.ww * (self.h + 2 * _PAD)):
                if self._shows(i, p):
                    points += 1
            self.strength[p] = (0.5 * cython.cast(cython.double, own)
                                + 0.05 * cython.cast(cython.double, self._potential(p))
                                + 0.05 * cython.cast(cython.double, points))
        total = 0.0
        for p in range(n):
            total += self.strength[p]
        for p in range(n):
            rest = (total - self.strength[p]) / cython.cast(cython.double, n - 1)
            out[p] = 0.9 * tanh(self.strength[p] - rest)
        return 1

    @cython.cfunc
    @cython.exceptval(-1, check=False)
    def keys(self, state: cython.longlong[::1], moves: cython.longlong[:, ::1], count: cython.Py_ssize_t,
             out: cython.longlong[::1]) -> cython.int:
        n: cython.Py_ssize_t = self.players
        mover: cython.Py_ssize_t = state[_TO_MOVE]
        p: cython.Py_ssize_t
        m: cython.Py_ssize_t
        k: cython.Py_ssize_t
        i: cython.Py_ssize_t
        j: cython.Py_ssize_t
        before: cython.longlong = 0
        opponents: cython.longlong
        own: cython.longlong
        gain: cython.longlong
        bucket: cython.longlong
        r: cython.longlong
        x: cython.Py_ssize_t
        y: cython.Py_ssize_t
        c: cython.Py_ssize_t
        old_top: cython.longlong
        old_second: cython.longlong
        old_depth: cython.longlong
        hand: cython.longlong
        wins: cython.bint
        gifts: cython.bint
        shown: cython.longlong
        new_top: cython.longlong
        new_second: cython.longlong
        new_depth: cython.longlong
        self._load(state)
        for p in range(n):
            if p != mover:
                before += self._threats(p, state[self.o_hands + p])
        for m in range(count):
            r = moves[m, 0]
            if r < 0:  # a pass: nothing changes
                opponents = before
                own = self._threats(mover, state[self.o_hands + mover])
                out[m] = (3 if own == 0 else 2) * _BUCKET + opponents * _THREATS + _OFFSET - own * 100
                continue
            x = moves[m, 1]
            y = moves[m, 2]
            i = self._at(x, y)
            old_top = self.top[i]
            old_second = self.second[i]
            old_depth = self.depth[i]
            if old_depth > 0 and _stacking(r, (old_top - 1) & 7, self.strategic) == 2:
                # both cards go: the card below shows again (x, y is inside the box: it holds a stack)
                c = y * self.table_w + x
                new_top = old_second
                new_depth = old_depth - 1
                new_second = self._card(state, c, old_depth - 3) if old_depth > 2 else 0
            else:
                new_top = mover * 8 + r + 1
                new_second = old_top
                new_depth = old_depth + 1
            # the four blocks holding the cell: squares made there, and the mover's potential gained
            # (block k's top-left cell: i - (k & 1) - (k >> 1) * ww)
            gain = 0
            for k in range(4):
                gain -= self._block_potential(i - (k & 1) - (k >> 1) * self.ww, mover)
            self.top[i] = new_top
            self.second[i] = new_second
            self.depth[i] = new_depth
            wins = False
            gifts = False
            for k in range(4):
                j = i - (k & 1) - (k >> 1) * self.ww
                gain += self._block_potential(j, mover)
                shown = self._square(j)
                if shown == mover:
                    wins = True
                elif shown >= 0:
                    gifts = True
            opponents = 0
            for p in range(n):
                if p != mover:
                    opponents += self._threats(p, state[self.o_hands + p])
            hand = state[self.o_hands + mover] - (cython.cast(cython.longlong, 1) << (4 * r))
            if state[self.o_plen + mover] > 0:
                hand += cython.cast(cython.longlong, 1) << (4 * (state[self.o_piles + mover] & 7))
            own = self._threats(mover, hand)
            self.top[i] = old_top
            self.second[i] = old_second
            self.depth[i] = old_depth
            if wins:
                bucket = 0
            elif gifts:
                bucket = 4
            elif opponents < before:
                bucket = 1
            elif own > 0:
                bucket = 2
            else:
                bucket = 3
            out[m] = bucket * _BUCKET + opponents * _THREATS + _OFFSET - (own * 100 + gain)
        return 1


__all__ = ["CardClashGuide"]

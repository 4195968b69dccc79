"""Expectiminimax with Star1/Star2 cuts over a compiled engine (a ``PackedGame``), in C, with exact values.

The exhaustive search of :class:`stratagem.solvers.expectimax.ExpectiSearch` on a game's packed states:
alpha-beta on one player's return (``pov`` maximises, every other player minimises) with the expected
value at chance nodes, pruned there by Ballard's Star1 windows and Star2 probing. It is the engine of
both ``expectiminimax`` (two players, ``pov`` the player to move) and the ``paranoid`` search (three or
more players, ``pov`` against the coalition of the others), exactly as in the Python search.

* **Exact values, integer weights.** A chance node's outcomes come with positive integer weights
  (:meth:`~stratagem.core.packed.PackedGame.chance`); its value is ``sum(w_i * v_i) / sum(w_i)``. Every
  value and window is a fraction of two 64-bit integers kept in lowest terms, so the value is the Python
  search's ``Fraction`` exactly. A fraction is returned through a register (``rn``/``rd``) rather than a
  C struct, so that the interpreted module (where a struct is a mutable Python object) computes the same.
  A product that would leave 62 bits raises :class:`SearchRefused` (the caller then searches in Python);
  the shipped games' values have denominators in the hundreds.
* **Windows.** Values lie in ``[lo, hi]`` (a return outside raises), so ``lo - 1`` and ``hi + 1`` stand for
  the infinite window ends (no value lies beyond them, and Star1's windows from them are ``[lo, hi]``),
  bound cutoffs decide a window beyond ``[lo, hi]`` without a visit, and a move reaching ``hi`` (``lo``)
  ends a max (min) node.
* **Chance nodes**: as :meth:`~stratagem.solvers.expectimax.ExpectiSearch.chance`: each outcome's bounds
  start at ``[lo, hi]``; Star2 (``star=2``) first probes one move of every outcome that is a decision
  node (the table's move, else the first legal move) in the outcome's Star1 window, tightening the
  outcome's lower (max node) or upper (min node) bound; then each open outcome is searched in its
  Star1 window; the node is cut as soon as the weighted bounds leave the node's window.
* **Move order** at a decision node: every successor is made first and those that end the game are
  scored at once (a move reaching the best possible value ends the node); then the table's move, then the
  others by the engine's ordering hint where it has one (:class:`~stratagem.core.packed_order.MoveOrder`:
  the game's ``order_moves`` in C), then by the history heuristic (how often the same move of the same
  player refuted a position anywhere in the search: a table of 2**14 counters indexed by a hash of the
  player and the move record), ties in the engine's legal order. Star2's probe of an outcome takes the
  table's move, else the first legal move. The value never depends on the order; node counts differ from the
  Python search's (which has the game's ``order_moves`` but no history).
* **The table**: 2-way buckets keyed by the engine's full key (a hash collision is never mistaken for a
  hit; the keys sit in an arena of rows that a rehash does not move), growing from 4,096 entries up to
  ``2**table_bits``: the value (numerator, denominator), its kind
  (exact, lower or upper bound, from the window it was searched in) and the best move's index. Every
  entry is proven (the search is exhaustive: no depth limit here; a depth-limited search needs the game's
  evaluation and stays in Python).
* **Repetition**: a position repeated on the current line raises, as the Python search does.
* **Limits**: ``max_nodes`` and ``expired()`` (looked at every 1,024 nodes) stop the search, which then
  claims nothing; the principal variation's null-window tests count against them too, so a limit reached
  while the line is found stops the call the same way (it used to escape as :class:`SearchStopped`).

The principal variation is found afterwards as the Python search finds it, up to the first chance node:
at each decision node along it, the first move (the table's first) whose null-window test keeps the value.
A simultaneous node raises :class:`SearchRefused`. This module is a kernel (compiled at install, see
``setup.py``).

The limits, the table's key hash and arena lookup, the repetition check and the hint and history ordering
are :class:`~stratagem.solvers.packed_exact.ExactSearch`'s, the base this search shares with alpha-beta and
max^n; the fractions, the table's entries, the chance nodes' Star windows and the decisions are this module's.

Why one module of over 600 lines: one search, whose exact fraction arithmetic (the ``_mul``, ``_plus``,
``_gcd`` and ``_cmp`` helpers) is inlined into the search's loops; they are compiled together for that, and
the Python search it mirrors (:mod:`~stratagem.solvers.expectimax`) is apart.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import cython
import numpy as np

from stratagem.core.scratch import release, scratch

if cython.compiled:
    from cython.cimports.stratagem.core.packed import CHANCE, PackedGame
    from cython.cimports.stratagem.core.packed_order import MoveOrder
    from cython.cimports.stratagem.solvers.packed_exact import ExactSearch
else:
    from stratagem.core.packed import CHANCE, PackedGame
    from stratagem.core.packed_order import MoveOrder
    from stratagem.solvers.packed_exact import ExactSearch

from stratagem.solvers.packed_exact import (
    SearchRefused,
    SearchStopped,
    checked_bounds,
    checked_table_bits,
    table_bits_within,
)

#: Table entry kinds (0: empty).
_EXACT = cython.declare(cython.longlong, 1)
_LOWER = cython.declare(cython.longlong, 2)
_UPPER = cython.declare(cython.longlong, 3)
#: Factors below this magnitude multiply within 62 bits without a check.
_SMALL = cython.declare(cython.longlong, 1 << 31)
#: Largest magnitude a numerator or denominator may take.
_LIMIT = cython.declare(cython.longlong, 1 << 62)
#: The error value of :func:`_mul` (never a product: products stay within :data:`_LIMIT`).
_BAD = cython.declare(cython.longlong, -4611686018427387911)
#: Deepest line the search follows.
MAX_PLY = 512


@cython.cfunc
@cython.exceptval(-4611686018427387911)
def _mul(a: cython.longlong, b: cython.longlong) -> cython.longlong:
    """``a * b``, refused beyond 62 bits."""
    if -_SMALL < a < _SMALL and -_SMALL < b < _SMALL:
        return a * b
    big: object = cython.cast(object, a) * cython.cast(object, b)
    if not -_LIMIT < big < _LIMIT:
        raise SearchRefused("an exact value needs fractions beyond 62 bits; search it in Python")
    return cython.cast(cython.longlong, big)


@cython.cfunc
@cython.exceptval(-4611686018427387911)
def _plus(a: cython.longlong, b: cython.longlong) -> cython.longlong:
    """``a + b``, refused beyond 62 bits."""
    s: cython.longlong = a + b  # both within 62 bits: no overflow of 64
    if not -_LIMIT < s < _LIMIT:
        raise SearchRefused("an exact value needs fractions beyond 62 bits; search it in Python")
    return s


@cython.cfunc
@cython.inline
@cython.exceptval(check=False)
def _gcd(a: cython.longlong, b: cython.longlong) -> cython.longlong:
    if a < 0:
        a = -a
    if b < 0:
        b = -b
    t: cython.longlong
    while b:
        t = a % b
        a = b
        b = t
    return a


@cython.cfunc
@cython.exceptval(-9)
def _cmp(an: cython.longlong, ad: cython.longlong, bn: cython.longlong, bd: cython.longlong) -> cython.int:
    """The sign of ``an/ad - bn/bd`` (denominators positive)."""
    if ad == bd:
        return 1 if an > bn else -1 if an < bn else 0
    x: cython.longlong = _mul(an, bd)
    y: cython.longlong = _mul(bn, ad)
    return 1 if x > y else -1 if x < y else 0


@cython.cclass
class _Expecti(ExactSearch):  # type: ignore[misc]
    """The search's state (:class:`~stratagem.solvers.packed_exact.ExactSearch`'s, and ``pov``, the bounds,
    the Star setting, a fraction register, the chance nodes' bounds and the table's values, kinds and moves
    over an arena of keys).

    Indexes left unchecked (the methods marked ``boundscheck(False)``, the hot ones): as the base class
    argues them.
    """

    pov: cython.Py_ssize_t
    lo: cython.longlong
    hi: cython.longlong
    star: cython.int
    rn: cython.longlong
    rd: cython.longlong
    tn: cython.longlong
    td: cython.longlong
    ended: cython.longlong[:, ::1]
    weights: cython.longlong[:, ::1]
    bounds: cython.longlong[:, :, ::1]
    tfree: cython.longlong[::1]
    nfree: cython.Py_ssize_t
    used: cython.Py_ssize_t
    tnum: cython.longlong[::1]
    tden: cython.longlong[::1]
    tmove: cython.longlong[::1]

    def __init__(self, game: PackedGame, pov: int, lo: int, hi: int, star: int, table_bits: int, max_nodes: int,
                 expired: Any, progress: Any, progress_every: int, ordering: bool = True, order: Any = None) -> None:
        ExactSearch.__init__(self, game, table_bits, max_nodes, expired, progress, progress_every)
        self._take_order(ordering, order)
        self.pov = pov
        self.lo = lo
        self.hi = hi
        self.star = star
        self.rn = 0
        self.rd = 1
        self.tn = 0
        self.td = 1
        size = 1 << self.bits
        self._grow_plies(16)
        # The keys live in an arena of rows that keep their numbers (only the slots are rehashed); it grows
        # with the table (a whole table's arena at once costs a page fault per row written: an eighth of a
        # small search's time).
        arena = self.owned["tkeys"] = scratch((size, self.key_width))
        self.tkeys = arena
        self.tfree = np.empty(size, np.int64)
        self.nfree = 0
        self.used = 0
        self.tidx = np.zeros(size, np.int64)
        self.thash = np.zeros(size, np.uint64)
        self.tnum = np.zeros(size, np.int64)
        self.tden = np.ones(size, np.int64)
        self.tflag = np.zeros(size, np.int64)
        self.tmove = np.zeros(size, np.int64)

    def _grow_plies(self, plies: int) -> None:
        """Scratch for ``plies`` plies (at most :data:`MAX_PLY` + 2), what the shallower plies hold kept."""
        plies = min(plies, MAX_PLY + 2)
        moves = int(self.game.max_moves)
        shapes = {"states": (plies + 1, self.width), "ended": (plies, moves),
                  "moves": (plies, moves, self.move_width), "weights": (plies, moves), "order": (plies, moves),
                  "score": (plies, moves), "hkeys": (plies, moves),
                  "keys": (plies + 1, self.key_width), "hashes": (plies + 1,), "bounds": (plies, moves, 4)}
        old = {} if not self.plies else {
            "states": self.states, "ended": self.ended, "moves": self.moves,
            "weights": self.weights, "order": self.order, "score": self.score, "hkeys": self.hkeys, "keys": self.keys,
            "hashes": self.hashes, "bounds": self.bounds}
        fresh = self._regrow(plies, shapes, old)
        self.ended, self.weights, self.bounds = fresh["ended"], fresh["weights"], fresh["bounds"]

    # -- fractions: results in the register (rn, rd) or the temporary (tn, td) --------------------------

    @cython.cfunc
    @cython.exceptval(-1, check=False)
    def _temp(self, n: cython.longlong, d: cython.longlong) -> cython.int:
        """``n/d`` (``d`` > 0) in lowest terms into the temporary."""
        g: cython.longlong = _gcd(n, d)
        if g > 1:
            n = n // g
            d = d // g
        self.tn = n
        self.td = d
        return 0

    @cython.cfunc
    @cython.exceptval(-1)
    def _add(self, an: cython.longlong, ad: cython.longlong, bn: cython.longlong, bd: cython.longlong) -> cython.int:
        """``an/ad + bn/bd`` into the temporary."""
        if ad == bd:
            return self._temp(_plus(an, bn), ad)
        return self._temp(_plus(_mul(an, bd), _mul(bn, ad)), _mul(ad, bd))

    @cython.cfunc
    @cython.exceptval(-1)
    def _scale(self, an: cython.longlong, ad: cython.longlong, k: cython.longlong) -> cython.int:
        """``an/ad * k`` into the temporary."""
        g: cython.longlong = _gcd(k, ad)
        return self._temp(_mul(an, k // g), ad // g)

    @cython.cfunc
    @cython.exceptval(-1)
    def _divide(self, an: cython.longlong, ad: cython.longlong, k: cython.longlong) -> cython.int:
        """``an/ad / k`` (``k`` > 0) into the temporary."""
        g: cython.longlong = _gcd(an, k)
        if g > 1:
            an = an // g
            k = k // g
        return self._temp(an, _mul(ad, k))

    @cython.cfunc
    @cython.exceptval(-1, check=False)
    def _outcome(self) -> cython.int:
        """The return of ``pov`` just written by ``terminal``, into the register, checked against the bounds."""
        r: cython.longlong = self.returns[self.pov]
        if not self.lo <= r <= self.hi:
            raise SearchRefused(f"a return {r} outside the bounds [{self.lo}, {self.hi}] of the returns")
        self.rn = r
        self.rd = 1
        return 0

    # -- the table --------------------------------------------------------------------------------------

    # -- the table ------------------------------------------------------------------------------------------

    @cython.cfunc
    @cython.exceptval(-1, check=False)
    @cython.boundscheck(False)  # indexes argued in the class docstring
    @cython.wraparound(False)
    def _store(self, ply: cython.Py_ssize_t, n: cython.longlong, d: cython.longlong, flag: cython.longlong,
               move: cython.longlong) -> cython.int:
        slot: cython.Py_ssize_t = self._find(ply)
        base: cython.Py_ssize_t
        w: cython.Py_ssize_t
        row: cython.Py_ssize_t
        if slot < 0:
            if 2 * self.entries >= (1 << self.bits) and self.bits < self.max_bits:
                self._rehash()
            base = cython.cast(cython.Py_ssize_t, cython.cast(cython.ulonglong, self.hashes[ply]) & self.mask)
            if self.tflag[base] == 0 or self.tflag[base ^ 1] == 0:
                self.entries += 1
            if self.tflag[base] == 0:
                slot = base
            elif self.tflag[base ^ 1] == 0 or self.tflag[base ^ 1] != _EXACT:
                slot = base ^ 1  # an empty slot, else a bound rather than an exact value
            elif self.tflag[base] != _EXACT:
                slot = base
            else:
                slot = base ^ 1
            if self.tflag[slot] != 0:
                row = self.tidx[slot]  # the entry given up leaves its row to this one
            elif self.nfree > 0:
                self.nfree -= 1
                row = self.tfree[self.nfree]
            else:
                if self.used >= self.tkeys.shape[0]:
                    self._grow_arena()
                row = self.used
                self.used += 1
            self.tidx[slot] = row
            for w in range(self.key_width):
                self.tkeys[row, w] = self.keys[ply, w]
            self.thash[slot] = self.hashes[ply]
        self.tnum[slot] = n
        self.tden[slot] = d
        self.tflag[slot] = flag
        self.tmove[slot] = move
        self.stores += 1
        return 0

    def _grow_arena(self) -> None:
        """Double the arena of keys (and the list of free rows), the rows in use kept at their numbers."""
        rows: cython.Py_ssize_t = 2 * self.tkeys.shape[0]
        keys = scratch((rows, self.key_width))
        keys[: self.used] = np.asarray(self.tkeys)[: self.used]
        free = np.empty(rows, np.int64)
        free[: self.nfree] = np.asarray(self.tfree)[: self.nfree]
        release([self.owned["tkeys"]])
        self.owned["tkeys"] = keys
        self.tkeys, self.tfree = keys, free

    def _rehash(self) -> None:
        """Double the table (up to ``2**max_bits`` entries) and put every entry back in its bucket (of
        entries meeting a full bucket, the later is dropped)."""
        size: cython.Py_ssize_t = 1 << (self.bits + 1)
        mask: cython.ulonglong = size - 1
        rows: cython.longlong[::1] = np.zeros(size, np.int64)
        hashes: cython.ulonglong[::1] = np.zeros(size, np.uint64)
        nums: cython.longlong[::1] = np.zeros(size, np.int64)
        dens: cython.longlong[::1] = np.ones(size, np.int64)
        flags: cython.longlong[::1] = np.zeros(size, np.int64)
        moves: cython.longlong[::1] = np.zeros(size, np.int64)
        old: cython.Py_ssize_t
        base: cython.Py_ssize_t
        slot: cython.Py_ssize_t
        entries: cython.longlong = 0
        for old in range(1 << self.bits):
            if self.tflag[old] == 0:
                continue
            base = cython.cast(cython.Py_ssize_t, cython.cast(cython.ulonglong, self.thash[old]) & mask)
            if flags[base] == 0:
                slot = base
            elif flags[base ^ 1] == 0:
                slot = base ^ 1
            else:
                self.tfree[self.nfree] = self.tidx[old]  # dropped: its row is free again
                self.nfree += 1
                continue
            rows[slot] = self.tidx[old]
            hashes[slot] = self.thash[old]
            nums[slot] = self.tnum[old]
            dens[slot] = self.tden[old]
            flags[slot] = self.tflag[old]
            moves[slot] = self.tmove[old]
            entries += 1
        self.tidx, self.thash, self.tnum, self.tden = rows, hashes, nums, dens
        self.tflag, self.tmove = flags, moves
        self.bits += 1
        self.mask = mask
        self.entries = entries

    # -- the search -------------------------------------------------------------------------------------

    @cython.cfunc
    @cython.exceptval(-1, check=False)
    @cython.boundscheck(False)  # indexes argued in the class docstring
    @cython.wraparound(False)
    def _key(self, ply: cython.Py_ssize_t) -> cython.int:
        """Key and hash of the position at ``ply`` (scratch grown as lines go deeper)."""
        if ply + 2 >= self.plies:
            if ply >= MAX_PLY:
                raise SearchRefused(f"a line longer than {MAX_PLY} plies")
            self._grow_plies(2 * self.plies)
        self.game.pack(self.states[ply], self.keys[ply])
        h: cython.ulonglong = self._hash(ply)
        self.hashes[ply] = h ^ (h >> 29)  # one more mixing step than alpha-beta's (kept: the same buckets)
        return 0

    @cython.cfunc
    @cython.exceptval(-1, check=False)
    def _value(self, ply: cython.Py_ssize_t, an: cython.longlong, ad: cython.longlong, bn: cython.longlong,
               bd: cython.longlong) -> cython.int:
        """Fail-soft value for ``pov`` of the position at ``ply`` in the window (an/ad, bn/bd), into the
        register."""
        self._tick()
        state: cython.longlong[::1] = self.states[ply]
        if self.game.terminal(state, self.returns):
            return self._outcome()
        if _cmp(an, ad, self.hi, 1) >= 0:  # bound cutoffs: no value lies outside [lo, hi]
            self.rn = self.hi
            self.rd = 1
            return 0
        if _cmp(bn, bd, self.lo, 1) <= 0:
            self.rn = self.lo
            self.rd = 1
            return 0
        self._key(ply)
        self.probes += 1
        slot: cython.Py_ssize_t = self._find(ply)
        first: cython.Py_ssize_t = -1
        flag: cython.longlong
        if slot >= 0:
            self.hits += 1
            flag = self.tflag[slot]
            if (flag == _EXACT or (flag == _LOWER and _cmp(self.tnum[slot], self.tden[slot], bn, bd) >= 0)
                    or (flag == _UPPER and _cmp(self.tnum[slot], self.tden[slot], an, ad) <= 0)):
                self.rn = self.tnum[slot]
                self.rd = self.tden[slot]
                return 0
            first = self.tmove[slot]
        self._repeats(ply)
        mover: cython.Py_ssize_t = self.game.to_move(state)
        best_i: cython.Py_ssize_t = -1
        if mover == CHANCE:
            self._chance(ply, an, ad, bn, bd)
        elif mover < 0:
            raise SearchRefused("expectiminimax met a simultaneous node; use the matrix solver (lp)")
        else:
            best_i = self._decide(ply, an, ad, bn, bd, mover == self.pov, first)
        vn: cython.longlong = self.rn
        vd: cython.longlong = self.rd
        if _cmp(vn, vd, an, ad) <= 0:
            flag = _UPPER
        elif _cmp(vn, vd, bn, bd) >= 0:
            flag = _LOWER
        else:
            flag = _EXACT
        self._store(ply, vn, vd, flag, best_i)
        self.rn = vn
        self.rd = vd
        return 0

    @cython.cfunc
    @cython.exceptval(-2, check=False)
    def _decide(self, ply: cython.Py_ssize_t, an: cython.longlong, ad: cython.longlong, bn: cython.longlong,
                bd: cython.longlong, maximise: cython.bint, first: cython.Py_ssize_t) -> cython.Py_ssize_t:
        """Value of the decision node at ``ply`` into the register; returns its best move's index."""
        state: cython.longlong[::1] = self.states[ply]
        # A move reaching the highest (lowest) possible value ends a max (min) node's search.
        if _cmp(an, ad, self.lo, 1) < 0:
            an = self.lo
            ad = 1
        if _cmp(bn, bd, self.hi, 1) > 0:
            bn = self.hi
            bd = 1
        count: cython.Py_ssize_t = self.game.legal(state, self.moves[ply])
        if count <= 0:
            raise SearchRefused("a position that is not terminal has no legal move")
        i: cython.Py_ssize_t
        k: cython.Py_ssize_t
        mover: cython.Py_ssize_t = self.game.to_move(state)
        front: cython.Py_ssize_t = self._front(ply, count, first)
        best_n: cython.longlong = self.lo - 1 if maximise else self.hi + 1
        best_d: cython.longlong = 1
        best_i: cython.Py_ssize_t = -1
        cut: cython.bint = False
        # Every successor first; those that end the game are scored at once (the others are made again
        # when searched: as cheap as keeping a copy of each, without a copy per move and ply in memory);
        # not where the engine knows that no move ends the game.
        quiet: cython.bint = self.game.quiet(state)
        for i in range(count):
            if quiet:
                self.ended[ply, i] = False
                continue
            self.game.apply(state, self.moves[ply, i], self.states[ply + 1])
            self.ended[ply, i] = self.game.terminal(self.states[ply + 1], self.returns)
            if not self.ended[ply, i] or cut:
                continue
            self._tick()
            self._outcome()
            if maximise:
                if _cmp(self.rn, self.rd, best_n, best_d) > 0:
                    best_n, best_d, best_i = self.rn, self.rd, i
                    if _cmp(best_n, best_d, an, ad) > 0:
                        an, ad = best_n, best_d
            elif _cmp(self.rn, self.rd, best_n, best_d) < 0:
                best_n, best_d, best_i = self.rn, self.rd, i
                if _cmp(best_n, best_d, bn, bd) < 0:
                    bn, bd = best_n, best_d
            if _cmp(an, ad, bn, bd) >= 0:
                cut = True
        for k in range(count):
            if cut:
                break
            if k == front:  # the table's move left the node open: order the rest (the hint's keys made now)
                self._sort_rest(ply, count, front, self._hinted(ply, count), True, mover)
            i = self.order[ply, k]
            if self.ended[ply, i]:
                continue
            self.game.apply(state, self.moves[ply, i], self.states[ply + 1])
            self._value(ply + 1, an, ad, bn, bd)
            if maximise:
                if _cmp(self.rn, self.rd, best_n, best_d) > 0:
                    best_n, best_d, best_i = self.rn, self.rd, i
                    if _cmp(best_n, best_d, an, ad) > 0:
                        an, ad = best_n, best_d
            elif _cmp(self.rn, self.rd, best_n, best_d) < 0:
                best_n, best_d, best_i = self.rn, self.rd, i
                if _cmp(best_n, best_d, bn, bd) < 0:
                    bn, bd = best_n, best_d
            if _cmp(an, ad, bn, bd) >= 0:
                self.history[self._slot(ply, i, mover)] += 1  # a refutation: tried early elsewhere
                break
        self.rn = best_n
        self.rd = best_d
        return best_i

    @cython.cfunc
    @cython.exceptval(-1, check=False)
    @cython.boundscheck(False)  # indexes argued in the class docstring
    @cython.wraparound(False)
    def _front(self, ply: cython.Py_ssize_t, count: cython.Py_ssize_t, first: cython.Py_ssize_t) -> cython.Py_ssize_t:
        """The table's move ``first`` (if any) in front at ``ply``, then the rest in the legal order (sorted by
        :meth:`_sort_rest` only if the table's move leaves the node open: a cutoff by it saves the
        ordering). Returns how many are in front (0 or 1)."""
        i: cython.Py_ssize_t
        placed: cython.Py_ssize_t = 0
        front: cython.Py_ssize_t = 0
        if 0 <= first < count:
            self.order[ply, 0] = first
            front = placed = 1
        for i in range(count):
            if i != first or front == 0:
                self.order[ply, placed] = i
                placed += 1
        return front

    # Chance-node bookkeeping: bounds[ply, i] = (lo_n, lo_d, hi_n, hi_d) of outcome i; the weighted sums
    # S0 = sum w_i lo_i and S1 = sum w_i hi_i are held by _chance's locals and passed around.

    @cython.cfunc
    @cython.exceptval(-1)
    def _window(self, ply: cython.Py_ssize_t, i: cython.Py_ssize_t, total: cython.longlong,
                an: cython.longlong, ad: cython.longlong, bn: cython.longlong, bd: cython.longlong,
                s0n: cython.longlong, s0d: cython.longlong, s1n: cython.longlong, s1d: cython.longlong) -> cython.int:
        """Outcome ``i``'s Star1 window into the register (low end) and the temporary (high end): outside
        it the node's value is outside (alpha, beta) whatever the other outcomes are worth."""
        wi: cython.longlong = self.weights[ply, i]
        # a = max((alpha * W - S1 + w_i * hi_i) / w_i, lo_i)
        self._scale(self.bounds[ply, i, 2], self.bounds[ply, i, 3], wi)
        xn: cython.longlong = self.tn
        xd: cython.longlong = self.td
        self._add(xn, xd, -s1n, s1d)
        xn, xd = self.tn, self.td
        self._scale(an, ad, total)
        self._add(self.tn, self.td, xn, xd)
        self._divide(self.tn, self.td, wi)
        lo_n: cython.longlong = self.tn
        lo_d: cython.longlong = self.td
        if _cmp(lo_n, lo_d, self.bounds[ply, i, 0], self.bounds[ply, i, 1]) < 0:
            lo_n, lo_d = self.bounds[ply, i, 0], self.bounds[ply, i, 1]
        # b = min((beta * W - S0 + w_i * lo_i) / w_i, hi_i)
        self._scale(self.bounds[ply, i, 0], self.bounds[ply, i, 1], wi)
        xn, xd = self.tn, self.td
        self._add(xn, xd, -s0n, s0d)
        xn, xd = self.tn, self.td
        self._scale(bn, bd, total)
        self._add(self.tn, self.td, xn, xd)
        self._divide(self.tn, self.td, wi)
        if _cmp(self.tn, self.td, self.bounds[ply, i, 2], self.bounds[ply, i, 3]) > 0:
            self.tn, self.td = self.bounds[ply, i, 2], self.bounds[ply, i, 3]
        self.rn = lo_n
        self.rd = lo_d
        return 0

    @cython.cfunc
    @cython.exceptval(-1)
    def _chance(self, ply: cython.Py_ssize_t, an: cython.longlong, ad: cython.longlong, bn: cython.longlong,
                bd: cython.longlong) -> cython.int:
        """Expected value of the chance node at ``ply`` into the register, with Star1 windows and (``star``
        2) Star2 probing of each outcome."""
        state: cython.longlong[::1] = self.states[ply]
        count: cython.Py_ssize_t = self.game.chance(state, self.moves[ply], self.weights[ply])
        if count <= 0:
            raise SearchRefused("a chance node without outcomes")
        total: cython.longlong = 0
        i: cython.Py_ssize_t
        for i in range(count):
            total = _plus(total, self.weights[ply, i])
        sn: cython.longlong = 0
        sd: cython.longlong = 1
        if self.star == 0:
            for i in range(count):
                self.game.apply(state, self.moves[ply, i], self.states[ply + 1])
                self._value(ply + 1, self.lo - 1, 1, self.hi + 1, 1)
                self._scale(self.rn, self.rd, self.weights[ply, i])
                self._add(sn, sd, self.tn, self.td)
                sn, sd = self.tn, self.td
            self._divide(sn, sd, total)
            self.rn, self.rd = self.tn, self.td
            return 0
        for i in range(count):
            self.bounds[ply, i, 0] = self.lo
            self.bounds[ply, i, 1] = 1
            self.bounds[ply, i, 2] = self.hi
            self.bounds[ply, i, 3] = 1
        s0n: cython.longlong = _mul(total, self.lo)
        s0d: cython.longlong = 1
        s1n: cython.longlong = _mul(total, self.hi)
        s1d: cython.longlong = 1
        a_n: cython.longlong
        a_d: cython.longlong
        b_n: cython.longlong
        b_d: cython.longlong
        vn: cython.longlong
        vd: cython.longlong
        mover: cython.Py_ssize_t
        slot: cython.Py_ssize_t
        first: cython.Py_ssize_t
        count_next: cython.Py_ssize_t
        if self.star >= 2:
            for i in range(count):
                self.game.apply(state, self.moves[ply, i], self.states[ply + 1])
                if self.game.terminal(self.states[ply + 1], self.returns):
                    continue
                mover = self.game.to_move(self.states[ply + 1])
                if mover < 0:
                    continue
                self._window(ply, i, total, an, ad, bn, bd, s0n, s0d, s1n, s1d)
                a_n, a_d, b_n, b_d = self.rn, self.rd, self.tn, self.td
                if _cmp(a_n, a_d, b_n, b_d) >= 0:
                    continue
                self._tick()
                self._key(ply + 1)
                self._repeats(ply + 1)
                slot = self._find(ply + 1)
                first = self.tmove[slot] if slot >= 0 else -1
                count_next = self.game.legal(self.states[ply + 1], self.moves[ply + 1])
                if count_next <= 0:
                    raise SearchRefused("a position that is not terminal has no legal move")
                if first < 0:  # the table's move, else the first legal move (the hint's first was
                    first = 0  # measured: 3.2 times the nodes on long-odds)
                self.game.apply(self.states[ply + 1], self.moves[ply + 1, first], self.states[ply + 2])
                self._value(ply + 2, a_n, a_d, b_n, b_d)
                vn, vd = self.rn, self.rd
                if mover == self.pov and _cmp(vn, vd, a_n, a_d) > 0:
                    if _cmp(vn, vd, self.bounds[ply, i, 0], self.bounds[ply, i, 1]) > 0:
                        # a max node is worth at least its first move
                        self._tighten(ply, i, vn, vd, self.bounds[ply, i, 2], self.bounds[ply, i, 3],
                                      s0n, s0d, s1n, s1d)
                        s0n, s0d, s1n, s1d = self.rn, self.rd, self.tn, self.td
                elif (mover != self.pov and _cmp(vn, vd, b_n, b_d) < 0
                      and _cmp(vn, vd, self.bounds[ply, i, 2], self.bounds[ply, i, 3]) < 0):
                    # a min node is worth at most its first move
                    self._tighten(ply, i, self.bounds[ply, i, 0], self.bounds[ply, i, 1], vn, vd,
                                  s0n, s0d, s1n, s1d)
                    s0n, s0d, s1n, s1d = self.rn, self.rd, self.tn, self.td
                if self._cut(total, an, ad, bn, bd, s0n, s0d, s1n, s1d):
                    return 0
        for i in range(count):
            if self._cut(total, an, ad, bn, bd, s0n, s0d, s1n, s1d):
                return 0
            if self.bounds[ply, i, 0] == self.bounds[ply, i, 2] and self.bounds[ply, i, 1] == self.bounds[ply, i, 3]:
                continue
            self._window(ply, i, total, an, ad, bn, bd, s0n, s0d, s1n, s1d)
            a_n, a_d, b_n, b_d = self.rn, self.rd, self.tn, self.td
            if _cmp(a_n, a_d, b_n, b_d) >= 0:
                continue
            self.game.apply(state, self.moves[ply, i], self.states[ply + 1])
            self._value(ply + 1, a_n, a_d, b_n, b_d)
            vn, vd = self.rn, self.rd
            # Fail-soft: v <= a means value <= v, v >= b means value >= v, else value == v.
            if _cmp(vn, vd, a_n, a_d) > 0:
                if _cmp(vn, vd, b_n, b_d) < 0:
                    self._tighten(ply, i, vn, vd, vn, vd, s0n, s0d, s1n, s1d)
                else:
                    self._tighten(ply, i, vn, vd, self.bounds[ply, i, 2], self.bounds[ply, i, 3],
                                  s0n, s0d, s1n, s1d)
            else:
                self._tighten(ply, i, self.bounds[ply, i, 0], self.bounds[ply, i, 1], vn, vd, s0n, s0d, s1n, s1d)
            s0n, s0d, s1n, s1d = self.rn, self.rd, self.tn, self.td
        if self._cut(total, an, ad, bn, bd, s0n, s0d, s1n, s1d):
            return 0
        for i in range(count):  # an outcome left open (its window was empty): searched whole
            if self.bounds[ply, i, 0] == self.bounds[ply, i, 2] and self.bounds[ply, i, 1] == self.bounds[ply, i, 3]:
                continue
            self.game.apply(state, self.moves[ply, i], self.states[ply + 1])
            self._value(ply + 1, self.lo - 1, 1, self.hi + 1, 1)
            vn, vd = self.rn, self.rd
            self._tighten(ply, i, vn, vd, vn, vd, s0n, s0d, s1n, s1d)
            s0n, s0d, s1n, s1d = self.rn, self.rd, self.tn, self.td
        self._divide(s0n, s0d, total)
        self.rn, self.rd = self.tn, self.td
        return 0

    @cython.cfunc
    @cython.exceptval(-1)
    def _tighten(self, ply: cython.Py_ssize_t, i: cython.Py_ssize_t, lon: cython.longlong, lod: cython.longlong,
                 hin: cython.longlong, hid: cython.longlong, s0n: cython.longlong, s0d: cython.longlong,
                 s1n: cython.longlong, s1d: cython.longlong) -> cython.int:
        """Set outcome ``i``'s bounds to [lon/lod, hin/hid]; the updated S0 into the register, S1 into the
        temporary."""
        wi: cython.longlong = self.weights[ply, i]
        dn: cython.longlong
        dd: cython.longlong
        if lon != self.bounds[ply, i, 0] or lod != self.bounds[ply, i, 1]:
            self._add(lon, lod, -self.bounds[ply, i, 0], self.bounds[ply, i, 1])
            dn, dd = self.tn, self.td
            self._scale(dn, dd, wi)
            self._add(s0n, s0d, self.tn, self.td)
            s0n, s0d = self.tn, self.td
            self.bounds[ply, i, 0] = lon
            self.bounds[ply, i, 1] = lod
        if hin != self.bounds[ply, i, 2] or hid != self.bounds[ply, i, 3]:
            self._add(hin, hid, -self.bounds[ply, i, 2], self.bounds[ply, i, 3])
            dn, dd = self.tn, self.td
            self._scale(dn, dd, wi)
            self._add(s1n, s1d, self.tn, self.td)
            s1n, s1d = self.tn, self.td
            self.bounds[ply, i, 2] = hin
            self.bounds[ply, i, 3] = hid
        self.rn, self.rd = s0n, s0d
        self.tn, self.td = s1n, s1d
        return 0

    @cython.cfunc
    @cython.exceptval(-1)
    def _cut(self, total: cython.longlong, an: cython.longlong, ad: cython.longlong, bn: cython.longlong,
             bd: cython.longlong, s0n: cython.longlong, s0d: cython.longlong, s1n: cython.longlong,
             s1d: cython.longlong) -> cython.int:
        """Whether the weighted bounds have left the window: then 1, with the bound (the node's fail-soft
        value) in the register; else 0."""
        if _cmp(s1n, s1d, _mul(an, total), ad) <= 0:  # S1 / W <= alpha
            self._divide(s1n, s1d, total)
            self.rn, self.rd = self.tn, self.td
            return 1
        if _cmp(s0n, s0d, _mul(bn, total), bd) >= 0:  # S0 / W >= beta
            self._divide(s0n, s0d, total)
            self.rn, self.rd = self.tn, self.td
            return 1
        return 0

    # -- what Python calls ------------------------------------------------------------------------------

    def solve(self, root: Any) -> tuple[int, int]:
        """The root's exact value for ``pov`` as (numerator, denominator)."""
        np.asarray(self.states)[0] = np.asarray(root, np.int64)
        self._value(0, self.lo - 1, 1, self.hi + 1, 1)
        return int(self.rn), int(self.rd)

    def line(self, vn: int, vd: int) -> list[Any]:
        """A principal variation keeping ``vn/vd`` from the root, up to the first chance node: move records,
        with the packed state before each."""
        found: list[Any] = []
        ply: cython.Py_ssize_t = 0
        count: cython.Py_ssize_t
        slot: cython.Py_ssize_t
        first: cython.Py_ssize_t
        k: cython.Py_ssize_t
        i: cython.Py_ssize_t
        chosen: cython.Py_ssize_t
        mover: cython.Py_ssize_t
        maximise: cython.bint
        while ply < MAX_PLY:
            state = self.states[ply]
            if self.game.terminal(state, self.returns):
                break
            mover = self.game.to_move(state)
            if mover < 0:
                break
            maximise = mover == self.pov
            self._key(ply)
            slot = self._find(ply)
            first = self.tmove[slot] if slot >= 0 else -1
            count = self.game.legal(state, self.moves[ply])
            self._sort_rest(ply, count, self._front(ply, count, first), self._hinted(ply, count), False, mover)
            chosen = -1
            for k in range(count):
                i = self.order[ply, k]
                self.game.apply(state, self.moves[ply, i], self.states[ply + 1])
                if maximise:
                    self._value(ply + 1, self.lo - 1, 1, vn, vd)
                    if _cmp(self.rn, self.rd, vn, vd) >= 0:
                        chosen = i
                        break
                else:
                    self._value(ply + 1, vn, vd, self.hi + 1, 1)
                    if _cmp(self.rn, self.rd, vn, vd) <= 0:
                        chosen = i
                        break
            if chosen < 0:
                break  # cannot happen in an exhaustive search; stop the line rather than guess
            found.append((np.asarray(state).copy(), np.asarray(self.moves[ply, chosen]).copy()))
            self.game.apply(state, self.moves[ply, chosen], self.states[ply + 1])
            ply += 1
        return found


#: Memory the table may take by default (bytes).
TABLE_BYTES = 64 << 20


def table_bits_for(game: PackedGame, budget: int = TABLE_BYTES) -> int:
    """The largest ``k`` (at most 20) whose ``2**k``-entry table of ``game``'s keys fits in ``budget`` bytes."""
    return table_bits_within(int(game.key_width) + 5, budget)


def solve(game: PackedGame, state: Any, pov: int, *, lo: int = -1, hi: int = 1, star: int = 2,
          table_bits: int | None = None, max_nodes: int | None = None, expired: Callable[[], bool] | None = None,
          progress: Callable[[int], None] | None = None, progress_every: int = 10_000,
          ordering: bool = True, order: MoveOrder | None = None) -> dict[str, Any]:
    """The exhaustive expectiminimax value for player ``pov`` of the packed ``state`` of ``game`` (see the
    module docstring): ``pov`` maximises, every other player minimises. ``order`` is the move-ordering hint
    (by default the engine's ``move_order()`` if it has one; :func:`~stratagem.core.packed_order.order_for`
    finds a game's); ``ordering=False`` leaves any out (for measurements; the value never depends on it).

    Returns ``value`` (a ``Fraction``), ``pv`` (up to the first chance node: a list of (packed state, move
    record) pairs), ``nodes`` (positions visited, terminal ones and Star2 probes included), the table's
    ``probes``/``hits``/``stores`` and the wall ``seconds``; at a limit, ``stopped`` (the limit's name) and
    the counters instead. Raises :class:`SearchRefused` at what it does not handle, ``ValueError`` for bad
    arguments.
    """
    checked_bounds(lo, hi)
    if star not in (0, 1, 2):
        raise ValueError("star must be 0, 1 or 2")
    if not 0 <= pov < int(game.players):
        raise ValueError(f"player {pov} is not one of the {game.players} players")
    table_bits = checked_table_bits(table_bits_for(game) if table_bits is None else table_bits)
    started = time.perf_counter()
    search = _Expecti(game, int(pov), int(lo), int(hi), int(star), table_bits,
                      -1 if max_nodes is None else max_nodes, expired, progress, progress_every, ordering, order)
    try:
        try:
            n, d = search.solve(state)
            line = search.line(n, d)  # re-searches children: its nodes count against the same limits
        except SearchStopped as stop:
            nodes, probes, hits, stores = search.counters()
            return {"stopped": str(stop), "nodes": nodes, "probes": probes, "hits": hits, "stores": stores,
                    "seconds": time.perf_counter() - started}
    finally:
        search.release()
    nodes, probes, hits, stores = search.counters()
    return {"value": Fraction(n, d), "pv": line, "nodes": nodes, "probes": probes, "hits": hits,
            "stores": stores, "seconds": time.perf_counter() - started}


__all__ = ["MAX_PLY", "TABLE_BYTES", "SearchRefused", "SearchStopped", "solve", "table_bits_for"]

"""Negamax alpha-beta with a transposition table over a compiled engine (a ``PackedGame``), in C.

The exhaustive search of :mod:`stratagem.solvers.alphabeta` (``depth=None``) on a game's packed states:
the exact value of a two-player zero-sum position without chance, with the distance to the result, a
principal variation and a node count, without a Python object in the loop. Same scores and same
windows as the Python search, so the value and the distance are the same:

* **Scores** carry the distance: ``(r, t)`` with ``r`` the return of the player to move and ``t`` ``-d``
  for a win in ``d`` plies, ``+d`` for a loss, 0 for a draw, compared lexicographically (faster wins,
  slower losses), packed into one integer ``r * 2**24 + t``. Moving a score one ply up (``later``) and a
  window one ply down (``sooner``) is the Python search's mate-distance adjustment.
* **Bound cutoffs**: with returns within ``[lo, hi]``, no node scores above a win on the next ply nor
  below a loss on it; windows are narrowed to that and a move reaching the best possible score ends its
  node. A return outside the bounds raises.
* **Move order**: every successor is made first and the moves that end the game are scored at once
  (a win on the next ply ends the node); then the table's move, the two killer moves of the ply (the
  last refutations there), then the others by the engine's ordering hint where there is one (a
  :class:`~stratagem.core.packed_order.MoveOrder`: the game's ``order_moves`` in C, keys ascending), then
  by the history heuristic (how often the same move of the same player refuted a position anywhere in
  the search: 2**14 counters indexed by a hash of the player and the move record), then in the legal
  order. Without a hint the search may visit more nodes than the Python search with the game's
  ``order_moves``; the value never depends on order. The principal variation is found in the table's
  move, then the hint's order (no killers, no history), as the Python search finds its own.
* **The table**: up to ``2**k`` entries (it starts at 4,096 and doubles when half full) in buckets of
  two, keyed by the engine's full transposition key (:meth:`~stratagem.core.packed.PackedGame.pack`; a
  hash collision is never mistaken for a hit). An entry is an exact score or a bound, the depth it was
  searched to and the index of its best move in the engine's legal order. A full bucket gives up the
  entry searched less deep, then one that is not exact.
* **Repetition**: a position repeated on the current line raises, as the Python search does (the
  minimax searches need games without cycles).
* **Limits**: ``max_nodes`` and a ``expired()`` callable (a deadline, looked at every 1,024 nodes) stop the
  search, which then claims nothing (the principal variation's null-window tests count against them too: a
  limit reached while the line is found stops the call the same way). With a limit the search deepens
  iteratively (a horizon scored as a draw, table entries marked with the depth they were searched to, as in
  the Python search), so that a stopped search still has the best root move of its deepest completed
  iteration; without one it makes a single exhaustive pass (iterative deepening was measured to cost more
  nodes here than it saves: 29% more on the Card Clash endgames).

The principal variation is found afterwards as the Python search finds it: at each position along it,
the first move (the table's first) whose null-window test keeps the score. A chance or simultaneous
node raises :class:`SearchRefused` (expectiminimax and the matrix solver are the searches there). This
module is a kernel (compiled at install, see ``setup.py``).

The limits, the table's key hash, the repetition check and the hint and history ordering are
:class:`~stratagem.solvers.packed_exact.ExactSearch`'s, the base this search shares with expectiminimax and
max^n; the scores, the table's entries, the killers and the negamax are this module's.

Why one module of over 600 lines: it is one concept, alpha-beta over a packed game; its scores, table
entries, killers and the negamax call one another at C level, which Cython inlines only within one module.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import cython
import numpy as np

from stratagem.core.scratch import release, scratch

if cython.compiled:
    from cython.cimports.stratagem.core.packed import PackedGame
    from cython.cimports.stratagem.core.packed_order import MoveOrder
    from cython.cimports.stratagem.solvers.packed_exact import ExactSearch
else:
    from stratagem.core.packed import PackedGame
    from stratagem.core.packed_order import MoveOrder
    from stratagem.solvers.packed_exact import ExactSearch

from stratagem.solvers.packed_exact import (
    SearchRefused,
    SearchStopped,
    checked_bounds,
    checked_table_bits,
    table_bits_within,
)

#: One step of the return in a packed score; distances stay below half of it.
_SCALE = cython.declare(cython.longlong, 1 << 24)
_FAR = cython.declare(cython.longlong, (1 << 23) - 1)
_INF = cython.declare(cython.longlong, 1 << 62)
#: Table entry kinds (0: empty).
_EXACT = cython.declare(cython.longlong, 1)
_LOWER = cython.declare(cython.longlong, 2)
_UPPER = cython.declare(cython.longlong, 3)
#: Table depth of an entry with no horizon below it (searched to the end of every line).
_PROVEN = cython.declare(cython.longlong, 1 << 30)
#: Deepest line the search follows (its scratch area is one move list per ply).
MAX_PLY = 512


@cython.cfunc
@cython.inline
@cython.exceptval(check=False)
def _sign(x: cython.longlong) -> cython.longlong:
    return 1 if x > 0 else -1 if x < 0 else 0


@cython.cfunc
@cython.inline
@cython.exceptval(check=False)
def _ret(s: cython.longlong) -> cython.longlong:
    """The return part of a packed score."""
    return (s + _SCALE // 2) // _SCALE


@cython.cfunc
@cython.inline
@cython.exceptval(check=False)
def _later(s: cython.longlong) -> cython.longlong:
    """The same result one ply further from it."""
    return s - _sign(_ret(s))


@cython.cfunc
@cython.inline
@cython.exceptval(check=False)
def _sooner(s: cython.longlong) -> cython.longlong:
    """Inverse of :func:`_later` (on windows passed down)."""
    return s + _sign(_ret(s))


@cython.cfunc
@cython.inline
@cython.exceptval(check=False)
def _pack(r: cython.longlong, t: cython.longlong) -> cython.longlong:
    return r * _SCALE + t


@cython.cclass
class _Negamax(ExactSearch):  # type: ignore[misc]
    """The search's state (:class:`~stratagem.solvers.packed_exact.ExactSearch`'s, and the score bounds,
    killers, successors and the table's scores, kinds, moves and depths).

    Indexes left unchecked (the methods marked ``boundscheck(False)``, the hot ones): as the base class
    argues them, and a killer row below the plies.
    """

    lo: cython.longlong
    hi: cython.longlong
    best_possible: cython.longlong
    worst_possible: cython.longlong
    horizon: cython.longlong
    root_best: cython.Py_ssize_t
    kids: cython.longlong[:, :, ::1]
    ended: cython.longlong[:, ::1]
    killers: cython.longlong[:, :, ::1]
    nkillers: cython.longlong[::1]
    tscore: cython.longlong[::1]
    tmove: cython.longlong[::1]
    tdepth: cython.longlong[::1]

    def __init__(self, game: PackedGame, lo: int, hi: int, table_bits: int, max_nodes: int,
                 expired: Any, progress: Any, progress_every: int, ordering: bool = True, order: Any = None) -> None:
        ExactSearch.__init__(self, game, table_bits, max_nodes, expired, progress, progress_every)
        self._take_order(ordering, order)
        self.lo = lo
        self.hi = hi
        self.best_possible = _pack(hi, -1) if hi > 0 else _pack(hi, 0) if hi == 0 else _pack(hi, _FAR)
        self.worst_possible = _pack(lo, 1) if lo < 0 else _pack(lo, 0) if lo == 0 else _pack(lo, -_FAR)
        size = 1 << self.bits
        self._grow_plies(16)
        arena = self.owned["tkeys"] = scratch((size, self.key_width))  # read only where a slot's flag is set
        self.tkeys = arena
        self.thash = np.zeros(size, np.uint64)
        self.tscore = np.zeros(size, np.int64)
        self.tflag = np.zeros(size, np.int64)
        self.tmove = np.zeros(size, np.int64)
        self.tdepth = np.zeros(size, np.int64)
        self.horizon = 0
        self.root_best = -1

    def _grow_plies(self, plies: int) -> None:
        """Scratch for ``plies`` plies (at most :data:`MAX_PLY`), what the shallower plies hold kept: a
        search starts with room for 16 and doubles it as lines go deeper (a whole game's worth of
        successors per ply would take megabytes before the first node)."""
        plies = min(plies, MAX_PLY)
        moves = int(self.game.max_moves)
        shapes = {"states": (plies + 1, self.width), "kids": (plies, moves, self.width), "ended": (plies, moves),
                  "moves": (plies, moves, self.move_width), "order": (plies, moves),
                  "keys": (plies + 1, self.key_width), "hashes": (plies + 1,), "killers": (plies, 2, self.move_width),
                  "nkillers": (plies,), "hkeys": (plies, moves), "score": (plies, moves)}
        old = {} if not self.plies else {
            "states": self.states, "kids": self.kids, "ended": self.ended, "moves": self.moves, "order": self.order,
            "keys": self.keys, "hashes": self.hashes, "killers": self.killers, "nkillers": self.nkillers,
            "hkeys": self.hkeys, "score": self.score}
        # Zeroed and not handed back for the killers: every other row is written before it is read.
        fresh = self._regrow(plies, shapes, old, ("killers", "nkillers"))
        self.kids, self.ended = fresh["kids"], fresh["ended"]
        self.killers, self.nkillers = fresh["killers"], fresh["nkillers"]

    # -- the table ------------------------------------------------------------------------------------

    @cython.cfunc
    @cython.exceptval(-2, check=False)
    @cython.boundscheck(False)  # indexes argued in the class docstring
    @cython.wraparound(False)
    def _find(self, ply: cython.Py_ssize_t) -> cython.Py_ssize_t:
        """The table slot holding the position of ``ply`` (its key and hash computed), or -1 (this table
        keeps each key in its slot, not in an arena: a rehash copies them)."""
        h: cython.ulonglong = cython.cast(cython.ulonglong, self.hashes[ply])
        base: cython.Py_ssize_t = cython.cast(cython.Py_ssize_t, h & self.mask)
        slot: cython.Py_ssize_t
        k: cython.Py_ssize_t
        same: cython.bint
        w: cython.Py_ssize_t
        for k in range(2):
            slot = base ^ k
            if self.tflag[slot] == 0 or self.thash[slot] != h:
                continue
            same = True
            for w in range(self.key_width):
                if self.tkeys[slot, w] != self.keys[ply, w]:
                    same = False
                    break
            if same:
                return slot
        return -1

    @cython.cfunc
    @cython.exceptval(-1, check=False)
    @cython.boundscheck(False)  # indexes argued in the class docstring
    @cython.wraparound(False)
    def _store(self, ply: cython.Py_ssize_t, score: cython.longlong, flag: cython.longlong,
               move: cython.longlong, depth: cython.longlong) -> cython.int:
        slot: cython.Py_ssize_t = self._find(ply)
        base: cython.Py_ssize_t
        w: cython.Py_ssize_t
        if slot < 0:
            if 2 * self.entries >= (1 << self.bits) and self.bits < self.max_bits:
                self._rehash()
            base = cython.cast(cython.Py_ssize_t, cython.cast(cython.ulonglong, self.hashes[ply]) & self.mask)
            if self.tflag[base] == 0 or self.tflag[base ^ 1] == 0:
                self.entries += 1
            if self.tflag[base] == 0:
                slot = base
            elif self.tflag[base ^ 1] == 0 or self.tdepth[base ^ 1] < self.tdepth[base]:
                slot = base ^ 1  # an empty slot, else the one searched less deep
            elif self.tdepth[base] < self.tdepth[base ^ 1]:
                slot = base
            elif self.tflag[base ^ 1] != _EXACT:
                slot = base ^ 1
            elif self.tflag[base] != _EXACT:
                slot = base
            else:
                slot = base ^ 1
            for w in range(self.key_width):
                self.tkeys[slot, w] = self.keys[ply, w]
            self.thash[slot] = self.hashes[ply]
        self.tscore[slot] = score
        self.tflag[slot] = flag
        self.tmove[slot] = move
        self.tdepth[slot] = depth
        self.stores += 1
        return 0

    def _rehash(self) -> None:
        """Double the table (up to ``2**max_bits`` entries) and put every entry back in its bucket; of two
        that land on a full bucket the one searched less deep is dropped."""
        size: cython.Py_ssize_t = 1 << (self.bits + 1)
        mask: cython.ulonglong = size - 1
        arena = scratch((size, self.key_width))
        keys: cython.longlong[:, ::1] = arena
        hashes: cython.ulonglong[::1] = np.zeros(size, np.uint64)
        scores: cython.longlong[::1] = np.zeros(size, np.int64)
        flags: cython.longlong[::1] = np.zeros(size, np.int64)
        moves: cython.longlong[::1] = np.zeros(size, np.int64)
        depths: cython.longlong[::1] = np.zeros(size, np.int64)
        old: cython.Py_ssize_t
        base: cython.Py_ssize_t
        slot: cython.Py_ssize_t
        w: cython.Py_ssize_t
        entries: cython.longlong = 0
        for old in range(1 << self.bits):
            if self.tflag[old] == 0:
                continue
            base = cython.cast(cython.Py_ssize_t, cython.cast(cython.ulonglong, self.thash[old]) & mask)
            if flags[base] == 0:
                slot = base
            elif flags[base ^ 1] == 0:
                slot = base ^ 1
            elif depths[base ^ 1] < self.tdepth[old] and depths[base ^ 1] <= depths[base]:
                slot = base ^ 1
                entries -= 1
            elif depths[base] < self.tdepth[old]:
                slot = base
                entries -= 1
            else:
                continue
            for w in range(self.key_width):
                keys[slot, w] = self.tkeys[old, w]
            hashes[slot] = self.thash[old]
            scores[slot] = self.tscore[old]
            flags[slot] = self.tflag[old]
            moves[slot] = self.tmove[old]
            depths[slot] = self.tdepth[old]
            entries += 1
        release([self.owned["tkeys"]])
        self.owned["tkeys"] = arena
        self.tkeys, self.thash, self.tscore = keys, hashes, scores
        self.tflag, self.tmove, self.tdepth = flags, moves, depths
        self.bits += 1
        self.mask = mask
        self.entries = entries

    # -- the search -----------------------------------------------------------------------------------

    @cython.cfunc
    @cython.exceptval(-1, check=False)
    @cython.boundscheck(False)  # indexes argued in the class docstring
    @cython.wraparound(False)
    def _enter(self, ply: cython.Py_ssize_t) -> cython.int:
        """Key and hash of the position at ``ply``; refuse a position repeated on the line."""
        if ply >= self.plies:
            if ply >= MAX_PLY:
                raise SearchRefused(f"a line longer than {MAX_PLY} plies")
            self._grow_plies(2 * self.plies)
        self.game.pack(self.states[ply], self.keys[ply])
        self.hashes[ply] = self._hash(ply)
        return self._repeats(ply)

    @cython.cfunc
    @cython.exceptval(-1, check=False)
    @cython.boundscheck(False)  # indexes argued in the class docstring
    @cython.wraparound(False)
    def _front(self, ply: cython.Py_ssize_t, count: cython.Py_ssize_t, first: cython.Py_ssize_t,
               killers: cython.bint) -> cython.Py_ssize_t:
        """The first moves to try at ``ply``: the table's move ``first`` (if any), then the ply's ``killers``
        that are legal here, then the rest in the legal order (sorted by :meth:`_sort_rest` only if the
        front moves leave the node open: a cutoff by them saves the ordering). Returns how many are in
        front."""
        placed: cython.Py_ssize_t = 0
        front: cython.Py_ssize_t
        i: cython.Py_ssize_t
        j: cython.Py_ssize_t
        k: cython.Py_ssize_t
        w: cython.Py_ssize_t
        same: cython.bint
        if 0 <= first < count:
            self.order[ply, 0] = first
            placed = 1
        if killers:
            for k in range(self.nkillers[ply]):
                for i in range(count):
                    same = True
                    for j in range(placed):
                        if self.order[ply, j] == i:
                            same = False
                            break
                    if not same:
                        continue
                    for w in range(self.move_width):
                        if self.moves[ply, i, w] != self.killers[ply, k, w]:
                            same = False
                            break
                    if same:
                        self.order[ply, placed] = i
                        placed += 1
                        break
        front = placed
        for i in range(count):
            same = False
            for j in range(front):
                if self.order[ply, j] == i:
                    same = True
                    break
            if not same:
                self.order[ply, placed] = i
                placed += 1
        return front

    @cython.cfunc
    @cython.exceptval(-1, check=False)
    def _killer(self, ply: cython.Py_ssize_t, i: cython.Py_ssize_t) -> cython.int:
        """Note move ``i`` of ``ply`` as the ply's newest killer (two kept)."""
        w: cython.Py_ssize_t
        same: cython.bint = self.nkillers[ply] > 0
        if same:
            for w in range(self.move_width):
                if self.killers[ply, 0, w] != self.moves[ply, i, w]:
                    same = False
                    break
        if same:
            return 0
        for w in range(self.move_width):
            self.killers[ply, 1, w] = self.killers[ply, 0, w]
            self.killers[ply, 0, w] = self.moves[ply, i, w]
        if self.nkillers[ply] < 2:
            self.nkillers[ply] += 1
        return 0

    @cython.cfunc
    @cython.exceptval(-4611686018427387911, check=False)
    def _search(self, ply: cython.Py_ssize_t, depth: cython.longlong, alpha: cython.longlong,
                beta: cython.longlong, killers: cython.bint) -> cython.longlong:
        """Fail-soft negamax score of the decision node at ``ply`` for its player to move, its lines cut
        ``depth`` plies further down (each cut counted in ``horizon``; :data:`_PROVEN`: never cut)."""
        if alpha >= self.best_possible:
            return self.best_possible
        if beta <= self.worst_possible:
            return self.worst_possible
        if beta > self.best_possible:
            beta = self.best_possible
        if alpha < self.worst_possible:
            alpha = self.worst_possible
        self._tick()
        self._enter(ply)
        state: cython.longlong[::1] = self.states[ply]
        first: cython.Py_ssize_t = -1
        self.probes += 1
        slot: cython.Py_ssize_t = self._find(ply)
        score: cython.longlong
        flag: cython.longlong
        if slot >= 0:
            self.hits += 1
            score = self.tscore[slot]
            flag = self.tflag[slot]
            if self.tdepth[slot] >= depth and (flag == _EXACT or (flag == _LOWER and score >= beta)
                                               or (flag == _UPPER and score <= alpha)):
                if self.tdepth[slot] < _PROVEN:
                    self.horizon += 1  # relying on a cut search: the result depends on a horizon
                return score
            first = self.tmove[slot]
        horizon_before: cython.longlong = self.horizon
        me: cython.Py_ssize_t = self.game.to_move(state)
        count: cython.Py_ssize_t = self.game.legal(state, self.moves[ply])
        if count <= 0:
            raise SearchRefused("a position that is not terminal has no legal move")
        front: cython.Py_ssize_t = self._front(ply, count, first, killers)
        best: cython.longlong = -_INF
        best_i: cython.Py_ssize_t = -1
        a: cython.longlong = alpha
        v: cython.longlong
        k: cython.Py_ssize_t
        i: cython.Py_ssize_t
        w: cython.Py_ssize_t
        r: cython.longlong
        cut: cython.bint = False
        # Every successor first, and the moves that end the game scored at once (a win on the next
        # ply ends the node's search before any other move is searched).
        for i in range(count):
            self.game.apply(state, self.moves[ply, i], self.kids[ply, i])
            self.ended[ply, i] = self.game.terminal(self.kids[ply, i], self.returns)
            if not self.ended[ply, i] or cut:
                continue
            self._tick()
            r = self.returns[me]
            if not (self.lo <= r <= self.hi and self.lo <= -r <= self.hi):
                raise SearchRefused(f"a return {r} outside the bounds [{self.lo}, {self.hi}] of the returns")
            v = _pack(r, -1 if r > 0 else 1 if r < 0 else 0)
            if v > best:
                best = v
                best_i = i
                if v > a:
                    a = v
                    if a >= beta:
                        cut = True
        for k in range(count):
            if cut:
                break
            if k == front:  # the front moves left the node open: order the rest (the hint's keys made now)
                self._sort_rest(ply, count, front, self._hinted(ply, count), True, me)
            i = self.order[ply, k]
            if self.ended[ply, i]:
                continue
            for w in range(self.width):
                self.states[ply + 1, w] = self.kids[ply, i, w]
            v = self._child(ply + 1, depth - 1, a, beta, me, killers)
            if v > best:
                best = v
                best_i = i
                if v > a:
                    a = v
                    if a >= beta:
                        if killers:
                            self._killer(ply, i)
                        self.history[self._slot(ply, i, me)] += 1  # a refutation: tried early elsewhere
                        break
        if best >= self.best_possible or best <= self.worst_possible:
            flag = _EXACT
        elif best <= alpha:
            flag = _UPPER
        elif best >= beta:
            flag = _LOWER
        else:
            flag = _EXACT
        self._store(ply, best, flag, best_i, _PROVEN if self.horizon == horizon_before else depth)
        return best

    @cython.cfunc
    @cython.exceptval(-4611686018427387911, check=False)
    def _child(self, ply: cython.Py_ssize_t, depth: cython.longlong, alpha: cython.longlong,
               beta: cython.longlong, me: cython.Py_ssize_t, killers: cython.bint) -> cython.longlong:
        """Score, for ``me`` (the parent's player), of the position at ``ply``, one ply further from the result."""
        state: cython.longlong[::1] = self.states[ply]
        r: cython.longlong
        if self.game.terminal(state, self.returns):
            self._tick()
            r = self.returns[me]
            if not (self.lo <= r <= self.hi and self.lo <= -r <= self.hi):
                raise SearchRefused(f"a return {r} outside the bounds [{self.lo}, {self.hi}] of the returns")
            return _pack(r, -1 if r > 0 else 1 if r < 0 else 0)
        if depth <= 0:  # the horizon of an iteration: scored as a draw (there is no evaluation), and counted
            self._tick()
            self.horizon += 1
            return 0
        mover: cython.Py_ssize_t = self.game.to_move(state)
        if mover == me:
            return _later(self._search(ply, depth, _sooner(alpha), _sooner(beta), killers))
        if mover < 0:
            raise SearchRefused("alpha-beta met a chance or simultaneous node; use expectiminimax for games "
                                "with chance")
        return _later(-self._search(ply, depth, -_sooner(beta), -_sooner(alpha), killers))

    # -- what Python calls ----------------------------------------------------------------------------

    def solve(self, root: Any, iterative: bool) -> int:
        """The root's packed score (its player to move's): one exhaustive pass, or (``iterative``) iterative
        deepening until an iteration meets no horizon, each completed iteration's best root move kept in
        ``root_best`` (what a search stopped by a limit reports as the best found)."""
        np.asarray(self.states)[0] = np.asarray(root, np.int64)
        if not iterative:
            return int(self._search(0, _PROVEN, -_INF, _INF, True))
        score: cython.longlong = 0
        depth: cython.longlong
        slot: cython.Py_ssize_t
        for depth in range(1, MAX_PLY + 1):
            self.horizon = 0
            score = self._search(0, depth, -_INF, _INF, True)
            slot = self._find(0)
            if slot >= 0:
                self.root_best = self.tmove[slot]
            if self.horizon == 0:
                return int(score)
        raise SearchRefused(f"no exact value within {MAX_PLY} plies")

    def best_found(self) -> Any:
        """The best root move of the deepest completed iteration, as (packed root, move record), or None."""
        if self.root_best < 0:
            return None
        return (np.asarray(self.states[0]).copy(), np.asarray(self.moves[0, self.root_best]).copy())

    def line(self, score: int) -> list[Any]:
        """A principal variation keeping ``score`` from the root: move records, with the packed state
        before each."""
        found: list[Any] = []
        s: cython.longlong = score
        ply: cython.Py_ssize_t = 0
        me: cython.Py_ssize_t
        count: cython.Py_ssize_t
        first: cython.Py_ssize_t
        slot: cython.Py_ssize_t
        k: cython.Py_ssize_t
        i: cython.Py_ssize_t
        chosen: cython.Py_ssize_t
        while ply < MAX_PLY:
            if ply >= self.plies:
                self._grow_plies(2 * self.plies)
            state = self.states[ply]
            if self.game.terminal(state, self.returns):
                break
            me = self.game.to_move(state)
            if me < 0:
                break
            self.game.pack(state, self.keys[ply])
            self.hashes[ply] = self._hash(ply)
            slot = self._find(ply)
            first = self.tmove[slot] if slot >= 0 else -1
            count = self.game.legal(state, self.moves[ply])
            self._sort_rest(ply, count, self._front(ply, count, first, False), self._hinted(ply, count), False, me)
            chosen = -1
            for k in range(count):
                i = self.order[ply, k]
                self.game.apply(state, self.moves[ply, i], self.states[ply + 1])
                if self._child(ply + 1, _PROVEN, s - 1, s, me, False) >= s:
                    chosen = i
                    break
            if chosen < 0:
                break  # cannot happen in an exhaustive search; stop the line rather than guess
            found.append((np.asarray(state).copy(), np.asarray(self.moves[ply, chosen]).copy()))
            self.game.apply(state, self.moves[ply, chosen], self.states[ply + 1])
            if self.game.terminal(self.states[ply + 1], self.returns):
                break
            s = _sooner(s) if self.game.to_move(self.states[ply + 1]) == me else -_sooner(s)
            ply += 1
        return found


#: Memory the table may take by default (bytes): 2**k entries of the key and four words.
TABLE_BYTES = 64 << 20


def table_bits_for(game: PackedGame, budget: int = TABLE_BYTES) -> int:
    """The largest ``k`` (at most 20) whose ``2**k``-entry table of ``game``'s keys fits in ``budget`` bytes."""
    return table_bits_within(int(game.key_width) + 4, budget)


def solve(game: PackedGame, state: Any, *, lo: int = -1, hi: int = 1, table_bits: int | None = None,
          max_nodes: int | None = None, expired: Callable[[], bool] | None = None,
          progress: Callable[[int], None] | None = None, progress_every: int = 10_000,
          ordering: bool = True, order: MoveOrder | None = None) -> dict[str, Any]:
    """The exhaustive negamax of the packed decision ``state`` of ``game`` (see the module docstring).

    Returns the root player's ``value`` (an int), the ``distance`` to the result in plies (of a win or a
    loss; for a draw the length of the principal variation), ``pv`` (a list of (packed state, move record)
    pairs), ``nodes`` (states visited, terminal ones included), the table's ``probes``/``hits``/``stores``
    and the wall ``seconds``. With a limit (``max_nodes`` or ``expired``) the search deepens iteratively, as
    the Python search does, so that at the limit it returns ``stopped`` (the limit's name), ``best_found``
    (the deepest completed iteration's best root move as (packed root, move record), or None), the
    counters and the seconds. ``order`` is the move-ordering hint (by default the engine's ``move_order()``
    if it has one; :func:`~stratagem.core.packed_order.order_for` finds a game's); ``ordering=False`` leaves
    any out (for measurements: values and distances never depend on it). Raises :class:`SearchRefused` at a
    position it does not handle, ``ValueError`` for bad bounds.
    """
    checked_bounds(lo, hi)
    table_bits = checked_table_bits(table_bits_for(game) if table_bits is None else table_bits)
    started = time.perf_counter()
    search = _Negamax(game, int(lo), int(hi), table_bits, -1 if max_nodes is None else max_nodes, expired, progress,
                      progress_every, ordering, order)
    try:
        try:
            score = search.solve(state, max_nodes is not None or expired is not None)
            line = search.line(score)  # re-searches children: its nodes count against the same limits
        except SearchStopped as stop:
            nodes, probes, hits, stores = search.counters()
            return {"stopped": str(stop), "best_found": search.best_found(), "nodes": nodes, "probes": probes,
                    "hits": hits, "stores": stores, "seconds": time.perf_counter() - started}
    finally:
        search.release()
    scale = 1 << 24
    value = (score + scale // 2) // scale
    t = score - value * scale
    nodes, probes, hits, stores = search.counters()
    return {"value": value, "distance": abs(t) if value != 0 else len(line), "pv": line, "nodes": nodes,
            "probes": probes, "hits": hits, "stores": stores, "seconds": time.perf_counter() - started}


__all__ = ["MAX_PLY", "TABLE_BYTES", "SearchRefused", "SearchStopped", "solve", "table_bits_for"]

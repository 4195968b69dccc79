"""max^n over a compiled engine (a ``PackedGame``), in C, with exact values.

The exhaustive search of :func:`stratagem.solvers.multiplayer.maxn` (``depth=None``) on a game's packed
states: every player maximises their own return (Luckhardt and Irani 1986), chance nodes average the
vectors, ties between moves go to the first in the engine's legal order (the compiled engines list moves
in the reference engine's order, which the tests hold them to: the tie rule is part of the assumption).
No pruning (general-sum returns give no safe bound); the table only shares transpositions.

* **Exact vectors, integer weights.** A value vector is ``players`` numerators over one common
  denominator, in lowest terms, so the vector is the Python search's exactly; a chance node's is
  ``sum(w_i * v_i) / sum(w_i)`` with the outcomes' integer weights. A product beyond 62 bits raises
  :class:`SearchRefused` (the caller then searches in Python).
* **The table**: 2-way buckets keyed by the engine's full key (a collision is never mistaken for a hit;
  the keys sit in an arena of rows a rehash does not move), growing from 4,096 entries up to
  ``2**table_bits``; an entry is the position's whole vector.
* **Repetition**: a position repeated on the current line raises, as the Python search does.
* **Limits**: ``max_nodes`` and ``expired()`` (looked at every 1,024 nodes) stop the search, which then
  claims nothing; finding the line re-searches every move along it, which counts against them too, so a
  limit reached there stops the call the same way (it used to escape as :class:`SearchStopped`).

The line is found afterwards as the Python search finds it: from the root, at each decision node the
first move whose vector is best for the player to move, up to the first chance node or the end. A
simultaneous node raises :class:`SearchRefused`. This module is a kernel (compiled at install, see
``setup.py``). The limits, the table's arena lookup and the repetition check are
:class:`~stratagem.solvers.packed_exact.ExactSearch`'s, the base this search shares with alpha-beta and
expectiminimax; the vectors, the table's entries and the key hash (a chained one) are this module's.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import cython
import numpy as np

if cython.compiled:
    from cython.cimports.stratagem.core.packed import CHANCE, PackedGame
    from cython.cimports.stratagem.solvers.packed_exact import ExactSearch
else:
    from stratagem.core.packed import CHANCE, PackedGame
    from stratagem.solvers.packed_exact import ExactSearch

from stratagem.solvers.packed_exact import SearchRefused, SearchStopped, checked_table_bits, table_bits_within

#: Factors below this magnitude multiply within 62 bits without a check.
_SMALL = cython.declare(cython.longlong, 1 << 31)
#: Largest magnitude a numerator or denominator may take.
_LIMIT = cython.declare(cython.longlong, 1 << 62)
#: The table hash's constants and the 64-bit mask (see packed_exact; max^n's hash is its own, chained).
_SEED = cython.declare(cython.ulonglong, 0x9E3779B97F4A7C15)
_MULT = cython.declare(cython.ulonglong, 0xBF58476D1CE4E5B9)
_MASK = cython.declare(cython.ulonglong, 0xFFFFFFFFFFFFFFFF)
#: Every 64-bit word read from an unsigned array (``hashes``, ``thash``, ``mult``) goes through
#: ``cython.cast(cython.ulonglong, ...)`` before arithmetic: a no-op compiled, a Python int when the kernel
#: runs as plain Python. There the read is an ``np.uint64``, which numpy 1.x combines with a Python int
#: as float64 (``&`` and ``>>`` raise TypeError); numpy 2 keeps uint64, so only numpy 1 failed.
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
    s: cython.longlong = a + b
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


@cython.cclass
class _MaxN(ExactSearch):  # type: ignore[misc]
    """The search's state (:class:`~stratagem.solvers.packed_exact.ExactSearch`'s, without move ordering,
    and the vectors). Row ``ply`` of ``vec`` is the vector of the position at ``ply`` (numerators, then the
    denominator) once searched."""

    players: cython.Py_ssize_t
    weights: cython.longlong[:, ::1]
    vec: cython.longlong[:, ::1]
    acc: cython.longlong[:, ::1]
    tfree: cython.longlong[::1]
    nfree: cython.Py_ssize_t
    used: cython.Py_ssize_t
    tvec: cython.longlong[:, ::1]

    def __init__(self, game: PackedGame, table_bits: int, max_nodes: int, expired: Any, progress: Any,
                 progress_every: int) -> None:
        ExactSearch.__init__(self, game, table_bits, max_nodes, expired, progress, progress_every)
        self.players = game.players
        size = 1 << self.bits
        self._grow_plies(16)
        self.tkeys = np.empty((1 << table_bits, self.key_width), np.int64)
        self.tfree = np.empty(1 << table_bits, np.int64)
        self.nfree = 0
        self.used = 0
        self.tidx = np.zeros(size, np.int64)
        self.thash = np.zeros(size, np.uint64)
        self.tflag = np.zeros(size, np.int64)
        self.tvec = np.zeros((size, self.players + 1), np.int64)

    def _grow_plies(self, plies: int) -> None:
        """Scratch for ``plies`` plies (at most :data:`MAX_PLY` + 2), what the shallower plies hold kept."""
        plies = min(plies, MAX_PLY + 2)
        moves = int(self.game.max_moves)
        shapes = {"states": (plies + 1, self.width), "moves": (plies, moves, self.game.move_width),
                  "weights": (plies, moves), "keys": (plies + 1, self.key_width), "hashes": (plies + 1,),
                  "vec": (plies + 1, self.players + 1), "acc": (plies + 1, self.players + 1)}
        old = {} if not self.plies else {
            "states": self.states, "moves": self.moves, "weights": self.weights, "keys": self.keys,
            "hashes": self.hashes, "vec": self.vec, "acc": self.acc}
        fresh = self._regrow(plies, shapes, old, tuple(shapes))  # every array zeroed
        self.weights, self.vec, self.acc = fresh["weights"], fresh["vec"], fresh["acc"]

    # -- the table --------------------------------------------------------------------------------------

    @cython.cfunc
    @cython.exceptval(-1, check=False)
    def _key(self, ply: cython.Py_ssize_t) -> cython.int:
        """Key and hash of the position at ``ply`` (scratch grown as lines go deeper)."""
        if ply + 2 >= self.plies:
            if ply >= MAX_PLY:
                raise SearchRefused(f"a line longer than {MAX_PLY} plies")
            self._grow_plies(2 * self.plies)
        self.game.pack(self.states[ply], self.keys[ply])
        h: cython.ulonglong = _SEED
        w: cython.Py_ssize_t
        for w in range(self.key_width):
            h = ((h ^ (cython.cast(cython.longlong, self.keys[ply, w]) & _MASK)) * _MULT) & _MASK
            h ^= h >> 29
        h = ((h ^ (h >> 32)) * _MULT) & _MASK
        self.hashes[ply] = h ^ (h >> 29)
        return 0

    @cython.cfunc
    @cython.exceptval(-1, check=False)
    def _store(self, ply: cython.Py_ssize_t) -> cython.int:
        """Keep the vector of ``ply`` in the table."""
        slot: cython.Py_ssize_t = self._find(ply)
        base: cython.Py_ssize_t
        w: cython.Py_ssize_t
        row: cython.Py_ssize_t
        if slot < 0:
            if 2 * self.entries >= (1 << self.bits) and self.bits < self.max_bits:
                self._rehash()
            base = cython.cast(cython.Py_ssize_t, cython.cast(cython.ulonglong, self.hashes[ply]) & self.mask)
            slot = base if self.tflag[base] == 0 else base ^ 1
            if self.tflag[slot] != 0:
                row = self.tidx[slot]  # a full bucket: the entry given up leaves its row to this one
            else:
                self.entries += 1
                if self.nfree > 0:
                    self.nfree -= 1
                    row = self.tfree[self.nfree]
                else:
                    row = self.used
                    self.used += 1
            self.tidx[slot] = row
            for w in range(self.key_width):
                self.tkeys[row, w] = self.keys[ply, w]
            self.thash[slot] = self.hashes[ply]
            self.tflag[slot] = 1
        for w in range(self.players + 1):
            self.tvec[slot, w] = self.vec[ply, w]
        self.stores += 1
        return 0

    def _rehash(self) -> None:
        """Double the table (up to ``2**max_bits`` entries); an entry meeting a full bucket is dropped."""
        size: cython.Py_ssize_t = 1 << (self.bits + 1)
        mask: cython.ulonglong = size - 1
        rows: cython.longlong[::1] = np.zeros(size, np.int64)
        hashes: cython.ulonglong[::1] = np.zeros(size, np.uint64)
        flags: cython.longlong[::1] = np.zeros(size, np.int64)
        vecs: cython.longlong[:, ::1] = np.zeros((size, self.players + 1), np.int64)
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
            else:
                self.tfree[self.nfree] = self.tidx[old]
                self.nfree += 1
                continue
            rows[slot] = self.tidx[old]
            hashes[slot] = self.thash[old]
            flags[slot] = 1
            for w in range(self.players + 1):
                vecs[slot, w] = self.tvec[old, w]
            entries += 1
        self.tidx, self.thash, self.tflag, self.tvec = rows, hashes, flags, vecs
        self.bits += 1
        self.mask = mask
        self.entries = entries

    # -- the search -------------------------------------------------------------------------------------

    @cython.cfunc
    @cython.exceptval(-9)
    def _better(self, ply: cython.Py_ssize_t, mover: cython.Py_ssize_t) -> cython.int:
        """Whether the vector at ``ply + 1`` is better for ``mover`` than the best so far (``acc[ply]``)."""
        p: cython.Py_ssize_t = self.players
        x: cython.longlong = _mul(self.vec[ply + 1, mover], self.acc[ply, p])
        y: cython.longlong = _mul(self.acc[ply, mover], self.vec[ply + 1, p])
        return 1 if x > y else 0

    @cython.cfunc
    @cython.exceptval(-1)
    def _vector(self, ply: cython.Py_ssize_t) -> cython.int:
        """The max^n vector of the position at ``ply`` into ``vec[ply]``."""
        self._tick()
        state: cython.longlong[::1] = self.states[ply]
        p: cython.Py_ssize_t = self.players
        q: cython.Py_ssize_t
        if self.game.terminal(state, self.returns):
            for q in range(p):
                self.vec[ply, q] = self.returns[q]
            self.vec[ply, p] = 1
            return 0
        self._key(ply)
        self.probes += 1
        slot: cython.Py_ssize_t = self._find(ply)
        if slot >= 0:
            self.hits += 1
            for q in range(p + 1):
                self.vec[ply, q] = self.tvec[slot, q]
            return 0
        self._repeats(ply)
        mover: cython.Py_ssize_t = self.game.to_move(state)
        count: cython.Py_ssize_t
        i: cython.Py_ssize_t
        if mover == CHANCE:
            count = self.game.chance(state, self.moves[ply], self.weights[ply])
            if count <= 0:
                raise SearchRefused("a chance node without outcomes")
            self._average(ply, count)
        elif mover < 0:
            raise SearchRefused("max^n met a simultaneous node; use the matrix solver (lp)")
        else:
            count = self.game.legal(state, self.moves[ply])
            if count <= 0:
                raise SearchRefused("a position that is not terminal has no legal move")
            for i in range(count):
                self.game.apply(state, self.moves[ply, i], self.states[ply + 1])
                self._vector(ply + 1)
                if i == 0 or self._better(ply, mover):  # ties go to the first move
                    for q in range(p + 1):
                        self.acc[ply, q] = self.vec[ply + 1, q]
            for q in range(p + 1):
                self.vec[ply, q] = self.acc[ply, q]
        self._store(ply)
        return 0

    @cython.cfunc
    @cython.exceptval(-1)
    def _average(self, ply: cython.Py_ssize_t, count: cython.Py_ssize_t) -> cython.int:
        """The weighted mean of the outcomes' vectors into ``vec[ply]``: ``acc[ply]`` holds the sum so far
        (numerators over a common denominator), each outcome's ``w * vec`` added over the least common
        denominator and the sum put in lowest terms."""
        state: cython.longlong[::1] = self.states[ply]
        p: cython.Py_ssize_t = self.players
        q: cython.Py_ssize_t
        i: cython.Py_ssize_t
        total: cython.longlong = 0
        d: cython.longlong
        e: cython.longlong
        g: cython.longlong
        wi: cython.longlong
        for q in range(p):
            self.acc[ply, q] = 0
        self.acc[ply, p] = 1
        for i in range(count):
            wi = self.weights[ply, i]
            total = _plus(total, wi)
            self.game.apply(state, self.moves[ply, i], self.states[ply + 1])
            self._vector(ply + 1)
            d = self.acc[ply, p]
            e = self.vec[ply + 1, p]
            g = _gcd(d, e)
            for q in range(p):
                self.acc[ply, q] = _plus(_mul(self.acc[ply, q], e // g), _mul(_mul(wi, self.vec[ply + 1, q]), d // g))
            self.acc[ply, p] = _mul(d // g, e)
            self._reduce(ply)
        self.acc[ply, p] = _mul(self.acc[ply, p], total)
        self._reduce(ply)
        for q in range(p + 1):
            self.vec[ply, q] = self.acc[ply, q]
        return 0

    @cython.cfunc
    @cython.exceptval(-1, check=False)
    def _reduce(self, ply: cython.Py_ssize_t) -> cython.int:
        """``acc[ply]`` in lowest terms."""
        p: cython.Py_ssize_t = self.players
        q: cython.Py_ssize_t
        g: cython.longlong = self.acc[ply, p]
        for q in range(p):
            g = _gcd(g, self.acc[ply, q])
        if g > 1:
            for q in range(p + 1):
                self.acc[ply, q] = self.acc[ply, q] // g
        return 0

    # -- what Python calls ------------------------------------------------------------------------------

    def solve(self, root: Any) -> list[Fraction]:
        """The root's max^n vector."""
        np.asarray(self.states)[0] = np.asarray(root, np.int64)
        self._vector(0)
        return self._fractions(0)

    def _fractions(self, ply: int) -> list[Fraction]:
        p = int(self.players)
        return [Fraction(int(self.vec[ply, q]), int(self.vec[ply, p])) for q in range(p)]

    def line(self) -> list[Any]:
        """The line from the root: at each decision node the first move best for its player, up to the
        first chance node or the end (move records, with the packed state before each)."""
        found: list[Any] = []
        ply: cython.Py_ssize_t = 0
        i: cython.Py_ssize_t
        q: cython.Py_ssize_t
        chosen: cython.Py_ssize_t
        count: cython.Py_ssize_t
        mover: cython.Py_ssize_t
        while ply < MAX_PLY:
            state = self.states[ply]
            if self.game.terminal(state, self.returns):
                break
            mover = self.game.to_move(state)
            if mover < 0:
                break
            self._key(ply)
            count = self.game.legal(state, self.moves[ply])
            chosen = -1
            for i in range(count):
                self.game.apply(state, self.moves[ply, i], self.states[ply + 1])
                self._vector(ply + 1)
                if i == 0 or self._better(ply, mover):
                    chosen = i
                    for q in range(self.players + 1):
                        self.acc[ply, q] = self.vec[ply + 1, q]
            if chosen < 0:
                break
            found.append((np.asarray(state).copy(), np.asarray(self.moves[ply, chosen]).copy()))
            self.game.apply(state, self.moves[ply, chosen], self.states[ply + 1])
            ply += 1
        return found


#: Memory the table may take by default (bytes).
TABLE_BYTES = 64 << 20


def table_bits_for(game: PackedGame, budget: int = TABLE_BYTES) -> int:
    """The largest ``k`` (at most 20) whose ``2**k``-entry table of ``game``'s keys fits in ``budget`` bytes."""
    return table_bits_within(int(game.key_width) + int(game.players) + 5, budget)


def solve(game: PackedGame, state: Any, *, table_bits: int | None = None, max_nodes: int | None = None,
          expired: Callable[[], bool] | None = None, progress: Callable[[int], None] | None = None,
          progress_every: int = 10_000) -> dict[str, Any]:
    """The exhaustive max^n vector of the packed ``state`` of ``game`` (see the module docstring).

    Returns ``vector`` (a list of ``Fraction``, one per player), ``pv`` (a list of (packed state, move
    record) pairs), ``nodes``, the table's ``probes``/``hits``/``stores`` and the wall ``seconds``; at a
    limit, ``stopped`` (the limit's name) and the counters instead. Raises :class:`SearchRefused` at what it
    does not handle, ``ValueError`` for bad arguments.
    """
    table_bits = checked_table_bits(table_bits_for(game) if table_bits is None else table_bits)
    started = time.perf_counter()
    search = _MaxN(game, table_bits, -1 if max_nodes is None else max_nodes, expired, progress, progress_every)
    try:
        vector = search.solve(state)
        line = search.line()  # re-searches every move along it: its nodes count against the same limits
    except SearchStopped as stop:
        nodes, probes, hits, stores = search.counters()
        return {"stopped": str(stop), "nodes": nodes, "probes": probes, "hits": hits, "stores": stores,
                "seconds": time.perf_counter() - started}
    nodes, probes, hits, stores = search.counters()
    return {"vector": vector, "pv": line, "nodes": nodes, "probes": probes, "hits": hits, "stores": stores,
            "seconds": time.perf_counter() - started}


__all__ = ["MAX_PLY", "TABLE_BYTES", "SearchRefused", "SearchStopped", "solve", "table_bits_for"]

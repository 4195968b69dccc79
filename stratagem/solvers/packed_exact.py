"""What the exact searches over a compiled engine share: their limits, table keys, repetition check and move
ordering, in C.

The three exhaustive searches on a game's packed states -- alpha-beta (:mod:`.packed_alphabeta`),
expectiminimax and paranoid (:mod:`.packed_expectimax`) and max^n (:mod:`.packed_maxn`) -- each keep a
search state of one kind: the game, per-ply scratch (the states, move lists and keys of the current line),
a transposition table in two-way buckets keyed by the engine's full key, node, probe, hit and store
counters, and the same limits. :class:`ExactSearch` is that state and the code that is the same in all of
them; each search subclasses it and keeps only what is its own (its scores or fractions, what a table entry
holds and which entry a full bucket gives up, its node rules).

* **Limits** (:meth:`ExactSearch._tick`): ``max_nodes`` and an ``expired()`` callable, looked at every
  1,024 nodes, raise :class:`SearchStopped`; a ``progress(nodes)`` callable is called every
  ``progress_every`` nodes.
* **Table keys** (:meth:`ExactSearch._hash`): the engine's key words (``PackedGame.pack``), each times its
  own multiplier (:func:`_multipliers`), summed and mixed; keys are compared whole, so a hash collision
  costs a probe, never a wrong hit. :meth:`ExactSearch._find` finds a key among the rows of an arena that a
  rehash does not move (expectiminimax's and max^n's tables; alpha-beta keeps its keys in the slots and
  finds them itself).
* **Repetition** (:meth:`ExactSearch._repeats`): a position repeated on the current line raises
  :class:`SearchRefused` (the minimax searches need games without cycles).
* **Move ordering** (alpha-beta and expectiminimax): the engine's ordering hint
  (:class:`~stratagem.core.packed_order.MoveOrder`, :meth:`ExactSearch._hinted`), then the history
  heuristic (2**14 counters of refutations indexed by a hash of the player and the move,
  :meth:`ExactSearch._slot`), then the legal order (:meth:`ExactSearch._sort_rest`).

Why a base class in its own kernel and not one copy per search: the copies differed only in comments and in
max^n's bounds checks (its lookup and repetition check now skip them, as the others' did, for the reasons
the class docstring gives); a ``cdef`` class declared in ``packed_exact.pxd`` is subclassed by each
search's own ``cclass``, and its C methods are called through the same virtual table as the searches' own
(the searches' speed was measured the same within the noise, stop 70). The fraction
helpers of expectiminimax and max^n (``_mul``, ``_plus``, ``_gcd``) stay in each module: they are inlined
into the searches' loops, which a call into another module would not be. This module is a kernel (compiled
at install, see ``setup.py``).
"""

from __future__ import annotations

from typing import Any

import cython
import numpy as np

from stratagem.core.scratch import release, scratch

if cython.compiled:
    from cython.cimports.stratagem.core.packed import PackedGame
    from cython.cimports.stratagem.core.packed_order import MoveOrder
else:
    from stratagem.core.packed import PackedGame
    from stratagem.core.packed_order import MoveOrder

#: Nodes between two looks at the deadline.
_CLOCK_EVERY = cython.declare(cython.longlong, 1024)
#: The table hash's constants (the golden ratio's and splitmix64's multipliers), and the mask that keeps
#: the interpreted arithmetic to 64 bits as C's is.
_SEED = cython.declare(cython.ulonglong, 0x9E3779B97F4A7C15)
_MULT = cython.declare(cython.ulonglong, 0xBF58476D1CE4E5B9)
_MASK = cython.declare(cython.ulonglong, 0xFFFFFFFFFFFFFFFF)
#: Every 64-bit word read from an unsigned array (``hashes``, ``thash``, ``mult``) goes through
#: ``cython.cast(cython.ulonglong, ...)`` before arithmetic: a no-op compiled, a Python int when the kernel
#: runs as plain Python. There the read is an ``np.uint64``, which numpy 1.x combines with a Python int
#: as float64 (``&`` and ``>>`` raise TypeError); numpy 2 keeps uint64, so only numpy 1 failed.
#: The history table: 2**bits counters of refutations, indexed by a hash of the player and the move.
HISTORY_BITS = 14
_HISTORY_MASK = cython.declare(cython.longlong, (1 << 14) - 1)


#: The table hash's multipliers, one per key word, by key width (made once per width).
_MULTIPLIERS: dict[int, Any] = {}


def _multipliers(width: int) -> Any:
    """``width`` odd 64-bit multipliers from splitmix64's sequence: the table hash weighs each key word by its
    own, so that the products are independent of one another (a chained hash waits on each multiply)."""
    found = _MULTIPLIERS.get(width)
    if found is None:
        mask = (1 << 64) - 1
        x = 0x9E3779B97F4A7C15
        values = []
        for _ in range(width):
            x = (x + 0x9E3779B97F4A7C15) & mask
            z = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & mask
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & mask
            values.append((z ^ (z >> 31)) | 1)
        found = _MULTIPLIERS[width] = np.array(values, np.uint64)
    return found


class SearchStopped(Exception):
    """A node or time limit stopped the search: nothing is claimed."""


class SearchRefused(Exception):
    """The search met a position it does not handle: chance (alpha-beta) or simultaneous moves, a
    repetition, a return outside the bounds, no legal move in a non-terminal state, a line longer than the
    search follows, or a fraction beyond 62 bits (expectiminimax, max^n)."""


def table_bits_within(entry_words: int, budget: int) -> int:
    """The largest ``k`` (at most 20, at least 10) whose ``2**k``-entry table of ``entry_words`` 64-bit words
    an entry fits in ``budget`` bytes (each search's ``table_bits_for`` counts its own entry's words)."""
    entry = entry_words * 8
    bits = 20
    while bits > 10 and (entry << bits) > budget:
        bits -= 1
    return bits


def checked_table_bits(table_bits: int) -> int:
    """``table_bits`` if it is a size the searches take (1 to 30), else ``ValueError``."""
    if not 1 <= table_bits <= 30:
        raise ValueError(f"table_bits must be between 1 and 30, not {table_bits}")
    return table_bits


def checked_bounds(lo: int, hi: int) -> None:
    """``ValueError`` unless the bounds of the returns are integers with ``lo < hi``."""
    if int(lo) != lo or int(hi) != hi or not lo < hi:
        raise ValueError(f"the bounds of the returns must be integers with lo < hi, not [{lo}, {hi}]")


@cython.cclass
class ExactSearch:
    """The state every exact search over ``game`` keeps, and the C methods they share (the module
    docstring). A subclass sets up its own per-ply scratch (``_grow_plies``, through :meth:`_regrow`) and its
    table's payload, and uses what it needs of the rest: max^n has no move ordering (``hint`` None, the
    ordering's arrays unset), alpha-beta its own table lookup (no arena: ``tidx`` unset).

    Indexes left unchecked (the methods marked ``boundscheck(False)``): a ply is below the scratch's plies
    (grown before a deeper ply is entered), a key word below the key width (every key array's second
    dimension), a table slot is the hash masked to the table's size (or its bucket partner), an arena row
    below the rows allocated, a move index below the count the engine wrote (at most ``max_moves``, the
    scratch's rows) and a history slot is masked.
    """

    game: PackedGame
    width: cython.Py_ssize_t
    key_width: cython.Py_ssize_t
    move_width: cython.Py_ssize_t
    nodes: cython.longlong
    max_nodes: cython.longlong
    expired: Any
    progress: Any
    progress_every: cython.longlong
    mask: cython.ulonglong
    bits: cython.Py_ssize_t
    max_bits: cython.Py_ssize_t
    entries: cython.longlong
    probes: cython.longlong
    hits: cython.longlong
    stores: cython.longlong
    plies: cython.Py_ssize_t
    owned: dict[str, Any]
    returns: cython.longlong[::1]
    states: cython.longlong[:, ::1]
    moves: cython.longlong[:, :, ::1]
    keys: cython.longlong[:, ::1]
    hashes: cython.ulonglong[::1]
    mult: cython.ulonglong[::1]
    tkeys: cython.longlong[:, ::1]
    tidx: cython.longlong[::1]
    thash: cython.ulonglong[::1]
    tflag: cython.longlong[::1]
    hint: MoveOrder
    history: cython.longlong[::1]
    order: cython.longlong[:, ::1]
    score: cython.longlong[:, ::1]
    hkeys: cython.longlong[:, ::1]

    def __init__(self, game: PackedGame, table_bits: int, max_nodes: int, expired: Any, progress: Any,
                 progress_every: int) -> None:
        """The shared state of a search of ``game`` with a table of up to ``2**table_bits`` entries (it
        starts at 4,096 and doubles when half full: zeroing a big one costs milliseconds) and the limits;
        the subclass then makes its scratch and table arrays."""
        self.game = game
        self.width = game.width
        self.key_width = game.key_width
        self.move_width = game.move_width
        self.nodes = 0
        self.max_nodes = max_nodes
        self.expired = expired
        self.progress = progress
        self.progress_every = max(1, progress_every)
        self.probes = 0
        self.hits = 0
        self.stores = 0
        self.max_bits = table_bits
        self.bits = min(table_bits, 12)
        self.entries = 0
        self.mask = (1 << self.bits) - 1
        self.plies = 0
        self.owned = {}
        self.returns = np.zeros(game.players, np.int64)
        self.mult = _multipliers(int(game.key_width))
        self.hint = None

    def _take_order(self, ordering: bool, order: Any) -> None:
        """The move-ordering hint: ``order``, else the engine's own (``move_order()``) if it has one; none
        when ``ordering`` is False. The history table starts empty."""
        hint = getattr(self.game, "move_order", None) if ordering and order is None else None
        self.hint = order if ordering and order is not None else hint() if hint is not None else None
        self.history = np.zeros(1 << HISTORY_BITS, np.int64)

    def _regrow(self, plies: int, shapes: dict[str, tuple[int, ...]], old: dict[str, Any],
                zeroed: tuple[str, ...] = ()) -> dict[str, Any]:
        """Scratch for ``plies`` plies: new arrays of ``shapes`` (``hashes`` unsigned, the rest ``int64``),
        each holding what its ``old`` array (the shallower plies) held: those named in ``zeroed`` zeroed and
        the search's own, the others unset (every row is written before it is read: zeroing the move lists
        of engines with room for thousands of moves took a tenth of a small search) and taken from and
        handed back to :mod:`~stratagem.core.scratch` (the old ones free for another search once copied).
        The shared arrays (``states``, ``moves``, ``keys``, ``hashes`` and, where there are, the ordering's
        ``order``, ``score`` and ``hkeys``) are set here; the search sets its own from the arrays returned."""
        fresh = {}
        for name, shape in shapes.items():
            dtype = np.uint64 if name == "hashes" else np.int64
            array = np.zeros(shape, dtype) if name in zeroed else scratch(shape, dtype)
            if name in old:
                kept = np.asarray(old[name])
                array[: kept.shape[0]] = kept
            fresh[name] = array
        release([self.owned[name] for name in old if name in self.owned])
        self.owned.update((name, a) for name, a in fresh.items() if name not in zeroed)
        self.states, self.moves = fresh["states"], fresh["moves"]
        self.keys, self.hashes = fresh["keys"], fresh["hashes"]
        if "order" in fresh:
            self.order, self.score, self.hkeys = fresh["order"], fresh["score"], fresh["hkeys"]
        self.plies = plies
        return fresh

    # -- counters and limits ----------------------------------------------------------------------------

    @cython.cfunc
    @cython.exceptval(-1, check=False)
    def _tick(self) -> cython.int:
        """Count a node; stop at the node limit, at the deadline (looked at every 1,024 nodes); report
        progress."""
        self.nodes += 1
        if self.max_nodes >= 0 and self.nodes > self.max_nodes:
            raise SearchStopped("node limit")
        if self.expired is not None and self.nodes % _CLOCK_EVERY == 0 and self.expired():
            raise SearchStopped("time limit")
        if self.progress is not None and self.nodes % self.progress_every == 0:
            self.progress(self.nodes)
        return 0

    # -- the table --------------------------------------------------------------------------------------

    @cython.cfunc
    @cython.exceptval(check=False)
    @cython.boundscheck(False)  # indexes argued in the class docstring
    @cython.wraparound(False)
    def _hash(self, ply: cython.Py_ssize_t) -> cython.ulonglong:
        """The table's hash of the key at ``ply``: each word times its own multiplier, summed (the products
        do not wait on one another, as the engine's chained splitmix64 does: a tenth of a Card Clash search,
        a fifth on Stratatak's 210-word keys), then mixed so that the low bits (the bucket) depend on every
        word. Keys are compared whole, so a collision costs only a probe."""
        h: cython.ulonglong = _SEED
        w: cython.Py_ssize_t
        for w in range(self.key_width):
            h = (h + (cython.cast(cython.longlong, self.keys[ply, w]) & _MASK)
                 * cython.cast(cython.ulonglong, self.mult[w])) & _MASK
        h = ((h ^ (h >> 32)) * _MULT) & _MASK
        return ((h ^ (h >> 29)) * _MULT) & _MASK

    @cython.cfunc
    @cython.exceptval(-2, check=False)
    @cython.boundscheck(False)  # indexes argued in the class docstring
    @cython.wraparound(False)
    def _find(self, ply: cython.Py_ssize_t) -> cython.Py_ssize_t:
        """The table slot holding the position of ``ply`` (its key and hash computed), or -1: the slot's
        key is row ``tidx[slot]`` of the arena ``tkeys``."""
        h: cython.ulonglong = cython.cast(cython.ulonglong, self.hashes[ply])
        base: cython.Py_ssize_t = cython.cast(cython.Py_ssize_t, h & self.mask)
        slot: cython.Py_ssize_t
        k: cython.Py_ssize_t
        w: cython.Py_ssize_t
        row: cython.Py_ssize_t
        same: cython.bint
        for k in range(2):
            slot = base ^ k
            if self.tflag[slot] == 0 or self.thash[slot] != h:
                continue
            row = self.tidx[slot]
            same = True
            for w in range(self.key_width):
                if self.tkeys[row, w] != self.keys[ply, w]:
                    same = False
                    break
            if same:
                return slot
        return -1

    # -- the line ---------------------------------------------------------------------------------------

    @cython.cfunc
    @cython.exceptval(-1, check=False)
    @cython.boundscheck(False)  # indexes argued in the class docstring
    @cython.wraparound(False)
    def _repeats(self, ply: cython.Py_ssize_t) -> cython.int:
        """Refuse the position at ``ply`` (its key computed) if it is on the line above it."""
        h: cython.ulonglong = cython.cast(cython.ulonglong, self.hashes[ply])
        i: cython.Py_ssize_t
        w: cython.Py_ssize_t
        same: cython.bint
        for i in range(ply):
            if self.hashes[i] != h:
                continue
            same = True
            for w in range(self.key_width):
                if self.keys[i, w] != self.keys[ply, w]:
                    same = False
                    break
            if same:
                raise SearchRefused("a position repeats on one line; the minimax searches need a game without cycles")
        return 0

    # -- move ordering ----------------------------------------------------------------------------------

    @cython.cfunc
    @cython.exceptval(-1)
    def _hinted(self, ply: cython.Py_ssize_t, count: cython.Py_ssize_t) -> cython.bint:
        """Whether the engine's ordering hint wrote keys for the moves at ``ply`` (into ``hkeys``)."""
        if self.hint is None:
            return False
        return self.hint.keys(self.states[ply], self.moves[ply], count, self.hkeys[ply]) != 0

    @cython.cfunc
    @cython.exceptval(check=False)
    @cython.boundscheck(False)  # indexes argued in the class docstring
    @cython.wraparound(False)
    def _slot(self, ply: cython.Py_ssize_t, i: cython.Py_ssize_t, mover: cython.Py_ssize_t) -> cython.longlong:
        """The history slot of move ``i`` at ``ply`` for its player ``mover``: a hash of both, masked."""
        w: cython.Py_ssize_t
        h: cython.ulonglong = (_SEED + cython.cast(cython.longlong, mover)) & _MASK
        for w in range(self.move_width):
            h = ((h ^ (cython.cast(cython.longlong, self.moves[ply, i, w]) & _MASK)) * _MULT) & _MASK
            h ^= h >> 29
        return cython.cast(cython.longlong, h & _HISTORY_MASK)

    @cython.cfunc
    @cython.exceptval(-1, check=False)
    @cython.boundscheck(False)  # indexes argued in the class docstring
    @cython.wraparound(False)
    def _sort_rest(self, ply: cython.Py_ssize_t, count: cython.Py_ssize_t, low: cython.Py_ssize_t,
                   hinted: cython.bint, history: cython.bint, mover: cython.Py_ssize_t) -> cython.int:
        """Sort the moves after the ``low`` front ones at ``ply`` (``order[ply]``) by the engine's hint
        (``hinted``: its keys ascending, as the reference's ``order_moves``), then (``history``) by how often
        the same move of the same player refuted a position anywhere in the search, then in the legal order
        (a stable insertion sort of a list in legal order). ``score[ply, i]`` keeps move ``i``'s history."""
        i: cython.Py_ssize_t
        j: cython.Py_ssize_t
        n: cython.Py_ssize_t
        v: cython.longlong = 0
        key: cython.longlong = 0
        other: cython.Py_ssize_t
        c: cython.int
        if history:
            for j in range(low, count):
                i = self.order[ply, j]
                self.score[ply, i] = self.history[self._slot(ply, i, mover)]
        if not hinted and not history:
            return 0
        for n in range(low + 1, count):
            i = self.order[ply, n]
            if history:
                v = self.score[ply, i]
            if hinted:
                key = self.hkeys[ply, i]
            j = n
            while j > low:
                other = self.order[ply, j - 1]
                c = 0
                if hinted and self.hkeys[ply, other] != key:
                    c = 1 if self.hkeys[ply, other] < key else -1
                if c == 0 and history and self.score[ply, other] != v:
                    c = 1 if self.score[ply, other] > v else -1
                if c >= 0:
                    break
                self.order[ply, j] = other
                j -= 1
            self.order[ply, j] = i
        return 0

    # -- what Python calls ------------------------------------------------------------------------------

    def counters(self) -> tuple[int, int, int, int]:
        """Nodes, table probes, hits and stores."""
        return int(self.nodes), int(self.probes), int(self.hits), int(self.stores)

    def release(self) -> None:
        """Hand the scratch arrays back for the next search (:func:`~stratagem.core.scratch.release`); the
        search is not used again."""
        release(list(self.owned.values()))
        self.owned = {}


__all__ = ["HISTORY_BITS", "ExactSearch", "SearchRefused", "SearchStopped", "checked_bounds",
           "checked_table_bits", "table_bits_within"]

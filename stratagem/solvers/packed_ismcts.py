"""Information-set searches over a compiled engine (:class:`~stratagem.core.packed.PackedGame`), in C:
SO-ISMCTS and the playouts of PIMC.

What a player cannot see is the game's rules' business: the caller draws the **determinisations** (full
states the player cannot tell from the real one) with the reference engine's ``sample_state`` and hands
them over packed, one row per iteration or sample, so the information model is exactly the reference's.
Everything after the draw runs here without Python objects:

* :class:`IsmctsSearch` is SO-ISMCTS as :func:`stratagem.solvers.mcts.ismcts`, plain (``guided=False``)
  or, given the game's :class:`~stratagem.core.packed_guide.Guide` and a widening, guided
  (``guided=True``): one tree over the observer's information sets, nodes reached by move records (the
  engine's record of a move is the same in every determinisation where the move exists, as the
  reference's notation is). At a decision node every listed move's child counts one more availability;
  plain, an untried move is taken at random, else the best ``(mean - low) / (high - low) + c * sqrt(ln
  avail / n)`` (first of equals, in the engine's order); guided, the determinisation's moves are taken in
  the guide's order (a stable sort of its keys) and, while fewer than ``widening * sqrt(N + 1)`` of them
  have a child (``N`` the node's visits), the first untried one is expanded, else the best by the same
  UCB among those with a child (first of equals in the guide's order): progressive widening, as the
  Python search, which then draws no random number at a decision node. A chance node draws an outcome
  by its integer weight; at a simultaneous node each player chooses from its own statistics (an untried
  move at random, else UCB over the node's visits), through the game's
  :class:`~stratagem.solvers.induction_kernel.SimultaneousPacked`. A new node is valued by a uniformly
  random playout, cut after ``rollout_limit`` plies and scored by the guide's evaluation (guided), else
  the game's ``evaluate`` where the engine has one (Stack Attack's), else the middle of the value range.
  Children are found through one open-addressing table keyed by (parent, record).
* :class:`Playouts` values moves for PIMC: every legal move of a determinisation by the mean of
  ``rollouts`` playouts, the stream restarted from the sample's seed for each move (common random
  numbers, as :func:`stratagem.solvers.pimc.pimc` does); at a simultaneous node, each of a player's own
  moves against the others' random moves.

Randomness is one splitmix64 stream per search (the same compiled or interpreted; not Python's
``random.Random``: the compiled and Python searches agree in distribution, not draw for draw). Guided,
with the evaluation at every new leaf (``rollout_limit`` 0) and no chance node in the tree, the search
draws nothing from it, so fed the reference's determinisations it visits as the reference does, move for
move (tested).
:mod:`stratagem.solvers.compiled_ismcts` reports the results in the reference engine's terms. This module
is a kernel (compiled at install, see ``setup.py``) and knows no game. The random stream and the playouts
are the base class's, :class:`~stratagem.solvers.packed_playout.PlayoutSearch` (shared with UCT and DUCT).
Why one module of over 600 lines: it is one concept, searches over sampled determinisations of a packed
game; ISMCTS and PIMC share the playouts, and the tree, its child table and the per-player statistics
call one another at C level, which Cython inlines only within one module.
"""

from __future__ import annotations

import math
import time
from typing import Any

import cython
import numpy as np

from stratagem.solvers.packed_playout import regrow

if cython.compiled:
    from cython.cimports.libc.math import log, sqrt
    from cython.cimports.stratagem.core.packed import CHANCE, SIMULTANEOUS, PackedGame
    from cython.cimports.stratagem.core.packed_guide import Guide
    from cython.cimports.stratagem.solvers.packed_playout import PlayoutSearch
else:
    from math import log, sqrt

    from stratagem.core.packed import CHANCE, SIMULTANEOUS, PackedGame
    from stratagem.core.packed_guide import Guide
    from stratagem.solvers.packed_playout import PlayoutSearch

#: splitmix64's constants (the child table's hash), and the mask that keeps interpreted arithmetic to 64 bits.
_GOLDEN = cython.declare(cython.ulonglong, 0x9E3779B97F4A7C15)
_MIX1 = cython.declare(cython.ulonglong, 0xBF58476D1CE4E5B9)
_MIX2 = cython.declare(cython.ulonglong, 0x94D049BB133111EB)
_MASK = cython.declare(cython.ulonglong, 0xFFFFFFFFFFFFFFFF)
_CLOCK_EVERY = cython.declare(cython.Py_ssize_t, 16)
_NEVER = cython.declare(cython.double, -math.inf)


class SearchStopped(ValueError):
    """The search met a state it cannot handle (a simultaneous node without the game's player moves, no
    legal move, no chance outcome)."""


#: What a search that meets a simultaneous node without the engine's player moves says.
_REFUSAL = "a simultaneous node, and the engine lists no player's own moves"


@cython.cfunc
@cython.exceptval(check=False)
def _mix(h: cython.ulonglong, x: cython.ulonglong) -> cython.ulonglong:
    """``h`` with the word ``x`` mixed in (splitmix64's finaliser)."""
    z: cython.ulonglong = ((x & _MASK) + h + _GOLDEN) & _MASK
    z = ((z ^ (z >> 30)) * _MIX1) & _MASK
    z = ((z ^ (z >> 27)) * _MIX2) & _MASK
    return z ^ (z >> 31)


@cython.cclass
class Playouts(PlayoutSearch):  # type: ignore[misc]
    """PIMC's valuation of moves over one packed game (the random stream and the playouts are
    :class:`~stratagem.solvers.packed_playout.PlayoutSearch`'s)."""

    others: cython.longlong[::1]
    after: cython.longlong[::1]
    rmoves: cython.longlong[:, ::1]

    def __init__(self, game: PackedGame, sp: Any, seed: int, limit: int, middle: float,
                 guide: Guide | None = None) -> None:
        if guide is not None and guide.game is not game:
            raise ValueError("the guide is another engine's")
        PlayoutSearch.__init__(self, game, sp, seed, limit, middle, guide, False, SearchStopped, _REFUSAL)
        room = sp.max_player_moves if sp is not None else 1
        self.others = np.zeros(max(room, 1), np.int64)
        self.after = np.zeros(self.width, np.int64)
        self.rmoves = np.zeros((game.max_moves, self.move_width), np.int64)

    @cython.cfunc
    @cython.exceptval(-1, check=False)
    def _mean_playouts(self, state: cython.longlong[::1], rollouts: cython.Py_ssize_t,
                       out: cython.double[::1]) -> cython.int:
        """``out`` := the returns of a terminal ``state``, else the mean of ``rollouts`` playouts from it."""
        p: cython.Py_ssize_t
        if self.game.terminal(state, self.rbuf):
            for p in range(self.players):
                out[p] = cython.cast(cython.double, self.rbuf[p])
            return 0
        for p in range(self.players):
            out[p] = 0.0
        for _ in range(rollouts):
            self._rollout(state)
            for p in range(self.players):
                out[p] += self.value[p]
        for p in range(self.players):
            out[p] /= rollouts
        return 0

    def move_values(self, state: Any, rollouts: int, seed: int) -> tuple[Any, Any]:
        """PIMC's valuation of a determinisation: its legal moves' records and, for each, every player's
        return after it (terminal) or the mean of ``rollouts`` playouts, the stream restarted from
        ``seed`` for each move."""
        vector: cython.longlong[::1] = np.ascontiguousarray(state, dtype=np.int64)
        count: cython.Py_ssize_t = self.game.legal(vector, self.rmoves)
        values = np.zeros((count, self.players), np.float64)
        out: cython.double[:, ::1] = values
        i: cython.Py_ssize_t
        for i in range(count):
            self.game.apply(vector, self.rmoves[i], self.after)
            self.rng = seed & 0xFFFFFFFFFFFFFFFF
            self._mean_playouts(self.after, rollouts, out[i])
        return np.asarray(self.rmoves)[:count].copy(), values

    def own_move_values(self, state: Any, player: int, rollouts: int) -> tuple[Any, Any]:
        """PIMC at a simultaneous node: ``player``'s own moves of the determinisation and, for each, its
        return after it and the others' uniformly random moves (terminal) or the mean of ``rollouts``
        playouts; the stream runs on (it is not restarted between moves)."""
        if not self.has_sp:
            raise SearchStopped(_REFUSAL)
        vector: cython.longlong[::1] = np.ascontiguousarray(state, dtype=np.int64)
        mine: cython.Py_ssize_t = self.sp.player_moves(vector, player, self.others)
        values = np.zeros(mine, np.float64)
        words = np.asarray(self.others)[:mine].copy()
        own: cython.longlong[::1] = words
        mean = np.zeros(self.players, np.float64)
        out: cython.double[::1] = mean
        i: cython.Py_ssize_t
        q: cython.Py_ssize_t
        count: cython.Py_ssize_t
        for i in range(mine):
            for q in range(self.players):
                if q == player:
                    self.choice[q] = own[i]
                else:
                    count = self.sp.player_moves(vector, q, self.words)
                    self.choice[q] = self.words[self._below(count)]
            self.sp.joint(self.choice, self.joint)
            self.game.apply(vector, self.joint, self.after)
            self._mean_playouts(self.after, rollouts, out)
            values[i] = out[player]
        return words, values


@cython.cclass
class IsmctsSearch(Playouts):
    """One SO-ISMCTS search for ``observer`` (see the module docstring); :meth:`run` takes determinisations."""

    observer: cython.Py_ssize_t
    exploration: cython.double
    widening: cython.double
    ordered: cython.bint
    order: cython.longlong[::1]
    keybuf: cython.longlong[::1]
    low: cython.double
    high: cython.double
    nodes: cython.Py_ssize_t
    node_cap: cython.Py_ssize_t
    blocks: cython.Py_ssize_t
    block_cap: cython.Py_ssize_t
    room: cython.Py_ssize_t
    slots: cython.Py_ssize_t
    visits: cython.longlong[::1]
    avail: cython.longlong[::1]
    totals: cython.double[:, ::1]
    head: cython.longlong[::1]
    nnext: cython.longlong[::1]
    nmove: cython.longlong[:, ::1]
    simblock: cython.longlong[::1]
    table: cython.longlong[::1]
    tparent: cython.longlong[::1]
    thash: cython.ulonglong[::1]
    shead: cython.longlong[:, ::1]
    stats: cython.Py_ssize_t
    stat_cap: cython.Py_ssize_t
    snext: cython.longlong[::1]
    sword: cython.longlong[::1]
    svisits: cython.longlong[::1]
    stotal: cython.double[::1]
    walk: cython.longlong[:, ::1]
    found: cython.longlong[::1]
    path: cython.longlong[::1]
    jnode: cython.longlong[::1]
    jslot: cython.longlong[:, ::1]
    arrays: Any

    def __init__(self, game: PackedGame, sp: Any, observer: int, seed: int, exploration: float, low: float,
                 high: float, limit: int, nodes: int, guide: Guide | None = None, widening: float = 0.0) -> None:
        Playouts.__init__(self, game, sp, seed, limit, (low + high) / 2, guide)
        self.observer = observer
        self.exploration = exploration
        self.ordered = guide is not None and widening > 0.0
        self.widening = widening if self.ordered else 0.0
        self.order = np.zeros(game.max_moves, np.int64)
        self.keybuf = np.zeros(game.max_moves, np.int64)
        self.low = low
        self.high = high
        self.room = sp.max_player_moves if sp is not None else 1
        self.arrays = {}
        self.nodes = 0
        self.node_cap = 0
        self.blocks = 0
        self.block_cap = 0
        self.stats = 0
        self.stat_cap = 0
        self.slots = 0
        self._grow(max(nodes, 16))
        self._grow_blocks(4)
        self._grow_stats(64)
        self.walk = np.zeros((2, self.width), np.int64)
        self.found = np.zeros(max(game.max_moves, self.room), np.int64)
        self.path = np.zeros(0, np.int64)
        self.jnode = np.zeros(0, np.int64)
        self._grow_path(64)
        self._new_node(0)

    # -- storage ----------------------------------------------------------------------------------

    def _grow(self, node_cap: int) -> None:
        """Room for ``node_cap`` nodes (and a child table twice that size), the tree so far kept."""
        old = self.arrays
        regrow(old, {"visits": (), "avail": (), "totals": (self.players,), "head": (), "nnext": (),
                     "nmove": (self.move_width,), "simblock": ()}, node_cap, self.node_cap, ("totals",))
        self.node_cap = node_cap
        self.visits, self.avail, self.totals, self.head = old["visits"], old["avail"], old["totals"], old["head"]
        self.nnext, self.nmove, self.simblock = old["nnext"], old["nmove"], old["simblock"]
        self._rehash(4 * node_cap)

    def _rehash(self, slots: int) -> None:
        """A child table of ``slots`` slots (a power of two) holding every node but the root."""
        size = 1
        while size < slots:
            size *= 2
        self.slots = size
        self.table = np.full(size, -1, np.int64)
        self.tparent = np.zeros(size, np.int64)
        self.thash = np.zeros(size, np.uint64)
        parent = np.full(self.node_cap, -1, np.int64)
        for n in range(self.nodes):  # the parents, from the children lists
            child = int(self.head[n])
            while child >= 0:
                parent[child] = n
                child = int(self.nnext[child])
        for child in range(1, self.nodes):
            self._insert(int(parent[child]), child)

    def _grow_blocks(self, block_cap: int) -> None:
        """Room for ``block_cap`` simultaneous nodes: each player's list of statistics (its head)."""
        shead = np.full((block_cap, self.players), -1, np.int64)
        if "shead" in self.arrays:
            shead[: self.block_cap] = self.arrays["shead"]
        self.arrays["shead"] = shead
        self.block_cap = block_cap
        self.shead = shead

    def _grow_stats(self, stat_cap: int) -> None:
        """Room for ``stat_cap`` statistics (a player's move at a simultaneous node: the moves a player may
        have differ between determinisations, so each list grows as new ones are met)."""
        old = self.arrays
        regrow(old, {"snext": (), "sword": (), "svisits": (), "stotal": ()}, stat_cap, self.stat_cap, ("stotal",))
        self.stat_cap = stat_cap
        self.snext, self.sword, self.svisits, self.stotal = old["snext"], old["sword"], old["svisits"], old["stotal"]

    def _grow_path(self, depth: int) -> None:
        """Path arrays for iterations deeper than ``depth`` plies, the current ones kept."""
        size = self.path.shape[0]
        if size > depth:
            return
        bigger = max(2 * size, depth + 1, 64)
        path = np.zeros(bigger, np.int64)
        jnode = np.zeros(bigger, np.int64)
        jslot = np.zeros((bigger, self.players), np.int64)
        if size:
            path[:size] = np.asarray(self.path)
            jnode[:size] = np.asarray(self.jnode)
            jslot[:size] = np.asarray(self.jslot)
        self.path, self.jnode, self.jslot = path, jnode, jslot

    @cython.cfunc
    @cython.exceptval(-1, check=False)
    def _new_node(self, node: cython.Py_ssize_t) -> cython.int:
        """Node ``node`` as a fresh node (no visits, children or statistics)."""
        p: cython.Py_ssize_t
        self.visits[node] = 0
        self.avail[node] = 0
        for p in range(self.players):
            self.totals[node, p] = 0.0
        self.head[node] = -1
        self.nnext[node] = -1
        self.simblock[node] = -1
        self.nodes = node + 1 if node + 1 > self.nodes else self.nodes
        return 0

    @cython.cfunc
    @cython.exceptval(check=False)
    def _hash(self, parent: cython.Py_ssize_t, record: cython.longlong[::1]) -> cython.ulonglong:
        """The table hash of (``parent``, ``record``)."""
        h: cython.ulonglong = _mix(0, cython.cast(cython.ulonglong, parent))
        x: cython.Py_ssize_t
        for x in range(self.move_width):
            h = _mix(h, cython.cast(cython.ulonglong, record[x]))
        return h

    @cython.cfunc
    @cython.exceptval(-2, check=False)
    def _lookup(self, parent: cython.Py_ssize_t, record: cython.longlong[::1]) -> cython.Py_ssize_t:
        """The child of ``parent`` reached by ``record``, or -1."""
        h: cython.ulonglong = self._hash(parent, record)
        mask: cython.ulonglong = cython.cast(cython.ulonglong, self.slots - 1)
        i: cython.Py_ssize_t = cython.cast(cython.Py_ssize_t, h & mask)
        child: cython.Py_ssize_t
        x: cython.Py_ssize_t
        same: cython.bint
        while True:
            child = self.table[i]
            if child < 0:
                return -1
            if self.thash[i] == h and self.tparent[i] == parent:
                same = True
                for x in range(self.move_width):
                    if self.nmove[child, x] != record[x]:
                        same = False
                        break
                if same:
                    return child
            i = cython.cast(cython.Py_ssize_t, (cython.cast(cython.ulonglong, i) + 1) & mask)

    @cython.cfunc
    @cython.exceptval(-1, check=False)
    def _insert(self, parent: cython.Py_ssize_t, child: cython.Py_ssize_t) -> cython.int:
        """Put ``child`` (its record written) in the table under ``parent``."""
        h: cython.ulonglong = self._hash(parent, self.nmove[child])
        mask: cython.ulonglong = cython.cast(cython.ulonglong, self.slots - 1)
        i: cython.Py_ssize_t = cython.cast(cython.Py_ssize_t, h & mask)
        while self.table[i] >= 0:
            i = cython.cast(cython.Py_ssize_t, (cython.cast(cython.ulonglong, i) + 1) & mask)
        self.table[i] = child
        self.tparent[i] = parent
        self.thash[i] = h
        return 0

    @cython.cfunc
    @cython.exceptval(-2, check=False)
    def _add_child(self, parent: cython.Py_ssize_t, record: cython.longlong[::1]) -> cython.Py_ssize_t:
        """A new child of ``parent`` reached by ``record``."""
        child: cython.Py_ssize_t = self.nodes
        x: cython.Py_ssize_t
        self._new_node(child)
        for x in range(self.move_width):
            self.nmove[child, x] = record[x]
        self.nnext[child] = self.head[parent]
        self.head[parent] = child
        self._insert(parent, child)
        return child

    # -- selection --------------------------------------------------------------------------------

    @cython.cfunc
    @cython.exceptval(check=False)
    def _score(self, total: cython.double, visits: cython.double, parent: cython.double) -> cython.double:
        return ((total / visits - self.low) / (self.high - self.low)
                + self.exploration * sqrt(log(parent) / visits))

    @cython.cfunc
    @cython.exceptval(-1, check=False)
    def _decide(self, node: cython.Py_ssize_t, state: cython.longlong[::1],
                mover: cython.Py_ssize_t) -> cython.Py_ssize_t:
        """The index into ``mbuf`` (the determinisation's legal moves) of the move to follow (``found``
        holds each move's child or -1). Unguided: an untried move at random, else the best by UCB.
        Guided (``ordered``): the moves in the guide's order, and while fewer than ``widening *
        sqrt(visits + 1)`` of them have a child, the first untried one; else the best by UCB among those
        with a child (first of equals in the guide's order), or the first untried one if none has."""
        count: cython.Py_ssize_t = self.game.legal(state, self.mbuf)
        i: cython.Py_ssize_t
        j: cython.Py_ssize_t
        k: cython.Py_ssize_t
        t: cython.longlong
        child: cython.Py_ssize_t
        untried: cython.Py_ssize_t = 0
        first_untried: cython.Py_ssize_t = -1
        best: cython.Py_ssize_t = -1
        best_score: cython.double = _NEVER
        score: cython.double
        if count <= 0:
            raise SearchStopped(f"player {mover} has no legal move in a non-terminal state")
        for i in range(count):
            self.order[i] = i
        if self.ordered and count > 1 and self.guide.keys(state, self.mbuf, count, self.keybuf):
            i = 1
            while i < count:  # insertion sort by key: stable, as the reference's sorted() is
                t = self.order[i]
                j = i - 1
                while j >= 0 and self.keybuf[self.order[j]] > self.keybuf[t]:
                    self.order[j + 1] = self.order[j]
                    j -= 1
                self.order[j + 1] = t
                i += 1
        for k in range(count):
            i = self.order[k]
            child = self._lookup(node, self.mbuf[i])
            self.found[i] = child
            if child >= 0:
                self.avail[child] += 1
            else:
                untried += 1
                if first_untried < 0:
                    first_untried = i
        if untried > 0:
            if self.ordered:
                if count - untried < self.widening * sqrt(cython.cast(cython.double, self.visits[node] + 1)):
                    return first_untried
            else:
                k = self._below(untried)
                for i in range(count):
                    if self.found[i] < 0:
                        if k == 0:
                            return i
                        k -= 1
        for k in range(count):
            i = self.order[k]
            child = self.found[i]
            if child < 0:
                continue
            score = self._score(self.totals[child, mover], cython.cast(cython.double, self.visits[child]),
                                cython.cast(cython.double, self.avail[child]))
            if score > best_score:
                best = i
                best_score = score
        if best < 0:
            return first_untried
        return best

    @cython.cfunc
    @cython.exceptval(-1, check=False)
    def _choose_joint(self, node: cython.Py_ssize_t, state: cython.longlong[::1],
                      depth: cython.Py_ssize_t) -> cython.int:
        """Each player's move at a simultaneous node from its own statistics (``choice``, and the slots
        chosen in ``jslot[depth]``), and ``joint`` the joint record."""
        block: cython.Py_ssize_t
        p: cython.Py_ssize_t
        i: cython.Py_ssize_t
        j: cython.Py_ssize_t
        k: cython.Py_ssize_t
        n: cython.Py_ssize_t
        untried: cython.Py_ssize_t
        slot: cython.Py_ssize_t
        best_score: cython.double
        score: cython.double
        parent: cython.double
        if not self.has_sp:
            raise SearchStopped(_REFUSAL)
        if self.simblock[node] < 0:
            if self.blocks >= self.block_cap:
                self._grow_blocks(2 * self.block_cap)
            self.simblock[node] = self.blocks
            self.blocks += 1
        block = self.simblock[node]
        parent = cython.cast(cython.double, self.visits[node] if self.visits[node] > 1 else 1)
        for p in range(self.players):
            n = self.sp.player_moves(state, p, self.words)
            if n <= 0:
                raise SearchStopped(f"player {p} has no move at a simultaneous node")
            if self.stats + n > self.stat_cap:
                self._grow_stats(2 * (self.stat_cap + n))
            untried = 0
            for i in range(n):  # found[i]: the statistics of move i, or -1
                self.found[i] = -1
                j = self.shead[block, p]
                while j >= 0:
                    if self.sword[j] == self.words[i]:
                        self.found[i] = j
                        break
                    j = self.snext[j]
                if self.found[i] < 0:
                    untried += 1
            slot = -1
            if untried > 0:
                k = self._below(untried)
                for i in range(n):
                    if self.found[i] < 0:
                        if k == 0:
                            slot = self.stats
                            self.stats += 1
                            self.sword[slot] = self.words[i]
                            self.svisits[slot] = 0
                            self.stotal[slot] = 0.0
                            self.snext[slot] = self.shead[block, p]
                            self.shead[block, p] = slot
                            break
                        k -= 1
            else:
                best_score = _NEVER
                for i in range(n):
                    j = self.found[i]
                    score = self._score(self.stotal[j], cython.cast(cython.double, self.svisits[j]), parent)
                    if score > best_score:
                        best_score = score
                        slot = j
            self.jslot[depth, p] = slot
            self.choice[p] = self.sword[slot]
        self.sp.joint(self.choice, self.joint)
        return 0

    # -- one iteration ----------------------------------------------------------------------------

    @cython.cfunc
    @cython.exceptval(-1, check=False)
    def _iterate(self, sample: cython.longlong[::1]) -> cython.int:
        """One iteration from the determinisation ``sample``: descend, add one node, value it, back up."""
        game: PackedGame = self.game
        node: cython.Py_ssize_t = 0
        depth: cython.Py_ssize_t = 1
        joints: cython.Py_ssize_t = 0
        cur: cython.Py_ssize_t = 0
        x: cython.Py_ssize_t
        p: cython.Py_ssize_t
        i: cython.Py_ssize_t
        n: cython.Py_ssize_t
        mover: cython.Py_ssize_t
        pick: cython.Py_ssize_t
        child: cython.Py_ssize_t
        record: cython.longlong[::1]
        for x in range(self.width):
            self.walk[0, x] = sample[x]
        self.path[0] = 0
        while True:
            if game.terminal(self.walk[cur], self.rbuf):
                for p in range(self.players):
                    self.value[p] = cython.cast(cython.double, self.rbuf[p])
                break
            if depth + 1 >= self.path.shape[0]:
                self._grow_path(depth + 1)
            mover = game.to_move(self.walk[cur])
            if mover == SIMULTANEOUS:
                self._choose_joint(node, self.walk[cur], joints)
                self.jnode[joints] = node
                joints += 1
                record = self.joint
                child = self._lookup(node, record)
            elif mover == CHANCE:
                pick = self._draw_outcome(self.walk[cur])
                record = self.mbuf[pick]
                child = self._lookup(node, record)
            else:
                pick = self._decide(node, self.walk[cur], mover)
                record = self.mbuf[pick]
                child = self.found[pick]
            game.apply(self.walk[cur], record, self.walk[1 - cur])
            cur = 1 - cur
            if child < 0:
                child = self._add_child(node, record)
                self.path[depth] = child
                depth += 1
                if game.terminal(self.walk[cur], self.rbuf):
                    for p in range(self.players):
                        self.value[p] = cython.cast(cython.double, self.rbuf[p])
                else:
                    self._rollout(self.walk[cur])
                break
            node = child
            self.path[depth] = node
            depth += 1
        for i in range(depth):
            n = self.path[i]
            self.visits[n] += 1
            for p in range(self.players):
                self.totals[n, p] += self.value[p]
        for i in range(joints):
            for p in range(self.players):
                n = self.jslot[i, p]
                self.svisits[n] += 1
                self.stotal[n] += self.value[p]
        return 0

    @cython.ccall
    @cython.exceptval(-1)
    def run(self, samples: cython.longlong[:, ::1], deadline: cython.double) -> cython.longlong:
        """One iteration per row of ``samples`` (determinised root states) before the wall-clock
        ``deadline`` (a ``time.perf_counter`` value; negative: none); how many were done."""
        done: cython.Py_ssize_t = 0
        since: cython.Py_ssize_t = 0
        while done < samples.shape[0]:
            if deadline >= 0:
                if since == 0 and time.perf_counter() >= deadline:
                    break
                since = (since + 1) % _CLOCK_EVERY
            if self.nodes + 2 > self.node_cap:
                self._grow(2 * self.node_cap)
            self._iterate(samples[done])
            done += 1
        return done

    def root(self, simultaneous: bool) -> dict[str, Any]:
        """The root's children (records, visits, summed returns per player) or, at a simultaneous root,
        the observer's own moves (integers, visits, summed own returns)."""
        if simultaneous:
            block = int(self.simblock[0])
            if block < 0:
                return {"records": np.zeros(0, np.int64), "visits": np.zeros(0, np.int64), "totals": np.zeros(0)}
            slots = []
            slot = int(self.shead[block, self.observer])
            while slot >= 0:
                slots.append(slot)
                slot = int(self.snext[slot])
            index = np.array(slots[::-1], np.int64)  # the order they were made in
            return {"records": np.asarray(self.sword)[index].copy(), "visits": np.asarray(self.svisits)[index].copy(),
                    "totals": np.asarray(self.stotal)[index].copy()}
        children = []
        child = int(self.head[0])
        while child >= 0:
            children.append(child)
            child = int(self.nnext[child])
        children.reverse()  # the order they were made in
        index = np.array(children, np.int64)
        return {"records": np.asarray(self.nmove)[index].copy() if children else np.zeros((0, self.move_width),
                                                                                            np.int64),
                "visits": np.asarray(self.visits)[index].copy(),
                "totals": np.asarray(self.totals)[index].copy()}

    def size(self) -> int:
        """Nodes in the tree."""
        return int(self.nodes)


__all__ = ["IsmctsSearch", "Playouts", "SearchStopped"]

"""UCT with MCTS-Solver backups over a compiled engine (:class:`~stratagem.core.packed.PackedGame`), in C.

The same search as open UCT in :mod:`stratagem.solvers.mcts`, plain (``uct(guided=False)``) or, given the
game's :class:`~stratagem.core.packed_guide.Guide`, guided (``uct(guided=True)``), with the same options
and semantics, run on a game's packed states so that no Python object is touched in the loop:

* **Selection**: a decision node tries every move once first, in an order drawn from the seed (a
  Fisher-Yates shuffle of the engine's legal moves when the node is first passed through), then
  follows UCB1 on means normalised into [0, 1] by ``value_range``: ``(mean - low) / (high - low) +
  c * sqrt(ln N) / sqrt(n)`` (no exploration term while ``N <= 1``); ties go to the earlier move in
  that order. Guided, the order is the guide's keys (a stable sort: ties in the legal order) and a node
  visited ``N`` times expands its next move only while it has fewer than ``widening * sqrt(N + 1)``
  children (or all of them are proven): progressive widening, as the Python search. A chance node draws
  an outcome with its integer weight (a ticket below the sum of the weights), so no fraction is formed.
* **Leaves** are valued by a uniformly random playout to the end (chance outcomes by weight);
  ``rollout_limit`` (guided, by default the guide's) cuts a playout after that many plies and scores it
  by the guide's evaluation, without a guide every player the middle of ``value_range``. Card Clash's
  guide declares 0: a new leaf is valued by its evaluation alone, and the guided search then draws no
  random number at all (it visits as ``uct(guided=True)`` does, move for move: tested).
* **MCTS-Solver** (one- and two-player games; off with three or more, as in the Python search): a
  terminal leaf is proven; a decision node is proven by one child that is a proven win for its player
  (a return of at least ``high``, fewest plies first), or when every child is proven (the best value,
  the longest line among equals); a chance node when every outcome is proven (the weighted average).
  A proven child is never selected again, and a proven root ends the search.
* **Budget**: ``iterations`` (deterministic) and/or ``time_limit`` (wall seconds, checked every 16
  iterations, so not deterministic); whichever runs out first.
* **Randomness**: one splitmix64 stream seeded by ``seed``, the same whether this module runs
  compiled or interpreted, so the two give identical results (draws below ``n`` are the next 64-bit
  output modulo ``n``). It is not Python's ``random.Random``: on the same game the Python search and
  this one explore in different orders, and agree on proven values, not move by move.

The tree lives in flat arrays (nodes: visits, summed returns per player, state, mover, proof; edges:
move record, child, cumulative chance weight), grown by doubling between iterations; an iteration adds
at most one node and one node's edges. A caller may keep the tree between the moves of a game
(``run_uct(tree=...)``): the next search starts from the node of its position if the last search expanded
it within a round of plies, the subtree below it compacted into the arrays (the rest dropped).
Simultaneous nodes are refused (decoupled UCT is :mod:`stratagem.solvers.duct`'s). :func:`run_uct`
returns plain arrays; the caller that knows the reference engine turns them into a
:class:`~stratagem.solvers.mcts.MctsResult`. This module is a
kernel (compiled at install, see ``setup.py``).

The random stream and the playouts are the base class's, :class:`~stratagem.solvers.packed_playout.PlayoutSearch`
(shared with DUCT and ISMCTS; a simultaneous node met in a playout raises :class:`UctStopped` too).

Why one module of over 600 lines: it is one concept, UCT with MCTS-Solver over a packed game; the
flat tree, its selection, the proofs and the backups call one another at C level, which Cython
inlines only within one module.
"""

from __future__ import annotations

import math
import time
from typing import Any

import cython
import numpy as np

from stratagem.solvers.packed_playout import regrow

if cython.compiled:
    from cython.cimports.cpython.exc import PyErr_CheckSignals
    from cython.cimports.libc.math import log, sqrt
    from cython.cimports.stratagem.core.packed import CHANCE, SIMULTANEOUS, PackedGame
    from cython.cimports.stratagem.core.packed_guide import Guide
    from cython.cimports.stratagem.solvers.packed_playout import PlayoutSearch
else:  # plain Python runs its signal handlers between bytecodes by itself
    from math import log, sqrt

    from stratagem.core.packed import CHANCE, SIMULTANEOUS, PackedGame
    from stratagem.core.packed_guide import Guide
    from stratagem.solvers.packed_playout import PlayoutSearch

    def PyErr_CheckSignals() -> int:
        return 0

#: The mover recorded for a terminal node (``stratagem.core.game.TERMINAL``).
TERMINAL_NODE = cython.declare(cython.longlong, -3)
#: Iterations between two looks at the clock in a timed search.
_CLOCK_EVERY = cython.declare(cython.Py_ssize_t, 16)
#: Below every UCB score.
_NEVER = cython.declare(cython.double, -math.inf)

DEFAULT_EXPLORATION = math.sqrt(2)


class UctStopped(ValueError):
    """The search met a state it cannot handle (a simultaneous node, no legal move, no chance outcome)."""


#: What a search that meets a simultaneous node says.
_REFUSAL = "compiled UCT met a simultaneous node (use DUCT for simultaneous moves)"


@cython.cclass
class _Uct(PlayoutSearch):  # type: ignore[misc]
    """The search's state: its tree in flat arrays and scratch buffers (the game, the random stream and a
    playout's are :class:`~stratagem.solvers.packed_playout.PlayoutSearch`'s)."""

    exploration: cython.double
    low: cython.double
    high: cython.double
    solver: cython.bint
    widening: cython.double
    nodes: cython.Py_ssize_t
    node_cap: cython.Py_ssize_t
    edges: cython.Py_ssize_t
    edge_cap: cython.Py_ssize_t
    # nodes
    visits: cython.longlong[::1]
    totals: cython.double[:, ::1]
    mover: cython.longlong[::1]
    proven: cython.longlong[::1]
    pvalue: cython.double[:, ::1]
    plies: cython.longlong[::1]
    first: cython.longlong[::1]
    count: cython.longlong[::1]
    expanded: cython.longlong[::1]
    wtotal: cython.longlong[::1]
    states: cython.longlong[:, ::1]
    path: cython.longlong[::1]
    # edges
    emove: cython.longlong[:, ::1]
    echild: cython.longlong[::1]
    ecum: cython.longlong[::1]
    eweight: cython.longlong[::1]
    # scratch
    order: cython.longlong[::1]
    keybuf: cython.longlong[::1]
    arrays: Any

    def __init__(self, game: PackedGame, root: Any, seed: int, exploration: float, low: float, high: float,
                 solver: bool, limit: int, nodes: int, guide: Guide | None = None, widening: float = 0.0) -> None:
        PlayoutSearch.__init__(self, game, None, seed, limit, (low + high) / 2, guide, False, UctStopped, _REFUSAL)
        self.exploration = exploration
        self.low = low
        self.high = high
        self.solver = solver and game.players <= 2
        self.widening = widening if guide is not None else 0.0
        self.arrays = {}
        self.nodes = 0
        self.edges = 0
        self.node_cap = 0
        self.edge_cap = 0
        self._grow(max(nodes, 16), max(nodes, 16) * 4)
        self.order = np.zeros(game.max_moves, np.int64)
        self.keybuf = np.zeros(game.max_moves, np.int64)
        self.arrays["states"][0] = np.ascontiguousarray(root, dtype=np.int64)
        self._new_node_mover(0)
        self.nodes = 1

    # -- storage ----------------------------------------------------------------------------------

    def _grow(self, node_cap: int, edge_cap: int) -> None:
        """Room for ``node_cap`` nodes and ``edge_cap`` edges, the tree so far kept."""
        old = self.arrays
        if node_cap > self.node_cap:
            regrow(old, {"visits": (), "totals": (self.players,), "mover": (), "proven": (), "pvalue": (self.players,),
                         "plies": (), "first": (), "count": (), "expanded": (), "wtotal": (), "states": (self.width,),
                         "path": ()}, node_cap, self.node_cap, ("totals", "pvalue"))
            self.node_cap = node_cap
        if edge_cap > self.edge_cap:
            regrow(old, {"emove": (self.move_width,), "echild": (), "ecum": (), "eweight": ()}, edge_cap, self.edge_cap)
            self.edge_cap = edge_cap
        self.visits, self.totals, self.mover = old["visits"], old["totals"], old["mover"]
        self.proven, self.pvalue, self.plies = old["proven"], old["pvalue"], old["plies"]
        self.first, self.count, self.expanded = old["first"], old["count"], old["expanded"]
        self.wtotal, self.states, self.path = old["wtotal"], old["states"], old["path"]
        self.emove, self.echild, self.ecum, self.eweight = old["emove"], old["echild"], old["ecum"], old["eweight"]

    @cython.cfunc
    @cython.exceptval(-1, check=False)
    def _new_node_mover(self, node: cython.Py_ssize_t) -> cython.int:
        """Initialise node ``node`` (its state written): mover, no edges yet, nothing proven."""
        state: cython.longlong[::1] = self.states[node]
        self.visits[node] = 0
        p: cython.Py_ssize_t
        for p in range(self.players):
            self.totals[node, p] = 0.0
            self.pvalue[node, p] = 0.0
        self.proven[node] = 0
        self.plies[node] = 0
        self.first[node] = 0
        self.count[node] = -1
        self.expanded[node] = 0
        self.wtotal[node] = 0
        if self.game.terminal(state, self.rbuf):
            self.mover[node] = TERMINAL_NODE
        else:
            self.mover[node] = self.game.to_move(state)
            if self.mover[node] == SIMULTANEOUS:
                raise UctStopped(_REFUSAL)
        return 0

    # -- one iteration ----------------------------------------------------------------------------

    @cython.cfunc
    @cython.exceptval(-1, check=False)
    def _edges(self, node: cython.Py_ssize_t) -> cython.int:
        """Make the node's edges: chance outcomes with cumulative weights, or the legal moves shuffled."""
        game: PackedGame = self.game
        state: cython.longlong[::1] = self.states[node]
        count: cython.Py_ssize_t
        i: cython.Py_ssize_t
        j: cython.Py_ssize_t
        x: cython.Py_ssize_t
        e: cython.Py_ssize_t
        t: cython.longlong
        total: cython.longlong = 0
        first: cython.Py_ssize_t = self.edges
        if self.mover[node] == CHANCE:
            count = game.chance(state, self.mbuf, self.wbuf)
            if count <= 0:
                raise UctStopped("a chance node lists no outcomes")
            for i in range(count):
                if self.wbuf[i] <= 0:
                    raise UctStopped("a chance outcome with a weight that is not positive")
                self.order[i] = i
        else:
            count = game.legal(state, self.mbuf)
            if count <= 0:
                raise UctStopped(f"player {self.mover[node]} has no legal move in a non-terminal state")
            for i in range(count):
                self.order[i] = i
            if count > 1 and self.guide is not None and self.guide.keys(state, self.mbuf, count, self.keybuf):
                i = 1
                while i < count:  # insertion sort by key: stable, as the reference's sorted() is
                    t = self.order[i]
                    j = i - 1
                    while j >= 0 and self.keybuf[self.order[j]] > self.keybuf[t]:
                        self.order[j + 1] = self.order[j]
                        j -= 1
                    self.order[j + 1] = t
                    i += 1
            else:
                i = count - 1
                while i > 0:  # Fisher-Yates, as random.shuffle walks it
                    j = self._below(i + 1)
                    t = self.order[i]
                    self.order[i] = self.order[j]
                    self.order[j] = t
                    i -= 1
        for i in range(count):
            e = first + i
            j = self.order[i]
            for x in range(self.move_width):
                self.emove[e, x] = self.mbuf[j, x]
            self.echild[e] = -1
            if self.mover[node] == CHANCE:
                total += self.wbuf[j]
                self.eweight[e] = self.wbuf[j]
                self.ecum[e] = total
        self.first[node] = first
        self.count[node] = count
        self.wtotal[node] = total
        self.edges = first + count
        return 0

    @cython.cfunc
    @cython.exceptval(-2, check=False)
    def _select(self, node: cython.Py_ssize_t) -> cython.Py_ssize_t:
        """The edge (index from the node's first) to follow from a decision node: the next untried one
        while the node may widen (always, unguided), else the best by UCB among the unproven children, or
        the next untried one when those are all proven; -1 when every child is proven."""
        expanded: cython.Py_ssize_t = self.expanded[node]
        count: cython.Py_ssize_t = self.count[node]
        if expanded < count and (self.widening <= 0.0 or expanded < self.widening * sqrt(
                cython.cast(cython.double, self.visits[node] + 1))):
            return expanded
        mover: cython.Py_ssize_t = self.mover[node]
        scale: cython.double = 1.0 / (self.high - self.low)
        low: cython.double = self.low
        visits: cython.longlong = self.visits[node]
        explore: cython.double = self.exploration * sqrt(log(cython.cast(cython.double, visits))) if visits > 1 else 0.0
        best: cython.Py_ssize_t = -1
        best_score: cython.double = _NEVER
        score: cython.double
        n: cython.double
        i: cython.Py_ssize_t
        child: cython.Py_ssize_t
        first: cython.Py_ssize_t = self.first[node]
        for i in range(expanded):
            child = self.echild[first + i]
            if self.proven[child]:
                continue
            n = cython.cast(cython.double, self.visits[child])
            score = (self.totals[child, mover] / n - low) * scale + explore / sqrt(n)
            if score > best_score:
                best = i
                best_score = score
        if best < 0 and expanded < count:
            return expanded  # the expanded children are all proven: widen
        return best

    @cython.cfunc
    @cython.exceptval(-1, check=False)
    def _draw(self, node: cython.Py_ssize_t) -> cython.Py_ssize_t:
        """The index of a chance outcome drawn with its weight."""
        ticket: cython.longlong = self._below(self.wtotal[node])
        first: cython.Py_ssize_t = self.first[node]
        i: cython.Py_ssize_t
        for i in range(self.count[node]):
            if ticket < self.ecum[first + i]:
                return i
        raise AssertionError("a ticket beyond the total weight")  # pragma: no cover

    @cython.cfunc
    @cython.exceptval(-1, check=False)
    def _expand(self, node: cython.Py_ssize_t, edge: cython.Py_ssize_t) -> cython.Py_ssize_t:
        """A new node for the state after ``edge`` of ``node``."""
        child: cython.Py_ssize_t = self.nodes
        self.game.apply(self.states[node], self.emove[edge], self.states[child])
        self.nodes += 1
        self._new_node_mover(child)
        self.echild[edge] = child
        self.expanded[node] += 1
        return child

    @cython.cfunc
    @cython.exceptval(-1, check=False)
    def _returns(self, state: cython.longlong[::1]) -> cython.int:
        """Write the returns of a terminal ``state`` into ``value``."""
        p: cython.Py_ssize_t
        self.game.terminal(state, self.rbuf)
        for p in range(self.players):
            self.value[p] = cython.cast(cython.double, self.rbuf[p])
        return 0

    @cython.cfunc
    @cython.exceptval(-1, check=False)
    def _prove(self, node: cython.Py_ssize_t) -> cython.bint:
        """Try to prove ``node`` from its children; True if it is now proven."""
        mover: cython.Py_ssize_t = self.mover[node]
        p: cython.Py_ssize_t
        i: cython.Py_ssize_t
        child: cython.Py_ssize_t
        first: cython.Py_ssize_t
        count: cython.Py_ssize_t
        w: cython.double
        deepest: cython.longlong
        if mover == TERMINAL_NODE:
            self._returns(self.states[node])
            for p in range(self.players):
                self.pvalue[node, p] = self.value[p]
            self.proven[node] = 1
            return True
        count = self.count[node]
        if count < 0:
            return False
        first = self.first[node]
        if mover == CHANCE:
            deepest = 0
            for i in range(count):
                child = self.echild[first + i]
                if child < 0 or not self.proven[child]:
                    return False
                if self.plies[child] > deepest:
                    deepest = self.plies[child]
            for p in range(self.players):
                self.pvalue[node, p] = 0.0
            for i in range(count):
                child = self.echild[first + i]
                w = cython.cast(cython.double, self.eweight[first + i]) / cython.cast(cython.double, self.wtotal[node])
                for p in range(self.players):
                    self.pvalue[node, p] += w * self.pvalue[child, p]
            self.plies[node] = 1 + deepest
            self.proven[node] = 1
            return True
        pick: cython.Py_ssize_t = self._choice(node)
        if pick < 0:
            return False
        child = self.echild[first + pick]
        for p in range(self.players):
            self.pvalue[node, p] = self.pvalue[child, p]
        self.plies[node] = 1 + self.plies[child]
        self.proven[node] = 1
        return True

    @cython.cfunc
    @cython.exceptval(-2, check=False)
    def _choice(self, node: cython.Py_ssize_t) -> cython.Py_ssize_t:
        """The child a proven decision node takes: a proven win for its player (fewest plies) if any;
        once every child is proven, the best value (longest line among equals); else -1."""
        mover: cython.Py_ssize_t = self.mover[node]
        first: cython.Py_ssize_t = self.first[node]
        count: cython.Py_ssize_t = self.count[node]
        i: cython.Py_ssize_t
        child: cython.Py_ssize_t
        win: cython.Py_ssize_t = -1
        win_plies: cython.longlong = 0
        for i in range(count):
            child = self.echild[first + i]
            if (child >= 0 and self.proven[child] and self.pvalue[child, mover] >= self.high
                    and (win < 0 or self.plies[child] < win_plies)):
                win = i
                win_plies = self.plies[child]
        if win >= 0:
            return win
        best: cython.Py_ssize_t = -1
        best_value: cython.double = 0.0
        best_plies: cython.longlong = 0
        v: cython.double
        for i in range(count):
            child = self.echild[first + i]
            if child < 0 or not self.proven[child]:
                return -1
            v = self.pvalue[child, mover]
            if best < 0 or v > best_value or (v == best_value and self.plies[child] > best_plies):
                best = i
                best_value = v
                best_plies = self.plies[child]
        return best

    @cython.cfunc
    @cython.exceptval(-1, check=False)
    def _iterate(self) -> cython.int:
        """One iteration: select down the tree, expand one node, value it, back the value up."""
        node: cython.Py_ssize_t = 0
        depth: cython.Py_ssize_t = 1
        index: cython.Py_ssize_t
        edge: cython.Py_ssize_t
        child: cython.Py_ssize_t
        mover: cython.longlong
        leaf_proven: cython.bint = False
        i: cython.Py_ssize_t
        p: cython.Py_ssize_t
        n: cython.Py_ssize_t
        self.path[0] = 0
        while True:
            if self.proven[node]:
                for p in range(self.players):
                    self.value[p] = self.pvalue[node, p]
                leaf_proven = True
                break
            mover = self.mover[node]
            if mover == TERMINAL_NODE:  # reached again without the solver
                self._returns(self.states[node])
                break
            if self.count[node] < 0:
                self._edges(node)
            if mover == CHANCE:
                index = self._draw(node)
            else:
                index = self._select(node)
                if index < 0:  # every child is proven, so this node is proven too
                    self._prove(node)
                    for p in range(self.players):
                        self.value[p] = self.pvalue[node, p]
                    leaf_proven = True
                    break
            edge = self.first[node] + index
            child = self.echild[edge]
            if child < 0:
                child = self._expand(node, edge)
                self.path[depth] = child
                depth += 1
                if self.mover[child] == TERMINAL_NODE:
                    self._returns(self.states[child])
                    if self.solver:
                        for p in range(self.players):
                            self.pvalue[child, p] = self.value[p]
                        self.proven[child] = 1
                        leaf_proven = True
                else:
                    self._rollout(self.states[child])
                break
            node = child
            self.path[depth] = node
            depth += 1
        for i in range(depth):
            n = self.path[i]
            self.visits[n] += 1
            for p in range(self.players):
                self.totals[n, p] += self.value[p]
        if self.solver and leaf_proven:
            i = depth - 2
            while i >= 0:
                n = self.path[i]
                if not self.proven[n] and not self._prove(n):
                    break
                i -= 1
        return 0

    @cython.ccall
    @cython.exceptval(-1)
    def run(self, iterations: cython.longlong, deadline: cython.double) -> cython.longlong:
        """Up to ``iterations`` iterations (-1: no bound) before the wall-clock ``deadline`` (a
        ``time.perf_counter`` value; negative: none), stopping at a proven root; how many were done.

        Every ``_CLOCK_EVERY`` iterations, with the clock, Python's signal handlers get their turn
        (``PyErr_CheckSignals``): compiled, the loop runs no bytecode, so Ctrl-C or SIGTERM would otherwise
        wait for the whole search; the handler's exception (``KeyboardInterrupt``, ``Terminated``) ends it."""
        done: cython.longlong = 0
        since: cython.Py_ssize_t = 0
        while iterations < 0 or done < iterations:
            if self.proven[0]:
                break
            if since == 0:
                PyErr_CheckSignals()
                if deadline >= 0 and time.perf_counter() >= deadline:
                    break
            since = (since + 1) % _CLOCK_EVERY
            if self.nodes + 2 > self.node_cap or self.edges + self.game.max_moves > self.edge_cap:
                self._grow(self.node_cap * 2 if self.nodes + 2 > self.node_cap else self.node_cap,
                           max(self.edge_cap * 2, self.edges + 2 * self.game.max_moves))
            self._iterate()
            done += 1
        return done

    def root_moves(self) -> tuple[Any, Any, Any, Any, Any]:
        """The root's edges in the order they were tried: move records, visits, summed returns per
        player, proven values per player (NaN where not proven) and proven plies (-1)."""
        first = int(self.first[0])
        count = max(int(self.count[0]), 0)
        records = np.asarray(self.emove)[first:first + count].copy()
        visits = np.zeros(count, np.int64)
        totals = np.zeros((count, self.players), np.float64)
        proven = np.full((count, self.players), np.nan)
        plies = np.full(count, -1, np.int64)
        for i in range(count):
            child = int(self.echild[first + i])
            if child < 0:
                continue
            visits[i] = self.visits[child]
            totals[i] = np.asarray(self.totals[child])
            if self.proven[child]:
                proven[i] = np.asarray(self.pvalue[child])
                plies[i] = self.plies[child]
        return records, visits, totals, proven, plies

    def root_proof(self) -> tuple[tuple[float, ...] | None, int]:
        """The root's proven value per player (None if not proven) and the length of its proven line."""
        if not self.proven[0]:
            return None, 0
        return tuple(float(v) for v in np.asarray(self.pvalue[0])), int(self.plies[0])

    def size(self) -> int:
        """Nodes in the tree."""
        return int(self.nodes)

    def ensure_edges(self) -> None:
        """Make the root's edges if no iteration has (a budget of 0)."""
        if self.count[0] < 0 and self.mover[0] >= 0:
            self._edges(0)

    # -- tree reuse -------------------------------------------------------------------------------

    def _children(self, layer: Any) -> Any:
        """The expanded children of the nodes ``layer`` (an index array), node by node in edge order."""
        a = self.arrays
        counts = np.maximum(a["count"][: self.nodes][layer], 0)
        total = int(counts.sum())
        if total == 0:
            return np.zeros(0, np.int64)
        starts = np.repeat(a["first"][: self.nodes][layer] - np.cumsum(counts) + counts, counts)
        kids = a["echild"][starts + np.arange(total)]
        return kids[kids >= 0]

    def find(self, state: Any, layers: int) -> int:
        """The node whose state is ``state`` in the root's first ``layers + 1`` layers (the root, its
        children, ...), looked for layer by layer and in edge order within one, as the Python search's
        :class:`~stratagem.solvers.mcts.SearchTree` does; -1 when there is none."""
        target = np.ascontiguousarray(state, dtype=np.int64)
        states = self.arrays["states"]
        layer = np.zeros(1, np.int64)
        for _ in range(layers + 1):
            if layer.size == 0:
                break
            same = np.nonzero((states[layer] == target).all(axis=1))[0]
            if same.size:
                return int(layer[same[0]])
            layer = self._children(layer)
        return -1

    def reroot(self, node: int, seed: int) -> None:
        """Keep only ``node`` and everything below it, ``node`` becoming the root (statistics and proofs
        kept), and restart the random stream from ``seed``: the next search goes on from there."""
        self.rng = seed & 0xFFFFFFFFFFFFFFFF
        if node == 0:
            return
        order = [np.array([node], np.int64)]
        while order[-1].size:
            order.append(self._children(order[-1]))
        kept = np.concatenate(order)
        old = {name: array.copy() for name, array in self.arrays.items()}
        where = np.full(self.nodes, -1, np.int64)
        where[kept] = np.arange(kept.size)
        counts = np.maximum(old["count"][kept], 0)
        firsts = np.cumsum(counts) - counts
        total = int(counts.sum())
        edges = np.repeat(old["first"][kept] - firsts, counts) + np.arange(total)
        for name in ("visits", "totals", "mover", "proven", "pvalue", "plies", "count", "expanded", "wtotal",
                     "states"):
            self.arrays[name][: kept.size] = old[name][kept]
        self.arrays["first"][: kept.size] = np.where(old["count"][kept] >= 0, firsts, 0)
        child = old["echild"][edges]
        self.arrays["echild"][:total] = np.where(child >= 0, where[np.maximum(child, 0)], -1)
        for name in ("emove", "ecum", "eweight"):
            self.arrays[name][:total] = old[name][edges]
        self.nodes = kept.size
        self.edges = total


def run_uct(game: PackedGame, state: Any, *, iterations: int | None = None, time_limit: float | None = None,
            seed: int = 0, exploration: float = DEFAULT_EXPLORATION, value_range: tuple[float, float] = (-1.0, 1.0),
            solver: bool = True, rollout_limit: int | None = None, guide: Guide | None = None,
            widening: float = 0.0, tree: dict[str, Any] | None = None) -> dict[str, Any]:
    """UCT with MCTS-Solver from the packed ``state`` of ``game`` (see the module docstring).

    ``guide`` (the game's :class:`~stratagem.core.packed_guide.Guide` for ``game``, or None) guides the
    search: a decision node's moves in the guide's order, progressive ``widening`` (0: none), the guide's
    ``rollout_limit`` when none is given, and its evaluation at the cut-off. ``tree`` (a dict the caller
    keeps between the moves of a game; empty at first) keeps the search tree from one call to the next:
    a search of a state found at most a round of plies (``players`` plies) below the last root, with the
    same engine and options, goes on from that node, statistics and proofs included (tree reuse, as the
    Python search's :class:`~stratagem.solvers.mcts.SearchTree`; ``iterations`` then counts the new
    iterations only); ``tree["reused"]`` and ``tree["fresh"]`` count the searches of each kind.

    Returns the iterations done, wall seconds, the tree's size, the root's proven value per player (or
    None) and its proven plies, and the root's edges in the order tried: ``records`` (move records),
    ``visits``, ``totals`` (summed returns per player), ``proven`` (per player, NaN where not proven) and
    ``plies``. Raises :class:`UctStopped` at a state the search cannot handle, ``ValueError`` for bad options.
    """
    if iterations is None and time_limit is None:
        raise ValueError("give an iteration budget, a time limit, or both")
    if iterations is not None and iterations < 0:
        raise ValueError(f"iterations must be non-negative, not {iterations}")
    low, high = float(value_range[0]), float(value_range[1])
    if not high > low:
        raise ValueError(f"value_range {value_range} is not (low, high) with low < high")
    if rollout_limit is not None and rollout_limit < 0:
        raise ValueError(f"rollout_limit must be non-negative, not {rollout_limit}")
    if not widening >= 0.0:
        raise ValueError(f"widening must be non-negative, not {widening}")
    if guide is not None:
        if guide.game is not game:
            raise ValueError("the guide is another engine's")
        if rollout_limit is None and guide.rollout_limit >= 0:
            rollout_limit = int(guide.rollout_limit)
    start = time.perf_counter()
    limit = -1 if rollout_limit is None else rollout_limit
    # the kept search goes on only on the very engine it ran on (compared as an object: it holds its engine,
    # so an id() in the settings named a live engine too, but the check should not lean on that) and with
    # the same options
    settings = (guide is not None, float(exploration), low, high, bool(solver), limit, float(widening))
    search: _Uct | None = None
    if tree is not None and tree.get("search") is not None and tree.get("settings") == settings:
        kept: _Uct = tree["search"]
        if kept.game is game:
            found = kept.find(state, int(game.players))
            if found >= 0:
                kept.reroot(found, seed)
                search = kept
    if tree is not None:
        key = "fresh" if search is None else "reused"
        tree[key] = tree.get(key, 0) + 1
    if search is None:
        search = _Uct(game, state, seed, exploration, low, high, solver, limit,
                      min(iterations + 2, 1 << 12) if iterations is not None else 1 << 12, guide, widening)
    if tree is not None:
        tree["search"], tree["settings"] = search, settings
    deadline = -1.0 if time_limit is None else start + max(time_limit, 0.0)
    done = search.run(-1 if iterations is None else iterations, deadline)
    search.ensure_edges()
    records, visits, totals, proven, plies = search.root_moves()
    value, value_plies = search.root_proof()
    return {"iterations": int(done), "seconds": time.perf_counter() - start, "nodes": search.size(),
            "value": value, "plies": value_plies, "records": records, "visits": visits, "totals": totals,
            "proven": proven, "proven_plies": plies}


__all__ = ["DEFAULT_EXPLORATION", "UctStopped", "run_uct"]

"""Decoupled UCT (DUCT) over a compiled engine (:class:`~stratagem.core.packed.PackedGame`), in C.

The same search as :func:`stratagem.solvers.duct.duct`, with the same options and semantics, run on a
game's packed states so that no Python object is touched in the loop:

* At a **simultaneous** node every player keeps its own statistics over its own moves (the game's
  :class:`~stratagem.solvers.induction_kernel.SimultaneousPacked` lists them: one integer a move, the
  reference's order) and selects as if alone: ``ucb1`` (unvisited moves first, then the best scaled mean
  plus ``exploration * sqrt(ln N / n)``, ties broken at random), ``regret-matching`` or ``exp3`` (each
  mixed with ``gamma`` uniform exploration, updated with importance-sampled rewards). The joint move
  picks the child; each player's statistics are updated with its own return.
* A **decision** node uses UCB1 for the player to move; a **chance** node draws an outcome with its
  integer weight (a ticket below the sum of the weights: no fraction in the loop).
* A new leaf is valued by a uniformly random playout (every player uniformly at a simultaneous node,
  chance by weight); after ``rollout_limit`` plies the playout is cut and scored by the game's
  ``evaluate`` where it has one (as the Python search: without an evaluation it plays on to the end).
* Returns are scaled into [0, 1] by ``reward_range`` or, without one, by the range seen so far.
* **Randomness**: one splitmix64 stream seeded by ``seed``, the same compiled or interpreted. It is not
  Python's ``random.Random``: the two searches agree in distribution, not draw for draw.

The tree lives in flat arrays grown by doubling between iterations (nodes: state, kind, visits, edges,
children; edges: move record or a player's move, child, visits, summed return, accumulated regret or
reward). A simultaneous node's children are a list keyed by the joint choice (mixed radix over the
players' move indexes), so no product of the hands is ever built. :func:`run_duct` returns plain arrays;
:mod:`stratagem.solvers.compiled_duct` reports them in the reference engine's terms. This module is a
kernel (compiled at install, see ``setup.py``) and knows no game. The random stream and the playouts are
the base class's, :class:`~stratagem.solvers.packed_playout.PlayoutSearch` (shared with UCT and ISMCTS).
Why one module of over 600 lines: it is one concept, DUCT over a packed game; the flat tree, the three
selection rules and the backups call one another at C level, which Cython inlines only within one module.
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
    from cython.cimports.libc.math import exp, log, sqrt
    from cython.cimports.stratagem.core.packed import CHANCE, SIMULTANEOUS, PackedGame
    from cython.cimports.stratagem.solvers.packed_playout import PlayoutSearch
else:  # plain Python runs its signal handlers between bytecodes by itself
    from math import exp, log, sqrt

    from stratagem.core.packed import CHANCE, SIMULTANEOUS, PackedGame
    from stratagem.solvers.packed_playout import PlayoutSearch

    def PyErr_CheckSignals() -> int:
        return 0

#: The kind recorded for a terminal node.
TERMINAL_NODE = cython.declare(cython.longlong, -3)
#: Selection rules (the Python search's names, in :data:`SELECTIONS` order).
SELECTIONS = ("ucb1", "regret-matching", "exp3")
_UCB1 = cython.declare(cython.int, 0)
_REGRET = cython.declare(cython.int, 1)
_EXP3 = cython.declare(cython.int, 2)
_CLOCK_EVERY = cython.declare(cython.Py_ssize_t, 16)
_NEVER = cython.declare(cython.double, -math.inf)


class DuctStopped(ValueError):
    """The search met a state it cannot handle (a simultaneous node without the game's player moves, no
    legal move, no chance outcome)."""


#: What a search that meets a simultaneous node without the engine's player moves says.
_REFUSAL = "a simultaneous node, and the engine lists no player's own moves"


@cython.cclass
class _Duct(PlayoutSearch):  # type: ignore[misc]
    """The search's state: its tree in flat arrays and scratch buffers (the game, the random stream and a
    playout's are :class:`~stratagem.solvers.packed_playout.PlayoutSearch`'s)."""

    selection: cython.int
    exploration: cython.double
    gamma: cython.double
    fixed: cython.bint
    low: cython.double
    high: cython.double
    nodes: cython.Py_ssize_t
    node_cap: cython.Py_ssize_t
    edges: cython.Py_ssize_t
    edge_cap: cython.Py_ssize_t
    per_node: cython.Py_ssize_t
    # nodes
    kind: cython.longlong[::1]
    visits: cython.longlong[::1]
    first: cython.longlong[::1]
    count: cython.longlong[::1]
    wtotal: cython.longlong[::1]
    pfirst: cython.longlong[:, ::1]
    pcount: cython.longlong[:, ::1]
    head: cython.longlong[::1]
    nkey: cython.longlong[::1]
    nnext: cython.longlong[::1]
    states: cython.longlong[:, ::1]
    # edges
    emove: cython.longlong[:, ::1]
    eword: cython.longlong[::1]
    echild: cython.longlong[::1]
    ecum: cython.longlong[::1]
    evisits: cython.longlong[::1]
    etotal: cython.double[::1]
    eacc: cython.double[::1]
    # the path of one iteration
    path: cython.longlong[::1]
    pedge: cython.longlong[::1]
    ppick: cython.longlong[:, ::1]
    pprob: cython.double[:, ::1]
    # scratch
    probs: cython.double[::1]
    root_totals: cython.double[::1]
    arrays: Any

    def __init__(self, game: PackedGame, sp: Any, root: Any, seed: int, selection: int, exploration: float,
                 gamma: float, reward_range: Any, limit: int, nodes: int) -> None:
        PlayoutSearch.__init__(self, game, sp, seed, limit, 0.0, None, True, DuctStopped, _REFUSAL)
        self.selection = selection
        self.exploration = exploration
        self.gamma = gamma
        self.fixed = reward_range is not None
        self.low = float(reward_range[0]) if reward_range is not None else math.inf
        self.high = float(reward_range[1]) if reward_range is not None else -math.inf
        player_room = sp.max_player_moves if sp is not None else 1
        self.per_node = max(game.max_moves, player_room * game.players)
        self.arrays = {}
        self.nodes = 0
        self.edges = 0
        self.node_cap = 0
        self.edge_cap = 0
        self._grow(max(nodes, 16), max(nodes, 16) * 4 + self.per_node)
        self.probs = np.zeros(max(player_room, game.max_moves), np.float64)
        self.root_totals = np.zeros(self.players, np.float64)
        self.path = np.zeros(0, np.int64)
        self._room_for_path(64)
        self.arrays["states"][0] = np.ascontiguousarray(root, dtype=np.int64)
        self.nodes = 1
        self._new_node(0)

    # -- storage ----------------------------------------------------------------------------------

    def _grow(self, node_cap: int, edge_cap: int) -> None:
        """Room for ``node_cap`` nodes and ``edge_cap`` edges, the tree so far kept."""
        old = self.arrays
        if node_cap > self.node_cap:
            regrow(old, {"kind": (), "visits": (), "first": (), "count": (), "wtotal": (), "pfirst": (self.players,),
                         "pcount": (self.players,), "head": (), "nkey": (), "nnext": (), "states": (self.width,)},
                   node_cap, self.node_cap)
            self.node_cap = node_cap
        if edge_cap > self.edge_cap:
            regrow(old, {"emove": (self.move_width,), "eword": (), "echild": (), "ecum": (), "evisits": (),
                         "etotal": (), "eacc": ()}, edge_cap, self.edge_cap, ("etotal", "eacc"))
            self.edge_cap = edge_cap
        self.kind, self.visits, self.first, self.count = old["kind"], old["visits"], old["first"], old["count"]
        self.wtotal, self.pfirst, self.pcount = old["wtotal"], old["pfirst"], old["pcount"]
        self.head, self.nkey, self.nnext, self.states = old["head"], old["nkey"], old["nnext"], old["states"]
        self.emove, self.eword, self.echild, self.ecum = old["emove"], old["eword"], old["echild"], old["ecum"]
        self.evisits, self.etotal, self.eacc = old["evisits"], old["etotal"], old["eacc"]

    def _room_for_path(self, depth: int) -> None:
        """Path arrays for iterations ``depth`` plies deep (kept when large enough)."""
        if self.path.shape[0] >= depth:
            return
        self.path = np.zeros(depth, np.int64)
        self.pedge = np.zeros(depth, np.int64)
        self.ppick = np.zeros((depth, self.players), np.int64)
        self.pprob = np.zeros((depth, self.players), np.float64)

    @cython.cfunc
    @cython.exceptval(-1, check=False)
    def _new_node(self, node: cython.Py_ssize_t) -> cython.int:
        """Initialise node ``node`` (its state written): its kind, no edges or children yet."""
        state: cython.longlong[::1] = self.states[node]
        self.visits[node] = 0
        self.count[node] = -1
        self.first[node] = 0
        self.wtotal[node] = 0
        self.head[node] = -1
        self.nnext[node] = -1
        self.nkey[node] = 0
        if self.game.terminal(state, self.rbuf):
            self.kind[node] = TERMINAL_NODE
        else:
            self.kind[node] = self.game.to_move(state)
            if self.kind[node] == SIMULTANEOUS and not self.has_sp:
                raise DuctStopped(_REFUSAL)
        return 0

    # -- values -----------------------------------------------------------------------------------

    @cython.cfunc
    @cython.exceptval(-1, check=False)
    def _observe(self) -> cython.int:
        """Widen the range seen so far by ``value`` (without a fixed range)."""
        p: cython.Py_ssize_t
        if self.fixed:
            return 0
        for p in range(self.players):
            if self.value[p] < self.low:
                self.low = self.value[p]
            if self.value[p] > self.high:
                self.high = self.value[p]
        return 0

    @cython.cfunc
    @cython.exceptval(check=False)
    def _scale(self, reward: cython.double) -> cython.double:
        """A return scaled into [0, 1] (0.5 while the range is empty)."""
        u: cython.double
        if not self.high > self.low:
            return 0.5
        u = (reward - self.low) / (self.high - self.low)
        return 0.0 if u < 0.0 else (1.0 if u > 1.0 else u)

    @cython.cfunc
    @cython.exceptval(-1, check=False)
    def _returns(self, state: cython.longlong[::1]) -> cython.int:
        """``value`` := the returns of a terminal ``state`` (observed)."""
        p: cython.Py_ssize_t
        self.game.terminal(state, self.rbuf)
        for p in range(self.players):
            self.value[p] = cython.cast(cython.double, self.rbuf[p])
        return self._observe()

    @cython.cfunc
    @cython.exceptval(-1, check=False)
    def _playout(self, node: cython.Py_ssize_t) -> cython.int:
        """``value`` := the returns at the end of a random playout from ``node`` (see the module docstring),
        observed."""
        self._rollout(self.states[node])
        return self._observe()

    # -- edges and selection ----------------------------------------------------------------------

    @cython.cfunc
    @cython.exceptval(-1, check=False)
    def _edges(self, node: cython.Py_ssize_t) -> cython.int:
        """Make the node's edges: chance outcomes (cumulative weights), legal moves, or each player's own
        moves at a simultaneous node (player ``p``'s from ``pfirst[node, p]``)."""
        game: PackedGame = self.game
        state: cython.longlong[::1] = self.states[node]
        kind: cython.longlong = self.kind[node]
        first: cython.Py_ssize_t = self.edges
        count: cython.Py_ssize_t = 0
        n: cython.Py_ssize_t
        i: cython.Py_ssize_t
        x: cython.Py_ssize_t
        e: cython.Py_ssize_t
        p: cython.Py_ssize_t
        total: cython.longlong = 0
        if kind == SIMULTANEOUS:
            for p in range(self.players):
                n = self.sp.player_moves(state, p, self.words)
                if n <= 0:
                    raise DuctStopped(f"player {p} has no move at a simultaneous node")
                self.pfirst[node, p] = first + count
                self.pcount[node, p] = n
                for i in range(n):
                    e = first + count + i
                    self.eword[e] = self.words[i]
                    self.echild[e] = -1
                    self.evisits[e] = 0
                    self.etotal[e] = 0.0
                    self.eacc[e] = 0.0
                count += n
        else:
            if kind == CHANCE:
                n = game.chance(state, self.mbuf, self.wbuf)
                if n <= 0:
                    raise DuctStopped("a chance node lists no outcomes")
            else:
                n = game.legal(state, self.mbuf)
                if n <= 0:
                    raise DuctStopped(f"player {kind} has no legal move in a non-terminal state")
            for i in range(n):
                e = first + i
                for x in range(self.move_width):
                    self.emove[e, x] = self.mbuf[i, x]
                self.echild[e] = -1
                self.evisits[e] = 0
                self.etotal[e] = 0.0
                self.eacc[e] = 0.0
                if kind == CHANCE:
                    if self.wbuf[i] <= 0:
                        raise DuctStopped("a chance outcome with a weight that is not positive")
                    total += self.wbuf[i]
                    self.ecum[e] = total
            count = n
        self.first[node] = first
        self.count[node] = count
        self.wtotal[node] = total
        self.edges = first + count
        return 0

    @cython.cfunc
    @cython.exceptval(-1, check=False)
    def _ucb1(self, first: cython.Py_ssize_t, count: cython.Py_ssize_t, parent: cython.longlong) -> cython.Py_ssize_t:
        """UCB1's choice among the edges ``first .. first + count - 1`` (an index from ``first``): an
        unvisited one at random, else the best score, ties (within 1e-12) broken at random."""
        unvisited: cython.Py_ssize_t = 0
        i: cython.Py_ssize_t
        e: cython.Py_ssize_t
        k: cython.Py_ssize_t
        n: cython.double
        top: cython.double = _NEVER
        score: cython.double
        log_n: cython.double
        for i in range(count):
            if self.evisits[first + i] == 0:
                unvisited += 1
        if unvisited > 0:
            k = self._below(unvisited) if unvisited > 1 else 0
            for i in range(count):
                if self.evisits[first + i] == 0:
                    if k == 0:
                        return i
                    k -= 1
        log_n = log(cython.cast(cython.double, parent if parent > 1 else 1))
        for i in range(count):
            e = first + i
            n = cython.cast(cython.double, self.evisits[e])
            score = self._scale(self.etotal[e] / n) + self.exploration * sqrt(log_n / n)
            self.probs[i] = score
            if score > top:
                top = score
        k = 0
        for i in range(count):
            if self.probs[i] >= top - 1e-12:
                k += 1
        k = self._below(k) if k > 1 else 0
        for i in range(count):
            if self.probs[i] >= top - 1e-12:
                if k == 0:
                    return i
                k -= 1
        return 0  # pragma: no cover

    @cython.cfunc
    @cython.exceptval(-1, check=False)
    def _mix(self, first: cython.Py_ssize_t, count: cython.Py_ssize_t) -> cython.int:
        """``probs`` := the regret-matching or Exp3 distribution over the edges, ``gamma`` uniform mixed in."""
        i: cython.Py_ssize_t
        total: cython.double = 0.0
        top: cython.double
        eta: cython.double
        k: cython.double = cython.cast(cython.double, count)
        if self.selection == _REGRET:
            for i in range(count):
                self.probs[i] = self.eacc[first + i] if self.eacc[first + i] > 0.0 else 0.0
                total += self.probs[i]
            for i in range(count):
                self.probs[i] = self.probs[i] / total if total > 0.0 else 1.0 / k
        else:
            eta = self.gamma / k
            top = self.eacc[first]
            for i in range(count):
                if self.eacc[first + i] > top:
                    top = self.eacc[first + i]
            for i in range(count):
                self.probs[i] = exp(eta * (self.eacc[first + i] - top))
                total += self.probs[i]
            for i in range(count):
                self.probs[i] = self.probs[i] / total
        for i in range(count):
            self.probs[i] = (1.0 - self.gamma) * self.probs[i] + self.gamma / k
        return 0

    @cython.cfunc
    @cython.exceptval(-1, check=False)
    def _pick(self, count: cython.Py_ssize_t) -> cython.Py_ssize_t:
        """An index drawn from ``probs[0 .. count - 1]`` (their sum taken as the total)."""
        i: cython.Py_ssize_t
        total: cython.double = 0.0
        for i in range(count):
            total += self.probs[i]
        x: cython.double = self._uniform() * total
        for i in range(count):
            x -= self.probs[i]
            if x < 0.0:
                return i
        return count - 1

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

    # -- one iteration ----------------------------------------------------------------------------

    @cython.cfunc
    @cython.exceptval(-2, check=False)
    def _child(self, node: cython.Py_ssize_t, key: cython.longlong) -> cython.Py_ssize_t:
        """The child of simultaneous ``node`` for the joint choice ``key``, or -1."""
        child: cython.Py_ssize_t = self.head[node]
        while child >= 0:
            if self.nkey[child] == key:
                return child
            child = self.nnext[child]
        return -1

    @cython.cfunc
    @cython.exceptval(-1, check=False)
    def _iterate(self) -> cython.int:
        """One descent: select, expand one node, play out, back up (returns added to the root's totals)."""
        node: cython.Py_ssize_t = 0
        depth: cython.Py_ssize_t = 0
        kind: cython.longlong
        index: cython.Py_ssize_t
        edge: cython.Py_ssize_t
        child: cython.Py_ssize_t
        key: cython.longlong
        stride: cython.longlong
        p: cython.Py_ssize_t
        i: cython.Py_ssize_t
        n: cython.Py_ssize_t
        e: cython.Py_ssize_t
        first: cython.Py_ssize_t
        cnt: cython.Py_ssize_t
        while True:
            kind = self.kind[node]
            if kind == TERMINAL_NODE:
                self._returns(self.states[node])
                break
            if depth >= self.path.shape[0]:
                self._grow_path(depth)
            self.visits[node] += 1
            if self.count[node] < 0:
                self._edges(node)
            self.path[depth] = node
            edge = -1
            key = 0
            if kind == SIMULTANEOUS:
                stride = 1
                for p in range(self.players):
                    first = self.pfirst[node, p]
                    cnt = self.pcount[node, p]
                    if self.selection == _UCB1:
                        index = self._ucb1(first, cnt, self.visits[node])
                        self.pprob[depth, p] = 1.0
                    else:
                        self._mix(first, cnt)
                        index = self._pick(cnt)
                        self.pprob[depth, p] = self.probs[index]
                    self.ppick[depth, p] = first + index
                    self.choice[p] = self.eword[first + index]
                    key += index * stride
                    stride *= cnt
                child = self._child(node, key)
            else:
                if kind == CHANCE:
                    index = self._draw(node)
                else:
                    index = self._ucb1(self.first[node], self.count[node], self.visits[node])
                edge = self.first[node] + index
                child = self.echild[edge]
            self.pedge[depth] = edge
            depth += 1
            if child < 0:
                child = self.nodes
                if kind == SIMULTANEOUS:
                    self.sp.joint(self.choice, self.joint)
                    self.game.apply(self.states[node], self.joint, self.states[child])
                else:
                    self.game.apply(self.states[node], self.emove[edge], self.states[child])
                self.nodes += 1
                self._new_node(child)
                if kind == SIMULTANEOUS:
                    self.nkey[child] = key
                    self.nnext[child] = self.head[node]
                    self.head[node] = child
                else:
                    self.echild[edge] = child
                if self.kind[child] == TERMINAL_NODE:
                    self._returns(self.states[child])
                else:
                    self._playout(child)
                break
            node = child
        for p in range(self.players):
            self.root_totals[p] += self.value[p]
        for i in range(depth):
            n = self.path[i]
            kind = self.kind[n]
            if kind == SIMULTANEOUS:
                for p in range(self.players):
                    e = self.ppick[i, p]
                    self.evisits[e] += 1
                    self.etotal[e] += self.value[p]
                    if self.selection != _UCB1:
                        self._learn(n, p, e, self.pprob[i, p], self.value[p])
            elif kind >= 0:
                e = self.pedge[i]
                self.evisits[e] += 1
                self.etotal[e] += self.value[kind]
        return 0

    @cython.cfunc
    @cython.exceptval(-1, check=False)
    def _learn(self, node: cython.Py_ssize_t, p: cython.Py_ssize_t, edge: cython.Py_ssize_t, prob: cython.double,
               reward: cython.double) -> cython.int:
        """Regret matching's and Exp3's update after ``edge`` of player ``p``, chosen with ``prob``."""
        u: cython.double = self._scale(reward)
        first: cython.Py_ssize_t = self.pfirst[node, p]
        i: cython.Py_ssize_t
        if self.selection == _REGRET:
            for i in range(self.pcount[node, p]):
                if first + i == edge:
                    self.eacc[first + i] += u / prob - u
                else:
                    self.eacc[first + i] -= u
        else:
            self.eacc[edge] += u / prob
        return 0

    def _grow_path(self, depth: int) -> None:
        """Room for a path deeper than ``depth`` plies."""
        old = (np.asarray(self.path).copy(), np.asarray(self.pedge).copy(), np.asarray(self.ppick).copy(),
               np.asarray(self.pprob).copy())
        size = old[0].shape[0]
        self.path = np.zeros(0, np.int64)
        self._room_for_path(max(2 * size, depth + 1))
        np.asarray(self.path)[:size] = old[0]
        np.asarray(self.pedge)[:size] = old[1]
        np.asarray(self.ppick)[:size] = old[2]
        np.asarray(self.pprob)[:size] = old[3]

    @cython.ccall
    @cython.exceptval(-1)
    def run(self, iterations: cython.longlong, deadline: cython.double) -> cython.longlong:
        """Up to ``iterations`` descents, stopping after the first once the wall-clock ``deadline`` (a
        ``time.perf_counter`` value; negative: none) has passed; how many were done.

        Every ``_CLOCK_EVERY`` descents, with the clock, Python's signal handlers get their turn
        (``PyErr_CheckSignals``): compiled, the loop runs no bytecode, so Ctrl-C or SIGTERM would otherwise
        wait for the whole search; the handler's exception (``KeyboardInterrupt``, ``Terminated``) ends it."""
        done: cython.longlong = 0
        since: cython.Py_ssize_t = 0
        while done < iterations:
            if since == 0:
                PyErr_CheckSignals()
                if deadline >= 0 and done > 0 and time.perf_counter() >= deadline:
                    break
            since = (since + 1) % _CLOCK_EVERY
            if self.nodes + 2 > self.node_cap or self.edges + self.per_node > self.edge_cap:
                self._grow(self.node_cap * 2 if self.nodes + 2 > self.node_cap else self.node_cap,
                           max(self.edge_cap * 2, self.edges + 2 * self.per_node))
            self._iterate()
            done += 1
        return done

    def root(self) -> dict[str, Any]:
        """The root's statistics: its kind, per player the moves (records at a decision root, each
        player's own move integers at a simultaneous root), visits and summed own returns, and the
        summed returns of every descent."""
        kind = int(self.kind[0])
        first = int(self.first[0])
        per_player: list[tuple[Any, Any, Any]] = []
        for p in range(self.players):
            if kind == SIMULTANEOUS:
                start, count = int(self.pfirst[0, p]), int(self.pcount[0, p])
                moves: Any = np.asarray(self.eword)[start:start + count].copy()
            elif kind == p:
                start, count = first, max(int(self.count[0]), 0)
                moves = np.asarray(self.emove)[start:start + count].copy()
            else:
                per_player.append((None, np.zeros(0, np.int64), np.zeros(0)))
                continue
            per_player.append((moves, np.asarray(self.evisits)[start:start + count].copy(),
                               np.asarray(self.etotal)[start:start + count].copy()))
        return {"kind": kind, "players": per_player, "totals": np.asarray(self.root_totals).copy(),
                "nodes": int(self.nodes)}


def run_duct(game: PackedGame, state: Any, *, simultaneous: Any = None, iterations: int = 1000,
             time_limit: float | None = None, seed: int = 0, selection: str = "ucb1", exploration: float = 1.4,
             gamma: float = 0.1, rollout_limit: int | None = None,
             reward_range: tuple[float, float] | None = None) -> dict[str, Any]:
    """DUCT from the packed ``state`` of ``game`` (a simultaneous or decision node); ``simultaneous`` is
    the engine's :class:`~stratagem.solvers.induction_kernel.SimultaneousPacked` (None for a game without
    simultaneous nodes). Options as :func:`stratagem.solvers.duct.duct`'s; ``time_limit`` in wall seconds
    (after at least one descent).

    Returns the descents done, wall seconds, the tree's size and the root (see ``_Duct.root``). Raises
    :class:`DuctStopped` at a state the search cannot handle, ``ValueError`` for bad options.
    """
    if selection not in SELECTIONS:
        raise ValueError(f"selection must be one of {', '.join(SELECTIONS)}, not {selection!r}")
    if iterations < 1:
        raise ValueError("iterations must be at least 1")
    if reward_range is not None and not float(reward_range[1]) > float(reward_range[0]):
        raise ValueError(f"reward_range {reward_range} is not (low, high) with low < high")
    start = time.perf_counter()
    search = _Duct(game, simultaneous, state, seed, SELECTIONS.index(selection), exploration, gamma, reward_range,
                   -1 if rollout_limit is None else rollout_limit, min(iterations + 2, 1 << 12))
    kind = int(search.kind[0])
    if kind < 0 and kind != SIMULTANEOUS:
        raise ValueError("DUCT searches from a simultaneous or decision node, not a terminal or chance node")
    deadline = -1.0 if time_limit is None else start + max(time_limit, 0.0)
    done = search.run(iterations, deadline)
    found = search.root()
    found.update(iterations=int(done), seconds=time.perf_counter() - start)
    return found


__all__ = ["SELECTIONS", "DuctStopped", "run_duct"]

# mypy: disallow-untyped-decorators=False
"""STAKD Elite's compiled engine: one round over packed states, behind :class:`~stratagem.core.packed.PackedGame`.

The rules are :mod:`stratagem.models.stakd.rules`' (the reference, docs/rules/stakd.md), 1 (solo) to 6
players, on any :class:`~stratagem.models.stakd.geometry.Geometry` (the lattice and shapes are data: the
engine copies its placements, footprints, halos and adjacency into arrays). STAKD has no chance. This
module is a kernel (compiled at install, see ``setup.py``); uncompiled it runs as plain Python with the
same results.

A packed state is ``6 + players + capacity`` words, ``capacity`` being every piece of the game (on the
table and in hand at the start the engine was built from):

===================== =============================================================================
slot                  content
===================== =============================================================================
0                     the player to move (as the reference state records it, also at the end)
1                     the players who are out, as a bit set
2                     pieces placed so far
3                     the current layer (-1 on an empty table)
4                     where the current layer starts in the placement sequence
5                     where the layer below it starts
6 .. 6+players-1      each hand: six 8-bit counts, kind ``k`` (``BQTDUX`` order) at bit 8k
6+players ..          the pieces in placement order (layers bottom first, each in its own order):
                      ``placement | owner << 24 | layer << 32``, ``placement`` an index into the
                      engine's table of every footprint of every kind (kinds in ``BQTDUX`` order, each
                      in the geometry's order)
===================== =============================================================================

Move generation reads only the top two layers, as the reference's ``Support`` does: for each call the
engine maps every node of those layers to the piece covering it and works out which kinds each piece
of the layer below already carries (all kinds once a Bomber rests on it), in scratch arrays of its own
(so one engine serves one search thread). A move record is ``(placement, layer)``; :meth:`StakdEngine.legal`
lists them in the reference's order (current layer first, kinds biggest first, anchors in node order;
then the moves that start a new layer). :meth:`StakdEngine.apply` checks the move against the same
rules, places the piece and passes the turn as the reference's ``settle`` does (a player found
without a play is out for good). Returns are the reference's: solo +1 when every piece is placed, else
-1; with players, +1 to whoever placed the last piece that is not a Bomber, -1 to the others.

Why one module of over 600 lines: it is one concept, STAKD's rules over packed states (the compiled
twin of the rules engine, held to it move for move); its functions share the state layout and call one
another at C level, which Cython inlines only within one module.
"""

from __future__ import annotations

from typing import Any

import cython
import numpy as np

if cython.compiled:
    from cython.cimports.stratagem.core.packed import PackedGame
else:
    from stratagem.core.packed import PackedGame

MOVE_WIDTH = 2
#: Pieces on the current layer before a new layer may start (the reference's ``LAYER_MINIMUM``).
LAYER_MINIMUM = cython.declare(cython.longlong, 6)

TO_MOVE = cython.declare(cython.Py_ssize_t, 0)
OUT = cython.declare(cython.Py_ssize_t, 1)
COUNT = cython.declare(cython.Py_ssize_t, 2)
TOP = cython.declare(cython.Py_ssize_t, 3)
TOP_START = cython.declare(cython.Py_ssize_t, 4)
LOW_START = cython.declare(cython.Py_ssize_t, 5)
HANDS = cython.declare(cython.Py_ssize_t, 6)

BASE = cython.declare(cython.longlong, 0)
UNI = cython.declare(cython.longlong, 4)
BOMBER = cython.declare(cython.longlong, 5)
ALL_KINDS = cython.declare(cython.longlong, 63)
#: The counts of Bases, Quads, Trios and Duos in a hand: none left, a Uni may start a layer.
BIG_KINDS = cython.declare(cython.longlong, 0xFFFFFFFF)
KINDS_COUNT = 6

_KINDS = "BQTDUX"


def _bits(mask: int) -> list[int]:
    """The nodes of a node mask, lowest first. The engine's tables were built by testing every node of the
    lattice for each placement's halo and each node's neighbours: 17.7 s on the 64 x 64 lattice (some 350
    million tests), past any time limit; a mask holds a few nodes."""
    found = []
    while mask:
        lowest = mask & -mask
        found.append(lowest.bit_length() - 1)
        mask ^= lowest
    return found


@cython.cclass
class StakdEngine(PackedGame):  # type: ignore[misc]
    """One round of STAKD on a geometry as a :class:`~stratagem.core.packed.PackedGame` (the module
    docstring gives the layout); :meth:`from_game` builds it from a
    :class:`~stratagem.models.stakd.rules.StakdGame`."""

    nodes: cython.Py_ssize_t
    capacity: cython.Py_ssize_t
    seq: cython.Py_ssize_t
    first_base: cython.longlong
    gen: cython.longlong
    # The geometry as arrays: placements (kind, footprint, halo, mask id), placements by kind and
    # anchor, node adjacency.
    pl_kind: cython.longlong[::1]
    pl_mask: cython.longlong[::1]
    pl_nodes: cython.longlong[::1]
    pl_nstart: cython.longlong[::1]
    pl_halo: cython.longlong[::1]
    pl_hstart: cython.longlong[::1]
    by_anchor: cython.longlong[::1]
    kind_start: cython.longlong[::1]
    nb_list: cython.longlong[::1]
    nb_start: cython.longlong[::1]
    # Scratch: the top two layers of the state last summarised (valid where the stamp is ``gen``).
    top_stamp: cython.longlong[::1]
    top_piece: cython.longlong[::1]
    low_stamp: cython.longlong[::1]
    low_piece: cython.longlong[::1]
    top_mask: cython.longlong[::1]
    low_mask: cython.longlong[::1]
    carried: cython.longlong[::1]
    contacts: cython.longlong[::1]
    free: cython.longlong[::1]
    _scratch: cython.longlong[:, ::1]
    top_size: cython.longlong
    top_bomber: cython.bint
    top_lo: cython.Py_ssize_t
    top_hi: cython.Py_ssize_t
    low_lo: cython.Py_ssize_t
    low_hi: cython.Py_ssize_t
    # Python-side tables for encode/decode.
    geometry: object
    placements: object
    pid_of: object

    def __init__(self, players: int, geometry: Any, capacity: int) -> None:
        from stratagem.models.stakd.pieces import KINDS, MAX_PLAYERS

        if not 1 <= players <= MAX_PLAYERS:
            raise ValueError(f"STAKD is played by 1 to {MAX_PLAYERS} players, not {players}")
        if tuple(KINDS) != tuple(_KINDS):
            raise ValueError("the engine's kinds differ from the rules' kinds")
        placements = [p for kind in KINDS for p in geometry.placements[kind]]
        if not placements or capacity < 1:
            raise ValueError("a STAKD engine needs placements and room for a piece")
        if len(placements) >= 1 << 24 or capacity >= 1 << 20:
            raise ValueError("the geometry or the game is beyond the compiled engine")
        PackedGame.__init__(self, HANDS + players + capacity, MOVE_WIDTH, len(placements), players)
        n = len(geometry.nodes)
        self.nodes = n
        self.capacity = capacity
        self.seq = HANDS + players
        self.geometry = geometry
        self.placements = placements
        self.pid_of = {(p.kind, p.anchor, p.orient): i for i, p in enumerate(placements)}
        self.first_base = self.pid_of[(geometry.first_base.kind, geometry.first_base.anchor,
                                       geometry.first_base.orient)]
        masks: dict[int, int] = {}
        nodes: list[int] = []
        halo: list[int] = []
        nstart = [0]
        hstart = [0]
        for p in placements:
            nodes.extend(p.nodes)
            nstart.append(len(nodes))
            halo.extend(_bits(p.halo))
            hstart.append(len(halo))
        self.pl_kind = np.array([KINDS.index(p.kind) for p in placements], np.int64)
        self.pl_mask = np.array([masks.setdefault(p.mask, len(masks)) for p in placements], np.int64)
        self.pl_nodes = np.array(nodes, np.int64)
        self.pl_nstart = np.array(nstart, np.int64)
        self.pl_halo = np.array(halo or [0], np.int64)
        self.pl_hstart = np.array(hstart, np.int64)
        # by_anchor[kind * (n + 1) + a] .. [.. + 1]: the placements of a kind anchored at node a, which
        # the geometry lists together (its placements go node by node).
        anchors = np.zeros(KINDS_COUNT * (n + 1), np.int64)
        kind_start = [0]
        for k, kind in enumerate(KINDS):
            first = kind_start[-1]
            run = geometry.placements[kind]
            at = first
            for a in range(n):
                anchors[k * (n + 1) + a] = at
                while at < first + len(run) and geometry.index[run[at - first].anchor] == a:
                    at += 1
            anchors[k * (n + 1) + n] = at
            if at != first + len(run):
                raise ValueError(f"the geometry does not list the {kind} placements node by node")
            kind_start.append(at)
        self.by_anchor = anchors
        self.kind_start = np.array(kind_start, np.int64)
        nb: list[int] = []
        nbstart = [0]
        for i in range(n):
            nb.extend(_bits(geometry.neighbours[i]))
            nbstart.append(len(nb))
        self.nb_list = np.array(nb or [0], np.int64)
        self.nb_start = np.array(nbstart, np.int64)
        self.top_stamp = np.zeros(n, np.int64)
        self.top_piece = np.zeros(n, np.int64)
        self.low_stamp = np.zeros(n, np.int64)
        self.low_piece = np.zeros(n, np.int64)
        self.top_mask = np.zeros(capacity, np.int64)
        self.low_mask = np.zeros(capacity, np.int64)
        self.carried = np.zeros(capacity, np.int64)
        self.contacts = np.zeros(capacity, np.int64)
        self.free = np.zeros(n, np.int64)
        self._scratch = np.zeros((len(placements), MOVE_WIDTH), np.int64)
        self.gen = 0

    @staticmethod
    def from_game(game: Any) -> StakdEngine:
        """The engine of a :class:`~stratagem.models.stakd.rules.StakdGame`: its players, its geometry, and
        room for every piece of its start position."""
        start = game.initial_state()
        capacity = sum(len(layer) for layer in start.layers) + sum(sum(hand) for hand in start.hands)
        return StakdEngine(game.num_players, game.geometry, max(capacity, 1))

    # -- the top of the structure -----------------------------------------------------------------
    @cython.cfunc
    @cython.boundscheck(False)
    @cython.wraparound(False)
    @cython.initializedcheck(False)
    @cython.exceptval(check=False)
    def _summarise(self, state: cython.longlong[::1]) -> cython.void:
        """Map the nodes of the top two layers to their pieces, and what each piece below carries."""
        self.gen += 1
        gen: cython.longlong = self.gen
        seq: cython.Py_ssize_t = self.seq
        top: cython.longlong = state[TOP]
        count: cython.Py_ssize_t = state[COUNT]
        top_start: cython.Py_ssize_t = state[TOP_START]
        low_start: cython.Py_ssize_t = state[LOW_START]
        i: cython.Py_ssize_t
        j: cython.Py_ssize_t
        k: cython.Py_ssize_t
        pid: cython.Py_ssize_t
        node: cython.Py_ssize_t
        self.top_size = 0
        self.top_bomber = False
        # The node ranges the two layers span (scans for free or covered nodes look only there).
        self.top_lo = self.nodes
        self.top_hi = -1
        self.low_lo = self.nodes
        self.low_hi = -1
        if top < 0:
            return
        if top >= 1:
            for i in range(low_start, top_start):
                j = i - low_start
                pid = state[seq + i] & 0xFFFFFF
                self.low_mask[j] = self.pl_mask[pid]
                self.carried[j] = 0
                for k in range(self.pl_nstart[pid], self.pl_nstart[pid + 1]):
                    node = self.pl_nodes[k]
                    self.low_stamp[node] = gen
                    self.low_piece[node] = j
                    if node < self.low_lo:
                        self.low_lo = node
                    if node > self.low_hi:
                        self.low_hi = node
        for i in range(top_start, count):
            self._add_top(state[seq + i] & 0xFFFFFF, top >= 1)

    @cython.cfunc
    @cython.boundscheck(False)
    @cython.wraparound(False)
    @cython.initializedcheck(False)
    @cython.exceptval(check=False)
    def _add_top(self, pid: cython.Py_ssize_t, below: cython.bint) -> cython.void:
        """Add a piece of the current layer to the summary (``below``: a layer below it exists)."""
        gen: cython.longlong = self.gen
        j: cython.Py_ssize_t = self.top_size
        k: cython.Py_ssize_t
        node: cython.Py_ssize_t
        bit: cython.longlong
        self.top_mask[j] = self.pl_mask[pid]
        if self.pl_kind[pid] == BOMBER:
            self.top_bomber = True
            bit = ALL_KINDS
        else:
            bit = cython.cast(cython.longlong, 1) << self.pl_kind[pid]
        for k in range(self.pl_nstart[pid], self.pl_nstart[pid + 1]):
            node = self.pl_nodes[k]
            self.top_stamp[node] = gen
            self.top_piece[node] = j
            if node < self.top_lo:
                self.top_lo = node
            if node > self.top_hi:
                self.top_hi = node
            if below and self.low_stamp[node] == gen:
                self.carried[self.low_piece[node]] |= bit
        self.top_size = j + 1

    @cython.cfunc
    @cython.boundscheck(False)
    @cython.wraparound(False)
    @cython.initializedcheck(False)
    @cython.exceptval(check=False)
    def _base_fits(self, pid: cython.Py_ssize_t) -> cython.bint:
        """A Base on layer 0 (the current one): on free nodes, touching the layer, and touching one Base
        already down at two node pairs or more."""
        gen: cython.longlong = self.gen
        k: cython.Py_ssize_t
        m: cython.Py_ssize_t
        node: cython.Py_ssize_t
        other: cython.Py_ssize_t
        touches: cython.bint = False
        for k in range(self.pl_nstart[pid], self.pl_nstart[pid + 1]):
            if self.top_stamp[self.pl_nodes[k]] == gen:
                return False
        for k in range(self.pl_hstart[pid], self.pl_hstart[pid + 1]):
            if self.top_stamp[self.pl_halo[k]] == gen:
                touches = True
                break
        if not touches:
            return False
        for k in range(self.top_size):
            self.contacts[k] = 0
        found: cython.bint = False
        for k in range(self.pl_nstart[pid], self.pl_nstart[pid + 1]):
            node = self.pl_nodes[k]
            for m in range(self.nb_start[node], self.nb_start[node + 1]):
                other = self.nb_list[m]
                if self.top_stamp[other] == gen:
                    self.contacts[self.top_piece[other]] += 1
                    if self.contacts[self.top_piece[other]] >= 2:
                        found = True
        return found

    @cython.cfunc
    @cython.boundscheck(False)
    @cython.wraparound(False)
    @cython.initializedcheck(False)
    @cython.exceptval(check=False)
    def _current_fits(self, pid: cython.Py_ssize_t) -> cython.bint:
        """A piece on the current layer k >= 1: every node on a piece of layer k-1 and free on layer k,
        touching a piece of layer k, resting on no piece that carries its kind, is terminated or has
        its very footprint."""
        gen: cython.longlong = self.gen
        k: cython.Py_ssize_t
        node: cython.Py_ssize_t
        j: cython.Py_ssize_t
        touches: cython.bint = False
        bit: cython.longlong = cython.cast(cython.longlong, 1) << self.pl_kind[pid]
        mask: cython.longlong = self.pl_mask[pid]
        for k in range(self.pl_nstart[pid], self.pl_nstart[pid + 1]):
            node = self.pl_nodes[k]
            if self.low_stamp[node] != gen or self.top_stamp[node] == gen:
                return False
        for k in range(self.pl_hstart[pid], self.pl_hstart[pid + 1]):
            if self.top_stamp[self.pl_halo[k]] == gen:
                touches = True
                break
        if not touches:
            return False
        for k in range(self.pl_nstart[pid], self.pl_nstart[pid + 1]):
            j = self.low_piece[self.pl_nodes[k]]
            if self.carried[j] & bit or self.low_mask[j] == mask:
                return False
        return True

    @cython.cfunc
    @cython.boundscheck(False)
    @cython.wraparound(False)
    @cython.initializedcheck(False)
    @cython.exceptval(check=False)
    def _new_fits(self, pid: cython.Py_ssize_t) -> cython.bint:
        """A piece starting a new layer on the current one: every node on a piece of it, and the very
        footprint of none of them."""
        gen: cython.longlong = self.gen
        k: cython.Py_ssize_t
        node: cython.Py_ssize_t
        mask: cython.longlong = self.pl_mask[pid]
        for k in range(self.pl_nstart[pid], self.pl_nstart[pid + 1]):
            node = self.pl_nodes[k]
            if self.top_stamp[node] != gen or self.top_mask[self.top_piece[node]] == mask:
                return False
        return True

    @cython.cfunc
    @cython.boundscheck(False)
    @cython.wraparound(False)
    @cython.initializedcheck(False)
    @cython.exceptval(-1, check=False)
    def _current(self, state: cython.longlong[::1], hand: cython.longlong, moves: cython.longlong[:, ::1],
                 limit: cython.Py_ssize_t) -> cython.Py_ssize_t:
        """The reference's ``current_layer_moves`` (of a summarised state), at most ``limit`` of them
        (0: all)."""
        top: cython.longlong = state[TOP]
        count: cython.Py_ssize_t = 0
        pid: cython.Py_ssize_t
        if top < 0:
            if hand & 255:
                moves[0, 0] = self.first_base
                moves[0, 1] = 0
                count = 1
            return count
        if top == 0:
            if not hand & 255:
                return 0
            for pid in range(self.kind_start[BASE], self.kind_start[BASE + 1]):
                if self._base_fits(pid):
                    moves[count, 0] = pid
                    moves[count, 1] = 0
                    count += 1
                    if count == limit:
                        return count
            return count
        gen: cython.longlong = self.gen
        n: cython.Py_ssize_t = self.nodes
        free: cython.Py_ssize_t = 0
        node: cython.Py_ssize_t
        for node in range(self.low_lo, self.low_hi + 1):
            if self.low_stamp[node] == gen and self.top_stamp[node] != gen:
                self.free[free] = node
                free += 1
        kind: cython.Py_ssize_t
        f: cython.Py_ssize_t
        a: cython.Py_ssize_t
        for kind in range(1, KINDS_COUNT):
            if not (hand >> (8 * kind)) & 255 or (kind == BOMBER and self.top_bomber):
                continue
            for f in range(free):
                a = kind * (n + 1) + self.free[f]
                for pid in range(self.by_anchor[a], self.by_anchor[a + 1]):
                    if self._current_fits(pid):
                        moves[count, 0] = pid
                        moves[count, 1] = top
                        count += 1
                        if count == limit:
                            return count
        return count

    @cython.cfunc
    @cython.boundscheck(False)
    @cython.wraparound(False)
    @cython.initializedcheck(False)
    @cython.exceptval(-1, check=False)
    def _new_layer(self, state: cython.longlong[::1], hand: cython.longlong, moves: cython.longlong[:, ::1],
                   count: cython.Py_ssize_t, limit: cython.Py_ssize_t) -> cython.Py_ssize_t:
        """The reference's ``new_layer_moves`` (of a summarised state) after ``count`` moves."""
        top: cython.longlong = state[TOP]
        if top < 0:
            return count
        only_unis: cython.bint = (hand & BIG_KINDS) == 0
        gen: cython.longlong = self.gen
        n: cython.Py_ssize_t = self.nodes
        kind: cython.Py_ssize_t
        node: cython.Py_ssize_t
        pid: cython.Py_ssize_t
        a: cython.Py_ssize_t
        for kind in range(1, BOMBER):
            if not (hand >> (8 * kind)) & 255 or (kind == UNI and not only_unis):
                continue
            for node in range(self.top_lo, self.top_hi + 1):
                if self.top_stamp[node] != gen:
                    continue
                a = kind * (n + 1) + node
                for pid in range(self.by_anchor[a], self.by_anchor[a + 1]):
                    if self._new_fits(pid):
                        moves[count, 0] = pid
                        moves[count, 1] = top + 1
                        count += 1
                        if count == limit:
                            return count
        return count

    @cython.cfunc
    @cython.exceptval(-1, check=False)
    def _moves(self, state: cython.longlong[::1], player: cython.Py_ssize_t, moves: cython.longlong[:, ::1],
               limit: cython.Py_ssize_t) -> cython.Py_ssize_t:
        """The reference's ``moves_for`` the hand of ``player`` (state summarised): current layer first,
        then a new layer's when the current one holds six pieces or offers nothing."""
        hand: cython.longlong = state[HANDS + player]
        count: cython.Py_ssize_t = self._current(state, hand, moves, limit)
        if limit > 0 and count >= limit:
            return count
        if state[TOP] >= 0 and (self.top_size >= LAYER_MINIMUM or count == 0):
            count = self._new_layer(state, hand, moves, count, limit)
        return count

    # -- the C-level interface -------------------------------------------------------------------
    @cython.cfunc
    @cython.exceptval(-3, check=False)
    def to_move(self, state: cython.longlong[::1]) -> cython.Py_ssize_t:
        return state[TO_MOVE]

    @cython.cfunc
    @cython.exceptval(-1, check=False)
    def legal(self, state: cython.longlong[::1], moves: cython.longlong[:, ::1]) -> cython.Py_ssize_t:
        everyone: cython.longlong = (cython.cast(cython.longlong, 1) << self.players) - 1
        p: cython.Py_ssize_t = state[TO_MOVE]
        if state[OUT] == everyone or (state[OUT] >> p) & 1:
            return 0
        self._summarise(state)
        return self._moves(state, p, moves, 0)

    @cython.cfunc
    @cython.boundscheck(False)
    @cython.wraparound(False)
    @cython.initializedcheck(False)
    @cython.exceptval(-1, check=False)
    def apply(self, state: cython.longlong[::1], move: cython.longlong[::1], out: cython.longlong[::1]) -> cython.int:
        i: cython.Py_ssize_t
        for i in range(self.width):
            out[i] = state[i]
        n: cython.Py_ssize_t = self.players
        everyone: cython.longlong = (cython.cast(cython.longlong, 1) << n) - 1
        p: cython.Py_ssize_t = state[TO_MOVE]
        if state[OUT] == everyone or (state[OUT] >> p) & 1:
            raise ValueError("a STAKD move after the end of play, or by a player who is out")
        pid: cython.longlong = move[0]
        layer: cython.longlong = move[1]
        if pid < 0 or pid >= self.max_moves:
            raise ValueError("not a legal STAKD move: no such placement")
        kind: cython.longlong = self.pl_kind[pid]
        hand: cython.longlong = state[HANDS + p]
        if not (hand >> (8 * kind)) & 255:
            raise ValueError("not a legal STAKD move: the player holds no such piece")
        top: cython.longlong = state[TOP]
        count: cython.Py_ssize_t = state[COUNT]
        self._summarise(state)
        ok: cython.bint = False
        if top < 0:
            ok = layer == 0 and pid == self.first_base
        elif layer == top:
            if top == 0:
                ok = kind == BASE and self._base_fits(pid)
            else:
                ok = kind != BASE and not (kind == BOMBER and self.top_bomber) and self._current_fits(pid)
        elif layer == top + 1:
            ok = (kind != BASE and kind != BOMBER and (kind != UNI or (hand & BIG_KINDS) == 0)
                  and self._new_fits(pid)
                  and (self.top_size >= LAYER_MINIMUM or self._current(state, hand, self._scratch, 1) == 0))
        if not ok:
            raise ValueError("not a legal STAKD move of this state")
        if count >= self.capacity:
            raise ValueError("more pieces than the compiled engine was built for")
        out[self.seq + count] = pid | (cython.cast(cython.longlong, p) << 24) | (layer << 32)
        out[COUNT] = count + 1
        if layer != top:
            out[TOP] = layer
            out[LOW_START] = state[TOP_START]
            out[TOP_START] = count
        out[HANDS + p] = hand - (cython.cast(cython.longlong, 1) << (8 * kind))
        # The reference's settle: the turn passes to the next player who is not out and has a play;
        # a player found without one is out for good. A piece on the current layer only adds to the
        # summary of the state before; a new layer is summarised afresh.
        if layer == top:
            self._add_top(pid, top >= 1)
        else:
            self._summarise(out)
        gone: cython.longlong = state[OUT]
        q: cython.Py_ssize_t = (p + 1) % n
        turn: cython.Py_ssize_t
        for turn in range(n):  # noqa: B007 (each player once)
            if not (gone >> q) & 1:
                if self._moves(out, q, self._scratch, 1) > 0:
                    out[TO_MOVE] = q
                    out[OUT] = gone
                    return 0
                gone |= cython.cast(cython.longlong, 1) << q
            q = (q + 1) % n
        out[TO_MOVE] = (p + 1) % n
        out[OUT] = gone
        return 0

    @cython.cfunc
    @cython.exceptval(-1, check=False)
    def terminal(self, state: cython.longlong[::1], returns: cython.longlong[::1]) -> cython.bint:
        n: cython.Py_ssize_t = self.players
        if state[OUT] != (cython.cast(cython.longlong, 1) << n) - 1:
            return False
        p: cython.Py_ssize_t
        if n == 1:
            returns[0] = 1 if state[HANDS] == 0 else -1
            return True
        winner: cython.longlong = -1
        i: cython.Py_ssize_t
        word: cython.longlong
        for i in range(state[COUNT] - 1, -1, -1):
            word = state[self.seq + i]
            if self.pl_kind[word & 0xFFFFFF] != BOMBER:
                winner = (word >> 24) & 0xFF
                break
        for p in range(n):
            returns[p] = 0 if winner < 0 else (1 if p == winner else -1)
        return True

    # -- the reference engine's values -----------------------------------------------------------
    def encode(self, state: Any) -> Any:
        """The reference's :class:`~stratagem.models.stakd.position.State` as a packed vector
        (ValueError when it is beyond this engine: other player count, more pieces, off the lattice)."""
        n = self.players
        if len(state.hands) != n or len(state.out) != n:
            raise ValueError(f"the state has {len(state.hands)} players, the engine {n}")
        pieces = state.pieces_in_order()
        if len(pieces) > self.capacity:
            raise ValueError(f"{len(pieces)} pieces on the table; the engine was built for {self.capacity}")
        v = np.zeros(self.width, np.int64)
        v[TO_MOVE] = state.to_move
        v[OUT] = sum(1 << p for p, out in enumerate(state.out) if out)
        v[COUNT] = len(pieces)
        top = len(state.layers) - 1
        v[TOP] = top
        v[TOP_START] = len(pieces) - (len(state.layers[top]) if top >= 0 else 0)
        v[LOW_START] = v[TOP_START] - (len(state.layers[top - 1]) if top >= 1 else 0)
        for p, hand in enumerate(state.hands):
            if any(not 0 <= c <= 255 for c in hand):
                raise ValueError(f"a hand of {hand}: the compiled engine holds 0 to 255 pieces of a kind")
            v[HANDS + p] = sum(c << (8 * k) for k, c in enumerate(hand))
        for i, (k, piece) in enumerate(pieces):
            pid = self.pid_of.get((piece.kind, piece.anchor, piece.orient))  # type: ignore[attr-defined]
            if pid is None:
                raise ValueError(f"{piece} is not on the engine's lattice")
            if not 0 <= piece.owner < max(n, 1) or not layer_ok(k):
                raise ValueError(f"{piece} on layer {k}: beyond the compiled engine")
            v[self.seq + i] = pid | (piece.owner << 24) | (k << 32)
        return v

    def decode(self, vector: Any) -> Any:
        """The reference's state a packed vector stands for."""
        from stratagem.models.stakd.position import Piece, State

        v = np.asarray(vector, np.int64)
        n = self.players
        layers: list[list[Any]] = []
        for i in range(int(v[COUNT])):
            word = int(v[self.seq + i])
            p = self.placements[word & 0xFFFFFF]  # type: ignore[index]
            k = word >> 32
            while len(layers) <= k:
                layers.append([])
            layers[k].append(Piece(p.kind, p.anchor, p.orient, (word >> 24) & 0xFF))
        hands = tuple(tuple((int(v[HANDS + p]) >> (8 * k)) & 255 for k in range(KINDS_COUNT)) for p in range(n))
        out = tuple(bool((int(v[OUT]) >> p) & 1) for p in range(n))
        return State(tuple(tuple(layer) for layer in layers), hands, int(v[TO_MOVE]), out)

    def decode_move(self, state: Any, record: Any) -> Any:
        """The reference's :class:`~stratagem.models.stakd.position.Move` of a move record."""
        from stratagem.models.stakd.position import Move

        p = self.placements[int(record[0])]  # type: ignore[index]
        return Move(p.kind, p.anchor, p.orient, int(record[1]))

    def encode_move(self, move: Any) -> Any:
        """The move record of the reference's move (its layer as the reference fills it in)."""
        pid = self.pid_of[(move.kind, move.anchor, move.orient)]  # type: ignore[index]
        return np.array([pid, move.layer], np.int64)


def layer_ok(layer: int) -> bool:
    """Whether a layer index fits a piece word (16 bits above the owner)."""
    return 0 <= layer < 1 << 16


__all__ = ["MOVE_WIDTH", "StakdEngine"]

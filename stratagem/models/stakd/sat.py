"""STAKD solo placement as one SAT formula: "can every piece in hand be placed?"

The question is a whole solo game, but the formula does not model turns. It models the *finished
structure* -- which piece lies on which layer, where -- with constraints that hold exactly when the
structure can be built by some legal placement order. :mod:`stratagem.models.stakd.solo` turns a
satisfying assignment back into such an order and replays it through the rules engine.

**Which rules are structural and which depend on the order.** Read from :mod:`rules`:

* *Structural* (a property of the finished structure, whatever the order): Bases only on layer 0;
  no overlap within a layer; no overhang (every node of a piece on layer k >= 1 lies on layer k-1);
  one piece type per piece below (at most one piece of each kind rests on any piece, a piece resting
  on several counting for each); no duplicate stacking (a piece never has exactly the footprint of a
  piece of the layer below); at most one Bomber per layer; the hand is placed completely.
* *Order-dependent*: (a) the two-contact rule of the Base layer, (b) connection in placement order
  on layers >= 1, (c) Bomber termination (pieces resting on the Bomber's piece P must come before the
  Bomber), (d) the first piece of a layer is never a Bomber, and a Uni only if the hand then holds
  nothing but Unis and Bombers, (e) a new layer starts only when the current layer holds six pieces or
  the hand has no legal play on it, (f) no play below the current layer.

(f) means layers are built one after the other: the placement order is layer 0 complete, then layer 1
complete, and so on, each layer in some order of its own. So the hand when layer k is started is
exactly the pieces of layers >= k, and when layer k+1 is started, those of layers >= k+1; (d) and (e)
become conditions on the finished structure.

**Variables.** ``y[k, p]`` -- placement ``p`` (a footprint of one kind from the engine's
:class:`~stratagem.models.stakd.geometry.Geometry`) is on layer ``k``. Pieces of one kind are
interchangeable, so there is no variable per physical piece: the count of true ``y`` of each kind
equals the hand (a cardinality constraint). Per layer and node ``u``: ``occ[k, u]`` (some piece covers
u; exactly the OR of the y covering it, at most one of them). Layers run from the current layer ``c``
up to ``c + n`` where ``n`` bounds the number of new layers (below). ``used[k]`` -- layer k holds a
piece.

**Layer 0** is chosen from the list of all Base layers the engine allows (enumerated with the engine's
own move generator: the first Base at the geometry's canonical place, every later one touching a Base
already down at >= 2 node pairs, so (a) holds by construction), one selector variable each, exactly
one true. From an empty table, layouts that a symmetry of the lattice fixing the first Base maps onto
one another are kept once (*symmetry breaking*, see below).

**Connection (b)** on a layer is equivalent to: the nodes the layer covers are connected under node
adjacency. Every piece is connected inside (a bar), and two pieces touch exactly when a node of one
is adjacent to a node of the other, so the pieces' touch graph is connected iff their nodes are. A
placement order in which every piece after the first touches an earlier one exists iff the touch
graph is connected (its prefixes stay connected; conversely a breadth-first order works). Encoded as
reachability from one *root* node in ``D = |U| - 1`` rounds: ``R[k, u, 0] -> root[k, u]``,
``R[k, u, d] -> R[k, u, d-1] or R[k, v, d-1]`` for a neighbour v, ``R -> occ``, and
``occ[k, u] -> R[k, u, D]``. Exactly one root per used layer, lying on a piece that may start the
layer (d): not a Bomber, and a Uni only if no Quad, Trio or Duo lies on a layer >= k. On the current
layer of a partly built position the root is the pieces already there (they are connected already).

**Bomber termination (c)** with the Bomber ``B`` on node b over piece P of layer k-1, and ``S`` the
other pieces of layer k resting on P: an order of layer k exists with every piece connected to an
earlier one, B not first and S before B, iff the layer is connected and S together with the first
piece lies in one connected component of the layer without B. (If such an order exists, its prefix
before B is connected, avoids b and holds S and the first piece. Conversely take a breadth-first
order of that component from the first piece, then B -- which touches the component, since the whole
layer is connected -- then the remaining pieces breadth-first; nothing after B rests on P.) Encoded as
a second reachability ``Q`` from the same root that may not pass node b, and
``bomb[k, b] and y[k-1, q] and occ[k, u] -> Q[k, u, D]`` for nodes b != u of one piece q below.

**New layers (e).** Layer k >= 1 with a piece above it needs ``big[k]`` (``big -> at least 6 pieces
on k``) or *saturation*: for every kind T still in hand (``inH[k, T]``: some piece of kind T lies on a
layer > k) and every placement p of T inside the Base layer, p is not a legal play on the finished
layer k: a node of p is not covered by layer k-1 (overhang) or covered by layer k (overlap), p touches
no piece of layer k, a piece q below p already carries a piece of kind T (``carries[k-1, q, T]``) or is
terminated (``term[k-1, q]``) or has p's footprint, or T is a Bomber and layer k has one. These are
exactly the tests of the engine's ``current_layer_moves``. Every auxiliary variable in such a clause is
only *implied by* what it names (``occ -> touch``, ``carries -> y[q] and some T on q``, ...), so a
clause can only be satisfied by a real reason. The Base layer needs no such clause: all Bases are on
it (a Base can go nowhere else), so when layer 1 starts no Base is in hand and nothing can be played
on layer 0.

**Equivalence.** (=>) A legal solo game that places every piece, mapped by the lattice symmetry
that makes its Base layer canonical (the rules only use masks, adjacency and the placement lists, all
preserved by a symmetry of the geometry fixing the first Base), gives a solution: set ``y`` from the
finished structure, every auxiliary to what it names, the root to the first piece of each layer, R/Q
to breadth-first distances; the structural rules hold at the end because they held at each step; (b)
(c) (d) as argued above; (e) because the hand when layer k+1 started is the pieces of layers > k and,
with fewer than 6 pieces on layer k, the engine found no current-layer play for any of them -- each
candidate failed one of the listed tests. The number of new layers is at most the number of pieces in
hand, and every new layer but the top one covers >= 2 nodes (nothing rests on a single node: a
one-node piece on a one-node piece is duplicate stacking), so ``n <= min(pieces, (nodes + 1) // 2)``.
(<=) From a solution, :func:`stratagem.models.stakd.solo.placement_order` builds the order: Bases
breadth-first from the first over >= 2-contact pairs; each later layer from an allowed root, its
component without the Bomber breadth-first, the Bomber, then the rest breadth-first. Every placement
then passes the engine's tests (structural rules from the constraints, (b)-(f) as argued), and the
solver's answer is not trusted anyway: the order is replayed through the engine before it is reported.

**Symmetry breaking.** The engine already fixes the translation: the first Base goes to
``geometry.first_base``. Of the eight symmetries of the square lattice, those that map the lattice,
every kind's placement list and the first Base onto themselves (on the default 11x3 board of the solo
set: the two mirror images and the half turn) map legal games to legal games, so only the
lexicographically smallest image of each Base layout is kept. On the solo set this leaves 4 of the 14
Base layouts (the second Base overlapping the first by 5, 4, 3 or 2 nodes). Nothing else is broken;
partly built positions get no symmetry breaking.

Why one module of over 600 lines: it is one concept, the SAT encoding of a solo placement; most of its
length is :class:`SoloCNF`, whose clause families each cite the rule they encode.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from pysat.card import CardEnc, EncType
from pysat.formula import IDPool

from stratagem.core.deadline import Deadline
from stratagem.core.words import plural
from stratagem.models.stakd.geometry import Geometry, Placement, bits
from stratagem.models.stakd.pieces import BASE, BOMBER, KIND_INDEX, KINDS, UNI, Hand
from stratagem.models.stakd.position import Piece, State
from stratagem.models.stakd.rules import LAYER_MINIMUM, StakdGame, piece_mask

#: Version of this encoding; proof records name it, and a checker rebuilds the same CNF with it.
ENCODING = "stakd-solo-sat@1"

#: Kinds that can start a layer while other kinds are in hand (a Uni only when nothing else is).
STARTERS = tuple(kind for kind in KINDS if kind not in (BASE, UNI, BOMBER))

Clause = list[int]
Layout = tuple[Placement, ...]


class BuildStopped(Exception):
    """The deadline passed while a model was being built: nothing decided."""


class EncodingError(RuntimeError):
    """The model produced something the rules engine rejects: a bug in the model, never an answer."""


# -- lattice symmetries and Base layouts ---------------------------------------------------------


def _point_maps() -> list[tuple[int, int, int, int]]:
    """The 8 linear maps of the square lattice's point group, as matrices (a, b, c, d): (x, y) -> (ax+by, cx+dy)."""
    maps = []
    for a, b, c, d in ((1, 0, 0, 1), (0, -1, 1, 0), (-1, 0, 0, -1), (0, 1, -1, 0),
                       (-1, 0, 0, 1), (1, 0, 0, -1), (0, 1, 1, 0), (0, -1, -1, 0)):
        maps.append((a, b, c, d))
    return maps


def lattice_symmetries(geometry: Geometry) -> list[dict[int, int]]:
    """Symmetries of ``geometry`` that fix its first Base, as node-index permutations (identity first).

    A candidate is a point-group map of the square lattice about the first Base's centre. It is kept
    only if it maps the node set onto itself, preserves adjacency, maps every kind's set of placement
    masks onto itself and the first Base's mask onto itself -- everything the rules read. On another
    lattice (nodes not on a square grid) only the identity may pass, which is always correct.
    """
    first = geometry.first_base
    cx2 = sum(2 * geometry.nodes[i][0] for i in first.nodes)
    cy2 = sum(2 * geometry.nodes[i][1] for i in first.nodes)
    n = len(first.nodes)
    found: list[dict[int, int]] = []
    for a, b, c, d in _point_maps():
        perm: dict[int, int] = {}
        ok = True
        for i, (x, y) in enumerate(geometry.nodes):
            # Work in coordinates doubled and scaled by n so the centre is an integer point.
            dx, dy = 2 * n * x - cx2, 2 * n * y - cy2
            tx, ty = a * dx + b * dy + cx2, c * dx + d * dy + cy2
            if tx % (2 * n) or ty % (2 * n):
                ok = False
                break
            j = geometry.index.get((tx // (2 * n), ty // (2 * n)))
            if j is None:
                ok = False
                break
            perm[i] = j
        if not ok or len(set(perm.values())) != len(perm):
            continue
        if any(_map_mask(perm, geometry.neighbours[i]) != geometry.neighbours[perm[i]] for i in perm):
            continue
        if _map_mask(perm, first.mask) != first.mask:
            continue
        masks = {kind: {p.mask for p in geometry.placements[kind]} for kind in KINDS}
        if any({_map_mask(perm, m) for m in masks[kind]} != masks[kind] for kind in KINDS):
            continue
        found.append(perm)
    return found


def _map_mask(perm: dict[int, int], mask: int) -> int:
    out = 0
    for i in bits(mask):
        out |= 1 << perm[i]
    return out


def base_layouts(game: StakdGame, state: State, symmetry: bool = True, deadline: Deadline | None = None
                 ) -> list[Layout]:
    """Every Base layer the engine lets this position finish with, each in a legal placement order.

    Generated with the engine's own moves (:meth:`StakdGame.moves_for` with only the Bases of the
    hand) from the position's Base layer until no Base is left. With ``symmetry`` and an empty table,
    layouts related by a symmetry of :func:`lattice_symmetries` are kept once (the smallest image).
    """
    geometry = game.geometry
    if len(state.layers) > 1:
        raise ValueError("base_layouts: the Base layer is finished once layer 1 is started")
    bases_left = state.hands[0][KIND_INDEX[BASE]]
    layer0 = state.layers[0] if state.layers else ()
    existing = tuple(_placement(geometry, q.kind, q.anchor, q.orient) for q in layer0)
    frontier: dict[frozenset[int], Layout] = {frozenset(p.mask for p in existing): existing}
    for left in range(bases_left, 0, -1):
        hand = tuple(left if kind == BASE else 0 for kind in KINDS)
        grown: dict[frozenset[int], Layout] = {}
        for key, layout in frontier.items():
            if deadline is not None and deadline.expired():  # six Bases or more: minutes of layouts
                raise BuildStopped("the time limit passed while the Base layouts were enumerated")
            layers = (tuple(Piece(p.kind, p.anchor, p.orient, 0) for p in layout),) if layout else ()
            for move in game.moves_for(layers, hand):
                if move.kind != BASE or move.layer != 0:
                    continue
                p = _placement(geometry, BASE, move.anchor, move.orient)
                grown.setdefault(key | {p.mask}, (*layout, p))
        frontier = grown
    layouts = list(frontier.values())
    if symmetry and not state.layers and bases_left:
        perms = lattice_symmetries(geometry)
        canon: dict[tuple[int, ...], Layout] = {}
        for layout in layouts:
            own = tuple(sorted(p.mask for p in layout))
            if own == min(tuple(sorted(_map_mask(perm, p.mask) for p in layout)) for perm in perms):
                canon[own] = layout
        return [canon[key] for key in sorted(canon)]
    layouts.sort(key=lambda lay: tuple(sorted(p.mask for p in lay)))
    return layouts


def _placement(geometry: Geometry, kind: str, anchor: tuple[int, int], orient: str) -> Placement:
    p = geometry.placement(kind, anchor, orient)
    if p is None:
        raise ValueError(f"{kind}@{anchor} {orient!r} is not on the lattice")
    return p


# -- the model -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Structure:
    """A finished structure read from a model: ``layers[k]`` the placements of layer k.

    Pieces already on the table come first on their layer, in their placement order.
    """

    layers: tuple[tuple[Placement, ...], ...]


@dataclass
class SoloCNF:
    """The CNF of "every piece in hand can be placed" from a one-player position (see the module doc).

    ``clauses``/``num_vars`` are the formula; :meth:`decode` reads the finished structure out of a
    satisfying assignment. The constraint-adding methods (:meth:`add`, :meth:`at_most_one`,
    :meth:`cardinality`) are the only place that knows about CNF; :class:`~.cpsat.SoloCPSAT` overrides
    them to build the same model in CP-SAT.
    """

    game: StakdGame
    state: State | None = None
    symmetry: bool = True
    #: When building must stop (:class:`BuildStopped`); None: no limit.
    deadline: Deadline | None = None
    clauses: list[Clause] = field(default_factory=list)
    pool: IDPool = field(default_factory=IDPool)
    comments: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        game = self.game
        if game.num_players != 1:
            raise ValueError(f"the solo models need a one-player game, not {game.num_players} players")
        self.start: State = game.initial_state() if self.state is None else self.state
        self.geometry: Geometry = game.geometry
        self.hand: Hand = self.start.hands[0]
        self._counters = 0
        self._empty = False  # whether the empty clause has been added (see :meth:`add`)
        self._build()

    @property
    def num_vars(self) -> int:
        return int(self.pool.top)

    def _stop_if_late(self) -> None:
        """Raise :class:`BuildStopped` once the deadline has passed. Asked per layer and per node or
        placement within a layer's clause families: four Bases' model takes half a minute to build, so
        a check only while the Base layouts were enumerated let ``check --time-limit 5`` run 33 s."""
        if self.deadline is not None and self.deadline.expired():
            raise BuildStopped("the time limit passed while the model was built")

    # -- constraint primitives (overridden by the CP-SAT model) ----------------------------------
    def var(self, *key: object) -> int:
        return int(self.pool.id(key))

    def add(self, *lits: int) -> None:
        """Add the clause ``lits``; the empty clause (the formula is false) only once.

        CaDiCaL answers a formula with two empty clauses with a proof that deletes one (``d 0``), which
        the DRUP grammar refuses: ``check`` of such a position died with "deletion of the empty clause".
        """
        if not lits:
            if self._empty:
                return
            self._empty = True
        self.clauses.append(list(lits))

    def at_most_one(self, lits: Sequence[int], cond: Sequence[int] = ()) -> None:
        """AND(cond) -> at most one of ``lits``."""
        lits = list(lits)
        neg = [-c for c in cond]
        if len(lits) <= 1:
            return
        if len(lits) <= 6:
            for i, a in enumerate(lits):
                for b in lits[i + 1 :]:
                    self.add(*neg, -a, -b)
            return
        enc = CardEnc.atmost(lits, 1, vpool=self.pool, encoding=EncType.seqcounter)
        for clause in enc.clauses:
            self.add(*neg, *clause)

    def cardinality(self, lits: Sequence[int], low: int, high: int | None, cond: Sequence[int] = ()) -> None:
        """AND(cond) -> low <= (number of true ``lits``) <= high (``None``: no upper bound).

        A sequential counter: ``s[i, j]`` <-> at least j of the first i literals are true, for
        j <= max(low, high + 1) only, so its size is len(lits) times the bound, not len(lits) squared.
        """
        lits = list(lits)
        neg = [-c for c in cond]
        top = len(lits) if high is None else min(high, len(lits))
        if low > top:
            self.add(*neg)
            return
        if low <= 0 and top == len(lits):
            return
        if low == 1 and top == len(lits):
            self.add(*neg, *lits)
            return
        if top == 0:
            for lit in lits:
                self.add(*neg, -lit)
            return
        bound = max(low, top + 1 if top < len(lits) else 0)
        self._counters += 1
        tag = self._counters
        prev: list[int] = []  # prev[j - 1] <-> at least j of the literals so far, j = 1..len(prev)
        for i, x in enumerate(lits, start=1):
            cur = [self.var("count", tag, i, j) for j in range(1, min(i, bound) + 1)]
            for j, s in enumerate(cur, start=1):
                before = prev[j - 1] if j <= len(prev) else None
                lower = prev[j - 2] if j >= 2 else None  # None for j = 1: "at least 0" is true
                if before is not None:
                    self.add(-before, s)
                if lower is None:
                    self.add(-x, s)
                else:
                    self.add(-lower, -x, s)
                self.add(-s, *([before] if before is not None else []), x)
                if lower is not None:
                    self.add(-s, *([before] if before is not None else []), lower)
            prev = cur
        if low > 0:
            self.add(*neg, prev[low - 1])
        if top < len(lits):
            self.add(*neg, -prev[top])

    # -- variables --------------------------------------------------------------------------------
    def y(self, k: int, p: Placement) -> int:
        return self.var("y", k, p.kind, p.mask)

    def occ(self, k: int, u: int) -> int:
        return self.var("occ", k, u)

    # -- the formula ------------------------------------------------------------------------------
    def _build(self) -> None:
        geometry, start, hand = self.geometry, self.start, self.hand
        self.comments.append(f"{ENCODING}: STAKD solo, every piece in hand placed")
        self.comments.append(f"start {self.game.format_state(start)}")
        self.comments.append(f"lattice {geometry.name} {geometry.width}x{geometry.height}, symmetry "
                             f"{'on' if self.symmetry else 'off'}")
        top = start.top
        self.current = max(top, 0)
        c = self.current
        bases = hand[KIND_INDEX[BASE]]
        self.layouts: list[Layout] = []
        self.fixed: dict[int, tuple[Placement, ...]] = {}
        for k, layer in enumerate(start.layers):
            self.fixed[k] = tuple(_placement(geometry, q.kind, q.anchor, q.orient) for q in layer)
        if c == 0:
            if top < 0 and not bases:
                # Nothing can ever be placed: the first piece of a game is a Base.
                if any(hand):
                    self.add()
                self.universe = 0
            else:
                self.layouts = base_layouts(self.game, start, self.symmetry, self.deadline)
                if not self.layouts:
                    # The Bases in hand cannot all be laid (a lattice too small for them): no Base layer
                    # exists, so no structure does. Without this clause a hand of Bases alone had a model.
                    self.add()
                self.universe = 0
                for layout in self.layouts:
                    for p in layout:
                        self.universe |= p.mask
        else:
            if bases:
                self.add()  # Bases in hand once stacking began can never be laid
            self.universe = _union(piece_mask(geometry, q) for q in start.layers[c - 1])
        self.nodes = list(bits(self.universe))
        stackers = [kind for kind in KINDS if kind != BASE]
        new_pieces = sum(hand[KIND_INDEX[kind]] for kind in stackers)
        new_nodes = sum(hand[KIND_INDEX[kind]] * len(next(iter(geometry.shapes[kind].values()))) for kind in stackers)
        self.new_layers = min(new_pieces, (new_nodes + 1) // 2)
        self.top_layer = c + self.new_layers
        # Counted with plural since stop 61 ("1 Base layouts" before; verify reads that spelling too).
        self.comments.append(f"layers {c}..{self.top_layer} (current layer {c}), "
                             f"{plural(len(self.layouts), 'Base layout')}, {plural(len(self.nodes), 'node')}")
        # Placements per layer: layer c keeps its pieces; new pieces only of kinds in hand.
        in_hand = [kind for kind in stackers if hand[KIND_INDEX[kind]]]
        self.candidates: dict[int, list[Placement]] = {}
        for k in range(max(c, 1), self.top_layer + 1):
            cands = [p for kind in in_hand for p in geometry.placements[kind] if not p.mask & ~self.universe]
            if k == c:
                known = {(p.kind, p.mask) for p in cands}
                cands = [p for p in self.fixed[c] if (p.kind, p.mask) not in known] + cands
            self.candidates[k] = cands
        if c == 0:
            zero: dict[tuple[str, int], Placement] = {}
            for layout in self.layouts:
                for p in layout:
                    zero[(p.kind, p.mask)] = p
            self.candidates[0] = list(zero.values())
        elif c >= 1:
            self.candidates[c - 1] = list(self.fixed[c - 1])
        self._layer_zero()
        if c >= 1:
            self._fixed_layer(c - 1)
        for k in range(max(c, 1), self.top_layer + 1):
            self._stop_if_late()
            self._occupancy(k)
        for k in range(max(c, 1), self.top_layer + 1):
            self._stop_if_late()
            self._structural(k)
            self._stop_if_late()
            self._connection(k)
        self._stop_if_late()
        self._hand_counts()
        self._new_layers(in_hand)

    # -- layer 0 and fixed layers --------------------------------------------------------------------
    def _layer_zero(self) -> None:
        if self.current != 0:
            return
        selectors = [self.var("layout", j) for j in range(len(self.layouts))]
        if not selectors:
            return
        self.add(*selectors)
        self.at_most_one(selectors)
        for p in self.candidates[0]:
            holders = [s for s, layout in zip(selectors, self.layouts, strict=True) if p in layout]
            self.add(-self.y(0, p), *holders)
            for s in holders:
                self.add(-s, self.y(0, p))
        self._define_occ(0, self.candidates[0])

    def _fixed_layer(self, k: int) -> None:
        for p in self.candidates[k]:
            self.add(self.y(k, p))
        self._define_occ(k, self.candidates[k])

    def _define_occ(self, k: int, cands: Sequence[Placement]) -> None:
        """occ[k, u] <-> OR of the placements covering u, at most one of them (no overlap)."""
        for u in self.nodes:
            covering = [self.y(k, p) for p in cands if p.mask >> u & 1]
            self.add(-self.occ(k, u), *covering)
            for lit in covering:
                self.add(-lit, self.occ(k, u))
            self.at_most_one(covering)

    def _occupancy(self, k: int) -> None:
        cands = self.candidates[k]
        self._define_occ(k, cands)
        if k == self.current:
            for p in self.fixed[k]:
                self.add(self.y(k, p))
        used = self.var("used", k)
        self.add(-used, *[self.occ(k, u) for u in self.nodes])
        for u in self.nodes:
            self.add(-self.occ(k, u), used)
        if k > max(self.current, 1):
            self.add(-used, self.var("used", k - 1))

    # -- structural rules ------------------------------------------------------------------------------
    def _structural(self, k: int) -> None:
        cands, below = self.candidates[k], self.candidates[k - 1]
        fixed_here = set(self.fixed.get(k, ())) if k == self.current else set()
        for p in cands:
            if p in fixed_here:
                continue
            # No overhang.
            for u in bits(p.mask):
                self.add(-self.y(k, p), self.occ(k - 1, u))
            # No duplicate stacking.
            for q in below:
                if q.mask == p.mask:
                    self.add(-self.y(k, p), -self.y(k - 1, q))
        # One piece type per piece below (Bombers included: at most one per piece, and per layer).
        kinds = sorted({p.kind for p in cands}, key=KINDS.index)
        for q in below:
            self._stop_if_late()
            for kind in kinds:
                resting = [self.y(k, p) for p in cands if p.kind == kind and p.mask & q.mask]
                self.at_most_one(resting, cond=[self.y(k - 1, q)])
        self.at_most_one([self.y(k, p) for p in cands if p.kind == BOMBER])

    # -- order: connection, first piece, Bomber termination --------------------------------------------
    def _adjacent(self, u: int) -> list[int]:
        return [v for v in bits(self.geometry.neighbours[u] & self.universe)]

    def _reach(self, name: str, k: int, sources: dict[int, int], avoid_bomber: bool) -> None:
        """Reachability ``name`` on layer k from the nodes whose ``sources`` literal is true."""
        depth = max(len(self.nodes) - 1, 0)
        bombers = {p.mask.bit_length() - 1: p for p in self.candidates[k] if p.kind == BOMBER}
        for u in self.nodes:
            self._stop_if_late()
            for d in range(depth + 1):
                r = self.var(name, k, u, d)
                self.add(-r, self.occ(k, u))
                if avoid_bomber and u in bombers:
                    self.add(-r, -self.y(k, bombers[u]))
                if d == 0:
                    self.add(-r, *([sources[u]] if u in sources else []))
                else:
                    self.add(-r, self.var(name, k, u, d - 1), *[self.var(name, k, v, d - 1) for v in self._adjacent(u)])

    def _connection(self, k: int) -> None:
        c = self.current
        cands = self.candidates[k]
        depth = max(len(self.nodes) - 1, 0)
        if k == c:
            here = _union(p.mask for p in self.fixed[k])
            true = self.var("true")
            self.add(true)
            sources = {u: true for u in bits(here)}
        else:
            roots = [self.var("root", k, u) for u in self.nodes]
            used = self.var("used", k)
            self.add(-used, *roots)
            self.at_most_one(roots)
            sources = {u: self.var("root", k, u) for u in self.nodes}
            # The first piece of a layer: never a Bomber; a Uni only if no Quad/Trio/Duo is in hand then.
            bigger = self.var("starter_in_hand", k)
            for kk in range(k, self.top_layer + 1):
                for p in self.candidates[kk]:
                    if p.kind in STARTERS:
                        self.add(-self.y(kk, p), bigger)
            for u in self.nodes:
                root = self.var("root", k, u)
                self.add(-root, self.occ(k, u))
                for p in cands:
                    if p.mask >> u & 1:
                        if p.kind == BOMBER:
                            self.add(-root, -self.y(k, p))
                        elif p.kind == UNI:
                            self.add(-root, -self.y(k, p), -bigger)
        self._reach("R", k, sources, avoid_bomber=False)
        for u in self.nodes:
            self.add(-self.occ(k, u), self.var("R", k, u, depth))
        bombers = [p for p in cands if p.kind == BOMBER]
        if not bombers:
            return
        fixed_bomber = [p for p in self.fixed.get(k, ()) if p.kind == BOMBER] if k == c else []
        if fixed_bomber:
            # Already terminated: no new piece rests on the piece under the Bomber.
            b = fixed_bomber[0]
            for q in self.candidates[k - 1]:
                if q.mask & b.mask:
                    for p in cands:
                        if p not in self.fixed[k] and p.mask & q.mask:
                            self.add(-self.y(k - 1, q), -self.y(k, p))
            return
        self._reach("Q", k, sources, avoid_bomber=True)
        for b in bombers:
            (bnode,) = b.nodes
            for q in self.candidates[k - 1]:
                if not q.mask >> bnode & 1:
                    continue
                for u in bits(q.mask):
                    if u != bnode:
                        self.add(-self.y(k, b), -self.y(k - 1, q), -self.occ(k, u), self.var("Q", k, u, depth))

    # -- hand ---------------------------------------------------------------------------------------------
    def _hand_counts(self) -> None:
        c = self.current
        fixed_here = set(self.fixed.get(c, ())) if c >= 1 else set()
        for kind in KINDS:
            if kind == BASE:
                continue
            lits = [self.y(k, p) for k in range(max(c, 1), self.top_layer + 1) for p in self.candidates[k]
                    if p.kind == kind and not (k == c and p in fixed_here)]
            n = self.hand[KIND_INDEX[kind]]
            if not lits:
                if n:
                    self.add()
                continue
            self.cardinality(lits, n, n)

    # -- new layers: six pieces or no play --------------------------------------------------------------
    def _new_layers(self, in_hand: list[str]) -> None:
        c = self.current
        geometry = self.geometry
        for k in range(max(c, 1), self.top_layer):
            self._stop_if_late()
            cands, below = self.candidates[k], self.candidates[k - 1]
            big = self.var("big", k)
            self.cardinality([self.y(k, p) for p in cands], LAYER_MINIMUM, None, cond=[big])
            above = self.var("used", k + 1)
            # Kinds in hand after layer k.
            for kind in in_hand:
                inh = self.var("in_hand", k, kind)
                for p in self.candidates[k + 1]:
                    if p.kind == kind:
                        self.add(-self.y(k + 1, p), inh)
                if k + 1 < self.top_layer:
                    self.add(-self.var("in_hand", k + 1, kind), inh)
            # carries[q, T] -> q is there and a piece of kind T rests on it; term[q] -> a Bomber does.
            for q in below:
                for kind in in_hand:
                    lit = self.var("carries", k - 1, q.kind, q.mask, kind)
                    self.add(-lit, self.y(k - 1, q))
                    self.add(-lit, *[self.y(k, p) for p in cands if p.kind == kind and p.mask & q.mask])
                term = self.var("term", k - 1, q.kind, q.mask)
                self.add(-term, self.y(k - 1, q))
                self.add(-term, *[self.y(k, p) for p in cands if p.kind == BOMBER and p.mask & q.mask])
            bomber_here = [self.y(k, p) for p in cands if p.kind == BOMBER]
            for kind in in_hand:
                self._stop_if_late()
                for p in geometry.placements[kind]:
                    if p.mask & ~self.universe:
                        continue
                    halo = p.halo & self.universe
                    touch = self.var("touch", k, halo)
                    for v in bits(halo):
                        self.add(-self.occ(k, v), touch)
                    reasons = [-self.var("in_hand", k, kind), self.var("big", k), -above, -touch]
                    reasons += [-self.occ(k - 1, u) for u in bits(p.mask)]
                    reasons += [self.occ(k, u) for u in bits(p.mask)]
                    for q in below:
                        if q.mask & p.mask:
                            reasons.append(self.var("carries", k - 1, q.kind, q.mask, kind))
                            reasons.append(self.var("term", k - 1, q.kind, q.mask))
                            if q.mask == p.mask:
                                reasons.append(self.y(k - 1, q))
                    if kind == BOMBER:
                        reasons += bomber_here
                    self.add(*reasons)

    # -- decoding -------------------------------------------------------------------------------------
    def decode(self, model: Iterable[int]) -> Structure:
        """The finished structure of a satisfying assignment (literals, as PySAT gives them)."""
        true = {lit for lit in model if lit > 0}
        layers: list[tuple[Placement, ...]] = []
        c = self.current
        for k in range(c):
            layers.append(self.fixed[k])
        for k in range(c, self.top_layer + 1):
            cands = self.candidates.get(k, [])
            chosen = [p for p in cands if self.y(k, p) in true]
            if k == 0:
                if not self.layouts:
                    break
                picked = [j for j in range(len(self.layouts)) if self.var("layout", j) in true]
                if len(picked) != 1:
                    raise EncodingError(f"{len(picked)} Base layouts chosen")
                layout = self.layouts[picked[0]]
                if set(chosen) != set(layout):
                    raise EncodingError("layer 0 differs from the chosen Base layout")
                chosen = list(layout)
            elif k == c:
                old = list(self.fixed[k])
                chosen = old + [p for p in chosen if p not in old]
            if not chosen:
                break
            layers.append(tuple(chosen))
        return Structure(tuple(layers))


def _union(masks: Iterable[int]) -> int:
    out = 0
    for m in masks:
        out |= m
    return out

"""The lattice of nodes and the piece shapes, as data (docs/rules/stakd.md "Geometry").

The publisher gives no drawing precise enough to fix the geometry, so the project takes it as data: a
:class:`Geometry` is a finite set of nodes, which nodes touch (are edge-adjacent), and for every piece
kind the footprints it can take in each orientation. The rules (:mod:`rules`) only ever ask a Geometry
for node indices, neighbour masks and footprints, so another lattice or shape set (hexagonal nodes,
L-shaped pieces) plugs in by building another Geometry; nothing in the rules changes.

Default (:func:`square_lattice`): a rectangle of ``width`` x ``height`` nodes on the square lattice,
node ``(x, y)`` = column x, row y (row 0 at the top), each touching its four edge neighbours. Pieces
are straight bars: Base 1x5, Quad 1x4, Trio 1x3, Duo 1x2, Uni and Bomber 1x1. A bar lies ``h``
(horizontal: its nodes are the anchor and the next ones to the right) or ``v`` (vertical: the anchor
and the next ones downwards); a one-node piece has a single orientation, named ``""``.

Everything is precomputed as Python ints used as bit sets over node indices (node ``(x, y)`` has index
``y * width + x``): a footprint is a mask, a layer's occupancy is a mask, "no overhang" is
``footprint & ~below == 0``, "touches" is ``halo & occupied != 0``. A :class:`Placement` is one
footprint of one kind; ``geometry.placements[kind]`` lists them all, and
``geometry.by_anchor[kind][node_index]`` those anchored at a node.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import NamedTuple

from stratagem.models.stakd.pieces import BASE, KINDS

Node = tuple[int, int]
"""A lattice node, ``(x, y)``."""

Offsets = tuple[Node, ...]

#: Lengths of the default straight bars, by piece kind letter (see :mod:`pieces`).
BAR_LENGTHS: dict[str, int] = {"B": 5, "Q": 4, "T": 3, "D": 2, "U": 1, "X": 1}


class Placement(NamedTuple):
    """One footprint a piece kind can take: anchor node, orientation name and derived masks.

    ``nodes`` are node indices in shape order; ``mask`` is their bit set; ``halo`` the bit set of
    nodes outside the footprint that touch it (for "connects by at least one Node" and Base contacts).
    """

    kind: str
    anchor: Node
    orient: str
    nodes: tuple[int, ...]
    mask: int
    halo: int


class Geometry:
    """A finite lattice of nodes with adjacency, and the shapes of every piece kind on it.

    ``shapes[kind]`` maps orientation names to node offsets relative to the anchor (the anchor is
    offset ``(0, 0)``). Every placement of every shape that fits entirely inside the lattice is
    precomputed. ``first_base`` is where the first Base of a game goes: the rules are invariant under
    moving (and, on the default lattice, rotating) the whole structure, so the engine fixes the first
    Base to one canonical placement instead of offering every translation of the same game.
    """

    def __init__(
        self,
        name: str,
        nodes: Sequence[Node],
        neighbour_offsets: Sequence[Node],
        shapes: Mapping[str, Mapping[str, Offsets]],
        first_base: tuple[Node, str],
        width: int,
        height: int,
    ) -> None:
        self.name = name
        self.width = width
        self.height = height
        self.nodes: tuple[Node, ...] = tuple(nodes)
        self.index: dict[Node, int] = {node: i for i, node in enumerate(self.nodes)}
        self.neighbours: tuple[int, ...] = tuple(
            _mask(self.index[(x + dx, y + dy)] for dx, dy in neighbour_offsets if (x + dx, y + dy) in self.index)
            for x, y in self.nodes
        )
        self.shapes = {kind: dict(orients) for kind, orients in shapes.items()}
        for kind in KINDS:
            if kind not in self.shapes or not self.shapes[kind]:
                raise ValueError(f"geometry {name!r} gives no shape for piece kind {kind!r}")
        self.placements: dict[str, tuple[Placement, ...]] = {}
        self.by_anchor: dict[str, dict[int, tuple[Placement, ...]]] = {}
        self._lookup: dict[tuple[str, Node, str], Placement] = {}
        for kind in KINDS:
            found: list[Placement] = []
            for node in self.nodes:
                for orient, offsets in self.shapes[kind].items():
                    placement = self._place(kind, node, orient, offsets)
                    if placement is not None:
                        found.append(placement)
                        self._lookup[(kind, node, orient)] = placement
            self.placements[kind] = tuple(found)
            anchored: dict[int, list[Placement]] = {}
            for placement in found:
                anchored.setdefault(self.index[placement.anchor], []).append(placement)
            self.by_anchor[kind] = {i: tuple(ps) for i, ps in anchored.items()}
        base = self.placement(BASE, first_base[0], first_base[1])
        if base is None:
            raise ValueError(f"geometry {name!r}: the first Base {first_base} does not fit on the lattice")
        self.first_base: Placement = base

    def _place(self, kind: str, anchor: Node, orient: str, offsets: Offsets) -> Placement | None:
        cells = [(anchor[0] + dx, anchor[1] + dy) for dx, dy in offsets]
        if any(cell not in self.index for cell in cells):
            return None
        nodes = tuple(self.index[cell] for cell in cells)
        mask = _mask(nodes)
        halo = 0
        for i in nodes:
            halo |= self.neighbours[i]
        return Placement(kind, anchor, orient, nodes, mask, halo & ~mask)

    def placement(self, kind: str, anchor: Node, orient: str) -> Placement | None:
        """The placement of ``kind`` at ``anchor`` in ``orient``, or None if it leaves the lattice."""
        return self._lookup.get((kind, anchor, orient))

    def orientations(self, kind: str) -> tuple[str, ...]:
        """Orientation names of ``kind`` (``("h", "v")`` for bars, ``("",)`` for one-node pieces)."""
        return tuple(self.shapes[kind])

    def contacts(self, a: int, b: int) -> int:
        """Number of touching node pairs (one node in mask ``a``, its neighbour in mask ``b``)."""
        return sum((self.neighbours[i] & b).bit_count() for i in bits(a))

    def cells(self, mask: int) -> list[Node]:
        """The nodes of a bit set, in index order."""
        return [self.nodes[i] for i in bits(mask)]

    def setup(self) -> dict[str, object]:
        """The geometry as plain data for a record's ``setup``."""
        return {"geometry": self.name, "width": self.width, "height": self.height}


def bits(mask: int) -> Iterator[int]:
    """Indices of the set bits of ``mask``, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def _mask(indices: Iterator[int] | Sequence[int]) -> int:
    out = 0
    for i in indices:
        out |= 1 << i
    return out


def bar_shapes(lengths: Mapping[str, int]) -> dict[str, dict[str, Offsets]]:
    """Straight bars: ``h`` to the right of the anchor, ``v`` downwards; one-node pieces have ``""``."""
    shapes: dict[str, dict[str, Offsets]] = {}
    for kind, n in lengths.items():
        if n == 1:
            shapes[kind] = {"": ((0, 0),)}
        else:
            shapes[kind] = {"h": tuple((i, 0) for i in range(n)), "v": tuple((0, i) for i in range(n))}
    return shapes


def default_board(bases: int) -> tuple[int, int]:
    """Width and height of the default square lattice for a game with ``bases`` Bases in all.

    With straight bars two Bases touch at two or more node pairs only when they lie side by side in
    neighbouring rows and overlap by at least two nodes (perpendicular or end-to-end bars touch at one
    pair). So every Base lies parallel to the first (placed horizontally), each later Base is at most
    one row above or below a Base already down and shifted at most 3 columns from it. From the first
    Base, centred, the Base layer therefore spans at most ``bases - 1`` rows up or down and ``3 *
    (bases - 1)`` columns left or right; and no piece overhangs, so nothing ever leaves the Base layer's
    footprint. ``5 + 6 (b-1)`` by ``2b - 1`` nodes hold every game (5 x 1 for a single Base, which
    keeps the constraint models of one-Base puzzles small); at least one Base is assumed.
    """
    b = max(bases, 1)
    return 5 + 6 * (b - 1), 2 * b - 1


def square_lattice(width: int, height: int, lengths: Mapping[str, int] | None = None) -> Geometry:
    """The default geometry: ``width`` x ``height`` square lattice, straight bars, first Base centred."""
    if width < BAR_LENGTHS[BASE] or height < 1:
        raise ValueError(f"a {width}x{height} lattice cannot hold a Base (1x5)")
    nodes = [(x, y) for y in range(height) for x in range(width)]
    first = ((width - BAR_LENGTHS[BASE]) // 2, (height - 1) // 2)
    return Geometry(
        "square",
        nodes,
        ((1, 0), (-1, 0), (0, 1), (0, -1)),
        bar_shapes(lengths or BAR_LENGTHS),
        (first, "h"),
        width,
        height,
    )

"""Positions: the structure of layers, the hands, the player to move and who is out.

A :class:`State` holds everything play depends on; it is an immutable tuple, so it hashes fast.

- ``layers[k]`` is layer k (layer 0 = the Base layer) as a tuple of :class:`Piece` in the order they
  were placed. Because no piece ever goes below the current layer (seed "Once a new layer has started,
  no play can be made on a layer below"), every piece of layer k was placed before every piece of layer
  k+1: the global placement order is simply the layers read bottom to top, each in its own order.
  :meth:`State.pieces_in_order` gives it, and the order-dependent rules (connection, Bomber termination)
  read it from there. The current layer is the last one.
- ``hands[p]`` counts player p's pieces in hand (:data:`~stratagem.models.stakd.pieces.Hand`).
- ``to_move`` is the player whose turn it is (0-based); ``out[p]`` is true once player p had no legal
  play ("out for the remainder of the round"). Play is over when every player is out.
"""

from __future__ import annotations

from typing import NamedTuple

from stratagem.models.stakd.geometry import Node
from stratagem.models.stakd.pieces import BOMBER, Hand


class Piece(NamedTuple):
    """A piece on the table: kind letter, anchor node, orientation name and owner (0-based player)."""

    kind: str
    anchor: Node
    orient: str
    owner: int


class Move(NamedTuple):
    """Place a piece of ``kind`` at ``anchor`` in ``orient`` on layer ``layer``.

    The layer is always the current one or the next (a placement that fits the current layer covers
    free nodes of it; one that starts the next layer covers occupied ones; never both), so the notation
    leaves it out and the rules engine fills it in.
    """

    kind: str
    anchor: Node
    orient: str
    layer: int


class State(NamedTuple):
    """A STAKD position with open information."""

    layers: tuple[tuple[Piece, ...], ...]
    hands: tuple[Hand, ...]
    to_move: int
    out: tuple[bool, ...]

    @property
    def num_players(self) -> int:
        return len(self.hands)

    @property
    def top(self) -> int:
        """Index of the current layer, -1 on an empty table."""
        return len(self.layers) - 1

    def pieces_in_order(self) -> list[tuple[int, Piece]]:
        """Every piece with its layer, in placement order."""
        return [(k, piece) for k, layer in enumerate(self.layers) for piece in layer]

    def num_placed(self) -> int:
        return sum(len(layer) for layer in self.layers)

    def last_placer(self) -> int | None:
        """Owner of the last piece placed, None on an empty table."""
        return self.layers[-1][-1].owner if self.layers else None

    def last_non_bomber_placer(self) -> int | None:
        """Owner of the last piece placed that is not a Bomber: the winner once play is over."""
        for layer in reversed(self.layers):
            for piece in reversed(layer):
                if piece.kind != BOMBER:
                    return piece.owner
        return None

    def is_over(self) -> bool:
        return all(self.out)

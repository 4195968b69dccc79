"""Text drawing of a STAKD position for ``stratagem show``.

Each layer is drawn as a grid of its nodes, top layer first, cropped to the Base layer (nothing can lie
outside it). A node shows its piece's kind letter; ``-`` and ``|`` join the nodes of one piece, so two
Duos side by side read ``D-D D-D``; ``.`` is a node of the layer below left uncovered, and a blank is
off the structure. With several players each piece is coloured by its owner (rich markup).
"""

from __future__ import annotations

from stratagem.core.words import plural
from stratagem.models.stakd.notation import format_hand
from stratagem.models.stakd.position import Piece, State
from stratagem.models.stakd.rules import StakdGame, piece_mask

_COLOURS = ("red", "blue", "green", "magenta", "cyan", "yellow")


def draw(game: StakdGame, state: State) -> list[str]:
    """Lines of text: every layer (top first), then hands, player to move and who is out."""
    geometry = game.geometry
    lines: list[str] = []
    if state.layers:
        base_nodes = [geometry.nodes[i] for p in state.layers[0] for i in _indices(game, p)]
        xs = [x for x, _ in base_nodes]
        ys = [y for _, y in base_nodes]
        x0, x1, y0, y1 = min(xs), max(xs), min(ys), max(ys)
        for k in range(len(state.layers) - 1, -1, -1):
            current = " <- current" if k == state.top else ""
            lines.append(f"layer {k} ({plural(len(state.layers[k]), 'piece')}){current}")
            lines.extend(_draw_layer(game, state, k, x0, x1, y0, y1))
    else:
        lines.append("(empty table)")
    for p, hand in enumerate(state.hands):
        flags = " (out)" if state.out[p] else (" <- to move" if p == state.to_move and not state.is_over() else "")
        lines.append(f"player {p + 1}: {format_hand(hand)}{flags}")
    if state.is_over():
        lines.append("play is over")
    return lines


def _indices(game: StakdGame, piece: Piece) -> tuple[int, ...]:
    placement = game.geometry.placement(piece.kind, piece.anchor, piece.orient)
    return placement.nodes if placement is not None else ()


def _draw_layer(game: StakdGame, state: State, k: int, x0: int, x1: int, y0: int, y1: int) -> list[str]:
    geometry = game.geometry
    owner_of: dict[tuple[int, int], tuple[int, Piece]] = {}
    for j, piece in enumerate(state.layers[k]):
        for i in _indices(game, piece):
            owner_of[geometry.nodes[i]] = (j, piece)
    below = 0
    if k >= 1:
        for piece in state.layers[k - 1]:
            below |= piece_mask(geometry, piece)
    below_nodes = {geometry.nodes[i] for i in range(len(geometry.nodes)) if below >> i & 1}
    coloured = game.num_players > 1
    header = "    " + " ".join(str(x % 10) for x in range(x0, x1 + 1))
    out = [header]
    for y in range(y0, y1 + 1):
        row = ""
        links = ""
        for x in range(x0, x1 + 1):
            here = owner_of.get((x, y))
            if here is None:
                cell = "." if (x, y) in below_nodes else " "
            else:
                cell = here[1].kind
                if coloured:
                    cell = f"[{_COLOURS[here[1].owner % len(_COLOURS)]}]{cell}[/]"
            right = owner_of.get((x + 1, y))
            down = owner_of.get((x, y + 1))
            joint = "-" if here is not None and right is not None and right[0] == here[0] and x < x1 else " "
            row += cell + (joint if x < x1 else "")
            links += ("|" if here is not None and down is not None and down[0] == here[0] else " ") + " "
        out.append(f"{y:>3} {row}".rstrip())
        if y < y1 and links.strip():
            out.append(f"    {links}".rstrip())
    return out

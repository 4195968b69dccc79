"""A STAKD Elite structure drawn from the geometry data: one panel per layer, bottom layer first, each piece
as a bar over the lattice nodes it covers (the geometry's own footprint of its kind, anchor and
orientation), the layer below shown faintly under it, and the piece placed last highlighted.

Nothing is assumed about the shapes beyond what :class:`~stratagem.models.stakd.geometry.Geometry`
answers (``placement(kind, anchor, orient).nodes`` and ``nodes[i]``), so another lattice or shape set
draws without a change here.

A layer is an image to assistive technology, so its label lists its pieces in the move notation
(``layer 0, 2 piece(s): B@3,1h, D@3,1h``), each piece has a ``<title>``, and when several players share
the table a legend names each owner's colour and every piece carries its owner's number, so ownership is
not told by colour alone (on fills light enough for dark text).
"""

from __future__ import annotations

from typing import Any

from stratagem.models.stakd.notation import format_placement
from stratagem.models.stakd.pieces import NAMES
from stratagem.views.page import INK, MOVE, esc

STEP, PAD = 30, 10
#: Piece colours by kind, and by owner when several players share the table.
KIND_FILL = {"B": "#adb5bd", "Q": "#74c0fc", "T": "#8ce99a", "D": "#ffd43b", "U": "#ffa8a8", "X": "#3b5bdb"}
OWNER_FILL = ("#ff8787", "#74c0fc", "#8ce99a", "#e599f7", "#66d9e8", "#ffe066")
#: The owners' colours in words, for the legend.
OWNER_COLOUR = ("red", "blue", "green", "violet", "cyan", "yellow")


def _nodes(game: Any, piece: Any) -> list[tuple[int, int]]:
    placement = game.geometry.placement(piece.kind, piece.anchor, piece.orient)
    return [game.geometry.nodes[i] for i in placement.nodes] if placement is not None else []


def piece_text(piece: Any, coloured: bool) -> str:
    """A piece in words: its move notation, and its owner when several players share the table
    (``D@3,4h of player 2``)."""
    text = format_placement(piece.kind, piece.anchor, piece.orient)
    return f"{text} of player {piece.owner + 1}" if coloured else text


def legend(players: int) -> str:
    """Whose pieces are which colour (and number), for a table several players share."""
    keys = []
    for p in range(players):
        swatch = (f"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"26\" height=\"16\" viewBox=\"0 0 26 16\" "
                  f"aria-hidden=\"true\"><rect x=\"1\" y=\"1\" width=\"24\" height=\"14\" rx=\"4\" "
                  f"fill=\"{OWNER_FILL[p % len(OWNER_FILL)]}\" stroke=\"{INK}\"/><text x=\"13\" y=\"12\" "
                  f"text-anchor=\"middle\" font-size=\"10\" font-weight=\"700\" fill=\"{INK}\">{p + 1}</text></svg>")
        keys.append(f"<span class=\"owner\">{swatch} player {p + 1}: {OWNER_COLOUR[p % len(OWNER_COLOUR)]}, "
                    f"marked {p + 1}</span>")
    return f"<p class=\"legend\">Pieces by owner: {'; '.join(keys)}</p>"


def layers_svg(game: Any, state: Any, last: tuple[int, int] | None) -> str:
    """Every layer of ``state`` side by side; ``last`` is (layer, index) of the piece placed last. Each layer
    is labelled with its pieces (:func:`piece_text`); with several players, under :func:`legend`."""
    if not state.layers:
        return "<p class=\"muted\">(empty table)</p>"
    base = [node for piece in state.layers[0] for node in _nodes(game, piece)]
    x0, x1 = min(x for x, _ in base), max(x for x, _ in base)
    y0, y1 = min(y for _, y in base), max(y for _, y in base)
    w, h = (x1 - x0 + 1) * STEP + 2 * PAD, (y1 - y0 + 1) * STEP + 2 * PAD + 20
    coloured = game.num_players > 1
    out = [legend(game.num_players) if coloured else "", "<div class=\"grid2\">"]
    for k, layer in enumerate(state.layers):
        label = f"layer {k}, {len(layer)} piece(s): " + ", ".join(piece_text(piece, coloured) for piece in layer)
        parts = [f"<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"layer\" data-layer=\"{k}\" width=\"{w}\" "
                 f"height=\"{h}\" viewBox=\"0 0 {w} {h}\" role=\"img\" aria-label=\"{esc(label)}\">",
                 f"<text x=\"{PAD}\" y=\"14\" font-size=\"12\" fill=\"{INK}\">layer {k} ({len(layer)} piece(s))</text>"]
        below = {node for piece in state.layers[k - 1] for node in _nodes(game, piece)} if k else set(base)
        for x in range(x0, x1 + 1):
            for y in range(y0, y1 + 1):
                cx, cy = PAD + (x - x0) * STEP + STEP / 2, 20 + PAD + (y - y0) * STEP + STEP / 2
                fill = "#dee2e6" if (x, y) in below and k else "#f1f3f5"
                parts.append(f"<circle cx=\"{cx}\" cy=\"{cy}\" r=\"3\" fill=\"{fill}\"/>")
        for piece in state.layers[k - 1] if k else ():  # the layer below, faintly, to read the stacking
            nodes = _nodes(game, piece)
            if nodes:
                xs, ys = [x for x, _ in nodes], [y for _, y in nodes]
                bx, by = PAD + (min(xs) - x0) * STEP + 1, 20 + PAD + (min(ys) - y0) * STEP + 1
                bw, bh = (max(xs) - min(xs) + 1) * STEP - 2, (max(ys) - min(ys) + 1) * STEP - 2
                parts.append(f"<rect class=\"below\" x=\"{bx}\" y=\"{by}\" width=\"{bw}\" height=\"{bh}\" rx=\"8\" "
                             "fill=\"none\" stroke=\"#ced4da\" stroke-dasharray=\"3 3\"/>")
        for j, piece in enumerate(layer):
            nodes = _nodes(game, piece)
            if not nodes:
                continue
            xs, ys = [x for x, _ in nodes], [y for _, y in nodes]
            px, py = PAD + (min(xs) - x0) * STEP + 3, 20 + PAD + (min(ys) - y0) * STEP + 3
            pw, ph = (max(xs) - min(xs) + 1) * STEP - 6, (max(ys) - min(ys) + 1) * STEP - 6
            fill = OWNER_FILL[piece.owner % len(OWNER_FILL)] if coloured else KIND_FILL.get(piece.kind, "#ced4da")
            is_last = last == (k, j)
            stroke = f"stroke=\"{MOVE}\" stroke-width=\"3\"" if is_last else f"stroke=\"{INK}\" stroke-width=\"1\""
            data = ' data-mark="played"' if is_last else ""
            if coloured:
                data += f" data-owner=\"{piece.owner + 1}\""
            # the owner's number beside the kind letter; white only on the solo Bomber's dark fill
            owner = f"<tspan font-size=\"10\">{piece.owner + 1}</tspan>" if coloured else ""
            name = f"{NAMES.get(piece.kind, piece.kind)} {piece_text(piece, coloured)}"
            parts.append(f"<g class=\"piece\" data-kind=\"{esc(piece.kind)}\"{data}><title>{esc(name)}</title>"
                         f"<rect x=\"{px}\" y=\"{py}\" width=\"{pw}\" height=\"{ph}\" rx=\"7\" "
                         f"fill=\"{fill}\" {stroke}/><text x=\"{px + pw / 2}\" y=\"{py + ph / 2 + 5}\" "
                         f"text-anchor=\"middle\" font-size=\"13\" font-weight=\"700\" "
                         f"fill=\"{'#fff' if piece.kind == 'X' and not coloured else INK}\">{esc(piece.kind)}{owner}"
                         "</text></g>")
        parts.append("</svg>")
        out.append("".join(parts))
    out.append("</div>")
    return "".join(out)


def panel(game: Any, state: Any, turn: int, move: str, hand_text: list[str], over: str = "") -> str:
    """One step of a STAKD replay: the caption, the layers and the hands; ``over`` is the caption's note
    (HTML) once play is over, naming how it ended (the caller reads it from the rules engine's returns)."""
    last = None
    if turn and state.layers:
        # The piece just placed is the last one of the layer it went on: the top layer.
        last = (len(state.layers) - 1, len(state.layers[-1]) - 1)
    caption = "Start" if turn == 0 else f"Placement {turn}: <code>{esc(move)}</code>"
    hands = "".join(f"<div class=\"mono\">{esc(line)}</div>" for line in hand_text)
    return f"<h3>{caption}{over}</h3>{layers_svg(game, state, last)}<div class=\"card\">{hands}</div>"


__all__ = ["layers_svg", "legend", "panel", "piece_text"]

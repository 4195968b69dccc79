"""A STAKD Elite structure drawn from the geometry data: one panel per layer, bottom layer first, each piece
as a bar over the lattice nodes it covers (the geometry's own footprint of its kind, anchor and
orientation), the layer below shown faintly under it, and the piece placed last highlighted.

Nothing is assumed about the shapes beyond what :class:`~stratagem.models.stakd.geometry.Geometry`
answers (``placement(kind, anchor, orient).nodes`` and ``nodes[i]``), so another lattice or shape set
draws without a change here.
"""

from __future__ import annotations

from typing import Any

from stratagem.views.page import INK, MOVE, esc

STEP, PAD = 30, 10
#: Piece colours by kind, and by owner when several players share the table.
KIND_FILL = {"B": "#adb5bd", "Q": "#74c0fc", "T": "#8ce99a", "D": "#ffd43b", "U": "#ffa8a8", "X": "#3b5bdb"}
OWNER_FILL = ("#ff8787", "#74c0fc", "#8ce99a", "#e599f7", "#66d9e8", "#ffe066")


def _nodes(game: Any, piece: Any) -> list[tuple[int, int]]:
    placement = game.geometry.placement(piece.kind, piece.anchor, piece.orient)
    return [game.geometry.nodes[i] for i in placement.nodes] if placement is not None else []


def layers_svg(game: Any, state: Any, last: tuple[int, int] | None) -> str:
    """Every layer of ``state`` side by side; ``last`` is (layer, index) of the piece placed last."""
    if not state.layers:
        return "<p class=\"muted\">(empty table)</p>"
    base = [node for piece in state.layers[0] for node in _nodes(game, piece)]
    x0, x1 = min(x for x, _ in base), max(x for x, _ in base)
    y0, y1 = min(y for _, y in base), max(y for _, y in base)
    w, h = (x1 - x0 + 1) * STEP + 2 * PAD, (y1 - y0 + 1) * STEP + 2 * PAD + 20
    coloured = game.num_players > 1
    out = ["<div class=\"grid2\">"]
    for k, layer in enumerate(state.layers):
        parts = [f"<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"layer\" data-layer=\"{k}\" width=\"{w}\" "
                 f"height=\"{h}\" viewBox=\"0 0 {w} {h}\" role=\"img\" aria-label=\"layer {k}\">",
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
            parts.append(f"<g class=\"piece\" data-kind=\"{esc(piece.kind)}\"{data}>"
                         f"<rect x=\"{px}\" y=\"{py}\" width=\"{pw}\" height=\"{ph}\" rx=\"7\" "
                         f"fill=\"{fill}\" {stroke}/><text x=\"{px + pw / 2}\" y=\"{py + ph / 2 + 5}\" "
                         f"text-anchor=\"middle\" font-size=\"13\" font-weight=\"700\" "
                         f"fill=\"{'#fff' if piece.kind == 'X' else INK}\">{esc(piece.kind)}</text></g>")
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


__all__ = ["layers_svg", "panel"]

"""A Stratego Card Clash battlefield drawn as a grid: each occupied cell a stack of cards (the top card's
rank in its owner's colour, after its colour letter as the notation writes it, ``r6``: whose card it is is
never told by colour alone, which red and green players' cards would be to a reader who cannot tell those
colours apart; the stack's height as cards behind it and a count), the card laid last highlighted.

A move names its cell in the coordinates of the battlefield before it (``r4@-1,3``); the engine then
normalises the battlefield so its leftmost column and top row are 0. The highlight follows that shift
and is drawn only where the engine's position has the card the move names on top.

The battlefield is an image to assistive technology, so its label says every stack in the game's
notation: its cell in the move notation's coordinates and its cards top first (``0,0 r6b5``).
"""

from __future__ import annotations

import re
from typing import Any

from stratagem.views.page import INK, MOVE, MUTED, esc

CELL = 54
FILL = {"r": "#ffc9c9", "b": "#a5d8ff", "g": "#b2f2bb", "y": "#ffec99", "p": "#eebefa", "o": "#ffd8a8"}
#: A card's outline and text colour: its letters on its ``FILL`` are at least 4.5:1 (WCAG AA; yellow's
#: were 2.5:1, green's 3.4:1, red's 3.8:1).
EDGE = {"r": "#a61e1e", "b": "#125192", "g": "#1f6b30", "y": "#8a4b00", "p": "#862e9c", "o": "#9c370a"}
_MOVE = re.compile(r"^([a-z])([0-9A-Z])@(-?[0-9]+),(-?[0-9]+)$")


def placed_cell(move: str, board: Any) -> tuple[int, int] | None:
    """Where the card of ``move`` lies after it (in the new coordinates), if the position agrees."""
    found = _MOVE.match(move)
    if found is None:
        return None
    colour, rank, x, y = found[1], found[2], int(found[3]), int(found[4])
    where = (x - min(x, 0), y - min(y, 0))
    for cell in board:
        if (cell.x, cell.y) == where and cell.stack and cell.stack[0] == colour + rank:
            return where
    return None


def battlefield_text(board: Any) -> str:
    """The battlefield in words for the drawing's label: each stack, row by row, as its cell and its cards
    top first (the position notation's stack): ``the battlefield, column,row and cards top first: 0,0 r6b5;
    1,0 b5``."""
    stacks = [f"{cell.x},{cell.y} {''.join(cell.stack)}" for cell in sorted(board, key=lambda c: (c.y, c.x))
              if cell.stack]
    if not stacks:
        return "the battlefield, empty"
    return "the battlefield, column,row and cards top first: " + "; ".join(stacks)


def grid_svg(game: Any, state: Any, move: str = "") -> str:
    """The battlefield; the table's bound (``game.width`` x ``game.height``) as the frame; labelled with
    :func:`battlefield_text`."""
    mark = placed_cell(move, state.board) if move else None
    cells = {(cell.x, cell.y): cell.stack for cell in state.board}
    w = max([game.width] + [x + 1 for x, _ in cells]) if cells else game.width
    h = max([game.height] + [y + 1 for _, y in cells]) if cells else game.height
    width, height = 30 + w * CELL + 10, 24 + h * CELL + 10
    parts = [f"<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"battlefield\" width=\"{width}\" height=\"{height}\" "
             f"viewBox=\"0 0 {width} {height}\" role=\"img\" aria-label=\"{esc(battlefield_text(state.board))}\">"]
    for x in range(w):
        parts.append(f"<text x=\"{30 + x * CELL + CELL / 2}\" y=\"16\" text-anchor=\"middle\" font-size=\"11\" "
                     f"fill=\"{MUTED}\">{x}</text>")
    for y in range(h):
        parts.append(f"<text x=\"14\" y=\"{24 + y * CELL + CELL / 2 + 4}\" text-anchor=\"middle\" font-size=\"11\" "
                     f"fill=\"{MUTED}\">{y}</text>")
    for y in range(h):
        for x in range(w):
            cx, cy = 30 + x * CELL, 24 + y * CELL
            parts.append(f"<rect x=\"{cx + 2}\" y=\"{cy + 2}\" width=\"{CELL - 4}\" height=\"{CELL - 4}\" rx=\"6\" "
                         "fill=\"#f8f9fa\" stroke=\"#dee2e6\"/>")
            stack = cells.get((x, y))
            if not stack:
                continue
            for depth in range(min(len(stack), 4) - 1, 0, -1):
                under = stack[depth]
                parts.append(f"<rect x=\"{cx + 6 + 3 * depth}\" y=\"{cy + 6 - 3 * depth + 6}\" width=\"{CELL - 18}\" "
                             f"height=\"{CELL - 18}\" rx=\"5\" fill=\"{FILL.get(under[0], '#fff')}\" "
                             f"stroke=\"{EDGE.get(under[0], INK)}\"/>")
            top = stack[0]
            stroke = f"stroke=\"{MOVE}\" stroke-width=\"3\"" if mark == (x, y) else \
                f"stroke=\"{EDGE.get(top[0], INK)}\" stroke-width=\"1.5\""
            data = " data-mark=\"played\"" if mark == (x, y) else ""
            parts.append(f"<g class=\"stack\" data-cell=\"{x},{y}\" data-height=\"{len(stack)}\"{data}>"
                         f"<rect x=\"{cx + 6}\" y=\"{cy + 12}\" width=\"{CELL - 18}\" height=\"{CELL - 18}\" rx=\"5\" "
                         f"fill=\"{FILL.get(top[0], '#fff')}\" {stroke}/>"
                         f"<text x=\"{cx + 6 + (CELL - 18) / 2}\" y=\"{cy + 12 + (CELL - 18) / 2 + 6}\" "
                         f"text-anchor=\"middle\" font-size=\"17\" font-weight=\"700\" "
                         f"fill=\"{EDGE.get(top[0], INK)}\">"
                         f"<tspan font-size=\"11\">{esc(top[0])}</tspan>{esc(top[1])}</text>"
                         + (f"<text x=\"{cx + CELL - 3}\" y=\"{cy + 11}\" text-anchor=\"end\" font-size=\"10\" "
                            f"fill=\"{INK}\">&#xD7;{len(stack)}</text>" if len(stack) > 1 else "") + "</g>")
    parts.append("</svg>")
    return "".join(parts)


def panel(game: Any, state: Any, turn: int, move: str, text: list[str]) -> str:
    """One step of a Card Clash replay: caption, battlefield, and the game's own lines for hands and piles."""
    caption = "Start" if turn == 0 else f"Ply {turn}: <code>{esc(move)}</code>"
    winners = ""
    if state.winners:
        names = ", ".join(f"player {w + 1}" for w in state.winners)
        winners = f" &mdash; <b class=\"ok\" data-status=\"won\">won by {esc(names)}</b>"
    # The game's text below its grid (hands, piles, whose turn): everything after the first blank line.
    below = text[text.index("") + 1:] if "" in text else text
    return (f"<h3>{caption}{winners}</h3>{grid_svg(game, state, move)}"
            f"<pre>{esc(chr(10).join(below))}</pre>")


__all__ = ["battlefield_text", "grid_svg", "panel", "placed_cell"]

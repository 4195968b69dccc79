"""The battlefield as a grid for ``stratagem show``: each cell's top card in its colour.

A cell shows its top card (``6`` Marshal ... ``1`` Spy, ``B`` Bomb, ``X`` Miner) in the colour of its
owner, and the height of its stack when more than one card lies there (``6³`` style is avoided for
plain terminals: ``6/3`` reads "rank 6, three cards"). Rows and columns are numbered in the move
notation's coordinates.
"""

from __future__ import annotations

from stratagem.models.cardclash.battlefield import size, stacks
from stratagem.models.cardclash.cards import COLOUR_NAMES, COLOUR_STYLES, COLOURS
from stratagem.models.cardclash.position import State
from stratagem.models.cardclash.rules import CardClashGame, score_key

CELL = 5


def _cell(stack: tuple[str, ...]) -> str:
    if not stack:
        return "·".center(CELL)
    top = stack[0]
    label = top[1] + (f"/{len(stack)}" if len(stack) > 1 else "")
    text = label.center(CELL)
    return f"[bold {COLOUR_STYLES[top[0]]}]{text}[/]"


def draw(game: CardClashGame, state: State) -> list[str]:
    """Plain text lines (rich markup) of the grid, then hands, piles and who is to move or has won."""
    grid = stacks(state.board)
    w, h = size(state.board)
    lines = ["    " + "".join(str(x).center(CELL) for x in range(w))]
    for y in range(h):
        lines.append(f"{y:>3} " + "".join(_cell(grid.get((x, y), ())) for x in range(w)))
    if not state.board:
        lines.append("    (empty battlefield: the first card goes at 0,0)")
    lines.append("")
    for p in range(state.players):
        colour = COLOURS[p]
        name = COLOUR_NAMES[colour]
        points, total, high = score_key(state.board, p)
        marker = ">" if not state.winners and p == state.to_move else " "
        lines.append(
            f"{marker} [bold {COLOUR_STYLES[colour]}]{p + 1} {name:<6}[/] hand {state.hands[p] or '-':<4} "
            f"pile {len(state.piles[p]):>2}  visible {points} (sum {total}, high {high})  flags {state.flags[p]}"
        )
    options = f"table {game.width}x{game.height}" + (", strategic" if game.strategic else "")
    if state.winners:
        names = ", ".join(f"{w + 1} {COLOUR_NAMES[COLOURS[w]]}" for w in state.winners)
        lines.append(f"round {state.round} over: won by {names} ({options})")
    else:
        lines.append(f"round {state.round}, {state.to_move + 1} to move ({options})")
    return lines

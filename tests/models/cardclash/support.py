"""Shared helpers for the Card Clash tests: building games from notation, and a tiny exhaustive
AND/OR search that confirms forced squares independently of the project's solvers.

The search asks "can ``player`` force a square of their colour within ``plies`` plies?": at the
player's turns one move must work, at every other player's turn all moves must (paranoid: the others
play together against the player). It is plain exhaustive search with a memo, no heuristics, so it can
check what the puzzle files claim.
"""

from __future__ import annotations

from pathlib import Path

from stratagem.models.cardclash.battlefield import squares
from stratagem.models.cardclash.cards import COLOURS
from stratagem.models.cardclash.position import State, parse_state
from stratagem.models.cardclash.rules import CardClashGame
from tests.docsection import FormatsSection

REPO = Path(__file__).resolve().parents[3]
PUZZLES = REPO / "puzzles" / "cardclash"
DRAFT = FormatsSection("## 8. Stratego Card Clash notation")


def game_at(text: str, *, width: int = 6, height: int = 6, strategic: bool = False) -> tuple[CardClashGame, State]:
    """A game with the given options starting from the position ``text``."""
    state = parse_state(text)
    game = CardClashGame(state.players, width=width, height=height, strategic=strategic, start=state)
    return game, state


def square_win(state: State, player: int) -> bool:
    """``player`` won the round with a square of their colour."""
    return player in state.winners and COLOURS[player] in squares(state.board)


def forces_square(game: CardClashGame, state: State, player: int, plies: int,
                  memo: dict[tuple[State, int], bool] | None = None) -> bool:
    """True when ``player`` can force a square within ``plies`` plies from ``state`` (exhaustive)."""
    memo = {} if memo is None else memo
    key = (state, plies)
    if key in memo:
        return memo[key]
    if game.is_terminal(state):
        result = square_win(state, player)
    elif plies == 0:
        result = False
    else:
        # The order only makes the search stop sooner (a refutation or a win found first); it never
        # changes the answer, which is an all/any over every legal move.
        moves = game.legal_moves(state)
        if plies > 1:
            moves = list(game.order_moves(state, moves))
        children = (game.apply(state, m) for m in moves)
        if state.to_move == player:
            result = any(forces_square(game, c, player, plies - 1, memo) for c in children)
        else:
            result = all(forces_square(game, c, player, plies - 1, memo) for c in children)
    memo[key] = result
    return result


def forced_square_depth(game: CardClashGame, state: State, player: int, max_plies: int) -> int | None:
    """The fewest plies within which ``player`` forces a square, or None up to ``max_plies``."""
    memo: dict[tuple[State, int], bool] = {}
    for plies in range(1, max_plies + 1):
        if forces_square(game, state, player, plies, memo):
            return plies
    return None

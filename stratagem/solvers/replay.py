"""Checking lines and search claims with the rules engine alone.

Nothing here trusts a solver: a line is re-parsed move by move and applied with the game's own
``apply``, and a claimed lower bound is re-checked by a plain breadth-first enumeration over
``legal_moves``/``apply`` that shares no code with :mod:`stratagem.solvers.search`.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import Any

from stratagem.core.errors import IllegalMove, NotationError
from stratagem.core.game import Game


@dataclass(frozen=True)
class Replay:
    """The outcome of replaying a line: every state, or where and why it broke."""

    states: tuple[Any, ...]
    error_at: int | None = None
    error: str = ""
    unreadable: bool = False

    @property
    def ok(self) -> bool:
        return self.error_at is None

    @property
    def final(self) -> Any:
        return self.states[-1]


def replay(game: Game[Any, Any], start: Any, moves: tuple[str, ...]) -> Replay:
    """Apply ``moves`` (notation strings) from ``start``; stop at the first one that fails.

    A move that does not parse (``unreadable``) and a move that is not legal both stop the replay;
    ``error_at`` is the index of that move and ``error`` the reason.
    """
    states = [start]
    state = start
    for i, text in enumerate(moves):
        try:
            move = game.parse_move(state, text)
            state = game.apply(state, move)
        except NotationError as exc:
            return Replay(tuple(states), i, str(exc), unreadable=True)
        except IllegalMove as exc:
            return Replay(tuple(states), i, str(exc))
        states.append(state)
    return Replay(tuple(states))


def is_win(game: Game[Any, Any], state: Any) -> bool:
    """A terminal state whose return for the first player is positive (a cooperative puzzle's win)."""
    return bool(game.is_terminal(state) and game.returns(state)[0] > 0)


def no_win_within(
    game: Game[Any, Any],
    start: Hashable,
    depth: int | None,
    progress: Callable[[int, int], None] | None = None,
) -> tuple[bool, tuple[int, ...]]:
    """Plain BFS: True if no won state is reachable in at most ``depth`` moves (``None``: any number).

    Returns the verdict and the number of distinct states first reached at each depth.
    """
    layer = [start]
    seen = {start}
    per_depth = [1]
    if is_win(game, start):
        return False, tuple(per_depth)
    d = 0
    while layer and (depth is None or d < depth):
        d += 1
        nxt: list[Hashable] = []
        for state in layer:
            if game.is_terminal(state):
                continue
            for move in game.legal_moves(state):
                after = game.apply(state, move)
                if after in seen:
                    continue
                if is_win(game, after):
                    return False, tuple(per_depth + [len(nxt) + 1])
                seen.add(after)
                nxt.append(after)
        per_depth.append(len(nxt))
        if progress is not None:
            progress(d, len(seen))
        layer = nxt
    if per_depth[-1] == 0:
        per_depth.pop()
    return True, tuple(per_depth)

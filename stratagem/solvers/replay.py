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


#: The default cap on the states the plain enumeration keeps (``seen`` and the current layer). Strato
#: states cost about 3 KB each in this enumeration (measured on the level-2 example: 60,000 states, 230
#: MB), so the cap keeps a re-check near 600 MB; a caller that wants more passes ``max_states`` itself.
DEFAULT_MAX_STATES = 200_000


@dataclass(frozen=True)
class Enumeration:
    """The outcome of :func:`no_win_within`.

    ``no_win`` is ``True`` when the enumeration ended without reaching a won state, ``False`` when it
    reached one, and ``None`` when a limit stopped it first (``stopped_by`` is then ``"time"`` or
    ``"nodes"``: nothing is known). ``per_depth`` counts the distinct states first reached at each depth,
    ``states`` all of them.
    """

    no_win: bool | None
    per_depth: tuple[int, ...]
    stopped_by: str | None = None

    @property
    def states(self) -> int:
        return sum(self.per_depth)


def no_win_within(
    game: Game[Any, Any],
    start: Hashable,
    depth: int | None,
    progress: Callable[[int, int], None] | None = None,
    *,
    deadline: Callable[[], bool] | None = None,
    max_states: int | None = DEFAULT_MAX_STATES,
) -> Enumeration:
    """Plain BFS: is no won state reachable in at most ``depth`` moves (``None``: any number)?

    ``deadline`` (a stop test, such as :class:`~stratagem.core.deadline.Deadline`) is asked before each
    expansion (one costs far more than the test), and at most ``max_states`` distinct states are kept
    (``None``: no cap), so that a re-check of a claim about a large space ends, with ``no_win``
    ``None``, instead of running for hours or exhausting memory.
    """
    layer = [start]
    seen = {start}
    per_depth = [1]
    if is_win(game, start):
        return Enumeration(False, tuple(per_depth))
    d = 0
    while layer and (depth is None or d < depth):
        d += 1
        nxt: list[Hashable] = []
        for state in layer:
            if deadline is not None and deadline():
                return Enumeration(None, tuple(per_depth + [len(nxt)]), "time")
            if game.is_terminal(state):
                continue
            for move in game.legal_moves(state):
                after = game.apply(state, move)
                if after in seen:
                    continue
                if is_win(game, after):
                    return Enumeration(False, tuple(per_depth + [len(nxt) + 1]))
                if max_states is not None and len(seen) >= max_states:
                    return Enumeration(None, tuple(per_depth + [len(nxt)]), "nodes")
                seen.add(after)
                nxt.append(after)
        per_depth.append(len(nxt))
        if progress is not None:
            progress(d, len(seen))
        layer = nxt
    if per_depth[-1] == 0:
        per_depth.pop()
    return Enumeration(True, tuple(per_depth))

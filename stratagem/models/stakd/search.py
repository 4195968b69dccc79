"""Exhaustive solo search: can every piece be placed? The reference the CP-SAT and SAT models are
checked against on small piece sets.

Depth-first search over placements, in the rules engine's move order, remembering positions already
shown hopeless. Two positions share a future when their top two layers hold the same pieces (in any
order) and the hands are equal: no piece ever goes below the current layer, a new layer rests only on
the current one, and what the order of a layer's pieces decided (connection, Bomber termination) is
already fixed. So the memo key is (top two layers as sets, hand, whether the top is the Base layer),
which merges the many orders that build the same layer.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

from stratagem.models.stakd.pieces import BASE, KIND_INDEX, Hand
from stratagem.models.stakd.position import Move, State
from stratagem.models.stakd.rules import StakdGame

SOLVED, IMPOSSIBLE, UNKNOWN = "solved", "impossible", "unknown"


class SoloResult(NamedTuple):
    """``status``: SOLVED (``line`` places every piece), IMPOSSIBLE (searched exhaustively, no
    certificate) or UNKNOWN (``node_limit`` reached, or the ``deadline`` passed). ``nodes`` counts positions
    expanded."""

    status: str
    line: tuple[Move, ...] | None
    nodes: int


MemoKey = tuple[int, frozenset[tuple[str, tuple[int, int], str]], frozenset[tuple[str, tuple[int, int], str]], Hand]


def memo_key(state: State) -> MemoKey:
    """What a solo position's future depends on (see the module docstring)."""
    top = state.top
    below = frozenset(p[:3] for p in state.layers[top - 1]) if top >= 1 else frozenset()
    current = frozenset(p[:3] for p in state.layers[top]) if top >= 0 else frozenset()
    return (min(top, 1), below, current, state.hands[0])


class _Limit(Exception):
    pass


def solo_search(game: StakdGame, state: State | None = None, node_limit: int = 1_000_000,
                deadline: Callable[[], bool] | None = None) -> SoloResult:
    """Search for a line from ``state`` (default: the game's start) that places every piece in hand.

    ``deadline`` (a stop test such as :class:`~stratagem.core.deadline.Deadline`) is asked every 64
    expansions, so a caller's time limit holds as well as the node limit.
    """
    if game.num_players != 1:
        raise ValueError(f"solo search needs a one-player game, not {game.num_players} players")
    start = game.initial_state() if state is None else state
    hopeless: set[MemoKey] = set()
    line: list[Move] = []
    nodes = 0

    def dfs(s: State) -> bool:
        nonlocal nodes
        hand = s.hands[0]
        if not any(hand):
            return True
        if s.is_over() or (s.top >= 1 and hand[KIND_INDEX[BASE]]):
            return False  # out, or Bases left once stacking began: they can never be laid
        key = memo_key(s)
        if key in hopeless:
            return False
        if nodes >= node_limit:  # one more expansion would pass the limit: it is not counted (was: 101 of 100)
            raise _Limit
        nodes += 1
        if deadline is not None and nodes % 64 == 0 and deadline():
            raise _Limit
        for move in game.legal_moves(s):
            line.append(move)
            if dfs(game.place(s, move)):
                return True
            line.pop()
        hopeless.add(key)
        return False

    try:
        found = dfs(start)
    except _Limit:
        return SoloResult(UNKNOWN, None, nodes)
    return SoloResult(SOLVED, tuple(line), nodes) if found else SoloResult(IMPOSSIBLE, None, nodes)

"""Perft over a packed game: how many leaves the game tree has down to a depth, counted in C.

python-chess and every chess engine test their move generators this way: the number of leaves of the
tree cut at a depth is one integer that any difference in legal moves, successors or the end of the
game changes. Here it runs on any compiled engine through the C-level interface of
:class:`~stratagem.core.packed.PackedGame`, so the same count, taken on a game's reference engine in
plain Python, holds the compiled engine to it; it is also the simplest measure of an engine's speed
(leaves per CPU second).

A leaf is a state at the depth or a terminal state above it. A chance state's outcomes count as moves
(each outcome one branch, whatever its weight); at a state where all players move at once, the engine's
move records are joint moves. This module is a kernel (compiled at install, see ``setup.py``).
"""

from __future__ import annotations

from typing import Any

import cython

if cython.compiled:
    from cython.cimports.stratagem.core.packed import CHANCE, PackedGame
else:
    from stratagem.core.packed import CHANCE, PackedGame

#: Deepest perft (the scratch area is one move list per ply).
MAX_DEPTH = 64


@cython.cfunc
@cython.exceptval(-1)
def _leaves(game: PackedGame, states: cython.longlong[:, ::1], moves: cython.longlong[:, :, ::1],
            weights: cython.longlong[::1], returns: cython.longlong[::1], ply: cython.Py_ssize_t,
            depth: cython.Py_ssize_t) -> cython.longlong:
    state: cython.longlong[::1] = states[ply]
    if game.terminal(state, returns) or ply == depth:
        return 1
    here: cython.longlong[:, ::1] = moves[ply]
    count: cython.Py_ssize_t = (game.chance(state, here, weights) if game.to_move(state) == CHANCE
                                else game.legal(state, here))
    total: cython.longlong = 0
    i: cython.Py_ssize_t
    for i in range(count):
        game.apply(state, here[i], states[ply + 1])
        total += _leaves(game, states, moves, weights, returns, ply + 1, depth)
    return total


def perft(game: PackedGame, state: Any, depth: int) -> int:
    """The number of leaves of ``game``'s tree from the packed ``state`` cut at ``depth`` plies."""
    import numpy as np

    if not 0 <= depth <= MAX_DEPTH:
        raise ValueError(f"perft depth must be between 0 and {MAX_DEPTH}, not {depth}")
    states = np.zeros((depth + 1, game.width), np.int64)
    states[0] = np.asarray(state, np.int64)
    moves = np.zeros((max(depth, 1), game.max_moves, game.move_width), np.int64)
    weights = np.zeros(game.max_moves, np.int64)
    returns = np.zeros(game.players, np.int64)
    return int(_leaves(game, states, moves, weights, returns, 0, depth))


__all__ = ["MAX_DEPTH", "perft"]

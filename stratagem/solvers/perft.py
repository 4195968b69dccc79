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

:func:`random_playouts` plays seeded random games through the same interface, for measuring an engine's
transitions per CPU second on the very playouts a Python driver (:func:`splitmix64`, same choices)
replays on the reference engine.
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

#: splitmix64's constants and the mask that keeps the interpreted arithmetic to 64 bits as C's is.
_GOLDEN = cython.declare(cython.ulonglong, 0x9E3779B97F4A7C15)
_MIX1 = cython.declare(cython.ulonglong, 0xBF58476D1CE4E5B9)
_MIX2 = cython.declare(cython.ulonglong, 0x94D049BB133111EB)
_MASK = cython.declare(cython.ulonglong, 0xFFFFFFFFFFFFFFFF)


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


@cython.cfunc
@cython.inline
@cython.exceptval(check=False)
def _mix(z: cython.ulonglong) -> cython.ulonglong:
    z = ((z ^ (z >> 30)) * _MIX1) & _MASK
    z = ((z ^ (z >> 27)) * _MIX2) & _MASK
    return z ^ (z >> 31)


def splitmix64(seed: int) -> tuple[int, int]:
    """One step of splitmix64: the next generator state and the 64-bit number drawn (the generator
    :func:`random_playouts` uses, for a Python driver that makes the same choices)."""
    state = (seed + _GOLDEN) & _MASK
    return state, int(_mix(state))


@cython.cfunc
@cython.exceptval(-1)
def _playouts(game: PackedGame, start: cython.longlong[::1], states: cython.longlong[:, ::1],
              moves: cython.longlong[:, ::1], weights: cython.longlong[::1], returns: cython.longlong[::1],
              count: cython.longlong, seed: cython.ulonglong, max_plies: cython.longlong,
              totals: cython.longlong[::1]) -> cython.longlong:
    rng: cython.ulonglong = seed & _MASK
    transitions: cython.longlong = 0
    width: cython.Py_ssize_t = game.width
    _g: cython.longlong
    ply: cython.longlong
    n: cython.Py_ssize_t
    i: cython.Py_ssize_t
    pick: cython.Py_ssize_t
    here: cython.Py_ssize_t
    total: cython.longlong
    draw: cython.longlong
    common: cython.longlong
    a: cython.longlong
    z: cython.ulonglong
    for _g in range(count):
        for i in range(width):
            states[0, i] = start[i]
        here = 0
        ply = 0
        while not game.terminal(states[here], returns):
            if ply == max_plies:
                raise ValueError(f"a playout longer than {max_plies} plies")
            rng = (rng + _GOLDEN) & _MASK
            z = _mix(rng)
            if game.to_move(states[here]) == CHANCE:
                n = game.chance(states[here], moves, weights)
                if n == 0:
                    raise ValueError("a chance state without outcomes")
                # The weights divided by their gcd: the least integers with these probabilities, so that
                # any engine giving the same probabilities draws the same outcome for the same number.
                common = 0
                for i in range(n):
                    a = weights[i]
                    while a:
                        common, a = a, common % a
                total = 0
                for i in range(n):
                    total += weights[i] // common
                draw = cython.cast(cython.longlong, z % cython.cast(cython.ulonglong, total))
                pick = 0
                while draw >= weights[pick] // common:
                    draw -= weights[pick] // common
                    pick += 1
            else:
                n = game.legal(states[here], moves)
                pick = cython.cast(cython.Py_ssize_t, z % cython.cast(cython.ulonglong, n))
            game.apply(states[here], moves[pick], states[1 - here])
            here = 1 - here
            ply += 1
            transitions += 1
        for i in range(game.players):
            totals[i] += returns[i]
    return transitions


def random_playouts(game: PackedGame, state: Any, count: int, seed: int, max_plies: int = 100_000) -> tuple[int, Any]:
    """Play ``count`` random games from the packed ``state`` (each move drawn uniformly, each chance
    outcome by its weight, from one splitmix64 stream seeded with ``seed``; the weights are first divided
    by their gcd, so the draw depends only on the probabilities): the number of transitions
    (moves applied) and each player's returns summed over the games (a numpy array)."""
    import numpy as np

    states = np.zeros((2, game.width), np.int64)
    moves = np.zeros((game.max_moves, game.move_width), np.int64)
    weights = np.zeros(game.max_moves, np.int64)
    returns = np.zeros(game.players, np.int64)
    totals = np.zeros(game.players, np.int64)
    done = _playouts(game, np.ascontiguousarray(state, np.int64), states, moves, weights, returns, count,
                     seed & 0xFFFFFFFFFFFFFFFF, max_plies, totals)
    return int(done), totals


__all__ = ["MAX_DEPTH", "perft", "random_playouts", "splitmix64"]

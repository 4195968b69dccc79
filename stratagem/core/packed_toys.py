"""Two toy games written directly as compiled engines, to test the compiled searches without a real game.

The searches in ``stratagem/solvers/packed_*.py`` see a game only through
:class:`~stratagem.core.packed.PackedGame`; a Python subclass cannot stand in for an engine in their
tests, because a compiled search calls the C methods (which a Python subclass does not override). So
the tests' engines are kernels like any game's, kept this small on purpose:

* :class:`PackedNim` -- normal-play Nim (who takes the last counter wins). State: one word per pile,
  then the player to move. Move record: ``(pile, taken)``. Returns +1/-1.
* :class:`PackedPig` -- a short game of Pig with a three-faced die weighted 1:2:1 (faces 1, 2, 3): roll
  to add the face to the points at risk (a 1 loses them and passes the turn), hold to bank them;
  whoever reaches ``target`` wins at once, after ``turns`` turns the higher banked score wins (equal
  scores draw). State: ``(score 0, score 1, at risk, player, turns left, rolling)``. Move record:
  ``(0,)`` roll, ``(1,)`` hold; chance outcome ``(face,)``. Returns +1/-1/0. ``die`` changes the faces'
  weights (tests of how a search meets weights that are not positive).

Both mirror the reference toy games of the test suite (``tests/solvers/toygames.py``: ``NimGame``
and ``PigGame``), whose states they encode from and decode to (as plain tuples, which those states,
named tuples, compare equal to). :class:`PackedTicTacToe` is OpenSpiel's C++ ``tic_tac_toe``, the
benchmark's ceiling. No game package is imported. This module is a kernel.
"""

from __future__ import annotations

from typing import Any

import cython
import numpy as np

if cython.compiled:
    from cython.cimports.stratagem.core.packed import CHANCE, PackedGame
else:
    from stratagem.core.packed import CHANCE, PackedGame


@cython.cclass
class PackedNim(PackedGame):  # type: ignore[misc]
    """Normal-play Nim over ``piles`` piles (see the module docstring)."""

    piles: cython.Py_ssize_t

    def __init__(self, piles: int, most: int = 64) -> None:
        PackedGame.__init__(self, piles + 1, 2, max(piles * most, 1), 2)
        self.piles = piles

    @cython.cfunc
    @cython.exceptval(-3, check=False)
    def to_move(self, state: cython.longlong[::1]) -> cython.Py_ssize_t:
        return state[self.piles]

    @cython.cfunc
    @cython.exceptval(-1, check=False)
    def legal(self, state: cython.longlong[::1], moves: cython.longlong[:, ::1]) -> cython.Py_ssize_t:
        count: cython.Py_ssize_t = 0
        i: cython.Py_ssize_t
        take: cython.longlong
        for i in range(self.piles):
            for take in range(1, state[i] + 1):
                if count >= self.max_moves:
                    raise ValueError("more Nim moves than max_moves")
                moves[count, 0] = i
                moves[count, 1] = take
                count += 1
        return count

    @cython.cfunc
    @cython.exceptval(-1, check=False)
    def apply(self, state: cython.longlong[::1], move: cython.longlong[::1], out: cython.longlong[::1]) -> cython.int:
        i: cython.Py_ssize_t
        for i in range(self.width):
            out[i] = state[i]
        if not (0 <= move[0] < self.piles and 1 <= move[1] <= state[move[0]]):
            raise ValueError("not a legal Nim move")
        out[move[0]] -= move[1]
        out[self.piles] = 1 - state[self.piles]
        return 0

    @cython.cfunc
    @cython.exceptval(-1, check=False)
    def terminal(self, state: cython.longlong[::1], returns: cython.longlong[::1]) -> cython.bint:
        i: cython.Py_ssize_t
        for i in range(self.piles):
            if state[i] != 0:
                return False
        returns[0] = -1 if state[self.piles] == 0 else 1  # the player to move faces empty piles: lost
        returns[1] = -returns[0]
        return True

    def encode(self, state: Any) -> Any:
        return np.array([*state.piles, state.player], np.int64)

    def decode(self, vector: Any) -> Any:
        return (tuple(int(v) for v in vector[: self.piles]), int(vector[self.piles]))

    def decode_move(self, state: Any, record: Any) -> Any:
        return (int(record[0]), int(record[1]))


@cython.cclass
class PackedPig(PackedGame):  # type: ignore[misc]
    """Pig with a 1:2:1 three-faced die (see the module docstring)."""

    target: cython.longlong
    die: cython.longlong[::1]

    def __init__(self, target: int = 4, turns: int = 4, die: tuple[int, int, int] = (1, 2, 1)) -> None:
        PackedGame.__init__(self, 6, 1, 3, 2)
        self.target = target
        self.die = np.array(die, np.int64)

    @cython.cfunc
    @cython.exceptval(-3, check=False)
    def to_move(self, state: cython.longlong[::1]) -> cython.Py_ssize_t:
        return CHANCE if state[5] else state[3]

    @cython.cfunc
    @cython.exceptval(-1, check=False)
    def legal(self, state: cython.longlong[::1], moves: cython.longlong[:, ::1]) -> cython.Py_ssize_t:
        if state[5]:
            return 0
        moves[0, 0] = 0
        moves[1, 0] = 1
        return 2

    @cython.cfunc
    @cython.exceptval(-1, check=False)
    def chance(self, state: cython.longlong[::1], moves: cython.longlong[:, ::1],
               weights: cython.longlong[::1]) -> cython.Py_ssize_t:
        if not state[5]:
            return 0
        face: cython.Py_ssize_t
        for face in range(3):
            moves[face, 0] = face + 1
            weights[face] = self.die[face]
        return 3

    @cython.cfunc
    @cython.exceptval(-1, check=False)
    def apply(self, state: cython.longlong[::1], move: cython.longlong[::1], out: cython.longlong[::1]) -> cython.int:
        i: cython.Py_ssize_t
        player: cython.Py_ssize_t = state[3]
        for i in range(6):
            out[i] = state[i]
        if state[5]:
            if not 1 <= move[0] <= 3:
                raise ValueError("not a face of the die")
            if move[0] == 1:
                self._pass(out)
                return 0
            out[2] = state[2] + move[0]
            out[5] = 0
            if state[player] + out[2] >= self.target:
                out[player] += out[2]
                self._pass(out)
            return 0
        if move[0] == 0:
            out[5] = 1
        elif move[0] == 1:
            out[player] += state[2]
            self._pass(out)
        else:
            raise ValueError("not a Pig move")
        return 0

    @cython.cfunc
    @cython.exceptval(-1, check=False)
    def _pass(self, out: cython.longlong[::1]) -> cython.int:
        out[2] = 0
        out[3] = 1 - out[3]
        out[4] -= 1
        out[5] = 0
        return 0

    @cython.cfunc
    @cython.exceptval(-1, check=False)
    def terminal(self, state: cython.longlong[::1], returns: cython.longlong[::1]) -> cython.bint:
        if not (state[0] >= self.target or state[1] >= self.target or state[4] <= 0):
            return False
        returns[0] = 1 if state[0] > state[1] else -1 if state[1] > state[0] else 0
        returns[1] = -returns[0]
        return True

    def encode(self, state: Any) -> Any:
        return np.array([state.scores[0], state.scores[1], state.at_risk, state.player, state.turns_left,
                         int(state.rolling)], np.int64)

    def decode(self, vector: Any) -> Any:
        v = [int(x) for x in vector]
        return ((v[0], v[1]), v[2], v[3], v[4], bool(v[5]))

    def decode_move(self, state: Any, record: Any) -> Any:
        if int(np.asarray(state)[5]):
            return int(record[0])
        return "roll" if int(record[0]) == 0 else "hold"


_LINES = cython.declare(cython.longlong[24], [0, 1, 2, 3, 4, 5, 6, 7, 8, 0, 3, 6, 1, 4, 7, 2, 5, 8, 0, 4, 8, 2, 4, 6])


@cython.cclass
class PackedTicTacToe(PackedGame):  # type: ignore[misc]
    """Noughts and crosses: nine cells (0 empty, 1 X, 2 O) and the player to move (X, player 0, first).
    Move record: ``(cell,)``, cells numbered row by row. Returns +1/-1, 0 for a full board without a line.
    OpenSpiel ships the same game in C++ (``tic_tac_toe``): the compiled searches' speed against its C++
    MCTS on it is the ceiling the benchmark reports."""

    def __init__(self) -> None:
        PackedGame.__init__(self, 10, 1, 9, 2)

    @cython.cfunc
    @cython.exceptval(-3, check=False)
    def to_move(self, state: cython.longlong[::1]) -> cython.Py_ssize_t:
        return state[9]

    @cython.cfunc
    @cython.exceptval(-1, check=False)
    def legal(self, state: cython.longlong[::1], moves: cython.longlong[:, ::1]) -> cython.Py_ssize_t:
        count: cython.Py_ssize_t = 0
        i: cython.Py_ssize_t
        for i in range(9):
            if state[i] == 0:
                moves[count, 0] = i
                count += 1
        return count

    @cython.cfunc
    @cython.exceptval(-1, check=False)
    def apply(self, state: cython.longlong[::1], move: cython.longlong[::1], out: cython.longlong[::1]) -> cython.int:
        i: cython.Py_ssize_t
        for i in range(10):
            out[i] = state[i]
        if not (0 <= move[0] < 9 and state[move[0]] == 0):
            raise ValueError("not an empty cell")
        out[move[0]] = state[9] + 1
        out[9] = 1 - state[9]
        return 0

    @cython.cfunc
    @cython.exceptval(-1, check=False)
    def terminal(self, state: cython.longlong[::1], returns: cython.longlong[::1]) -> cython.bint:
        k: cython.Py_ssize_t
        i: cython.Py_ssize_t
        mark: cython.longlong
        full: cython.bint = True
        for k in range(8):
            mark = state[_LINES[3 * k]]
            if mark != 0 and state[_LINES[3 * k + 1]] == mark and state[_LINES[3 * k + 2]] == mark:
                returns[0] = 1 if mark == 1 else -1
                returns[1] = -returns[0]
                return True
        for i in range(9):
            if state[i] == 0:
                full = False
        if full:
            returns[0] = 0
            returns[1] = 0
        return full

    def encode(self, state: Any) -> Any:
        cells, player = state
        return np.array([*cells, player], np.int64)

    def decode(self, vector: Any) -> Any:
        return (tuple(int(v) for v in vector[:9]), int(vector[9]))

    def decode_move(self, state: Any, record: Any) -> Any:
        return int(record[0])


__all__ = ["PackedNim", "PackedPig", "PackedTicTacToe"]
